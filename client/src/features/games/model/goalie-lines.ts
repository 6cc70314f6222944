// Goalies in one game, from the log: who was in net when (START puts each
// side's first dressed goalie in; GOALIE entries change or pull them),
// the shots and goals against each faced, saves, save percentage, time in
// net and GAA (goals against per 60 minutes in net, as leagues publish it,
// whatever the period length: docs/game-night.md › Statistics). Entry
// times are game time: the periods before at their full length plus what
// had run of this one when the entry was made.

import type { ClockSettings, GameDocument, GameLogEntry, GamePeriod, GamePlayer } from '../../../lib/api-types';
import type { GameSide } from '../../../lib/games';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DEFAULT_SETTINGS: ClockSettings = { periodMinutes: 20, overtimeMinutes: 5, clockMode: 'STOP' };

/** Game time at the start of `period`, and its length, under `settings`. */
export function periodSpan(period: GamePeriod, settings: ClockSettings): { offsetMs: number; lengthMs: number } {
  const reg = settings.periodMinutes * MINUTE_MS;
  const ot = settings.overtimeMinutes * MINUTE_MS;
  switch (period) {
    case '1':
      return { offsetMs: 0, lengthMs: reg };
    case '2':
      return { offsetMs: reg, lengthMs: reg };
    case '3':
      return { offsetMs: 2 * reg, lengthMs: reg };
    case 'OT':
      return { offsetMs: 3 * reg, lengthMs: ot };
    case 'SO':
      return { offsetMs: 3 * reg + ot, lengthMs: 0 };
  }
}

/** When an entry happened in game time, or null for one without a clock time. */
export function entryGameMs(e: Pick<GameLogEntry, 'period' | 'clockMs'>, settings: ClockSettings): number | null {
  if (!e.period || e.clockMs === null || e.clockMs === undefined) return null;
  const { offsetMs, lengthMs } = periodSpan(e.period, settings);
  return offsetMs + lengthMs - e.clockMs;
}

export interface GoalieLine {
  player: GamePlayer;
  shotsAgainst: number;
  goalsAgainst: number;
  saves: number;
  /** Saves / shots against; null before the first shot. */
  savePct: number | null;
  /** Time in net. */
  ms: number;
  /** Goals against per 60 minutes in net; null with no time in net. */
  gaa: number | null;
}

/** The goalie START puts in: the side's first dressed player listed as a goalie. */
function startingGoalie(game: GameDocument, side: GameSide): string | null {
  return game[side].players.find((p) => p.dressed && p.position === 'GOALIE')?.userId ?? null;
}

/**
 * Every goalie who was in net for `side`, in the order they went in. `nowMs`
 * is the game time now (the clock's), closing the stint of the one in net.
 */
export function goalieLines(game: GameDocument, side: GameSide, nowMs: number): GoalieLine[] {
  const settings = game.settings ?? DEFAULT_SETTINGS;
  const team = game[side];
  const other = side === 'home' ? game.away : game.home;
  const lines = new Map<string, { shotsAgainst: number; goalsAgainst: number; ms: number }>();
  const line = (id: string) => {
    let l = lines.get(id);
    if (!l) lines.set(id, (l = { shotsAgainst: 0, goalsAgainst: 0, ms: 0 }));
    return l;
  };
  let inNet: string | null = null;
  let since = 0;
  let started = false;
  for (const e of game.log) {
    const at = entryGameMs(e, settings);
    if (e.type === 'START') {
      started = true;
      inNet = startingGoalie(game, side);
      since = 0;
      if (inNet) line(inNet);
    } else if (e.type === 'GOALIE' && e.rosterId === team.rosterId) {
      if (inNet && at !== null) line(inNet).ms += Math.max(0, at - since);
      inNet = e.playerId;
      if (at !== null) since = at;
      if (inNet) line(inNet);
    } else if ((e.type === 'SHOT' || e.type === 'GOAL') && e.rosterId === other.rosterId && inNet) {
      const l = line(inNet);
      l.shotsAgainst += 1;
      if (e.type === 'GOAL') l.goalsAgainst += 1;
    }
  }
  if (started && inNet) line(inNet).ms += Math.max(0, nowMs - since);
  const out: GoalieLine[] = [];
  for (const [id, l] of lines) {
    const player = team.players.find((p) => p.userId === id);
    if (!player) continue;
    const saves = l.shotsAgainst - l.goalsAgainst;
    out.push({
      player,
      ...l,
      saves,
      savePct: l.shotsAgainst > 0 ? saves / l.shotsAgainst : null,
      gaa: l.ms > 0 ? (l.goalsAgainst * HOUR_MS) / l.ms : null,
    });
  }
  return out;
}

/** ".917", "1.000", "–" as sheets print save percentage. */
export function formatSavePct(pct: number | null): string {
  if (pct === null) return '–';
  return pct >= 1 ? '1.000' : pct.toFixed(3).replace(/^0/, '');
}

/** "2.50", "–". */
export function formatGaa(gaa: number | null): string {
  return gaa === null ? '–' : gaa.toFixed(2);
}

/** Time in net as "47:12". */
export function formatToi(ms: number): string {
  const secs = Math.floor(ms / 1000);
  return `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, '0')}`;
}
