// My matches as the `matches` topic keeps them (docs/statuses.md › Live):
// the snapshot, then one change per update, folded in as it arrives. An
// update is an item, never the whole list: `upsert` puts one match in (or
// replaces it by id), `drop` by `statusId` takes out every match resting on
// that status, `drop` by `eventId` that event's open-spot match. Folding is
// idempotent, so a replayed update changes nothing.
//
// Nothing pushes the moment a status runs out (expiry is a clock, not a
// write), so what is shown is filtered by the time as well: a match whose
// status has expired, or whose event has started, is gone.

import type { Match, MatchesDocument, MatchesUpdate } from '../../../lib/api-types';

/** When a match is "due": its event's puck drop, else when the other side's status runs out, else mine. */
function dueAt(m: Match): string {
  return m.event?.startDate ?? m.theirs?.expiresAt ?? m.mine.expiresAt;
}

/** Soonest first, as the server lists them; the id breaks ties so the order is stable. */
export function compareMatches(a: Match, b: Match): number {
  const da = Date.parse(dueAt(a));
  const db = Date.parse(dueAt(b));
  if (da !== db) return da - db;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Does this match rest on the status (mine or theirs)? */
function restsOn(m: Match, statusId: string): boolean {
  return m.mine.id === statusId || m.theirs?.id === statusId;
}

/** Apply one update of the `matches` topic to what it holds. */
export function foldMatchesUpdate(held: MatchesDocument | null | undefined, update: MatchesUpdate): MatchesDocument {
  const items = held?.items ?? [];
  if (update.op === 'upsert') {
    const rest = items.filter((m) => m.id !== update.match.id);
    return { items: [...rest, update.match].sort(compareMatches) };
  }
  if ('statusId' in update) {
    const { statusId } = update;
    return {
      items: items
        .filter((m) => !restsOn(m, statusId))
        // A call for subs that went away is no longer one of the event's asks.
        .map((m) => (m.event && m.event.asks.some((s) => s.id === statusId) ? { ...m, event: { ...m.event, asks: m.event.asks.filter((s) => s.id !== statusId) } } : m)),
    };
  }
  const { eventId } = update;
  return { items: items.filter((m) => !(m.theirs === null && m.event?.id === eventId)) };
}

/** The matches still current at `now`: both statuses active, and any event not yet started. */
export function activeMatches(items: readonly Match[], now: number): Match[] {
  return items.filter((m) => {
    if (Date.parse(m.mine.expiresAt) <= now) return false;
    if (m.theirs && Date.parse(m.theirs.expiresAt) <= now) return false;
    if (m.event && Date.parse(m.event.startDate) <= now) return false;
    return true;
  });
}

/** The soonest moment one of these matches runs out (to re-render then), or null. */
export function nextExpiry(items: readonly Match[], now: number): number | null {
  let next: number | null = null;
  for (const m of items) {
    for (const iso of [m.mine.expiresAt, m.theirs?.expiresAt, m.event?.startDate]) {
      if (!iso) continue;
      const t = Date.parse(iso);
      if (t > now && (next === null || t < next)) next = t;
    }
  }
  return next;
}
