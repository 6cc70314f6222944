// "Season's ice" on a weekly series' event page (docs/sides-and-bill.md ›
// Series): the organiser sets one total for the season, split over the
// weeks that are on, and reads each week's cost and takings and each
// person's balance; a player reads their own balance line.

import { Link } from 'react-router';
import type { RinkEvent, SeriesBill } from '../../../lib/api-types';
import { formatMoney } from '../../../lib/money';
import { Card, CardHeader } from '../../../components/ui/card';
import { CalendarIcon } from '../../../components/ui/icons';
import { useSaveSeriesBill, useSeriesBill } from '../api/bill';
import { useEventSeries } from '../api/events';
import { shortDay, wallClockIn } from '../model/series';
import { BillTermsForm } from './bill-terms-form';
import '../sides-and-bill.css';

function WeeksTable({ bill, eventId, tz }: { bill: SeriesBill; eventId: string; tz: string | null }) {
  const fmt = (c: number) => formatMoney(c, bill.currency);
  return (
    <div className="table-wrap">
      <table className="ledger" data-testid="series-weeks">
        <caption className="sr-only">Each week's ice</caption>
        <thead>
          <tr>
            <th scope="col">Week</th>
            <th scope="col" className="ledger__num">
              Cost
            </th>
            <th scope="col" className="ledger__num">
              Collected
            </th>
            <th scope="col" className="ledger__num">
              Outstanding
            </th>
            <th scope="col">Billed</th>
          </tr>
        </thead>
        <tbody>
          {bill.weeks.map((w) => {
            const wall = wallClockIn(w.startDate, tz);
            const day = wall ? shortDay(wall.day) : w.startDate.slice(0, 10);
            const here = w.eventId === eventId;
            return (
              <tr key={w.eventId} className={here ? 'ledger__row--here' : undefined} data-testid={`series-week-${w.eventId}`}>
                <th scope="row">
                  {here ? (
                    <span aria-current="page">
                      {day} <span className="ledger__here">this week</span>
                    </span>
                  ) : (
                    <Link to={`/events/${w.eventId}`}>{day}</Link>
                  )}
                </th>
                <td className="ledger__num">{w.costCents === null ? <span className="muted">—</span> : fmt(w.costCents)}</td>
                <td className="ledger__num">{fmt(w.collectedCents)}</td>
                <td className="ledger__num">{w.outstandingCents > 0 ? <span className="ledger__owed">{fmt(w.outstandingCents)}</span> : fmt(0)}</td>
                <td>{w.closedAt ? <span className="billed-chip billed-chip--yes">Billed</span> : <span className="billed-chip">Not yet</span>}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function PeopleTable({ bill }: { bill: SeriesBill }) {
  const fmt = (c: number) => formatMoney(c, bill.currency);
  if (bill.people.length === 0) return <p className="muted small">Nobody has a share yet. Shares appear as you bill each week.</p>;
  return (
    <div className="table-wrap">
      <table className="ledger" data-testid="series-people">
        <caption className="sr-only">Each player's balance over the season</caption>
        <thead>
          <tr>
            <th scope="col">Player</th>
            <th scope="col" className="ledger__num">
              Owed
            </th>
            <th scope="col" className="ledger__num">
              Paid
            </th>
            <th scope="col" className="ledger__num">
              Credit
            </th>
            <th scope="col" className="ledger__num">
              Balance
            </th>
          </tr>
        </thead>
        <tbody>
          {bill.people.map((p) => (
            <tr key={p.userId} data-testid={`series-person-${p.userId}`}>
              <th scope="row">
                <Link to={`/users/${p.userId}`}>{p.displayName}</Link>
              </th>
              <td className="ledger__num">{fmt(p.owedCents)}</td>
              <td className="ledger__num">{fmt(p.paidCents)}</td>
              <td className="ledger__num">{fmt(p.creditCents)}</td>
              <td className={`ledger__num ledger__balance${p.balanceCents > 0 ? ' ledger__owed' : p.balanceCents < 0 ? ' ledger__credit' : ''}`}>{fmt(p.balanceCents)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** "You owe $35.00 this season": a player's own row. */
function MySeason({ bill }: { bill: SeriesBill }) {
  const row = bill.people[0];
  if (!row || (row.owedCents === 0 && row.paidCents === 0 && row.creditCents === 0)) return null;
  const fmt = (c: number) => formatMoney(c, bill.currency);
  const headline = row.balanceCents > 0 ? `You owe ${fmt(row.balanceCents)} this season` : row.balanceCents < 0 ? `${fmt(-row.balanceCents)} in credit this season` : 'All square for the season';
  return (
    <Card className="event-block event-block--season season-mine" data-testid="series-ice">
      <CardHeader title="Season's ice" subtitle={headline} />
      <dl className="bill-totals" data-testid="series-my-balance">
        <div className="bill-totals__item">
          <dt>Owed</dt>
          <dd>{fmt(row.owedCents)}</dd>
        </div>
        <div className="bill-totals__item bill-totals__item--collected">
          <dt>Paid</dt>
          <dd>{fmt(row.paidCents)}</dd>
        </div>
        <div className="bill-totals__item">
          <dt>Credit</dt>
          <dd>{fmt(row.creditCents)}</dd>
        </div>
        <div className={`bill-totals__item${row.balanceCents > 0 ? ' bill-totals__item--outstanding' : ''}`}>
          <dt>Balance</dt>
          <dd data-testid="series-my-balance-amount">{fmt(row.balanceCents)}</dd>
        </div>
      </dl>
    </Card>
  );
}

function OrganiserSeason({ bill, event, tz }: { bill: SeriesBill; event: RinkEvent; tz: string | null }) {
  const save = useSaveSeriesBill(bill.seriesId);
  const fmt = (c: number) => formatMoney(c, bill.currency);
  const weeksOn = bill.weeks.length;
  return (
    <Card className="event-block event-block--season season-card" data-testid="series-ice">
      <CardHeader
        title={
          <span className="with-icon">
            <CalendarIcon size={18} /> Season's ice
          </span>
        }
        subtitle={bill.totalCents === null ? 'One total for every week: each week on takes its share, earlier weeks the odd cents.' : `${fmt(bill.totalCents)} over ${weeksOn} ${weeksOn === 1 ? 'week' : 'weeks'}. A week's own cost overrides its share.`}
        action={<span className="currency-tag">{bill.currency}</span>}
      />
      <BillTermsForm
        terms={{ cents: bill.totalCents, goaliePolicy: bill.goaliePolicy, organiserPays: bill.organiserPays, currency: bill.currency }}
        label="Total for the season"
        hint={`In ${bill.currency}. Cancelled weeks take no share.`}
        currencyEditable={!event.facilityId}
        saving={save.isPending}
        note="Every week's unpaid shares follow at once."
        onSave={async (t) => {
          await save.mutateAsync({ costCents: t.cents, goaliePolicy: t.goaliePolicy, organiserPays: t.organiserPays, ...(t.currency !== bill.currency ? { currency: t.currency } : {}) });
        }}
        testIdPrefix="series-bill"
      />
      <dl className="bill-totals" data-testid="series-totals">
        <div className="bill-totals__item bill-totals__item--collected">
          <dt>Collected</dt>
          <dd>{fmt(bill.collectedCents)}</dd>
        </div>
        <div className="bill-totals__item bill-totals__item--outstanding">
          <dt>Outstanding</dt>
          <dd>{fmt(bill.outstandingCents)}</dd>
        </div>
        <div className="bill-totals__item">
          <dt>Credit</dt>
          <dd>{fmt(bill.creditCents)}</dd>
        </div>
      </dl>
      <section className="season-section">
        <h3 className="tool-section__title">By week</h3>
        <WeeksTable bill={bill} eventId={event.id} tz={tz} />
      </section>
      <section className="season-section">
        <h3 className="tool-section__title">By player</h3>
        <PeopleTable bill={bill} />
      </section>
    </Card>
  );
}

export function SeriesIceCard({ event }: { event: RinkEvent }) {
  const isOrganiser = Boolean(event.viewer?.isOrganiser);
  const query = useSeriesBill(event.seriesId);
  const series = useEventSeries(event.seriesId);
  const bill = query.data;
  if (!event.seriesId || !bill) return null;
  // Setting a season's total is for an organiser the rink lets collect.
  if (isOrganiser) return bill.canCollect ? <OrganiserSeason bill={bill} event={event} tz={series.data?.timeZone ?? null} /> : null;
  return <MySeason bill={bill} />;
}
