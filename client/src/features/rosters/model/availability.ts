// The availability board in words (docs/availability.md): the counts per
// group ("Skaters 8 in · 1 out · 3 no answer"), what is short ("Short 1
// goalie"), the lock ("Answers lock Thu 7:30 PM" / "Locked"), the last
// nudge, who may say what, and the call for subs the board posts when
// short. Pure: the time and the device's zone come in, so every sentence
// is tested on a fixed clock. Also which copy of the board is newest: the
// topic's, the REST read's, or the answer this tab just wrote.

import type { AvailabilityAnswer, AvailabilityBoard, AvailabilityCount, AvailabilityCounts, AvailabilityGroup, AvailabilityShort, GameAvailability, HockeyPosition, Status } from '../../../lib/api-types';
import { AVAILABILITY_GROUPS } from '../../../lib/api-types';
import { deviceZone, formatIn, rinkDayLabel, rinkTimeRange, shownZone, zoneLabel } from '../../../lib/time-zone';

export const GROUP_LABELS: Record<AvailabilityGroup, string> = {
  skaters: 'Skaters',
  defence: 'Defence',
  goalies: 'Goalies',
  subs: 'Subs',
};

const total = (c: AvailabilityCount) => c.in + c.out + c.noAnswer;

/** "Skaters 8 in · 1 out · 3 no answer". */
export function countsLine(group: AvailabilityGroup, c: AvailabilityCount): string {
  return `${GROUP_LABELS[group]} ${c.in} in · ${c.out} out · ${c.noAnswer} no answer`;
}

/** One line per group that has anyone in it, in the board's order (subs last, apart). */
export function countLines(counts: AvailabilityCounts): Array<{ group: AvailabilityGroup; text: string }> {
  return AVAILABILITY_GROUPS.filter((g) => counts[g] && total(counts[g]) > 0).map((g) => ({ group: g, text: countsLine(g, counts[g]) }));
}

/** "1 goalie", "2 skaters and 1 goalie"; '' when nothing is missing. */
export function missingWords(short: AvailabilityShort): string {
  const part = (n: number, one: string, many: string) => (n <= 0 ? null : n === 1 ? `1 ${one}` : `${n} ${many}`);
  return [part(short.skaters, 'skater', 'skaters'), part(short.goalies, 'goalie', 'goalies')].filter(Boolean).join(' and ');
}

/** "Short 1 goalie"; null when the minimums are met (or off). */
export function shortWords(short: AvailabilityShort): string | null {
  const missing = missingWords(short);
  return missing ? `Short ${missing}` : null;
}

export function isShort(game: Pick<GameAvailability, 'short'>): boolean {
  return game.short.skaters > 0 || game.short.goalies > 0;
}

/** How a player's answer reads. */
export function answerWords(answer: AvailabilityAnswer | null): string {
  return answer === 'IN' ? 'In' : answer === 'OUT' ? 'Out' : 'No answer';
}

/** The players who have not answered: whom a nudge reaches. */
export function noAnswerCount(game: Pick<GameAvailability, 'players'>): number {
  return game.players.filter((p) => p.answer === null).length;
}

/** "Nudge 3 who haven't answered". */
export function nudgeLabel(n: number): string {
  return `Nudge ${n} who ${n === 1 ? "hasn't" : "haven't"} answered`;
}

/** "Nudged just now", "Nudged 3 min ago", "Nudged 2 h ago", "Nudged yesterday". */
export function nudgedAgo(nudgedAt: string, now: number): string {
  const min = Math.floor((now - Date.parse(nudgedAt)) / 60_000);
  if (!Number.isFinite(min)) return '';
  if (min < 1) return 'Nudged just now';
  if (min < 60) return `Nudged ${min} min ago`;
  const h = Math.floor(min / 60);
  if (h < 24) return `Nudged ${h} h ago`;
  const d = Math.floor(h / 24);
  return d === 1 ? 'Nudged yesterday' : `Nudged ${d} days ago`;
}

// ── Times on the rink's clock ────────────────────────────────────────────

/** "Thu 9:30 PM" on the rink's clock, with the zone's name when the device reads another and `label` asks for it. */
export function shortMoment(iso: string, rinkZone: string | null, device: string = deviceZone(), label = true): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return '';
  const zone = shownZone(rinkZone, device);
  const text = formatIn(ms, zone, { weekday: 'short', hour: 'numeric', minute: '2-digit' }, 'en-US');
  const name = label ? zoneLabel(ms, rinkZone, device) : null;
  return name ? `${text} ${name}` : text;
}

/** "Tomorrow · 9:30 PM", "Thursday, November 26 · 9:30 PM EST": as the other cards say when. */
export function whenText(game: Pick<GameAvailability, 'startsAt' | 'timeZone'>, now: number, device: string = deviceZone()): string {
  return `${rinkDayLabel(game.startsAt, game.timeZone, new Date(now), device)} · ${rinkTimeRange(game.startsAt, null, game.timeZone, device)}`;
}

/** "Home vs Bears", "Away at Bears"; just the side when the opponent is unknown. */
export function sideLine(game: Pick<GameAvailability, 'side' | 'opponent'>): string {
  if (!game.opponent) return game.side === 'HOME' ? 'Home' : 'Away';
  return game.side === 'HOME' ? `Home vs ${game.opponent}` : `Away at ${game.opponent}`;
}

/** Answering *in* has stopped: the server says so, or the lock has passed since it did. */
export function isLocked(game: Pick<GameAvailability, 'locked' | 'locksAt'>, now: number): boolean {
  if (game.locked) return true;
  const at = game.locksAt ? Date.parse(game.locksAt) : NaN;
  return !Number.isNaN(at) && now >= at;
}

/** "Answers lock Thu 7:30 PM", "Locked", or null when there is no lock. */
export function lockText(game: Pick<GameAvailability, 'locked' | 'locksAt' | 'timeZone'>, now: number, device: string = deviceZone()): string | null {
  if (isLocked(game, now)) return 'Locked';
  if (!game.locksAt) return null;
  return `Answers lock ${shortMoment(game.locksAt, game.timeZone, device)}`;
}

/**
 * May this person say *in* now? Before the lock, anyone on the roster;
 * after it, only the team's staff, and only on a native game (an imported
 * game's answer is an RSVP, which the lock closes for everyone).
 */
export function mayAnswerIn(game: Pick<GameAvailability, 'locked' | 'locksAt' | 'kind'>, isStaff: boolean, now: number): boolean {
  return !isLocked(game, now) || (isStaff && game.kind === 'GAME');
}

/** The staff set other players' answers on native games only (an imported game's answer is the player's own RSVP). */
export function staffSetsAnswers(game: Pick<GameAvailability, 'kind'>, isStaff: boolean): boolean {
  return isStaff && game.kind === 'GAME';
}

/** Games soonest first (the server's order; kept when a pushed game is added). */
export function soonestFirst(games: readonly GameAvailability[]): GameAvailability[] {
  return [...games].sort((a, b) => Date.parse(a.startsAt) - Date.parse(b.startsAt) || a.gameId.localeCompare(b.gameId));
}

// ── The call for subs ─────────────────────────────────────────────────────

/** The skater positions a call asks for when skaters are short. */
export const SKATER_POSITIONS: readonly HockeyPosition[] = ['CENTER', 'LEFT_WING', 'RIGHT_WING', 'LEFT_DEFENSE', 'RIGHT_DEFENSE'];

/** What `POST /statuses` takes for a team's call for subs for one game. */
export interface SubsCallBody {
  type: 'LOOKING_FOR_SUBS';
  entityType: 'TEAM';
  teamId: string;
  /** Only for an imported game (an event the team is on). */
  eventId?: string;
  positions: HockeyPosition[];
  message: string;
  expiresAt: string;
}

/** The positions missing: GOALIE when goalies are short, the five skater positions when skaters are. */
export function subsPositions(short: AvailabilityShort): HockeyPosition[] {
  return [...(short.goalies > 0 ? (['GOALIE'] as HockeyPosition[]) : []), ...(short.skaters > 0 ? SKATER_POSITIONS : [])];
}

/** "Short 1 goalie for Thu 9:30 PM vs Bears — come play." (the rink's clock: the subs come to the rink). */
export function subsMessage(game: Pick<GameAvailability, 'short' | 'startsAt' | 'timeZone' | 'opponent'>, device: string = deviceZone()): string {
  const vs = game.opponent ? ` vs ${game.opponent}` : '';
  return `${shortWords(game.short) ?? 'Short'} for ${shortMoment(game.startsAt, game.timeZone, device, false)}${vs} — come play.`;
}

/** The call for subs for what is short, expiring at puck drop. */
export function subsCallBody(game: GameAvailability, teamId: string, device: string = deviceZone()): SubsCallBody {
  return {
    type: 'LOOKING_FOR_SUBS',
    entityType: 'TEAM',
    teamId,
    ...(game.kind === 'EVENT' ? { eventId: game.gameId } : {}),
    positions: subsPositions(game.short),
    message: subsMessage(game, device),
    expiresAt: game.startsAt,
  };
}

/**
 * The team's active call for subs for this game, among the statuses I may
 * edit: for an imported game the one with its event; for a native game
 * (statuses know no games) the team's call without an event that runs out
 * at this game's puck drop, as the board posts it.
 */
export function callFor(statuses: readonly Status[] | undefined, game: Pick<GameAvailability, 'gameId' | 'kind' | 'startsAt'>, teamId: string, now: number): Status | null {
  const start = Date.parse(game.startsAt);
  return (
    statuses?.find(
      (s) =>
        s.type === 'LOOKING_FOR_SUBS' &&
        s.teamId === teamId &&
        Date.parse(s.expiresAt) > now &&
        (game.kind === 'EVENT' ? s.eventId === game.gameId : !s.eventId && Date.parse(s.expiresAt) === start),
    ) ?? null
  );
}

// ── Which copy is newest ──────────────────────────────────────────────────

/**
 * A game as this tab last wrote it (an answer's or a nudge's reply), with
 * what each source had when the reply came: it stands until a source has
 * something newer (a push after it, a REST read after it).
 */
export interface WrittenGame {
  game: GameAvailability;
  /** The topic's seq when the reply came (null: no topic then). */
  liveSeq: number | null;
  /** The REST read's `dataUpdatedAt` when the reply came. */
  restAt: number;
}

export interface BoardSources {
  live: { seq: number; data: AvailabilityBoard } | null;
  rest: AvailabilityBoard | null;
  restAt: number;
}

/**
 * The board to show: the topic's while it is followed (a snapshot on every
 * subscribe, then every change), else the REST read; over it, the games
 * this tab wrote since either last spoke (so a tap shows its answer at
 * once, and the push that follows takes over).
 */
export function boardView({ live, rest, restAt }: BoardSources, written: Readonly<Record<string, WrittenGame>>): AvailabilityBoard | null {
  const base = live?.data ?? rest;
  if (!base) return null;
  const fresh = (w: WrittenGame) => (live ? w.liveSeq !== null && live.seq <= w.liveSeq : restAt <= w.restAt);
  return {
    ...base,
    games: soonestFirst(
      base.games.map((g) => {
        const w = written[g.gameId];
        return w && fresh(w) ? w.game : g;
      }),
    ),
  };
}
