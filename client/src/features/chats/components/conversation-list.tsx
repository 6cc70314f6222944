// My conversations: title, the last message in one line ("Sid: see you at
// 9"), when, my unread count and whether it is muted; newest first, live
// (counts and previews move with the `chats` topic).

import { Link } from 'react-router';
import { errorMessage } from '../../../lib/api';
import { useCurrentUser } from '../../../lib/auth/auth-context';
import { Alert } from '../../../components/ui/alert';
import { Avatar } from '../../../components/ui/avatar';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { BellOffIcon, ChatIcon } from '../../../components/ui/icons';
import { ListSkeleton } from '../../../components/ui/list-row';
import { useChatsView } from '../api/chats';
import { previewOf } from '../model/conversations';
import { fullWhen, shortWhen } from '../model/days';

export function ConversationList({ activeId }: { activeId: string | null }) {
  const me = useCurrentUser();
  const { items, list } = useChatsView();

  if (list.isPending) return <ListSkeleton rows={5} />;
  if (list.isError && !list.data) {
    return (
      <Alert tone="error" action={<Button variant="secondary" size="sm" onClick={() => void list.refetch()}>Try again</Button>}>
        {errorMessage(list.error)}
      </Alert>
    );
  }
  if (items.length === 0) {
    return (
      <EmptyState icon={<ChatIcon size={28} />} title="No conversations yet">
        Every roster you are on and every event you are in has its own chat. They show up here.
      </EmptyState>
    );
  }
  return (
    <ul className="chat-list" data-testid="chat-list">
      {items.map((c) => {
        const active = c.id === activeId;
        const when = c.lastMessage?.createdAt ?? null;
        return (
          <li key={c.id}>
            <Link
              to={`/chats/${encodeURIComponent(c.id)}`}
              className={`chat-row${active ? ' chat-row--active' : ''}${c.unread > 0 ? ' chat-row--unread' : ''}`}
              aria-current={active ? 'page' : undefined}
              data-testid="chat-row"
              data-id={c.id}
              data-unread={c.unread}
            >
              <Avatar name={c.title} size="md" square />
              <span className="chat-row__text">
                <span className="chat-row__top">
                  <span className="chat-row__title">{c.title}</span>
                  {c.muted && (
                    <span className="chat-row__muted" role="img" aria-label="Muted" title="Muted" data-testid="chat-row-muted">
                      <BellOffIcon size={15} />
                    </span>
                  )}
                  {when && (
                    <time className="chat-row__when" dateTime={when} title={fullWhen(when)}>
                      {shortWhen(when)}
                    </time>
                  )}
                </span>
                <span className="chat-row__bottom">
                  <span className="chat-row__preview" data-testid="chat-row-preview">
                    {previewOf(c.lastMessage, me.id)}
                  </span>
                  {c.unread > 0 && (
                    <span className="chat-row__count" data-testid="chat-row-unread">
                      <span aria-hidden="true">{c.unread > 99 ? '99+' : c.unread}</span>
                      <span className="sr-only">, {c.unread} unread</span>
                    </span>
                  )}
                </span>
              </span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
