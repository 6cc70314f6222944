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

  it('starts from nothing when no snapshot is held', () => {
    const doc = foldNotificationsUpdate(undefined, { op: 'new', notification: makeNotification(), unread: 1 });
    expect(doc.items).toHaveLength(1);
  });
});

describe('mergePages', () => {
  it('lays live rows over the pages by id, newest first, keeping a read mark', () => {
    const read = makeNotification({ id: 'a', readAt: '2026-11-24T18:10:00.000Z', createdAt: '2026-11-24T17:00:00.000Z' });
    const fresh = makeNotification({ id: 'b', createdAt: '2026-11-24T19:00:00.000Z' });
    const merged = mergePages([read], [{ ...read, readAt: null }, fresh]);
    expect(merged.map((n) => n.id)).toEqual(['b', 'a']);
    expect(merged[1]?.readAt).not.toBeNull();
  });
});
