// What the socket's topics hold and how they are kept: the newest
// `{seq, data}` of each topic in a jotai atom family (entries live as long
// as the topic's subscription, and so do the entries of the features'
// families registered with `releaseWithTopic`), and the registries by which
// a feature says how its topics' updates fold or merge into what is held
// (`foldTopicUpdates`, `mergeTopicUpdates`). The socket (socket.ts) reads
// them per frame; nothing here sends.

import { atom, type Atom, type ExtractAtomValue, type PrimitiveAtom } from 'jotai';
import { atomFamily, type AtomFamily } from 'jotai-family';
import type { getDefaultStore } from 'jotai';

/** The jotai store topics are kept in (the default one, or a test's). */
export type JotaiStore = ReturnType<typeof getDefaultStore>;

/** The newest state the server pushed for a topic. */
export interface TopicState<T = unknown> {
  seq: number;
  data: T;
}

/**
 * topic → newest `{seq, data}` (null until the first snapshot). The entry is
 * removed when the topic is released (its last subscriber gone and the
 * linger over), so a long session does not keep every topic it ever saw.
 */
export const topicAtomFamily: AtomFamily<string, PrimitiveAtom<TopicState | null>> = atomFamily(() => atom<TopicState | null>(null));

/** What `useTopic(null)` reads: nothing, without adding an entry to the family. */
export const NO_TOPIC = atom<TopicState | null>(null);

type TopicRelease = (id: string, store: JotaiStore) => void;

/** Topic prefix (`event` of `event:ID`) → what to forget of ID when such a topic is released. */
const releaseHooks = new Map<string, TopicRelease[]>();

/**
 * Remove `family`'s entry for ID whenever the topic `PREFIX:ID` is released,
 * as `topicAtomFamily`'s own entry is: for a feature's atoms that derive from
 * a topic or only matter while it is followed. `keep` may spare an entry that
 * still holds something in flight (it then goes with a later release).
 */
export function releaseWithTopic<A extends Atom<unknown>>(
  prefix: string,
  family: AtomFamily<string, A>,
  keep?: (value: ExtractAtomValue<A>) => boolean,
): void {
  const hooks = releaseHooks.get(prefix) ?? [];
  hooks.push((id, store) => {
    if (!Array.from(family.getParams()).includes(id)) return;
    if (keep && keep(store.get(family(id)) as ExtractAtomValue<A>)) return;
    family.remove(id);
  });
  releaseHooks.set(prefix, hooks);
}

/**
 * How an `update` folds into what a topic holds, for topics whose updates
 * are pieces rather than the whole document (a `feed` update is one item).
 * A fold must be idempotent and order-free: such topics take every update,
 * also one whose `seq` is not above the last (the server may publish two
 * items' frames out of order; the fold's merge decides which version wins),
 * and each update is folded in as it arrives, so none is lost to batching.
 */
export type TopicFold = (held: unknown, update: unknown) => unknown;

const topicFolds = new Map<string, TopicFold>();

/** Fold updates of the topic named PREFIX (or `PREFIX:ID`) into its data with `fold`. */
export function foldTopicUpdates(prefix: string, fold: TopicFold): void {
  topicFolds.set(prefix, fold);
}

/**
 * What a topic's merge made of one update (`mergeTopicUpdates`): the
 * topic's new data, or a gap: the update does not fit what is held because
 * something in between was missed, so the socket asks for a fresh snapshot.
 */
export type MergeOutcome<T = unknown> = { kind: 'merged'; data: T } | { kind: 'gap' };

/**
 * The frame seqs around one update, for a merge whose topic's seq counts
 * changes one by one (a `chat:` topic's seq is the conversation's version,
 * +1 per post, edit or delete), so that a skipped number is a gap the data
 * alone would not show. `held` is the seq of what the topic holds.
 */
export interface UpdateSeqs {
  held: number | null;
  update: number;
}

export type TopicMerge = (held: unknown, update: unknown, seqs: UpdateSeqs) => MergeOutcome;

const topicMerges = new Map<string, TopicMerge>();

/**
 * Merge each `update` of the topic named PREFIX (or `PREFIX:ID`) into its
 * data with `merge`, for topics whose updates carry only the recent part of
 * the state (a `game:` update has the last entries of the log, not all of
 * it, and no player lists). Unlike a fold, the topic stays ordered: an
 * update whose `seq` is not above the last is dropped before `merge` sees
 * it. When `merge` says `gap`, the update is not taken (the topic keeps
 * what it showed, consistent if a little behind) and the topic is
 * re-subscribed with `since`; the snapshot that answers replaces it all.
 */
export function mergeTopicUpdates<T, U>(prefix: string, merge: (held: T, update: U, seqs: UpdateSeqs) => MergeOutcome<T>): void {
  topicMerges.set(prefix, merge as TopicMerge);
}

function byPrefix<V>(registry: Map<string, V>, topic: string): V | undefined {
  const colon = topic.indexOf(':');
  return registry.get(colon < 0 ? topic : topic.slice(0, colon));
}

/** How updates of `topic` fold into what it holds, if its kind folds. */
export function topicFold(topic: string): TopicFold | undefined {
  return byPrefix(topicFolds, topic);
}

/** How updates of `topic` merge into what it holds, if its kind merges. */
export function topicMerge(topic: string): TopicMerge | undefined {
  return byPrefix(topicMerges, topic);
}

/** Drop what the atom families hold for a released topic. */
export function forgetTopic(topic: string, store: JotaiStore): void {
  topicAtomFamily.remove(topic);
  const colon = topic.indexOf(':');
  if (colon < 0) return;
  const id = topic.slice(colon + 1);
  for (const release of releaseHooks.get(topic.slice(0, colon)) ?? []) release(id, store);
}
