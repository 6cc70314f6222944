//! The `resource` summaries of feed items: one query per resource type per
//! page (never one per item), each answering what the feed card shows —
//! an event's time and spots left, a roster's team, a post's text. A
//! resource that is gone (a deleted event or post, an anonymised person)
//! has no summary, and the item is not shown.

use super::{dynamic, events::DISPLAY_NAME, users::SUMMARY_COLUMNS};
use serde_json::{Value, json};
use sqlx::{Any, Executor, FromRow};
use std::collections::HashMap;

/// The rows a query reads for these ids: `select` writes it around the
/// list of their placeholders (`… WHERE x.id IN ({list})`). No ids, no
/// query.
async fn by_ids<'e, E, R>(ex: E, ids: &[String], select: impl FnOnce(&str) -> String) -> Result<Vec<R>, sqlx::Error>
where
    E: Executor<'e, Database = Any>,
    R: for<'r> FromRow<'r, sqlx::any::AnyRow> + Send + Unpin,
{
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut q = sqlx::query_as::<_, R>(dynamic(select(&super::placeholder_list(1, ids.len()))));
    for id in ids {
        q = q.bind(id);
    }
    q.fetch_all(ex).await
}

#[derive(FromRow)]
struct EventSummaryRow {
    id: String,
    title: String,
    event_type: String,
    start_date: i64,
    end_date: Option<i64>,
    facility_id: Option<String>,
    facility_name: Option<String>,
    location: Option<String>,
    cancelled_at: Option<i64>,
    max_skaters: Option<i64>,
    max_goalies: Option<i64>,
    skaters: i64,
    goalies: i64,
}

pub async fn events<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    ids: &[String],
) -> Result<HashMap<String, Value>, sqlx::Error> {
    let rows: Vec<EventSummaryRow> = by_ids(ex, ids, |list| {
        format!(
            "SELECT e.id, e.title, e.event_type, e.start_date, e.end_date, e.facility_id, f.name AS facility_name, \
               e.location, e.cancelled_at, e.max_skaters, e.max_goalies, \
               (SELECT COUNT(*) FROM event_rsvps r WHERE r.event_id = e.id AND r.status = 'ATTENDING' AND r.role = 'SKATER') AS skaters, \
               (SELECT COUNT(*) FROM event_rsvps r WHERE r.event_id = e.id AND r.status = 'ATTENDING' AND r.role = 'GOALIE') AS goalies \
             FROM events e LEFT JOIN facilities f ON f.id = e.facility_id WHERE e.id IN ({list})"
        )
    })
    .await?;
    let left = |max: Option<i64>, taken: i64| max.map(|m| (m - taken).max(0));
    Ok(rows
        .into_iter()
        .map(|e| {
            let summary = json!({
                "id": e.id,
                "title": e.title,
                "eventType": e.event_type,
                "startDate": crate::time::to_rfc3339(e.start_date),
                "endDate": e.end_date.map(crate::time::to_rfc3339),
                "facilityId": e.facility_id,
                "facilityName": e.facility_name,
                "location": e.location,
                "cancelled": e.cancelled_at.is_some(),
                "maxSkaters": e.max_skaters,
                "maxGoalies": e.max_goalies,
                "attendingSkaters": e.skaters,
                "attendingGoalies": e.goalies,
                "skaterSpotsLeft": left(e.max_skaters, e.skaters),
                "goalieSpotsLeft": left(e.max_goalies, e.goalies),
            });
            (e.id, summary)
        })
        .collect())
}

#[derive(FromRow)]
struct RosterSummaryRow {
    id: String,
    name: String,
    team_id: String,
    team_name: String,
    season_id: String,
    season_name: String,
}

pub async fn rosters<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    ids: &[String],
) -> Result<HashMap<String, Value>, sqlx::Error> {
    let rows: Vec<RosterSummaryRow> = by_ids(ex, ids, |list| {
        format!(
            "SELECT r.id, r.name, t.id AS team_id, t.name AS team_name, s.id AS season_id, s.name AS season_name \
             FROM rosters r JOIN teams t ON t.id = r.team_id JOIN seasons s ON s.id = r.season_id WHERE r.id IN ({list})"
        )
    })
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| {
            let summary = json!({"id": r.id, "name": r.name, "teamId": r.team_id, "teamName": r.team_name,
                "seasonId": r.season_id, "seasonName": r.season_name});
            (r.id, summary)
        })
        .collect())
}

#[derive(FromRow)]
struct SeasonSummaryRow {
    id: String,
    name: String,
    start_date: i64,
    end_date: i64,
    facility_id: String,
    facility_name: String,
}

pub async fn seasons<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    ids: &[String],
) -> Result<HashMap<String, Value>, sqlx::Error> {
    let rows: Vec<SeasonSummaryRow> = by_ids(ex, ids, |list| {
        format!(
            "SELECT s.id, s.name, s.start_date, s.end_date, f.id AS facility_id, f.name AS facility_name \
             FROM seasons s JOIN facilities f ON f.id = s.facility_id WHERE s.id IN ({list})"
        )
    })
    .await?;
    Ok(rows
        .into_iter()
        .map(|s| {
            let summary = json!({"id": s.id, "name": s.name, "startDate": crate::time::to_rfc3339(s.start_date),
                "endDate": crate::time::to_rfc3339(s.end_date), "facilityId": s.facility_id, "facilityName": s.facility_name});
            (s.id, summary)
        })
        .collect())
}

#[derive(FromRow)]
struct PostSummaryRow {
    id: String,
    content: String,
    author_id: String,
    author_name: String,
    created_at: i64,
    updated_at: i64,
}

/// Posts of people whose account still exists.
pub async fn posts<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    ids: &[String],
) -> Result<HashMap<String, Value>, sqlx::Error> {
    let rows: Vec<PostSummaryRow> = by_ids(ex, ids, |list| {
        format!(
            "SELECT p.id, p.content, p.author_id, {DISPLAY_NAME} AS author_name, p.created_at, p.updated_at \
             FROM posts p JOIN users u ON u.id = p.author_id WHERE u.deleted_at IS NULL AND p.id IN ({list})"
        )
    })
    .await?;
    Ok(rows
        .into_iter()
        .map(|p| {
            let summary = json!({"id": p.id, "content": p.content, "authorId": p.author_id, "authorName": p.author_name,
                "createdAt": crate::time::to_rfc3339(p.created_at), "updatedAt": crate::time::to_rfc3339(p.updated_at)});
            (p.id, summary)
        })
        .collect())
}

/// People whose account still exists (the actors of items, and the
/// resource of USER items).
pub async fn people<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    ids: &[String],
) -> Result<HashMap<String, crate::summaries::UserSummary>, sqlx::Error> {
    let rows: Vec<super::users::UserSummaryRow> = by_ids(ex, ids, |list| {
        format!("SELECT {SUMMARY_COLUMNS} FROM users u WHERE u.deleted_at IS NULL AND u.id IN ({list})")
    })
    .await?;
    Ok(rows.into_iter().map(|r| (r.id.clone(), crate::summaries::UserSummary::from(r))).collect())
}
