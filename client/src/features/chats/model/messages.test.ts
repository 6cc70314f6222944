import { describe, expect, it } from 'vitest';
import { makeChatMessage, messagesFrom, ME, minute } from '../testing';
import { earlierCursor, findHole, firstUnreadSeq, mergeChatUpdate, mergeMessages, newerMessage, newestSeq, unreadCount } from './messages';

const ids = (ms: { id: string }[]) => ms.map((m) => m.id);

describe('newerMessage', () => {
  it('takes a deleted copy over any other, and a later edit over an earlier one, whichever comes first', () => {
    const posted = makeChatMessage({ seq: 3, body: 'Ice at 9' });
    const edited = { ...posted, body: 'Ice at 9:30', editedAt: minute(10) };
    const editedAgain = { ...posted, body: 'Ice at 10', editedAt: minute(12) };
    const deleted = { ...posted, body: null, deletedAt: minute(15) };
    for (const [a, b, want] of [
      [posted, edited, edited],
      [edited, posted, edited],
      [edited, editedAgain, editedAgain],
      [editedAgain, edited, editedAgain],
      [deleted, editedAgain, deleted],
      [editedAgain, deleted, deleted],
    ] as const) {
      expect(newerMessage(a, b)).toBe(want);
    }
  });
});

describe('mergeMessages', () => {
  it('lists every message once, by id, in seq order, from any number of overlapping sources', () => {
    const page = messagesFrom(1, 5);
    const head = messagesFrom(4, 8);
    const live = [...messagesFrom(8, 9), { ...makeChatMessage({ seq: 5 }), body: 'fixed', editedAt: minute(20) }];
    const merged = mergeMessages(live, head, null, page, undefined);
    expect(merged.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(merged.find((m) => m.seq === 5)?.body).toBe('fixed');
    // The order of the sources does not matter.
    expect(mergeMessages(page, head, live)).toEqual(merged);
  });
});

describe('mergeChatUpdate', () => {
  const held = { conversationId: 'roster-r-1', version: 3, messages: messagesFrom(1, 3) };

  it('appends a new message, replaces an edited one in place, and keeps a deleted one in its place without its text', () => {
    let out = mergeChatUpdate(held, { message: makeChatMessage({ seq: 4, body: 'see you at 9' }) }, { held: 3, update: 4 });
    expect(out.kind).toBe('merged');
    if (out.kind !== 'merged') return;
    expect(ids(out.data.messages)).toEqual(['m-1', 'm-2', 'm-3', 'm-4']);
    expect(out.data.version).toBe(4);

    out = mergeChatUpdate(out.data, { message: { ...makeChatMessage({ seq: 2 }), body: 'edited', editedAt: minute(30) } }, { held: 4, update: 5 });
    if (out.kind !== 'merged') throw new Error('not merged');
    expect(out.data.messages.map((m) => m.body)).toEqual(['Message 1', 'edited', 'Message 3', 'see you at 9']);

    out = mergeChatUpdate(out.data, { message: { ...makeChatMessage({ seq: 3 }), body: null, deletedAt: minute(31) } }, { held: 5, update: 6 });
    if (out.kind !== 'merged') throw new Error('not merged');
    expect(ids(out.data.messages)).toEqual(['m-1', 'm-2', 'm-3', 'm-4']);
    expect(out.data.messages[2]?.deletedAt).not.toBeNull();
  });

  it('is a gap when the version skips a number (frames were missed) or the frame cannot be read', () => {
    expect(mergeChatUpdate(held, { message: makeChatMessage({ seq: 5 }) }, { held: 3, update: 5 }).kind).toBe('gap');
    // Counted from the snapshot's own version, whatever seq its frame had.
    expect(mergeChatUpdate(held, { message: makeChatMessage({ seq: 4 }) }, { held: 0, update: 4 }).kind).toBe('merged');
    expect(mergeChatUpdate(held, { message: makeChatMessage({ seq: 4 }) }, { held: 0, update: 5 }).kind).toBe('gap');
    expect(mergeChatUpdate(held, { message: null } as never, { held: 3, update: 4 }).kind).toBe('gap');
    expect(mergeChatUpdate(held, {} as never, { held: 3, update: 4 }).kind).toBe('gap');
  });
});

describe('findHole', () => {
  it('finds the newest run of missing seqs, and how many are missing', () => {
    expect(findHole(messagesFrom(1, 5))).toBeNull();
    expect(findHole([...messagesFrom(1, 3), ...messagesFrom(60, 62)])).toEqual({ before: 60, missing: 56 });
    expect(findHole([...messagesFrom(1, 2), ...messagesFrom(5, 6), ...messagesFrom(9, 9)])).toEqual({ before: 9, missing: 2 });
  });
});

describe('earlierCursor', () => {
  it('goes on from the oldest message held before any page, then from the last page’s nextBefore, and stops at the first message', () => {
    expect(earlierCursor(messagesFrom(51, 100), undefined)).toBe(51);
    expect(earlierCursor(messagesFrom(1, 100), undefined)).toBeNull();
    expect(earlierCursor(messagesFrom(21, 100), 21)).toBe(21);
    expect(earlierCursor(messagesFrom(1, 100), null)).toBeNull();
    expect(earlierCursor([], undefined)).toBeNull();
  });
});

describe('unread counting', () => {
  it('counts others’ messages after my mark, never mine or deleted ones, and finds the first of them', () => {
    const ms = [
      makeChatMessage({ seq: 1 }),
      makeChatMessage({ seq: 2 }),
      makeChatMessage({ seq: 3, author: ME }),
      makeChatMessage({ seq: 4, body: null, deletedAt: minute(9) }),
      makeChatMessage({ seq: 5 }),
      makeChatMessage({ seq: 6 }),
    ];
    expect(unreadCount(ms, 0, ME.id)).toBe(4);
    expect(unreadCount(ms, 2, ME.id)).toBe(2);
    expect(unreadCount(ms, 6, ME.id)).toBe(0);
    expect(firstUnreadSeq(ms, 2, ME.id)).toBe(5);
    expect(firstUnreadSeq(ms, 6, ME.id)).toBeNull();
    expect(newestSeq(ms)).toBe(6);
  });
});
