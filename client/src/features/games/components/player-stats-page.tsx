// /users/:id/stats — a player's numbers: career totals and one line per
// roster (team, season, jersey), latest season first.

import { Link, useParams } from 'react-router';
import { ApiError, errorMessage } from '../../../lib/api';
import { POSITION_SHORT } from '../../../lib/format';
import { jersey } from '../../../lib/games';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { UserIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { PageSpinner } from '../../../components/ui/spinner';
import { usePlayerStats } from '../api/games';
import '../games.css';

export function PlayerStatsPage() {
  const { id = '' } = useParams();
  const stats = usePlayerStats(id);
  if (stats.isPending) return <PageSpinner label="Loading stats" />;
  if (stats.isError) {
    const notFound = stats.error instanceof ApiError && stats.error.status === 404;
    return (
      <Card>
        <EmptyState
          icon={<UserIcon size={28} />}
          title={notFound ? 'No such player' : 'Could not load these stats'}
          action={notFound ? <ButtonLink to="/people">Find people</ButtonLink> : <Button variant="secondary" onClick={() => void stats.refetch()}>Try again</Button>}
        >
          {notFound ? 'The link may be wrong.' : errorMessage(stats.error)}
        </EmptyState>
      </Card>
    );
  }
  const s = stats.data;
  const totals = [
    { label: 'Games', value: s.totals.gamesPlayed },
    { label: 'Goals', value: s.totals.goals },
    { label: 'Assists', value: s.totals.assists },
    { label: 'Points', value: s.totals.points },
    { label: 'PIM', value: s.totals.penaltyMinutes },
  ];
  return (
    <div className="player-stats" data-testid="player-stats">
      <PageHeader eyebrow={<Link to={`/users/${s.userId}`}>Profile</Link>} title={s.displayName} subtitle="Stats across every roster" />
      <div className="stat-tiles" role="list" aria-label="Career totals">
        {totals.map((t) => (
          <div key={t.label} className="stat-tile" role="listitem" data-testid={`total-${t.label.toLowerCase()}`}>
            <span className="stat-tile__value">{t.value}</span>
            <span className="stat-tile__label">{t.label}</span>
          </div>
        ))}
      </div>
      <Card>
        <CardHeader title="By roster" subtitle="Latest season first." />
        {s.rosters.length === 0 ? (
          <p className="empty-line">Not on any roster yet.</p>
        ) : (
          <div className="table-scroll">
            <table className="stat-table" data-testid="roster-stats">
              <thead>
                <tr>
                  <th scope="col" className="stat-table__name">
                    Roster
                  </th>
                  <th scope="col" title="Jersey number">No.</th>
                  <th scope="col" title="Position">Pos</th>
                  <th scope="col" title="Games played">GP</th>
                  <th scope="col" title="Goals">G</th>
                  <th scope="col" title="Assists">A</th>
                  <th scope="col" title="Points" className="stat-table__key">
                    PTS
                  </th>
                  <th scope="col" title="Penalty minutes">PIM</th>
                </tr>
              </thead>
              <tbody>
                {s.rosters.map((r) => (
                  <tr key={r.rosterId}>
                    <th scope="row" className="stat-table__name">
                      <Link to={`/teams/${r.teamId}`}>{r.teamName}</Link>
                      <span className="leader__roster">
                        {r.rosterName !== r.teamName ? `${r.rosterName} · ` : ''}
                        <Link to={`/seasons/${r.seasonId}/games`}>{r.seasonName}</Link>
                      </span>
                    </th>
                    <td>{jersey(r.jerseyNumber) || '–'}</td>
                    <td>{r.position ? POSITION_SHORT[r.position] : '–'}</td>
                    <td>{r.gamesPlayed}</td>
                    <td>{r.goals}</td>
                    <td>{r.assists}</td>
                    <td className="stat-table__key">{r.points}</td>
                    <td>{r.penaltyMinutes}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </div>
  );
}
