// The season's last sync runs, newest first (staff): when, manual or on the
// timer, the format, what changed; a failed run in red with its reason.
// Read when the staff open it, not with every season page.

import { useState } from 'react';
import { errorMessage } from '../../../lib/api';
import { relativeTime } from '../../../lib/event-format';
import { Alert } from '../../../components/ui/alert';
import { Spinner } from '../../../components/ui/spinner';
import { useSyncRuns } from '../api/sync';
import { failureTitle, FORMAT_LABELS, gameCountsText, type SyncReport } from '../model/sync';

/** Runs shown before "Show all". */
const FIRST_RUNS = 5;

function RunRow({ run }: { run: SyncReport }) {
  const when = new Date(run.finishedAt);
  const trigger = run.trigger === 'SCHEDULED' ? 'Scheduled' : 'Manual';
  return (
    <li className={`sync-run${run.ok ? '' : ' sync-run--failed'}`} data-testid={`sync-run-${run.id}`} data-ok={run.ok}>
      <p className="sync-run__head">
        <strong>{run.ok ? trigger : `Failed · ${trigger}`}</strong>
        {run.ok && run.format && <span> · {FORMAT_LABELS[run.format] ?? run.format}</span>}
        <time dateTime={run.finishedAt} title={when.toLocaleString()} className="sync-run__when">
          {relativeTime(run.finishedAt)}
        </time>
      </p>
      {run.ok ? (
        <p className="sync-run__body">
          Games: {gameCountsText(run.games)}
          {run.events.created + run.events.updated > 0 && ` · events: ${run.events.created} created, ${run.events.updated} updated`}
          {run.rosters.unmatched > 0 && ` · ${run.rosters.unmatched} unmatched`}
        </p>
      ) : (
        <p className="sync-run__body sync-run__reason">
          {failureTitle(run.error?.code ?? '')}
          {run.error?.message ? `: ${run.error.message}` : ''}
        </p>
      )}
    </li>
  );
}

export function SyncHistory({ seasonId }: { seasonId: string }) {
  const runs = useSyncRuns(seasonId, true);
  const [all, setAll] = useState(false);
  if (runs.isPending) {
    return (
      <div className="center-pad">
        <Spinner size="sm" label="Loading the history" />
      </div>
    );
  }
  if (runs.isError) {
    return (
      <Alert action={<button type="button" className="link-btn" onClick={() => void runs.refetch()}>Retry</button>}>{errorMessage(runs.error)}</Alert>
    );
  }
  const items = runs.data;
  if (items.length === 0) return <p className="muted small">No runs yet.</p>;
  const shown = all ? items : items.slice(0, FIRST_RUNS);
  return (
    <>
      <ol className="sync-runs" data-testid="sync-runs">
        {shown.map((r) => (
          <RunRow key={r.id} run={r} />
        ))}
      </ol>
      {items.length > shown.length && (
        <button type="button" className="link-btn" onClick={() => setAll(true)} data-testid="sync-runs-all">
          Show all {items.length} runs
        </button>
      )}
    </>
  );
}
