import { describe, expect, it } from 'vitest';
import { applyCorrections, foldFeedUpdate, mergeFeedItems, noteFeedPush, NO_CORRECTIONS, unseenItems } from './merge';
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

describe('foldFeedUpdate: edits and removals', () => {
  const post = (id: string, min: number, content: string) =>
    feedItem({ id, updatedAt: at(min), resource: { id: `p-${id}`, content, authorId: 'u-a', authorName: 'A', createdAt: at(min), updatedAt: at(min) } });
  const page = { items: [post('c', 3, 'third'), post('b', 2, 'second'), post('a', 1, 'first')], nextCursor: 'c1' };
  const texts = (p: { items: { resource: unknown }[] }) => p.items.map((i) => (i.resource as { content: string }).content);

  it('replaces an edited item where it stands, keeping the order', () => {
    const folded = foldFeedUpdate(page, post('b', 2, 'second, edited'));
    expect(texts(folded)).toEqual(['third', 'second, edited', 'first']);
    expect(folded.nextCursor).toBe('c1');
  });

  it('drops a removed item', () => {
    const folded = foldFeedUpdate(page, { id: 'b', removed: true });
    expect(folded.items.map((i) => i.id)).toEqual(['c', 'a']);
    expect(folded.nextCursor).toBe('c1');
  });

  it('changes nothing for the removal of an id it does not hold', () => {
    expect(foldFeedUpdate(page, { id: 'zzz', removed: true }).items).toEqual(page.items);
    expect(foldFeedUpdate(null, { id: 'zzz', removed: true })).toEqual({ items: [], nextCursor: null });
  });

  it('leaves an edit of an item of a later page to that page', () => {
    expect(foldFeedUpdate(page, post('old', 0, 'edited long ago')).items).toEqual(page.items);
    // Grown items moving up do not move where the page ends.
    const grown = foldFeedUpdate(foldFeedUpdate(page, post('a', 4, 'first, grown')), post('d', 0, 'older than the page'));
    expect(grown.items.map((i) => i.id)).toEqual(['a', 'c', 'b']);
    expect(foldFeedUpdate(grown, post('e', 2, 'pushed late')).items.map((i) => i.id)).toEqual(['a', 'c', 'e', 'b']);
    const whole = { items: page.items, nextCursor: null };
    expect(foldFeedUpdate(whole, post('old', 0, 'edited long ago')).items.map((i) => i.id)).toEqual(['c', 'b', 'a', 'old']);
  });
});

describe('applyCorrections', () => {
  const post = (id: string, min: number, content: string) =>
    feedItem({ id, updatedAt: at(min), resource: { id: `p-${id}`, content, authorId: 'u-a', authorName: 'A', createdAt: at(min), updatedAt: at(min) } });
  const shown = [post('c', 3, 'third'), post('b', 2, 'second'), post('a', 1, 'first')];

  it('edits in place and removes on screen, whatever page the item came from', () => {
    let c = noteFeedPush(NO_CORRECTIONS, post('a', 1, 'first, edited'));
    c = noteFeedPush(c, { id: 'c', removed: true });
    const out = applyCorrections(shown, c);
    expect(out.map((i) => [i.id, (i.resource as { content: string }).content])).toEqual([
      ['b', 'second'],
      ['a', 'first, edited'],
    ]);
  });

  it('leaves a grown item where it is (it waits to be revealed at the top) and ignores unknown removals', () => {
    let c = noteFeedPush(NO_CORRECTIONS, post('a', 5, 'grown'));
    c = noteFeedPush(c, { id: 'nope', removed: true });
    expect(applyCorrections(shown, c)).toEqual(shown);
  });

  it('keeps the latest pushed version when edits arrive out of order', () => {
    const grown = post('a', 5, 'grown');
    const c = noteFeedPush(noteFeedPush(NO_CORRECTIONS, grown), post('a', 1, 'late, older'));
    expect(c.versions.get('a')).toBe(grown);
  });
});

describe('unseenItems', () => {
  it('counts new ids and newer versions, not what is already shown', () => {
    const shown = [feedItem({ id: 'a', updatedAt: at(1) }), feedItem({ id: 'b', updatedAt: at(2) })];
    const incoming = [feedItem({ id: 'a', updatedAt: at(3) }), feedItem({ id: 'b', updatedAt: at(2) }), feedItem({ id: 'c', updatedAt: at(4) })];
    expect(unseenItems(shown, incoming).map((i) => i.id)).toEqual(['a', 'c']);
  });
});
