import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SeriesBill } from '../../../lib/api-types';
import { formatMoney } from '../../../lib/money';
import { makeEvent, makeViewer } from '../../../testing/fixtures';
import { mockApi } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import { SeriesIceCard } from './series-ice';

const usd = (cents: number) => formatMoney(cents, 'USD');

const series = { id: 's-1', frequency: 'WEEKLY', until: '2030-12-22', timeZone: 'UTC', creatorId: 'u-me', createdAt: '2030-11-01T00:00:00Z', events: [] };

function seriesBill(over: Partial<SeriesBill> = {}): SeriesBill {
  return {
    seriesId: 's-1',
    totalCents: 90000,
    currency: 'USD',
    goaliePolicy: 'FREE',
    organiserPays: true,
    canCollect: true,
    collectedCents: 3500,
    outstandingCents: 26500,
    creditCents: 0,
    weeks: [
      { eventId: 'e-1', startDate: '2030-12-01T19:00:00Z', costCents: 30000, collectedCents: 3500, outstandingCents: 26500, closedAt: '2030-12-01T21:00:00Z' },
      { eventId: 'e-2', startDate: '2030-12-08T19:00:00Z', costCents: 30000, collectedCents: 0, outstandingCents: 0, closedAt: null },
      { eventId: 'e-3', startDate: '2030-12-15T19:00:00Z', costCents: 30000, collectedCents: 0, outstandingCents: 0, closedAt: null },
    ],
    people: [
      { userId: 'u-a', displayName: 'Alice Ames', owedCents: 1750, paidCents: 1750, creditCents: 0, balanceCents: 0 },
      { userId: 'u-b', displayName: 'Bruno Berg', owedCents: 1750, paidCents: 0, creditCents: 0, balanceCents: 1750 },
    ],
    ...over,
  };
}


describe('SeriesIceCard', () => {
  it('lets the organiser set the season\'s total and reads each week and each player', async () => {
    let current = seriesBill();
    const server = mockApi({
      'GET /event-series/s-1/bill': () => current,
      'PUT /event-series/s-1/bill': (call) => (current = seriesBill({ totalCents: (call.body as { costCents: number }).costCents })),
      'GET /event-series/s-1': series,
    });
    renderWithProviders(<SeriesIceCard event={makeEvent({ eventType: 'OTHER', seriesId: 's-1', viewer: makeViewer({ isOrganiser: true, canCollectPayments: true }) })} />);
    const card = await screen.findByTestId('series-ice');
    expect(card).toHaveTextContent(`${usd(90000)} over 3 weeks`);
    const total = within(card).getByTestId('series-bill-cost');
    expect(total).toHaveValue('900.00');

    const weeks = within(card).getByTestId('series-weeks');
    expect(within(weeks).getByTestId('series-week-e-1')).toHaveTextContent('this week');
    expect(within(weeks).getByTestId('series-week-e-1')).toHaveTextContent('Billed');
    expect(within(weeks).getByTestId('series-week-e-1')).toHaveTextContent(usd(26500));
    expect(within(weeks).getByTestId('series-week-e-2')).toHaveTextContent('Not yet');
    expect(within(weeks).getByRole('link', { name: /Dec 8/ })).toHaveAttribute('href', '/events/e-2');
    const people = within(card).getByTestId('series-people');
    expect(within(people).getByTestId('series-person-u-b')).toHaveTextContent(`Bruno Berg${usd(1750)}${usd(0)}${usd(0)}${usd(1750)}`);

    const user = userEvent.setup();
    await user.clear(total);
    await user.type(total, '1,200');
    await user.click(within(card).getByTestId('series-bill-goalies-HALF'));
    await user.click(within(card).getByTestId('series-bill-save'));
    await waitFor(() => expect(server.callsTo('PUT', '/event-series/s-1/bill')[0]?.body).toEqual({ costCents: 120000, goaliePolicy: 'HALF', organiserPays: true }));
    await waitFor(() => expect(screen.getByTestId('series-ice')).toHaveTextContent(`${usd(120000)} over 3 weeks`));
  });

  it('shows a player their own balance for the season', async () => {
    mockApi({
      'GET /event-series/s-1/bill': seriesBill({ people: [{ userId: 'u-me', displayName: 'Me', owedCents: 3500, paidCents: 1750, creditCents: 0, balanceCents: 1750 }] }),
      'GET /event-series/s-1': series,
    });
    renderWithProviders(<SeriesIceCard event={makeEvent({ eventType: 'OTHER', seriesId: 's-1', viewer: makeViewer({ status: 'ATTENDING' }) })} />);
    const card = await screen.findByTestId('series-ice');
    expect(card).toHaveTextContent(`You owe ${usd(1750)} this season`);
    expect(within(card).getByTestId('series-my-balance-amount')).toHaveTextContent(usd(1750));
    expect(within(card).queryByTestId('series-weeks')).not.toBeInTheDocument();
    expect(within(card).queryByTestId('series-bill-form')).not.toBeInTheDocument();
  });

  it('shows nothing to an organiser the rink has not let collect', async () => {
    const server = mockApi({
      'GET /event-series/s-1/bill': seriesBill({ canCollect: false }),
      'GET /event-series/s-1': series,
    });
    renderWithProviders(<SeriesIceCard event={makeEvent({ eventType: 'OTHER', seriesId: 's-1', viewer: makeViewer({ isOrganiser: true }) })} />);
    await waitFor(() => expect(server.callsTo('GET', '/event-series/s-1/bill')).toHaveLength(1));
    expect(screen.queryByTestId('series-ice')).not.toBeInTheDocument();
  });
});
