import { describe, expect, it } from 'vitest';
import { foldFeedUpdate, mergeFeedItems, unseenItems } from './merge';
import { feedItem } from './test-fixtures';

const at = (min: number) => `2026-03-01T10:${String(min).padStart(2, '0')}:00Z`;

describe('mergeFeedItems', () => {
  it('orders by updatedAt newest first, then id descending', () => {
    const merged = mergeFeedItems([feedItem({ id: 'a', updatedAt: at(1) }), feedItem({ id: 'c', updatedAt: at(2) })], [feedItem({ id: 'b', updatedAt: at(2) })]);
    expect(merged.map((i) => i.id)).toEqual(['c', 'b', 'a']);
  });

  it('keeps one copy of an id, the later updatedAt, whichever list it came from', () => {
    const old = feedItem({ id: 'x', updatedAt: at(1), aggregatedData: { actorIds: ['u1'], count: 1 } });
    const grown = feedItem({ id: 'x', updatedAt: at(5), aggregatedData: { actorIds: ['u2', 'u1'], count: 2 } });
    expect(mergeFeedItems([old], [grown])).toEqual([grown]);
    expect(mergeFeedItems([grown], [old])).toEqual([grown]);
  });

  it('moves a grown item to the top', () => {
    const list = [feedItem({ id: 'b', updatedAt: at(3) }), feedItem({ id: 'a', updatedAt: at(2) })];
    const merged = mergeFeedItems(list, [feedItem({ id: 'a', updatedAt: at(4) })]);
    expect(merged.map((i) => i.id)).toEqual(['a', 'b']);
  });
});

describe('foldFeedUpdate', () => {
  it('lands updates in any order on the same list', () => {
    const snapshot = { items: [feedItem({ id: 'a', updatedAt: at(1) })], nextCursor: 'c1' };
    const u1 = feedItem({ id: 'b', updatedAt: at(2) });
    const u2 = feedItem({ id: 'a', updatedAt: at(3), aggregatedData: { actorIds: ['u2', 'u1'], count: 2 } });
    const inOrder = foldFeedUpdate(foldFeedUpdate(snapshot, u1), u2);
    const reversed = foldFeedUpdate(foldFeedUpdate(snapshot, u2), u1);
    expect(inOrder).toEqual(reversed);
    expect(inOrder.items.map((i) => [i.id, i.aggregatedData.count])).toEqual([
      ['a', 2],
      ['b', 1],
    ]);
    expect(inOrder.nextCursor).toBe('c1');
  });

  it('does not let a late, older version replace a newer one', () => {
    const newer = feedItem({ id: 'a', updatedAt: at(5), aggregatedData: { actorIds: ['u3', 'u2', 'u1'], count: 3 } });
    const older = feedItem({ id: 'a', updatedAt: at(4), aggregatedData: { actorIds: ['u2', 'u1'], count: 2 } });
    const held = foldFeedUpdate(foldFeedUpdate(null, newer), older);
    expect(held.items).toEqual([newer]);
  });

  it('is idempotent for a repeated push', () => {
    const item = feedItem({ id: 'a', updatedAt: at(1) });
    expect(foldFeedUpdate(foldFeedUpdate(null, item), item).items).toHaveLength(1);
  });
});

describe('unseenItems', () => {
  it('counts new ids and newer versions, not what is already shown', () => {
    const shown = [feedItem({ id: 'a', updatedAt: at(1) }), feedItem({ id: 'b', updatedAt: at(2) })];
    const incoming = [feedItem({ id: 'a', updatedAt: at(3) }), feedItem({ id: 'b', updatedAt: at(2) }), feedItem({ id: 'c', updatedAt: at(4) })];
    expect(unseenItems(shown, incoming).map((i) => i.id)).toEqual(['a', 'c']);
  });
});
