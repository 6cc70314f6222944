import { describe, expect, it } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import { createStore } from 'jotai';
import userEvent from '@testing-library/user-event';
import type { ScheduleItem } from '../../../lib/api-types';
import { apiError, mockApi } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import { fakeLiveSocket } from '../../../testing/fake-live-socket';
import { LiveSocketContext, topicAtomFamily } from '../../../lib/ws';
import { NextUp } from './next-up';

const later = (days: number) => new Date(Date.now() + days * 24 * 60 * 60 * 1000).toISOString();

function item(over: Partial<ScheduleItem>): ScheduleItem {
  return {
    kind: 'EVENT',
    id: 'e1',
    title: 'Owls vs Top Shelf',
    startsAt: later(2),
    endsAt: later(2.1),
    timeZone: 'America/Toronto',
    place: 'Rink A, Maple Arena',
    facilityId: 'f1',
    facilityName: 'Maple Arena',
    eventType: 'EXTERNAL_GAME',
    status: 'SCHEDULED',
    homeName: 'Ice Owls',
    awayName: 'Top Shelf',
    homeScore: null,
    awayScore: null,
    teamName: 'Ice Owls',
    side: null,
    seasonName: null,
    myState: 'NOT_ANSWERED',
    rosterId: null,
    waitlistRank: null,
    createdAt: later(-10),
    updatedAt: later(-10),
    ...over,
  };
}

describe('NextUp', { timeout: 20_000 }, () => {
  it('answering an event that was deleted meanwhile says "Event not found" in words, not the server\'s raw phrase', async () => {
    mockApi({
      'GET /me/schedule': { from: later(0), to: later(28), items: [item({})] },
      'PUT /events/:id/rsvp': apiError(404, 'not_found', 'Event 01a2b3c4 not found not found'),
    });
    renderWithProviders(<NextUp />);
    const row = await screen.findByTestId('schedule-e1');
    await userEvent.click(within(row).getByRole('button', { name: "I'm in" }));
    expect(await within(row).findByTestId('answer-error')).toHaveTextContent('Event not found. It may have been deleted.');
    expect(row).not.toHaveTextContent('01a2b3c4');
  });

  it('shows my team game and my place in line, and answers the game in one tap', async () => {
    let answered = false;
    const api = mockApi({
      'GET /me/schedule': () => ({
        from: later(0),
        to: later(28),
        items: [
          item({ myState: answered ? 'ATTENDING' : 'NOT_ANSWERED' }),
          item({ id: 'e2', title: 'Tuesday pickup', eventType: 'OTHER', teamName: null, myState: 'WAITLISTED', waitlistRank: 2, startsAt: later(3), endsAt: later(3.1) }),
        ],
      }),
      'PUT /events/:id/rsvp': () => {
        answered = true;
        return { status: 'ATTENDING', waitlistRank: null, version: 1 };
      },
    });
    renderWithProviders(<NextUp />);
    const game = await screen.findByTestId('schedule-e1');
    expect(within(game).getByTestId('my-state')).toHaveTextContent('Not answered');
    expect(within(screen.getByTestId('schedule-e2')).getByTestId('my-state')).toHaveTextContent('Waitlist #2');

    await userEvent.click(within(game).getByRole('button', { name: "I'm in" }));
    expect(await within(screen.getByTestId('schedule-e1')).findByText('In')).toBeInTheDocument();
    const puts = api.callsTo('PUT', '/events/e1/rsvp');
    expect(puts).toHaveLength(1);
    expect(puts[0]?.body).toEqual({ action: 'ATTENDING' });
    expect(puts[0]?.headers['Idempotency-Key']).toBeTruthy();
  });

  it("answers a league game of my roster the same way, as my availability on that roster", async () => {
    let mine: 'NOT_ANSWERED' | 'ATTENDING' | 'DECLINED' = 'NOT_ANSWERED';
    const league = () => item({ kind: 'GAME', id: 'g1', title: 'Ice Owls vs Rivals', eventType: null, myState: mine, rosterId: 'r-1', startsAt: later(4), endsAt: later(4.1) });
    const api = mockApi({
      'GET /me/schedule': () => ({ from: later(0), to: later(28), items: [league()] }),
      'PUT /rosters/:rosterId/availability/:gameId/players/:userId': (call) => {
        mine = (call.body as { answer: string }).answer === 'IN' ? 'ATTENDING' : 'DECLINED';
        return {};
      },
    });
    renderWithProviders(<NextUp />);
    const row = await screen.findByTestId('schedule-g1');
    expect(within(row).getByTestId('my-state')).toHaveTextContent('Not answered');
    expect(within(row).getByRole('link', { name: 'Ice Owls vs Rivals' })).toHaveAttribute('href', '/games/g1');

    await userEvent.click(within(row).getByRole('button', { name: "I'm in" }));
    expect(await within(screen.getByTestId('schedule-g1')).findByText('In')).toBeInTheDocument();
    expect(within(screen.getByTestId('schedule-g1')).getByRole('button', { name: "Can't go" })).toBeInTheDocument();
    const puts = api.callsTo('PUT', '/rosters/r-1/availability/g1/players/u-me');
    expect(puts).toHaveLength(1);
    expect(puts[0]?.body).toEqual({ answer: 'IN' });
    expect(api.callsTo('PUT', '/events/g1/rsvp')).toHaveLength(0);
  });

  it("says a locked game's refusal in the server's words", async () => {
    mockApi({
      'GET /me/schedule': { from: later(0), to: later(28), items: [item({ kind: 'GAME', id: 'g1', title: 'Ice Owls vs Rivals', eventType: null, rosterId: 'r-1' })] },
      'PUT /rosters/:rosterId/availability/:gameId/players/:userId': apiError(409, 'conflict', "Answers locked at 7:30 PM — you can still say you're out"),
    });
    renderWithProviders(<NextUp />);
    const row = await screen.findByTestId('schedule-g1');
    await userEvent.click(within(row).getByRole('button', { name: "I'm in" }));
    expect(await within(row).findByTestId('answer-error')).toHaveTextContent("Answers locked at 7:30 PM — you can still say you're out");
  });

  it('says so when nothing is coming up', async () => {
    mockApi({ 'GET /me/schedule': { from: later(0), to: later(28), items: [] } });
    renderWithProviders(<NextUp />);
    expect(await screen.findByText('Nothing in the next four weeks.')).toBeInTheDocument();
  });
  it("drops today's finished game, keeps my waitlisted pickup past six rows, and moves a live score from the game's topic", async () => {
    const games = Array.from({ length: 6 }, (_, n) =>
      item({ kind: 'GAME', id: `g${n}`, title: `Game ${n}`, eventType: null, myState: 'NOT_ANSWERED', rosterId: 'r-1', status: 'SCHEDULED', startsAt: later(0.5 + n), endsAt: later(0.6 + n) }),
    );
    mockApi({
      'GET /me/schedule': {
        from: later(0),
        to: later(28),
        items: [
          item({ kind: 'GAME', id: 'done', title: 'Earlier today', eventType: null, myState: 'NOT_ANSWERED', rosterId: 'r-1', status: 'FINAL', homeScore: 3, awayScore: 1, startsAt: later(-0.1), endsAt: later(0.01) }),
          item({ kind: 'GAME', id: 'now', title: 'Under way', eventType: null, myState: 'NOT_ANSWERED', rosterId: 'r-1', status: 'LIVE', homeScore: 0, awayScore: 0, startsAt: later(-0.02), endsAt: later(0.05) }),
          ...games,
          item({ id: 'pickup', title: 'Sunday pickup', eventType: 'OTHER', teamName: null, myState: 'WAITLISTED', waitlistRank: 1, startsAt: later(9), endsAt: later(9.1) }),
        ],
      },
    });
    const live = fakeLiveSocket();
    const store = createStore();
    renderWithProviders(
      <LiveSocketContext.Provider value={live.socket}>
        <NextUp />
      </LiveSocketContext.Provider>,
      { store },
    );
    expect(await screen.findByTestId('schedule-pickup')).toHaveTextContent('Waitlist #1');
    expect(screen.queryByTestId('schedule-done')).not.toBeInTheDocument();
    expect(within(screen.getByTestId('next-up-list')).getAllByRole('listitem').length).toBe(6);
    expect(live.subscribe).toHaveBeenCalledWith('game:now');

    act(() => store.set(topicAtomFamily('game:now'), { seq: 5, data: { id: 'now', status: 'LIVE', homeScore: 2, awayScore: 1, version: 5 } }));
    expect(screen.getByTestId('schedule-now')).toHaveTextContent('2 – 1');
  });
});
