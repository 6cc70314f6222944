// Game documents as the server writes them, made whole for the screens.
// The server keeps frames small (docs/game-night.md): a log entry leaves
// out fields it does not have (no `rosterId` on START, no `assistIds`
// when there are none), and running penalties come as
// `[seq, startMs, endMs, short]` tuples. Everything past this module reads
// one shape: entries with every field (null or [] when absent) and
// penalties as objects.

import type { GameDocument, GameLogEntry, RunningPenalty } from './api-types';

/** A running penalty, read from the tuple or the object form. */
export interface PenaltyRun {
  seq: number;
  startMs: number | null;
  endMs: number | null;
  /** The server's word on whether it puts its side short while served; undefined: decide from the kind. */
  short?: boolean;
}

export function readPenalty(p: RunningPenalty): PenaltyRun {
  if (Array.isArray(p)) return { seq: p[0], startMs: p[1], endMs: p[2], short: p[3] === 1 };
  return p;
}

/** An entry with every field the screens read, whatever the wire left out. */
export function normalizeEntry(e: GameLogEntry): GameLogEntry {
  if (e.rosterId !== undefined && e.playerId !== undefined && Array.isArray(e.assistIds) && e.minutes !== undefined && e.period !== undefined) return e;
  return {
    ...e,
    period: e.period ?? null,
    rosterId: e.rosterId ?? null,
    playerId: e.playerId ?? null,
    assistIds: e.assistIds ?? [],
    minutes: e.minutes ?? null,
  };
}

/** The document with whole entries (the same object when nothing was missing). */
export function normalizeGame<T extends GameDocument>(doc: T): T {
  let changed = false;
  const log = doc.log.map((e) => {
    const n = normalizeEntry(e);
    if (n !== e) changed = true;
    return n;
  });
  return changed ? { ...doc, log } : doc;
}
