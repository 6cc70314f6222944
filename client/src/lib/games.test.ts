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
    expect(d[4]).toMatchObject({ team: 'Ice Hawks', primary: '#4 Mia Moss', secondary: 'Minor · 2 min' });
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
    server.receive(gameUpdateFrame(at(12), at(11)));
    // Ten new goals in one update (a slow reader's queue, merged), none missed.
    server.receive(gameUpdateFrame(at(22), at(12)));
    const held = store.get(topicAtomFamily(gameTopic('g')));
    expect(held?.seq).toBe(23);
    // The same game, its new entries as the updates carried them (ids only: names come from the players).
    const doc = held?.data as GameDocument;
    expect({ ...doc, log: undefined }).toEqual({ ...at(22), log: undefined });
    expect(doc.log.map((e) => e.seq)).toEqual(at(22).log.map((e) => e.seq));
    expect(doc.home.players).toEqual(at(22).home.players);
    expect(describeLog(doc).at(-1)?.primary).toBe('#9 Alice Ames');
    expect(server.framesOfType('subscribe')).toHaveLength(1);
    socket.stop();
  });

  it('re-subscribes with since when an update continues from a version after the one it holds', async () => {
    const store = createStore();
    const { socket, server } = await openLiveSocket(store);
    socket.subscribe(gameTopic('g'));
    server.receive(gameSnapshotFrame(at(11)));
    // Frames for goals 12–24 never came; goal 25's update continues from 24.
    server.receive(gameUpdateFrame(at(25), at(24)));
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

describe('describeLog on game night', () => {
  it('flags PP, SH and EN goals, ties a release to its penalty both ways, and names goalie changes', () => {
    const g = game({
      log: [
        entry(1, { type: 'START', rosterId: null }),
        entry(2, { type: 'PENALTY', rosterId: 'A', playerId: 'a1', minutes: 2, penalty: 'MINOR', clockMs: 800_000 }),
        entry(3, { type: 'GOAL', rosterId: 'H', playerId: 'h1', strength: 'PP', releases: 2, clockMs: 754_000 }),
        entry(4, { type: 'GOALIE', rosterId: 'A', playerId: null, clockMs: 60_000 }),
        entry(5, { type: 'GOAL', rosterId: 'H', playerId: 'h2', strength: 'SH', emptyNet: true, clockMs: 30_000 }),
        entry(6, { type: 'PENALTY', rosterId: 'H', playerId: 'h2', minutes: 10, penalty: 'GAME_MISCONDUCT' }),
      ],
    });
    const d = describeLog(g);
    expect(d[1]).toMatchObject({ secondary: 'Minor · 2 min', release: 'Ended by a power-play goal at 12:34' });
    expect(d[2]).toMatchObject({ flags: ['PP'], release: 'Ends #4 Mia Moss’s minor' });
    expect(d[3]).toMatchObject({ title: 'Goalie pulled', primary: 'Empty net', team: 'Ice Hawks' });
    expect(d[4]).toMatchObject({ flags: ['SH', 'EN'], release: null });
    expect(d[5]).toMatchObject({ secondary: 'Game misconduct · 10 min' });
  });
});
