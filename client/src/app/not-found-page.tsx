import { ButtonLink } from '../components/ui/button';
import { Card } from '../components/ui/card';
import { EmptyState } from '../components/ui/empty-state';
import { RinkIcon } from '../components/ui/icons';

export function NotFoundPage() {
  return (
    <Card>
      <EmptyState
        icon={<RinkIcon size={28} />}
        title="Off the ice"
        action={<ButtonLink to="/" variant="primary">Back home</ButtonLink>}
      >
        There's nothing at this address. The page may have moved, or the link has a typo.
      </EmptyState>
    </Card>
  );
}
