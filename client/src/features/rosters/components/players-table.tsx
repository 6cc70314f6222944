// The roster's players with their numbers, positions, letters and season
// stats. Headers sort (stat leaders first); managers get an Edit button per
// row. On a phone the table scrolls sideways with number and name pinned.

import { Link } from 'react-router';
import type { RosterPlayer } from '../../../lib/api-types';
import { displayName, POSITION_LABELS, POSITION_SHORT } from '../../../lib/format';
import { Avatar } from '../../../components/ui/avatar';
import { EditIcon } from '../../../components/ui/icons';
import { letterOf, type SortKey } from '../model/roster';

interface Column {
  key: SortKey;
  label: string;
  title: string;
  numeric?: boolean;
  value?: (p: RosterPlayer) => number;
}

const STAT_COLUMNS: Column[] = [
  { key: 'gamesPlayed', label: 'GP', title: 'Games played', numeric: true, value: (p) => p.gamesPlayed },
  { key: 'goals', label: 'G', title: 'Goals', numeric: true, value: (p) => p.goals },
  { key: 'assists', label: 'A', title: 'Assists', numeric: true, value: (p) => p.assists },
  { key: 'points', label: 'PTS', title: 'Points', numeric: true, value: (p) => p.points },
  { key: 'penaltyMinutes', label: 'PIM', title: 'Penalty minutes', numeric: true, value: (p) => p.penaltyMinutes },
];

function SortHeader({ col, sort, onSort, className }: { col: Column; sort: SortKey; onSort: (k: SortKey) => void; className?: string }) {
  const active = sort === col.key;
  return (
    <th scope="col" className={className} aria-sort={active ? (col.numeric ? 'descending' : 'ascending') : undefined}>
      <button type="button" className={`roster-sort${active ? ' roster-sort--on' : ''}`} onClick={() => onSort(col.key)} title={`Sort by ${col.title.toLowerCase()}`}>
        <abbr title={col.title}>{col.label}</abbr>
      </button>
    </th>
  );
}

export function PlayersTable({
  players,
  sort,
  onSort,
  myId,
  canManage,
  editingId,
  onEdit,
}: {
  players: RosterPlayer[];
  sort: SortKey;
  onSort: (key: SortKey) => void;
  myId: string;
  canManage: boolean;
  editingId: string | null;
  onEdit: (userId: string) => void;
}) {
  return (
    <div className="roster-table-wrap">
      <table className="roster-table" data-testid="players-table">
        <thead>
          <tr>
            <SortHeader col={{ key: 'number', label: '#', title: 'Jersey number' }} sort={sort} onSort={onSort} className="roster-table__num" />
            <SortHeader col={{ key: 'name', label: 'Player', title: 'Name' }} sort={sort} onSort={onSort} className="roster-table__player" />
            <SortHeader col={{ key: 'position', label: 'Pos', title: 'Position' }} sort={sort} onSort={onSort} className="roster-table__pos" />
            {STAT_COLUMNS.map((c) => (
              <SortHeader key={c.key} col={c} sort={sort} onSort={onSort} className="roster-table__stat" />
            ))}
            {canManage && (
              <th scope="col" className="roster-table__tools">
                <span className="sr-only">Edit</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {players.map((p) => {
            const name = displayName(p.user);
            const letter = letterOf(p);
            const me = p.userId === myId;
            return (
              <tr key={p.userId} className={`${me ? 'roster-table__row--me' : ''}${editingId === p.userId ? ' roster-table__row--editing' : ''}`} data-testid={`player-${p.user.username ?? p.userId}`}>
                <td className="roster-table__num">
                  <span className="roster-jersey" data-testid="player-number">
                    {p.jerseyNumber ?? '–'}
                  </span>
                </td>
                <th scope="row" className="roster-table__player">
                  <span className="roster-player">
                    <Avatar name={name} src={p.user.profileImage} size="xs" />
                    <Link to={`/users/${p.userId}`} className="roster-player__name">
                      {name}
                    </Link>
                    {letter && (
                      <span className={`roster-letter roster-letter--${letter === 'C' ? 'c' : 'a'}`} title={letter === 'C' ? 'Captain' : 'Alternate captain'} data-testid="player-letter">
                        {letter}
                      </span>
                    )}
                    {p.commitmentLevel === 'SUBSTITUTE' && (
                      <span className="roster-sub" title="Substitute">
                        Sub
                      </span>
                    )}
                    {me && <span className="you-badge">You</span>}
                  </span>
                </th>
                <td className="roster-table__pos">{p.position ? <abbr title={POSITION_LABELS[p.position]}>{POSITION_SHORT[p.position]}</abbr> : <span className="muted">–</span>}</td>
                {STAT_COLUMNS.map((c) => (
                  <td key={c.key} className={`roster-table__stat${c.key === 'points' ? ' roster-table__stat--pts' : ''}`}>
                    {c.value?.(p)}
                  </td>
                ))}
                {canManage && (
                  <td className="roster-table__tools">
                    <button type="button" className="icon-btn" onClick={() => onEdit(p.userId)} aria-label={`Edit ${name}`} aria-pressed={editingId === p.userId} data-testid={`edit-player-${p.user.username ?? p.userId}`}>
                      <EditIcon size={16} />
                    </button>
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
