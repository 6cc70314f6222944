import { createElement, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { createStore, Provider as JotaiProvider } from 'jotai';
import { fakeLiveSocket } from '../testing/fake-live-socket';
import { ApiError } from './api';
import { isUnknownOutcome, rejectionCode, sendCommand, useSendCommand } from './command';
import { CommandRejectedError, connectionStateAtom, LiveSocketContext, UnknownOutcomeError, type ConnectionState } from './ws';

const rsvp = { kind: 'rsvp', eventId: 'e-1', action: 'ATTENDING' } as const;

describe('sendCommand', () => {
  it('sends over the socket while it is live, and the reply is the outcome', async () => {
    const live = fakeLiveSocket();
    const rest = vi.fn(async () => 'from rest');
    const sent = sendCommand(live.socket, 'live', rsvp, rest);
    expect(live.last().command).toEqual(rsvp);
    live.last().resolve('from socket');
    await expect(sent).resolves.toEqual({ reply: 'from socket', viaSocket: true });
    expect(rest).not.toHaveBeenCalled();
  });

  it.each<ConnectionState>(['connecting', 'reconnecting', 'offline'])('goes over REST with an Idempotency-Key while the socket is %s', async (state) => {
    const live = fakeLiveSocket();
    const rest = vi.fn<(key: string) => Promise<string>>(async () => 'from rest');
    await expect(sendCommand(live.socket, state, rsvp, rest)).resolves.toEqual({ reply: 'from rest', viaSocket: false });
    expect(live.command).not.toHaveBeenCalled();
    expect(rest).toHaveBeenCalledTimes(1);
    expect(rest.mock.calls[0]?.[0]).toMatch(/.{8,}/);
  });

  it('goes over REST when there is no socket at all', async () => {
    const rest = vi.fn<(key: string) => Promise<number>>(async () => 1);
    await expect(sendCommand(null, 'live', rsvp, rest)).resolves.toEqual({ reply: 1, viaSocket: false });
  });

  it('gives every command its own Idempotency-Key', async () => {
    const keys: string[] = [];
    const rest = async (key: string) => {
      keys.push(key);
    };
    await sendCommand(null, 'offline', rsvp, rest);
    await sendCommand(null, 'offline', rsvp, rest);
    expect(keys).toHaveLength(2);
    expect(keys[0]).not.toBe(keys[1]);
  });

  it('sends a kept key as it is: the socket frame\'s id, or the Idempotency-Key', async () => {
    const live = fakeLiveSocket();
    const rest = vi.fn<(key: string) => Promise<string>>(async () => 'from rest');
    await sendCommand(null, 'offline', rsvp, rest, 'r_kept_key_1');
    expect(rest).toHaveBeenCalledWith('r_kept_key_1');
    const sent = sendCommand(live.socket, 'live', rsvp, rest, 'r_kept_key_1');
    expect(live.last().id).toBe('r_kept_key_1');
    live.last().resolve('ok');
    await sent;
  });

  it('passes a refusal or an unknown outcome through untouched', async () => {
    const live = fakeLiveSocket();
    const refused = sendCommand(live.socket, 'live', rsvp, async () => null);
    live.last().reject(new CommandRejectedError('conflict', 'the event is cancelled'));
    await expect(refused).rejects.toBeInstanceOf(CommandRejectedError);

    const unanswered = sendCommand(live.socket, 'live', rsvp, async () => null);
    live.last().reject(new UnknownOutcomeError('c-1', true));
    await expect(unanswered).rejects.toBeInstanceOf(UnknownOutcomeError);

    const lost = new ApiError(0, 'network_error', 'Could not reach Rinkside.');
    await expect(sendCommand(null, 'offline', rsvp, () => Promise.reject(lost))).rejects.toBe(lost);
  });
});

describe('useSendCommand', () => {
  function wrapperFor(state: ConnectionState, socket: ReturnType<typeof fakeLiveSocket>['socket']) {
    const store = createStore();
    store.set(connectionStateAtom, state);
    return {
      store,
      wrapper: ({ children }: { children: ReactNode }) =>
        createElement(JotaiProvider, { store }, createElement(LiveSocketContext.Provider, { value: socket }, children)),
    };
  }

  it('follows the tab socket and its connection state', async () => {
    const live = fakeLiveSocket();
    const { store, wrapper } = wrapperFor('live', live.socket);
    const { result } = renderHook(() => useSendCommand(), { wrapper });

    const viaSocket = result.current(rsvp, async () => 'rest');
    live.last().resolve('socket');
    await expect(viaSocket).resolves.toEqual({ reply: 'socket', viaSocket: true });

    act(() => store.set(connectionStateAtom, 'reconnecting'));
    await expect(result.current(rsvp, async () => 'rest')).resolves.toEqual({ reply: 'rest', viaSocket: false });
    expect(live.command).toHaveBeenCalledTimes(1);
  });
});

describe('isUnknownOutcome', () => {
  it('is true when no answer came: a reply timeout, a lost connection, a server error', () => {
    expect(isUnknownOutcome(new UnknownOutcomeError('c-1', true))).toBe(true);
    expect(isUnknownOutcome(new UnknownOutcomeError('c-1', false))).toBe(true);
    expect(isUnknownOutcome(new ApiError(0, 'network_error', 'offline'))).toBe(true);
    expect(isUnknownOutcome(new ApiError(503, 'internal', 'unavailable'))).toBe(true);
  });

  it('is false when the server refused (nothing changed)', () => {
    expect(isUnknownOutcome(new CommandRejectedError('conflict', 'full'))).toBe(false);
    expect(isUnknownOutcome(new ApiError(409, 'conflict', 'full'))).toBe(false);
    expect(isUnknownOutcome(new ApiError(403, 'forbidden', 'no'))).toBe(false);
    expect(isUnknownOutcome(new Error('boom'))).toBe(false);
  });
});

describe('rejectionCode', () => {
  it('is the code the server sent, over either path', () => {
    expect(rejectionCode(new CommandRejectedError('forbidden', 'no'))).toBe('forbidden');
    expect(rejectionCode(new ApiError(409, 'conflict', 'full'))).toBe('conflict');
    expect(rejectionCode(new Error('boom'))).toBeNull();
  });
});
