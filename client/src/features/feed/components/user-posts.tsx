// A person's posts on their profile, newest first. On my own profile: the
// composer, and edit / delete on each post.

import { useState } from 'react';
import { errorMessage } from '../../../lib/api';
import { relativeTime } from '../../../lib/event-format';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { EditIcon, TrashIcon } from '../../../components/ui/icons';
import { ListSkeleton } from '../../../components/ui/list-row';
import { LoadMore } from '../../../components/ui/load-more';
import { useCreatePost, useDeletePost, useEditPost, useUserPosts } from '../api/feed';
import { POST_MAX_CHARS, postLength, postProblem } from '../model/composer';
import type { Post } from '../model/types';
import { Composer } from './composer';
import { PostText } from './post-text';
import '../feed.css';

export function UserPosts({ userId, name, isMe }: { userId: string; name: string; isMe: boolean }) {
  const posts = useUserPosts(userId);
  const create = useCreatePost(userId);
  const items = posts.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <section className="stack" aria-label="Posts" data-testid="user-posts">
      {isMe && <Composer onPost={(content) => create.mutateAsync(content)} placeholder="Share something with your followers…" />}
      <Card padded={false}>
        <div className="card__pad card__pad--header">
          <CardHeader title="Posts" />
        </div>
        {posts.isPending ? (
          <ListSkeleton rows={2} />
        ) : posts.isError ? (
          <p className="muted card__pad">{errorMessage(posts.error)}</p>
        ) : items.length === 0 ? (
          <p className="muted card__pad">{isMe ? 'You have not posted yet. Your followers see your posts in their feed.' : `${name} has not posted yet.`}</p>
        ) : (
          <ol className="post-list">
            {items.map((p) => (
              <PostRow key={p.id} post={p} mine={isMe} authorId={userId} />
            ))}
          </ol>
        )}
        <LoadMore hasMore={!!posts.hasNextPage} loading={posts.isFetchingNextPage} onLoadMore={() => void posts.fetchNextPage()} />
      </Card>
    </section>
  );
}

function PostRow({ post, mine, authorId }: { post: Post; mine: boolean; authorId: string }) {
  const [draft, setDraft] = useState<string | null>(null);
  const edit = useEditPost(authorId);
  const del = useDeletePost(authorId);
  const edited = post.updatedAt !== post.createdAt;
  const problem = draft === null ? null : postProblem(draft);

  return (
    <li className="post-row" data-testid="post-row">
      <div className="post-row__meta">
        <time dateTime={post.createdAt} title={new Date(post.createdAt).toLocaleString()}>
          {relativeTime(post.createdAt)}
        </time>
        {edited && <span> · edited</span>}
        {mine && draft === null && (
          <span className="post-row__actions">
            <Button size="sm" variant="ghost" icon={<EditIcon size={14} />} onClick={() => setDraft(post.content)} aria-label="Edit post">
              Edit
            </Button>
            <ConfirmButton size="sm" variant="ghost" icon={<TrashIcon size={14} />} confirmLabel="Delete?" onConfirm={() => del.mutate(post.id)} loading={del.isPending}>
              Delete
            </ConfirmButton>
          </span>
        )}
      </div>
      {draft === null ? (
        <PostText content={post.content} />
      ) : (
        <form
          className="post-row__edit"
          onSubmit={(e) => {
            e.preventDefault();
            if (problem) return;
            edit.mutate({ id: post.id, content: draft.trim() }, { onSuccess: () => setDraft(null) });
          }}
        >
          <textarea className="composer__input composer__input--edit" value={draft} onChange={(e) => setDraft(e.target.value)} rows={3} aria-label="Edit post" autoFocus />
          <div className="composer__bar">
            <span className={`composer__counter${postLength(draft) > POST_MAX_CHARS ? ' composer__counter--over' : ''}`}>
              {postLength(draft).toLocaleString('en-US')} / {POST_MAX_CHARS.toLocaleString('en-US')}
            </span>
            <span className="post-row__actions">
              <Button type="button" size="sm" variant="ghost" onClick={() => setDraft(null)}>
                Cancel
              </Button>
              <Button type="submit" size="sm" disabled={problem !== null} loading={edit.isPending}>
                Save
              </Button>
            </span>
          </div>
        </form>
      )}
      {(edit.error || del.error) && (
        <p className="composer__error" role="alert">
          {errorMessage(edit.error ?? del.error)}
        </p>
      )}
    </li>
  );
}
