//! `matches` — a person's own sub-market matches (private;
//! `matches:<userId>` on the bus). The snapshot is every match
//! (`{"items":[Match…]}`); each update is one change (`upsert`, or `drop` by
//! status or event), pushed by `market::push`. Updates are changes, not
//! states: the outbox delivers each one (`realtime::frame::is_item_topic`).

use crate::db::Db;
use crate::error::AppError;
use crate::market::matches;
use crate::realtime::topics::TopicSource;
use crate::time::Clock;
use futures_util::future::BoxFuture;
use serde_json::{Value, json};

pub struct MatchesTopic {
    pub db: Db,
    pub clock: Clock,
}

impl TopicSource for MatchesTopic {
    fn authorize<'a>(&'a self, viewer: Option<&'a str>, id: &'a str) -> BoxFuture<'a, Result<(), AppError>> {
        // `Topic::parse` makes `matches` the viewer's own.
        Box::pin(async move {
            if viewer == Some(id) { Ok(()) } else { Err(AppError::forbidden("matches are their owner's alone")) }
        })
    }

    fn snapshot<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<(i64, Value), AppError>> {
        Box::pin(async move {
            // Taken before reading: a change committed meanwhile is pushed
            // with a later seq and still delivered.
            let seq = crate::realtime::seq::next();
            let items = matches::for_viewer(&self.db, id, (self.clock)()).await?;
            Ok((seq, json!({"items": items})))
        })
    }

    fn is_private(&self) -> bool {
        true
    }
}
