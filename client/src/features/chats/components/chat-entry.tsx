// The way into a conversation from what it belongs to: the roster page's
// "Team chat" card (the last message and my unread count, live) and the
// event page's "Chat" button. The page decides who sees it (a roster's
// players and staff; an event's players and organisers) and composes it in
// app/; a refusal still gets its clear answer on the chat page.

import { useCurrentUser } from '../../../lib/auth/auth-context';
import { ButtonLink } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { ChatIcon } from '../../../components/ui/icons';
import { useChatsView } from '../api/chats';
import { previewOf } from '../model/conversations';
import '../chats.css';

export const rosterConversationId = (rosterId: string) => `roster-${rosterId}`;
export const eventConversationId = (eventId: string) => `event-${eventId}`;

function UnreadPill({ unread }: { unread: number }) {
  if (unread <= 0) return null;
  return (
    <span className="nav-count nav-count--inline" data-testid="chat-entry-unread">
      <span aria-hidden="true">{unread > 99 ? '99+' : unread}</span>
      <span className="sr-only">, {unread} unread</span>
    </span>
  );
}

/** The roster page's card. */
export function TeamChatCard({ rosterId }: { rosterId: string }) {
  const me = useCurrentUser();
  const id = rosterConversationId(rosterId);
  const { items } = useChatsView();
  const c = items.find((i) => i.id === id);
  return (
    <Card className="chat-entry" data-testid="team-chat-card">
      <CardHeader
        title="Team chat"
        subtitle={
          c?.lastMessage ? (
            <span className="chat-entry__preview" data-testid="team-chat-preview">
              {previewOf(c.lastMessage, me.id)}
            </span>
          ) : (
            'The roster’s players and staff, in one conversation.'
          )
        }
        action={
          <ButtonLink to={`/chats/${encodeURIComponent(id)}`} variant="primary" icon={<ChatIcon size={18} />} data-testid="open-team-chat">
            Open chat <UnreadPill unread={c?.unread ?? 0} />
          </ButtonLink>
        }
      />
    </Card>
  );
}

/** The event page's button. */
export function EventChatButton({ eventId }: { eventId: string }) {
  const id = eventConversationId(eventId);
  const { items } = useChatsView();
  const unread = items.find((i) => i.id === id)?.unread ?? 0;
  return (
    <ButtonLink to={`/chats/${encodeURIComponent(id)}`} block icon={<ChatIcon size={18} />} className="chat-entry__button" data-testid="open-event-chat">
      Chat <UnreadPill unread={unread} />
    </ButtonLink>
  );
}
