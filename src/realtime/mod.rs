//! The realtime core: this node's topic hub, the bus between nodes, the
//! one pusher of live documents, the registered topic owners (authorisation
//! and snapshots per kind) and the live aggregates' actor registries. The
//! core knows no feature: `startup` registers the owners (`crate::live`),
//! the aggregates' storage (`crate::store`) and the watchers (the sub
//! market, notifications). The WebSocket gateway (`crate::ws`) and the REST
//! handlers reach live state only through here.

pub mod bus;
pub mod delta;
pub mod frame;
pub mod hub;
pub mod outbox;
pub mod pusher;
pub mod seq;
pub mod topics;

use bus::Bus;
use hub::Hub;
use pusher::Pusher;
use rinkside_actors::{EventRegistry, GameRegistry};
use std::sync::{Arc, OnceLock};
use topics::{Topic, TopicSources};

pub struct Realtime {
    pub hub: Arc<Hub>,
    pub bus: Arc<Bus>,
    pub topics: Arc<TopicSources>,
    /// The one way to push a document that no actor owns.
    pub pusher: Arc<Pusher>,
    /// Distinguishes this node's own messages on the Redis bus.
    pub node_id: String,
    /// Live per-event actors (RSVPs, waitlists).
    pub events: EventRegistry,
    /// Live per-game actors (scoring); same arbiters and tunables.
    pub games: GameRegistry,
    /// Batches of notifications whose writes committed, to push
    /// (`live::notifications::watch`).
    notices: tokio::sync::mpsc::UnboundedSender<String>,
}

/// A snapshot frame as the client sees it.
pub fn snapshot_frame(client_topic: &str, seq: i64, data: &serde_json::Value) -> String {
    serde_json::json!({"type": "snapshot", "topic": client_topic, "seq": seq, "data": data}).to_string()
}

/// The hub, the bus (in-process, or Redis when `redis_url` is set) and the
/// one pusher over it: the part of the core that knows no aggregate and no
/// kind of topic. `startup` plugs those in and assembles [`Realtime`].
pub struct Wires {
    pub hub: Arc<Hub>,
    pub bus: Arc<Bus>,
    pub pusher: Arc<Pusher>,
    pub node_id: String,
}

pub async fn connect(redis_url: Option<&str>) -> anyhow::Result<Wires> {
    let hub = Arc::new(Hub::default());
    let node_id = uuid::Uuid::new_v4().simple().to_string();
    // The bus resyncs through the pusher after a Redis reconnect, and the
    // pusher needs the bus: a cell breaks the cycle.
    let pusher_cell: Arc<OnceLock<Arc<Pusher>>> = Arc::new(OnceLock::new());
    let bus = Arc::new(match redis_url {
        None => Bus::local(hub.clone()),
        Some(url) => {
            let cell = pusher_cell.clone();
            let resync: bus::ResyncFn = Arc::new(move |names| {
                if let Some(pusher) = cell.get() {
                    pusher.resync(names);
                }
            });
            Bus::redis(url, node_id.clone(), hub.clone(), resync).await?
        }
    });
    let pusher = Pusher::new(bus.clone());
    let _ = pusher_cell.set(pusher.clone());
    Ok(Wires { hub, bus, pusher, node_id })
}

impl Realtime {
    /// The core with its live aggregates and every kind of topic registered
    /// (`sources`); `notices` is where committed notification batches go.
    pub fn assemble(
        wires: Wires,
        events: EventRegistry,
        games: GameRegistry,
        sources: TopicSources,
        notices: tokio::sync::mpsc::UnboundedSender<String>,
    ) -> Self {
        let Wires { hub, bus, pusher, node_id } = wires;
        let sources = Arc::new(sources);
        pusher.set_sources(sources.clone());
        Realtime { hub, bus, topics: sources, pusher, node_id, events, games, notices }
    }

    /// Pushes the current document of each topic (see [`Pusher::push`]);
    /// call after the write that changed them committed.
    pub async fn push(&self, topics: &[Topic]) {
        self.pusher.push_all(topics).await;
    }

    /// Pushes the notifications of a committed write (`crate::notify`), in
    /// the background.
    pub fn push_notifications(&self, batch: String) {
        let _ = self.notices.send(batch);
    }

    /// [`Realtime::push_notifications`] of each batch written.
    pub fn push_notification_batches(&self, batches: impl IntoIterator<Item = Option<String>>) {
        for batch in batches.into_iter().flatten() {
            self.push_notifications(batch);
        }
    }
}
