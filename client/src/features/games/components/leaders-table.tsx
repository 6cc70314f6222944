// A season's scoring leaders in the server's order (points, goals, fewer
// games played, name).

import { Link } from 'react-router';
import type { ScoringLeader } from '../../../lib/api-types';
import { jersey } from '../../../lib/games';

export function LeadersTable({ leaders }: { leaders: ScoringLeader[] }) {
  if (leaders.length === 0) return <p className="empty-line">No players on this season's rosters yet.</p>;
  return (
    <div className="table-scroll">
      <table className="stat-table stat-table--compact" data-testid="leaders">
        <thead>
          <tr>
            <th scope="col" className="stat-table__rank">
              <span className="sr-only">Rank</span>
            </th>
            <th scope="col" className="stat-table__name">
              Player
            </th>
            <th scope="col" title="Games played">GP</th>
            <th scope="col" title="Goals">G</th>
            <th scope="col" title="Assists">A</th>
            <th scope="col" title="Points" className="stat-table__key">
              PTS
            </th>
          </tr>
        </thead>
        <tbody>
          {leaders.map((l, i) => (
            <tr key={`${l.userId}-${l.rosterId}`} data-testid={`leader-${l.userId}`}>
              <td className="stat-table__rank">{i + 1}</td>
              <th scope="row" className="stat-table__name">
                <Link to={`/users/${l.userId}/stats`} className="leader__name">
                  {l.jerseyNumber !== null && <span className="leader__num">{jersey(l.jerseyNumber)}</span>}
                  {l.displayName}
                </Link>
                <span className="leader__roster">{l.rosterName}</span>
              </th>
              <td>{l.gamesPlayed}</td>
              <td>{l.goals}</td>
              <td>{l.assists}</td>
              <td className="stat-table__key">{l.points}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
