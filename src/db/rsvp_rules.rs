//! The RSVP rules of events and series, and who an event's regulars are
//! (docs/pickup-night.md): the series' own list and the players of its
//! teams' active rosters.

use super::events::DISPLAY_NAME;
use super::{dynamic, now_ms};
use crate::domain::rsvp_rules::RsvpRules;
use sqlx::{Any, Executor, FromRow};

/// The rule columns, in [`RsvpRules`]' order (the same names on `events`
/// and `event_series`).
pub const RULE_COLUMNS: &str =
    "late_window_minutes, regulars_first_minutes, cutoff_minutes, min_skaters, min_goalies, short_check_minutes";

/// Where a regular comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    Series,
    Roster,
}

impl Source {
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Series => "SERIES",
            Source::Roster => "ROSTER",
        }
    }
}

#[derive(Debug, Clone, FromRow)]
pub struct Regular {
    pub user_id: String,
    pub display_name: String,
    /// 1 when on the series' own list (else from a roster).
    pub listed: i64,
}

impl Regular {
    pub fn source(&self) -> Source {
        if self.listed == 1 { Source::Series } else { Source::Roster }
    }
}

/// A series' rules.
pub async fn of_series<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    series_id: &str,
) -> Result<Option<RsvpRules>, sqlx::Error> {
    sqlx::query_as(dynamic(format!("SELECT {RULE_COLUMNS} FROM event_series WHERE id = $1")))
        .bind(series_id)
        .fetch_optional(ex)
        .await
}

/// Sets an event's rules. The marks of the jobs that act on them are
/// cleared, so the regulars' window and the game-day check are looked at
/// again by the new rules.
pub async fn set_event<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    event_id: &str,
    rules: &RsvpRules,
) -> Result<(), sqlx::Error> {
    bind(
        sqlx::query(
            "UPDATE events SET late_window_minutes = $2, regulars_first_minutes = $3, cutoff_minutes = $4, \
               min_skaters = $5, min_goalies = $6, short_check_minutes = $7, opened_to_all_at = NULL, \
               short_checked_at = NULL, updated_at = $8 WHERE id = $1",
        )
        .bind(event_id),
        rules,
    )
    .bind(now_ms())
    .execute(ex)
    .await?;
    Ok(())
}

/// Sets a series' rules (its weeks are set one by one with [`set_event`]).
pub async fn set_series<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    series_id: &str,
    rules: &RsvpRules,
) -> Result<(), sqlx::Error> {
    bind(
        sqlx::query(
            "UPDATE event_series SET late_window_minutes = $2, regulars_first_minutes = $3, cutoff_minutes = $4, \
               min_skaters = $5, min_goalies = $6, short_check_minutes = $7 WHERE id = $1",
        )
        .bind(series_id),
        rules,
    )
    .execute(ex)
    .await?;
    Ok(())
}

fn bind<'q>(
    q: sqlx::query::Query<'q, Any, sqlx::any::AnyArguments>,
    r: &RsvpRules,
) -> sqlx::query::Query<'q, Any, sqlx::any::AnyArguments> {
    q.bind(r.late_window_minutes)
        .bind(r.regulars_first_minutes)
        .bind(r.cutoff_minutes)
        .bind(r.min_skaters)
        .bind(r.min_goalies)
        .bind(r.short_check_minutes)
}

/// An event's regulars, by name: its series' list, then the full-time
/// players of the active rosters of its linked teams (subs are not
/// regulars). Someone on both is listed once, as the series'.
pub async fn regulars<'e, E: Executor<'e, Database = Any>>(ex: E, event_id: &str) -> Result<Vec<Regular>, sqlx::Error> {
    sqlx::query_as(dynamic(format!(
        "SELECT u.id AS user_id, {DISPLAY_NAME} AS display_name, MAX(r.listed) AS listed FROM ( \
           SELECT sr.user_id, 1 AS listed FROM series_regulars sr JOIN events e ON e.series_id = sr.series_id \
             WHERE e.id = $1 \
           UNION ALL \
           SELECT rp.user_id, 0 AS listed FROM event_teams et \
             JOIN rosters ro ON ro.team_id = et.team_id AND ro.status = 'ACTIVE' \
             JOIN roster_players rp ON rp.roster_id = ro.id AND rp.commitment_level = 'FULL_TIME' \
             WHERE et.event_id = $1 \
         ) r JOIN users u ON u.id = r.user_id \
         GROUP BY u.id, u.first_name, u.last_name, u.username ORDER BY display_name, u.id"
    )))
    .bind(event_id)
    .fetch_all(ex)
    .await
}

/// A series' own list, by name.
pub async fn series_list<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    series_id: &str,
) -> Result<Vec<Regular>, sqlx::Error> {
    sqlx::query_as(dynamic(format!(
        "SELECT u.id AS user_id, {DISPLAY_NAME} AS display_name, 1 AS listed FROM series_regulars sr \
         JOIN users u ON u.id = sr.user_id WHERE sr.series_id = $1 ORDER BY display_name, u.id"
    )))
    .bind(series_id)
    .fetch_all(ex)
    .await
}

/// Someone who came to the series and is not on its list yet.
#[derive(Debug, Clone, FromRow)]
pub struct Suggestion {
    pub user_id: String,
    pub display_name: String,
    /// Weeks they were attending (started, not cancelled).
    pub attended: i64,
}

/// The series' past attendees not on its list, most weeks first.
pub async fn suggestions<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    series_id: &str,
    now: i64,
) -> Result<Vec<Suggestion>, sqlx::Error> {
    sqlx::query_as(dynamic(format!(
        "SELECT u.id AS user_id, {DISPLAY_NAME} AS display_name, COUNT(*) AS attended FROM event_rsvps r \
         JOIN events e ON e.id = r.event_id JOIN users u ON u.id = r.user_id \
         WHERE e.series_id = $1 AND e.start_date <= $2 AND e.cancelled_at IS NULL AND r.status = 'ATTENDING' \
           AND NOT EXISTS (SELECT 1 FROM series_regulars sr WHERE sr.series_id = $1 AND sr.user_id = r.user_id) \
         GROUP BY u.id, u.first_name, u.last_name, u.username ORDER BY attended DESC, display_name, u.id LIMIT 50"
    )))
    .bind(series_id)
    .bind(now)
    .fetch_all(ex)
    .await
}

/// Puts a person on a series' list (no change when already there).
pub async fn add<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    series_id: &str,
    user_id: &str,
    by: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO series_regulars (series_id, user_id, added_by_id, created_at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (series_id, user_id) DO NOTHING",
    )
    .bind(series_id)
    .bind(user_id)
    .bind(by)
    .bind(now_ms())
    .execute(ex)
    .await?;
    Ok(())
}

/// Takes a person off a series' list (no change when not there).
pub async fn remove<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    series_id: &str,
    user_id: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM series_regulars WHERE series_id = $1 AND user_id = $2")
        .bind(series_id)
        .bind(user_id)
        .execute(ex)
        .await?;
    Ok(())
}

/// The events not started yet of a series, or linked to a team: those
/// whose regulars a change of list or roster may move.
pub async fn upcoming_of_series<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    series_id: &str,
    now: i64,
) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT id FROM events WHERE series_id = $1 AND start_date > $2 AND cancelled_at IS NULL ORDER BY start_date",
    )
    .bind(series_id)
    .bind(now)
    .fetch_all(ex)
    .await
}

/// The upcoming events of a roster's team with a regulars' window: those a
/// change of the roster's players may re-tier.
pub async fn upcoming_with_regulars_of_roster<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    roster_id: &str,
    now: i64,
) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT e.id FROM rosters ro JOIN event_teams et ON et.team_id = ro.team_id JOIN events e ON e.id = et.event_id \
         WHERE ro.id = $1 AND e.start_date > $2 AND e.cancelled_at IS NULL AND e.regulars_first_minutes IS NOT NULL",
    )
    .bind(roster_id)
    .bind(now)
    .fetch_all(ex)
    .await
}
