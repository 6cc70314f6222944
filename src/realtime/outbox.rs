//! A connection's bounded outbound queue. The hub pushes pre-serialised
//! frames into it without ever waiting; the connection's writer drains it at
//! whatever pace the client reads.
//!
//! - State topics (`event:`, `game:`, `season:`) carry the whole state in
//!   every update, so a queued-but-unsent update is replaced by a newer one
//!   of the same topic (coalescing): a slow reader gets the latest state, not
//!   a backlog.
//! - Per topic, nothing at or below the last seq the client has is queued.
//! - While a subscription waits for its snapshot, updates of that topic are
//!   held back and released after the snapshot, so nothing slips between the
//!   snapshot read and the hub registration.
//! - A queue that still grows past its limit closes the connection with a
//!   reason; the hub never blocks on a slow client.

use bytestring::ByteString;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex, PoisonError};
use tokio::sync::Notify;

/// What kind of frame, for coalescing and ordering decisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameKind {
    Snapshot,
    Update,
    /// Replies, errors, pongs: never coalesced or dropped.
    Control,
}

/// One serialised text frame, shared (cheaply cloned) between subscribers.
#[derive(Clone, Debug)]
pub struct Frame {
    pub kind: FrameKind,
    pub topic: Option<Arc<str>>,
    pub seq: i64,
    pub bytes: ByteString,
}

impl Frame {
    pub fn control(bytes: impl Into<ByteString>) -> Self {
        Frame { kind: FrameKind::Control, topic: None, seq: 0, bytes: bytes.into() }
    }
}

/// Topics whose every message is the whole state: safe to coalesce. The
/// contract names `event:`, `game:` and `season:`; `team:`, `roster:` and
/// `spots:` documents are whole states too.
pub fn is_state_topic(topic: &str) -> bool {
    ["event:", "game:", "season:", "team:", "roster:", "spots:"].iter().any(|p| topic.starts_with(p))
}

/// Topics whose every update is one item or change (`feed:`, `matches:`,
/// `notifications:`):
/// each is delivered, in whatever order the bus brings them, as long as it
/// is newer than the snapshot (the client merges them by id).
pub fn is_item_topic(topic: &str) -> bool {
    topic.starts_with("feed:") || topic.starts_with("matches:") || topic.starts_with("notifications:")
}

/// Why the server closes a connection on its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CloseReason {
    pub code: u16,
    pub message: String,
}

/// What the writer gets next.
pub enum Next {
    Frame(Frame),
    Close(CloseReason),
    /// The reader went away; stop quietly.
    Done,
}

/// A connection's few topics and a value each: a list, not a hash map —
/// a connection watches one to a few topics (at most `WS_MAX_SUBSCRIPTIONS`),
/// and this is looked up once per delivery, so a short scan beats hashing
/// the topic, and holds a few bytes instead of a table.
struct TopicMap<V>(Vec<(Arc<str>, V)>);

impl<V> Default for TopicMap<V> {
    fn default() -> Self {
        TopicMap(Vec::new())
    }
}

impl<V> TopicMap<V> {
    fn get_mut(&mut self, topic: &str) -> Option<&mut V> {
        self.0.iter_mut().find(|(t, _)| &**t == topic).map(|(_, v)| v)
    }

    fn insert(&mut self, topic: Arc<str>, value: V) {
        match self.get_mut(&topic) {
            Some(v) => *v = value,
            None => self.0.push((topic, value)),
        }
    }

    fn remove(&mut self, topic: &str) -> Option<V> {
        let i = self.0.iter().position(|(t, _)| &**t == topic)?;
        Some(self.0.swap_remove(i).1)
    }
}

#[derive(Default)]
struct State {
    queue: VecDeque<Frame>,
    /// The highest seq queued or sent per topic.
    last_seq: TopicMap<i64>,
    /// Topics waiting for their snapshot, with the updates held back.
    pending: TopicMap<Vec<Frame>>,
    close: Option<CloseReason>,
    done: bool,
}

/// Where a frame of a topic goes.
enum Place {
    /// Held back until the topic's snapshot.
    Hold,
    /// At or below what the client has.
    Drop,
    /// Over the queued, older update of the same state topic.
    Replace(usize),
    Append,
}

impl State {
    /// Decides where a frame of `topic` goes, moving the topic's seq. The
    /// common case — an update, no snapshot pending, nothing of the topic
    /// queued — hashes the topic once (this runs once per subscriber per
    /// update).
    fn place(&mut self, topic: &Arc<str>, kind: FrameKind, seq: i64) -> Place {
        if self.pending.get_mut(topic).is_some() {
            return Place::Hold;
        }
        // An item topic's floor is its snapshot: later items all pass.
        let keeps_floor = !(kind == FrameKind::Update && is_item_topic(topic));
        match self.last_seq.get_mut(topic) {
            Some(last) if seq <= *last => return Place::Drop,
            Some(last) if keeps_floor => *last = seq,
            Some(_) => {}
            None if keeps_floor => {
                self.last_seq.insert(topic.clone(), seq);
            }
            None => {}
        }
        if kind == FrameKind::Update && is_state_topic(topic) {
            let queued = self.queue.iter().position(|f| f.kind == FrameKind::Update && f.topic.as_ref() == Some(topic));
            if let Some(i) = queued {
                return Place::Replace(i);
            }
        }
        Place::Append
    }
}

pub struct Outbox {
    state: Mutex<State>,
    notify: Notify,
    /// Wakes the reader when the server decides to close the connection.
    closing: Notify,
    /// Past this many queued frames the connection is closed as too slow.
    max_queue: usize,
}

/// Close code for a client that cannot keep up (1008 = policy violation).
pub const TOO_SLOW: u16 = 1008;

impl Outbox {
    pub fn new(max_queue: usize) -> Arc<Self> {
        Arc::new(Outbox {
            state: Mutex::new(State::default()),
            notify: Notify::new(),
            closing: Notify::new(),
            max_queue,
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // A panic while holding this lock leaves plain data behind; keep going.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Queues a frame (never waits).
    pub fn push(&self, frame: Frame) {
        let mut s = self.lock();
        if s.close.is_some() || s.done {
            return;
        }
        let place = match &frame.topic {
            Some(topic) => s.place(topic, frame.kind, frame.seq),
            None => Place::Append,
        };
        match place {
            Place::Drop => return,
            Place::Hold => {
                if let Some(held) = frame.topic.clone().and_then(|t| s.pending.get_mut(&t)) {
                    held.push(frame);
                }
                return;
            }
            Place::Replace(i) => {
                s.queue[i] = frame;
                return;
            }
            Place::Append => {}
        }
        s.queue.push_back(frame);
        let overflow = s.queue.len() > self.max_queue;
        drop(s);
        if overflow {
            self.close(CloseReason { code: TOO_SLOW, message: "too slow: outbound queue overflow".into() });
        } else {
            self.notify.notify_one();
        }
    }

    /// Starts a subscription: hold updates of `topic` until its snapshot.
    /// `since` is the seq the client already has (nothing at or below it is sent).
    pub fn begin_subscribe(&self, topic: Arc<str>, since: Option<i64>) {
        let mut s = self.lock();
        match since {
            Some(seq) => s.last_seq.insert(topic.clone(), seq),
            None => drop(s.last_seq.remove(&topic)),
        }
        s.pending.insert(topic, Vec::new());
    }

    /// Queues the snapshot, then the held-back updates newer than it.
    pub fn complete_subscribe(&self, snapshot: Frame) {
        let Some(topic) = snapshot.topic.clone() else { return };
        let held = self.lock().pending.remove(&topic).unwrap_or_default();
        // The snapshot is always sent (the contract promises one per
        // subscribe), and it resets the topic's seq to its own.
        {
            let mut s = self.lock();
            s.last_seq.insert(topic.clone(), snapshot.seq.saturating_sub(1));
        }
        self.push(snapshot);
        for frame in held {
            self.push(frame);
        }
    }

    /// A subscription ended or failed: forget its topic state.
    pub fn forget(&self, topic: &str) {
        let mut s = self.lock();
        s.pending.remove(topic);
        s.last_seq.remove(topic);
        s.queue.retain(|f| f.topic.as_deref() != Some(topic));
    }

    /// The server ends the connection: the writer sends the close frame
    /// and the reader stops.
    pub fn close(&self, reason: CloseReason) {
        let mut s = self.lock();
        if s.close.is_none() && !s.done {
            s.queue.clear();
            s.close = Some(reason);
        }
        drop(s);
        self.notify.notify_one();
        self.closing.notify_one();
    }

    /// Resolves once [`Outbox::close`] was called.
    pub async fn closing(&self) {
        self.closing.notified().await;
    }

    /// The reader ended: wake the writer so it stops.
    pub fn finish(&self) {
        self.lock().done = true;
        self.notify.notify_one();
    }

    pub fn len(&self) -> usize {
        self.lock().queue.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Waits for the next thing to write.
    pub async fn next(&self) -> Next {
        loop {
            {
                let mut s = self.lock();
                // A close decided by the server wins over the reader's exit,
                // so the client learns why.
                if let Some(reason) = s.close.take() {
                    s.done = true;
                    return Next::Close(reason);
                }
                if s.done {
                    return Next::Done;
                }
                if let Some(frame) = s.queue.pop_front() {
                    return Next::Frame(frame);
                }
            }
            self.notify.notified().await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn update(topic: &str, seq: i64) -> Frame {
        Frame { kind: FrameKind::Update, topic: Some(topic.into()), seq, bytes: format!("{topic}@{seq}").into() }
    }

    fn drain(o: &Outbox) -> Vec<String> {
        let mut s = o.lock();
        s.queue.drain(..).map(|f| f.bytes.to_string()).collect()
    }

    #[test]
    fn a_queued_state_update_is_replaced_by_a_newer_one() {
        let o = Outbox::new(100);
        o.push(update("game:1", 1));
        o.push(update("game:2", 1));
        o.push(update("game:1", 2));
        o.push(update("game:1", 3));
        assert_eq!(drain(&o), vec!["game:1@3", "game:2@1"]);
    }

    #[test]
    fn feed_updates_are_never_coalesced() {
        let o = Outbox::new(100);
        o.push(update("feed", 1));
        o.push(update("feed", 2));
        assert_eq!(drain(&o), vec!["feed@1", "feed@2"]);
    }

    #[test]
    fn stale_and_repeated_seqs_are_dropped() {
        let o = Outbox::new(100);
        o.push(update("game:1", 5));
        o.push(update("game:1", 5));
        o.push(update("game:1", 4));
        assert_eq!(drain(&o), vec!["game:1@5"]);
    }

    #[test]
    fn updates_wait_for_the_snapshot_and_older_ones_are_dropped() {
        let o = Outbox::new(100);
        o.begin_subscribe("feed".into(), None);
        o.push(update("feed", 3));
        o.push(update("feed", 5));
        let snap = Frame { kind: FrameKind::Snapshot, topic: Some("feed".into()), seq: 3, bytes: "snap@3".into() };
        o.complete_subscribe(snap);
        assert_eq!(drain(&o), vec!["snap@3", "feed@5"]);
    }

    #[test]
    fn overflow_closes_with_a_reason() {
        let o = Outbox::new(3);
        for i in 0..4 {
            o.push(Frame::control(format!("c{i}")));
        }
        let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
        match rt.block_on(o.next()) {
            Next::Close(reason) => assert_eq!(reason.code, TOO_SLOW),
            _ => panic!("expected a close"),
        }
    }
}
