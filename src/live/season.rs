//! `season:ID` — public: the season's standings and schedule. Anyone may
//! subscribe, signed out too.
//!
//! Seq is the sum over the season's games of `version + 1`
//! (`db::games::season::season_seq`): creating a game adds 1, every commit
//! that changes a game adds at least 1, versions never go down and games
//! are never deleted one by one, so it strictly increases with every
//! change. Game commits report the season as touched and the pusher sends
//! this document after the commit.

use crate::db::Db;
use crate::db::games::season::{ScheduleEntry, Standing, season_exists, season_schedule, season_seq, standings};
use crate::error::AppError;
use crate::realtime::topics::TopicSource;
use futures_util::future::BoxFuture;
use serde::Serialize;

/// The `season:ID` document: standings and schedule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SeasonDocument {
    pub season_id: String,
    /// The `season:ID` seq of this state (see the module docs).
    pub seq: i64,
    pub standings: Vec<Standing>,
    pub schedule: Vec<ScheduleEntry>,
}

/// The document and its seq. The seq is read first, so the content is
/// never older than it.
pub async fn document(db: &Db, season_id: &str) -> Result<SeasonDocument, sqlx::Error> {
    let seq = season_seq(&db.pool, season_id).await?;
    let standings = standings(&db.pool, season_id).await?;
    let schedule = season_schedule(&db.pool, season_id).await?;
    Ok(SeasonDocument { season_id: season_id.to_string(), seq, standings, schedule })
}

pub struct SeasonTopic {
    pub db: Db,
}

impl TopicSource for SeasonTopic {
    fn authorize<'a>(&'a self, _viewer: Option<&'a str>, id: &'a str) -> BoxFuture<'a, Result<(), AppError>> {
        Box::pin(async move {
            if season_exists(&self.db.pool, id).await? { Ok(()) } else { Err(AppError::not_found("season")) }
        })
    }

    fn snapshot<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<(i64, serde_json::Value), AppError>> {
        Box::pin(async move {
            let doc = document(&self.db, id).await?;
            Ok((doc.seq, serde_json::to_value(doc).map_err(AppError::internal)?))
        })
    }
}
