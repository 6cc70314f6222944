//! The bus: `publish(topic, seq, data)` reaches the hub of every node.
//!
//! Without `REDIS_URL` it is in-process: publish delivers to this node's hub.
//! With Redis, publish still delivers locally at once and sends ONE `PUBLISH`
//! for the whole cluster; each node's listener subscribes only to the topics
//! it has local subscribers for, and skips its own messages. Redis pub/sub is
//! at-most-once: after the listener reconnects, every topic with local
//! subscribers gets a fresh snapshot, and the per-connection seq filter keeps
//! clients from ever seeing an older state than they have.

use super::hub::Hub;
use super::topics::Topic;
use bytestring::ByteString;
use futures_util::StreamExt;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

/// Called with the local topics after the Redis listener (re)connects, so
/// they can be re-snapshotted.
pub type ResyncFn = Arc<dyn Fn(Vec<Arc<str>>) + Send + Sync>;

const CHANNEL_PREFIX: &str = "rinkside:";
/// Reconnect backoff bounds for the Redis listener and publisher.
const BACKOFF_START: Duration = Duration::from_millis(100);
const BACKOFF_MAX: Duration = Duration::from_secs(5);
/// How long a publish is retried while Redis is unreachable before it is
/// dropped (subscribers then repair from the snapshot after reconnecting).
const PUBLISH_RETRY_FOR: Duration = Duration::from_secs(30);

enum Listen {
    /// With whom to tell once Redis confirmed the subscription.
    Add(Arc<str>, oneshot::Sender<()>),
    Remove(Arc<str>),
}

struct RedisBus {
    publish_tx: mpsc::UnboundedSender<(String, String)>,
    listen_tx: mpsc::UnboundedSender<Listen>,
}

pub struct Bus {
    node_id: String,
    hub: Arc<Hub>,
    redis: Option<RedisBus>,
}

/// Serialises an update frame once; the same text goes to local subscribers
/// and, behind a small header, to the other nodes.
pub fn update_frame(topic: &str, seq: i64, data: &serde_json::Value) -> String {
    // A person's own topics travel as `feed:<userId>`, `chats:<userId>`…
    // but their owner knows them without the id (`Topic::client_name`).
    let client_topic = Topic::from_bus_name(topic).map_or_else(|| topic.to_string(), |t| t.client_name());
    serde_json::json!({"type": "update", "topic": client_topic, "seq": seq, "data": data}).to_string()
}

impl Bus {
    pub fn local(hub: Arc<Hub>) -> Self {
        Bus { node_id: String::new(), hub, redis: None }
    }

    /// Connects to Redis (failing start if it is unreachable now) and starts
    /// the publisher and the listener.
    pub async fn redis(url: &str, node_id: String, hub: Arc<Hub>, resync: ResyncFn) -> anyhow::Result<Self> {
        let client = redis::Client::open(url)?;
        let publisher = redis::aio::ConnectionManager::new(client.clone()).await?;
        let (publish_tx, publish_rx) = mpsc::unbounded_channel();
        let (listen_tx, listen_rx) = mpsc::unbounded_channel();
        tokio::spawn(run_publisher(publisher, publish_rx));
        tokio::spawn(run_listener(client, node_id.clone(), hub.clone(), listen_rx, resync));
        Ok(Bus { node_id, hub, redis: Some(RedisBus { publish_tx, listen_tx }) })
    }

    /// Messages also go to other nodes (Redis).
    pub fn is_clustered(&self) -> bool {
        self.redis.is_some()
    }

    pub fn hub(&self) -> &Arc<Hub> {
        &self.hub
    }

    pub fn publish(&self, topic: &str, seq: i64, data: &serde_json::Value) {
        let frame = update_frame(topic, seq, data);
        if let Some(redis) = &self.redis {
            let message = format!("{} {seq}\n{frame}", self.node_id);
            let _ = redis.publish_tx.send((format!("{CHANNEL_PREFIX}{topic}"), message));
        }
        self.hub.deliver(topic, seq, ByteString::from(frame));
    }

    /// The first local subscriber of `topic` arrived. In a cluster the
    /// answer resolves once Redis has confirmed the subscription: a snapshot
    /// taken after it cannot miss an update another node publishes between
    /// the snapshot and the subscription (it would leave the subscriber on a
    /// stale state until the next change). It resolves (with an error) too
    /// when the listener reconnects meanwhile: the reconnect resyncs.
    pub fn listen(&self, topic: &Arc<str>) -> Option<oneshot::Receiver<()>> {
        let redis = self.redis.as_ref()?;
        let (done, confirmed) = oneshot::channel();
        let _ = redis.listen_tx.send(Listen::Add(topic.clone(), done));
        Some(confirmed)
    }

    /// The last local subscriber of `topic` left.
    pub fn unlisten(&self, topic: &Arc<str>) {
        if let Some(redis) = &self.redis {
            let _ = redis.listen_tx.send(Listen::Remove(topic.clone()));
        }
    }
}

/// One PUBLISH per message, in order; retried while Redis is away.
async fn run_publisher(mut conn: redis::aio::ConnectionManager, mut rx: mpsc::UnboundedReceiver<(String, String)>) {
    while let Some((channel, message)) = rx.recv().await {
        let started = tokio::time::Instant::now();
        let mut backoff = BACKOFF_START;
        loop {
            let sent: redis::RedisResult<i64> =
                redis::cmd("PUBLISH").arg(&channel).arg(&message).query_async(&mut conn).await;
            match sent {
                Ok(_) => break,
                Err(e) if started.elapsed() < PUBLISH_RETRY_FOR => {
                    tracing::warn!(error = %e, channel, "redis publish failed; retrying");
                    tokio::time::sleep(backoff).await;
                    backoff = (backoff * 2).min(BACKOFF_MAX);
                }
                Err(e) => {
                    tracing::error!(error = %e, channel, "redis publish dropped");
                    break;
                }
            }
        }
    }
}

/// Keeps a pub/sub connection subscribed to this node's topics, forwarding
/// other nodes' messages to the hub; reconnects with backoff and resyncs.
async fn run_listener(
    client: redis::Client,
    node_id: String,
    hub: Arc<Hub>,
    mut listen_rx: mpsc::UnboundedReceiver<Listen>,
    resync: ResyncFn,
) {
    let mut backoff = BACKOFF_START;
    let mut connected_before = false;
    loop {
        let pubsub = match client.get_async_pubsub().await {
            Ok(p) => p,
            Err(e) => {
                tracing::warn!(error = %e, "redis listener cannot connect; retrying");
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(BACKOFF_MAX);
                continue;
            }
        };
        let (mut sink, mut stream) = pubsub.split();
        // Pending listen changes are superseded by the hub's current topics.
        while listen_rx.try_recv().is_ok() {}
        let topics = hub.topics();
        let mut ok = true;
        for topic in &topics {
            if sink.subscribe(format!("{CHANNEL_PREFIX}{topic}")).await.is_err() {
                ok = false;
                break;
            }
        }
        if !ok {
            tokio::time::sleep(backoff).await;
            continue;
        }
        backoff = BACKOFF_START;
        if connected_before {
            tracing::info!(topics = topics.len(), "redis listener reconnected; resyncing topics");
            resync(topics);
        }
        connected_before = true;
        loop {
            tokio::select! {
                change = listen_rx.recv() => {
                    let result = match change {
                        Some(Listen::Add(t, done)) => {
                            let subscribed = sink.subscribe(format!("{CHANNEL_PREFIX}{t}")).await;
                            if subscribed.is_ok() {
                                let _ = done.send(());
                            }
                            subscribed
                        }
                        Some(Listen::Remove(t)) => sink.unsubscribe(format!("{CHANNEL_PREFIX}{t}")).await,
                        None => return,
                    };
                    if result.is_err() {
                        break;
                    }
                }
                msg = stream.next() => {
                    let Some(msg) = msg else { break };
                    let channel = msg.get_channel_name().to_string();
                    let Some(topic) = channel.strip_prefix(CHANNEL_PREFIX) else { continue };
                    let Ok(payload) = msg.get_payload::<String>() else { continue };
                    if let Some((from, seq, frame)) = parse_message(&payload)
                        && from != node_id
                    {
                        hub.deliver(topic, seq, ByteString::from(frame.to_string()));
                    }
                }
            }
        }
        tracing::warn!("redis listener lost its connection; reconnecting");
    }
}

/// `"<node> <seq>\n<frame>"` → parts.
fn parse_message(payload: &str) -> Option<(&str, i64, &str)> {
    let (header, frame) = payload.split_once('\n')?;
    let (node, seq) = header.split_once(' ')?;
    Some((node, seq.parse().ok()?, frame))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_carry_node_and_seq_ahead_of_the_frame() {
        assert_eq!(parse_message("n1 42\n{\"a\":1}"), Some(("n1", 42, "{\"a\":1}")));
        assert_eq!(parse_message("garbage"), None);
    }

    #[test]
    fn a_local_bus_delivers_to_the_hub() {
        let hub = Arc::new(Hub::default());
        let outbox = super::super::outbox::Outbox::new(10);
        let topic: Arc<str> = "game:1".into();
        hub.subscribe(&topic, 1, outbox.clone());
        Bus::local(hub).publish("game:1", 1, &serde_json::json!({"x": 1}));
        assert_eq!(outbox.len(), 1);
    }
}

#[cfg(test)]
mod fuzz {
    use super::*;
    use crate::fuzzing::{self, text};
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(fuzzing::config(1_000))]

        /// A Redis message is outside input too (anything may PUBLISH on
        /// the channel): garbage is skipped, never a panic.
        #[test]
        fn any_bus_payload_parses_or_is_skipped(payload in text()) {
            let _ = parse_message(&payload);
        }

        /// What a node publishes parses back to its parts.
        #[test]
        fn published_messages_parse_back(node in "[a-z0-9-]{1,40}", seq in any::<i64>(), frame in text()) {
            let payload = format!("{node} {seq}\n{frame}");
            prop_assert_eq!(parse_message(&payload), Some((node.as_str(), seq, frame.as_str())));
        }
    }
}
