// The wire of the tab's socket (CONTRACT.md › WebSocket): the frames the
// server sends, the body of a command, the two ways a command can end
// without its data, and the slice of the browser's WebSocket the socket
// uses (so tests can fake it).

/**
 * A command's body as the transport sees it: a `kind` and whatever fields
 * that kind has. The feature that owns a command types it (an RSVP in
 * features/events, a scoring action in features/games); this module only
 * frames, sends, re-sends and settles it.
 */
export interface CommandBody {
  readonly kind: string;
}

/** What the server sends, as the socket reads it: generated from the API
 * document's frame schemas (lib/api/frames.ts). */
export type { ServerFrame } from '../api/frames';

/**
 * The command's reply did not arrive in time. It may or may not have been
 * applied: callers should refresh state (the topic will tell) rather than
 * report a failure or blindly retry with a new id.
 */
export class UnknownOutcomeError extends Error {
  readonly commandId: string;
  /** False when the frame never left this tab (no connection the whole time). */
  readonly wasSent: boolean;
  constructor(commandId: string, wasSent: boolean) {
    super(
      wasSent
        ? 'No answer from the server yet. Your change may still have gone through.'
        : 'Not connected. Your change was not sent.',
    );
    this.name = 'UnknownOutcomeError';
    this.commandId = commandId;
    this.wasSent = wasSent;
  }
}

/** The server answered the command with `ok: false`: it was not applied. */
export class CommandRejectedError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'CommandRejectedError';
    this.code = code;
  }
}

/** The subset of the browser WebSocket this module uses, so tests can fake it. */
export interface WebSocketLike {
  readonly readyState: number;
  onopen: ((ev: Event) => void) | null;
  onclose: ((ev: CloseEvent) => void) | null;
  onmessage: ((ev: MessageEvent) => void) | null;
  onerror: ((ev: Event) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

/** `WebSocket.OPEN`. */
export const OPEN = 1;
