// The goalie of record per side: who is in net (START put each side's first
// dressed goalie there), a change to another dressed player, and the pull
// for an extra attacker — one tap out, one tap back in. The server credits
// shots and goals against to whoever is in net, and flags goals into an
// empty net.

import { useState } from 'react';
import type { Game, GamePlayer } from '../../../lib/api-types';
import { playerTag, type GameSide } from '../../../lib/games';
import type { GameActionBody } from '../model/commands';

/** Who goes back in after a pull: the last goalie of record, else the first dressed goalie. */
export function goalieToReturn(game: Game, side: GameSide): GamePlayer | null {
  const team = game[side];
  const dressed = team.players.filter((p) => p.dressed);
  for (let i = game.log.length - 1; i >= 0; i--) {
    const e = game.log[i];
    if (e?.type === 'GOALIE' && e.rosterId === team.rosterId && e.playerId) {
      const p = dressed.find((x) => x.userId === e.playerId);
      if (p) return p;
    }
  }
  return dressed.find((p) => p.position === 'GOALIE') ?? null;
}

function Side({ game, side, send, disabled }: { game: Game; side: GameSide; send: (a: GameActionBody) => void; disabled: boolean }) {
  const [changing, setChanging] = useState(false);
  const team = game[side];
  const inNet = game.goalies?.[side] ?? null;
  const goalie = inNet ? (team.players.find((p) => p.userId === inNet) ?? null) : null;
  const back = goalieToReturn(game, side);
  // Goalies first, then everyone else who dressed (a skater may have to go in).
  const choices = team.players.filter((p) => p.dressed && p.userId !== inNet).sort((a, b) => Number(b.position === 'GOALIE') - Number(a.position === 'GOALIE'));
  const pick = (playerId: string | null) => {
    setChanging(false);
    send({ type: 'GOALIE', rosterId: team.rosterId, playerId });
  };
  return (
    <div className={`sk-goalie sk-goalie--${side}${inNet ? '' : ' sk-goalie--pulled'}`} data-testid={`goalie-${side}`}>
      <p className="sk-goalie__who">
        <span className="sk-goalie__team">{team.name}</span>
        <strong data-testid={`goalie-${side}-name`}>{inNet ? (goalie ? playerTag(goalie) : 'Goalie in net') : 'Empty net'}</strong>
      </p>
      <div className="sk-goalie__actions">
        {inNet ? (
          <button type="button" className="sk-goalie__pull" disabled={disabled} aria-pressed={false} onClick={() => pick(null)} data-testid={`pull-${side}`}>
            Pull goalie
          </button>
        ) : (
          <button type="button" className="sk-goalie__pull sk-goalie__pull--on" disabled={disabled || !back} aria-pressed onClick={() => back && pick(back.userId)} data-testid={`pull-${side}`}>
            {back ? `${back.jerseyNumber !== null ? `#${back.jerseyNumber}` : back.displayName} back in` : 'No goalie dressed'}
          </button>
        )}
        <button type="button" className="sk-goalie__change" disabled={disabled || choices.length === 0} aria-expanded={changing} onClick={() => setChanging((c) => !c)} data-testid={`change-goalie-${side}`}>
          Change
        </button>
      </div>
      {changing && (
        <ul className="sk-goalie__choices" aria-label={`New goalie for ${team.name}`}>
          {choices.map((p) => (
            <li key={p.userId}>
              <button type="button" className="sk-goalie__choice" onClick={() => pick(p.userId)} data-testid={`goalie-pick-${p.userId}`}>
                <span className="sk-goalie__num">{p.jerseyNumber ?? '–'}</span>
                {p.displayName}
                {p.position === 'GOALIE' && <small> · G</small>}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function GoalieControl({ game, send, disabled }: { game: Game; send: (a: GameActionBody) => void; disabled: boolean }) {
  return (
    <section className="sk-goalies" aria-label="Goalies">
      <Side game={game} side="home" send={send} disabled={disabled} />
      <Side game={game} side="away" send={send} disabled={disabled} />
    </section>
  );
}
