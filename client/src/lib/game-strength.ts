// Penalties on the clock and who has how many skaters (docs/game-night.md
// › Penalties by the rules). The server works the rules out and lists the
// penalties still to run, each as `{seq, startMs, endMs}` in game time; a
// screen only has to read that list against the game time now:
//
// - a penalty is served while `startMs ≤ gameNow < endMs`, waiting before
//   (`startMs` null, or later than now), and counts `endMs − gameNow` down;
// - who committed it and what was called come from the log entry with that
//   seq (entries carry ids only: names from the held player lists);
// - a served penalty puts its side one skater short as the server says
//   (its `short` flag: coincidental penalties that are served without a
//   power play are not short); without the flag, every one is, except a
//   misconduct, a game misconduct or OTHER (minutes only): those are in
//   the list (the player still sits) but never shorthand the side;
// - skaters per side are 5 minus that, never below 3; the side with more
//   is on the power play.

import type { GameDocument, GameLogEntry, PenaltyKind, RunningPenalty } from './api-types';
import { readPenalty } from './game-wire';
import { penaltyKindOf, sideOf, tagFor, type GameSide } from './games';

/** Skaters a side has at full strength. */
export const FULL_STRENGTH = 5;
/** The rules never leave a side with fewer. */
export const MIN_SKATERS = 3;

const NON_SHORTHANDING: ReadonlySet<PenaltyKind> = new Set(['MISCONDUCT', 'GAME_MISCONDUCT', 'OTHER']);

/** Whether a penalty of this kind, served, takes a skater off its side. */
export function shorthands(kind: PenaltyKind): boolean {
  return !NON_SHORTHANDING.has(kind);
}

export interface PenaltyClock {
  seq: number;
  side: GameSide;
  /** "#12 Bruno Berg". */
  player: string;
  /** The jersey number alone, for arena boxes ("12"), or "". */
  number: string;
  kind: PenaltyKind;
  /** Served now (else waiting for its place or its start). */
  serving: boolean;
  /** Time left to serve: `endMs − gameNow` while served; the whole length while waiting. */
  leftMs: number;
  /** Takes a skater off the ice while served. */
  shorthands: boolean;
}

type LogLookup = Pick<GameDocument, 'log' | 'home' | 'away' | 'homeRosterId' | 'awayRosterId'>;

/** One listed penalty read against game time `gameMs` (null when its entry is not in the log). */
export function penaltyClock(game: LogLookup, run: RunningPenalty, gameMs: number, entry?: GameLogEntry): PenaltyClock | null {
  const p = readPenalty(run);
  const e = entry ?? game.log.find((x) => x.seq === p.seq);
  if (!e || e.type !== 'PENALTY') return null;
  const side = sideOf(game, e.rosterId);
  if (!side) return null;
  const kind = penaltyKindOf(e);
  const serving = p.startMs !== null && p.endMs !== null && p.startMs <= gameMs && gameMs < p.endMs;
  const length = p.startMs !== null && p.endMs !== null ? p.endMs - p.startMs : (e.minutes ?? 0) * 60_000;
  const leftMs = serving && p.endMs !== null ? p.endMs - gameMs : Math.max(0, length);
  const player = e.playerId ? tagFor(game, e.rosterId, e.playerId, e.playerName) : 'Bench';
  const number = e.playerId ? String(game[side].players.find((x) => x.userId === e.playerId)?.jerseyNumber ?? '') : '';
  return { seq: p.seq, side, player, number, kind, serving, leftMs, shorthands: p.short ?? shorthands(kind) };
}

/**
 * The listed penalties that still matter at `gameMs` (served, or waiting),
 * served first and then by time left; one that has run out (the update
 * taking it off the list is on its way) is left out.
 */
export function penaltyClocks(game: LogLookup & Pick<GameDocument, 'penalties'>, gameMs: number): PenaltyClock[] {
  const bySeq = new Map(game.log.map((e) => [e.seq, e]));
  const out: PenaltyClock[] = [];
  for (const run of game.penalties ?? []) {
    const p = readPenalty(run);
    if (p.endMs !== null && p.startMs !== null && gameMs >= p.endMs) continue;
    const c = penaltyClock(game, run, gameMs, bySeq.get(p.seq));
    if (c) out.push(c);
  }
  return out.sort((a, b) => Number(b.serving) - Number(a.serving) || a.leftMs - b.leftMs || a.seq - b.seq);
}

export interface Strength {
  home: number;
  away: number;
  /** The side with more skaters, or null at even strength. */
  powerPlay: GameSide | null;
  /** "5v4" from the power-play side (more first), "4v4" even. */
  label: string;
  /** Time until the strength next changes (a shorthanding penalty ends), or null when none is served. */
  nextChangeMs: number | null;
}

/** Skaters on the ice per side from the penalties served at `gameMs`. */
export function strengthOf(clocks: readonly PenaltyClock[]): Strength {
  const short = { home: 0, away: 0 };
  let nextChangeMs: number | null = null;
  for (const c of clocks) {
    if (!c.serving || !c.shorthands) continue;
    short[c.side] += 1;
    nextChangeMs = nextChangeMs === null ? c.leftMs : Math.min(nextChangeMs, c.leftMs);
  }
  const home = Math.max(MIN_SKATERS, FULL_STRENGTH - short.home);
  const away = Math.max(MIN_SKATERS, FULL_STRENGTH - short.away);
  const powerPlay: GameSide | null = home > away ? 'home' : away > home ? 'away' : null;
  const label = `${Math.max(home, away)}v${Math.min(home, away)}`;
  return { home, away, powerPlay, label, nextChangeMs };
}

/** The strength line the console and the game page show: "Home power play 5v4", "Even strength 5v5", "4 on 4". */
export function strengthLine(s: Strength, names: { home: string; away: string }): string {
  if (s.powerPlay) return `${names[s.powerPlay]} power play ${s.label}`;
  if (s.home === FULL_STRENGTH) return `Even strength ${s.label}`;
  return `${s.home} on ${s.away}`;
}
