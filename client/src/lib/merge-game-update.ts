// How a small `game:ID` update folds into the game state a screen holds
// (CONTRACT.md › WebSocket › Update frames stay small). Pure, so the socket
// (`mergeTopicUpdates` in lib/games.ts) and the tests use the same rules;
// every live game screen — the game page, the arena display, the score
// keeper's console — reads the result through `useLiveGame`.
//
// An update carries every scoreboard field, the team names and `logTail`,
// the last `LOG_TAIL_SIZE` entries of the log that stands, in `seq` order;
// no `log`, no player lists. Player lists stay as the last snapshot had
// them (lineup changes come as snapshots, which replace everything).
//
// The log. Entry seqs are the game's action numbers (actors/src/game:
// every action, UNDO included, takes the next seq; the public log leaves
// out UNDO entries and what they reverted), so seqs rise but have gaps and
// cannot tell on their own whether an entry is missing. What makes the
// merge exact is how the log changes: an action appends an entry with a
// seq above every seq so far, and UNDO removes the last entry that stands
// (never one further back, and nothing is ever redone). So between the log
// we hold and the one the server holds, our log loses some entries at its
// end and new, higher entries follow. With `first` the tail's first seq:
//
// - A tail shorter than `LOG_TAIL_SIZE` (empty included) *is* the whole
//   log: take it as it is. This covers the start of a game and a log that
//   UNDO emptied.
// - `first` is the seq of an entry we hold: that entry still stands, so
//   everything before it does too and nothing new came before it. Keep our
//   entries below `first`, replace the rest with the tail (an UNDO simply
//   drops out of the tail, so it goes from our log).
// - `first` is just above our last seq (`last = first − 1`; an empty log
//   counts as last 0): the action right after our last entry was the tail's
//   first entry, so nothing of ours was undone and nothing came between.
//   Append the tail.
// - Otherwise — our log ends before `first − 1` (the contract's rule), or
//   `first` lies inside our log's range but is not one of our entries
//   (impossible for a log that was whole; not worth trusting) — entries
//   may be missing or wrongly kept: a gap. The socket keeps showing the
//   state it has and re-subscribes with `since` for a fresh snapshot.
//
// The last rule sometimes asks for a snapshot that was not needed: when
// actions after our last entry used up seqs without standing (a goal and
// the UNDO that took it back), `first − 1` is none of our seqs although our
// log plus the tail would be right. That costs one round trip, and only
// when all ten entries of the tail are new to us, i.e. frames were missed
// (the server's outbox coalesces a slow reader's updates). Merging on trust
// instead could show a log with a hole in it, or an undone goal, with
// running scores that no longer add up.

import type { GameDocument, GameLogEntry, GameUpdate } from './api-types';
import type { MergeOutcome } from './ws';

/** How many entries an update's `logTail` holds when the log has that many. */
export const LOG_TAIL_SIZE = 10;

const GAP = { kind: 'gap' } as const;

/**
 * The log after a tail, or null when our log cannot be made whole from it
 * (see the rules above).
 */
export function mergeLogTail(log: readonly GameLogEntry[], tail: readonly GameLogEntry[]): GameLogEntry[] | null {
  const first = tail[0];
  if (!first || tail.length < LOG_TAIL_SIZE) return [...tail];
  const at = log.findIndex((e) => e.seq === first.seq);
  if (at >= 0) return [...log.slice(0, at), ...tail];
  const last = log.at(-1)?.seq ?? 0;
  if (last === first.seq - 1) return [...log, ...tail];
  return null;
}

function isTailUpdate(update: GameUpdate | GameDocument): update is GameUpdate {
  return Array.isArray((update as Partial<GameUpdate>).logTail);
}

function isWholeDocument(update: GameUpdate | GameDocument): update is GameDocument {
  const doc = update as Partial<GameDocument>;
  return Array.isArray(doc.log) && Array.isArray(doc.home?.players) && Array.isArray(doc.away?.players);
}

/**
 * Fold one `game:ID` update into the state held from the last snapshot (and
 * the updates since): the update's scoreboard fields and names, the held
 * player lists, and the log merged with `logTail`. A `gap` means the held
 * state cannot be brought up to date from this update; ask for a snapshot.
 *
 * An update in the whole shape (a server from before small updates, during
 * a rolling deploy) replaces the state as it always did.
 */
export function mergeGameUpdate(held: GameDocument, update: GameUpdate | GameDocument): MergeOutcome<GameDocument> {
  if (!isTailUpdate(update)) return isWholeDocument(update) ? { kind: 'merged', data: update } : GAP;
  // Older than what we hold: it has nothing to add (the socket drops these
  // by seq already; a pure function should not depend on that).
  if (update.version < held.version) return { kind: 'merged', data: held };
  // Player lists belong to a roster: another roster on a side (or another
  // game) means the held ones are not this game's any more.
  if (update.id !== held.id || update.homeRosterId !== held.homeRosterId || update.awayRosterId !== held.awayRosterId) return GAP;
  // A lineup or a roster changed: the held player lists are out of date.
  if (update.playersDigest !== undefined && held.playersDigest !== undefined && update.playersDigest !== held.playersDigest) return GAP;
  const log = mergeLogTail(held.log, update.logTail);
  if (!log) return GAP;
  const { logTail: _tail, home, away, ...board } = update;
  return {
    kind: 'merged',
    data: {
      ...held,
      ...board,
      log,
      home: { ...held.home, rosterId: home.rosterId, name: home.name },
      away: { ...held.away, rosterId: away.rosterId, name: away.name },
    },
  };
}
