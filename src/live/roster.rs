//! `roster:ID` — public: the roster document (`api::rosters::RosterDocument`:
//! the roster, its players with stats, and its requests' states — never
//! their messages). Anyone may subscribe, signed in or not. Seq is the
//! roster's `updated_at`, which every roster write advances to
//! `max(updated_at + 1, now)` in its transaction, so it strictly increases.

use crate::api::rosters;
use crate::db::{self, Db};
use crate::error::AppError;
use crate::realtime::topics::TopicSource;
use futures_util::future::BoxFuture;

pub struct RosterTopic {
    pub db: Db,
}

impl TopicSource for RosterTopic {
    fn authorize<'a>(&'a self, _viewer: Option<&'a str>, id: &'a str) -> BoxFuture<'a, Result<(), AppError>> {
        Box::pin(async move {
            match db::rosters::seq(&self.db.pool, id).await? {
                Some(_) => Ok(()),
                None => Err(AppError::not_found("roster")),
            }
        })
    }

    fn snapshot<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<(i64, serde_json::Value), AppError>> {
        Box::pin(async move {
            let doc = rosters::document(&self.db, id).await?;
            Ok((doc.seq, serde_json::to_value(&doc).map_err(AppError::internal)?))
        })
    }
}
