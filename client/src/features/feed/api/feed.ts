// REST for the feed and posts, and the live `feed` topic.

import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { Page } from '../../../lib/api-types';
import { foldTopicUpdates, useTopic } from '../../../lib/ws';
import { foldFeedUpdate, type LiveFeedPage } from '../model/merge';
import type { FeedItem, FeedPage, FeedPush, Post } from '../model/types';

export const FEED_TOPIC = 'feed';
/** Items per page; the topic's snapshot is the server's own first page. */
const FEED_PAGE = 20;
const POSTS_PAGE = 20;

// A feed update is one item or one removal: fold it into the snapshot page instead of replacing it.
foldTopicUpdates(FEED_TOPIC, (held, update) => foldFeedUpdate(held as LiveFeedPage | undefined, update as FeedPush));

export const feedKeys = {
  feed: ['feed'] as const,
  posts: (userId: string) => ['posts', 'user', userId] as const,
};

export function useFeedPages() {
  return useInfiniteQuery({
    queryKey: feedKeys.feed,
    queryFn: ({ signal, pageParam }) => api.get<FeedPage>('/feed', { signal, query: { limit: FEED_PAGE, cursor: pageParam } }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    // The socket keeps the top current; refetching the pages would only reshuffle them under the reader.
    refetchOnWindowFocus: false,
  });
}

/** Subscribes to `feed` while mounted; the snapshot with every push folded in. */
export function useLiveFeed(): FeedItem[] | null {
  const live = useTopic<FeedPage>(FEED_TOPIC);
  return live?.data.items ?? null;
}

export function useUserPosts(userId: string) {
  return useInfiniteQuery({
    queryKey: feedKeys.posts(userId),
    queryFn: ({ signal, pageParam }) =>
      api.get<Page<Post>>(`/users/${encodeURIComponent(userId)}/posts`, { signal, query: { limit: POSTS_PAGE, cursor: pageParam } }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}

export function useCreatePost(authorId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (content: string) => api.post<Post>('/posts', { content }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: feedKeys.posts(authorId) }),
  });
}

export function useEditPost(authorId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, content }: { id: string; content: string }) => api.patch<Post>(`/posts/${encodeURIComponent(id)}`, { content }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: feedKeys.posts(authorId) }),
  });
}

export function useDeletePost(authorId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/posts/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: feedKeys.posts(authorId) }),
  });
}
