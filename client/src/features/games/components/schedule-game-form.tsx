// Schedule a game between two rosters of the season (`POST /games`). The
// facility's staff may pair any two rosters; a team's owner or managers
// may schedule their own roster against any roster of the season, so for
// them one side has to be one of theirs.

import { useState, type FormEvent } from 'react';
import { useFormErrors } from '../../../lib/use-form-errors';
import type { RosterSummary } from '../../../lib/api-types';
import { fromLocalInput } from '../../../lib/time-zone';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { SelectField, TextField } from '../../../components/ui/field';
import { useCreateGame } from '../api/games';
import { useSeasonQuery } from '../../../lib/games';
import { ClockSettingsFields, draftOf, readClockSettings } from '../../../components/ui/clock-settings-fields';

/** The `datetime-local` value for the next full hour from now. */
function nextHour(now = new Date()): string {
  const d = new Date(now);
  d.setMinutes(0, 0, 0);
  d.setHours(d.getHours() + 1);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function ScheduleGameForm({
  seasonId,
  rosters,
  managedRosterIds,
  facilityStaff,
  onScheduled,
}: {
  seasonId: string;
  rosters: RosterSummary[];
  /** Rosters whose team the viewer runs. */
  managedRosterIds: ReadonlySet<string>;
  facilityStaff: boolean;
  onScheduled?: (gameId: string) => void;
}) {
  const create = useCreateGame();
  const season = useSeasonQuery(seasonId).data;
  const inherited =
    season?.periodMinutes !== undefined ? { periodMinutes: season.periodMinutes, overtimeMinutes: season.overtimeMinutes ?? 5, clockMode: season.clockMode ?? ('STOP' as const) } : undefined;
  const [clock, setClock] = useState(() => draftOf(null));
  const [home, setHome] = useState('');
  const [away, setAway] = useState('');
  const [when, setWhen] = useState(() => nextHour());
  const { errors, formError, check, fail } = useFormErrors();
  const [done, setDone] = useState<string | null>(null);

  const err = (f: string) => errors[f] ?? null;
  const label = (r: RosterSummary) => (r.name === r.teamName ? r.name : `${r.name} (${r.teamName})`);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const next: Record<string, string> = {};
    const iso = fromLocalInput(when);
    if (!home) next.homeRosterId = 'Pick the home roster.';
    if (!away) next.awayRosterId = 'Pick the away roster.';
    if (home && away && home === away) next.awayRosterId = 'A roster cannot play itself.';
    if (!iso) next.scheduledAt = 'Pick a date and a time.';
    if (!facilityStaff && home && away && !managedRosterIds.has(home) && !managedRosterIds.has(away)) {
      next.homeRosterId = 'One side has to be a roster of a team you run.';
    }
    const settings = readClockSettings(clock);
    Object.assign(next, settings.errors);
    setDone(null);
    if (!check(next) || !iso) return;
    const own = Object.fromEntries(Object.entries(settings.values).filter(([, v]) => v !== null));
    create.mutate(
      { seasonId, homeRosterId: home, awayRosterId: away, scheduledAt: iso, ...own },
      {
        onSuccess: (game) => {
          setDone(`${game.home.name} vs ${game.away.name} is on the schedule.`);
          setHome('');
          setAway('');
          onScheduled?.(game.id);
        },
        onError: fail,
      },
    );
  };

  if (rosters.length < 2) {
    return <p className="empty-line">A game needs two rosters in this season. Teams add their rosters to the season first.</p>;
  }
  return (
    <form className="schedule-form" onSubmit={onSubmit} noValidate data-testid="schedule-game-form">
      <div className="schedule-form__grid">
        <SelectField label="Home" value={home} onChange={(e) => setHome(e.target.value)} error={err('homeRosterId')} data-testid="schedule-home">
          <option value="">Pick a roster</option>
          {rosters.map((r) => (
            <option key={r.id} value={r.id}>
              {label(r)}
            </option>
          ))}
        </SelectField>
        <SelectField label="Away" value={away} onChange={(e) => setAway(e.target.value)} error={err('awayRosterId')} data-testid="schedule-away">
          <option value="">Pick a roster</option>
          {rosters.map((r) => (
            <option key={r.id} value={r.id} disabled={r.id === home}>
              {label(r)}
            </option>
          ))}
        </SelectField>
        <TextField label="Face-off" type="datetime-local" value={when} onChange={(e) => setWhen(e.target.value)} error={err('scheduledAt')} data-testid="schedule-when" />
      </div>
      <details className="schedule-form__clock">
        <summary>Game clock{inherited ? ` · season’s: ${inherited.periodMinutes}-minute periods, ${inherited.clockMode === 'RUNNING' ? 'running' : 'stop'} time` : ''}</summary>
        <ClockSettingsFields draft={clock} onChange={setClock} inherited={inherited} errors={{ periodMinutes: err('periodMinutes') ?? undefined, overtimeMinutes: err('overtimeMinutes') ?? undefined, clockMode: err('clockMode') ?? undefined }} />
      </details>
      {formError && <Alert>{formError}</Alert>}
      {done && (
        <Alert tone="success" title="Scheduled">
          {done}
        </Alert>
      )}
      <div className="schedule-form__actions">
        <Button type="submit" loading={create.isPending} data-testid="schedule-submit">
          Schedule game
        </Button>
      </div>
    </form>
  );
}
