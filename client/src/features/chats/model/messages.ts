// The rules every chat screen reads messages by (docs/chat.md › Messages),
// as pure functions: which copy of a message is newest, merging the copies
// the screen got from anywhere (the REST read, pages of history, the
// `chat:{id}` topic, the replies to my own writes) into one list in
// conversation order with every message once, the topic's merge, the holes
// a list can have, where "Load earlier" goes on from, and unread counting.

import type { ChatMessage, ChatSnapshot, ChatUpdate } from '../../../lib/api-types';
import type { MergeOutcome, UpdateSeqs } from '../../../lib/ws';

/** Most messages asked for per page (the server's limit is 1–100). */
export const PAGE_LIMIT = 50;
/** Most asked for when filling a hole (the server's most). */
export const HOLE_LIMIT = 100;

function at(iso: string | null): number {
  if (!iso) return Number.NEGATIVE_INFINITY;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? Number.NEGATIVE_INFINITY : t;
}

/**
 * The newer of two copies of one message. A message only moves forward
 * (posted, edited, deleted), so a deleted copy beats any other and a later
 * `editedAt` beats an earlier one; on a tie the first stays (same state).
 * That makes every merge below order-free: which source came first does
 * not matter.
 */
export function newerMessage(a: ChatMessage, b: ChatMessage): ChatMessage {
  if (a.deletedAt || b.deletedAt) return a.deletedAt ? a : b;
  return at(b.editedAt) > at(a.editedAt) ? b : a;
}

/** Conversation order: by seq (the server's, the same for everyone). */
export function bySeq(a: ChatMessage, b: ChatMessage): number {
  return a.seq - b.seq || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Every message of the given lists once (by id, the newest copy), in conversation order. */
export function mergeMessages(...lists: ReadonlyArray<readonly ChatMessage[] | null | undefined>): ChatMessage[] {
  const byId = new Map<string, ChatMessage>();
  for (const list of lists) {
    for (const m of list ?? []) {
      const had = byId.get(m.id);
      byId.set(m.id, had ? newerMessage(had, m) : m);
    }
  }
  return [...byId.values()].sort(bySeq);
}

/**
 * One `chat:{id}` update into what the topic holds: the message, new or as
 * it now is, in its place. The frame's seq is the conversation's version,
 * which every post, edit and delete moves on by one, so an update that
 * does not continue from the held version means frames were missed (a
 * slow socket's coalesced queue, a node's hiccup): a gap, and the socket
 * re-subscribes with `since`. An update we cannot read is a gap too.
 */
export function mergeChatUpdate(held: ChatSnapshot, update: ChatUpdate, seqs?: UpdateSeqs): MergeOutcome<ChatSnapshot> {
  const m = update?.message;
  if (!m || typeof m.id !== 'string' || typeof m.seq !== 'number') return { kind: 'gap' };
  // The held version is the snapshot's own `version` (then each update's
  // seq), so this does not lean on the snapshot frame's seq being it too.
  const heldVersion = typeof held.version === 'number' ? held.version : (seqs?.held ?? null);
  if (seqs && heldVersion !== null && seqs.update > heldVersion + 1) return { kind: 'gap' };
  return {
    kind: 'merged',
    data: { ...held, version: seqs?.update ?? held.version, messages: mergeMessages(held.messages, [m]) },
  };
}

/**
 * The newest hole in a merged list: seqs have no gaps on the server, so two
 * neighbours more than one apart mean messages this screen never got (a
 * snapshot of the latest 50 after more than 50 were missed). Answers the
 * page to ask for (`before` the upper neighbour) and how many are missing.
 */
export function findHole(messages: readonly ChatMessage[]): { before: number; missing: number } | null {
  for (let i = messages.length - 1; i > 0; i--) {
    const upper = messages[i];
    const lower = messages[i - 1];
    if (upper && lower && upper.seq - lower.seq > 1) return { before: upper.seq, missing: upper.seq - lower.seq - 1 };
  }
  return null;
}

/**
 * Where "Load earlier" goes on from: the `nextBefore` of the last page of
 * history read (null: that page began at the first message), else, before
 * any page, the oldest message held (seqs start at 1, so one above 1 has
 * messages before it). Null when there is nothing earlier.
 */
export function earlierCursor(messages: readonly ChatMessage[], lastNextBefore: number | null | undefined): number | null {
  if (lastNextBefore !== undefined) return lastNextBefore;
  const oldest = messages[0];
  return oldest && oldest.seq > 1 ? oldest.seq : null;
}

/** The newest message's seq (0 when there is none). */
export function newestSeq(messages: readonly ChatMessage[]): number {
  return messages.reduce((max, m) => Math.max(max, m.seq), 0);
}

/** What counts as unread (docs/chat.md › API): others' messages after my read mark, deleted ones not. */
function countsAsUnread(m: ChatMessage, readSeq: number, myId: string): boolean {
  return m.seq > readSeq && m.author.id !== myId && !m.deletedAt;
}

/** How many of `messages` are unread for me. */
export function unreadCount(messages: readonly ChatMessage[], readSeq: number, myId: string): number {
  return messages.filter((m) => countsAsUnread(m, readSeq, myId)).length;
}

/** The first unread message's seq (where the "New" divider goes), or null. */
export function firstUnreadSeq(messages: readonly ChatMessage[], readSeq: number, myId: string): number | null {
  return messages.find((m) => countsAsUnread(m, readSeq, myId))?.seq ?? null;
}
