import { describe, expect, it } from 'vitest';
import { createStore } from 'jotai';
import type { Game, GameDocument, GameLogEntry } from './api-types';
import { describeLog, gameStateLine, gameTopic, goalDiff, lastGoal, newestGameDoc, scheduleStateLine } from './games';
import { topicAtomFamily } from './ws';
import { gameSnapshotFrame, gameUpdateFrame } from '../testing/game-frames';
import { openLiveSocket } from '../testing/open-live-socket';

const entry = (seq: number, over: Partial<GameLogEntry>): GameLogEntry => ({
  seq,
  type: 'GOAL',
  period: '1',
  rosterId: null,
  playerId: null,
  playerName: null,
  assistIds: [],
  assistNames: [],
  minutes: null,
  createdAt: '2026-11-20T19:05:00Z',
  ...over,
});

const game = (over: Partial<GameDocument> = {}): GameDocument => ({
  id: 'g',
  status: 'LIVE',
  period: '2',
  homeScore: 2,
  awayScore: 1,
  homeRosterId: 'H',
  awayRosterId: 'A',
  version: 5,
  log: [
    entry(1, { type: 'START' }),
    entry(2, { rosterId: 'H', playerId: 'h1', playerName: 'Alice Ames', assistIds: ['h2', 'h9'], assistNames: ['Bruno Berg', 'Gone Player'] }),
    entry(3, { rosterId: 'A', playerId: null }),
    entry(4, { type: 'END_PERIOD' }),
    entry(6, { type: 'PENALTY', period: '2', rosterId: 'A', playerId: 'a1', playerName: 'Mia Moss', minutes: 2 }),
    entry(7, { period: '2', rosterId: 'H', playerId: 'h2', playerName: 'Bruno Berg' }),
  ],
  home: { rosterId: 'H', name: 'Blades', players: [{ userId: 'h1', displayName: 'Alice Ames', jerseyNumber: 9, position: null, dressed: true }, { userId: 'h2', displayName: 'Bruno Berg', jerseyNumber: null, position: null, dressed: true }] },
  away: { rosterId: 'A', name: 'Ice Hawks', players: [{ userId: 'a1', displayName: 'Mia Moss', jerseyNumber: 4, position: null, dressed: true }] },
  ...over,
});

describe('describeLog', () => {
  it('names players with their numbers, keeps the running score, and reads periods', () => {
    const d = describeLog(game());
    expect(d.map((x) => x.title)).toEqual(['Puck drop', 'Goal', 'Goal', 'End of 1st', 'Penalty', 'Goal']);
    expect(d[1]).toMatchObject({ side: 'home', team: 'Blades', primary: '#9 Alice Ames', secondary: 'Assists: Bruno Berg, Gone Player', homeScore: 1, awayScore: 0 });
    expect(d[2]).toMatchObject({ side: 'away', primary: 'Scorer not recorded', secondary: null, homeScore: 1, awayScore: 1 });
    expect(d[4]).toMatchObject({ team: 'Ice Hawks', primary: '#4 Mia Moss', secondary: '2 min' });
    expect(d[5]).toMatchObject({ primary: 'Bruno Berg', secondary: 'Unassisted', homeScore: 2, awayScore: 1 });
    expect(lastGoal(game())?.entry.seq).toBe(7);
  });
});

describe('gameStateLine', () => {
  it('reads live periods, intermissions and results', () => {
    expect(gameStateLine(game())).toBe('2nd period');
    expect(gameStateLine(game({ log: [entry(1, { type: 'END_PERIOD', period: '1' })] }))).toBe('End of 1st');
    expect(gameStateLine(game({ period: 'OT', log: [] }))).toBe('Overtime');
    expect(gameStateLine(game({ status: 'FINAL', period: '3' }))).toBe('Final');
    expect(gameStateLine(game({ status: 'FINAL', period: 'SO' }))).toBe('Final · SO');
    expect(gameStateLine(game({ status: 'POSTPONED', period: null }))).toBe('Postponed');
  });
  it('reads schedule lines', () => {
    expect(scheduleStateLine({ status: 'LIVE', period: '3', scheduledAt: '2026-11-20T19:00:00Z' })).toBe('Live · 3rd');
    expect(scheduleStateLine({ status: 'FINAL', period: 'OT', scheduledAt: '2026-11-20T19:00:00Z' })).toBe('Final · OT');
    expect(scheduleStateLine({ status: 'CANCELLED', period: null, scheduledAt: '2026-11-20T19:00:00Z' })).toBe('Cancelled');
  });
});

describe('newestGameDoc', () => {
  it('keeps the higher version and tolerates missing sides', () => {
    const a = game({ version: 3 });
    const b = game({ version: 4 });
    expect(newestGameDoc(a, b)).toBe(b);
    expect(newestGameDoc(b, a)).toBe(b);
    expect(newestGameDoc(null, a)).toBe(a);
    expect(newestGameDoc<Game>(undefined, null)).toBeNull();
  });
});

describe('goalDiff', () => {
  it('signs the difference', () => {
    expect(goalDiff({ goalsFor: 5, goalsAgainst: 2 })).toBe('+3');
    expect(goalDiff({ goalsFor: 2, goalsAgainst: 2 })).toBe('0');
    expect(goalDiff({ goalsFor: 1, goalsAgainst: 4 })).toBe('-3');
  });
});

describe('the game topic on the socket', () => {
  const goals = (n: number) => Array.from({ length: n }, (_, i) => entry(i + 2, { rosterId: 'H', playerId: 'h1', playerName: 'Alice Ames' }));
  const at = (n: number) => game({ version: n + 1, homeScore: n, log: [entry(1, { type: 'START' }), ...goals(n)] });

  it('merges small updates into the snapshot, players and all', async () => {
    const store = createStore();
    const { socket, server } = await openLiveSocket(store);
    socket.subscribe(gameTopic('g'));
    server.receive(gameSnapshotFrame(at(11)));
    server.receive(gameUpdateFrame(at(12)));
    // Ten new goals at once, none missed: the tail starts right after the held log.
    server.receive(gameUpdateFrame(at(22)));
    const held = store.get(topicAtomFamily(gameTopic('g')));
    expect(held?.seq).toBe(23);
    expect(held?.data).toEqual(at(22));
    expect(server.framesOfType('subscribe')).toHaveLength(1);
    socket.stop();
  });

  it('re-subscribes with since when a tail does not reach the log it holds', async () => {
    const store = createStore();
    const { socket, server } = await openLiveSocket(store);
    socket.subscribe(gameTopic('g'));
    server.receive(gameSnapshotFrame(at(11)));
    // Frames for goals 12–24 never came (coalesced); goal 25's tail starts at seq 17.
    server.receive(gameUpdateFrame(at(25)));
    expect(server.framesOfType('subscribe')).toEqual([
      { type: 'subscribe', topic: 'game:g' },
      { type: 'subscribe', topic: 'game:g', since: 12 },
    ]);
    // The screen keeps a whole, older game until the snapshot comes.
    expect(store.get(topicAtomFamily(gameTopic('g')))?.data).toEqual(at(11));
    server.receive(gameSnapshotFrame(at(25)));
    expect(store.get(topicAtomFamily(gameTopic('g')))?.data).toEqual(at(25));
    socket.stop();
  });
});
