// Who dressed, per side, before FINAL (`PUT /games/{id}/lineups/{rosterId}`).
// Until a lineup is set everyone on the roster counts as dressed. Only
// dressed players can be credited with goals, assists and penalties, and
// FINAL counts a game played for each of them. Players the scoresheet
// already names cannot be left out (the server refuses it), so they are
// locked here with the reason.

import { useState } from 'react';
import type { GameDocument, GameTeam } from '../../../lib/api-types';
import { Button } from '../../../components/ui/button';
import { namedInLog } from '../model/box-score';

function SideEditor({
  game,
  team,
  busy,
  onSave,
}: {
  game: GameDocument;
  team: GameTeam;
  busy: boolean;
  onSave: (rosterId: string, userIds: string[], label: string) => Promise<boolean>;
}) {
  const [draft, setDraft] = useState<Set<string> | null>(null);
  const locked = namedInLog(game, team.rosterId);
  const current = new Set(team.players.filter((p) => p.dressed).map((p) => p.userId));
  const picked = draft ?? current;
  const dirty = draft !== null && (draft.size !== current.size || [...draft].some((id) => !current.has(id)));

  const toggle = (userId: string) => {
    const next = new Set(picked);
    if (next.has(userId)) next.delete(userId);
    else next.add(userId);
    setDraft(next);
  };
  const save = async () => {
    const ok = await onSave(team.rosterId, team.players.filter((p) => picked.has(p.userId)).map((p) => p.userId), `Lineup saved for ${team.name}`);
    if (ok) setDraft(null);
  };

  if (team.players.length === 0) return <p className="empty-line">{team.name} has no players on its roster yet.</p>;
  return (
    <div className="lineup" data-testid={`lineup-${team.rosterId}`}>
      <p className="lineup__count">
        {picked.size} of {team.players.length} dressed
      </p>
      <ul className="lineup__list">
        {team.players.map((p) => {
          const on = picked.has(p.userId);
          const isLocked = locked.has(p.userId) && on;
          return (
            <li key={p.userId}>
              <label className={`lineup__player${on ? ' lineup__player--on' : ''}${isLocked ? ' lineup__player--locked' : ''}`}>
                <input type="checkbox" checked={on} disabled={isLocked || busy} onChange={() => toggle(p.userId)} data-testid={`dressed-${p.userId}`} />
                <span className="lineup__num">{p.jerseyNumber ?? '–'}</span>
                <span className="lineup__name">{p.displayName}</span>
                {isLocked && <span className="lineup__why">on the scoresheet</span>}
              </label>
            </li>
          );
        })}
      </ul>
      <div className="lineup__actions">
        {dirty && (
          <Button variant="ghost" size="sm" onClick={() => setDraft(null)} disabled={busy}>
            Reset
          </Button>
        )}
        <Button size="sm" onClick={() => void save()} disabled={!dirty || picked.size === 0 || busy} data-testid={`save-lineup-${team.rosterId}`}>
          Save lineup
        </Button>
      </div>
      {picked.size === 0 && <p className="field__error">At least one player has to dress.</p>}
    </div>
  );
}

export function LineupEditor({
  game,
  editable,
  busy,
  onSave,
}: {
  game: GameDocument;
  /** The sides (roster ids) whose lineup the viewer may set: a team's staff
   * set their own side's, the rink's staff and score keepers both. */
  editable: string[];
  busy: boolean;
  onSave: (rosterId: string, userIds: string[], label: string) => Promise<boolean>;
}) {
  const sides = (['home', 'away'] as const).filter((s) => editable.includes(game[s].rosterId));
  const [picked, setSide] = useState<'home' | 'away'>('home');
  const side = sides.includes(picked) ? picked : sides[0];
  if (!side) return <p className="empty-line">Lineups are set by each team's staff, the rink's staff and the game's score keepers.</p>;
  const team = game[side];
  return (
    <div className="lineups">
      <div className="tabs" role="tablist" aria-label="Team">
        {sides.map((s) => (
          <button
            key={s}
            type="button"
            role="tab"
            aria-selected={side === s}
            className={`tabs__tab${side === s ? ' active' : ''}`}
            onClick={() => setSide(s)}
            data-testid={`lineup-tab-${s}`}
          >
            {s === 'home' ? game.home.name : game.away.name}
          </button>
        ))}
      </div>
      <SideEditor key={team.rosterId} game={game} team={team} busy={busy} onSave={onSave} />
    </div>
  );
}
