//! `spots:ID` — public, for the rink's lobby display: tonight's open spots
//! at the rink (events from now to the end of the rink's day, and anything
//! starting in the next 6 hours), soonest first. Seq is the realtime
//! clock (`realtime::seq`); every push is the whole document.

use crate::db::{self, Db};
use crate::error::AppError;
use crate::market::view::EventSummary;
use crate::realtime::topics::TopicSource;
use crate::time::Clock;
use futures_util::future::BoxFuture;
use serde::Serialize;

/// How far ahead "tonight" reaches at least, past midnight.
const TONIGHT_MS: i64 = 6 * 60 * 60 * 1000;

/// The lobby display's document.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Spots {
    pub facility_id: String,
    pub facility_name: String,
    pub timezone: String,
    pub events: Vec<EventSummary>,
}

/// Tonight's open spots at a rink; `None` when there is no such rink.
pub async fn tonight(db: &Db, facility_id: &str, now: i64) -> Result<Option<Spots>, AppError> {
    let Some((name, timezone)) = db::spots::facility(&db.pool, facility_id).await? else { return Ok(None) };
    let until = crate::time::end_of_day(now, Some(&timezone)).max(now + TONIGHT_MS);
    let rows = db::spots::open_spots(&db.pool, now, until, Some(facility_id)).await?;
    Ok(Some(Spots {
        facility_id: facility_id.to_string(),
        facility_name: name,
        timezone,
        events: rows.into_iter().map(EventSummary::from).collect(),
    }))
}

pub struct SpotsTopic {
    pub db: Db,
    pub clock: Clock,
}

impl TopicSource for SpotsTopic {
    fn authorize<'a>(&'a self, _viewer: Option<&'a str>, id: &'a str) -> BoxFuture<'a, Result<(), AppError>> {
        Box::pin(async move {
            if db::facilities::exists(&self.db.pool, id).await? { Ok(()) } else { Err(AppError::not_found("facility")) }
        })
    }

    fn snapshot<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<(i64, serde_json::Value), AppError>> {
        Box::pin(async move {
            let seq = crate::realtime::seq::next();
            let spots = tonight(&self.db, id, (self.clock)()).await?.ok_or_else(|| AppError::not_found("facility"))?;
            Ok((seq, serde_json::to_value(spots).map_err(AppError::internal)?))
        })
    }
}
