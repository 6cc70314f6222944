// What one sync did, right after "Sync now": the games created, updated,
// unchanged and removed, the events made or moved, the league's teams
// matched or not (with the way to match the rest), the source's format,
// and the rows that could not be read.

import { Link } from 'react-router';
import { plural } from '../../../lib/format';
import { CheckIcon, XIcon } from '../../../components/ui/icons';
import { FORMAT_LABELS, type SyncReport } from '../model/sync';

function seconds(report: SyncReport): string | null {
  const ms = Date.parse(report.finishedAt) - Date.parse(report.startedAt);
  if (!Number.isFinite(ms) || ms < 0) return null;
  return `${(ms / 1000).toFixed(1)} s`;
}

function Stat({ value, label, testId, tone }: { value: number; label: string; testId: string; tone?: 'new' | 'gone' }) {
  return (
    <div className={`sync-stat${tone ? ` sync-stat--${tone}` : ''}${value === 0 ? ' sync-stat--zero' : ''}`}>
      {/* The label comes first for a screen reader; CSS puts the number on top. */}
      <dt className="sync-stat__label">{label}</dt>
      <dd className="sync-stat__value" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

export function SyncReportView({ report, seasonId, onDismiss }: { report: SyncReport; seasonId: string; onDismiss?: () => void }) {
  const took = seconds(report);
  const { games, events, rosters } = report;
  return (
    <section className="sync-report" data-testid="sync-report" aria-label="Sync report">
      <header className="sync-report__head">
        <span className="sync-report__ok" aria-hidden="true">
          <CheckIcon size={14} />
        </span>
        <p className="sync-report__title" role="status">
          Synced{report.format ? ` · ${FORMAT_LABELS[report.format] ?? report.format}` : ''}
          {took && <span className="muted"> · {took}</span>}
        </p>
        {onDismiss && (
          <button type="button" className="icon-btn" onClick={onDismiss} aria-label="Close the report">
            <XIcon size={14} />
          </button>
        )}
      </header>

      <h3 className="sync-report__label">Games</h3>
      <dl className="sync-report__grid">
        <Stat value={games.created} label="new" tone="new" testId="report-games-created" />
        <Stat value={games.updated} label="updated" testId="report-games-updated" />
        <Stat value={games.unchanged} label="unchanged" testId="report-games-unchanged" />
        <Stat value={games.removed} label="removed" tone="gone" testId="report-games-removed" />
      </dl>

      <p className="sync-report__line" data-testid="report-events">
        <strong>Events</strong> {events.created} created · {events.updated} updated
      </p>
      <p className="sync-report__line" data-testid="report-rosters">
        <strong>Teams</strong> {rosters.matched} matched · {rosters.unmatched} unmatched
        {rosters.created > 0 && <span className="muted"> · {rosters.created} new in the schedule</span>}
      </p>

      {rosters.unmatched > 0 && (
        <Link to={`/seasons/${seasonId}/teams`} className="sync-report__cta" data-testid="report-match-link">
          Match the {rosters.unmatched} unmatched {plural(rosters.unmatched, 'team')} →
        </Link>
      )}

      {report.errors.length > 0 && (
        <details className="sync-report__errors" data-testid="report-errors">
          <summary>
            <XIcon size={12} /> {report.errors.length} {plural(report.errors.length, 'row')} of the schedule could not be read
          </summary>
          <ul>
            {report.errors.map((e, i) => (
              <li key={i}>{e}</li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
