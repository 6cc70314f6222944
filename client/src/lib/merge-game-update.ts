// How a small `game:ID` update folds into the game state a screen holds
// (docs/game-night.md › Snapshot and update). Pure, so the socket
// (`mergeTopicUpdates` in lib/games.ts) and the tests use the same rules;
// every live game screen — the game page, the arena display, the score
// keeper's console — reads the result through `useLiveGame`.
//
// An update says which version it continues from (`since`) and carries
// what moved since then: the scoreboard, the clock, shot totals, the log
// entries added (`entries`) and the seqs taken back (`undone`), and the
// running penalties and goalies only when they changed. No names and no
// player lists: those stay as the last snapshot had them (lineup changes
// move `playersDigest` and come as snapshots, which replace everything).
//
// - Holding version `v ≥ since`, the update applies: entries merge by
//   `seq` (a repeat replaces, so an update seen twice is harmless),
//   `undone` seqs leave the log, penalties and goalies are replaced when
//   present, the scoreboard and clock are taken.
// - `v < since`: something between was missed, a gap. The socket keeps
//   what it shows and re-subscribes with `since = v`.
// - Also a gap: an entry naming a roster or player the held lists do not
//   have (the contract's "anything it cannot place"), or a new digest.
//
// What the wire leaves out to stay small: `since` when it is `version − 1`,
// `undone` when empty, the clock's shape (phase, length, offset) when it
// did not change — the held clock keeps it — and empty fields of entries
// (lib/game-wire.ts fills them in).
//
// Shots come per period in snapshots and are not repeated in updates:
// each SHOT and GOAL entry is one, so the held per-period counts move with
// the entries added and undone (each in its own period). Should an update
// carry totals (docs/game-night.md's `homeShots` / `awayShots`), whatever
// they still disagree by is put on the current period, so the totals
// always read as the server's.

import type { GameClock, GameDocument, GameLogEntry, GamePeriod, GameShots, GameUpdate } from './api-types';
import { normalizeEntry, normalizeGame } from './game-wire';
import type { MergeOutcome } from './ws';

const GAP = { kind: 'gap' } as const;

/** Where a period's shots sit in `GameShots` arrays ([1st, 2nd, 3rd, OT]); a shootout has none. */
export function shotSlot(period: GamePeriod | null): number | null {
  switch (period) {
    case '1':
      return 0;
    case '2':
      return 1;
    case '3':
      return 2;
    case 'OT':
      return 3;
    default:
      return null;
  }
}

/** How many slots shots arrays always have. */
const SHOT_SLOTS = 4;

function isDeltaUpdate(update: GameUpdate | GameDocument): update is GameUpdate {
  const u = update as Partial<GameUpdate> & { log?: unknown };
  return Array.isArray(u.entries) && typeof u.version === 'number' && u.log === undefined;
}

/** The version an update continues from. */
export const sinceOf = (update: Pick<GameUpdate, 'since' | 'version'>) => update.since ?? update.version - 1;

/** The held clock with what the update says moved (its shape only when given). */
function mergeClock(held: GameClock | null | undefined, update: GameUpdate['clock']): GameClock | null | undefined {
  if (update === undefined) return held;
  if (update === null) return null;
  const defined = Object.fromEntries(Object.entries(update).filter(([, v]) => v !== undefined)) as Partial<GameClock>;
  // Without a held clock the update must bring its shape; a shapeless one
  // is read as a fresh first-period clock until the next snapshot.
  const base: GameClock = held ?? { phase: 'PLAY', running: false, remainingMs: 0, at: 0, periodMs: update.remainingMs, offsetMs: 0 };
  return { ...base, ...defined };
}

function isWholeDocument(update: GameUpdate | GameDocument): update is GameDocument {
  const doc = update as Partial<GameDocument>;
  return Array.isArray(doc.log) && Array.isArray(doc.home?.players) && Array.isArray(doc.away?.players);
}

/** The log with `entries` merged in by seq and `undone` taken out, in seq order. */
export function mergeLog(log: readonly GameLogEntry[], entries: readonly GameLogEntry[], undone: readonly number[]): GameLogEntry[] {
  const bySeq = new Map<number, GameLogEntry>();
  for (const e of log) bySeq.set(e.seq, e);
  for (const e of entries) bySeq.set(e.seq, e);
  for (const seq of undone) bySeq.delete(seq);
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}

/** Whether every roster and player an entry names is in the held lists. */
function canPlace(held: GameDocument, e: GameLogEntry): boolean {
  if (e.rosterId === null) return true;
  const team = e.rosterId === held.homeRosterId ? held.home : e.rosterId === held.awayRosterId ? held.away : null;
  if (!team) return false;
  const known = new Set(team.players.map((p) => p.userId));
  return (e.playerId === null || known.has(e.playerId)) && e.assistIds.every((a) => known.has(a));
}

const countsAsShot = (e: GameLogEntry) => e.type === 'SHOT' || e.type === 'GOAL';

/** `arr` with `by` taken off its latest slots that have shots (never below zero). */
function takeShots(arr: number[], by: number): void {
  let left = by;
  for (let i = arr.length - 1; i >= 0 && left > 0; i--) {
    const take = Math.min(arr[i] ?? 0, left);
    arr[i] = (arr[i] ?? 0) - take;
    left -= take;
  }
}

/**
 * The held per-period shots brought to the update: entries added and
 * undone move their own period's count; the rest of any difference with
 * the update's totals goes on (or comes off) the current period.
 */
export function mergeShots(held: GameDocument, update: GameUpdate): GameShots | undefined {
  const counts = (e: GameLogEntry) => countsAsShot(e) && e.rosterId !== null;
  const moves = update.entries.some(counts) || (update.undone ?? []).length > 0;
  if (!held.shots && update.homeShots === undefined && update.awayShots === undefined) return undefined;
  if (!moves && update.homeShots === undefined && update.awayShots === undefined) return held.shots;
  const pad = (a: readonly number[] | undefined) => Array.from({ length: Math.max(SHOT_SLOTS, a?.length ?? 0) }, (_, i) => a?.[i] ?? 0);
  const next: GameShots = { home: pad(held.shots?.home), away: pad(held.shots?.away) };
  const heldSeqs = new Map(held.log.map((e) => [e.seq, e]));
  const move = (e: GameLogEntry, by: 1 | -1) => {
    const arr = e.rosterId === held.homeRosterId ? next.home : e.rosterId === held.awayRosterId ? next.away : null;
    const slot = shotSlot(e.period);
    if (!arr || slot === null || !countsAsShot(e)) return;
    arr[slot] = Math.max(0, (arr[slot] ?? 0) + by);
  };
  const undone = new Set(update.undone ?? []);
  // New to us and still standing (a coalesced update may add and undo the same entry), once per seq.
  const added = new Map(update.entries.filter((e) => !heldSeqs.has(e.seq) && !undone.has(e.seq)).map((e) => [e.seq, e]));
  for (const e of added.values()) move(e, 1);
  for (const seq of undone) {
    const e = heldSeqs.get(seq);
    if (e) move(e, -1);
  }
  const now = shotSlot(update.period) ?? SHOT_SLOTS - 1;
  const settle = (arr: number[], total: number | undefined) => {
    if (total === undefined) return;
    const diff = total - arr.reduce((a, b) => a + b, 0);
    if (diff > 0) arr[now] = (arr[now] ?? 0) + diff;
    else if (diff < 0) takeShots(arr, -diff);
  };
  settle(next.home, update.homeShots);
  settle(next.away, update.awayShots);
  return next;
}

/**
 * Fold one `game:ID` update into the state held from the last snapshot
 * (and the updates since). A `gap` means the held state cannot be brought
 * up to date from this update; ask for a snapshot.
 *
 * An update in the whole shape (a server from before small updates, during
 * a rolling deploy) replaces the state as it always did.
 */
export function mergeGameUpdate(held: GameDocument, update: GameUpdate | GameDocument): MergeOutcome<GameDocument> {
  if (!isDeltaUpdate(update)) return isWholeDocument(update) ? { kind: 'merged', data: update } : GAP;
  // Nothing newer than what we hold (the socket drops these by seq
  // already; a pure function should not depend on that).
  if (update.version <= held.version) return { kind: 'merged', data: held };
  if (held.version < sinceOf(update)) return GAP;
  // A lineup or a roster changed: the held player lists are out of date.
  if (update.playersDigest !== undefined && held.playersDigest !== undefined && update.playersDigest !== held.playersDigest) return GAP;
  const whole = normalizeGame(held);
  const delta: GameUpdate = { ...update, entries: update.entries.map(normalizeEntry), undone: update.undone ?? [] };
  if (!delta.entries.every((e) => canPlace(whole, e))) return GAP;

  const data: GameDocument = {
    ...whole,
    status: update.status,
    period: update.period,
    homeScore: update.homeScore,
    awayScore: update.awayScore,
    version: update.version,
    log: mergeLog(whole.log, delta.entries, delta.undone ?? []),
  };
  if (update.playersDigest !== undefined) data.playersDigest = update.playersDigest;
  const clock = mergeClock(whole.clock, update.clock);
  if (clock !== undefined) data.clock = clock;
  if (update.penalties !== undefined) data.penalties = update.penalties;
  if (update.goalies !== undefined) data.goalies = update.goalies;
  const shots = mergeShots(whole, delta);
  if (shots !== undefined) data.shots = shots;
  return { kind: 'merged', data };
}
