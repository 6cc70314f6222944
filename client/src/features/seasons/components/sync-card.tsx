// Schedule sync of a season, as it is: for everyone, whether the games come
// from the league's schedule, when it was last read and when it will be
// next, and how many of the league's teams are matched to ours. For the
// facility's staff also the source (the URL is theirs alone — such URLs
// often carry a private token; it is edited in the season form), the last
// failure, "Sync now" with its report, and the history of runs.

import { useState } from 'react';
import { Link } from 'react-router';
import { ApiError, errorMessage } from '../../../lib/api';
import type { SeasonDetail } from '../../../lib/api-types';
import { relativeTime } from '../../../lib/event-format';
import { plural } from '../../../lib/format';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { ChevronRightIcon, ClockIcon, EditIcon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { formatIn, isoToZonedDay, rinkClock } from '../../../lib/time-zone';
import { useExternalRosters, useRefreshAfterScheduledSync, useSyncNow } from '../api/sync';
import { failureTitle, groupRosters, lastFailure, syncState, type SyncState } from '../model/sync';
import { SyncHistory } from './sync-history';
import { SyncReportView } from './sync-report';

/** "just now", "12 minutes ago", "yesterday". */
export function ago(iso: string, now: Date = new Date()): string {
  return Math.abs(now.getTime() - Date.parse(iso)) < 60_000 ? 'just now' : relativeTime(iso, now);
}

/** "2:00 PM" today at the rink, "Wed 2:00 PM" another day, "any moment now" when due. */
export function nextSyncText(iso: string, tz: string, now: Date = new Date()): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return '';
  if (at <= now.getTime()) return 'any moment now';
  const time = rinkClock(iso, tz);
  if (isoToZonedDay(iso, tz) === isoToZonedDay(now.toISOString(), tz)) return `at ${time}`;
  return `${formatIn(at, tz, { weekday: 'short' })} at ${time}`;
}

/** The headline for everyone, in plain words. */
export function syncHeadline(state: SyncState, tz: string, now: Date = new Date()): string {
  switch (state.kind) {
    case 'synced': {
      const parts = ['Synced from the league’s schedule', `last synced ${ago(state.lastAt, now)}`];
      parts.push(state.next ? `next sync ${nextSyncText(state.next, tz, now)}` : 'automatic sync is off');
      return parts.join(' · ');
    }
    case 'pending':
      return state.next ? `Not synced yet · first sync ${nextSyncText(state.next, tz, now)}` : 'Not synced yet';
    case 'off':
      return 'Schedule sync is off';
  }
}

export function SyncCard({ season, timezone }: { season: SeasonDetail; timezone: string }) {
  const staff = season.viewerCanEdit;
  const state = syncState(season);
  const hasSource = state.kind === 'synced' || season.lastSync !== null;
  const rosters = useExternalRosters(season.id, hasSource);
  useRefreshAfterScheduledSync(season.id, season.nextSyncAt);
  const groups = rosters.data ? groupRosters(rosters.data) : null;

  return (
    <Card data-testid="sync-card" className="season-sync">
      <CardHeader title="Schedule sync" />
      <p className={`season-sync__status season-sync__status--${state.kind}`} data-testid="sync-status">
        <span className="season-sync__dot" aria-hidden="true" />
        <span>{syncHeadline(state, timezone)}</span>
      </p>
      {state.kind === 'off' && !staff && <p className="muted small">Games of this season are entered by the rink’s staff.</p>}

      {groups && rosters.data && rosters.data.length > 0 && (
        <Link to={`/seasons/${season.id}/teams`} className="season-sync__teams" data-testid="league-teams-link">
          <span>
            <strong>League teams</strong> · {groups.matched.length} of {rosters.data.length} matched
            {staff && groups.claims.length > 0 && (
              <span className="season-sync__claims" data-testid="claims-count">
                {' '}
                · {groups.claims.length} {plural(groups.claims.length, 'claim')} to review
              </span>
            )}
          </span>
          <ChevronRightIcon size={16} />
        </Link>
      )}

      {staff && <StaffSync season={season} />}
    </Card>
  );
}

function StaffSync({ season }: { season: SeasonDetail }) {
  const sync = useSyncNow(season.id);
  const editLink = `/seasons/${season.id}/edit`;
  const [historyOpen, setHistoryOpen] = useState(false);
  const error = sync.error;
  // The newest run failed; unless this page just ran it and says so below.
  const failure = sync.isIdle ? lastFailure(season.lastSync) : null;

  return (
    <div className="season-sync__staff stack">
      {failure && (
        <div data-testid="sync-failure">
          <Alert tone="warning" title={`The last sync failed ${ago(failure.at)}`}>
            {failureTitle(failure.code)}: {failure.message}
          </Alert>
        </div>
      )}
      <div className="season-sync__source" data-testid="sync-source">
        <span className="field__label">Schedule URL</span>
        {season.syncUrl ? (
          <p className="season-sync__url">
            <span className="season-sync__url-text" title={season.syncUrl} data-testid="sync-url-shown">
              {season.syncUrl}
            </span>
            <Link to={editLink} className="season-sync__edit" data-testid="edit-sync-url" aria-label="Edit the schedule URL">
              <EditIcon size={14} />
              <span>Edit</span>
            </Link>
          </p>
        ) : (
          <p className="muted small">
            None yet. <Link to={editLink} data-testid="add-sync-url">Add the league’s schedule</Link> (iCalendar, CSV or DaySmart) in the season’s settings.
          </p>
        )}
        <p className="muted small">
          <ClockIcon size={13} /> Automatic sync is {season.syncEnabled ? 'on' : 'off'}.
        </p>
      </div>

      <div className="season-sync__run">
        <Button size="sm" onClick={() => sync.mutate()} loading={sync.isPending} disabled={!season.syncUrl} data-testid="sync-now">
          Sync now
        </Button>
        {sync.isPending && (
          <span className="season-sync__progress" role="status" data-testid="sync-progress">
            <Spinner size="sm" />
            Fetching the schedule…
          </span>
        )}
      </div>

      {error && !sync.isPending && (
        <div data-testid="sync-error">
          <Alert
            title={failureTitle(error instanceof ApiError ? error.code : 'fetch_failed')}
            action={
              <button type="button" className="link-btn" onClick={() => sync.reset()}>
                Dismiss
              </button>
            }
          >
            {errorMessage(error)}
          </Alert>
        </div>
      )}
      {sync.data && !sync.isPending && <SyncReportView report={sync.data} seasonId={season.id} onDismiss={() => sync.reset()} />}

      <details className="season-sync__history" onToggle={(e) => setHistoryOpen(e.currentTarget.open)} data-testid="sync-history">
        <summary>Sync history</summary>
        {historyOpen && <SyncHistory seasonId={season.id} />}
      </details>
    </div>
  );
}
