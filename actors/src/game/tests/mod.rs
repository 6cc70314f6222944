//! Unit tests of the scoring rules, one behaviour each, named as sentences,
//! by subject: [`scoring`] (goals, penalties, periods, FINAL and UNDO),
//! [`statuses_and_lineups`] (what a game accepts in each status, who
//! dressed, staff edits) and [`documents`] (versions, the public document
//! and its updates, stored JSON). Here: the game they all start from and
//! the helpers they share.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::json;

use super::*;
use crate::hockey::Position;

pub(crate) const NOW: i64 = 1_793_734_200_000;

fn player(user: &str, jersey: i64) -> Player {
    Player {
        user_id: user.into(),
        display_name: format!("Player {user}"),
        jersey_number: Some(jersey),
        position: Some(if user.ends_with('g') { Position::Goalie } else { Position::Center }),
    }
}

/// Home "H" with h1, h2, h3, hg; away "A" with a1, a2, a3, ag.
pub(crate) fn game() -> GameState {
    let side = |id: &str, prefix: &str| RosterSide {
        roster_id: id.into(),
        name: format!("Team {id}"),
        players: ["1", "2", "3", "g"].iter().zip(1..).map(|(s, n)| player(&format!("{prefix}{s}"), n)).collect(),
        lineup: None,
    };
    GameState::new(StoredGame {
        game_id: "g1".into(),
        season_id: Some("s1".into()),
        version: 1,
        status: GameStatus::Scheduled,
        period: None,
        home_score: 0,
        away_score: 0,
        home: side("H", "h"),
        away: side("A", "a"),
        log: Vec::new(),
        season_settings: ClockSettings::default(),
        own_settings: GameSettings::default(),
        clock: Clock::default(),
    })
}

fn set_status(status: GameStatus) -> GameCommand {
    GameCommand::Edit(GameEdit { status: Some(status), ..GameEdit::default() })
}

fn reschedule(scheduled_at: i64) -> GameCommand {
    GameCommand::Edit(GameEdit { scheduled_at: Some(scheduled_at), ..GameEdit::default() })
}

fn run(state: &mut GameState, command: GameCommand) -> Result<GameOutcome, Rejection> {
    let out = decide(state, &command, "keeper", NOW);
    state.seal();
    out
}

fn act(state: &mut GameState, action: GameAction) -> Result<GameOutcome, Rejection> {
    run(state, GameCommand::Action(action))
}

pub(crate) fn goal(roster: &str, scorer: Option<&str>, assists: &[&str]) -> GameAction {
    GameAction::Goal {
        roster_id: roster.into(),
        scorer_id: scorer.map(Into::into),
        assist_ids: assists.iter().map(|a| a.to_string()).collect(),
        clock_ms: None,
    }
}

fn penalty(roster: &str, player: &str, minutes: i64) -> GameAction {
    GameAction::Penalty {
        roster_id: roster.into(),
        player_id: player.into(),
        minutes: Some(minutes),
        penalty: None,
        clock_ms: None,
    }
}

fn live() -> GameState {
    let mut state = game();
    act(&mut state, GameAction::Start).unwrap();
    state
}

fn effects(out: &GameOutcome) -> &GameEffects {
    &out.entry.as_ref().unwrap().effects
}

fn invalid_field(r: Rejection) -> &'static str {
    match r {
        Rejection::Invalid { field, .. } => field,
        other => panic!("expected a validation failure, got {other:?}"),
    }
}

mod documents;
mod scoring;
mod statuses_and_lineups;
