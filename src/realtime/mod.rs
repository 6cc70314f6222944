//! The realtime core: this node's topic hub, the bus between nodes, the
//! one pusher of live documents, the registered topic owners (authorisation
//! and snapshots per kind, in `crate::live`), and the live aggregates' actor
//! registries. The WebSocket gateway (`crate::ws`) and the REST handlers
//! reach live state only through here.

pub mod bus;
pub mod delta;
pub mod frame;
pub mod hub;
pub mod outbox;
pub mod pusher;
pub mod topics;

use crate::config::Config;
use crate::db::Db;
use crate::store::events::SqlEventStore;
use crate::store::follow_ups::{FollowUps, Outlets};
use crate::store::games::SqlGameStore;
use bus::Bus;
use hub::Hub;
use pusher::Pusher;
use rinkside_actors::{ActorConfig, Arbiters, EventRegistry, GameRegistry};
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
    /// Mail, when `SMTP_URL` is set (notifications, invites).
    pub mailer: Option<Arc<crate::notify::mail::Mailer>>,
}

/// A snapshot frame as the client sees it.
pub fn snapshot_frame(client_topic: &str, seq: i64, data: &serde_json::Value) -> String {
    serde_json::json!({"type": "snapshot", "topic": client_topic, "seq": seq, "data": data}).to_string()
}

impl Realtime {
    pub async fn start(config: &Config, db: Db, clock: crate::startup::Clock) -> anyhow::Result<Self> {
        let hub = Arc::new(Hub::default());
        let node_id = uuid::Uuid::new_v4().simple().to_string();
        // The bus resyncs through the pusher after a Redis reconnect, and the
        // pusher needs the bus: a cell breaks the cycle.
        let pusher_cell: Arc<OnceLock<Arc<Pusher>>> = Arc::new(OnceLock::new());
        let bus = Arc::new(match &config.redis_url {
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
        // Actors live on a few dedicated arbiters (see the registry's docs).
        let arbiters = Arbiters::spawn(std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2))?;
        let actor_config = ActorConfig { idle_timeout: config.actor_idle, ..ActorConfig::default() };
        let publisher: Arc<dyn rinkside_actors::Publisher> = pusher.clone();
        // The follow-up of a commit that moved an event's open places
        // reports it here; the sub market tells the people it concerns
        // (`market::push`).
        let (open_places, changed) = tokio::sync::mpsc::unbounded_channel();
        crate::market::push::watch(db.clone(), pusher.clone(), clock.clone(), changed);
        // Every writer of notifications hands its committed batch here.
        let (notices, batches) = tokio::sync::mpsc::unbounded_channel();
        pusher.set_notices(notices.clone());
        let mailer = match &config.smtp_url {
            Some(url) => Some(Arc::new(crate::notify::mail::Mailer::new(url, &config.smtp_from)?)),
            None => None,
        };
        crate::live::notifications::watch(db.clone(), pusher.clone(), mailer.clone(), batches);
        // What follows an event commit is carried out off the actor's path
        // (`store::follow_ups`).
        let outlets = Outlets { pusher: pusher.clone(), notices: notices.clone(), open_places };
        let follow_ups = FollowUps::start(db.clone(), outlets, config.hold_follow_ups);
        let events = EventRegistry::new(
            Arc::new(SqlEventStore::new(db.clone(), follow_ups)),
            publisher.clone(),
            arbiters.clone(),
            actor_config.clone(),
        );
        let games = GameRegistry::new(
            Arc::new(SqlGameStore { db: db.clone(), notices: Some(notices.clone()) }),
            publisher,
            arbiters,
            actor_config,
        );
        let mut sources = TopicSources::default();
        crate::live::register_topics(&mut sources, &db, &clock, &events, &games);
        let sources = Arc::new(sources);
        pusher.set_sources(sources.clone());
        Ok(Realtime { hub, bus, topics: sources, pusher, node_id, events, games, notices, mailer })
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

    /// Pushes the feed items that committed fan-outs wrote or grew, in the
    /// background (a post to 20,000 followers does not hold its answer).
    pub fn push_feed(&self, db: &Db, written: Vec<crate::db::feed::Written>) {
        if written.is_empty() {
            return;
        }
        let (db, pusher) = (db.clone(), self.pusher.clone());
        tokio::spawn(async move {
            if let Err(e) = crate::live::feed::push(&db, &pusher, &written).await {
                tracing::warn!(error = %e, "feed items not pushed");
            }
        });
    }

    /// Pushes every watched feed item about a resource that was edited at
    /// `at` (its summary changed, its place did not), in the background.
    pub fn push_feed_edit(&self, db: &Db, resource: crate::db::feed::Resource, resource_id: &str, at: i64) {
        let (db, pusher, id) = (db.clone(), self.pusher.clone(), resource_id.to_string());
        tokio::spawn(async move {
            if let Err(e) = crate::live::feed::push_edited(&db, &pusher, resource, &id, at).await {
                tracing::warn!(error = %e, resource_id = %id, "edited feed items not pushed");
            }
        });
    }

    /// Takes these items (deleted at `at`) out of the open feeds, in the
    /// background.
    pub fn push_feed_removals(&self, rows: Vec<crate::db::feed::FeedRow>, at: i64) {
        if rows.is_empty() {
            return;
        }
        let pusher = self.pusher.clone();
        tokio::spawn(async move { crate::live::feed::push_removed(&pusher, &rows, at) });
    }
}
