// `/chats` and `/chats/:id`: my conversations beside the open one on a wide
// screen; on a phone the list, then the thread in its place (with a way
// back), the same page in two steps.

import { useParams } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state';
import { ChatIcon } from '../../../components/ui/icons';
import { ConversationList } from './conversation-list';
import { Thread } from './thread';
import '../chats.css';

export function ChatsPage() {
  const { id } = useParams();
  return (
    <div className={`chats${id ? ' chats--open' : ''}`} data-testid="chats-page">
      <aside className="chats__list" aria-label="Conversations">
        <h1 className="chats__heading">Messages</h1>
        <ConversationList activeId={id ?? null} />
      </aside>
      <section className="chats__thread" aria-label="Conversation">
        {id ? (
          <Thread key={id} conversationId={id} />
        ) : (
          <div className="chats__pick">
            <EmptyState icon={<ChatIcon size={28} />} title="Pick a conversation">
              Your rosters' team chats and your events' chats, in one place.
            </EmptyState>
          </div>
        )}
      </section>
    </div>
  );
}
