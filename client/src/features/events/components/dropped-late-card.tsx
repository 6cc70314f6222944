// "Who dropped late" on the event page, for its organisers
// (docs/pickup-night.md › History and the record): every answer in the
// order it came — joined, declined, waitlisted, promoted — each with how
// long before puck drop, the late drop-outs marked. Oldest first, a page at
// a time ("Show more"); "Late only" keeps the marked ones in view.

import { useState } from 'react';
import { plural } from '../../../lib/format';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { ClockIcon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { useEventHistory } from '../api/history';
import { KIND_VERBS, whenWords, type HistoryEntry } from '../model/history';
import '../history.css';

function Entry({ entry }: { entry: HistoryEntry }) {
  const at = new Date(entry.at);
  return (
    <li className={`history-item history-item--${entry.kind.toLowerCase().replace('_', '-')}${entry.late ? ' history-item--late' : ''}`} data-testid={`history-${entry.id}`}>
      <span className="history-item__dot" aria-hidden="true" />
      <span className="history-item__what">
        <strong>{entry.displayName}</strong> {KIND_VERBS[entry.kind]}
      </span>
      <time className="history-item__when" dateTime={entry.at} title={at.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}>
        {whenWords(entry.minutesBefore)}
      </time>
      {entry.late && <span className="late-chip">Late</span>}
    </li>
  );
}

export function DroppedLateCard({ eventId }: { eventId: string }) {
  const query = useEventHistory(eventId);
  const [lateOnly, setLateOnly] = useState(false);
  if (query.isError) return null;
  const entries = query.data?.pages.flatMap((p) => p.items) ?? [];
  const late = entries.filter((e) => e.late);
  const more = Boolean(query.hasNextPage);
  const shown = lateOnly ? late : entries;
  const subtitle = query.isPending
    ? 'Reading the answers…'
    : entries.length === 0
      ? 'Nobody has answered yet.'
      : `${late.length === 0 ? 'No' : late.length} late ${plural(late.length, 'drop-out')}${more ? ' so far' : ''}: places given up inside the late window.`;
  return (
    <Card className="event-block event-block--history history-card" data-testid="dropped-late">
      <CardHeader
        title={
          <span className="with-icon">
            <ClockIcon size={18} /> Who dropped late
          </span>
        }
        subtitle={subtitle}
        action={
          entries.length > 0 && (
            <label className="history-filter">
              <input type="checkbox" checked={lateOnly} onChange={(e) => setLateOnly(e.target.checked)} data-testid="history-late-only" /> Late only
            </label>
          )
        }
      />
      {query.isPending && <Spinner label="Loading the history" />}
      {shown.length > 0 && (
        <ol className="history-list" data-testid="history-list">
          {shown.map((e) => (
            <Entry key={e.id} entry={e} />
          ))}
        </ol>
      )}
      {lateOnly && late.length === 0 && !query.isPending && <p className="muted small">Nobody has dropped late{more ? ' in what is shown' : ''}.</p>}
      {more && (
        <div className="load-more">
          <Button variant="secondary" onClick={() => void query.fetchNextPage()} loading={query.isFetchingNextPage} data-testid="history-more">
            Show more
          </Button>
        </div>
      )}
    </Card>
  );
}
