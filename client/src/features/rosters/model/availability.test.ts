import { describe, expect, it } from 'vitest';
import type { Status } from '../../../lib/api-types';
import { makeAvailabilityBoard, makeAvailabilityPlayer, makeGameAvailability } from '../testing';
import {
  answerWords,
  boardView,
  callFor,
  countLines,
  countsLine,
  lockText,
  mayAnswerIn,
  noAnswerCount,
  nudgedAgo,
  nudgeLabel,
  shortWords,
  sideLine,
  staffSetsAnswers,
  subsCallBody,
  subsPositions,
  whenText,
} from './availability';

const TORONTO = 'America/Toronto';
/** Tuesday Nov 24, 2026, 1 PM in Toronto: two days before the game. */
const NOW = Date.parse('2026-11-24T18:00:00Z');
const min = (n: number) => n * 60_000;

describe('the counts in words', () => {
  it('says each group as in, out and no answer', () => {
    expect(countsLine('skaters', { in: 8, out: 1, noAnswer: 3 })).toBe('Skaters 8 in · 1 out · 3 no answer');
    expect(countsLine('defence', { in: 0, out: 0, noAnswer: 2 })).toBe('Defence 0 in · 0 out · 2 no answer');
  });

  it('lists only the groups someone is in, subs last and apart', () => {
    const players = [
      makeAvailabilityPlayer({ userId: 'u-a', answer: 'IN' }),
      makeAvailabilityPlayer({ userId: 'u-g', group: 'GOALIES', position: 'GOALIE' }),
      makeAvailabilityPlayer({ userId: 'u-s', group: 'SUBS', commitmentLevel: 'SUBSTITUTE', answer: 'OUT' }),
    ];
    expect(countLines(makeGameAvailability({ players }).counts)).toEqual([
      { group: 'skaters', text: 'Skaters 1 in · 0 out · 0 no answer' },
      { group: 'goalies', text: 'Goalies 0 in · 0 out · 1 no answer' },
      { group: 'subs', text: 'Subs 0 in · 1 out · 0 no answer' },
    ]);
  });

  it('says what is short, and nothing when the minimums are met', () => {
    expect(shortWords({ skaters: 0, goalies: 1 })).toBe('Short 1 goalie');
    expect(shortWords({ skaters: 2, goalies: 0 })).toBe('Short 2 skaters');
    expect(shortWords({ skaters: 1, goalies: 2 })).toBe('Short 1 skater and 2 goalies');
    expect(shortWords({ skaters: 0, goalies: 0 })).toBeNull();
  });

  it('reads an answer, counts who has not answered and words the nudge', () => {
    expect([answerWords('IN'), answerWords('OUT'), answerWords(null)]).toEqual(['In', 'Out', 'No answer']);
    const game = makeGameAvailability({ players: [makeAvailabilityPlayer({ userId: 'u-a' }), makeAvailabilityPlayer({ userId: 'u-b', answer: 'OUT' }), makeAvailabilityPlayer({ userId: 'u-c' })] });
    expect(noAnswerCount(game)).toBe(2);
    expect(nudgeLabel(2)).toBe("Nudge 2 who haven't answered");
    expect(nudgeLabel(1)).toBe("Nudge 1 who hasn't answered");
  });

  it('says how long ago the last nudge went', () => {
    const at = new Date(NOW).toISOString();
    expect(nudgedAgo(at, NOW + 20_000)).toBe('Nudged just now');
    expect(nudgedAgo(at, NOW + min(3))).toBe('Nudged 3 min ago');
    expect(nudgedAgo(at, NOW + min(125))).toBe('Nudged 2 h ago');
    expect(nudgedAgo(at, NOW + min(60 * 30))).toBe('Nudged yesterday');
  });
});

describe('times on the rink clock', () => {
  it('says when the game is, and against whom', () => {
    const game = makeGameAvailability();
    expect(whenText(game, NOW, TORONTO)).toBe('Thursday, November 26 · 9:30 PM');
    expect(whenText(game, Date.parse('2026-11-26T15:00:00Z'), TORONTO)).toBe('Today · 9:30 PM');
    // Seen from elsewhere: the rink's clock, the zone named.
    expect(whenText(game, NOW, 'Europe/Helsinki')).toMatch(/^Thursday, November 26 · 9:30 PM (EST|GMT-5)$/);
    expect(sideLine(game)).toBe('Home vs Bears');
    expect(sideLine({ side: 'AWAY', opponent: 'Bears' })).toBe('Away at Bears');
    expect(sideLine({ side: 'AWAY', opponent: null })).toBe('Away');
  });

  it('says when answers lock, then that they are locked', () => {
    const game = makeGameAvailability({ locksAt: '2026-11-27T00:30:00Z' });
    expect(lockText(game, NOW, TORONTO)).toBe('Answers lock Thu 7:30 PM');
    expect(lockText(game, Date.parse('2026-11-27T00:30:00Z'), TORONTO)).toBe('Locked');
    expect(lockText({ ...game, locked: true }, NOW, TORONTO)).toBe('Locked');
    expect(lockText({ ...game, locksAt: null }, NOW, TORONTO)).toBeNull();
  });
});

describe('who may answer what', () => {
  const locked = makeGameAvailability({ locksAt: '2026-11-27T00:30:00Z', locked: true });

  it('lets a player say in until the lock, and only out after it', () => {
    expect(mayAnswerIn(makeGameAvailability(), false, NOW)).toBe(true);
    expect(mayAnswerIn(locked, false, NOW)).toBe(false);
  });

  it("lets the staff say anyone's answer on a native game after the lock, but not on an imported one (that is an RSVP)", () => {
    expect(mayAnswerIn(locked, true, NOW)).toBe(true);
    expect(mayAnswerIn({ ...locked, kind: 'EVENT' }, true, NOW)).toBe(false);
    expect(staffSetsAnswers(locked, true)).toBe(true);
    expect(staffSetsAnswers({ kind: 'EVENT' }, true)).toBe(false);
    expect(staffSetsAnswers(locked, false)).toBe(false);
  });
});

describe('the call for subs', () => {
  it('asks for the positions missing: the goalie, the skater positions, or both', () => {
    expect(subsPositions({ skaters: 0, goalies: 1 })).toEqual(['GOALIE']);
    expect(subsPositions({ skaters: 2, goalies: 0 })).toEqual(['CENTER', 'LEFT_WING', 'RIGHT_WING', 'LEFT_DEFENSE', 'RIGHT_DEFENSE']);
    expect(subsPositions({ skaters: 1, goalies: 1 })).toEqual(['GOALIE', 'CENTER', 'LEFT_WING', 'RIGHT_WING', 'LEFT_DEFENSE', 'RIGHT_DEFENSE']);
  });

  it("posts the team's call for a native game, saying what is short for which game, until puck drop", () => {
    const game = makeGameAvailability({ short: { skaters: 0, goalies: 1 } });
    // The message is on the rink's clock whatever the device's.
    expect(subsCallBody(game, 't-1', 'Europe/Helsinki')).toEqual({
      type: 'LOOKING_FOR_SUBS',
      entityType: 'TEAM',
      teamId: 't-1',
      positions: ['GOALIE'],
      message: 'Short 1 goalie for Thu 9:30 PM vs Bears — come play.',
      expiresAt: '2026-11-27T02:30:00Z',
    });
  });

  it('names the event for an imported game', () => {
    const game = makeGameAvailability({ kind: 'EVENT', gameId: 'e-7', opponent: null, short: { skaters: 2, goalies: 0 } });
    const body = subsCallBody(game, 't-1', TORONTO);
    expect(body.eventId).toBe('e-7');
    expect(body.message).toBe('Short 2 skaters for Thu 9:30 PM — come play.');
  });

  it("finds the team's call already up for this game, and not another's", () => {
    const base = { type: 'LOOKING_FOR_SUBS', teamId: 't-1', eventId: null, expiresAt: '2026-11-27T02:30:00.000Z' } as Status;
    const game = makeGameAvailability();
    expect(callFor([base], game, 't-1', NOW)).toBe(base);
    expect(callFor([{ ...base, expiresAt: '2026-11-20T02:30:00Z' }], game, 't-1', NOW)).toBeNull();
    expect(callFor([{ ...base, teamId: 't-2' }], game, 't-1', NOW)).toBeNull();
    expect(callFor([{ ...base, type: 'RECRUITING' }], game, 't-1', NOW)).toBeNull();
    const imported = makeGameAvailability({ kind: 'EVENT', gameId: 'e-7' });
    expect(callFor([{ ...base, eventId: 'e-7' }], imported, 't-1', NOW)).not.toBeNull();
    expect(callFor([base], imported, 't-1', NOW)).toBeNull();
  });
});

describe('which copy of the board shows', () => {
  const before = makeGameAvailability({ players: [makeAvailabilityPlayer({ userId: 'u-me' })] });
  const after = makeGameAvailability({ players: [makeAvailabilityPlayer({ userId: 'u-me', answer: 'IN' })] });
  const board = makeAvailabilityBoard({ games: [before] });

  it("shows the topic's board over the REST read", () => {
    const pushed = makeAvailabilityBoard({ games: [after] });
    expect(boardView({ live: { seq: 4, data: pushed }, rest: board, restAt: 10 }, {})?.games[0]).toEqual(after);
    expect(boardView({ live: null, rest: null, restAt: 0 }, {})).toBeNull();
  });

  it("shows my write's reply until the topic says something newer", () => {
    const written = { 'g-1': { game: after, liveSeq: 4, restAt: 10 } };
    expect(boardView({ live: { seq: 4, data: board }, rest: board, restAt: 10 }, written)?.games[0]).toBe(after);
    // The next push (seq 5) is at least as new as my write: it takes over.
    expect(boardView({ live: { seq: 5, data: board }, rest: board, restAt: 10 }, written)?.games[0]).toBe(before);
  });

  it('without a socket, shows the reply until the REST read is newer', () => {
    const written = { 'g-1': { game: after, liveSeq: null, restAt: 10 } };
    expect(boardView({ live: null, rest: board, restAt: 10 }, written)?.games[0]).toBe(after);
    expect(boardView({ live: null, rest: board, restAt: 11 }, written)?.games[0]).toBe(before);
    // A snapshot arriving later is newer than a write made without the topic.
    expect(boardView({ live: { seq: 1, data: board }, rest: board, restAt: 10 }, written)?.games[0]).toBe(before);
  });

  it('keeps the games soonest first', () => {
    const late = makeGameAvailability({ gameId: 'g-2', startsAt: '2026-12-03T02:30:00Z' });
    const shown = boardView({ live: null, rest: makeAvailabilityBoard({ games: [late, before] }), restAt: 1 }, {});
    expect(shown?.games.map((g) => g.gameId)).toEqual(['g-1', 'g-2']);
  });
});
