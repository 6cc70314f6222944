// The socket in React: the tab's LiveSocket from context, the connection's
// state, and a topic's newest state (or each of its updates) while a
// component is mounted.

import { createContext, useContext, useEffect, useEffectEvent, useReducer } from 'react';
import { useAtomValue } from 'jotai';
import { connectionStateAtom, type ConnectionState, type LiveSocket } from './socket';
import { NO_TOPIC, topicAtomFamily, type TopicState } from './topics';

export const LiveSocketContext = createContext<LiveSocket | null>(null);

export function useLiveSocket(): LiveSocket | null {
  return useContext(LiveSocketContext);
}

export function useConnectionState(): ConnectionState {
  return useAtomValue(connectionStateAtom);
}

/**
 * Subscribe to `topic` while mounted and hand each of its updates' data to
 * `onUpdate` (the newest callback; snapshots are not updates). For a screen
 * that reacts to a kind of push rather than shows the topic.
 */
export function useTopicUpdates<T = unknown>(topic: string | null, onUpdate: (data: T) => void): void {
  const socket = useLiveSocket();
  const handle = useEffectEvent((data: unknown) => onUpdate(data as T));
  useEffect(() => {
    if (!socket || !topic) return undefined;
    const stopListening = socket.onUpdate(topic, (data) => handle(data));
    const release = socket.subscribe(topic);
    return () => {
      stopListening();
      release();
    };
  }, [socket, topic]);
}

/** Subscribe while mounted; returns the topic's newest `{seq, data}` or null. */
export function useTopic<T = unknown>(topic: string | null): TopicState<T> | null {
  const socket = useLiveSocket();
  const topicAtom = topic ? topicAtomFamily(topic) : NO_TOPIC;
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    if (!socket || !topic) return undefined;
    return socket.subscribe(topic);
  }, [socket, topic]);
  useEffect(() => {
    // Between this render and its effects the topic's last release may have
    // run out and removed the entry read above; the subscription now fills a
    // new one, so render again to read that.
    if (topic && topicAtomFamily(topic) !== topicAtom) rerender();
  }, [topic, topicAtom]);
  const value = useAtomValue(topicAtom);
  return topic ? (value as TopicState<T> | null) : null;
}
