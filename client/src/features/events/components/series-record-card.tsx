// The series' record on a weekly pickup's event page (docs/pickup-night.md
// › History and the record): for its organisers everyone who ever
// answered — weeks played, late drop-outs, no-shows; for a player their
// own line.

import { Link } from 'react-router';
import { plural } from '../../../lib/format';
import { Card, CardHeader } from '../../../components/ui/card';
import { PeopleIcon } from '../../../components/ui/icons';
import { useSeriesRecord } from '../api/history';
import type { RecordLine } from '../model/history';
import '../sides-and-bill.css';
import '../history.css';

function Count({ n, warn }: { n: number; warn?: boolean }) {
  return <td className={`ledger__num${warn && n > 0 ? ' ledger__owed' : ''}`}>{n}</td>;
}

function RecordTable({ lines }: { lines: RecordLine[] }) {
  return (
    <div className="table-wrap">
      <table className="ledger" data-testid="series-record-table">
        <caption className="sr-only">Each player's record over the series</caption>
        <thead>
          <tr>
            <th scope="col">Player</th>
            <th scope="col" className="ledger__num">
              Played
            </th>
            <th scope="col" className="ledger__num">
              Dropped late
            </th>
            <th scope="col" className="ledger__num">
              No-shows
            </th>
          </tr>
        </thead>
        <tbody>
          {lines.map((l) => (
            <tr key={l.userId} data-testid={`record-${l.userId}`}>
              <th scope="row">
                <Link to={`/users/${l.userId}`}>{l.displayName}</Link>
              </th>
              <Count n={l.attended} />
              <Count n={l.lateDropOuts} warn />
              <Count n={l.noShows} warn />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** "Played 6 · dropped late once · no no-shows": a player's own line. */
function myWords(l: RecordLine): string {
  const times = (n: number) => (n === 1 ? 'once' : `${n} times`);
  return [
    `Played ${l.attended} ${plural(l.attended, 'week')}`,
    l.lateDropOuts === 0 ? 'never dropped late' : `dropped late ${times(l.lateDropOuts)}`,
    l.noShows === 0 ? 'no no-shows' : `${l.noShows} ${plural(l.noShows, 'no-show')}`,
  ].join(' · ');
}

export function SeriesRecordCard({ seriesId, isOrganiser }: { seriesId: string; isOrganiser: boolean }) {
  const query = useSeriesRecord(seriesId);
  const lines = query.data?.items;
  if (!lines) return null;
  if (!isOrganiser) {
    const mine = lines[0];
    if (!mine) return null;
    return (
      <Card className="event-block event-block--season record-mine" data-testid="series-record">
        <CardHeader title="Your record this series" subtitle={myWords(mine)} />
      </Card>
    );
  }
  return (
    <Card className="event-block event-block--season record-card" data-testid="series-record">
      <CardHeader
        title={
          <span className="with-icon">
            <PeopleIcon size={18} /> Series record
          </span>
        }
        subtitle="Weeks played, places given up inside the late window, and no-shows at weeks with check-in."
      />
      {lines.length === 0 ? <p className="muted small">Nobody has answered any week yet.</p> : <RecordTable lines={lines} />}
    </Card>
  );
}
