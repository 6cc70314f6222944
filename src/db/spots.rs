//! Events as the sub market sees them: where and when, the places left
//! per role (written with the RSVP batches' versions), their level, and who has
//! answered them.

use super::levels::event_level;
use super::{dynamic, placeholder_list};
use sqlx::{Any, Executor, FromRow};
use std::collections::HashMap;

/// An event as the market shows it: where, when, places left, level.
#[derive(Debug, Clone, FromRow)]
pub struct SpotRow {
    pub id: String,
    pub title: String,
    pub start_date: i64,
    pub facility_id: Option<String>,
    pub facility_name: Option<String>,
    pub timezone: Option<String>,
    pub open_skaters: Option<i64>,
    pub open_goalies: Option<i64>,
    pub max_skaters: Option<i64>,
    pub max_goalies: Option<i64>,
    pub cancelled_at: Option<i64>,
    pub level: Option<i64>,
}

fn spot_sql(wheres: &str) -> String {
    format!(
        "SELECT e.id, e.title, e.start_date, e.facility_id, f.name AS facility_name, f.timezone, e.open_skaters, \
           e.open_goalies, e.max_skaters, e.max_goalies, e.cancelled_at, {} AS level \
         FROM events e LEFT JOIN facilities f ON f.id = e.facility_id WHERE {wheres} ORDER BY e.start_date, e.id",
        event_level("e.id")
    )
}

/// These events (any state), for summaries.
pub async fn events<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    ids: &[String],
) -> Result<HashMap<String, SpotRow>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let sql = spot_sql(&format!("e.id IN ({})", placeholder_list(1, ids.len())));
    let mut q = sqlx::query_as::<_, SpotRow>(dynamic(sql));
    for id in ids {
        q = q.bind(id);
    }
    Ok(q.fetch_all(ex).await?.into_iter().map(|r| (r.id.clone(), r)).collect())
}

/// Events starting in `(after, until]` that are short of someone, soonest
/// first, optionally at one rink.
pub async fn open_spots<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    after: i64,
    until: i64,
    facility_id: Option<&str>,
) -> Result<Vec<SpotRow>, sqlx::Error> {
    let sql = spot_sql(
        "e.start_date > $1 AND e.start_date <= $2 AND e.cancelled_at IS NULL \
         AND (e.open_skaters > 0 OR e.open_goalies > 0) AND ($3 = '' OR e.facility_id = $3)",
    );
    sqlx::query_as(dynamic(sql)).bind(after).bind(until).bind(facility_id.unwrap_or("")).fetch_all(ex).await
}

/// Of these events, those the person has answered (any RSVP row).
pub async fn answered<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    user_id: &str,
    event_ids: &[String],
) -> Result<Vec<String>, sqlx::Error> {
    if event_ids.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        "SELECT event_id FROM event_rsvps WHERE user_id = $1 AND event_id IN ({})",
        placeholder_list(2, event_ids.len())
    );
    let mut q = sqlx::query_scalar::<_, String>(dynamic(sql)).bind(user_id);
    for id in event_ids {
        q = q.bind(id);
    }
    q.fetch_all(ex).await
}

/// Everyone who answered the event (any RSVP row).
pub async fn answered_by<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    event_id: &str,
) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT user_id FROM event_rsvps WHERE event_id = $1").bind(event_id).fetch_all(ex).await
}

/// A rink's name and time zone.
pub async fn facility<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    id: &str,
) -> Result<Option<(String, String)>, sqlx::Error> {
    sqlx::query_as("SELECT name, timezone FROM facilities WHERE id = $1").bind(id).fetch_optional(ex).await
}

/// Whether the team is on the event (HOME or AWAY).
pub async fn team_on_event<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    team_id: &str,
    event_id: &str,
) -> Result<bool, sqlx::Error> {
    let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM event_teams WHERE team_id = $1 AND event_id = $2")
        .bind(team_id)
        .bind(event_id)
        .fetch_one(ex)
        .await?;
    Ok(n > 0)
}

/// An event's active calls for subs end at its (new) puck drop.
pub async fn follow_event_start<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    event_id: &str,
    start: i64,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE statuses SET expires_at = $2, updated_at = $3 WHERE event_id = $1 AND expires_at > $3")
        .bind(event_id)
        .bind(start)
        .bind(now)
        .execute(ex)
        .await?;
    Ok(())
}
