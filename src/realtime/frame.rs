//! One outbound frame, serialised once and shared between the outboxes of
//! every subscriber (`realtime::outbox`): one allocation, one reference
//! count to move per subscriber, and its topic's kind — whole state, item,
//! other — worked out once per frame, not once per subscriber.

use bytes::Bytes;
use bytestring::ByteString;
use std::sync::Arc;

/// What kind of frame, for coalescing and ordering decisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameKind {
    Snapshot,
    Update,
    /// Replies and errors: never coalesced or dropped.
    Control,
    /// The server's heartbeat (a WebSocket ping): one queued at most.
    Ping,
    /// The answer to a client's ping, carrying its payload: a newer one
    /// replaces a queued one.
    Pong,
}

/// How a topic's updates are queued (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TopicClass {
    /// Every update is the whole state: coalesced.
    State,
    /// Every update is the change since a version (`game:`): queued ones
    /// are merged ([`super::delta`]).
    Delta,
    /// Every update is one item: each is delivered.
    Item,
    Other,
}

impl TopicClass {
    fn of(topic: &str) -> Self {
        if is_delta_topic(topic) {
            TopicClass::Delta
        } else if is_state_topic(topic) {
            TopicClass::State
        } else if is_item_topic(topic) {
            TopicClass::Item
        } else {
            TopicClass::Other
        }
    }
}

/// One frame, shared (one reference count) between subscribers.
#[derive(Clone, Debug)]
pub struct Frame {
    pub kind: FrameKind,
    body: Arc<Body>,
}

#[derive(Debug)]
struct Body {
    topic: Option<Arc<str>>,
    class: TopicClass,
    seq: i64,
    /// UTF-8 text for every kind but [`FrameKind::Pong`].
    bytes: Bytes,
}

impl Frame {
    /// A snapshot or an update of `topic` at `seq`.
    pub fn of_topic(kind: FrameKind, topic: Arc<str>, seq: i64, text: ByteString) -> Self {
        let class = TopicClass::of(&topic);
        Frame { kind, body: Arc::new(Body { topic: Some(topic), class, seq, bytes: text.into_bytes() }) }
    }

    pub fn control(text: impl Into<ByteString>) -> Self {
        Self::untopical(FrameKind::Control, text.into().into_bytes())
    }

    /// The server's heartbeat.
    pub fn ping() -> Self {
        Self::untopical(FrameKind::Ping, Bytes::new())
    }

    /// The answer to a client's ping (its payload, up to 125 bytes).
    pub fn pong(payload: Bytes) -> Self {
        Self::untopical(FrameKind::Pong, payload)
    }

    fn untopical(kind: FrameKind, bytes: Bytes) -> Self {
        Frame { kind, body: Arc::new(Body { topic: None, class: TopicClass::Other, seq: 0, bytes }) }
    }

    /// What goes on the wire.
    pub fn bytes(&self) -> &[u8] {
        &self.body.bytes
    }

    pub(super) fn topic(&self) -> Option<&Arc<str>> {
        self.body.topic.as_ref()
    }

    pub(super) fn class(&self) -> TopicClass {
        self.body.class
    }

    pub(super) fn seq(&self) -> i64 {
        self.body.seq
    }
}

/// Topics whose every message is the whole state: safe to coalesce. The
/// contract names `event:` and `season:`; `team:`, `roster:` and `spots:`
/// documents are whole states too.
pub fn is_state_topic(topic: &str) -> bool {
    ["event:", "season:", "team:", "roster:", "spots:"].iter().any(|p| topic.starts_with(p))
}

/// Topics whose updates carry the change since a version (CONTRACT.md ›
/// Update frames stay small): `game:`.
pub fn is_delta_topic(topic: &str) -> bool {
    topic.starts_with("game:")
}

/// Topics whose every update is one item or change (`feed:`, `matches:`,
/// `notifications:`):
/// each is delivered, in whatever order the bus brings them, as long as it
/// is newer than the snapshot (the client merges them by id).
pub fn is_item_topic(topic: &str) -> bool {
    topic.starts_with("feed:") || topic.starts_with("matches:") || topic.starts_with("notifications:")
}
