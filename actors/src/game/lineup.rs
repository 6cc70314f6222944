//! Who dressed for a side: a replaced lineup, checked against the roster
//! and against the log (nobody with an entry in this game may be left
//! out). Not a log entry and not undoable (see [`super::decide`]).

use std::collections::HashSet;

use super::decide::{GameOutcome, Lineup, Rejection, side_of};
use super::model::{GameState, GameStatus};

pub(super) fn set_lineup(
    state: &mut GameState,
    roster_id: &str,
    user_ids: &[String],
) -> Result<GameOutcome, Rejection> {
    match state.status() {
        GameStatus::Scheduled | GameStatus::Live | GameStatus::Postponed => {}
        status => {
            return Err(Rejection::state(format!("the lineup cannot change once the game is {status}")));
        }
    }
    let side = side_of(state, roster_id)?;
    let roster = state.side(side);
    let mut seen = HashSet::new();
    for user in user_ids {
        if roster.player(user).is_none() {
            return Err(Rejection::invalid("userIds", format!("{user} is not on roster {roster_id}")));
        }
        if !seen.insert(user.as_str()) {
            return Err(Rejection::invalid("userIds", format!("{user} is listed twice")));
        }
    }
    if let Some(user) = players_with_entries(state, roster_id).find(|u| !seen.contains(u)) {
        return Err(Rejection::invalid(
            "userIds",
            format!("{user} has entries in this game's log and must stay dressed"),
        ));
    }
    if roster.lineup.as_deref() == Some(user_ids) {
        return Ok(GameOutcome::default());
    }
    state.side_mut(side).lineup = Some(user_ids.to_vec());
    Ok(GameOutcome {
        lineup: Some(Lineup { roster_id: roster_id.to_owned(), user_ids: user_ids.to_vec() }),
        ..GameOutcome::default()
    })
}

/// Players of a roster named by a live (not undone) GOAL or PENALTY.
fn players_with_entries<'a>(state: &'a GameState, roster_id: &'a str) -> impl Iterator<Item = &'a str> + 'a {
    state
        .log()
        .iter()
        .filter(move |e| !e.undone && e.roster_id.as_deref() == Some(roster_id))
        .flat_map(|e| e.player_id.iter().chain(e.assist_ids.iter()))
        .map(String::as_str)
}
