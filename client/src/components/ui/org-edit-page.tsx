// The edit page of a facility or a team: staff only, the feature's form in a
// card, and for the owner a danger zone to delete it. What differs by kind
// (the form, the words, the icon, the mutations) comes from the feature.

import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../lib/api';
import { Alert } from './alert';
import { ButtonLink } from './button';
import { Card } from './card';
import { ConfirmButton } from './confirm-button';
import { EmptyState } from './empty-state';
import { DangerZone } from './org-layout';
import { PageHeader } from './page-header';

export interface OrgEditCopy {
  /** "facility" or "team". */
  noun: string;
  /** Where "Delete" lands: the kind's list. */
  listHref: string;
  /** What deleting takes with it, and when it is refused. */
  dangerSubtitle: string;
}

export function OrgEditPage({
  org,
  backTo,
  icon,
  copy,
  form,
  remove,
}: {
  org: { name: string; viewerRole: string | null };
  backTo: string;
  icon: ReactNode;
  copy: OrgEditCopy;
  /** The feature's form, already wired to save and to `backTo`. */
  form: ReactNode;
  remove: { mutate: (v: undefined, o: { onSuccess: () => void }) => void; isPending: boolean; error: unknown };
}) {
  const navigate = useNavigate();
  if (!org.viewerRole) {
    return (
      <Card>
        <EmptyState icon={icon} title={`Only its staff can edit this ${copy.noun}`} action={<ButtonLink to={backTo}>Back to {org.name}</ButtonLink>}>
          Ask the owner to add you as a manager.
        </EmptyState>
      </Card>
    );
  }
  return (
    <div className="stack-lg narrow">
      <PageHeader eyebrow={org.name} title={`Edit ${copy.noun}`} />
      <Card>{form}</Card>
      {org.viewerRole === 'OWNER' && (
        <DangerZone testId={`${copy.noun}-danger`} title={`Delete ${copy.noun}`} subtitle={copy.dangerSubtitle}>
          {remove.error ? <Alert>{errorMessage(remove.error)}</Alert> : null}
          <ConfirmButton
            variant="secondary"
            confirmLabel="Tap again to delete for good"
            loading={remove.isPending}
            onConfirm={() => remove.mutate(undefined, { onSuccess: () => navigate(copy.listHref, { replace: true }) })}
            data-testid={`delete-${copy.noun}`}
          >
            Delete {org.name}
          </ConfirmButton>
        </DangerZone>
      )}
    </div>
  );
}
