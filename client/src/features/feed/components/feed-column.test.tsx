import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore } from 'jotai';
import { afterEach, describe, expect, it } from 'vitest';
import { connectionStateAtom, LiveSocketContext, topicAtomFamily } from '../../../lib/ws';
import { fakeLiveSocket } from '../../../testing/fake-live-socket';
import { mockApi } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import { FEED_TOPIC } from '../api/feed';
import { foldFeedUpdate } from '../model/merge';
import { feedItem, person } from '../model/test-fixtures';
import type { FeedItem, FeedPage, FeedPush } from '../model/types';
import { FeedColumn } from './feed-column';

const alice = person('u-alice', 'Alice', 'Ames');
const post = (id: string, min: number, content: string): FeedItem =>
  feedItem({
    id,
    type: 'POST_CREATED',
    actors: [alice],
    aggregatedData: { actorIds: [alice.id], count: 1 },
    resource: { id: `p-${id}`, content, authorId: alice.id, authorName: 'Alice Ames', createdAt: `2026-03-01T10:0${min}:00Z`, updatedAt: `2026-03-01T10:0${min}:00Z` },
    updatedAt: `2026-03-01T10:0${min}:00Z`,
  });

function setScroll(y: number) {
  Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
  window.dispatchEvent(new Event('scroll'));
}

function setup(items: FeedItem[], nextCursor: string | null = null) {
  mockApi({ 'GET /feed': { items, nextCursor } });
  const live = fakeLiveSocket();
  const store = createStore();
  store.set(connectionStateAtom, 'live');
  renderWithProviders(
    <LiveSocketContext.Provider value={live.socket}>
      <FeedColumn />
    </LiveSocketContext.Provider>,
    { store },
  );
  const topic = topicAtomFamily(FEED_TOPIC);
  // As the socket does: fold into the topic, then tell the update's listeners.
  const push = (item: FeedPush) =>
    act(() => {
      const held = store.get(topic);
      store.set(topic, { seq: (held?.seq ?? 0) + 1, data: foldFeedUpdate(held?.data as FeedPage | undefined, item) });
      live.emitUpdate(FEED_TOPIC, item);
    });
  const snapshot = (page: FeedPage) => act(() => store.set(topic, { seq: 1, data: page }));
  return { live, push, snapshot };
}

const texts = () => screen.getAllByTestId('feed-item').map((el) => within(el).getByTestId('post-text').textContent);

afterEach(() => act(() => setScroll(0)));

describe('FeedColumn', () => {
  it('subscribes to the feed and slides a push in at the top while the reader is at the top', async () => {
    const { live, push } = setup([post('a', 1, 'first')]);
    expect(await screen.findByText('first')).toBeInTheDocument();
    expect(live.subscribe).toHaveBeenCalledWith(FEED_TOPIC);
    push(post('b', 2, 'second'));
    expect(texts()).toEqual(['second', 'first']);
    expect(screen.getAllByTestId('feed-item')[0]).toHaveClass('feed-card--fresh');
    expect(screen.queryByTestId('new-items-pill')).toBeNull();
  });

  it('holds pushes behind an "N new" pill once the reader has scrolled, and shows them on click', async () => {
    const { push } = setup([post('a', 1, 'first')]);
    await screen.findByText('first');
    act(() => setScroll(900));
    push(post('b', 2, 'second'));
    push(post('c', 3, 'third'));
    expect(screen.getByTestId('new-items-pill')).toHaveTextContent('2 new');
    expect(texts()).toEqual(['first']);
    await userEvent.click(screen.getByTestId('new-items-pill'));
    expect(texts()).toEqual(['third', 'second', 'first']);
    expect(screen.queryByTestId('new-items-pill')).toBeNull();
  });

  it('shows an edit in place and drops a deleted post, without a pill, also while scrolled down', async () => {
    const { push } = setup([post('c', 3, 'third'), post('b', 2, 'second'), post('a', 1, 'first')]);
    await screen.findByText('first');
    act(() => setScroll(900));
    push(post('b', 2, 'second, edited'));
    expect(texts()).toEqual(['third', 'second, edited', 'first']);
    push({ id: 'c', removed: true });
    expect(texts()).toEqual(['second, edited', 'first']);
    push({ id: 'unknown', removed: true });
    expect(texts()).toEqual(['second, edited', 'first']);
    // The push of an edit that lost the race with its deletion brings nothing back.
    push(post('c', 3, 'third, edited just before it went'));
    expect(texts()).toEqual(['second, edited', 'first']);
    expect(screen.queryByTestId('new-items-pill')).toBeNull();
  });

  it('edits an item of a page read by scrolling, which the topic does not hold', async () => {
    const { push, snapshot } = setup([post('b', 2, 'second'), post('a', 1, 'first')], 'more');
    await screen.findByText('first');
    snapshot({ items: [post('b', 2, 'second')], nextCursor: 'more' });
    push(post('a', 1, 'first, edited'));
    expect(texts()).toEqual(['second', 'first, edited']);
    expect(screen.queryByTestId('new-items-pill')).toBeNull();
  });

  it('shows the empty state with a way to find people when nothing is in the feed', async () => {
    setup([]);
    expect(await screen.findByText('Your feed is quiet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Find people to follow' })).toHaveAttribute('href', '/people');
  });
});
