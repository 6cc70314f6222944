// Roster status for those who may edit it: DRAFT → ACTIVE → ARCHIVED (or
// straight from draft to archived). Archiving is final: the roster becomes
// read-only and pending requests are declined.

import type { RosterDocument, RosterStatus } from '../../../lib/api-types';
import { errorMessage } from '../../../lib/api';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { ROSTER_STATUS_LABELS } from '../../../components/ui/roster-list';
import { useEditRoster } from '../api/rosters';

const STEPS: Array<{ status: RosterStatus; blurb: string }> = [
  { status: 'DRAFT', blurb: 'Building the lineup' },
  { status: 'ACTIVE', blurb: 'Playing this season' },
  { status: 'ARCHIVED', blurb: 'Season over, read-only' },
];

export function StatusCard({ doc }: { doc: RosterDocument }) {
  const edit = useEditRoster(doc.id);
  const at = STEPS.findIndex((s) => s.status === doc.status);
  const target = edit.isPending ? edit.variables?.status : undefined;
  return (
    <Card data-testid="status-card">
      <CardHeader title="Status" />
      <ol className="roster-steps">
        {STEPS.map((s, i) => (
          <li key={s.status} className={`roster-steps__item${i < at ? ' roster-steps__item--done' : ''}${i === at ? ' roster-steps__item--current' : ''}`} aria-current={i === at ? 'step' : undefined}>
            <span className="roster-steps__dot" aria-hidden="true" />
            <span className="roster-steps__text">
              <strong>{ROSTER_STATUS_LABELS[s.status]}</strong>
              <span>{s.blurb}</span>
            </span>
          </li>
        ))}
      </ol>
      {edit.error && <Alert>{errorMessage(edit.error)}</Alert>}
      {doc.status === 'ARCHIVED' ? (
        <p className="muted small">Archived rosters keep their players and stats but can no longer change.</p>
      ) : (
        <div className="roster-status-actions">
          {doc.status === 'DRAFT' && (
            <Button size="sm" loading={target === 'ACTIVE'} disabled={edit.isPending} onClick={() => edit.mutate({ status: 'ACTIVE' })} data-testid="activate-roster">
              Activate roster
            </Button>
          )}
          <ConfirmButton
            size="sm"
            variant="secondary"
            confirmLabel="Tap again: this is final"
            loading={target === 'ARCHIVED'}
            disabled={edit.isPending}
            onConfirm={() => edit.mutate({ status: 'ARCHIVED' })}
            data-testid="archive-roster"
          >
            Archive roster
          </ConfirmButton>
          <p className="field__hint">Archiving makes the roster read-only and declines any pending requests.</p>
        </div>
      )}
    </Card>
  );
}
