// "Ice bill" (docs/sides-and-bill.md › The ice bill). The organiser who may
// collect sets the cost, what goalies pay and whether they pay a share
// themselves, sees each share before billing, bills the players, then marks
// who paid. An organiser the rink has not trusted with collecting is told
// who grants it; the rink's staff get the button that grants it. A player
// reads one line: what they owe, that they paid, or their credit.

import { useState } from 'react';
import { errorMessage } from '../../../lib/api';
import type { BillShare, EventBill, RinkEvent } from '../../../lib/api-types';
import { displayName, plural } from '../../../lib/format';
import { formatMoney } from '../../../lib/money';
import { usePerson } from '../../../lib/orgs';
import { useCurrentUser } from '../../../lib/auth/auth-context';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { CheckIcon, DollarIcon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { useMarkPaid } from '../api/events';
import { useFacility } from '../../../lib/facilities';
import { useBill, useCloseBill, useSaveBill, useSetPaymentCollection } from '../api/bill';
import { BILL_ROLE_LABELS, myMoney, previewLine } from '../model/bill';
import { BillTermsForm } from './bill-terms-form';
import '../sides-and-bill.css';

// ── The player's own line ─────────────────────────────────────────────────

/** "You owe $17.50 for Tuesday pickup" / "Paid" / "You have $5.00 credit"; nothing without a bill. */
export function PlayerBill({ event }: { event: RinkEvent }) {
  const money = myMoney(event.viewer);
  if (!money) return null;
  const fmt = (c: number) => formatMoney(c, money.currency);
  const credit = money.creditCents > 0 ? `You have ${fmt(money.creditCents)} credit` : null;
  let tone: 'owes' | 'paid' | 'credit';
  let title: string;
  let sub: string;
  if (money.kind === 'owes') {
    tone = 'owes';
    title = `You owe ${fmt(money.cents)} for ${event.title}`;
    sub = credit ? `${credit}, already taken off.` : 'Your share of the ice. Pay the organiser (cash or e-transfer) and they mark it here.';
  } else if (money.kind === 'paid') {
    tone = 'paid';
    title = 'Paid';
    sub = [`You paid ${fmt(money.cents)} for the ice. Thanks!`, credit ? `${credit}.` : null].filter(Boolean).join(' ');
  } else {
    tone = 'credit';
    title = `You have ${fmt(money.creditCents)} credit`;
    sub = 'You paid more than your share. The organiser holds it for you.';
  }
  return (
    <Card className={`event-block event-block--my-bill my-bill my-bill--${tone}`} data-testid="my-bill" data-state={tone}>
      <div className="my-bill__row">
        <span className="my-bill__icon" aria-hidden="true">
          {tone === 'paid' ? <CheckIcon size={22} /> : <DollarIcon size={22} />}
        </span>
        <div className="my-bill__text">
          <strong className="my-bill__title" data-testid="my-bill-title">
            {title}
          </strong>
          <span className="my-bill__sub">{sub}</span>
        </div>
      </div>
    </Card>
  );
}

// ── Organiser: cost, policy, preview, billing, who paid ───────────────────

function CostForm({ bill, hasRink, eventId }: { bill: EventBill; hasRink: boolean; eventId: string }) {
  const save = useSaveBill(eventId);
  return (
    <BillTermsForm
      terms={{ cents: bill.costCents, goaliePolicy: bill.goaliePolicy, organiserPays: bill.organiserPays, currency: bill.currency }}
      label="Cost of the ice"
      hint={bill.source === 'SERIES' ? "This week's share of the season's total. A cost here is this week's own." : `In ${bill.currency}. What the rink charged for the ice time.`}
      currencyEditable={!hasRink}
      saving={save.isPending}
      note={bill.closedAt ? 'Saving recomputes every unpaid share at once. Paid shares keep their amount.' : 'Players see nothing until you bill them.'}
      onSave={async (t) => {
        await save.mutateAsync({ costCents: t.cents, goaliePolicy: t.goaliePolicy, organiserPays: t.organiserPays, ...(t.currency !== bill.currency ? { currency: t.currency } : {}) });
      }}
      testIdPrefix="bill"
    />
  );
}

function PaidToggle({ share, pending, onToggle }: { share: BillShare; pending: boolean; onToggle: (isPaid: boolean) => void }) {
  return (
    <button
      type="button"
      className={`paid-toggle${share.isPaid ? ' paid-toggle--paid' : ''}`}
      aria-pressed={share.isPaid}
      aria-label={`${share.displayName}: ${share.isPaid ? 'paid' : 'not paid'}. Mark as ${share.isPaid ? 'not paid' : 'paid'}`}
      disabled={pending}
      onClick={() => onToggle(!share.isPaid)}
      data-testid={`bill-paid-${share.userId}`}
    >
      {pending ? <Spinner size="sm" /> : share.isPaid ? <CheckIcon size={14} /> : null}
      {share.isPaid ? 'Paid' : 'Unpaid'}
    </button>
  );
}

function SharesTable({ bill, eventId, closed, myId }: { bill: EventBill; eventId: string; closed: boolean; myId: string }) {
  const markPaid = useMarkPaid(eventId);
  const [error, setError] = useState<string | null>(null);
  const fmt = (c: number) => formatMoney(c, bill.currency);
  // The toggle in flight shows its new state until the bill is read again.
  const flight = markPaid.isPending ? markPaid.variables : null;
  return (
    <div className="shares table-wrap">
      {error && <Alert>{error}</Alert>}
      <table className="shares__table" data-testid={closed ? 'bill-shares' : 'bill-preview-shares'}>
        <caption className="sr-only">{closed ? 'Each player’s share and whether they paid' : 'Each player’s share, before billing'}</caption>
        <thead>
          <tr>
            <th scope="col">Player</th>
            <th scope="col" className="shares__role-col">
              <span className="sr-only">Role</span>
            </th>
            <th scope="col" className="shares__num">
              Share
            </th>
            {closed && (
              <th scope="col" className="shares__paid-col">
                <span className="sr-only">Paid</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {bill.shares.map((s) => {
            const shown = flight?.userId === s.userId ? { ...s, isPaid: flight.isPaid } : s;
            const free = s.amountCents === 0 && !s.isPaid;
            return (
              <tr key={s.userId} className={s.present ? undefined : 'shares__row--gone'} data-testid={`bill-share-${s.userId}`}>
                <th scope="row" className="shares__name">
                  <span className="shares__name-text">{s.displayName}</span>
                  {s.userId === myId && <span className="you-badge">You</span>}
                  {!s.present && <span className="side-player__dropped">dropped</span>}
                  {s.creditCents > 0 && (
                    <span className="credit-chip" data-testid={`bill-credit-${s.userId}`}>
                      credit {fmt(s.creditCents)}
                    </span>
                  )}
                </th>
                <td className="shares__role-col">
                  <span className={`role-badge role-badge--${s.role.toLowerCase()}`} title={BILL_ROLE_LABELS[s.role]}>
                    <span aria-hidden="true">{s.role === 'GOALIE' ? 'G' : 'S'}</span>
                    <span className="sr-only">{BILL_ROLE_LABELS[s.role]}</span>
                  </span>
                </td>
                <td className="shares__num" data-testid={`bill-amount-${s.userId}`}>
                  {free ? <span className="muted">Free</span> : fmt(s.isPaid && s.paidCents !== null ? s.paidCents : s.amountCents)}
                </td>
                {closed && (
                  <td className="shares__paid-col">
                    {!free && (
                      <PaidToggle
                        share={shown}
                        pending={flight?.userId === s.userId}
                        onToggle={(isPaid) => {
                          setError(null);
                          markPaid.mutate({ userId: s.userId, isPaid }, { onError: (err) => setError(errorMessage(err)) });
                        }}
                      />
                    )}
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function BillTotals({ bill }: { bill: EventBill }) {
  const fmt = (c: number) => formatMoney(c, bill.currency);
  return (
    <dl className="bill-totals" data-testid="bill-totals">
      <div className="bill-totals__item bill-totals__item--collected">
        <dt>Collected</dt>
        <dd data-testid="bill-collected">{fmt(bill.collectedCents)}</dd>
      </div>
      <div className="bill-totals__item bill-totals__item--outstanding">
        <dt>Outstanding</dt>
        <dd data-testid="bill-outstanding">{fmt(bill.outstandingCents)}</dd>
      </div>
      <div className="bill-totals__item">
        <dt>Credit</dt>
        <dd data-testid="bill-credit">{fmt(bill.creditCents)}</dd>
      </div>
      {bill.uncoveredCents > 0 && (
        <div className="bill-totals__item bill-totals__item--uncovered" title="The cost went up after everyone had paid: nobody unpaid is left to carry this.">
          <dt>Not covered</dt>
          <dd data-testid="bill-uncovered">{fmt(bill.uncoveredCents)}</dd>
        </div>
      )}
    </dl>
  );
}

function OrganiserBill({ bill, event, myId }: { bill: EventBill; event: RinkEvent; myId: string }) {
  const close = useCloseBill(event.id);
  const closed = bill.closedAt !== null;
  const preview = previewLine(bill);
  const payers = bill.shares.filter((s) => s.present && s.weight > 0).length;
  return (
    <>
      <CostForm bill={bill} hasRink={Boolean(event.facilityId)} eventId={event.id} />
      {!closed && bill.costCents !== null && (
        <div className="bill-preview" data-testid="bill-preview">
          <p className="bill-preview__line">
            <strong data-testid="bill-preview-line">{preview}</strong>
            {payers > 0 && (
              <span className="bill-preview__sub">
                {formatMoney(bill.costCents, bill.currency)} over {payers} {plural(payers, 'player')}
              </span>
            )}
          </p>
          {close.error && <Alert>{errorMessage(close.error)}</Alert>}
          <Button block size="lg" loading={close.isPending} disabled={payers === 0} onClick={() => close.mutate()} data-testid="close-bill" icon={<DollarIcon size={18} />}>
            Bill the players
          </Button>
          <p className="field__hint">Each player sees what they owe. A drop-out or a new cost recomputes the unpaid shares; paid ones keep their amount.</p>
          {bill.shares.length > 0 && (
            <details className="bill-preview__details">
              <summary>See every share</summary>
              <SharesTable bill={bill} eventId={event.id} closed={false} myId={myId} />
            </details>
          )}
        </div>
      )}
      {closed && (
        <>
          <BillTotals bill={bill} />
          <SharesTable bill={bill} eventId={event.id} closed myId={myId} />
        </>
      )}
    </>
  );
}

// ── Who may collect: the organiser is told, the rink's staff grant it ─────

/**
 * The rink's staff let the organiser collect, or stop them: the bill says
 * whether the organiser may now (`organiserCanCollect`), this page's last
 * answer wins until the bill is read again.
 */
function CollectionGrant({ event, organiserName, granted }: { event: RinkEvent; organiserName: string; granted: boolean | null }) {
  const grant = useSetPaymentCollection(event.id);
  const enabled = grant.data?.enabled ?? granted;
  if (enabled) {
    return (
      <div className="collect-note collect-note--on" data-testid="collection-granted">
        <p>
          <CheckIcon size={16} /> {organiserName} collects payments for the events they run.
        </p>
        {grant.error && <Alert>{errorMessage(grant.error)}</Alert>}
        <Button size="sm" variant="ghost" loading={grant.isPending} onClick={() => grant.mutate({ userId: event.creatorId, enabled: false })} data-testid="revoke-collection">
          Stop {organiserName} collecting
        </Button>
      </div>
    );
  }
  return (
    <div className="collect-note" data-testid="collection-grant">
      <p className="muted small">
        {enabled === false
          ? `${organiserName} no longer collects payments.`
          : `${organiserName} runs this event at your rink. Letting them collect means they can split the cost of the ice, bill the players and mark who paid, on the events they organise.`}
      </p>
      {grant.error && <Alert>{errorMessage(grant.error)}</Alert>}
      <Button loading={grant.isPending} onClick={() => grant.mutate({ userId: event.creatorId, enabled: true })} data-testid="grant-collection" icon={<DollarIcon size={18} />}>
        Let {organiserName} collect payments
      </Button>
    </div>
  );
}

/** Staff of the rink who organise here themselves turn their own collecting on. */
function SelfGrant({ event, userId }: { event: RinkEvent; userId: string }) {
  const grant = useSetPaymentCollection(event.id);
  return (
    <div className="collect-note" data-testid="collection-self">
      <p className="muted small">You run this rink: turn on payment collection to split the cost of the ice, bill the players and mark who paid.</p>
      {grant.error && <Alert>{errorMessage(grant.error)}</Alert>}
      <Button loading={grant.isPending} onClick={() => grant.mutate({ userId, enabled: true })} data-testid="grant-collection-self" icon={<DollarIcon size={18} />}>
        Turn on payment collection
      </Button>
    </div>
  );
}

export function BillCard({ event }: { event: RinkEvent }) {
  const me = useCurrentUser();
  const viewer = event.viewer;
  // The rink's staff organise every event at their rink too (docs/permissions.md),
  // so "organiser" covers them: the creator is the one whose collecting they grant.
  const isOrganiser = Boolean(viewer?.isOrganiser);
  const isStaff = Boolean(viewer?.canHost);
  const isCreator = event.creatorId === me.id;
  const grantsOther = isStaff && !isCreator;
  // A player's own share is on the viewer block: only organisers and staff read the bill.
  const query = useBill(event.id, isOrganiser || isStaff);
  const organiser = usePerson(grantsOther ? event.creatorId : null);
  const rink = useFacility(event.facilityId);
  const bill = query.data;

  if (!isOrganiser && !isStaff) return null;
  if (query.isError && !bill) return null;
  const organiserName = organiser.data ? displayName(organiser.data) : 'the organiser';
  const rinkName = rink.data?.name ?? null;
  const grant = grantsOther ? <CollectionGrant event={event} organiserName={organiserName} granted={bill?.organiserCanCollect ?? null} /> : null;

  let body;
  let subtitle: string;
  if (!bill) {
    subtitle = 'Loading…';
    body = (
      <div className="center-pad">
        <Spinner label="Loading the bill" />
      </div>
    );
  } else if (bill.canCollect) {
    subtitle = bill.closedAt
      ? `Billed ${new Date(bill.closedAt).toLocaleDateString(undefined, { month: 'short', day: 'numeric' })} · changes recompute at once`
      : 'Split the cost of the ice over the players who are in.';
    body = (
      <>
        <OrganiserBill bill={bill} event={event} myId={me.id} />
        {grant}
      </>
    );
  } else if (grantsOther) {
    subtitle = rinkName ? `Payment collection at ${rinkName}` : 'Payment collection';
    body = grant;
  } else if (isStaff) {
    subtitle = 'Split the cost of the ice over the players.';
    body = <SelfGrant event={event} userId={me.id} />;
  } else {
    subtitle = 'Split the cost of the ice over the players.';
    body = (
      <div className="collect-note" data-testid="collection-explained">
        <p>
          <strong>{rinkName ? `${rinkName} turns on payment collection.` : 'The rink turns on payment collection.'}</strong>
        </p>
        <p className="muted small">
          {rinkName
            ? `Collecting money for ice is trust the rink gives. Ask the staff at ${rinkName} to let you collect payments; then you can set the cost here, bill the players and mark who paid.`
            : 'Collecting money for ice is trust a rink gives: the staff of a rink where you organise events can turn it on for you. Then you can set the cost here, bill the players and mark who paid.'}
        </p>
      </div>
    );
  }

  return (
    <Card className="event-block event-block--bill bill-card" data-testid="bill">
      <CardHeader
        title={
          <span className="with-icon">
            <DollarIcon size={18} /> Ice bill
          </span>
        }
        subtitle={subtitle}
        action={bill?.currency ? <span className="currency-tag" title="The currency of this bill">{bill.currency}</span> : undefined}
      />
      {body}
    </Card>
  );
}
