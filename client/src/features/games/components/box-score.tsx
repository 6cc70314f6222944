// Who dressed on each side and what they did in this game.

import { Link } from 'react-router';
import type { GameDocument, GameTeam } from '../../../lib/api-types';
import { jersey } from '../../../lib/games';
import { boxScore } from '../model/box-score';

function Side({ game, team }: { game: GameDocument; team: GameTeam }) {
  const lines = boxScore(game, team);
  return (
    <section className="box-side" aria-label={team.name}>
      <h3 className="box-side__title">{team.name}</h3>
      {lines.length === 0 ? (
        <p className="empty-line">No players on this roster yet.</p>
      ) : (
        <table className="stat-table stat-table--compact">
          <thead>
            <tr>
              <th scope="col" className="stat-table__rank">
                #
              </th>
              <th scope="col" className="stat-table__name">
                Player
              </th>
              <th scope="col" title="Goals">G</th>
              <th scope="col" title="Assists">A</th>
              <th scope="col" title="Penalty minutes">PIM</th>
            </tr>
          </thead>
          <tbody>
            {lines.map((l) => (
              <tr key={l.player.userId}>
                <td className="stat-table__rank">{jersey(l.player.jerseyNumber).replace('#', '')}</td>
                <th scope="row" className="stat-table__name">
                  <Link to={`/users/${l.player.userId}/stats`}>{l.player.displayName}</Link>
                </th>
                <td>{l.goals || ''}</td>
                <td>{l.assists || ''}</td>
                <td>{l.penaltyMinutes || ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function BoxScore({ game }: { game: GameDocument }) {
  return (
    <div className="box-score" data-testid="box-score">
      <Side game={game} team={game.home} />
      <Side game={game} team={game.away} />
    </div>
  );
}
