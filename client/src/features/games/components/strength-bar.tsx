// The line the score keeper checks before every face-off: who is on the
// power play, at what strength, for how long ("Ice Hawks power play 5v4 ·
// 1:23"), and who sits in the box with their time left. Redrawn every
// frame while the clock runs (lib/use-game-clock.ts).

import type { Game } from '../../../lib/api-types';
import { formatMinutes } from '../../../lib/game-clock';
import { penaltyClocks, strengthLine, strengthOf } from '../../../lib/game-strength';
import { PENALTY_LABELS } from '../../../lib/games';
import { useGameClock } from '../../../lib/use-game-clock';

export function StrengthBar({ game }: { game: Game }) {
  const live = useGameClock(game.clock);
  if (!live || game.status !== 'LIVE') return null;
  const clocks = penaltyClocks(game, live.gameMs);
  const strength = strengthOf(clocks);
  const names = { home: game.home.name, away: game.away.name };
  const empty = (['home', 'away'] as const).filter((s) => game.goalies && game.goalies[s] === null);
  const line = strengthLine(strength, names);
  return (
    <section className={`sk-strength${strength.powerPlay ? ` sk-strength--pp sk-strength--${strength.powerPlay}` : ''}`} aria-label="Strength" data-testid="strength">
      <p className="sk-strength__line" data-testid="strength-line" data-label={strength.label} data-power-play={strength.powerPlay ?? ''}>
        <strong>{line}</strong>
        {strength.nextChangeMs !== null && <span className="sk-strength__left"> · {formatMinutes(strength.nextChangeMs)}</span>}
        {empty.map((s) => (
          <span key={s} className="sk-strength__empty" data-testid={`empty-net-${s}`}>
            {names[s]} net empty
          </span>
        ))}
      </p>
      {clocks.length > 0 && (
        <ul className="sk-strength__box" aria-label="Penalty box">
          {clocks.map((c) => (
            <li key={c.seq} className={`sk-pen sk-pen--${c.side}${c.serving ? '' : ' sk-pen--waiting'}`} data-testid={`box-${c.seq}`}>
              <span className="sk-pen__who">{c.player}</span>
              <span className="sk-pen__kind">{PENALTY_LABELS[c.kind]}</span>
              <span className="sk-pen__left">{c.serving ? formatMinutes(c.leftMs) : `waits · ${formatMinutes(c.leftMs)}`}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
