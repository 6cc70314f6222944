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
import type { RosterStatLine } from '../../../lib/api-types';
import { formatGaa, formatSavePct } from '../model/goalie-lines';
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
                  <th scope="col" title="Power-play goals">PPG</th>
                  <th scope="col" title="Shorthanded goals">SHG</th>
                  <th scope="col" title="Penalty minutes">PIM</th>
                  <th scope="col" title="Minor penalty minutes">Min</th>
                  <th scope="col" title="Major penalty minutes">Maj</th>
                  <th scope="col" title="Misconduct penalty minutes (game misconducts included)">Misc</th>
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
                    <td>{r.ppGoals ?? 0}</td>
                    <td>{r.shGoals ?? 0}</td>
                    <td>{r.penaltyMinutes}</td>
                    <td>{r.minorPim ?? 0}</td>
                    <td>{r.majorPim ?? 0}</td>
                    <td>{r.misconductPim ?? 0}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
      <GoalieStats rosters={s.rosters} />
    </div>
  );
}

/** Rosters where the player stood in net: shots and goals against, saves, SV% and GAA (per 60 minutes in net). */
function GoalieStats({ rosters }: { rosters: RosterStatLine[] }) {
  const lines = rosters.filter((r) => (r.goalieMs ?? 0) > 0 || (r.shotsAgainst ?? 0) > 0);
  if (lines.length === 0) return null;
  return (
    <Card>
      <CardHeader title="In goal" subtitle="GAA is goals against per 60 minutes in net, whatever the period length." />
      <div className="table-scroll">
        <table className="stat-table" data-testid="goalie-stats">
          <thead>
            <tr>
              <th scope="col" className="stat-table__name">
                Roster
              </th>
              <th scope="col" title="Shots against">SA</th>
              <th scope="col" title="Goals against">GA</th>
              <th scope="col" title="Saves">SV</th>
              <th scope="col" title="Save percentage" className="stat-table__key">
                SV%
              </th>
              <th scope="col" title="Goals against average">GAA</th>
              <th scope="col" title="Minutes in net">MIN</th>
            </tr>
          </thead>
          <tbody>
            {lines.map((r) => {
              const sa = r.shotsAgainst ?? 0;
              const ga = r.goalsAgainst ?? 0;
              const ms = r.goalieMs ?? 0;
              return (
                <tr key={r.rosterId}>
                  <th scope="row" className="stat-table__name">
                    <Link to={`/teams/${r.teamId}`}>{r.teamName}</Link>
                    <span className="leader__roster">
                      <Link to={`/seasons/${r.seasonId}/games`}>{r.seasonName}</Link>
                    </span>
                  </th>
                  <td>{sa}</td>
                  <td>{ga}</td>
                  <td>{sa - ga}</td>
                  <td className="stat-table__key">{formatSavePct(sa > 0 ? (sa - ga) / sa : null)}</td>
                  <td>{formatGaa(ms > 0 ? (ga * 3_600_000) / ms : null)}</td>
                  <td>{Math.round(ms / 60_000)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </Card>
  );
}
