// What the console offers at the end of a period, by the rule the server
// keeps (actors/src/game/decide.rs): overtime, and a shootout after it, are
// played only from a tie. With one side ahead, END 3RD (or END OT after an
// overtime goal) ends the game's last period; FINAL is all that is left.

import type { GameDocument } from '../../../lib/api-types';
import { periodShort } from '../../../lib/games';

type PeriodGame = Pick<GameDocument, 'status' | 'period' | 'homeScore' | 'awayScore' | 'log'>;

/** The console's END PERIOD button: whether it may be tapped, its label and its hint. */
export interface PeriodStep {
  canEnd: boolean;
  label: string;
  hint: string;
  /** The game is over but for FINAL: the console puts FINAL first. */
  finalNext: boolean;
}

/** The current period was ended and the game did not move on (a standing END_PERIOD of this very period). */
export function periodEnded(game: PeriodGame): boolean {
  return game.period !== null && game.log.some((e) => e.type === 'END_PERIOD' && e.period === game.period);
}

export function periodStep(game: PeriodGame): PeriodStep {
  const label = `End ${periodShort(game.period)}`;
  const tied = game.homeScore === game.awayScore;
  if (game.period === 'SO') return { canEnd: false, label, hint: 'Shootout is the last', finalNext: true };
  const deciding = game.period === '3' || game.period === 'OT';
  if (!deciding) return { canEnd: true, label, hint: 'End period', finalNext: false };
  if (!tied && periodEnded(game)) {
    return { canEnd: false, label, hint: game.period === '3' ? 'Not tied: no overtime' : 'Not tied: no shootout', finalNext: true };
  }
  if (tied) return { canEnd: true, label, hint: game.period === '3' ? 'Tied: overtime next' : 'Tied: shootout next', finalNext: false };
  return { canEnd: true, label, hint: game.period === '3' ? 'End of regulation' : 'End of overtime', finalNext: false };
}
