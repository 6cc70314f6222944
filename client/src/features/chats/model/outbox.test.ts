import { describe, expect, it } from 'vitest';
import { makeChatMessage, messagesFrom, ME, minute } from '../testing';
import { buildThread, matchPending, type PendingSend, type ThreadItem } from './outbox';

function pending(over: Partial<PendingSend> = {}): PendingSend {
  return {
    key: 'k-1',
    conversationId: 'roster-r-1',
    body: 'Ice at 9, bring both jerseys',
    createdAt: minute(30),
    afterSeq: 3,
    state: 'sending',
    error: null,
    retryable: false,
    message: null,
    ...over,
  };
}

const shape = (items: ThreadItem[]) => items.map((i) => (i.kind === 'message' ? `${i.message.seq}` : `pending:${i.pending.key}`));

describe('buildThread', () => {
  it('merges the read, pages and live frames by id, then my sends still on their way, oldest first', () => {
    const items = buildThread(
      {
        head: messagesFrom(3, 5),
        held: messagesFrom(1, 3),
        live: messagesFrom(5, 6),
        pending: [pending({ key: 'b', createdAt: minute(41), body: 'second' }), pending({ key: 'a', createdAt: minute(40), body: 'first' })],
      },
      ME.id,
    );
    expect(shape(items)).toEqual(['1', '2', '3', '4', '5', '6', 'pending:a', 'pending:b']);
  });

  it('shows the server’s copy in place of a send once its reply names it, even before any push', () => {
    const mine = makeChatMessage({ seq: 4, author: ME, body: 'Ice at 9, bring both jerseys' });
    const items = buildThread({ head: messagesFrom(1, 3), pending: [pending({ state: 'sent', message: mine })] }, ME.id);
    expect(shape(items)).toEqual(['1', '2', '3', '4']);
    // …and the push of the same message later is the same row.
    expect(shape(buildThread({ head: messagesFrom(1, 3), live: [mine], pending: [pending({ state: 'sent', message: mine })] }, ME.id))).toEqual(['1', '2', '3', '4']);
  });

  it('takes a push of my message as the send it confirms when it beats the reply (or the reply was lost)', () => {
    const mine = makeChatMessage({ seq: 4, author: ME, body: 'Ice at 9, bring both jerseys' });
    for (const state of ['sending', 'unsent', 'queued'] as const) {
      expect(shape(buildThread({ head: messagesFrom(1, 3), live: [mine], pending: [pending({ state })] }, ME.id))).toEqual(['1', '2', '3', '4']);
    }
    // A refused send was never posted: a same-text message is another one.
    expect(shape(buildThread({ head: messagesFrom(1, 3), live: [mine], pending: [pending({ state: 'refused', error: 'No' })] }, ME.id))).toEqual(['1', '2', '3', '4', 'pending:k-1']);
  });

  it('pairs two identical sends with two messages, in the order written, and not with an older one', () => {
    const old = makeChatMessage({ seq: 2, author: ME, body: 'ok' });
    const first = makeChatMessage({ seq: 4, author: ME, body: 'ok' });
    const sends = [pending({ key: 'x', body: 'ok', createdAt: minute(30) }), pending({ key: 'y', body: 'ok', createdAt: minute(31) })];
    const matched = matchPending(sends, [makeChatMessage({ seq: 1 }), old, makeChatMessage({ seq: 3 }), first], ME.id);
    expect([...matched.entries()].map(([k, m]) => [k, m.seq])).toEqual([['x', 4]]);
    expect(shape(buildThread({ head: [makeChatMessage({ seq: 1 }), old, makeChatMessage({ seq: 3 }), first], pending: sends }, ME.id))).toEqual(['1', '2', '3', '4', 'pending:y']);
  });

  it('does not take someone else’s message with the same words for mine', () => {
    const theirs = makeChatMessage({ seq: 4, body: 'Ice at 9, bring both jerseys' });
    expect(shape(buildThread({ head: [...messagesFrom(1, 3), theirs], pending: [pending()] }, ME.id))).toEqual(['1', '2', '3', '4', 'pending:k-1']);
  });
});
