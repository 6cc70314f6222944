//! The realtime core: this node's topic hub, the bus between nodes, the
//! registered topic sources (authorisation and snapshots per kind), and the
//! live aggregates' actor registries. The WebSocket gateway (`crate::ws`)
//! and the REST handlers reach live state only through here.

pub mod bus;
pub mod hub;
pub mod outbox;
pub mod topics;

use crate::config::Config;
use crate::db::Db;
use crate::db::events::SqlEventStore;
use crate::db::games::{RostersChanged, SqlGameStore};
use bus::Bus;
use bytestring::ByteString;
use hub::Hub;
use rinkside_actors::{ActorConfig, Arbiters, EventRegistry, GameRegistry};
use std::sync::{Arc, OnceLock};
use topics::{Topic, TopicSources};

pub struct Realtime {
    pub hub: Arc<Hub>,
    pub bus: Arc<Bus>,
    pub topics: Arc<TopicSources>,
    /// Distinguishes this node's own messages on the Redis bus.
    pub node_id: String,
    /// Live per-event actors (RSVPs, waitlists).
    pub events: EventRegistry,
    /// Live per-game actors (scoring); same arbiters and tunables.
    pub games: GameRegistry,
}

/// The actors publish through the bus.
impl rinkside_actors::Publisher for Bus {
    fn publish(&self, topic: String, seq: i64, payload: serde_json::Value) {
        Bus::publish(self, &topic, seq, &payload);
    }

    /// Subscribers on this node, or possibly on others (through Redis).
    fn is_watched(&self, topic: &str) -> bool {
        self.is_clustered() || self.hub().subscriber_count(topic) > 0
    }
}

/// A snapshot frame as the client sees it.
pub fn snapshot_frame(client_topic: &str, seq: i64, data: &serde_json::Value) -> String {
    serde_json::json!({"type": "snapshot", "topic": client_topic, "seq": seq, "data": data}).to_string()
}

impl Realtime {
    pub async fn start(config: &Config, db: Db) -> anyhow::Result<Self> {
        let hub = Arc::new(Hub::default());
        let node_id = uuid::Uuid::new_v4().simple().to_string();
        // The bus needs the topic sources to resync after a Redis reconnect,
        // and the sources are built after the bus: a cell breaks the cycle.
        let sources_cell: Arc<OnceLock<Arc<TopicSources>>> = Arc::new(OnceLock::new());
        let bus = Arc::new(match &config.redis_url {
            None => Bus::local(hub.clone()),
            Some(url) => {
                let resync = resync_fn(hub.clone(), sources_cell.clone());
                Bus::redis(url, node_id.clone(), hub.clone(), resync).await?
            }
        });
        // Actors live on a few dedicated arbiters (see the registry's docs).
        let arbiters = Arbiters::spawn(std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2))?;
        let actor_config = ActorConfig { idle_timeout: config.actor_idle, ..ActorConfig::default() };
        let publisher: Arc<dyn rinkside_actors::Publisher> = bus.clone();
        let events = EventRegistry::new(
            Arc::new(SqlEventStore::new(db.clone())),
            publisher.clone(),
            arbiters.clone(),
            actor_config.clone(),
        );
        let games = GameRegistry::new(
            Arc::new(SqlGameStore { db: db.clone(), rosters_changed: Some(roster_pusher(db.clone(), bus.clone())) }),
            publisher.clone(),
            arbiters.clone(),
            actor_config.clone(),
        );
        let mut sources = TopicSources::default();
        crate::live::register_topics(&mut sources, &db, &events, &games);
        let sources = Arc::new(sources);
        let _ = sources_cell.set(sources.clone());
        Ok(Realtime { hub, bus, topics: sources, node_id, events, games })
    }

    pub fn publish(&self, topic: &str, seq: i64, data: &serde_json::Value) {
        self.bus.publish(topic, seq, data);
    }
}

/// After a game commit changed players' stats or a roster's record: push
/// those rosters' documents (their seq was advanced in the commit). Spawned,
/// so the scorer's answer does not wait for it; a late push is harmless
/// because clients drop anything at or below the seq they have.
fn roster_pusher(db: Db, bus: Arc<Bus>) -> RostersChanged {
    Arc::new(move |ids: Vec<String>| {
        let (db, bus) = (db.clone(), bus.clone());
        tokio::spawn(async move {
            for id in ids {
                match crate::api::rosters::document(&db, &id).await {
                    Ok(doc) => match serde_json::to_value(&doc) {
                        Ok(data) => bus.publish(&format!("roster:{id}"), doc.seq, &data),
                        Err(e) => tracing::warn!(roster = %id, error = %e, "roster document did not serialise"),
                    },
                    Err(e) => tracing::warn!(roster = %id, error = %e, "roster not pushed after a game commit"),
                }
            }
        });
    })
}

/// After a bus reconnect: a fresh snapshot for every local topic.
fn resync_fn(hub: Arc<Hub>, sources: Arc<OnceLock<Arc<TopicSources>>>) -> bus::ResyncFn {
    Arc::new(move |names: Vec<Arc<str>>| {
        let hub = hub.clone();
        let Some(sources) = sources.get().cloned() else { return };
        tokio::spawn(async move {
            for name in names {
                let Some(topic) = Topic::from_bus_name(&name) else { continue };
                let Ok(source) = sources.get(topic.kind) else { continue };
                match source.snapshot(&topic.id).await {
                    Ok((seq, data)) => {
                        let frame = snapshot_frame(&topic.client_name(), seq, &data);
                        hub.deliver_snapshot(&name, seq, ByteString::from(frame));
                    }
                    Err(e) => tracing::warn!(topic = %name, error = %e, "resync snapshot failed"),
                }
            }
        });
    })
}
