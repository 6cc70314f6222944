import { describe, expect, it } from 'vitest';
import { DORA, makeChatMessage, makeChatsList, makeConversation, ME, minute, SID } from '../testing';
import { allowedOn, listView, mergeChatsUpdate, previewOf, type ChatsDoc } from './conversations';

describe('mergeChatsUpdate', () => {
  it('takes the conversation’s count and its last message from each update, and sums my total', () => {
    const held: ChatsDoc = { unread: 2, conversations: [{ id: 'roster-r-1', unread: 2, muted: false }, { id: 'event-e-9', unread: 5, muted: true }] };
    const last = makeChatMessage({ seq: 7, conversationId: 'event-e-1' });
    const out = mergeChatsUpdate(held, { conversationId: 'event-e-1', version: 7, unread: 1, lastMessage: last });
    if (out.kind !== 'merged') throw new Error('not merged');
    expect(out.data.unread).toBe(3);
    expect(out.data.conversations).toEqual([
      { id: 'roster-r-1', unread: 2, muted: false },
      { id: 'event-e-9', unread: 5, muted: true },
      { id: 'event-e-1', unread: 1, muted: false },
    ]);
    expect(out.data.last?.['event-e-1']).toBe(last);
    // My read mark moved: the count drops to what is left.
    const read = mergeChatsUpdate(out.data, { conversationId: 'roster-r-1', version: 3, unread: 0, lastMessage: null });
    if (read.kind !== 'merged') throw new Error('not merged');
    expect(read.data.unread).toBe(1);
    expect(read.data.conversations.find((c) => c.id === 'roster-r-1')?.unread).toBe(0);
    // A count older than the one held (two quick messages, pushed out of order) changes nothing.
    const stale = mergeChatsUpdate(read.data, { conversationId: 'event-e-1', version: 6, unread: 0, lastMessage: null });
    if (stale.kind !== 'merged') throw new Error('not merged');
    expect(stale.data.unread).toBe(1);
    expect(stale.data.last?.['event-e-1']).toBe(last);
  });
});

describe('listView', () => {
  const owls = makeConversation({ id: 'roster-r-1', title: 'Owls', unread: 2, lastMessage: makeChatMessage({ seq: 5, createdAt: minute(5) }) });
  const skate = makeConversation({ id: 'event-e-1', kind: 'EVENT', subjectId: 'e-1', title: 'Tuesday skate', unread: 0, lastMessage: makeChatMessage({ seq: 3, conversationId: 'event-e-1', createdAt: minute(3) }) });
  const quiet = makeConversation({ id: 'roster-r-2', title: 'Bears', unread: 0, lastMessage: null });
  const list = makeChatsList([owls, skate, quiet]);

  it('shows the list’s counts until the topic speaks, then the topic’s (a conversation it does not name has none)', () => {
    expect(listView(list, null).items.map((c) => [c.id, c.unread])).toEqual([
      ['roster-r-1', 2],
      ['event-e-1', 0],
      ['roster-r-2', 0],
    ]);
    expect(listView(list, null).unread).toBe(2);
    const live: ChatsDoc = { unread: 4, conversations: [{ id: 'event-e-1', unread: 4 }] };
    const view = listView(list, live);
    expect(view.items.map((c) => [c.id, c.unread])).toEqual([
      ['roster-r-1', 0],
      ['event-e-1', 4],
      ['roster-r-2', 0],
    ]);
    expect(view.unread).toBe(4);
  });

  it('brings a conversation with a newer message to the top, with its preview', () => {
    const newer = makeChatMessage({ seq: 4, conversationId: 'event-e-1', author: DORA, body: 'who has the puck bag', createdAt: minute(9) });
    const view = listView(list, { unread: 1, conversations: [{ id: 'event-e-1', unread: 1 }], last: { 'event-e-1': newer } });
    expect(view.items.map((c) => c.id)).toEqual(['event-e-1', 'roster-r-1', 'roster-r-2']);
    expect(view.items[0]?.lastMessage).toBe(newer);
  });
});

describe('previewOf', () => {
  it('says who wrote the last message and its first words in one line', () => {
    expect(previewOf(makeChatMessage({ author: SID, body: 'see you at 9' }), ME.id)).toBe('Sid: see you at 9');
    expect(previewOf(makeChatMessage({ author: ME, body: 'on my\nway' }), ME.id)).toBe('You: on my way');
    expect(previewOf(makeChatMessage({ body: null, deletedAt: minute(2) }), ME.id)).toBe('Message deleted');
    expect(previewOf(null, ME.id)).toBe('No messages yet');
    const long = previewOf(makeChatMessage({ body: 'x'.repeat(200) }), ME.id);
    expect(long.endsWith('…')).toBe(true);
    expect([...long].length).toBe('Sid: '.length + 80);
  });
});

describe('allowedOn', () => {
  it('lets an author edit and delete theirs, a moderator delete anyone’s, and nobody touch a deleted one', () => {
    expect(allowedOn(makeChatMessage({ author: ME }), ME.id, false)).toEqual({ edit: true, remove: true });
    expect(allowedOn(makeChatMessage({ author: SID }), ME.id, false)).toEqual({ edit: false, remove: false });
    expect(allowedOn(makeChatMessage({ author: SID }), ME.id, true)).toEqual({ edit: false, remove: true });
    expect(allowedOn(makeChatMessage({ author: ME, body: null, deletedAt: minute(1) }), ME.id, true)).toEqual({ edit: false, remove: false });
  });
});
