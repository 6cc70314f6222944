//! A staff edit of a game before it goes live: a new puck-drop time, a
//! status (SCHEDULED / POSTPONED / CANCELLED) and the game's own period
//! lengths and clock mode, decided whole by the game's actor, the one
//! writer of its row and version. Either every part is taken or nothing
//! changes: a refused status leaves the time alone.
//!
//! - A LIVE or FINAL game takes no edit (`conflict`).
//! - A CANCELLED game stays cancelled (CANCELLED is final) but may have its
//!   time corrected.
//! - LIVE and FINAL are not statuses to set: START and FINAL are actions.
//! - Settings change only before the game has started, and must be valid.

use super::clock::SettingsPatch;
use super::decide::{GameOutcome, Rejection};
use super::model::{GameState, GameStatus, Period};

/// What a staff edit asks for; every part optional.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GameEdit {
    /// A new puck-drop time (epoch ms).
    pub scheduled_at: Option<i64>,
    pub status: Option<GameStatus>,
    pub settings: SettingsPatch,
}

/// Decides the edit against `state`; on `Err` the state is untouched.
pub(super) fn edit(state: &mut GameState, edit: &GameEdit) -> Result<GameOutcome, Rejection> {
    let current = state.status();
    if matches!(current, GameStatus::Live | GameStatus::Final) {
        return Err(Rejection::state(format!(
            "the game is {current}; only a game that has not started can be changed"
        )));
    }
    if let Some(status) = edit.status {
        status_allowed(current, status)?;
    }
    let settings = state.own_settings();
    let new_settings = edit.settings.applied_to(settings);
    if !edit.settings.is_empty() {
        if let Some((field, message)) = new_settings.invalid() {
            return Err(Rejection::invalid(field, message));
        }
        if current == GameStatus::Cancelled && new_settings != settings {
            return Err(Rejection::state("the game is CANCELLED; schedule a new one"));
        }
    }
    // Every check is done: apply.
    let mut outcome = GameOutcome { scheduled_at: edit.scheduled_at, ..GameOutcome::default() };
    if let Some(status) = edit.status.filter(|s| *s != current) {
        state.game.status = status;
        outcome.status_changed = true;
    }
    if new_settings != settings {
        state.game.own_settings = new_settings;
        state.game.clock = state.settings().fresh(Period::First, 0);
        outcome.settings = Some(new_settings);
    }
    Ok(outcome)
}

fn status_allowed(current: GameStatus, status: GameStatus) -> Result<(), Rejection> {
    if matches!(status, GameStatus::Live | GameStatus::Final) {
        return Err(Rejection::invalid("status", "use the START and FINAL actions"));
    }
    if current == GameStatus::Cancelled && status != GameStatus::Cancelled {
        return Err(Rejection::state("the game is CANCELLED; schedule a new one"));
    }
    Ok(())
}
