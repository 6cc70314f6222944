//! Scheduled syncs: every node looks for due seasons every tick and races
//! for each one's lease; the node whose conditional UPDATE took it runs the
//! sync, so a season syncs on exactly one node at a time (docs/sync.md ›
//! Schedule). The timing rules are pure functions below.

use actix_web::web;

use super::run::{self, Trigger};
use crate::db;
use crate::state::AppState;

/// Due seasons taken per tick per node; the rest wait for the next tick.
const SEASONS_PER_TICK: i64 = 10;
/// How long a scheduled sync may hold its lease (as a manual one).
const LEASE_MS: i64 = 120_000;
/// The first retry after a failure, doubled per failure in a row.
const FIRST_RETRY_MS: i64 = 5 * 60_000;

/// When the next scheduled sync is due after a success: one interval,
/// give or take a tenth (so seasons set up together spread out).
pub fn next_after_success(now: i64, interval_ms: i64, seed: u64) -> i64 {
    let spread = (interval_ms / 10).max(1);
    let offset = (seed % (2 * spread as u64 + 1)) as i64 - spread;
    now + interval_ms + offset
}

/// When to try again after `failures` failures in a row: 5 min, 10, 20 …,
/// never later than eight intervals.
pub fn next_after_failure(now: i64, interval_ms: i64, failures: i64) -> i64 {
    let doublings = (failures.max(1) - 1).min(20) as u32;
    let wait = FIRST_RETRY_MS.saturating_mul(1i64 << doublings);
    now + wait.min(interval_ms.saturating_mul(8)).max(FIRST_RETRY_MS.min(interval_ms))
}

/// Starts this node's scheduler (unless the tick is 0).
pub fn spawn(state: web::Data<AppState>) {
    let tick = state.config.sync.tick;
    if tick.is_zero() {
        tracing::info!("scheduled season sync is off on this node (SYNC_TICK_SECONDS=0)");
        return;
    }
    let owner = db::new_id();
    tokio::spawn(async move {
        let mut every = tokio::time::interval(tick);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            every.tick().await;
            if let Err(e) = run_due(&state, &owner).await {
                tracing::warn!(error = %e, "season sync scheduler tick failed");
            }
        }
    });
}

/// Runs every due season whose lease this node takes.
async fn run_due(state: &AppState, owner: &str) -> Result<(), sqlx::Error> {
    let now = (state.clock)();
    for season_id in db::sync::due(&state.db.pool, now, SEASONS_PER_TICK).await? {
        let now = (state.clock)();
        if !db::sync::take_lease(&state.db.pool, &season_id, owner, now, now + LEASE_MS, true).await? {
            continue; // another node has it
        }
        match run::run_leased(state, &season_id, owner, Trigger::Scheduled).await {
            Ok(report) => tracing::info!(season_id, games = ?report.games, "scheduled season sync"),
            Err(e) => tracing::warn!(season_id, error = %e, "scheduled season sync failed"),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const HOUR: i64 = 3_600_000;

    #[test]
    fn failures_back_off_from_five_minutes_doubling_up_to_eight_intervals() {
        assert_eq!(next_after_failure(0, HOUR, 1), 5 * 60_000);
        assert_eq!(next_after_failure(0, HOUR, 2), 10 * 60_000);
        assert_eq!(next_after_failure(0, HOUR, 4), 40 * 60_000);
        assert_eq!(next_after_failure(0, HOUR, 30), 8 * HOUR);
    }

    proptest! {
        #[test]
        fn the_next_sync_is_an_interval_away_give_or_take_a_tenth(seed in any::<u64>(), now in 0i64..4_000_000_000_000) {
            let next = next_after_success(now, HOUR, seed);
            prop_assert!(next >= now + HOUR - HOUR / 10 && next <= now + HOUR + HOUR / 10);
        }

        #[test]
        fn a_retry_is_never_sooner_than_five_minutes_nor_later_than_eight_intervals(failures in 0i64..1000) {
            let next = next_after_failure(0, HOUR, failures);
            prop_assert!((5 * 60_000..=8 * HOUR).contains(&next));
        }
    }
}
