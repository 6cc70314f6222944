import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { BillShare, EventBill, RinkEvent } from '../../../lib/api-types';
import { formatMoney } from '../../../lib/money';
import { makeEvent, makeFacility, makePublicUser, makeViewer } from '../../../testing/fixtures';
import { apiError, mockApi } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import { BillCard, PlayerBill } from './bill-card';

const TYPING_TIMEOUT_MS = 20_000;

// What the card shows is Intl's, in the test runner's locale.
const usd = (cents: number) => formatMoney(cents, 'USD');

const share = (userId: string, role: BillShare['role'], weight: number, amountCents: number, over: Partial<BillShare> = {}): BillShare => ({
  userId,
  displayName: `Player ${userId}`,
  role,
  weight,
  amountCents,
  isPaid: false,
  paidCents: null,
  creditCents: 0,
  present: true,
  ...over,
});

function bill(over: Partial<EventBill> = {}): EventBill {
  return {
    eventId: 'e-1',
    costCents: null,
    currency: 'USD',
    goaliePolicy: 'FREE',
    organiserPays: true,
    source: null,
    closedAt: null,
    canCollect: true,
    organiserCanCollect: true,
    collectedCents: 0,
    outstandingCents: 0,
    creditCents: 0,
    uncoveredCents: 0,
    shares: [],
    ...over,
  };
}

/** 35.00 over two skaters, a free goalie. */
const priced = (over: Partial<EventBill> = {}) =>
  bill({ costCents: 3500, source: 'EVENT', shares: [share('a', 'SKATER', 2, 1750), share('b', 'SKATER', 2, 1750), share('g', 'GOALIE', 0, 0)], ...over });

function renderBill(event: RinkEvent, routes: Parameters<typeof mockApi>[0]) {
  const server = mockApi(routes);
  renderWithProviders(<BillCard event={event} />);
  return { server, user: userEvent.setup() };
}

describe('BillCard for the organiser who collects', { timeout: TYPING_TIMEOUT_MS }, () => {
  const event = makeEvent({ eventType: 'OTHER', title: 'Tuesday pickup', viewer: makeViewer({ isOrganiser: true, canCollectPayments: true }) });

  it('checks the cost as typed, saves it in cents with the goalie policy, and previews the shares', async () => {
    let current = bill();
    const { server, user } = renderBill(event, {
      'GET /events/e-1/bill': () => current,
      'PUT /events/e-1/bill': (call) => {
        const body = call.body as { costCents: number; goaliePolicy: EventBill['goaliePolicy']; organiserPays: boolean };
        current = priced({ costCents: body.costCents, goaliePolicy: body.goaliePolicy, organiserPays: body.organiserPays });
        return current;
      },
    });
    const cost = await screen.findByTestId('bill-cost');
    expect(screen.getByTestId('bill')).toHaveTextContent('USD');
    expect(screen.queryByTestId('close-bill')).not.toBeInTheDocument();

    await user.type(cost, 'abc');
    await user.click(screen.getByTestId('bill-save'));
    expect(await screen.findByText('Enter an amount like 250 or 250.00.')).toBeInTheDocument();
    expect(server.callsTo('PUT', '/events/e-1/bill')).toHaveLength(0);

    await user.clear(cost);
    await user.type(cost, '100000.01');
    await user.click(screen.getByTestId('bill-save'));
    expect(await screen.findByText(/^At most .*100,000\.00\.$/)).toBeInTheDocument();

    await user.clear(cost);
    await user.type(cost, '$35');
    await user.tab();
    expect(cost).toHaveValue('35.00');
    await user.click(screen.getByTestId('bill-goalies-HALF'));
    await user.click(screen.getByTestId('bill-goalies-FREE'));
    await user.click(screen.getByTestId('bill-organiser-pays'));
    await user.click(screen.getByTestId('bill-organiser-pays'));
    await user.click(screen.getByTestId('bill-save'));
    await waitFor(() => expect(server.callsTo('PUT', '/events/e-1/bill')[0]?.body).toEqual({ costCents: 3500, goaliePolicy: 'FREE', organiserPays: true }));
    expect(await screen.findByText('Saved')).toBeInTheDocument();
    expect(screen.getByTestId('bill-preview-line')).toHaveTextContent(`Each skater ≈ ${usd(1750)}, goalies free`);
    expect(screen.getByTestId('bill-preview')).toHaveTextContent(`${usd(3500)} over 2 players`);
  });

  it('sends a goalie policy and "I pay my share too" as chosen', async () => {
    const { server, user } = renderBill(event, {
      'GET /events/e-1/bill': priced(),
      'PUT /events/e-1/bill': (call) => priced(call.body as Partial<EventBill>),
    });
    await screen.findByTestId('bill-cost');
    expect(screen.getByTestId('bill-cost')).toHaveValue('35.00');
    expect(screen.getByTestId('bill-goalies-FREE')).toHaveAttribute('aria-checked', 'true');
    await user.click(screen.getByTestId('bill-goalies-HALF'));
    expect(screen.getByTestId('bill-goalies-HALF')).toHaveAttribute('aria-checked', 'true');
    await user.click(screen.getByTestId('bill-organiser-pays'));
    expect(screen.getByText('You play free; the others share the whole cost.')).toBeInTheDocument();
    await user.click(screen.getByTestId('bill-save'));
    await waitFor(() => expect(server.callsTo('PUT', '/events/e-1/bill')[0]?.body).toEqual({ costCents: 3500, goaliePolicy: 'HALF', organiserPays: false }));
  });

  it('bills the players, then marks one paid and shows credit and the totals', async () => {
    let current = priced();
    const { server, user } = renderBill(event, {
      'GET /events/e-1/bill': () => current,
      'POST /events/e-1/bill/close': () =>
        (current = priced({
          closedAt: '2030-12-01T19:00:00Z',
          outstandingCents: 3500,
          creditCents: 500,
          shares: [share('a', 'SKATER', 2, 1750), share('b', 'SKATER', 2, 1750), share('g', 'GOALIE', 0, 0), share('x', 'SKATER', 2, 0, { present: false, isPaid: true, paidCents: 500, creditCents: 500 })],
        })),
      'PUT /events/e-1/payments/:userId': (call, p) => {
        const isPaid = (call.body as { isPaid: boolean }).isPaid;
        current = { ...current, collectedCents: 1750, outstandingCents: 1750, shares: current.shares.map((s) => (s.userId === p.userId ? { ...s, isPaid, paidCents: 1750 } : s)) };
        return { id: 'pay', eventId: 'e-1', userId: p.userId, isPaid, markedPaidAt: null, markedPaidById: 'u-me', createdAt: '', updatedAt: '' };
      },
    });
    await user.click(await screen.findByTestId('close-bill'));
    expect(server.callsTo('POST', '/events/e-1/bill/close')).toHaveLength(1);

    const table = await screen.findByTestId('bill-shares');
    expect(screen.queryByTestId('close-bill')).not.toBeInTheDocument();
    expect(within(table).getByTestId('bill-share-a')).toHaveTextContent(usd(1750));
    expect(within(table).getByTestId('bill-share-g')).toHaveTextContent('Free');
    expect(within(table).queryByTestId('bill-paid-g')).not.toBeInTheDocument();
    expect(within(table).getByTestId('bill-share-x')).toHaveTextContent('dropped');
    expect(within(table).getByTestId('bill-credit-x')).toHaveTextContent(`credit ${usd(500)}`);
    expect(screen.getByTestId('bill-outstanding')).toHaveTextContent(usd(3500));
    expect(screen.getByTestId('bill-credit')).toHaveTextContent(usd(500));

    const paid = within(table).getByTestId('bill-paid-a');
    expect(paid).toHaveTextContent('Unpaid');
    await user.click(paid);
    await waitFor(() => expect(server.callsTo('PUT', '/events/e-1/payments/a')[0]?.body).toEqual({ isPaid: true }));
    await waitFor(() => expect(within(screen.getByTestId('bill-shares')).getByTestId('bill-paid-a')).toHaveAttribute('aria-pressed', 'true'));
    expect(within(screen.getByTestId('bill-shares')).getByTestId('bill-paid-a')).toHaveTextContent('Paid');
    await waitFor(() => expect(screen.getByTestId('bill-collected')).toHaveTextContent(usd(1750)));
    expect(screen.getByTestId('bill-outstanding')).toHaveTextContent(usd(1750));
  });

  it('puts the server\'s word on the cost beside the cost, and shows what no one is left to cover', async () => {
    const { user } = renderBill(event, {
      'GET /events/e-1/bill': priced({ closedAt: '2030-12-01T19:00:00Z', uncoveredCents: 250 }),
      'PUT /events/e-1/bill': apiError(422, 'validation_failed', 'cost cents: at most 10000000', { costCents: 'at most 10000000' }),
    });
    expect(await screen.findByTestId('bill-uncovered')).toHaveTextContent(usd(250));
    const cost = screen.getByTestId('bill-cost');
    await user.clear(cost);
    await user.type(cost, '40');
    await user.click(screen.getByTestId('bill-save'));
    expect(await screen.findByText('At most 10000000')).toBeInTheDocument();
    expect(cost).toHaveAttribute('aria-invalid', 'true');
  });

  it('shows the server\'s refusal to bill inline', async () => {
    const { user } = renderBill(event, {
      'GET /events/e-1/bill': priced(),
      'POST /events/e-1/bill/close': apiError(403, 'forbidden', 'Payment collection is off for you.'),
    });
    await user.click(await screen.findByTestId('close-bill'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Payment collection is off for you.');
  });
});

describe('BillCard when the organiser may not collect', { timeout: TYPING_TIMEOUT_MS }, () => {
  it('tells the organiser that the rink grants collection, naming the rink', async () => {
    renderBill(makeEvent({ eventType: 'OTHER', facilityId: 'f-1', viewer: makeViewer({ isOrganiser: true }) }), {
      'GET /events/e-1/bill': bill({ canCollect: false }),
      'GET /facilities/f-1': makeFacility({ name: 'Maple Arena' }),
    });
    const note = await screen.findByTestId('collection-explained');
    await waitFor(() => expect(note).toHaveTextContent('Maple Arena turns on payment collection.'));
    expect(note).toHaveTextContent('Ask the staff at Maple Arena to let you collect payments');
    expect(screen.queryByTestId('bill-form')).not.toBeInTheDocument();
  });

  it('gives the rink\'s staff the button that lets the organiser collect', async () => {
    // The rink's staff organise every event at their rink (docs/permissions.md); the bill's
    // canCollect is their own flag, not the organiser's.
    const { server, user } = renderBill(makeEvent({ eventType: 'OTHER', facilityId: 'f-1', creatorId: 'u-olive', viewer: makeViewer({ isOrganiser: true, canHost: true }) }), {
      'GET /events/e-1/bill': bill({ canCollect: false, organiserCanCollect: false }),
      'GET /facilities/f-1': makeFacility({ name: 'Maple Arena' }),
      'GET /users/u-olive': makePublicUser({ id: 'u-olive', firstName: 'Olive', lastName: 'Organiser' }),
      'PUT /users/u-olive/payment-collection': (call) => ({ userId: 'u-olive', enabled: (call.body as { enabled: boolean }).enabled }),
    });
    const grant = await screen.findByRole('button', { name: 'Let Olive Organiser collect payments' });
    expect(screen.getByTestId('bill')).toHaveTextContent('Payment collection at Maple Arena');
    expect(screen.queryByTestId('bill-form')).not.toBeInTheDocument();
    await user.click(grant);
    expect(server.callsTo('PUT', '/users/u-olive/payment-collection')[0]?.body).toEqual({ enabled: true });
    expect(await screen.findByTestId('collection-granted')).toHaveTextContent('Olive Organiser collects payments');
    await user.click(screen.getByTestId('revoke-collection'));
    expect(server.callsTo('PUT', '/users/u-olive/payment-collection')[1]?.body).toEqual({ enabled: false });
    expect(await screen.findByTestId('collection-grant')).toHaveTextContent('Olive Organiser no longer collects payments.');
  });

  it('shows the rink\'s staff that the organiser already collects, with the way to stop it', async () => {
    renderBill(makeEvent({ eventType: 'OTHER', facilityId: 'f-1', creatorId: 'u-olive', viewer: makeViewer({ isOrganiser: true, canHost: true }) }), {
      'GET /events/e-1/bill': bill({ canCollect: false, organiserCanCollect: true }),
      'GET /facilities/f-1': makeFacility({ name: 'Maple Arena' }),
      'GET /users/u-olive': makePublicUser({ id: 'u-olive', firstName: 'Olive', lastName: 'Organiser' }),
    });
    expect(await screen.findByTestId('collection-granted')).toHaveTextContent('Olive Organiser collects payments');
    expect(screen.getByTestId('revoke-collection')).toBeVisible();
    expect(screen.queryByTestId('grant-collection')).not.toBeInTheDocument();
  });

  it('lets staff who organise at their own rink turn their own collecting on', async () => {
    let canCollect = false;
    const { server, user } = renderBill(makeEvent({ eventType: 'OTHER', facilityId: 'f-1', creatorId: 'u-me', viewer: makeViewer({ isOrganiser: true, canHost: true }) }), {
      'GET /events/e-1/bill': () => bill({ canCollect }),
      'GET /facilities/f-1': makeFacility({ name: 'Maple Arena' }),
      'PUT /users/u-me/payment-collection': () => {
        canCollect = true;
        return { userId: 'u-me', enabled: true };
      },
    });
    await user.click(await screen.findByTestId('grant-collection-self'));
    expect(server.callsTo('PUT', '/users/u-me/payment-collection')[0]?.body).toEqual({ enabled: true });
    expect(await screen.findByTestId('bill-form')).toBeInTheDocument();
  });

  it('reads no bill for a player', async () => {
    const { server } = renderBill(makeEvent({ eventType: 'OTHER', viewer: makeViewer({ status: 'ATTENDING' }) }), {});
    await new Promise((r) => setTimeout(r, 50));
    expect(server.calls).toHaveLength(0);
    expect(screen.queryByTestId('bill')).not.toBeInTheDocument();
  });
});

describe('PlayerBill', () => {
  const render = (viewer: Parameters<typeof makeViewer>[0]) => {
    mockApi({});
    renderWithProviders(<PlayerBill event={makeEvent({ title: 'Tuesday pickup', viewer: makeViewer({ status: 'ATTENDING', ...viewer }) })} />);
  };

  it('says what I owe for the event', () => {
    render({ owesCents: 1750, currency: 'USD' });
    expect(screen.getByTestId('my-bill-title')).toHaveTextContent(`You owe ${usd(1750)} for Tuesday pickup`);
    expect(screen.getByTestId('my-bill')).toHaveAttribute('data-state', 'owes');
  });

  it('says Paid once the organiser marked it', () => {
    render({ owesCents: null, paidCents: 1750, isPaid: true, currency: 'USD' });
    expect(screen.getByTestId('my-bill-title')).toHaveTextContent('Paid');
    expect(screen.getByTestId('my-bill')).toHaveTextContent(`You paid ${usd(1750)} for the ice.`);
  });

  it('says what credit I have', () => {
    render({ owesCents: null, paidCents: null, creditCents: 500, currency: 'USD' });
    expect(screen.getByTestId('my-bill-title')).toHaveTextContent(`You have ${usd(500)} credit`);
  });

  it('shows nothing without a bill', () => {
    render({});
    expect(screen.queryByTestId('my-bill')).not.toBeInTheDocument();
  });
});
