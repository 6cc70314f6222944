//! The owners of the live documents, one module per kind of topic: how the
//! document is built, its snapshot (with its seq), and who may subscribe.
//! Registered once at start (see `realtime::topics`); the pusher
//! (`realtime::pusher`) and the gateway reach documents only through them.
//!
//! A new live feature adds a module here, registers its `TopicSource`, and
//! pushes with `Realtime::push` after its writes commit (see
//! docs/architecture.md).

pub mod availability;
pub mod chat;
pub mod event;
pub mod feed;
pub mod follows;
pub mod game;
pub mod matches;
pub mod notifications;
pub mod roster;
pub mod season;
pub mod series;
pub mod spots;
pub mod team;

use crate::db::Db;
use crate::realtime::topics::{Kind, TopicSources};
use crate::time::Clock;
use rinkside_actors::{EventRegistry, GameRegistry};
use std::sync::Arc;

pub fn register_topics(
    sources: &mut TopicSources,
    db: &Db,
    clock: &Clock,
    events: &EventRegistry,
    games: &GameRegistry,
) {
    sources.register(Kind::Team, Arc::new(team::TeamTopic { db: db.clone() }));
    sources.register(Kind::Roster, Arc::new(roster::RosterTopic { db: db.clone() }));
    sources.register(Kind::Event, Arc::new(event::EventTopic { db: db.clone(), events: events.clone() }));
    sources.register(Kind::Game, Arc::new(game::GameTopic { db: db.clone(), games: games.clone() }));
    sources.register(Kind::Season, Arc::new(season::SeasonTopic { db: db.clone() }));
    sources.register(Kind::Feed, Arc::new(feed::FeedTopic { db: db.clone() }));
    sources.register(Kind::Follows, Arc::new(follows::FollowsTopic { db: db.clone() }));
    sources.register(Kind::Matches, Arc::new(matches::MatchesTopic { db: db.clone(), clock: clock.clone() }));
    sources.register(Kind::Notifications, Arc::new(notifications::NotificationsTopic { db: db.clone() }));
    sources.register(Kind::Spots, Arc::new(spots::SpotsTopic { db: db.clone(), clock: clock.clone() }));
    sources.register(Kind::Series, Arc::new(series::SeriesTopic { db: db.clone() }));
    sources.register(
        Kind::Availability,
        Arc::new(availability::AvailabilityTopic { db: db.clone(), clock: clock.clone() }),
    );
    sources.register(Kind::Chat, Arc::new(chat::ChatTopic { db: db.clone() }));
    sources.register(Kind::Chats, Arc::new(chat::ChatsTopic { db: db.clone(), clock: clock.clone() }));
}
