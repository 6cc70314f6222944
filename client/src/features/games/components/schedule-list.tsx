// A schedule grouped by day: each game with its state (time, "Live · 2nd",
// "Final · OT", "Postponed"), both sides and the score once it started.
// From a team's point of view (`teamId`) finished games show W / L / T.
// Staff may open an in-place editor on games that have not started.

import { useState } from 'react';
import { Link } from 'react-router';
import type { GameScheduleEntry } from '../../../lib/api-types';
import { hasScore, scheduleStateLine } from '../../../lib/games';
import { rinkDayKey, rinkDayLabel } from '../../../lib/time-zone';
import { Button } from '../../../components/ui/button';
import { EditIcon } from '../../../components/ui/icons';
import { canEditGame, GameEditForm } from './game-edit-form';

interface DayGroup {
  key: string;
  label: string;
  today: boolean;
  games: GameScheduleEntry[];
}

/** Days on the rink's calendar (`zone`; the device's without one). */
function byDay(entries: GameScheduleEntry[], now: Date, zone: string | null): DayGroup[] {
  const today = rinkDayKey(now.toISOString(), zone);
  const out: DayGroup[] = [];
  for (const e of entries) {
    const key = rinkDayKey(e.scheduledAt, zone);
    const last = out[out.length - 1];
    if (last && last.key === key) last.games.push(e);
    else out.push({ key, label: rinkDayLabel(e.scheduledAt, zone, now), today: key === today, games: [e] });
  }
  return out;
}

type Result = 'W' | 'L' | 'T';

const RESULT_LABELS: Record<Result, string> = { W: 'Win', L: 'Loss', T: 'Tie' };

function resultFor(e: GameScheduleEntry, teamId: string): Result | null {
  if (e.status !== 'FINAL') return null;
  const home = e.homeTeamId === teamId;
  const away = e.awayTeamId === teamId;
  if (home === away) return null; // not this team's, or both sides are its rosters
  const mine = home ? e.homeScore : e.awayScore;
  const theirs = home ? e.awayScore : e.homeScore;
  return mine > theirs ? 'W' : mine < theirs ? 'L' : 'T';
}

function Row({ e, teamId, editable, zone }: { e: GameScheduleEntry; teamId?: string; editable: boolean; zone: string | null }) {
  const [editing, setEditing] = useState(false);
  const scored = hasScore(e.status);
  const result = teamId ? resultFor(e, teamId) : null;
  const lead = scored && e.status === 'FINAL' ? (e.homeScore > e.awayScore ? 'home' : e.awayScore > e.homeScore ? 'away' : null) : null;
  const status = e.status.toLowerCase();
  return (
    <li className={`sched-row sched-row--${status}`} data-testid={`schedule-${e.id}`}>
      <div className="sched-row__main">
        <Link to={`/games/${e.id}`} className="sched-row__link" aria-label={`${e.homeRosterName} vs ${e.awayRosterName}, ${scheduleStateLine(e, zone)}`}>
          <span className="sched-row__state">
            {e.status === 'LIVE' && <span className="game-live-dot" aria-hidden="true" />}
            {scheduleStateLine(e, zone)}
          </span>
          <span className="sched-row__teams">
            <span className={`sched-row__team${lead === 'home' ? ' sched-row__team--won' : ''}`}>
              <span className="sched-row__name">{e.homeRosterName}</span>
              {scored && <span className="sched-row__score" data-testid={`schedule-${e.id}-home`}>{e.homeScore}</span>}
            </span>
            <span className={`sched-row__team${lead === 'away' ? ' sched-row__team--won' : ''}`}>
              <span className="sched-row__name">{e.awayRosterName}</span>
              {scored && <span className="sched-row__score" data-testid={`schedule-${e.id}-away`}>{e.awayScore}</span>}
            </span>
          </span>
          {result && (
            <span className={`sched-row__result sched-row__result--${result.toLowerCase()}`} data-testid={`schedule-${e.id}-result`} title={RESULT_LABELS[result]}>
              {result}
            </span>
          )}
        </Link>
        {editable && canEditGame(e.status) && !editing && (
          <Button variant="ghost" size="sm" icon={<EditIcon size={16} />} onClick={() => setEditing(true)} aria-label={`Edit ${e.homeRosterName} vs ${e.awayRosterName}`} data-testid={`edit-game-${e.id}`}>
            Edit
          </Button>
        )}
      </div>
      {editing && <GameEditForm gameId={e.id} scheduledAt={e.scheduledAt} status={e.status} seasonId={e.seasonId} onDone={() => setEditing(false)} />}
    </li>
  );
}

export function ScheduleList({
  entries,
  teamId,
  canEdit = () => false,
  showSeason = false,
  now = new Date(),
  zone = null,
}: {
  entries: GameScheduleEntry[];
  /** Show results from this team's point of view. */
  teamId?: string;
  canEdit?: (e: GameScheduleEntry) => boolean;
  /** Name the season on each day (team schedules span seasons). */
  showSeason?: boolean;
  now?: Date;
  /** The rink's IANA zone: days and face-offs on its clock, labelled when the device's differs. */
  zone?: string | null;
}) {
  return (
    <div className="sched" data-testid="schedule">
      {byDay(entries, now, zone).map((g) => (
        <section key={g.key} className={`sched__day${g.today ? ' sched__day--today' : ''}`} aria-label={g.label}>
          <h3 className="sched__day-title">
            {g.label}
            {showSeason && g.games[0] && <span className="sched__season"> · {g.games[0].seasonName}</span>}
          </h3>
          <ul className="sched__list">
            {g.games.map((e) => (
              <Row key={e.id} e={e} teamId={teamId} editable={canEdit(e)} zone={zone} />
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
