// What a facility's or a team's page shows before it has the org: a
// spinner while it loads, and when the read failed either "not on Rinkside"
// (404, with a way back to the list) or the error with "Try again".

import type { ReactNode } from 'react';
import { ApiError, errorMessage } from '../../lib/api';
import { Button, ButtonLink } from './button';
import { Card } from './card';
import { EmptyState } from './empty-state';
import { PageSpinner } from './spinner';

/** The words a kind of org uses while it has no page to show. */
export interface OrgLoadCopy {
  loadingLabel: string;
  notFoundTitle: string;
  errorTitle: string;
  listHref: string;
  listLabel: string;
}

export function OrgLoadState({
  query,
  icon,
  copy,
}: {
  /** The page's read: pending, or failed with its error. */
  query: { isError: boolean; error: unknown; refetch: () => unknown };
  icon: ReactNode;
  copy: OrgLoadCopy;
}) {
  if (!query.isError) return <PageSpinner label={copy.loadingLabel} />;
  const notFound = query.error instanceof ApiError && query.error.status === 404;
  return (
    <Card>
      <EmptyState
        icon={icon}
        title={notFound ? copy.notFoundTitle : copy.errorTitle}
        action={
          notFound ? (
            <ButtonLink to={copy.listHref}>{copy.listLabel}</ButtonLink>
          ) : (
            <Button variant="secondary" onClick={() => void query.refetch()}>
              Try again
            </Button>
          )
        }
      >
        {notFound ? 'It may have been removed.' : errorMessage(query.error)}
      </EmptyState>
    </Card>
  );
}
