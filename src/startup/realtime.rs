//! Plugs the features into the realtime core: the live aggregates with
//! their storage (`crate::store`), the watchers of committed work (the sub
//! market's open places, notifications and their mail) and every kind of
//! topic (`crate::live`). The core itself (`crate::realtime`) knows none of
//! them.

use crate::config::Config;
use crate::db::Db;
use crate::outbound::mail::Mailer;
use crate::realtime::topics::TopicSources;
use crate::realtime::{self, Realtime};
use crate::store::events::SqlEventStore;
use crate::store::follow_ups::{FollowUps, Outlets};
use crate::store::games::SqlGameStore;
use crate::time::Clock;
use rinkside_actors::{ActorConfig, Arbiters, EventRegistry, GameRegistry};
use std::sync::Arc;

/// The realtime core with everything plugged in, and the mailer (when
/// `SMTP_URL` is set) that notifications and invites send through.
pub async fn start(config: &Config, db: &Db, clock: &Clock) -> anyhow::Result<(Realtime, Option<Arc<Mailer>>)> {
    let wires = realtime::connect(config.redis_url.as_deref()).await?;
    let pusher = wires.pusher.clone();
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
        Some(url) => Some(Arc::new(Mailer::new(url, &config.smtp_from)?)),
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
    crate::live::register_topics(&mut sources, db, clock, &events, &games);
    Ok((Realtime::assemble(wires, events, games, sources, notices), mailer))
}
