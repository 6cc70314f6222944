// What a facility's or a team's page shows before it has the org: a
// spinner while it loads, and when the read failed either "not on Rinkside"
// (404, with a way back to the list) or the error with "Try again".

import type { ReactNode } from 'react';
import { ApiError, errorMessage } from '../../lib/api';
import { Button, ButtonLink } from './button';
import { Card } from './card';
import { EmptyState } from './empty-state';
import { PageSpinner } from './spinner';

export function OrgLoadState({
  failed,
  error,
  retry,
  loadingLabel,
  icon,
  notFoundTitle,
  errorTitle,
  listHref,
  listLabel,
}: {
  /** False while the first read is pending. */
  failed: boolean;
  error: unknown;
  retry: () => void;
  loadingLabel: string;
  icon: ReactNode;
  notFoundTitle: string;
  errorTitle: string;
  listHref: string;
  listLabel: string;
}) {
  if (!failed) return <PageSpinner label={loadingLabel} />;
  const notFound = error instanceof ApiError && error.status === 404;
  return (
    <Card>
      <EmptyState
        icon={icon}
        title={notFound ? notFoundTitle : errorTitle}
        action={notFound ? <ButtonLink to={listHref}>{listLabel}</ButtonLink> : <Button variant="secondary" onClick={retry}>Try again</Button>}
      >
        {notFound ? 'It may have been removed.' : errorMessage(error)}
      </EmptyState>
    </Card>
  );
}
