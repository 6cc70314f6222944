//! The one way a live document reaches its subscribers.
//!
//! Actor-owned topics (`event:`, `game:`) are published by their actor right
//! after each commit. Every other topic is pushed here: a write commits,
//! then names the topics it touched, and [`Pusher::push`] asks the topic's
//! owner in `crate::live` for its current document and publishes it with
//! that document's seq. Commits of the actors report what else they touched
//! (a goal: its season's standings, both rosters' stats) through
//! [`rinkside_actors::Publisher::touched`], which lands here too.
//!
//! Pushing the current state (not a state computed inside the transaction)
//! is safe because every seq strictly increases with each committed change
//! and clients drop anything at or below the seq they hold: a late or
//! duplicated push is harmless.

use super::bus::Bus;
use super::snapshot_frame;
use super::topics::{Topic, TopicSources};
use bytestring::ByteString;
use rinkside_actors::Touched;
use std::sync::{Arc, OnceLock};

pub struct Pusher {
    bus: Arc<Bus>,
    /// The topic owners are registered after the actor registries, which
    /// need this pusher first: a cell breaks the cycle.
    sources: OnceLock<Arc<TopicSources>>,
    /// Where committed notification batches go to be pushed (the same
    /// channel as `Realtime::push_notifications`): the sub market's fan-out
    /// (`market::push`) writes SUB_MATCH notifications with only the pusher
    /// at hand. Set once at start, after the channel exists.
    notices: OnceLock<tokio::sync::mpsc::UnboundedSender<String>>,
}

impl Pusher {
    pub fn new(bus: Arc<Bus>) -> Arc<Self> {
        Arc::new(Pusher { bus, sources: OnceLock::new(), notices: OnceLock::new() })
    }

    pub fn set_sources(&self, sources: Arc<TopicSources>) {
        let _ = self.sources.set(sources);
    }

    pub fn set_notices(&self, notices: tokio::sync::mpsc::UnboundedSender<String>) {
        let _ = self.notices.set(notices);
    }

    /// Pushes a committed batch of notifications (`crate::notify`), in the
    /// background; before start has set the channel, nothing (no writer
    /// runs before then).
    pub fn push_notifications(&self, batch: String) {
        if let Some(notices) = self.notices.get() {
            let _ = notices.send(batch);
        }
    }

    /// Subscribers on this node, or possibly on others (through Redis).
    pub fn is_watched(&self, topic: &str) -> bool {
        self.bus.is_clustered() || self.bus.hub().subscriber_count(topic) > 0
    }

    /// Publishes `topic`'s current document. A failure is logged, not
    /// returned: the write is committed, and a subscriber repairs from the
    /// next update or a re-subscribe.
    pub async fn push(&self, topic: &Topic) {
        let name = topic.bus_name();
        if !self.is_watched(&name) {
            return;
        }
        let Some(source) = self.sources.get().and_then(|s| s.get(topic.kind).ok()) else {
            tracing::warn!(topic = %name, "no owner registered for this kind of topic");
            return;
        };
        match source.snapshot(&topic.id).await {
            Ok((seq, data)) => self.bus.publish(&name, seq, &data),
            Err(e) => tracing::warn!(topic = %name, error = %e, "document not pushed"),
        }
    }

    /// [`Pusher::push`] each, in order.
    pub async fn push_all(&self, topics: &[Topic]) {
        for topic in topics {
            self.push(topic).await;
        }
    }

    /// Pushes in the background, so the caller's answer does not wait.
    pub fn push_soon(self: &Arc<Self>, topics: Vec<Topic>) {
        let me = self.clone();
        tokio::spawn(async move { me.push_all(&topics).await });
    }

    /// The people whose feed is watched on this node, or `None` in a
    /// cluster (a feed may be watched on any node).
    pub fn local_feed_watchers(&self) -> Option<Vec<String>> {
        if self.bus.is_clustered() {
            return None;
        }
        let prefix = format!("{}:", super::topics::Kind::Feed.prefix());
        Some(self.bus.hub().topics().iter().filter_map(|t| t.strip_prefix(&prefix).map(str::to_string)).collect())
    }

    /// Publishes one item of an item topic (`feed`): unlike a document, it
    /// is built by its owner in `crate::live` for this one push.
    pub fn publish_item(&self, topic: &Topic, seq: i64, data: &serde_json::Value) {
        self.bus.publish(&topic.bus_name(), seq, data);
    }

    /// After a bus reconnect: a fresh snapshot for every local topic, sent as
    /// a snapshot frame (the client may have missed any number of updates).
    pub fn resync(self: &Arc<Self>, names: Vec<Arc<str>>) {
        let me = self.clone();
        tokio::spawn(async move {
            let Some(sources) = me.sources.get() else { return };
            for name in names {
                let Some(topic) = Topic::from_bus_name(&name) else { continue };
                let Ok(source) = sources.get(topic.kind) else { continue };
                match source.snapshot(&topic.id).await {
                    Ok((seq, data)) => {
                        let frame = snapshot_frame(&topic.client_name(), seq, &data);
                        me.bus.hub().deliver_snapshot(&name, seq, ByteString::from(frame));
                    }
                    Err(e) => tracing::warn!(topic = %name, error = %e, "resync snapshot failed"),
                }
            }
        });
    }
}

/// The actors publish their own documents through the bus, and hand over
/// the other topics their commits touched.
impl rinkside_actors::Publisher for Pusher {
    fn publish(&self, topic: String, seq: i64, payload: serde_json::Value) {
        self.bus.publish(&topic, seq, &payload);
    }

    fn is_watched(&self, topic: &str) -> bool {
        Pusher::is_watched(self, topic)
    }

    fn touched(&self, touched: Vec<Touched>) {
        let topics: Vec<Topic> = touched
            .into_iter()
            .map(|t| match t {
                Touched::Season(id) => Topic::season(id),
                Touched::Roster(id) => Topic::roster(id),
            })
            .collect();
        let me = Pusher { bus: self.bus.clone(), sources: self.sources.clone(), notices: self.notices.clone() };
        tokio::spawn(async move { me.push_all(&topics).await });
    }
}
