//! `season:ID` — public: the season's standings and schedule
//! (`db::games::SeasonDocument`). Anyone may subscribe, signed out too.
//! Seq is the sum over the season's games of `version + 1` (see
//! `db::games` for why it strictly increases); game commits push it.

use crate::db::{self, Db};
use crate::error::AppError;
use crate::realtime::topics::TopicSource;
use futures_util::future::BoxFuture;

pub struct SeasonTopic {
    pub db: Db,
}

impl TopicSource for SeasonTopic {
    fn authorize<'a>(&'a self, _viewer: Option<&'a str>, id: &'a str) -> BoxFuture<'a, Result<(), AppError>> {
        Box::pin(async move {
            if db::games::season_exists(&self.db.pool, id).await? { Ok(()) } else { Err(AppError::not_found("season")) }
        })
    }

    fn snapshot<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<(i64, serde_json::Value), AppError>> {
        Box::pin(async move {
            let (seq, doc) = db::games::read_season_document(&self.db, id).await?;
            Ok((seq, serde_json::to_value(doc).map_err(AppError::internal)?))
        })
    }
}
