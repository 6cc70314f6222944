//! A connection's bounded outbound queue. The hub pushes pre-serialised
//! frames into it without ever waiting; the connection's writer drains it at
//! whatever pace the client reads, and is the only one to write to the
//! socket: the reader's pings and pongs are queued here too.
//!
//! - State topics (`event:`, `season:`) carry the whole state in every
//!   update, so a queued-but-unsent update is replaced by a newer one of the
//!   same topic (coalescing): a slow reader gets the latest state, not a
//!   backlog. A `game:` update carries the change since a version, so a
//!   newer one is merged into the queued one ([`super::delta`]), never
//!   replacing it. A queued pong is replaced by a newer one the same way (RFC
//!   6455 §5.5.3 allows answering only the latest ping), and a heartbeat ping
//!   is not queued twice.
//! - Per topic, nothing at or below the last seq the client has is queued.
//! - While a subscription waits for its snapshot, updates of that topic are
//!   held back and released after the snapshot, so nothing slips between the
//!   snapshot read and the hub registration.
//! - A queue that still grows past its limit closes the connection with a
//!   reason; the hub never blocks on a slow client.
//!
//! This runs once per subscriber per update, so it is kept lean: frames are
//! shared (`realtime::frame`), and the writer's waker sits under the same
//! lock as the queue (one lock per delivery).

use super::frame::{Frame, FrameKind, TopicClass};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Poll, Waker};
use tokio::sync::Notify;

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
    /// The reader went away and everything queued before was sent: stop,
    /// answering the client's close with its code if it gave one.
    Done(Option<u16>),
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
    /// Subscribers of a topic share the hub's name for it, so the same
    /// pointer is the usual match; the text decides otherwise.
    fn get_mut(&mut self, topic: &str) -> Option<&mut V> {
        let same = |t: &Arc<str>| std::ptr::eq(t.as_ptr(), topic.as_ptr()) && t.len() == topic.len();
        self.0.iter_mut().find(|(t, _)| same(t) || &**t == topic).map(|(_, v)| v)
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
    /// The code of the client's close, echoed in ours (RFC 6455 §5.5.1).
    echo: Option<u16>,
    /// The writer, while it waits for a frame.
    writer: Option<Waker>,
}

/// Where a frame of a topic goes.
enum Place {
    /// Held back until the topic's snapshot.
    Hold,
    /// At or below what the client has.
    Drop,
    /// Over the queued, older update of the same state topic.
    Replace(usize),
    /// Into the queued, older update of the same delta topic.
    Merge(usize),
    Append,
}

impl State {
    /// Decides where a frame goes, moving its topic's seq. The common case
    /// — an update, no snapshot pending, nothing of the topic queued — finds
    /// the topic once (this runs once per subscriber per update).
    fn place(&mut self, frame: &Frame) -> Place {
        let Some(topic) = frame.topic() else {
            return match frame.kind {
                FrameKind::Ping | FrameKind::Pong => match self.queue.iter().position(|f| f.kind == frame.kind) {
                    Some(i) => Place::Replace(i),
                    None => Place::Append,
                },
                _ => Place::Append,
            };
        };
        if self.pending.get_mut(topic).is_some() {
            return Place::Hold;
        }
        let (kind, class, seq) = (frame.kind, frame.class(), frame.seq());
        // An item topic's floor is its snapshot: later items all pass.
        let keeps_floor = !(kind == FrameKind::Update && class == TopicClass::Item);
        match self.last_seq.get_mut(topic) {
            Some(last) if seq <= *last => return Place::Drop,
            Some(last) if keeps_floor => *last = seq,
            Some(_) => {}
            None if keeps_floor => {
                self.last_seq.insert(topic.clone(), seq);
            }
            None => {}
        }
        if kind == FrameKind::Update && matches!(class, TopicClass::State | TopicClass::Delta) {
            let queued = self.queue.iter().position(|f| f.kind == FrameKind::Update && f.topic() == Some(topic));
            match queued {
                Some(i) if class == TopicClass::Delta => return Place::Merge(i),
                Some(i) => return Place::Replace(i),
                None => {}
            }
        }
        Place::Append
    }

    /// Takes the writer's waker to wake it once the lock is let go.
    fn wake_writer(&mut self) -> Option<Waker> {
        self.writer.take()
    }
}

pub struct Outbox {
    state: Mutex<State>,
    /// Wakes the reader when the server decides to close the connection.
    closing: Notify,
    /// Past this many queued frames the connection is closed as too slow.
    max_queue: usize,
}

/// Close code for a client that cannot keep up (1008 = policy violation).
pub const TOO_SLOW: u16 = 1008;

impl Outbox {
    pub fn new(max_queue: usize) -> Arc<Self> {
        Arc::new(Outbox { state: Mutex::new(State::default()), closing: Notify::new(), max_queue })
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
        match s.place(&frame) {
            Place::Drop => return,
            Place::Hold => {
                if let Some(held) = frame.topic().cloned().and_then(|t| s.pending.get_mut(&t)) {
                    held.push(frame);
                }
                return;
            }
            Place::Replace(i) => {
                s.queue[i] = frame;
                return;
            }
            Place::Merge(i) => {
                s.queue[i] = super::delta::merge(&s.queue[i], frame);
                return;
            }
            Place::Append => {}
        }
        s.queue.push_back(frame);
        if s.queue.len() > self.max_queue {
            drop(s);
            self.close(CloseReason { code: TOO_SLOW, message: "too slow: outbound queue overflow".into() });
        } else if let Some(writer) = s.wake_writer() {
            drop(s);
            writer.wake();
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
        let Some(topic) = snapshot.topic().cloned() else { return };
        let held = self.lock().pending.remove(&topic).unwrap_or_default();
        // The snapshot is always sent (the contract promises one per
        // subscribe), and it resets the topic's seq to its own.
        {
            let mut s = self.lock();
            s.last_seq.insert(topic.clone(), snapshot.seq().saturating_sub(1));
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
        s.queue.retain(|f| f.topic().map(|t| &**t) != Some(topic));
    }

    /// The server ends the connection: the writer sends the close frame
    /// and the reader stops.
    pub fn close(&self, reason: CloseReason) {
        let mut s = self.lock();
        if s.close.is_none() && !s.done {
            s.queue.clear();
            s.close = Some(reason);
        }
        let writer = s.wake_writer();
        drop(s);
        if let Some(writer) = writer {
            writer.wake();
        }
        self.closing.notify_one();
    }

    /// Resolves once [`Outbox::close`] was called.
    pub async fn closing(&self) {
        self.closing.notified().await;
    }

    /// The reader ended: nothing more is queued, and the writer stops once
    /// what is queued is sent (a reply to a command the client sent just
    /// before its close goes out ahead of ours). `echo` is the code of the
    /// client's close.
    pub fn finish(&self, echo: Option<u16>) {
        let mut s = self.lock();
        s.done = true;
        s.echo = echo;
        let writer = s.wake_writer();
        drop(s);
        if let Some(writer) = writer {
            writer.wake();
        }
    }

    pub fn len(&self) -> usize {
        self.lock().queue.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Waits for the next thing to write (one task, the writer, calls this).
    pub async fn next(&self) -> Next {
        std::future::poll_fn(|cx| {
            let mut s = self.lock();
            // A close decided by the server wins over the reader's exit,
            // so the client learns why.
            if let Some(reason) = s.close.take() {
                s.done = true;
                return Poll::Ready(Next::Close(reason));
            }
            if let Some(frame) = s.queue.pop_front() {
                return Poll::Ready(Next::Frame(frame));
            }
            if s.done {
                return Poll::Ready(Next::Done(s.echo));
            }
            if !s.writer.as_ref().is_some_and(|w| w.will_wake(cx.waker())) {
                s.writer = Some(cx.waker().clone());
            }
            Poll::Pending
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::Bytes;

    fn update(topic: &str, seq: i64) -> Frame {
        Frame::of_topic(FrameKind::Update, topic.into(), seq, format!("{topic}@{seq}").into())
    }

    fn drain(o: &Outbox) -> Vec<String> {
        let mut s = o.lock();
        s.queue.drain(..).map(|f| String::from_utf8_lossy(f.bytes()).into_owned()).collect()
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
        let snap = Frame::of_topic(FrameKind::Snapshot, "feed".into(), 3, "snap@3".into());
        o.complete_subscribe(snap);
        assert_eq!(drain(&o), vec!["snap@3", "feed@5"]);
    }

    #[test]
    fn a_newer_pong_replaces_a_queued_one_and_a_ping_is_queued_once() {
        let o = Outbox::new(100);
        o.push(Frame::pong(Bytes::from_static(b"first")));
        o.push(Frame::control("reply"));
        o.push(Frame::pong(Bytes::from_static(b"second")));
        o.push(Frame::ping());
        o.push(Frame::ping());
        assert_eq!(drain(&o), vec!["second", "reply", ""]);
    }

    #[test]
    fn a_topic_is_found_by_its_text_under_another_name() {
        let o = Outbox::new(100);
        let (ours, theirs): (Arc<str>, Arc<str>) = ("game:1".into(), "game:1".into());
        o.push(Frame::of_topic(FrameKind::Update, ours, 1, "a".into()));
        o.push(Frame::of_topic(FrameKind::Update, theirs, 2, "b".into()));
        o.push(Frame::of_topic(FrameKind::Update, "game:10".into(), 1, "c".into()));
        assert_eq!(drain(&o), vec!["b", "c"]);
    }

    #[test]
    fn a_waiting_writer_is_woken_by_a_frame_and_by_the_end() {
        let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
        let o = Outbox::new(10);
        let writer = o.clone();
        let got = rt.block_on(async move {
            let waiting = tokio::spawn(async move {
                let first = matches!(writer.next().await, Next::Frame(f) if f.bytes() == b"hello");
                (first, matches!(writer.next().await, Next::Done(None)))
            });
            tokio::task::yield_now().await;
            o.push(Frame::control("hello"));
            tokio::task::yield_now().await;
            o.finish(None);
            waiting.await.unwrap()
        });
        assert_eq!(got, (true, true));
    }

    /// A reply queued before the client's close goes out before the
    /// answer to it, which echoes the client's code; nothing is queued after.
    #[test]
    fn the_end_comes_after_what_was_queued_and_echoes_the_clients_code() {
        let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
        let o = Outbox::new(10);
        o.push(Frame::control("reply"));
        o.finish(Some(1000));
        o.push(Frame::control("too late"));
        rt.block_on(async {
            assert!(matches!(o.next().await, Next::Frame(f) if f.bytes() == b"reply"));
            assert!(matches!(o.next().await, Next::Done(Some(1000))));
        });
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
