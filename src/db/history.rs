//! Reads of an event's RSVP and waitlist history (`event_rsvp_history`,
//! `event_waitlist_history`, written by `event_commits`) as one timeline,
//! and of a series' history for its record (docs/pickup-night.md ›
//! History and the record). What the rows mean is `domain::attendance`.
//!
//! The timeline's order is `(created_at, id)` over both tables: ids are
//! UUIDv7 made as a batch is written, RSVP rows before waitlist rows, so
//! within one millisecond a batch's RSVP rows come first. Both tables are
//! indexed on `(event_id, created_at, id)` (migration 0015), so a page is
//! two index range scans of `limit + 1` rows each, merged.

use super::{dynamic, flag};
use crate::db::events::DISPLAY_NAME;
use sqlx::{Any, Executor, FromRow};

/// One row of either table.
#[derive(Debug, Clone, FromRow)]
pub struct HistoryRow {
    pub id: String,
    pub event_id: String,
    pub created_at: i64,
    pub user_id: String,
    pub display_name: String,
    /// `R` (RSVP history) or `W` (waitlist history).
    pub source: String,
    /// The seed's RSVPAction or WaitlistAction.
    pub action: String,
    pub position: Option<String>,
    /// 1 on an RSVP `DECLINED` or `REMOVED` that gave up a place: the
    /// person's previous RSVP row is `ATTENDING` and they did not leave the
    /// waitlist in the same decision (a waiting person declining writes
    /// `REMOVED` to the waitlist history at the same moment).
    pub held: i64,
}

/// The `held` fact of [`HistoryRow`], over a row `x` with the columns
/// `event_id, user_id, created_at, id, source, action`. Only evaluated for
/// drops; the previous row is found walking back along the event's
/// `(event_id, created_at, id)` index from the row itself (the plain
/// `created_at <=` bound is what lets both planners seek there; the `OR`
/// alone made SQLite walk from the event's newest row), so its cost is the
/// distance back to the person's previous answer.
const HELD: &str = "CAST(CASE WHEN x.source = 'R' AND x.action IN ('DECLINED', 'REMOVED') \
      AND (SELECT p.action FROM event_rsvp_history p \
           WHERE p.event_id = x.event_id AND p.created_at <= x.created_at AND p.user_id = x.user_id \
             AND (p.created_at < x.created_at OR p.id < x.id) \
           ORDER BY p.created_at DESC, p.id DESC LIMIT 1) = 'ATTENDING' \
      AND NOT EXISTS (SELECT 1 FROM event_waitlist_history w \
           WHERE w.event_id = x.event_id AND w.created_at = x.created_at AND w.user_id = x.user_id \
             AND w.action = 'REMOVED') \
    THEN 1 ELSE 0 END AS BIGINT)";

/// One branch of the timeline: `table`'s rows of the event after the
/// cursor, in order, at most `$5` of them.
fn branch(table: &str, source: &str) -> String {
    let page_start = crate::db::keyset("created_at", "id", crate::db::Order::OldestFirst, 2);
    format!(
        "SELECT * FROM (SELECT id, event_id, created_at, user_id, '{source}' AS source, action, position \
           FROM {table} WHERE event_id = $1 \
             AND {page_start} \
           ORDER BY created_at, id LIMIT $5) {source}"
    )
}

/// The event's history after `after` (`(created_at, id)` of the last row
/// of the previous page), oldest first; one row more than `limit` tells
/// whether there is more.
pub async fn page<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    event_id: &str,
    after: Option<(i64, String)>,
    limit: i64,
) -> Result<Vec<HistoryRow>, sqlx::Error> {
    let sql = format!(
        "SELECT x.id, x.event_id, x.created_at, x.user_id, {DISPLAY_NAME} AS display_name, x.source, x.action, \
                x.position, {HELD} AS held \
         FROM ({} UNION ALL {}) x JOIN users u ON u.id = x.user_id \
         ORDER BY x.created_at, x.id LIMIT $5",
        branch("event_rsvp_history", "R"),
        branch("event_waitlist_history", "W"),
    );
    sqlx::query_as(dynamic(sql))
        .bind(event_id)
        .bind(flag(after.is_some()))
        .bind(after.as_ref().map(|a| a.0).unwrap_or(0))
        .bind(after.map(|a| a.1).unwrap_or_default())
        .bind(limit + 1)
        .fetch_all(ex)
        .await
}

/// What the timeline needs of its event.
#[derive(Debug, Clone, FromRow)]
pub struct EventClock {
    pub start_date: i64,
    pub late_window_minutes: Option<i64>,
}

pub async fn event_clock<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    event_id: &str,
) -> Result<Option<EventClock>, sqlx::Error> {
    sqlx::query_as("SELECT start_date, late_window_minutes FROM events WHERE id = $1")
        .bind(event_id)
        .fetch_optional(ex)
        .await
}

/// An event of a series, as its record counts it.
#[derive(Debug, Clone, FromRow)]
pub struct SeriesEvent {
    pub id: String,
    pub start_date: i64,
    pub end_date: Option<i64>,
    pub cancelled_at: Option<i64>,
    pub late_window_minutes: Option<i64>,
}

/// Every event of the series, cancelled ones included, soonest first.
pub async fn series_events<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    series_id: &str,
) -> Result<Vec<SeriesEvent>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, start_date, end_date, cancelled_at, late_window_minutes FROM events \
         WHERE series_id = $1 ORDER BY start_date, id",
    )
    .bind(series_id)
    .fetch_all(ex)
    .await
}

/// The whole history of every event of the series, by event, each in
/// timeline order.
pub async fn series_rows<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    series_id: &str,
) -> Result<Vec<HistoryRow>, sqlx::Error> {
    let all = |table: &str, source: &str| {
        format!(
            "SELECT h.id, h.event_id, h.created_at, h.user_id, '{source}' AS source, h.action, h.position \
             FROM {table} h JOIN events e ON e.id = h.event_id WHERE e.series_id = $1"
        )
    };
    let sql = format!(
        "SELECT x.id, x.event_id, x.created_at, x.user_id, {DISPLAY_NAME} AS display_name, x.source, x.action, \
                x.position, {HELD} AS held \
         FROM ({} UNION ALL {}) x JOIN users u ON u.id = x.user_id \
         ORDER BY x.event_id, x.created_at, x.id",
        all("event_rsvp_history", "R"),
        all("event_waitlist_history", "W"),
    );
    sqlx::query_as(dynamic(sql)).bind(series_id).fetch_all(ex).await
}

/// `(event_id, user_id)` of every check-in at the series' events.
pub async fn series_check_ins<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    series_id: &str,
) -> Result<Vec<(String, String)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT c.event_id, c.user_id FROM event_check_ins c JOIN events e ON e.id = c.event_id \
         WHERE e.series_id = $1",
    )
    .bind(series_id)
    .fetch_all(ex)
    .await
}
