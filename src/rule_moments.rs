//! The moments an event's RSVP rules make (docs/pickup-night.md), acted on
//! by one node at a time: every node ticks with the reminders' tick; the
//! node that takes the cluster-wide `rule-moments` lease
//! - opens each event whose regulars' window has closed to everyone (its
//!   actor fills free places from the waitlist in request order), and
//! - runs each event's game-day check at its moment: below the minimum, it
//!   posts the event's own call for subs for what is missing and tells the
//!   organiser.
//!
//! Each event is marked in the same statement that claims it
//! (`opened_to_all_at`, `short_checked_at`), so an event is acted on once
//! even if two nodes ever ran at the same moment.

use actix_web::web;

use crate::db::{self, notifications::take_lease, statuses::NewStatus};
use crate::domain::rsvp_rules::{RsvpRules, missing_in_words, shortfall};
use crate::domain::{EntityType, HockeyPosition, StatusType};
use crate::error::AppResult;
use crate::state::AppState;
use sqlx::FromRow;

/// The job's name in `job_leases`.
const JOB: &str = "rule-moments";
/// How long one run may hold the lease.
const LEASE_MS: i64 = 60_000;

/// Starts this node's ticks (unless the reminders' tick is 0).
pub fn spawn(state: web::Data<AppState>) {
    let tick = state.config.reminder_tick;
    if tick.is_zero() {
        return;
    }
    let owner = db::new_id();
    tokio::spawn(async move {
        let mut every = tokio::time::interval(tick);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            every.tick().await;
            if let Err(e) = run(&state, &owner).await {
                tracing::warn!(error = %e.message(), "rule moments tick failed");
            }
        }
    });
}

/// What one run did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Done {
    pub opened: usize,
    pub checked: usize,
    pub calls: usize,
}

/// One tick: if this node takes the lease, acts on every moment that has
/// come. Nothing without the lease.
pub async fn run(state: &AppState, owner: &str) -> AppResult<Done> {
    let now = (state.clock)();
    if !take_lease(&state.db.pool, JOB, owner, now, now + LEASE_MS).await? {
        return Ok(Done::default());
    }
    let mut done = Done::default();
    for (event_id, creator_id) in due_openings(state, now).await? {
        if claim(state, "opened_to_all_at", &event_id, now).await? {
            crate::commands::event::refill(state, &creator_id, &event_id).await?;
            done.opened += 1;
        }
    }
    for event in due_checks(state, now).await? {
        if claim(state, "short_checked_at", &event.id, now).await? {
            done.checked += 1;
            done.calls += usize::from(check(state, &event, now).await?);
        }
    }
    Ok(done)
}

/// Events whose regulars' window has closed and that were not opened yet.
async fn due_openings(state: &AppState, now: i64) -> AppResult<Vec<(String, String)>> {
    Ok(sqlx::query_as(
        "SELECT id, creator_id FROM events WHERE regulars_first_minutes IS NOT NULL AND opened_to_all_at IS NULL \
           AND cancelled_at IS NULL AND start_date > $1 AND start_date - regulars_first_minutes * 60000 <= $1",
    )
    .bind(now)
    .fetch_all(&state.db.pool)
    .await?)
}

#[derive(FromRow)]
struct DueCheck {
    id: String,
    creator_id: String,
    start_date: i64,
    #[sqlx(flatten)]
    rules: RsvpRules,
}

/// Events whose game-day check's moment has come and that were not checked.
async fn due_checks(state: &AppState, now: i64) -> AppResult<Vec<DueCheck>> {
    Ok(sqlx::query_as(db::dynamic(format!(
        "SELECT id, creator_id, start_date, {} FROM events WHERE short_check_minutes IS NOT NULL \
           AND short_checked_at IS NULL AND cancelled_at IS NULL AND start_date > $1 \
           AND start_date - short_check_minutes * 60000 <= $1",
        db::rsvp_rules::RULE_COLUMNS
    )))
    .bind(now)
    .fetch_all(&state.db.pool)
    .await?)
}

/// Marks `column` for the event unless already marked; answers whether
/// this run claimed it.
async fn claim(state: &AppState, column: &str, event_id: &str, now: i64) -> AppResult<bool> {
    let sql = format!("UPDATE events SET {column} = $2 WHERE id = $1 AND {column} IS NULL");
    let done = sqlx::query(db::dynamic(sql)).bind(event_id).bind(now).execute(&state.db.pool).await?;
    Ok(done.rows_affected() == 1)
}

/// The game-day check of one event: below the minimum, its call for subs
/// (unless one is up) and the organiser told. Answers whether a call was
/// posted.
async fn check(state: &AppState, event: &DueCheck, now: i64) -> AppResult<bool> {
    let (_, doc) = crate::live::event::current(&state.db, &state.realtime.events, &event.id).await?;
    let count = |k: &str| doc["counts"][k].as_i64().unwrap_or_default();
    let missing = shortfall((event.rules.min_skaters, event.rules.min_goalies), (count("skaters"), count("goalies")));
    if missing == (0, 0) {
        return Ok(false);
    }
    let kinds = [StatusType::LookingForSubs];
    let ids = [event.id.clone()];
    let filter = db::statuses::Filter { now, kinds: &kinds, event_ids: &ids, ..Default::default() };
    let existing = db::statuses::list(&state.db.pool, &filter).await?;
    let call = if existing.is_empty() {
        let positions = positions(missing);
        let message = format!("Short {} — come play.", missing_in_words(missing));
        let new = NewStatus {
            kind: StatusType::LookingForSubs,
            entity_type: EntityType::User.as_str(),
            user_id: &event.creator_id,
            team_id: None,
            event_id: Some(&event.id),
            message: Some(&message),
            positions: &positions,
            expires_at: event.start_date,
            now,
        };
        Some(crate::market::post::post(&state.db, &state.realtime.pusher, &new).await?)
    } else {
        None
    };
    let mut tx = state.db.begin().await?;
    let batch = crate::notify::short_handed(&mut tx, &event.id, missing, call.as_ref().map(|c| c.id.as_str())).await?;
    tx.commit().await?;
    if let Some(batch) = batch {
        state.realtime.push_notifications(batch);
    }
    Ok(call.is_some())
}

/// The positions a call for `missing` (skaters, goalies) asks for.
fn positions(missing: (i64, i64)) -> Vec<HockeyPosition> {
    let mut asked = Vec::new();
    if missing.0 > 0 {
        asked.extend(crate::market::rules::SKATERS);
    }
    if missing.1 > 0 {
        asked.push(HockeyPosition::Goalie);
    }
    asked
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_call_asks_for_exactly_what_is_missing() {
        assert_eq!(positions((0, 1)), vec![HockeyPosition::Goalie]);
        assert_eq!(positions((2, 0)).len(), 5);
        assert!(!positions((2, 0)).contains(&HockeyPosition::Goalie));
        assert_eq!(positions((2, 1)).len(), 6);
    }
}
