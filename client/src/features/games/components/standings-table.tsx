// A season's standings in the server's order (points, wins, goal
// difference, goals for, fewer games played, name): we never re-sort.

import type { Standing } from '../../../lib/api-types';
import { goalDiff } from '../../../lib/games';

export function StandingsTable({ standings, highlight = [], compact = false }: { standings: Standing[]; highlight?: readonly string[]; compact?: boolean }) {
  if (standings.length === 0) return <p className="empty-line">No rosters in this season yet.</p>;
  return (
    <div className="table-scroll">
      <table className={`stat-table${compact ? ' stat-table--compact' : ''}`} data-testid="standings">
        <thead>
          <tr>
            <th scope="col" className="stat-table__rank">
              <span className="sr-only">Place</span>
            </th>
            <th scope="col" className="stat-table__name">
              Team
            </th>
            <th scope="col" title="Games played">GP</th>
            <th scope="col" title="Wins">W</th>
            <th scope="col" title="Losses">L</th>
            <th scope="col" title="Ties">T</th>
            {!compact && (
              <>
                <th scope="col" title="Goals for" className="stat-table__opt">
                  GF
                </th>
                <th scope="col" title="Goals against" className="stat-table__opt">
                  GA
                </th>
              </>
            )}
            <th scope="col" title="Goal difference">DIFF</th>
            <th scope="col" title="Points" className="stat-table__key">
              PTS
            </th>
          </tr>
        </thead>
        <tbody>
          {standings.map((s, i) => (
            <tr key={s.rosterId} className={highlight.includes(s.rosterId) ? 'stat-table__row--hl' : undefined} data-testid={`standing-${s.rosterId}`}>
              <td className="stat-table__rank">{i + 1}</td>
              <th scope="row" className="stat-table__name">
                {s.name}
              </th>
              <td>{s.gamesPlayed}</td>
              <td>{s.wins}</td>
              <td>{s.losses}</td>
              <td>{s.ties}</td>
              {!compact && (
                <>
                  <td className="stat-table__opt">{s.goalsFor}</td>
                  <td className="stat-table__opt">{s.goalsAgainst}</td>
                </>
              )}
              <td>{goalDiff(s)}</td>
              <td className="stat-table__key">{s.points}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
