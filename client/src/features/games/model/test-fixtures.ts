// Game documents for the games feature's tests.

import type { Game, GameLogEntry, GamePlayer, GameScheduleEntry, Standing } from '../../../lib/api-types';

export const player = (userId: string, displayName: string, jerseyNumber: number | null, dressed = true): GamePlayer => ({
  userId,
  displayName,
  jerseyNumber,
  position: 'CENTER',
  dressed,
});

export const HOME_PLAYERS = [player('h1', 'Alice Ames', 9), player('h2', 'Bruno Berg', 12), player('h3', 'Cara Cole', 27), player('h4', 'Dev Dunn', null, false)];
export const AWAY_PLAYERS = [player('a1', 'Mia Moss', 4), player('a2', 'Ned North', 19)];

export function logEntry(seq: number, over: Partial<GameLogEntry>): GameLogEntry {
  return {
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
  };
}

export function makeGame(over: Partial<Game> = {}): Game {
  return {
    id: 'g-1',
    status: 'LIVE',
    period: '1',
    homeScore: 0,
    awayScore: 0,
    homeRosterId: 'r-home',
    awayRosterId: 'r-away',
    version: 2,
    log: [logEntry(1, { type: 'START' })],
    home: { rosterId: 'r-home', name: 'Blades', players: HOME_PLAYERS },
    away: { rosterId: 'r-away', name: 'Ice Hawks', players: AWAY_PLAYERS },
    seasonId: 's-1',
    scheduledAt: '2026-11-20T19:00:00Z',
    viewer: { canScore: true, canManage: false, lineupRosterIds: ['r-home', 'r-away'] },
    ...over,
  };
}

export function makeEntry(over: Partial<GameScheduleEntry> = {}): GameScheduleEntry {
  return {
    id: 'g-1',
    seasonId: 's-1',
    seasonName: 'Fall League',
    scheduledAt: '2026-11-20T19:00:00Z',
    status: 'SCHEDULED',
    period: null,
    homeRosterId: 'r-home',
    homeRosterName: 'Blades',
    homeTeamId: 't-home',
    awayRosterId: 'r-away',
    awayRosterName: 'Ice Hawks',
    awayTeamId: 't-away',
    homeScore: 0,
    awayScore: 0,
    version: 1,
    ...over,
  };
}

export function makeStanding(rosterId: string, name: string, over: Partial<Standing> = {}): Standing {
  return { rosterId, name, gamesPlayed: 0, wins: 0, losses: 0, ties: 0, points: 0, goalsFor: 0, goalsAgainst: 0, ...over };
}
