// The tab's live connection, as the rest of the app imports it (`lib/ws`):
// the socket (socket.ts), what its topics hold and how their updates are
// taken (topics.ts), the wire's types and errors (protocol.ts), and the
// React hooks (hooks.ts). The one re-exporting module of the client, against
// STYLE.md's "no barrel files" on purpose: lib/ws.ts was one module with
// sixty-odd importers, and they keep importing it by the same name; a
// module here imports its siblings directly, never this one.

export { CommandRejectedError, UnknownOutcomeError, type CommandBody, type WebSocketLike } from './protocol';
export { connectionStateAtom, defaultSocketUrl, LiveSocket, SYNC_BURST, SYNC_BURST_GAP_MS, type ConnectionState, type LiveSocketOptions } from './socket';
export { foldTopicUpdates, mergeTopicUpdates, releaseWithTopic, topicAtomFamily, type MergeOutcome, type TopicState, type UpdateSeqs } from './topics';
export { LiveSocketContext, useConnectionState, useLiveSocket, useTopic, useTopicUpdates } from './hooks';
