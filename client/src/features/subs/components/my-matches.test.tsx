import { describe, expect, it } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore } from 'jotai';
import type { MatchesDocument, MatchesUpdate } from '../../../lib/api-types';
import { connectionStateAtom, LiveSocketContext, topicAtomFamily } from '../../../lib/ws';
import { fakeLiveSocket } from '../../../testing/fake-live-socket';
import { apiError, mockApi } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import { MATCHES_TOPIC } from '../api/matches';
import { foldMatchesUpdate } from '../model/matches';
import { makeStatus, spotMatch, statusMatch } from '../model/test-fixtures';
import { MyMatches } from './my-matches';

function setup(routes: Parameters<typeof mockApi>[0] = {}) {
  const server = mockApi({ 'GET /me/matches': { items: [] }, 'GET /me/statuses': { items: [] }, ...routes });
  const live = fakeLiveSocket();
  const store = createStore();
  store.set(connectionStateAtom, 'live');
  renderWithProviders(
    <LiveSocketContext.Provider value={live.socket}>
      <MyMatches />
    </LiveSocketContext.Provider>,
    { store },
  );
  const topic = topicAtomFamily(MATCHES_TOPIC);
  const snapshot = (doc: MatchesDocument) => act(() => store.set(topic, { seq: 1, data: doc }));
  const push = (update: MatchesUpdate) =>
    act(() => {
      const held = store.get(topic);
      store.set(topic, { seq: (held?.seq ?? 0) + 1, data: foldMatchesUpdate(held?.data as MatchesDocument | undefined, update) });
    });
  return { server, live, snapshot, push, user: userEvent.setup() };
}

describe('MyMatches', () => {
  it('subscribes to my matches and merges pushes in live: a new open spot appears, a dropped one goes', async () => {
    const { live, snapshot, push } = setup();
    expect(await screen.findByTestId('no-matches')).toBeInTheDocument();
    expect(live.subscribe).toHaveBeenCalledWith(MATCHES_TOPIC);

    snapshot({ items: [statusMatch({ message: 'Need a D for Thursday' })] });
    expect(screen.getByText('Frozen Assets')).toBeInTheDocument();
    expect(screen.getByText('Need a D for Thursday')).toBeInTheDocument();

    const ask = makeStatus({ id: 's-call', type: 'LOOKING_FOR_SUBS', eventId: 'e-1', message: 'Our goalie is sick', user: { id: 'u-cap', username: 'cap', firstName: 'Cara', lastName: 'Captain', profileImage: null } });
    push({ op: 'upsert', match: spotMatch({ asks: [ask] }) });
    const card = screen.getByTestId('match-s-mine:event:e-1');
    expect(within(card).getByText('Late skate')).toBeInTheDocument();
    expect(within(card).getByTestId('open-spots')).toHaveTextContent('1 goalie spot open');
    expect(within(card).getByText('Intermediate')).toBeInTheDocument();
    expect(card).toHaveTextContent('Cara Captain: Our goalie is sick');
    expect(within(card).getByTestId('take-spot')).toHaveTextContent('Take the spot');

    push({ op: 'drop', eventId: 'e-1' });
    expect(screen.queryByTestId('match-s-mine:event:e-1')).not.toBeInTheDocument();
    push({ op: 'drop', statusId: 's-theirs' });
    expect(screen.getByTestId('no-matches')).toBeInTheDocument();
  });

  it('shows the REST read until the topic speaks', async () => {
    setup({ 'GET /me/matches': { items: [spotMatch({ title: 'Noon hockey' })] } });
    expect(await screen.findByText('Noon hockey')).toBeInTheDocument();
  });

  it("takes the spot and keeps saying \"You're in\" after the match drops away", async () => {
    const { server, snapshot, push, user } = setup({
      'POST /events/e-1/take-spot': { status: 'ATTENDING', waitlistRank: null, version: 7, endedStatusIds: ['s-mine'] },
    });
    snapshot({ items: [spotMatch()] });
    await user.click(screen.getByTestId('take-spot'));
    expect(await screen.findByTestId('spot-outcome-title')).toHaveTextContent("You're in");
    expect(server.callsTo('POST', '/events/e-1/take-spot')[0]?.body).toEqual({});

    // Taking it ended my AVAILABLE_TO_SUB: its matches drop, the outcome stays.
    push({ op: 'drop', statusId: 's-mine' });
    expect(screen.queryByTestId('take-spot')).not.toBeInTheDocument();
    expect(screen.getByTestId('claim-e-1')).toHaveTextContent("You're in");
    await user.click(screen.getByTestId('dismiss-outcome'));
    expect(screen.getByTestId('no-matches')).toBeInTheDocument();
  });

  it('says so when someone got there first', async () => {
    const { snapshot, user } = setup({
      'POST /events/e-1/take-spot': { status: 'WAITLISTED', waitlistRank: 1, version: 8, endedStatusIds: [] },
    });
    snapshot({ items: [spotMatch()] });
    await user.click(screen.getByTestId('take-spot'));
    expect(await screen.findByTestId('spot-outcome-title')).toHaveTextContent('Waitlisted #1 — someone got there first');
    expect(screen.getByTestId('spot-outcome')).toHaveAttribute('data-status', 'WAITLISTED');
  });

  it('shows a refusal and lets me try again', async () => {
    const { snapshot, user } = setup({ 'POST /events/e-1/take-spot': apiError(409, 'conflict', 'This event has started.') });
    snapshot({ items: [spotMatch()] });
    await user.click(screen.getByTestId('take-spot'));
    expect(await screen.findByText('This event has started.')).toBeInTheDocument();
    expect(screen.getByTestId('take-spot')).toBeEnabled();
  });
});
