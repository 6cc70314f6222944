// What the log says about each player in this one game: goals (power-play
// and shorthanded among them), assists and penalty minutes (the box
// score), penalty minutes by type per team, and who may no longer be left
// out of the lineup because the log already names them (the server
// refuses that).

import type { GameDocument, GamePlayer, GameTeam } from '../../../lib/api-types';
import { penaltyKindOf } from '../../../lib/games';

export interface BoxLine {
  player: GamePlayer;
  goals: number;
  assists: number;
  ppGoals: number;
  shGoals: number;
  penaltyMinutes: number;
}

/** Penalty minutes of one side by what was called. */
export interface PimByType {
  minor: number;
  major: number;
  /** Misconducts and game misconducts. */
  misconduct: number;
  /** Minutes logged without a type (suspensions and the like). */
  other: number;
}

export function pimByType(game: GameDocument, rosterId: string): PimByType {
  const out: PimByType = { minor: 0, major: 0, misconduct: 0, other: 0 };
  for (const e of game.log) {
    if (e.type !== 'PENALTY' || e.rosterId !== rosterId) continue;
    const minutes = e.minutes ?? 0;
    switch (penaltyKindOf(e)) {
      case 'MINOR':
      case 'DOUBLE_MINOR':
        out.minor += minutes;
        break;
      case 'MAJOR':
        out.major += minutes;
        break;
      case 'MISCONDUCT':
      case 'GAME_MISCONDUCT':
        out.misconduct += minutes;
        break;
      default:
        out.other += minutes;
    }
  }
  return out;
}

/** Dressed players of one side with their numbers in this game, in roster order. */
export function boxScore(game: GameDocument, team: GameTeam): BoxLine[] {
  const lines = new Map<string, BoxLine>();
  for (const p of team.players) if (p.dressed) lines.set(p.userId, { player: p, goals: 0, assists: 0, ppGoals: 0, shGoals: 0, penaltyMinutes: 0 });
  for (const e of game.log) {
    if (e.rosterId !== team.rosterId) continue;
    if (e.type === 'GOAL') {
      const scorer = e.playerId ? lines.get(e.playerId) : undefined;
      if (scorer) {
        scorer.goals += 1;
        if (e.strength === 'PP') scorer.ppGoals += 1;
        if (e.strength === 'SH') scorer.shGoals += 1;
      }
      for (const a of e.assistIds) {
        const line = lines.get(a);
        if (line) line.assists += 1;
      }
    } else if (e.type === 'PENALTY' && e.playerId) {
      const line = lines.get(e.playerId);
      if (line) line.penaltyMinutes += e.minutes ?? 0;
    }
  }
  return [...lines.values()];
}

/** Players of `rosterId` the log names (scorers, assists, penalties): they must stay dressed. */
export function namedInLog(game: GameDocument, rosterId: string): Set<string> {
  const out = new Set<string>();
  for (const e of game.log) {
    if (e.rosterId !== rosterId) continue;
    if (e.playerId) out.add(e.playerId);
    for (const a of e.assistIds) out.add(a);
  }
  return out;
}
