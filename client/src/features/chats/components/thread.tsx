// `/chats/:id`'s conversation: its header (title, what it belongs to,
// Mute), the messages oldest first under their days with the newest at the
// bottom ("Load earlier" above), and the composer. Live on `chat:{id}`;
// while it is on screen, in a visible tab and scrolled to the bottom, it is
// marked read up to the newest message, which clears its unread counts.

import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ApiError, errorMessage } from '../../../lib/api';
import type { ChatMessage, ConversationPage } from '../../../lib/api-types';
import { useCurrentUser } from '../../../lib/auth/auth-context';
import { displayName } from '../../../lib/format';
import { usePageVisible } from '../../../lib/use-page-visible';
import { Alert } from '../../../components/ui/alert';
import { Button, ButtonLink } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { BellIcon, BellOffIcon, ChatIcon, ChevronLeftIcon } from '../../../components/ui/icons';
import { PageSpinner } from '../../../components/ui/spinner';
import { useMute } from '../api/chats';
import { useSendMessage } from '../api/outbox';
import { useMarkRead, useThread } from '../api/thread';
import { kindOfId } from '../model/conversations';
import { fullWhen, groupByDay } from '../model/days';
import { firstUnreadSeq } from '../model/messages';
import type { ThreadItem } from '../model/outbox';
import { Composer } from './composer';
import { MessageRow, PendingRow } from './message-row';

/** Nearer the bottom than this counts as at the bottom. */
const BOTTOM_SLACK_PX = 48;
/** The same author within this long shows as one run (one name and avatar). */
const RUN_MS = 5 * 60_000;

export function Thread({ conversationId }: { conversationId: string }) {
  const me = useCurrentUser();
  const thread = useThread(conversationId, me.id);
  const { head } = thread;

  if (head.isPending) return <PageSpinner label="Loading messages" />;
  if (!head.data) return <ThreadRefused conversationId={conversationId} error={head.error} retry={() => void head.refetch()} />;
  return <ThreadView conversation={head.data} thread={thread} />;
}

/** Why a conversation cannot be shown: not mine to read (403), nothing by that name (404), or the server out of reach. */
function ThreadRefused({ conversationId, error, retry }: { conversationId: string; error: unknown; retry: () => void }) {
  const status = error instanceof ApiError ? error.status : 0;
  const kind = kindOfId(conversationId);
  if (status === 403) {
    return (
      <div className="thread thread--state" data-testid="chat-forbidden">
        <EmptyState
          icon={<ChatIcon size={28} />}
          title={kind === 'EVENT' ? "Only the event's players and organisers can read this chat" : "Only the roster's players and staff can read this chat"}
          action={<ButtonLink to="/chats">My conversations</ButtonLink>}
        >
          {kind === 'EVENT' ? 'Say you are in (or join the waitlist) to read and write here.' : 'Ask the team to add you to the roster to read and write here.'}
        </EmptyState>
      </div>
    );
  }
  return (
    <div className="thread thread--state" data-testid="chat-unavailable">
      <EmptyState
        icon={<ChatIcon size={28} />}
        title={status === 404 ? 'No such chat' : 'Could not load this chat'}
        action={status === 404 ? <ButtonLink to="/chats">My conversations</ButtonLink> : <Button variant="secondary" onClick={retry}>Try again</Button>}
      >
        {status === 404 ? 'Its roster or event may have been deleted.' : errorMessage(error)}
      </EmptyState>
    </div>
  );
}

type ThreadState = ReturnType<typeof useThread>;

function ThreadView({ conversation: c, thread }: { conversation: ConversationPage; thread: ThreadState }) {
  const me = useCurrentUser();
  const { send, retry, discard } = useSendMessage(c.id);
  const mute = useMute(c.id);
  const visible = usePageVisible();
  const scrollRef = useRef<HTMLDivElement>(null);
  const [atBottom, setAtBottom] = useState(true);
  const [freshBelow, setFreshBelow] = useState(false);
  const { items, newest, earlier } = thread;

  useMarkRead(c.id, c.readSeq, newest, visible && atBottom);

  // Where the "New" divider goes: the first unread when the thread opened (it stays while reading).
  const [dividerSeq] = useState(() => firstUnreadSeq(thread.messages, c.readSeq ?? 0, me.id));

  const groups = useMemo(() => groupByDay(items, (i) => i.at), [items]);

  // Keep the newest in view: on open, when something arrives while at the
  // bottom, and after my own send; else offer "New messages". A page of
  // history put above keeps what was on screen where it was.
  const firstKey = items[0]?.key;
  const last = items[items.length - 1];
  const lastKey = last?.key;
  const lastMine = last ? last.kind === 'pending' || last.message.author.id === me.id : false;
  const seen = useRef<{ first?: string; last?: string }>({});
  const anchor = useRef<number | null>(null);
  const atBottomRef = useRef(true);
  useLayoutEffect(() => {
    const el = scrollRef.current;
    const was = seen.current;
    seen.current = { first: firstKey, last: lastKey };
    if (!el) return;
    if (firstKey !== was.first && anchor.current !== null) {
      el.scrollTop = el.scrollHeight - anchor.current;
      anchor.current = null;
    }
    if (lastKey !== was.last) {
      if (was.last === undefined || atBottomRef.current || lastMine) el.scrollTop = el.scrollHeight;
      else setFreshBelow(true);
    }
  }, [firstKey, lastKey, lastMine]);

  const onScroll = () => {
    const el = scrollRef.current;
    if (!el) return;
    const bottom = el.scrollHeight - el.scrollTop - el.clientHeight <= BOTTOM_SLACK_PX;
    atBottomRef.current = bottom;
    setAtBottom(bottom);
    if (bottom) setFreshBelow(false);
  };
  const toBottom = () => {
    const el = scrollRef.current;
    if (el) el.scrollTop = el.scrollHeight;
    atBottomRef.current = true;
    setAtBottom(true);
    setFreshBelow(false);
  };
  const loadEarlier = () => {
    const el = scrollRef.current;
    if (el) anchor.current = el.scrollHeight - el.scrollTop;
    earlier.load();
  };

  const subject = c.kind === 'ROSTER' ? `/rosters/${encodeURIComponent(c.subjectId)}` : `/events/${encodeURIComponent(c.subjectId)}`;
  const myName = displayName(me);

  return (
    <div className="thread" data-testid="chat-thread" data-conversation={c.id}>
      <header className="thread__head">
        <Link to="/chats" className="thread__back" aria-label="All conversations">
          <ChevronLeftIcon size={22} />
        </Link>
        <div className="thread__title">
          <h2 className="thread__name" data-testid="chat-title">
            {c.title}
          </h2>
          <Link to={subject} className="thread__subject">
            {c.kind === 'ROSTER' ? 'Team chat · View the roster' : `Event chat${c.startsAt ? ` · ${fullWhen(c.startsAt)}` : ' · View the event'}`}
          </Link>
        </div>
        <Button
          variant="ghost"
          size="sm"
          className="thread__mute"
          icon={c.muted ? <BellOffIcon size={18} /> : <BellIcon size={18} />}
          aria-pressed={c.muted}
          aria-label="Mute notifications"
          title={c.muted ? 'Muted: no notifications from this chat. Tap to unmute.' : 'Mute notifications from this chat'}
          loading={mute.isPending}
          onClick={() => mute.mutate(!c.muted)}
          data-testid="chat-mute"
        >
          {c.muted ? 'Muted' : 'Mute'}
        </Button>
      </header>
      {mute.isError && <Alert tone="error">{errorMessage(mute.error)}</Alert>}

      <div className="thread__scroll" ref={scrollRef} onScroll={onScroll} role="log" aria-label={`Messages in ${c.title}`} data-testid="chat-scroll">
        {earlier.has ? (
          <div className="thread__earlier">
            <Button variant="secondary" size="sm" onClick={loadEarlier} loading={earlier.loading} data-testid="chat-load-earlier">
              Load earlier
            </Button>
          </div>
        ) : (
          items.length > 0 && <p className="thread__start">This is where the chat begins.</p>
        )}
        {earlier.error && <Alert tone="error">{earlier.error}</Alert>}
        {items.length === 0 && (
          <div className="thread__none">
            <EmptyState icon={<ChatIcon size={28} />} title="No messages yet">
              {c.kind === 'ROSTER' ? 'Say hi to the team.' : 'Say hi to everyone coming.'}
            </EmptyState>
          </div>
        )}
        {groups.map((g) => (
          <section key={g.day + g.items[0]?.key} className="thread__day" aria-label={g.label}>
            <h3 className="thread__day-label" data-testid="chat-day">
              <span>{g.label}</span>
            </h3>
            <ol className="thread__list">
              {g.items.map((item, i) => (
                <Row
                  key={item.key}
                  item={item}
                  prev={g.items[i - 1]}
                  divider={dividerSeq !== null && item.kind === 'message' && item.message.seq === dividerSeq}
                  myId={me.id}
                  myName={myName}
                  myImage={me.profileImage}
                  canModerate={c.canModerate}
                  onWritten={(m) => thread.absorb([m])}
                  onRetry={retry}
                  onDiscard={discard}
                />
              ))}
            </ol>
          </section>
        ))}
      </div>
      {freshBelow && !atBottom && (
        <button type="button" className="thread__fresh" onClick={toBottom} data-testid="chat-new-below">
          New messages ↓
        </button>
      )}
      <Composer title={c.title} onSend={(text) => send(text, newest)} />
    </div>
  );
}

function authorOf(item: ThreadItem, myId: string): string {
  return item.kind === 'message' ? item.message.author.id : myId;
}

/** Same author as the item before, within a few minutes, neither deleted: one run. */
function continues(item: ThreadItem, prev: ThreadItem | undefined, myId: string): boolean {
  if (!prev) return false;
  if (item.kind === 'message' && item.message.deletedAt) return false;
  if (prev.kind === 'message' && prev.message.deletedAt) return false;
  if (authorOf(item, myId) !== authorOf(prev, myId)) return false;
  return Math.abs(Date.parse(item.at) - Date.parse(prev.at)) < RUN_MS;
}

interface RowProps {
  item: ThreadItem;
  prev: ThreadItem | undefined;
  divider: boolean;
  myId: string;
  myName: string;
  myImage: string | null;
  canModerate: boolean;
  onWritten: (m: ChatMessage) => void;
  onRetry: () => void;
  onDiscard: (key: string) => void;
}

function Row({ item, prev, divider, myId, myName, myImage, canModerate, onWritten, onRetry, onDiscard }: RowProps) {
  const continued = !divider && continues(item, prev, myId);
  return (
    <>
      {divider && (
        <li className="thread__divider" data-testid="chat-unread-divider" aria-label="New messages">
          <span>New</span>
        </li>
      )}
      {item.kind === 'message' ? (
        <MessageRow message={item.message} myId={myId} canModerate={canModerate} continued={continued} onWritten={onWritten} />
      ) : (
        <PendingRow pending={item.pending} continued={continued} myName={myName} myImage={myImage} onRetry={onRetry} onDiscard={onDiscard} />
      )}
    </>
  );
}
