//! Game night at the aggregate: the clock, penalties that run out on it,
//! goals that end them, shots and goalies, and UNDO across all of it.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::tests::{NOW, game, goal};
use super::*;

const M: i64 = 60_000;

fn at(state: &mut GameState, action: GameAction, now: i64) -> Result<GameOutcome, Rejection> {
    let out = decide(state, &GameCommand::Action(action), "keeper", now);
    state.seal();
    out
}

fn minor(roster: &str, player: &str) -> GameAction {
    GameAction::Penalty {
        roster_id: roster.into(),
        player_id: player.into(),
        minutes: None,
        penalty: Some(PenaltyKind::Minor),
        clock_ms: None,
    }
}

/// A live game with the clock running from `NOW`.
fn running() -> GameState {
    let mut g = game();
    at(&mut g, GameAction::Start, NOW).unwrap();
    at(&mut g, GameAction::ClockStart { at: None }, NOW).unwrap();
    g
}

fn last(g: &GameState) -> &LogEntry {
    g.log().last().unwrap()
}

#[test]
fn start_puts_the_first_period_on_the_clock_stopped_and_the_goalies_in_net() {
    let mut g = game();
    at(&mut g, GameAction::Start, NOW).unwrap();
    let clock = g.clock();
    assert_eq!((clock.running, clock.remaining_ms, clock.period_ms, clock.offset_ms), (false, 20 * M, 20 * M, 0));
    assert_eq!((g.goalies().home.as_deref(), g.goalies().away.as_deref()), (Some("hg"), Some("ag")));
}

#[test]
fn the_clock_starts_stops_and_is_set_without_a_log_entry() {
    let mut g = running();
    let entries = g.log().len();
    at(&mut g, GameAction::ClockStop { at: Some(NOW + 90_000) }, NOW + 90_100).unwrap();
    assert_eq!((g.clock().running, g.clock().remaining_ms), (false, 20 * M - 90_000));
    at(&mut g, GameAction::ClockSet { remaining_ms: 18 * M, at: None }, NOW + 100_000).unwrap();
    assert_eq!(g.clock().remaining_at(NOW + 200_000), 18 * M);
    assert_eq!(g.log().len(), entries, "clock actions write no entry");
    let before = g.version();
    at(&mut g, GameAction::ClockStart { at: None }, NOW + 200_000).unwrap();
    assert_eq!(g.version(), before + 1, "but they move the version, so screens hear of them");
    assert!(matches!(at(&mut g, GameAction::ClockStart { at: None }, NOW + 200_000), Err(Rejection::State(_))));
}

#[test]
fn the_clock_refuses_to_run_before_the_game_or_past_zero() {
    let mut g = game();
    assert!(matches!(at(&mut g, GameAction::ClockStart { at: None }, NOW), Err(Rejection::State(_))));
    let mut g = running();
    at(&mut g, GameAction::ClockStop { at: None }, NOW + 21 * M).unwrap();
    assert_eq!(g.clock().remaining_ms, 0);
    assert!(matches!(at(&mut g, GameAction::ClockStart { at: None }, NOW + 21 * M), Err(Rejection::State(_))));
    let set = GameAction::ClockSet { remaining_ms: 21 * M, at: None };
    assert!(matches!(at(&mut g, set, NOW + 21 * M), Err(Rejection::Invalid { field: "remainingMs", .. })));
}

#[test]
fn entries_record_the_period_and_the_clock_time() {
    let mut g = running();
    at(&mut g, goal("H", Some("h1"), &[]), NOW + 65_000).unwrap();
    assert_eq!((last(&g).period, last(&g).clock_ms), (Some(Period::First), Some(20 * M - 65_000)));
}

#[test]
fn an_entry_may_not_lie_in_the_future_nor_before_the_last_one() {
    let mut g = running();
    let future = GameAction::Shot { roster_id: "H".into(), clock_ms: Some(15 * M) };
    assert!(matches!(at(&mut g, future, NOW + M), Err(Rejection::Invalid { field: "clockMs", .. })));
    at(&mut g, GameAction::Shot { roster_id: "H".into(), clock_ms: Some(19 * M) }, NOW + 2 * M).unwrap();
    let earlier = GameAction::Shot { roster_id: "A".into(), clock_ms: Some(19 * M + 30_000) };
    assert!(matches!(at(&mut g, earlier, NOW + 2 * M), Err(Rejection::Invalid { field: "clockMs", .. })));
}

#[test]
fn a_power_play_goal_ends_the_minor_and_is_flagged() {
    let mut g = running();
    at(&mut g, minor("A", "a1"), NOW + M).unwrap();
    let penalty_seq = last(&g).seq;
    assert_eq!(g.public_document().penalties.len(), 1);
    at(&mut g, goal("H", Some("h1"), &["h2"]), NOW + 2 * M).unwrap();
    let scored = last(&g);
    assert_eq!((scored.strength, scored.releases), (Some(Strength::PowerPlay), Some(penalty_seq)));
    let scorer = scored.effects.players.iter().find(|p| p.user_id == "h1").unwrap();
    assert_eq!((scorer.goals, scorer.pp_goals), (1, 1));
    assert!(g.public_document().penalties.is_empty());
}

#[test]
fn undo_of_a_power_play_goal_puts_the_penalty_back_with_the_time_it_had() {
    let mut g = running();
    at(&mut g, minor("A", "a1"), NOW + M).unwrap();
    at(&mut g, goal("H", Some("h1"), &[]), NOW + 2 * M).unwrap();
    let base = g.version();
    at(&mut g, GameAction::Undo, NOW + 2 * M + 5_000).unwrap();
    let doc = g.public_document();
    assert_eq!(doc.penalties.len(), 1);
    assert_eq!((doc.penalties[0].start_ms(), doc.penalties[0].end_ms()), (M, 3 * M));
    let update = g.update_document(base);
    assert_eq!(update.penalties.len(), 1, "the update carries the penalty state");
    assert_eq!(update.home_score, 0);
}

#[test]
fn a_penalty_expires_on_the_clock_and_undo_after_it_leaves_it_expired() {
    let mut g = running();
    at(&mut g, minor("A", "a1"), NOW + M).unwrap();
    // Two minutes of play later the penalty is over: a goal is even.
    at(&mut g, goal("H", Some("h1"), &[]), NOW + 3 * M + 1).unwrap();
    assert_eq!((last(&g).strength, last(&g).releases), (Some(Strength::Even), None));
    at(&mut g, GameAction::Undo, NOW + 3 * M + 2).unwrap();
    // Listed still (the state has no "now"), but over by the clock of
    // every screen: they hide it.
    let game_now = g.clock().game_ms_at(NOW + 3 * M + 2);
    assert!(g.public_document().penalties.iter().all(|p| p.end_ms() <= game_now), "expired by the clock");
    assert_eq!(g.public_document().penalties[0].end_ms(), 3 * M, "not ended by the undone goal");
    // The clock stopped, the penalty does not run out.
    let mut g = running();
    at(&mut g, minor("A", "a1"), NOW + M).unwrap();
    at(&mut g, GameAction::ClockStop { at: None }, NOW + 2 * M).unwrap();
    at(&mut g, goal("H", Some("h1"), &[]), NOW + 10 * M).unwrap();
    assert_eq!(last(&g).strength, Some(Strength::PowerPlay));
}

#[test]
fn undo_of_the_penalty_itself_takes_the_power_play_away() {
    let mut g = running();
    at(&mut g, minor("A", "a1"), NOW + M).unwrap();
    at(&mut g, GameAction::Undo, NOW + M + 1_000).unwrap();
    assert!(g.public_document().penalties.is_empty());
    at(&mut g, goal("H", Some("h1"), &[]), NOW + 2 * M).unwrap();
    assert_eq!(last(&g).strength, Some(Strength::Even));
}

#[test]
fn penalty_minutes_are_counted_by_kind() {
    let mut g = running();
    let major = GameAction::Penalty {
        roster_id: "H".into(),
        player_id: "h1".into(),
        minutes: None,
        penalty: Some(PenaltyKind::Major),
        clock_ms: None,
    };
    at(&mut g, major, NOW + M).unwrap();
    let charged = &last(&g).effects.players[0];
    assert_eq!((charged.penalty_minutes, charged.major_pim, charged.minor_pim), (5, 5, 0));
    let wrong = GameAction::Penalty {
        roster_id: "H".into(),
        player_id: "h1".into(),
        minutes: Some(3),
        penalty: Some(PenaltyKind::Minor),
        clock_ms: None,
    };
    assert!(matches!(at(&mut g, wrong, NOW + M), Err(Rejection::Invalid { field: "minutes", .. })));
}

#[test]
fn shots_count_per_period_and_against_the_goalie_in_net() {
    let mut g = running();
    at(&mut g, GameAction::Shot { roster_id: "H".into(), clock_ms: None }, NOW + M).unwrap();
    assert_eq!(last(&g).effects.players[0].user_id, "ag");
    at(&mut g, goal("H", Some("h1"), &[]), NOW + 2 * M).unwrap();
    let keeper = last(&g).effects.players.iter().find(|p| p.user_id == "ag").unwrap();
    assert_eq!((keeper.shots_against, keeper.goals_against), (1, 1));
    let doc = g.public_document();
    assert_eq!((doc.shots.home, doc.shots.away), ([2, 0, 0, 0], [0, 0, 0, 0]));
    let json = serde_json::to_value(g.update_document(0)).unwrap();
    assert!(json.get("shots").is_none() && json.get("homeShots").is_none(), "entries carry shots: {json}");
}

#[test]
fn a_pulled_goalie_makes_the_goal_against_an_empty_net_and_undo_puts_him_back() {
    let mut g = running();
    let pull = GameAction::Goalie { roster_id: "A".into(), player_id: None, clock_ms: None };
    at(&mut g, pull.clone(), NOW + M).unwrap();
    assert_eq!(g.goalies().away, None);
    assert!(matches!(at(&mut g, pull, NOW + M), Err(Rejection::State(_))));
    at(&mut g, goal("H", Some("h1"), &[]), NOW + 2 * M).unwrap();
    assert!(last(&g).empty_net);
    assert_eq!(last(&g).strength, Some(Strength::Even), "an extra attacker is no power play");
    at(&mut g, GameAction::Undo, NOW + 2 * M).unwrap();
    at(&mut g, GameAction::Undo, NOW + 2 * M).unwrap();
    assert_eq!(g.goalies().away.as_deref(), Some("ag"));
}

#[test]
fn a_side_nobody_put_a_goalie_in_for_is_not_an_empty_net() {
    // A game without goalies dressed: nobody in net, nothing pulled.
    let mut bare = game();
    bare.game.home.lineup = Some(vec!["h1".into(), "h2".into()]);
    bare.game.away.lineup = Some(vec!["a1".into(), "a2".into()]);
    at(&mut bare, GameAction::Start, NOW).unwrap();
    at(&mut bare, goal("H", Some("h1"), &[]), NOW + M).unwrap();
    assert!(bare.goalies().away.is_none());
    assert!(!last(&bare).empty_net);
}

#[test]
fn final_credits_each_goalie_with_the_time_in_net() {
    let mut g = running();
    let change = GameAction::Goalie { roster_id: "H".into(), player_id: Some("h3".into()), clock_ms: None };
    at(&mut g, change, NOW + 5 * M).unwrap();
    for n in 0..3 {
        at(&mut g, GameAction::ClockStop { at: None }, NOW + 20 * M + n).unwrap();
        at(&mut g, GameAction::EndPeriod, NOW + 20 * M + n).unwrap();
        if n < 2 {
            at(&mut g, GameAction::ClockStart { at: None }, NOW + 20 * M + n).unwrap();
        }
    }
    // Home was not ahead: 0-0 after three goes to overtime; score there.
    at(&mut g, GameAction::ClockStart { at: None }, NOW + 21 * M).unwrap();
    at(&mut g, goal("A", Some("a1"), &[]), NOW + 22 * M).unwrap();
    at(&mut g, GameAction::Final, NOW + 22 * M).unwrap();
    let time = |user: &str| last(&g).effects.players.iter().find(|p| p.user_id == user).map_or(0, |p| p.goalie_ms);
    assert_eq!(time("hg"), 5 * M);
    assert!(time("h3") > 55 * M, "{}", time("h3"));
    assert_eq!(time("ag"), time("hg") + time("h3"));
}

#[test]
fn end_period_sets_the_next_periods_clock_and_undo_restores_the_old_one_stopped() {
    let mut g = running();
    at(&mut g, GameAction::EndPeriod, NOW + 7 * M).unwrap();
    assert_eq!((g.clock().offset_ms, g.clock().remaining_ms, g.clock().running), (20 * M, 20 * M, false));
    at(&mut g, GameAction::Intermission { minutes: 3, at: None }, NOW + 7 * M).unwrap();
    assert_eq!(g.clock().phase, ClockPhase::Intermission);
    at(&mut g, GameAction::ClockStart { at: None }, NOW + 9 * M).unwrap();
    assert_eq!((g.clock().phase, g.clock().running, g.clock().remaining_ms), (ClockPhase::Play, true, 20 * M));
    at(&mut g, GameAction::ClockStop { at: None }, NOW + 9 * M).unwrap();
    at(&mut g, GameAction::Undo, NOW + 10 * M).unwrap();
    assert_eq!(g.period(), Some(Period::First));
    assert_eq!((g.clock().remaining_ms, g.clock().running), (13 * M, false));
}

#[test]
fn a_penalty_carries_over_into_the_next_period() {
    let mut g = running();
    at(&mut g, GameAction::ClockStop { at: None }, NOW + 19 * M).unwrap();
    at(&mut g, minor("A", "a1"), NOW + 19 * M).unwrap();
    at(&mut g, GameAction::EndPeriod, NOW + 19 * M).unwrap();
    at(&mut g, GameAction::ClockStart { at: None }, NOW + 25 * M).unwrap();
    // The minor was called with one minute left: one more runs now.
    let doc = g.public_document();
    assert_eq!((doc.penalties[0].start_ms(), doc.penalties[0].end_ms()), (19 * M, 21 * M));
    at(&mut g, goal("H", Some("h1"), &[]), NOW + 25 * M + 30_000).unwrap();
    assert_eq!(last(&g).strength, Some(Strength::PowerPlay));
}

#[test]
fn a_clock_set_back_past_the_last_entry_puts_the_next_play_at_that_entrys_time() {
    let mut g = running();
    at(&mut g, goal("H", Some("h1"), &[]), NOW + 5 * M).unwrap();
    at(&mut g, GameAction::ClockSet { remaining_ms: 18 * M, at: None }, NOW + 5 * M).unwrap();
    at(&mut g, GameAction::Shot { roster_id: "A".into(), clock_ms: None }, NOW + 5 * M + 1_000).unwrap();
    assert_eq!(last(&g).clock_ms, Some(15 * M), "not before the goal");
    // Once the clock has run past it again, plays take the clock's time.
    at(&mut g, GameAction::Shot { roster_id: "A".into(), clock_ms: None }, NOW + 9 * M).unwrap();
    assert!(last(&g).clock_ms < Some(15 * M));
}
