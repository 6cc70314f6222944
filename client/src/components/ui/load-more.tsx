import { Button } from './button';

export function LoadMore({
  hasMore,
  loading,
  onLoadMore,
}: {
  hasMore: boolean;
  loading: boolean;
  onLoadMore: () => void;
}) {
  if (!hasMore) return null;
  return (
    <div className="load-more">
      <Button variant="secondary" onClick={onLoadMore} loading={loading} data-testid="load-more">
        Load more
      </Button>
    </div>
  );
}
