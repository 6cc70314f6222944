//! Reminders before a person's events (docs/notifications.md › Reminders):
//! every node ticks; the node that takes the cluster-wide `reminders`
//! lease reads the RSVPs that may be due and writes the due reminders, each
//! with a dedupe key unique per person, so a reminder is written at most
//! once even if two nodes ever ran at the same moment. The rule of which
//! reminder is due is the pure [`due`] below.

use actix_web::web;

use crate::db::notifications::{self as rows, About, NewNotification, ReminderCandidate};
use crate::domain::NotificationType;
use crate::state::AppState;
use serde_json::json;
use sqlx::AnyConnection;
use std::collections::HashMap;

/// The job's name in `job_leases`.
const JOB: &str = "reminders";
/// How long one run may hold the lease.
const LEASE_MS: i64 = 60_000;
const MINUTE: i64 = 60_000;

/// Which reminder is due now for an RSVP to an event starting at `start`
/// (all epoch ms), answered at `answered_at`, for a person reminded at
/// `minutes` before the start: the nearest reminder whose moment has come
/// (at or before `now`, before the start) and that they answered before —
/// someone who said yes an hour before puck drop needs no "in 2 hours".
/// When several have come (the scheduler was down), only the nearest is
/// sent; the others are never sent later, since it stays the nearest.
pub fn due(start: i64, now: i64, answered_at: i64, minutes: &[i64]) -> Option<i64> {
    if now >= start {
        return None;
    }
    minutes
        .iter()
        .copied()
        .filter(|m| *m > 0)
        .filter(|m| {
            let at = start - m * MINUTE;
            at <= now && answered_at < at
        })
        .min()
}

/// The dedupe key of one reminder: per event, offset and start, so a
/// reminder is told once, and again only if the event moves.
pub fn dedupe_key(event_id: &str, minutes: i64, start: i64) -> String {
    format!("REMINDER|{event_id}|{minutes}|{start}")
}

/// Starts this node's reminder ticks (unless the tick is 0).
pub fn spawn(state: web::Data<AppState>) {
    let tick = state.config.reminder_tick;
    if tick.is_zero() {
        tracing::info!("reminders are off on this node (REMINDER_TICK_SECONDS=0)");
        return;
    }
    let owner = crate::db::new_id();
    tokio::spawn(async move {
        let mut every = tokio::time::interval(tick);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            every.tick().await;
            if let Err(e) = run(&state, &owner).await {
                tracing::warn!(error = %e, "reminder tick failed");
            }
        }
    });
}

/// One tick: if this node takes the lease, writes every due reminder —
/// of events people answered, and of league games players have not
/// answered (docs/availability.md › Reminder) — and pushes them. Returns
/// how many were written (0 without the lease).
pub async fn run(state: &AppState, owner: &str) -> Result<u64, sqlx::Error> {
    let now = (state.clock)();
    if !rows::take_lease(&state.db.pool, JOB, owner, now, now + LEASE_MS).await? {
        return Ok(0);
    }
    let batch = super::new_batch();
    let mut tx = state.db.begin().await?;
    let written = events(state, &mut tx, now, &batch).await? + unanswered_games(state, &mut tx, now, &batch).await?;
    tx.commit().await?;
    if written > 0 {
        tracing::info!(written, "reminders");
        state.realtime.push_notifications(batch);
    }
    Ok(written)
}

/// A person's reminder offsets (the defaults when they chose none).
fn offsets(stored: Option<&str>) -> Vec<i64> {
    stored.map_or_else(|| rows::DEFAULT_REMINDERS.to_vec(), rows::parse_minutes)
}

/// EVENT_REMINDER: the events people are in or waitlisted for.
async fn events(state: &AppState, tx: &mut AnyConnection, now: i64, batch: &str) -> Result<u64, sqlx::Error> {
    let candidates = rows::reminder_candidates(&state.db.pool, now).await?;
    let due_now: Vec<(ReminderCandidate, i64)> = candidates
        .into_iter()
        .filter_map(|c| {
            let minutes = offsets(c.reminder_minutes.as_deref());
            due(c.start_date, now, c.responded_at, &minutes).map(|m| (c, m))
        })
        .collect();
    if due_now.is_empty() {
        return Ok(0);
    }
    let mut event_ids: Vec<String> = due_now.iter().map(|(c, _)| c.event_id.clone()).collect();
    event_ids.sort_unstable();
    event_ids.dedup();
    let mut facts = HashMap::new();
    for chunk in event_ids.chunks(200) {
        for e in rows::events_facts(&state.db.pool, chunk).await? {
            facts.insert(e.id.clone(), e);
        }
    }
    let mut written = 0;
    for (c, minutes) in &due_now {
        let Some(event) = facts.get(&c.event_id) else { continue };
        let note = NewNotification {
            kind: NotificationType::EventReminder,
            about: About::Event,
            resource_id: &c.event_id,
            payload: super::with(super::event_payload(event), json!({"minutesBefore": minutes, "status": c.status})),
            dedupe_key: Some(dedupe_key(&c.event_id, *minutes, c.start_date)),
        };
        written += rows::insert(&mut *tx, &note, std::slice::from_ref(&c.user_id), batch).await?;
    }
    Ok(written)
}

/// AVAILABILITY_REMINDER: rostered players who have not said whether they
/// play a game of their roster, at their reminder offsets.
async fn unanswered_games(state: &AppState, tx: &mut AnyConnection, now: i64, batch: &str) -> Result<u64, sqlx::Error> {
    let default_max = rows::DEFAULT_REMINDERS.iter().copied().max().unwrap_or(0);
    let mut written = 0;
    for u in crate::db::availability::unanswered(&state.db.pool, now, default_max).await? {
        // Never answered: every offset whose moment has come is a candidate.
        let Some(minutes) = due(u.starts_at, now, i64::MIN, &offsets(u.reminder_minutes.as_deref())) else {
            continue;
        };
        let game = super::GameAsked {
            roster_id: &u.roster_id,
            game_id: &u.game_id,
            kind: &u.kind,
            title: &u.title,
            starts_at: u.starts_at,
            time_zone: u.time_zone.as_deref(),
            place: u.place.as_deref(),
            opponent: u.opponent.as_deref(),
        };
        let asked = super::Asked::Reminder { minutes };
        written += super::availability_asked(&mut *tx, &game, asked, std::slice::from_ref(&u.user_id), batch).await?;
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const HOUR: i64 = 60 * MINUTE;
    const DEFAULTS: [i64; 2] = [1440, 120];

    #[test]
    fn the_nearest_reminder_whose_moment_came_is_due() {
        let start = 100 * HOUR;
        let answered = 0;
        assert_eq!(due(start, start - 25 * HOUR, answered, &DEFAULTS), None);
        assert_eq!(due(start, start - 24 * HOUR, answered, &DEFAULTS), Some(1440));
        assert_eq!(due(start, start - 3 * HOUR, answered, &DEFAULTS), Some(1440));
        assert_eq!(due(start, start - 2 * HOUR, answered, &DEFAULTS), Some(120));
        assert_eq!(due(start, start - 1, answered, &DEFAULTS), Some(120));
        assert_eq!(due(start, start, answered, &DEFAULTS), None, "started: nothing");
        assert_eq!(due(start, start - HOUR, answered, &[]), None, "no reminders chosen");
    }

    #[test]
    fn a_reminder_whose_moment_passed_before_the_answer_is_not_due() {
        let start = 100 * HOUR;
        // Said yes 23 hours before: no "tomorrow", but the 2-hour one.
        let answered = start - 23 * HOUR;
        assert_eq!(due(start, start - 22 * HOUR, answered, &DEFAULTS), None);
        assert_eq!(due(start, start - 2 * HOUR, answered, &DEFAULTS), Some(120));
        // Said yes an hour before: nothing.
        assert_eq!(due(start, start - 30 * MINUTE, start - HOUR, &DEFAULTS), None);
    }

    proptest! {
        /// Whatever the times, a due reminder's moment has come, lies after
        /// the answer, is before the start, and is one the person chose.
        #[test]
        fn a_due_reminder_is_chosen_has_come_and_follows_the_answer(
            start in 0i64..10_000 * HOUR,
            before in -HOUR..8 * 24 * HOUR,
            answered_before in 0i64..10 * 24 * HOUR,
            minutes in prop::collection::vec(1i64..10_080, 0..4),
        ) {
            let now = start - before;
            let answered = start - answered_before;
            if let Some(m) = due(start, now, answered, &minutes) {
                prop_assert!(minutes.contains(&m));
                prop_assert!(start - m * MINUTE <= now && now < start);
                prop_assert!(answered < start - m * MINUTE);
                // No nearer one has come as well.
                prop_assert!(!minutes.iter().any(|o| *o < m && start - o * MINUTE <= now && answered < start - o * MINUTE));
            }
        }
    }
}
