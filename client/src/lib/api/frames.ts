// The WebSocket frames (CONTRACT.md › WebSocket) and each topic's `data`, as
// the OpenAPI document describes them (its components, named by the socket
// operation's `x-websocket`; docs/openapi.md › The WebSocket frames),
// generated into ./schema.d.ts.

import type { components } from './schema';

type Schemas = components['schemas'];

/** A frame the client sends. */
export type ClientFrame = Schemas['ClientFrame'];
/** The `command` of a command frame. */
export type SocketCommand = Schemas['SocketCommand'];
/** A frame the server sends. */
export type ServerFrame = Schemas['ServerFrame'];

/** The topic kinds, by the schema names of their frames (`GameSnapshotFrame`, `GameUpdateFrame`, …). */
type TopicKind =
  | 'Event'
  | 'Game'
  | 'Season'
  | 'Team'
  | 'Roster'
  | 'Feed'
  | 'Matches'
  | 'Spots'
  | 'Follows'
  | 'Notifications'
  | 'Series'
  | 'Availability'
  | 'Chat'
  | 'Chats';

/** The `data` of a topic's snapshot: `SnapshotData<'Game'>` is the game document. */
export type SnapshotData<K extends TopicKind> = Schemas[`${K}SnapshotFrame`]['data'];
/** The `data` of a topic's update: `UpdateData<'Game'>` is the small game update. */
export type UpdateData<K extends TopicKind> = Schemas[`${K}UpdateFrame`]['data'];
