// The score keeper's actions as they go over the wire: the body of POST
// /games/ID/actions, and the same fields in a `gameAction` socket command
// (CONTRACT.md › Games).

/** One scoring action. */
export type GameActionBody =
  | { type: 'START' }
  | { type: 'GOAL'; rosterId: string; scorerId?: string; assistIds?: string[] }
  | { type: 'PENALTY'; rosterId: string; playerId: string; minutes: number }
  | { type: 'END_PERIOD' }
  | { type: 'FINAL' }
  | { type: 'UNDO' };

/** A scoring action as a socket command. */
export type GameActionCommand = { kind: 'gameAction'; gameId: string } & GameActionBody;
