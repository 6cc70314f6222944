// The nav's count of my unread chat messages, live on the `chats` own
// topic (`GET /chats` until it speaks), like the bell's: nothing at zero.

import { useChatsUnread } from '../api/chats';
import '../chats.css';

export function ChatsUnreadBadge() {
  const unread = useChatsUnread();
  if (unread <= 0) return null;
  return (
    <span className="nav-count" data-testid="chats-unread">
      <span aria-hidden="true">{unread > 99 ? '99+' : unread}</span>
      <span className="sr-only">, {unread} unread</span>
    </span>
  );
}
