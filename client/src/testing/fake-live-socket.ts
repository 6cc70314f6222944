// A stand-in for the tab's LiveSocket in component tests: records
// subscriptions and commands, and lets the test settle each command.

import { vi } from 'vitest';
import type { CommandBody, LiveSocket } from '../lib/ws';

export interface PendingTestCommand {
  command: CommandBody;
  resolve: (data: unknown) => void;
  reject: (err: Error) => void;
}

export function fakeLiveSocket() {
  const commands: PendingTestCommand[] = [];
  const subscribe = vi.fn<(topic: string) => () => void>(() => () => {});
  const command = vi.fn(
    (cmd: CommandBody) =>
      new Promise<unknown>((resolve, reject) => {
        commands.push({ command: cmd, resolve, reject });
      }),
  );
  const socket = { subscribe, command } as unknown as LiveSocket;
  return {
    socket,
    subscribe,
    command,
    commands,
    /** The newest command not yet settled by the test. */
    last(): PendingTestCommand {
      const c = commands[commands.length - 1];
      if (!c) throw new Error('no command was sent');
      return c;
    },
  };
}
