//! Topic sources: for each kind of topic, who may subscribe and what its
//! current state is. Registered once at start (see `realtime::topics`).

pub mod team;

use crate::db::Db;
use crate::realtime::bus::Bus;
use crate::realtime::topics::{Kind, TopicSources};
use std::sync::Arc;

pub fn register_topics(sources: &mut TopicSources, db: &Db, _bus: &Arc<Bus>) {
    sources.register(Kind::Team, Arc::new(team::TeamTopic { db: db.clone() }));
}
