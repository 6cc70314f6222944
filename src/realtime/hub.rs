//! This node's topic hub: which connections subscribe to which topic, and
//! fan-out of bus messages to them. A message is serialised once by the
//! publisher; every subscriber's outbox gets a cheap clone of the same bytes.

use super::frame::{Frame, FrameKind};
use super::outbox::Outbox;
use bytestring::ByteString;
use dashmap::DashMap;
use std::collections::HashMap;
use std::sync::Arc;

pub type ConnId = u64;

#[derive(Default)]
pub struct Hub {
    topics: DashMap<Arc<str>, HashMap<ConnId, Arc<Outbox>>>,
    /// Every open connection, subscribed or not: a draining node closes
    /// them all so clients reconnect to another node at once.
    connections: DashMap<ConnId, Arc<Outbox>>,
}

/// Counts for tests and metrics: nothing should linger after disconnects.
#[derive(Debug, PartialEq, Eq)]
pub struct HubStats {
    pub topics: usize,
    pub subscriptions: usize,
}

impl Hub {
    /// Adds a subscriber; true when it is the topic's first on this node (the
    /// bus then starts listening for it).
    pub fn subscribe(&self, topic: &Arc<str>, conn: ConnId, outbox: Arc<Outbox>) -> bool {
        let mut entry = self.topics.entry(topic.clone()).or_default();
        let first = entry.is_empty();
        entry.insert(conn, outbox);
        first
    }

    /// Removes a subscriber; true when the topic has none left on this node.
    pub fn unsubscribe(&self, topic: &str, conn: ConnId) -> bool {
        let emptied = match self.topics.get_mut(topic) {
            Some(mut subs) => subs.remove(&conn).is_some() && subs.is_empty(),
            None => false,
        };
        if emptied {
            // Re-checked under the shard lock: a subscriber may have arrived.
            self.topics.remove_if(topic, |_, subs| subs.is_empty()).is_some()
        } else {
            false
        }
    }

    /// This node's name for `topic`: the one its subscribers already share
    /// when it has any (an outbox then finds the topic by pointer).
    pub fn name(&self, topic: &str) -> Arc<str> {
        self.topics.get(topic).map_or_else(|| topic.into(), |subs| subs.key().clone())
    }

    /// Delivers an already-serialised update to every local subscriber.
    pub fn deliver(&self, topic: &str, seq: i64, bytes: ByteString) {
        self.deliver_frame(topic, FrameKind::Update, seq, bytes);
    }

    /// Sends a fresh snapshot to every local subscriber of `topic` (after a
    /// bus reconnect, when messages may have been lost).
    pub fn deliver_snapshot(&self, topic: &str, seq: i64, bytes: ByteString) {
        self.deliver_frame(topic, FrameKind::Snapshot, seq, bytes);
    }

    fn deliver_frame(&self, topic: &str, kind: FrameKind, seq: i64, bytes: ByteString) {
        let Some(subs) = self.topics.get(topic) else { return };
        let frame = Frame::of_topic(kind, subs.key().clone(), seq, bytes);
        for outbox in subs.values() {
            outbox.push(frame.clone());
        }
    }

    pub fn connect(&self, conn: ConnId, outbox: Arc<Outbox>) {
        self.connections.insert(conn, outbox);
    }

    pub fn disconnect(&self, conn: ConnId) {
        self.connections.remove(&conn);
    }

    pub fn connection_count(&self) -> usize {
        self.connections.len()
    }

    /// Closes every connection with this code and reason (e.g. 1001 when
    /// the node shuts down).
    pub fn close_all(&self, code: u16, message: &str) {
        for entry in self.connections.iter() {
            entry.value().close(super::outbox::CloseReason { code, message: message.to_string() });
        }
    }

    pub fn topics(&self) -> Vec<Arc<str>> {
        self.topics.iter().map(|e| e.key().clone()).collect()
    }

    pub fn subscriber_count(&self, topic: &str) -> usize {
        self.topics.get(topic).map(|s| s.len()).unwrap_or(0)
    }

    pub fn stats(&self) -> HubStats {
        HubStats { topics: self.topics.len(), subscriptions: self.topics.iter().map(|e| e.value().len()).sum() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_unsubscribe_removes_the_topic() {
        let hub = Hub::default();
        let topic: Arc<str> = "game:1".into();
        assert!(hub.subscribe(&topic, 1, Outbox::new(10)));
        assert!(!hub.subscribe(&topic, 2, Outbox::new(10)));
        assert!(!hub.unsubscribe("game:1", 1));
        assert!(hub.unsubscribe("game:1", 2));
        assert_eq!(hub.stats(), HubStats { topics: 0, subscriptions: 0 });
    }

    #[test]
    fn delivery_reaches_every_subscriber_once() {
        let hub = Hub::default();
        let topic: Arc<str> = "game:1".into();
        let (a, b) = (Outbox::new(10), Outbox::new(10));
        hub.subscribe(&topic, 1, a.clone());
        hub.subscribe(&topic, 2, b.clone());
        hub.deliver("game:1", 1, "x".into());
        hub.deliver("game:2", 1, "y".into());
        assert_eq!((a.len(), b.len()), (1, 1));
    }
}
