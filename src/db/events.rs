//! Events, their RSVP rows, payments and team links: the rows the REST
//! handlers read and write. What the per-event actors persist through is
//! [`super::event_store`].

use super::{dynamic, flag, new_id, now_ms};
use sqlx::{Any, AnyConnection, Executor, FromRow};
use std::collections::HashMap;

#[derive(Debug, Clone, FromRow)]
pub struct EventRow {
    pub id: String,
    pub title: String,
    pub description: Option<String>,
    pub location: Option<String>,
    pub start_date: i64,
    pub end_date: Option<i64>,
    pub image_url: Option<String>,
    pub creator_id: String,
    pub facility_id: Option<String>,
    pub season_id: Option<String>,
    pub external_home_team_name: Option<String>,
    pub external_away_team_name: Option<String>,
    pub external_rink: Option<String>,
    pub home_score: Option<i64>,
    pub away_score: Option<i64>,
    pub event_type: String,
    pub max_skaters: Option<i64>,
    pub max_goalies: Option<i64>,
    pub group_config: Option<String>,
    pub version: i64,
    pub cancelled_at: Option<i64>,
    /// Why it was cancelled, in the organiser's words (or the sync's).
    pub cancel_reason: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
    /// 1 when listed at its facility under the rink's name.
    pub hosted_by_facility: i64,
    /// The weekly series it is part of (docs/series.md).
    pub series_id: Option<String>,
    /// Its RSVP rules (docs/pickup-night.md).
    #[sqlx(flatten)]
    pub rules: crate::domain::rsvp_rules::RsvpRules,
}

pub(crate) const COLUMNS: &str = "e.id, e.title, e.description, e.location, e.start_date, e.end_date, e.image_url, \
    e.creator_id, e.facility_id, e.season_id, e.external_home_team_name, e.external_away_team_name, \
    e.external_rink, e.home_score, e.away_score, e.event_type, e.max_skaters, e.max_goalies, e.group_config, \
    e.version, e.cancelled_at, e.cancel_reason, e.created_at, e.updated_at, e.hosted_by_facility, e.series_id, \
    e.late_window_minutes, e.regulars_first_minutes, e.cutoff_minutes, e.min_skaters, e.min_goalies, \
    e.short_check_minutes";

/// A person's name as others see it: "First Last", else the username.
pub const DISPLAY_NAME: &str = "CASE WHEN u.first_name IS NOT NULL \
    THEN u.first_name || COALESCE(' ' || u.last_name, '') \
    ELSE COALESCE(u.username, 'Deleted user') END";

/// The editable fields of an event (limits go through the actor).
#[derive(Debug, Clone, Default)]
pub struct EventFields {
    pub title: String,
    pub description: Option<String>,
    pub location: Option<String>,
    pub start_date: i64,
    pub end_date: Option<i64>,
    pub image_url: Option<String>,
    pub facility_id: Option<String>,
    pub season_id: Option<String>,
    pub external_home_team_name: Option<String>,
    pub external_away_team_name: Option<String>,
    pub external_rink: Option<String>,
    pub home_score: Option<i64>,
    pub away_score: Option<i64>,
    pub event_type: String,
    pub group_config: Option<String>,
}

pub async fn insert<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    creator_id: &str,
    f: &EventFields,
    max_skaters: Option<i64>,
    max_goalies: Option<i64>,
    hosted_by_facility: bool,
    series_id: Option<&str>,
) -> Result<String, sqlx::Error> {
    let id = new_id();
    let now = now_ms();
    sqlx::query(
        "INSERT INTO events (id, title, description, location, start_date, end_date, image_url, creator_id, \
           facility_id, season_id, external_home_team_name, external_away_team_name, external_rink, home_score, \
           away_score, event_type, max_skaters, max_goalies, group_config, version, created_at, updated_at, \
           hosted_by_facility, open_skaters, open_goalies, series_id) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, 0, $20, $20, $21, \
           $17, $18, $22)",
    )
    .bind(&id)
    .bind(&f.title)
    .bind(&f.description)
    .bind(&f.location)
    .bind(f.start_date)
    .bind(f.end_date)
    .bind(&f.image_url)
    .bind(creator_id)
    .bind(&f.facility_id)
    .bind(&f.season_id)
    .bind(&f.external_home_team_name)
    .bind(&f.external_away_team_name)
    .bind(&f.external_rink)
    .bind(f.home_score)
    .bind(f.away_score)
    .bind(&f.event_type)
    .bind(max_skaters)
    .bind(max_goalies)
    .bind(&f.group_config)
    .bind(now)
    .bind(flag(hosted_by_facility))
    .bind(series_id)
    .execute(ex)
    .await?;
    Ok(id)
}

/// Lists the event at its facility under the rink's name, or takes it off.
pub async fn set_hosted<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str, hosted: bool) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE events SET hosted_by_facility = $2, updated_at = $3 WHERE id = $1")
        .bind(id)
        .bind(flag(hosted))
        .bind(now_ms())
        .execute(ex)
        .await?;
    Ok(())
}

/// Replaces the editable fields (not limits, version or cancellation).
pub async fn update<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str, f: &EventFields) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE events SET title = $2, description = $3, location = $4, start_date = $5, end_date = $6, \
           image_url = $7, facility_id = $8, season_id = $9, external_home_team_name = $10, \
           external_away_team_name = $11, external_rink = $12, home_score = $13, away_score = $14, \
           event_type = $15, group_config = $16, updated_at = $17 WHERE id = $1",
    )
    .bind(id)
    .bind(&f.title)
    .bind(&f.description)
    .bind(&f.location)
    .bind(f.start_date)
    .bind(f.end_date)
    .bind(&f.image_url)
    .bind(&f.facility_id)
    .bind(&f.season_id)
    .bind(&f.external_home_team_name)
    .bind(&f.external_away_team_name)
    .bind(&f.external_rink)
    .bind(f.home_score)
    .bind(f.away_score)
    .bind(&f.event_type)
    .bind(&f.group_config)
    .bind(now_ms())
    .execute(ex)
    .await?;
    Ok(())
}

/// The committed version (the `seq` of `event:ID`).
pub async fn version<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar("SELECT version FROM events WHERE id = $1").bind(id).fetch_optional(ex).await
}

pub async fn get<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<Option<EventRow>, sqlx::Error> {
    sqlx::query_as(dynamic(format!("SELECT {COLUMNS} FROM events e WHERE e.id = $1"))).bind(id).fetch_optional(ex).await
}

pub async fn delete<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<bool, sqlx::Error> {
    Ok(sqlx::query("DELETE FROM events WHERE id = $1").bind(id).execute(ex).await?.rows_affected() > 0)
}

/// Filters of the events list; all optional, combined with AND.
#[derive(Debug, Default)]
pub struct EventFilter {
    pub facility_id: Option<String>,
    pub season_id: Option<String>,
    pub event_type: Option<String>,
    pub from: Option<i64>,
    pub to: Option<i64>,
    pub created_by: Option<String>,
    /// Events this user is attending or waitlisted for.
    pub attending: Option<String>,
    pub include_cancelled: bool,
    /// With `facility_id`: also the community events at the facility, not
    /// only those it lists.
    pub include_community: bool,
}

/// Events by start time then id, keyset-paged after `(start, id)`.
pub async fn list<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    f: &EventFilter,
    after: Option<(i64, String)>,
    limit: i64,
) -> Result<Vec<EventRow>, sqlx::Error> {
    let page_start = crate::db::keyset("e.start_date", "e.id", crate::db::Order::OldestFirst, 16);
    let sql = format!(
        "SELECT {COLUMNS} FROM events e WHERE \
           ($1 = 0 OR e.facility_id = $2) AND ($3 = 0 OR e.season_id = $4) AND ($5 = 0 OR e.event_type = $6) \
           AND ($7 = 0 OR e.start_date >= $8) AND ($9 = 0 OR e.start_date < $10) \
           AND ($11 = 0 OR e.creator_id = $12) \
           AND ($13 = 0 OR EXISTS (SELECT 1 FROM event_rsvps r WHERE r.event_id = e.id AND r.user_id = $14 \
                AND r.status IN ('ATTENDING', 'WAITLISTED'))) \
           AND ($15 = 1 OR e.cancelled_at IS NULL) \
           AND {page_start} \
           AND ($1 = 0 OR $20 = 1 OR e.hosted_by_facility = 1) \
         ORDER BY e.start_date, e.id LIMIT $19"
    );
    let opt = |v: &Option<String>| (flag(v.is_some()), v.clone().unwrap_or_default());
    let (has_facility, facility) = opt(&f.facility_id);
    let (has_season, season) = opt(&f.season_id);
    let (has_type, kind) = opt(&f.event_type);
    let (has_creator, creator) = opt(&f.created_by);
    let (has_attending, attending) = opt(&f.attending);
    sqlx::query_as(dynamic(sql))
        .bind(has_facility)
        .bind(facility)
        .bind(has_season)
        .bind(season)
        .bind(has_type)
        .bind(kind)
        .bind(flag(f.from.is_some()))
        .bind(f.from.unwrap_or(0))
        .bind(flag(f.to.is_some()))
        .bind(f.to.unwrap_or(0))
        .bind(has_creator)
        .bind(creator)
        .bind(has_attending)
        .bind(attending)
        .bind(flag(f.include_cancelled))
        .bind(flag(after.is_some()))
        .bind(after.as_ref().map(|a| a.0).unwrap_or(0))
        .bind(after.map(|a| a.1).unwrap_or_default())
        .bind(limit + 1)
        .bind(flag(f.include_community))
        .fetch_all(ex)
        .await
}

/// Payment states of an event's attendees: user id → paid.
pub async fn payments<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    event_id: &str,
) -> Result<HashMap<String, bool>, sqlx::Error> {
    let rows: Vec<(String, i64)> = sqlx::query_as("SELECT user_id, is_paid FROM event_payments WHERE event_id = $1")
        .bind(event_id)
        .fetch_all(ex)
        .await?;
    Ok(rows.into_iter().map(|(u, p)| (u, p != 0)).collect())
}

#[derive(Debug, Clone, FromRow)]
pub struct PaymentRow {
    pub id: String,
    pub event_id: String,
    pub user_id: String,
    pub is_paid: i64,
    /// What they paid, when marked paid since bills exist.
    pub paid_cents: Option<i64>,
    pub marked_paid_at: Option<i64>,
    pub marked_paid_by_id: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
}

/// Marks a payment paid or unpaid, with what they paid when the event has
/// a bill (`None`: paid in full, whatever the share). Only attendees have
/// payment rows (created when they became ATTENDING). `None` when the
/// person has no payment row.
pub async fn mark_paid(
    conn: &mut AnyConnection,
    event_id: &str,
    user_id: &str,
    paid: bool,
    paid_cents: Option<i64>,
    by: &str,
) -> Result<Option<PaymentRow>, sqlx::Error> {
    let now = now_ms();
    let paid_cents = paid_cents.filter(|_| paid);
    let done = sqlx::query(
        "UPDATE event_payments SET is_paid = $3, paid_cents = $4, marked_paid_at = $5, marked_paid_by_id = $6, updated_at = $7 \
         WHERE event_id = $1 AND user_id = $2",
    )
    .bind(event_id)
    .bind(user_id)
    .bind(flag(paid))
    .bind(paid_cents)
    .bind(paid.then_some(now))
    .bind(paid.then(|| by.to_string()))
    .bind(now)
    .execute(&mut *conn)
    .await?;
    if done.rows_affected() == 0 {
        return Ok(None);
    }
    sqlx::query_as(
        "SELECT id, event_id, user_id, is_paid, paid_cents, marked_paid_at, marked_paid_by_id, created_at, updated_at \
         FROM event_payments WHERE event_id = $1 AND user_id = $2",
    )
    .bind(event_id)
    .bind(user_id)
    .fetch_optional(&mut *conn)
    .await
}

#[derive(Debug, Clone, FromRow)]
pub struct EventTeamRow {
    pub id: String,
    pub team_id: String,
    pub role: String,
    pub team_name: String,
}

pub async fn teams<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    event_id: &str,
) -> Result<Vec<EventTeamRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT et.id, et.team_id, et.role, t.name AS team_name FROM event_teams et JOIN teams t ON t.id = et.team_id \
         WHERE et.event_id = $1 ORDER BY et.role DESC",
    )
    .bind(event_id)
    .fetch_all(ex)
    .await
}

/// The ids of the teams linked to an event.
pub async fn team_ids<'e, E: Executor<'e, Database = Any>>(ex: E, event_id: &str) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT team_id FROM event_teams WHERE event_id = $1 ORDER BY team_id")
        .bind(event_id)
        .fetch_all(ex)
        .await
}

/// Links a team as HOME or AWAY, replacing whichever team held that role.
pub async fn set_team(conn: &mut AnyConnection, event_id: &str, team_id: &str, role: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM event_teams WHERE event_id = $1 AND (role = $2 OR team_id = $3)")
        .bind(event_id)
        .bind(role)
        .bind(team_id)
        .execute(&mut *conn)
        .await?;
    sqlx::query("INSERT INTO event_teams (id, event_id, team_id, role) VALUES ($1, $2, $3, $4)")
        .bind(new_id())
        .bind(event_id)
        .bind(team_id)
        .bind(role)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

pub async fn remove_team<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    event_id: &str,
    team_id: &str,
) -> Result<bool, sqlx::Error> {
    let r = sqlx::query("DELETE FROM event_teams WHERE event_id = $1 AND team_id = $2")
        .bind(event_id)
        .bind(team_id)
        .execute(ex)
        .await?;
    Ok(r.rows_affected() > 0)
}

/// A person's RSVP status, when they have one (declined and removed people
/// are in no list).
pub async fn rsvp_status<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    event_id: &str,
    user_id: &str,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT status FROM event_rsvps WHERE event_id = $1 AND user_id = $2")
        .bind(event_id)
        .bind(user_id)
        .fetch_optional(ex)
        .await
}

pub async fn payment_rows<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    event_id: &str,
) -> Result<Vec<PaymentRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, event_id, user_id, is_paid, paid_cents, marked_paid_at, marked_paid_by_id, created_at, updated_at \
         FROM event_payments WHERE event_id = $1 ORDER BY created_at",
    )
    .bind(event_id)
    .fetch_all(ex)
    .await
}
