// The home page's main column: the composer, the "N new" pill, the items,
// and more pages as the reader nears the end.

import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../../lib/api';
import { useCurrentUser } from '../../../lib/auth/auth-context';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { PeopleIcon } from '../../../components/ui/icons';
import { ListSkeleton } from '../../../components/ui/list-row';
import { Spinner } from '../../../components/ui/spinner';
import { useCreatePost } from '../api/feed';
import { freshKey, useFeedView } from '../api/use-feed-view';
import { Composer } from './composer';
import { FeedCard } from './feed-card';
import '../feed.css';

export function FeedColumn() {
  const me = useCurrentUser();
  const create = useCreatePost(me.id);
  const { items, pendingCount, showNew, isFresh, pages } = useFeedView();
  const sentinel = useRef<HTMLDivElement | null>(null);
  /** Say where the new post went: your feed (it arrives live on top), your followers' and your profile. */
  const [posted, setPosted] = useState(false);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = pages;

  // Infinite scroll: the next page as the end comes within a screen.
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasNextPage || typeof IntersectionObserver === 'undefined') return undefined;
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
      },
      { rootMargin: '600px 0px' },
    );
    io.observe(el);
    return () => io.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  return (
    <section className="feed" aria-label="Your feed" data-testid="feed">
      <Composer onPost={(content) => create.mutateAsync(content)} onPosted={() => setPosted(true)} />
      {posted && (
        <p className="feed__posted" role="status" data-testid="posted-note">
          Posted. It is in your feed and your followers' feeds, and on <Link to={`/users/${me.id}`}>your profile</Link>.
        </p>
      )}

      {pendingCount > 0 && (
        <div className="feed__pill-bar">
          <button type="button" className="feed__pill" onClick={showNew} data-testid="new-items-pill">
            <span aria-hidden="true">↑</span> {pendingCount} new
          </button>
        </div>
      )}

      {pages.isPending ? (
        <Card padded={false}>
          <ListSkeleton rows={4} />
        </Card>
      ) : pages.isError ? (
        <Card>
          <EmptyState title="Could not load your feed" action={<Button variant="secondary" onClick={() => void pages.refetch()}>Try again</Button>}>
            {errorMessage(pages.error)}
          </EmptyState>
        </Card>
      ) : items.length === 0 ? (
        <Card>
          <EmptyState
            icon={<PeopleIcon size={28} />}
            title="Your feed is quiet"
            action={<ButtonLink to="/people">Find people to follow</ButtonLink>}
          >
            Follow people, rinks and teams: their posts, games and roster moves show up here live.
          </EmptyState>
        </Card>
      ) : (
        <ol className="feed__list" data-testid="feed-list">
          {items.map((item) => (
            <li key={freshKey(item)}>
              <FeedCard item={item} fresh={isFresh(item)} viewerFirstName={me.firstName} />
            </li>
          ))}
        </ol>
      )}

      <div ref={sentinel} className="feed__end">
        {isFetchingNextPage ? (
          <Spinner label="Loading more" />
        ) : hasNextPage ? (
          <Button variant="ghost" size="sm" onClick={() => void fetchNextPage()}>
            Load more
          </Button>
        ) : items.length > 4 ? (
          <p className="muted">You're all caught up.</p>
        ) : null}
      </div>
    </section>
  );
}
