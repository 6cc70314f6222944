import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import type { EventSeries, RsvpRules } from '../../../lib/api-types';
import { apiError, mockApi } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import { nextWeek, SeriesPage } from './series-page';

const DAY = 24 * 60 * 60_000;
const at = (ms: number) => new Date(ms).toISOString();

function series(now: number): EventSeries {
  return {
    id: 's-1',
    frequency: 'WEEKLY',
    until: '2099-12-31',
    timeZone: 'America/Toronto',
    creatorId: 'u-org',
    createdAt: at(now - 30 * DAY),
    events: [
      { id: 'w-1', title: 'Tuesday pickup', startDate: at(now - 7 * DAY), endDate: null, cancelledAt: null },
      { id: 'w-2', title: 'Tuesday pickup', startDate: at(now + DAY), endDate: null, cancelledAt: at(now - DAY) },
      { id: 'w-3', title: 'Tuesday pickup', startDate: at(now + 8 * DAY), endDate: null, cancelledAt: null },
    ],
  };
}

const rules: RsvpRules = {
  lateWindowMinutes: null,
  regularsFirstMinutes: 2880,
  cutoffMinutes: null,
  minSkaters: null,
  minGoalies: null,
  shortCheckMinutes: null,
  openToAllAt: null,
  closesAt: null,
  shortCheckAt: null,
  regulars: [],
};

describe('SeriesPage', () => {
  it('previews the rules on the next week still to come (not a cancelled one)', () => {
    const now = Date.now();
    expect(nextWeek(series(now), now)?.id).toBe('w-3');
  });

  it("lists every week and, for an organiser, the series' rules and regulars", async () => {
    const server = mockApi({
      'GET /event-series/s-1': series(Date.now()),
      'GET /event-series/s-1/rsvp-rules': rules,
      'GET /event-series/s-1/regulars': { items: [], suggestions: [] },
      'PUT /event-series/s-1/rsvp-rules': (call) => ({ ...rules, ...(call.body as object) }),
      'GET /users': { items: [], nextCursor: null },
    });
    renderWithProviders(<SeriesPage />, { route: '/series/s-1', path: '/series/:id' });
    expect(await screen.findByTestId('series-rules-regularsFirst')).toHaveValue('48');
    expect(screen.getByTestId('series-rules-preview')).toHaveTextContent(/^The next week, /);
    expect(screen.getByTestId('series-week-link-w-3')).toHaveTextContent('Next');
    expect(screen.getByTestId('series-week-link-w-2')).toHaveTextContent('Cancelled');
    expect(screen.getByTestId('regulars')).toHaveTextContent('No regulars yet.');
    expect(server.callsTo('GET', '/event-series/s-1/regulars')).toHaveLength(1);
  });

  it('shows a player the weeks only', async () => {
    mockApi({
      'GET /event-series/s-1': series(Date.now()),
      'GET /event-series/s-1/rsvp-rules': apiError(403, 'forbidden', 'not an organiser'),
      'GET /event-series/s-1/regulars': apiError(403, 'forbidden', 'not an organiser'),
    });
    renderWithProviders(<SeriesPage />, { route: '/series/s-1', path: '/series/:id' });
    expect(await screen.findByTestId('series-weeks-list')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('regulars')).not.toBeInTheDocument());
    expect(screen.queryByTestId('series-rules')).not.toBeInTheDocument();
  });
});
