// A stand-in for the tab's LiveSocket in component tests: records
// subscriptions and commands, lets the test settle each command and
// deliver updates to `onUpdate` listeners.

import { vi } from 'vitest';
import type { CommandBody, LiveSocket } from '../lib/ws';

export interface PendingTestCommand {
  command: CommandBody;
  /** The id (idempotency key) the caller gave, if any. */
  id?: string;
  resolve: (data: unknown) => void;
  reject: (err: Error) => void;
}

export function fakeLiveSocket() {
  const commands: PendingTestCommand[] = [];
  const subscribe = vi.fn<(topic: string) => () => void>(() => () => {});
  const resubscribe = vi.fn<(topic: string, since?: number) => boolean>(() => true);
  const command = vi.fn(
    (cmd: CommandBody, _timeoutMs?: number, id?: string) =>
      new Promise<unknown>((resolve, reject) => {
        commands.push({ command: cmd, id, resolve, reject });
      }),
  );
  const listeners = new Map<string, Set<(data: unknown) => void>>();
  const onUpdate = vi.fn((topic: string, listener: (data: unknown) => void) => {
    const set = listeners.get(topic) ?? new Set();
    set.add(listener);
    listeners.set(topic, set);
    return () => void set.delete(listener);
  });
  const socket = { subscribe, resubscribe, command, onUpdate } as unknown as LiveSocket;
  return {
    socket,
    subscribe,
    resubscribe,
    command,
    commands,
    /** Deliver an `update` of `topic` to whoever listens (`useTopicUpdates`). */
    emitUpdate(topic: string, data: unknown): void {
      for (const l of Array.from(listeners.get(topic) ?? [])) l(data);
    },
    /** The newest command not yet settled by the test. */
    last(): PendingTestCommand {
      const c = commands[commands.length - 1];
      if (!c) throw new Error('no command was sent');
      return c;
    },
  };
}
