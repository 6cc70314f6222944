// Rosters in a list (a team's page, a season's page): name, status, division,
// how full it is and its record. Presentational.

import type { RosterStatus, RosterSummary } from '../../lib/api-types';
import { plural } from '../../lib/format';
import { Avatar } from './avatar';
import { ListRow } from './list-row';
import './roster-list.css';

export const ROSTER_STATUS_LABELS: Record<RosterStatus, string> = {
  DRAFT: 'Draft',
  ACTIVE: 'Active',
  ARCHIVED: 'Archived',
};

export function RosterStatusChip({ status }: { status: RosterStatus }) {
  return (
    <span className={`roster-status roster-status--${status.toLowerCase()}`} data-testid="roster-status-chip">
      {ROSTER_STATUS_LABELS[status]}
    </span>
  );
}

/** "12 players" or "12/20 players". */
export function membersText(r: Pick<RosterSummary, 'memberCount' | 'maxMembers'>): string {
  return r.maxMembers === null ? `${r.memberCount} ${plural(r.memberCount, 'player')}` : `${r.memberCount}/${r.maxMembers} ${plural(r.maxMembers, 'player')}`;
}

/** "5–2–1 · 11 pts" (wins–losses–ties), or null before any game. */
export function recordText(r: Pick<RosterSummary, 'wins' | 'losses' | 'ties' | 'points'>): string | null {
  if (r.wins + r.losses + r.ties === 0) return null;
  return `${r.wins}–${r.losses}–${r.ties} · ${r.points} ${plural(r.points, 'pt', 'pts')}`;
}

export function RosterRow({ roster, context }: { roster: RosterSummary; context: 'team' | 'season' }) {
  const record = recordText(roster);
  // On a season's list the roster's team, unless the roster is named after it.
  const team = context === 'season' && roster.teamName !== roster.name ? roster.teamName : null;
  return (
    <ListRow
      to={`/rosters/${roster.id}`}
      testId={`roster-row-${roster.id}`}
      media={<Avatar name={context === 'season' ? roster.teamName : roster.name} square size="sm" />}
      title={
        <span className="roster-row__title">
          <span className="roster-row__name">{roster.name}</span>
          <RosterStatusChip status={roster.status} />
        </span>
      }
      subtitle={
        <span className="roster-row__sub">
          {team && <span>{team}</span>}
          <span>{membersText(roster)}</span>
          {roster.division && <span className="roster-row__division">{roster.division.facilityDivisionName}</span>}
          {record && <span>{record}</span>}
        </span>
      }
    />
  );
}

/** Rosters grouped by season, keeping the order given (latest season first). */
export function groupBySeason(rosters: RosterSummary[]): Array<{ seasonId: string; seasonName: string; facilityName: string; facilityId: string; isActive: boolean; rosters: RosterSummary[] }> {
  const groups: ReturnType<typeof groupBySeason> = [];
  for (const r of rosters) {
    let g = groups.find((x) => x.seasonId === r.seasonId);
    if (!g) {
      g = { seasonId: r.seasonId, seasonName: r.seasonName, facilityName: r.facilityName, facilityId: r.facilityId, isActive: r.seasonIsActive, rosters: [] };
      groups.push(g);
    }
    g.rosters.push(r);
  }
  return groups;
}
