//! Weekly series of events (docs/series.md): the series row, and its events
//! in order.

use super::{dynamic, new_id, now_ms};
use crate::db::events::EventRow;
use sqlx::{Any, Executor, FromRow};

#[derive(Debug, Clone, FromRow)]
pub struct SeriesRow {
    pub id: String,
    pub creator_id: String,
    pub frequency: String,
    pub time_zone: String,
    /// `YYYY-MM-DD` in `time_zone`, inclusive.
    pub until_day: String,
    pub created_at: i64,
}

/// An event of a series, as the series lists it.
#[derive(Debug, Clone, FromRow)]
pub struct SeriesEventRow {
    pub id: String,
    pub title: String,
    pub start_date: i64,
    pub end_date: Option<i64>,
    pub cancelled_at: Option<i64>,
}

pub async fn insert<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    creator_id: &str,
    frequency: &str,
    time_zone: &str,
    until_day: &str,
) -> Result<String, sqlx::Error> {
    let id = new_id();
    sqlx::query(
        "INSERT INTO event_series (id, creator_id, frequency, time_zone, until_day, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(&id)
    .bind(creator_id)
    .bind(frequency)
    .bind(time_zone)
    .bind(until_day)
    .bind(now_ms())
    .execute(ex)
    .await?;
    Ok(id)
}

pub async fn get<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<Option<SeriesRow>, sqlx::Error> {
    sqlx::query_as("SELECT id, creator_id, frequency, time_zone, until_day, created_at FROM event_series WHERE id = $1")
        .bind(id)
        .fetch_optional(ex)
        .await
}

/// The series now runs until `until_day` (`YYYY-MM-DD` in its zone).
pub async fn set_until<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    id: &str,
    until_day: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE event_series SET until_day = $2 WHERE id = $1").bind(id).bind(until_day).execute(ex).await?;
    Ok(())
}

/// Every event of the series, soonest first, cancelled ones included.
pub async fn events<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    series_id: &str,
) -> Result<Vec<SeriesEventRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, title, start_date, end_date, cancelled_at FROM events \
         WHERE series_id = $1 ORDER BY start_date, id",
    )
    .bind(series_id)
    .fetch_all(ex)
    .await
}

/// The events of the series from `event` on (it included), soonest first,
/// not cancelled: what a change to "this and all following" reaches.
pub async fn following<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    series_id: &str,
    event: &EventRow,
) -> Result<Vec<EventRow>, sqlx::Error> {
    sqlx::query_as(dynamic(format!(
        "SELECT {} FROM events e WHERE e.series_id = $1 AND e.cancelled_at IS NULL \
           AND (e.start_date > $2 OR (e.start_date = $2 AND e.id >= $3)) \
         ORDER BY e.start_date, e.id",
        super::events::COLUMNS
    )))
    .bind(series_id)
    .bind(event.start_date)
    .bind(&event.id)
    .fetch_all(ex)
    .await
}

/// The time zone whose wall clock a series keeps: its rink's when it has
/// one (docs/series.md).
pub async fn facility_zone<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    facility_id: &str,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT timezone FROM facilities WHERE id = $1").bind(facility_id).fetch_optional(ex).await
}
