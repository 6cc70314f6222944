// Shots on goal, one tap per shot: a big +1 per side with the count so far.
// A goal counts as a shot by itself (the server adds it), so only saves
// and shots that miss nothing but the goalie are tapped here.

import type { Game } from '../../../lib/api-types';
import type { GameSide } from '../../../lib/games';
import type { GameActionBody } from '../model/commands';

const total = (xs: readonly number[] | undefined) => (xs ?? []).reduce((a, b) => a + b, 0);

export function ShotsControl({ game, send, disabled }: { game: Game; send: (action: GameActionBody) => void; disabled: boolean }) {
  const side = (s: GameSide) => {
    const team = s === 'home' ? game.home : game.away;
    const shots = total(game.shots?.[s]);
    return (
      <button
        key={s}
        type="button"
        className={`sk-btn sk-btn--shot sk-btn--shot-${s}`}
        disabled={disabled}
        onClick={() => send({ type: 'SHOT', rosterId: team.rosterId })}
        data-testid={`shot-${s}`}
        aria-label={`Shot on goal, ${team.name} (${shots} so far)`}
      >
        <span className="sk-btn--shot__plus">+1 shot</span>
        <span className="sk-btn--shot__count" data-testid={`shots-${s}`}>
          {shots}
        </span>
        <small>{team.name}</small>
      </button>
    );
  };
  return (
    <div className="sk-grid sk-shots" aria-label="Shots on goal">
      {side('home')}
      {side('away')}
    </div>
  );
}
