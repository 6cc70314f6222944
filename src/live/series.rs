//! `series:ID` — the weeks of a weekly series (docs/series.md): every event
//! of it with its time and whether it is cancelled, the same document as
//! `GET /event-series/{id}`. For signed-in people, as events are. Pushed
//! after an edit, a cancellation or a deletion of one of its events, so an
//! open event page's row of weeks follows what the organiser does to the
//! others. Seq is the realtime clock (`realtime::seq`): every
//! push is the whole document, newest wins.

use crate::db::{self, Db};
use crate::domain::Frequency;
use crate::error::AppError;
use crate::realtime::topics::TopicSource;
use futures_util::future::BoxFuture;
use serde::Serialize;

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EventSeries {
    pub id: String,
    pub frequency: Frequency,
    /// `YYYY-MM-DD`, inclusive, in `timeZone`.
    #[schema(format = Date)]
    pub until: String,
    /// The zone whose wall clock the series keeps.
    pub time_zone: String,
    pub creator_id: String,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: i64,
    /// Soonest first, cancelled ones included.
    pub events: Vec<SeriesEvent>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SeriesEvent {
    pub id: String,
    pub title: String,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub start_date: i64,
    #[serde(with = "crate::time::rfc3339_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub end_date: Option<i64>,
    #[serde(with = "crate::time::rfc3339_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub cancelled_at: Option<i64>,
}

/// The series and its events, or `None` when there is no such series.
pub async fn document(db: &Db, id: &str) -> Result<Option<EventSeries>, AppError> {
    let Some(row) = db::series::get(&db.pool, id).await? else { return Ok(None) };
    let events = db::series::events(&db.pool, id).await?;
    Ok(Some(EventSeries {
        frequency: Frequency::parse(&row.frequency).unwrap_or(Frequency::Weekly),
        id: row.id,
        until: row.until_day,
        time_zone: row.time_zone,
        creator_id: row.creator_id,
        created_at: row.created_at,
        events: events
            .into_iter()
            .map(|e| SeriesEvent {
                id: e.id,
                title: e.title,
                start_date: e.start_date,
                end_date: e.end_date,
                cancelled_at: e.cancelled_at,
            })
            .collect(),
    }))
}

pub struct SeriesTopic {
    pub db: Db,
}

impl TopicSource for SeriesTopic {
    fn authorize<'a>(&'a self, viewer: Option<&'a str>, id: &'a str) -> BoxFuture<'a, Result<(), AppError>> {
        Box::pin(async move {
            if viewer.is_none() {
                return Err(AppError::unauthorized("sign in to follow a series of events"));
            }
            match db::series::get(&self.db.pool, id).await? {
                Some(_) => Ok(()),
                None => Err(AppError::not_found("series")),
            }
        })
    }

    fn snapshot<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<(i64, serde_json::Value), AppError>> {
        Box::pin(async move {
            let seq = crate::realtime::seq::next();
            let doc = document(&self.db, id).await?.ok_or_else(|| AppError::not_found("series"))?;
            Ok((seq, serde_json::to_value(doc).map_err(AppError::internal)?))
        })
    }

    fn is_private(&self) -> bool {
        true
    }
}
