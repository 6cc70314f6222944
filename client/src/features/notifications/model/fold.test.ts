import { describe, expect, it } from 'vitest';
import { foldNotificationsUpdate } from './fold';
import { mergePages } from './pages';
import { makeNotification } from './test-fixtures';

describe('foldNotificationsUpdate', () => {
  it('puts a new one on top once, and takes the unread count from the update', () => {
    const older = makeNotification({ id: 'a', createdAt: '2026-11-24T17:00:00.000Z' });
    const newer = makeNotification({ id: 'b', createdAt: '2026-11-24T18:00:00.000Z' });
    let doc = foldNotificationsUpdate({ items: [older], nextCursor: null, unread: 1 }, { op: 'new', notification: newer, unread: 2 });
    expect(doc.items.map((n) => n.id)).toEqual(['b', 'a']);
    expect(doc.unread).toBe(2);
    doc = foldNotificationsUpdate(doc, { op: 'new', notification: newer, unread: 2 });
    expect(doc.items).toHaveLength(2);
  });

  it('marks read by id or all, from another tab', () => {
    const a = makeNotification({ id: 'a' });
    const b = makeNotification({ id: 'b' });
    let doc = foldNotificationsUpdate({ items: [a, b], nextCursor: null, unread: 2 }, { op: 'read', ids: ['a'], unread: 1 });
    expect(doc.items.find((n) => n.id === 'a')?.readAt).not.toBeNull();
    expect(doc.items.find((n) => n.id === 'b')?.readAt).toBeNull();
    doc = foldNotificationsUpdate(doc, { op: 'readAll', unread: 0 });
    expect(doc.items.every((n) => n.readAt)).toBe(true);
    expect(doc.unread).toBe(0);
  });

  it('replaces a conversation’s CHAT_MESSAGE with the newer one instead of adding it, by id or by conversation', () => {
    const chat = (id: string, unread: number, createdAt: string) =>
      makeNotification({ id, type: 'CHAT_MESSAGE', resourceType: 'CONVERSATION', resourceId: 'roster-r-1', createdAt, data: { conversationId: 'roster-r-1', title: 'Owls', from: 'Sid', preview: 'hi', unread } });
    const other = makeNotification({ id: 'x', createdAt: '2026-11-24T17:00:00.000Z' });
    let doc = foldNotificationsUpdate({ items: [other], nextCursor: null, unread: 1 }, { op: 'new', notification: chat('c-1', 1, '2026-11-24T18:00:00.000Z'), unread: 2 });
    doc = foldNotificationsUpdate(doc, { op: 'new', notification: chat('c-1', 2, '2026-11-24T18:01:00.000Z'), unread: 2 });
    expect(doc.items.map((n) => [n.id, n.data.unread ?? null])).toEqual([
      ['c-1', 2],
      ['x', null],
    ]);
    doc = foldNotificationsUpdate(doc, { op: 'new', notification: chat('c-2', 3, '2026-11-24T18:02:00.000Z'), unread: 2 });
    expect(doc.items.map((n) => n.id)).toEqual(['c-2', 'x']);
    // An older one arriving late changes nothing but the count.
    doc = foldNotificationsUpdate(doc, { op: 'new', notification: chat('c-1', 2, '2026-11-24T18:01:00.000Z'), unread: 2 });
    expect(doc.items.map((n) => n.id)).toEqual(['c-2', 'x']);
    // The same notification again keeps a read mark made meanwhile.
    const read = foldNotificationsUpdate(doc, { op: 'read', ids: ['x'], unread: 1 });
    expect(foldNotificationsUpdate(read, { op: 'new', notification: other, unread: 1 }).items.find((n) => n.id === 'x')?.readAt).not.toBeNull();
  });

  it('starts from nothing when no snapshot is held', () => {
    const doc = foldNotificationsUpdate(undefined, { op: 'new', notification: makeNotification(), unread: 1 });
    expect(doc.items).toHaveLength(1);
  });
});

describe('mergePages', () => {
  it('shows a conversation’s CHAT_MESSAGE once, the newest, when the pages hold the one it replaced', () => {
    const chat = (id: string, createdAt: string, readAt: string | null = null) =>
      makeNotification({ id, type: 'CHAT_MESSAGE', resourceType: 'CONVERSATION', resourceId: 'roster-r-1', createdAt, readAt, data: { conversationId: 'roster-r-1', title: 'Owls' } });
    expect(mergePages([chat('c-1', '2026-11-24T18:00:00.000Z')], [chat('c-2', '2026-11-24T18:05:00.000Z')]).map((n) => n.id)).toEqual(['c-2']);
    // Rewritten under the same id after it was read: the new words, unread.
    const merged = mergePages([chat('c-1', '2026-11-24T18:00:00.000Z', '2026-11-24T18:01:00.000Z')], [chat('c-1', '2026-11-24T18:05:00.000Z')]);
    expect(merged.map((n) => [n.id, n.readAt])).toEqual([['c-1', null]]);
  });

  it('lays live rows over the pages by id, newest first, keeping a read mark', () => {
    const read = makeNotification({ id: 'a', readAt: '2026-11-24T18:10:00.000Z', createdAt: '2026-11-24T17:00:00.000Z' });
    const fresh = makeNotification({ id: 'b', createdAt: '2026-11-24T19:00:00.000Z' });
    const merged = mergePages([read], [{ ...read, readAt: null }, fresh]);
    expect(merged.map((n) => n.id)).toEqual(['b', 'a']);
    expect(merged[1]?.readAt).not.toBeNull();
  });
});
