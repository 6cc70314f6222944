//! The clock actions (CLOCK_START / CLOCK_STOP / CLOCK_SET / INTERMISSION)
//! decided against the game, and the time a timed entry goes in at. The
//! clock's own arithmetic is [`super::clock`]'s; this module owns the rules
//! of who may move it when, and the messages that say why not.

use super::clock::{ClockPhase, INTERMISSION_MINUTES};
use super::decide::{GameAction, GameOutcome, Rejection};
use super::model::{GameState, GameStatus, Period};

/// The time left in the period for a timed entry: the one given, or the
/// clock's now. Not after the clock, not before the last timed entry.
pub(super) fn entry_clock(state: &GameState, given: Option<i64>, now_ms: i64) -> Result<i64, Rejection> {
    let clock = state.clock();
    let length = period_length(state).unwrap_or(0);
    let left_now = match clock.phase {
        ClockPhase::Play => clock.remaining_at(now_ms),
        // In a break the period to come has not started.
        ClockPhase::Intermission => length,
    };
    let last = state.standing().rev().find(|e| e.kind.is_timed());
    let Some(clock_ms) = given else {
        // The clock set back past the last entry (a correction): the play
        // goes in at the last entry's time, so the log stays in order.
        let at_last = last.map_or(length, |e| game_ms(state, 0) - state.game_ms_of(e));
        return Ok(left_now.min(at_last.clamp(0, length)));
    };
    if !(0..=length).contains(&clock_ms) {
        return Err(Rejection::invalid("clockMs", format!("the period is {} long", mm_ss(length))));
    }
    if clock_ms < left_now {
        return Err(Rejection::invalid(
            "clockMs",
            format!("the clock has not got to {} yet (it shows {})", mm_ss(clock_ms), mm_ss(left_now)),
        ));
    }
    if let Some(last) = last
        && game_ms(state, clock_ms) < state.game_ms_of(last)
    {
        return Err(Rejection::invalid(
            "clockMs",
            format!(
                "the last entry is at {}; enter plays in order (UNDO back to fix an earlier one)",
                mm_ss(last.clock_ms.unwrap_or(0))
            ),
        ));
    }
    Ok(clock_ms)
}

/// `12:34` for messages.
fn mm_ss(ms: i64) -> String {
    let seconds = (ms.max(0) + 999) / 1000;
    format!("{}:{:02}", seconds / 60, seconds % 60)
}

/// CLOCK_START / CLOCK_STOP / CLOCK_SET / INTERMISSION.
pub(super) fn clock(state: &mut GameState, action: &GameAction, now_ms: i64) -> Result<GameOutcome, Rejection> {
    if state.status() != GameStatus::Live {
        return Err(Rejection::state("the clock runs only while the game is LIVE"));
    }
    let current = *state.clock();
    let at = |given: &Option<i64>| given.unwrap_or(now_ms);
    let next = match action {
        GameAction::ClockStart { at: given } => {
            let at = at(given);
            match current.phase {
                ClockPhase::Intermission => {
                    let period = state.period().unwrap_or(Period::First);
                    state.settings().fresh(period, at).started(at)
                }
                ClockPhase::Play if current.running => {
                    return Err(Rejection::state("the clock is already running"));
                }
                ClockPhase::Play if current.remaining_at(at) == 0 => {
                    return Err(Rejection::state("no time is left in the period; record END_PERIOD"));
                }
                ClockPhase::Play => current.started(at),
            }
        }
        GameAction::ClockStop { at: given } => {
            if !current.running {
                return Err(Rejection::state("the clock is not running"));
            }
            current.stopped(at(given))
        }
        GameAction::ClockSet { remaining_ms, at: given } => {
            if current.phase != ClockPhase::Play {
                return Err(Rejection::state("the clock shows an intermission; start the period first"));
            }
            if !(0..=current.period_ms).contains(remaining_ms) {
                return Err(Rejection::invalid(
                    "remainingMs",
                    format!("between 0 and the period's {}", mm_ss(current.period_ms)),
                ));
            }
            current.set(*remaining_ms, at(given))
        }
        GameAction::Intermission { minutes, at: given } => {
            if !INTERMISSION_MINUTES.contains(minutes) {
                return Err(Rejection::invalid("minutes", "an intermission is 1 to 30 minutes"));
            }
            let fresh = period_length(state) == Some(current.remaining_ms);
            if current.running || !fresh {
                return Err(Rejection::state("an intermission comes after END_PERIOD, before the period's clock runs"));
            }
            current.intermission(*minutes, at(given))
        }
        _ => return Err(Rejection::state("not a clock action")),
    };
    state.game.clock = next;
    Ok(GameOutcome { clock_changed: true, ..GameOutcome::default() })
}

/// The game time a timed entry at `clock_ms` of this period happens at.
pub(super) fn game_ms(state: &GameState, clock_ms: i64) -> i64 {
    let period = state.period().unwrap_or(Period::First);
    let settings = state.settings();
    settings.offset_ms(period) + settings.period_ms(period) - clock_ms
}

/// How long the current period is (`None` before the game starts).
fn period_length(state: &GameState) -> Option<i64> {
    state.period().map(|p| state.settings().period_ms(p))
}
