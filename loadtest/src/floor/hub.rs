//! The floor's topics: who is subscribed to what, each topic's current
//! document and seq, and the frames of CONTRACT.md › WebSocket built once
//! per publish and shared by every subscriber.
//!
//! A publish serialises its `update` frame once into a [`Utf8Bytes`] and
//! hands every subscriber a clone (a reference count, not a copy) through
//! the subscriber's bounded queue. A full queue (a subscriber that stopped
//! reading) skips that frame for that subscriber only: every update carries
//! the whole state, so the next one it gets covers the skipped one, as
//! Rinkside's coalescing does.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use serde::Serialize;
use tokio::sync::mpsc;
use tokio::sync::mpsc::error::TrySendError;
use tokio_tungstenite::tungstenite::Utf8Bytes;

/// A subscriber's queue of frames, drained by its connection task.
pub type Outbox = mpsc::Sender<Utf8Bytes>;

/// One topic.
struct Topic {
    /// Seq of the last update (0 before the first); strictly increasing.
    seq: u64,
    /// The current `data` as JSON text: what a snapshot carries.
    document: Utf8Bytes,
    /// The snapshot frame for (`seq`, `document`), built on the first
    /// subscribe after a change and shared by the subscribers after it.
    snapshot: Option<Utf8Bytes>,
    subscribers: HashMap<u64, Outbox>,
}

/// What a publish did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Published {
    pub seq: u64,
    /// Subscribers the frame was queued for.
    pub subscribers: usize,
    /// Subscribers whose queue was full (they get the next one).
    pub skipped: usize,
    /// Length of the update frame's text.
    pub frame_bytes: usize,
}

/// Totals since start, for the standalone report.
#[derive(Debug, Default)]
pub struct Counters {
    pub publishes: AtomicU64,
    pub frames_queued: AtomicU64,
    pub frames_skipped: AtomicU64,
}

/// Every topic of the floor. Topics spring into being when first named and
/// are never removed (a floor serves a handful).
pub struct Hub {
    topics: Mutex<HashMap<String, Arc<Mutex<Topic>>>>,
    /// The document of a topic nobody has published to yet.
    default_document: Utf8Bytes,
    pub counters: Counters,
}

/// A poisoned lock only means another task panicked while holding it; the
/// map and topics stay consistent (every change is a single insert/remove),
/// so carry on rather than take the server down.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Hub {
    pub fn new(default_document: String) -> Self {
        Self {
            topics: Mutex::new(HashMap::new()),
            default_document: Utf8Bytes::from(default_document),
            counters: Counters::default(),
        }
    }

    fn topic(&self, name: &str) -> Arc<Mutex<Topic>> {
        let mut topics = lock(&self.topics);
        if let Some(t) = topics.get(name) {
            return t.clone();
        }
        let t = Arc::new(Mutex::new(Topic {
            seq: 0,
            document: self.default_document.clone(),
            snapshot: None,
            subscribers: HashMap::new(),
        }));
        topics.insert(name.to_owned(), t.clone());
        t
    }

    /// Queues the topic's snapshot for connection `conn` and adds it to the
    /// subscribers, under the topic's lock so that no update can fall between
    /// the two. Subscribing again just sends a fresh snapshot. False if the
    /// connection's queue is full.
    pub fn subscribe(&self, name: &str, conn: u64, outbox: &Outbox) -> bool {
        let topic = self.topic(name);
        let mut t = lock(&topic);
        let snapshot = match &t.snapshot {
            Some(s) => s.clone(),
            None => {
                let s = Utf8Bytes::from(envelope("snapshot", name, t.seq, &t.document));
                t.snapshot = Some(s.clone());
                s
            }
        };
        if outbox.try_send(snapshot).is_err() {
            return false;
        }
        t.subscribers.insert(conn, outbox.clone());
        true
    }

    pub fn unsubscribe(&self, name: &str, conn: u64) {
        let topic = lock(&self.topics).get(name).cloned();
        if let Some(topic) = topic {
            lock(&topic).subscribers.remove(&conn);
        }
    }

    /// Sends one `update` frame to every subscriber of `name`. `data` is the
    /// update's `data` (JSON text); without it the data is a padding
    /// document. `bytes` asks for a frame of that length: a padding document
    /// is sized to it, given data is followed by JSON whitespace up to it.
    /// The data becomes the topic's document (the next snapshots carry it).
    pub fn publish(&self, name: &str, data: Option<&str>, bytes: Option<usize>) -> Published {
        let topic = self.topic(name);
        let mut t = lock(&topic);
        let seq = t.seq + 1;
        let data = match data {
            Some(d) => d.to_owned(),
            None => padding_data(name, seq, bytes.unwrap_or(0)),
        };
        let frame = Utf8Bytes::from(pad_frame(envelope("update", name, seq, &data), bytes.unwrap_or(0)));
        t.seq = seq;
        t.document = Utf8Bytes::from(data);
        t.snapshot = None;
        let (mut queued, mut skipped) = (0usize, 0usize);
        let mut gone = Vec::new();
        for (conn, outbox) in &t.subscribers {
            match outbox.try_send(frame.clone()) {
                Ok(()) => queued += 1,
                Err(TrySendError::Full(_)) => skipped += 1,
                Err(TrySendError::Closed(_)) => gone.push(*conn),
            }
        }
        for conn in gone {
            t.subscribers.remove(&conn);
        }
        self.counters.publishes.fetch_add(1, Ordering::Relaxed);
        self.counters.frames_queued.fetch_add(queued as u64, Ordering::Relaxed);
        self.counters.frames_skipped.fetch_add(skipped as u64, Ordering::Relaxed);
        Published { seq, subscribers: queued, skipped, frame_bytes: frame.len() }
    }

    /// Replaces the topic's document without sending anything: the next
    /// snapshots carry it.
    pub fn set_document(&self, name: &str, data: &str) {
        let topic = self.topic(name);
        let mut t = lock(&topic);
        t.document = Utf8Bytes::from(data.to_owned());
        t.snapshot = None;
    }
}

/// `{"type":…,"topic":…,"seq":…,"data":…}` with `data` as given (JSON text).
pub fn envelope(kind: &str, topic: &str, seq: u64, data: &str) -> String {
    let topic = serde_json::Value::from(topic);
    format!(r#"{{"type":"{kind}","topic":{topic},"seq":{seq},"data":{data}}}"#)
}

/// `frame` with JSON whitespace before its closing brace until it is `bytes`
/// long; a frame already that long is returned as it is.
pub fn pad_frame(mut frame: String, bytes: usize) -> String {
    if frame.len() < bytes && frame.ends_with('}') {
        frame.pop();
        let pad = bytes - frame.len() - 1;
        frame.extend(std::iter::repeat_n(' ', pad));
        frame.push('}');
    }
    frame
}

/// `{"pad":"xxx…"}`, long enough that the update frame of `topic` at `seq`
/// carrying it is `bytes` long (or as short as it gets).
pub fn padding_data(topic: &str, seq: u64, bytes: usize) -> String {
    let bare = envelope("update", topic, seq, r#"{"pad":""}"#).len();
    format!(r#"{{"pad":"{}"}}"#, "x".repeat(bytes.saturating_sub(bare)))
}

/// A game-like document (CONTRACT.md › Games: the scoreboard fields and a
/// log) of at least `bytes` bytes, so a floor nobody has published to still
/// sends snapshots of a realistic size and shape.
pub fn sample_document(bytes: usize) -> String {
    let mut doc = String::from(
        r#"{"id":"floor-game","status":"IN_PROGRESS","period":2,"homeScore":0,"awayScore":0,"homeRosterId":"floor-home","awayRosterId":"floor-away","homeName":"Home","awayName":"Away","version":0,"log":["#,
    );
    let mut n = 0u32;
    while doc.len() + 2 < bytes {
        if n > 0 {
            doc.push(',');
        }
        let side = if n.is_multiple_of(2) { "home" } else { "away" };
        let _ = write!(
            doc,
            r#"{{"seq":{},"type":"GOAL","period":{},"rosterId":"floor-{side}","scorerId":"player-{side}-{}","assistIds":["player-{side}-{}"],"at":"2026-11-24T19:{:02}:00Z"}}"#,
            n + 1,
            1 + n % 3,
            n % 12,
            (n + 5) % 12,
            n % 60,
        );
        n += 1;
    }
    doc.push_str("]}");
    doc
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn parse(frame: &str) -> Value {
        serde_json::from_str(frame).unwrap()
    }

    #[test]
    fn frames_follow_the_contract() {
        let f = parse(&envelope("update", "game:g\"1", 7, r#"{"a":1}"#));
        assert_eq!(f["type"], "update");
        assert_eq!(f["topic"], "game:g\"1");
        assert_eq!(f["seq"], 7);
        assert_eq!(f["data"]["a"], 1);
    }

    #[test]
    fn a_padded_frame_is_exactly_the_size_asked_and_still_json() {
        for bytes in [0, 10, 61, 62, 600, 7_117] {
            let data = padding_data("game:abc", 12, bytes);
            let frame = pad_frame(envelope("update", "game:abc", 12, &data), bytes);
            let minimum = envelope("update", "game:abc", 12, r#"{"pad":""}"#).len();
            assert_eq!(frame.len(), bytes.max(minimum), "asked {bytes}");
            assert_eq!(parse(&frame)["seq"], 12);
        }
    }

    #[test]
    fn given_data_is_kept_and_followed_by_whitespace_to_the_size() {
        let frame = pad_frame(envelope("update", "event:e", 3, r#"{"version":3}"#), 100);
        assert_eq!(frame.len(), 100);
        assert_eq!(parse(&frame)["data"]["version"], 3);
        // Asking for less than the frame needs changes nothing.
        let short = pad_frame(envelope("update", "event:e", 3, r#"{"version":3}"#), 5);
        assert_eq!(short, envelope("update", "event:e", 3, r#"{"version":3}"#));
    }

    #[test]
    fn the_sample_document_is_a_game_of_the_size_asked() {
        for bytes in [0, 500, 4_096] {
            let doc = sample_document(bytes);
            assert!(doc.len() >= bytes && doc.len() < bytes + 200, "{} for {bytes}", doc.len());
            let v = parse(&doc);
            assert_eq!(v["status"], "IN_PROGRESS");
            assert!(v["log"].is_array());
        }
    }

    #[tokio::test]
    async fn subscribers_get_the_snapshot_then_every_update_in_order() {
        let hub = Hub::new(r#"{"v":0}"#.into());
        let (tx, mut rx) = mpsc::channel(8);
        assert!(hub.subscribe("game:1", 1, &tx));
        let snapshot = rx.recv().await.unwrap();
        assert_eq!(snapshot.as_str(), r#"{"type":"snapshot","topic":"game:1","seq":0,"data":{"v":0}}"#);
        let p = hub.publish("game:1", Some(r#"{"v":1}"#), Some(80));
        assert_eq!(p, Published { seq: 1, subscribers: 1, skipped: 0, frame_bytes: 80 });
        let update = rx.recv().await.unwrap();
        assert_eq!(update.len(), 80);
        assert_eq!(parse(update.as_str())["data"]["v"], 1);
        // A later subscriber's snapshot carries the published state.
        let (tx2, mut rx2) = mpsc::channel(8);
        assert!(hub.subscribe("game:1", 2, &tx2));
        assert_eq!(
            rx2.recv().await.unwrap().as_str(),
            r#"{"type":"snapshot","topic":"game:1","seq":1,"data":{"v":1}}"#
        );
        // Other topics are not disturbed.
        assert_eq!(hub.publish("game:2", None, None).subscribers, 0);
        assert!(rx.try_recv().is_err());
    }

    #[tokio::test]
    async fn a_full_queue_skips_frames_and_a_closed_one_leaves() {
        let hub = Hub::new("{}".into());
        let (slow, _slow_rx) = mpsc::channel(1);
        assert!(hub.subscribe("t", 1, &slow)); // the snapshot fills it
        let (gone, gone_rx) = mpsc::channel(4);
        assert!(hub.subscribe("t", 2, &gone));
        drop(gone_rx);
        let p = hub.publish("t", None, None);
        assert_eq!((p.subscribers, p.skipped), (0, 1));
        let p = hub.publish("t", None, None);
        assert_eq!((p.seq, p.subscribers, p.skipped), (2, 0, 1));
        assert_eq!(hub.counters.frames_skipped.load(Ordering::Relaxed), 2);
        hub.unsubscribe("t", 1);
        assert_eq!(hub.publish("t", None, None).skipped, 0);
    }

    #[test]
    fn a_set_document_is_what_the_next_snapshot_carries() {
        let hub = Hub::new("{}".into());
        hub.set_document("t", r#"{"big":true}"#);
        let (tx, mut rx) = mpsc::channel(1);
        assert!(hub.subscribe("t", 1, &tx));
        assert!(rx.try_recv().unwrap().as_str().ends_with(r#""data":{"big":true}}"#));
    }
}
