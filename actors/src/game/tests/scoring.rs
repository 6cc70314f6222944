//! Scoring actions one at a time: START, goals and assists, penalties,
//! the periods and the tie-break, FINAL, and UNDO of each.

use super::*;

#[test]
fn start_makes_a_scheduled_game_live_in_the_first_period() {
    let mut state = game();
    let out = act(&mut state, GameAction::Start).unwrap();
    assert_eq!((state.status(), state.period()), (GameStatus::Live, Some(Period::First)));
    let entry = out.entry.unwrap();
    assert_eq!((entry.seq, entry.kind, entry.period), (1, EntryKind::Start, Some(Period::First)));
    assert_eq!(entry.created_by, "keeper");
}

#[test]
fn a_goal_counts_for_its_side_and_credits_the_scorer_and_assists() {
    let mut state = live();
    let out = act(&mut state, goal("A", Some("a1"), &["a2", "a3"])).unwrap();
    assert_eq!((state.home_score(), state.away_score()), (0, 1));
    let fx = effects(&out);
    assert_eq!((fx.home_score, fx.away_score), (0, 1));
    let scorers = fx.players.iter().filter(|p| p.roster_id == "A");
    let credit: Vec<_> = scorers.map(|p| (p.user_id.as_str(), p.goals, p.assists)).collect();
    assert_eq!(credit, [("a1", 1, 0), ("a2", 0, 1), ("a3", 0, 1)]);
    let keeper: Vec<_> = fx.players.iter().filter(|p| p.roster_id == "H").collect();
    assert_eq!(keeper.len(), 1);
    assert_eq!((keeper[0].user_id.as_str(), keeper[0].goals_against, keeper[0].shots_against), ("hg", 1, 1));
}

#[test]
fn a_goal_without_a_known_scorer_still_counts_on_the_scoreboard() {
    let mut state = live();
    let out = act(&mut state, goal("H", None, &[])).unwrap();
    assert_eq!(state.home_score(), 1);
    assert!(effects(&out).players.iter().all(|p| p.user_id == "ag" && p.goals == 0), "only the goalie's goal against");
}

#[test]
fn a_scorer_from_the_other_roster_is_rejected() {
    let mut state = live();
    let before = state.clone();
    let err = act(&mut state, goal("H", Some("a1"), &[])).unwrap_err();
    assert_eq!(invalid_field(err), "scorerId");
    assert_eq!(state, before);
}

#[test]
fn a_roster_that_is_not_in_the_game_is_rejected() {
    let mut state = live();
    let err = act(&mut state, goal("X", None, &[])).unwrap_err();
    assert_eq!(invalid_field(err), "rosterId");
    let err = act(&mut state, penalty("X", "h1", 2)).unwrap_err();
    assert_eq!(invalid_field(err), "rosterId");
}

#[test]
fn assists_are_at_most_two_distinct_teammates_other_than_the_scorer() {
    let mut state = live();
    for bad in [
        goal("H", Some("h1"), &["h2", "h3", "hg"]),
        goal("H", Some("h1"), &["h2", "h2"]),
        goal("H", Some("h1"), &["h1"]),
        goal("H", Some("h1"), &["a2"]),
        goal("H", None, &["h2"]),
    ] {
        let err = act(&mut state, bad.clone()).unwrap_err();
        assert_eq!(invalid_field(err), "assistIds", "{bad:?}");
    }
    assert_eq!(state.home_score(), 0);
}

#[test]
fn a_penalty_adds_its_minutes_to_the_player() {
    let mut state = live();
    let out = act(&mut state, penalty("H", "h2", 5)).unwrap();
    let fx = effects(&out);
    assert_eq!(fx.players[0].penalty_minutes, 5);
    assert_eq!(out.entry.unwrap().minutes, Some(5));
    assert_eq!((state.home_score(), state.away_score()), (0, 0));
}

#[test]
fn penalty_minutes_outside_one_to_sixty_are_rejected() {
    let mut state = live();
    for minutes in [0, -2, 61] {
        assert_eq!(invalid_field(act(&mut state, penalty("H", "h2", minutes)).unwrap_err()), "minutes");
    }
    assert!(act(&mut state, penalty("H", "h2", 60)).is_ok());
    assert_eq!(invalid_field(act(&mut state, penalty("H", "a1", 2)).unwrap_err()), "playerId");
}

#[test]
fn end_period_walks_one_two_three_overtime_shootout_and_stops_there() {
    let mut state = live();
    let mut seen = vec![state.period()];
    for _ in 0..4 {
        act(&mut state, GameAction::EndPeriod).unwrap();
        seen.push(state.period());
    }
    assert_eq!(seen, [Period::First, Period::Second, Period::Third, Period::Overtime, Period::Shootout].map(Some));
    assert!(matches!(act(&mut state, GameAction::EndPeriod), Err(Rejection::State(_))));
}

#[test]
fn end_of_the_third_with_a_lead_stays_in_regulation_and_waits_for_final() {
    let mut state = live();
    act(&mut state, goal("H", Some("h1"), &[])).unwrap();
    act(&mut state, GameAction::EndPeriod).unwrap();
    act(&mut state, GameAction::EndPeriod).unwrap();
    let end_third = act(&mut state, GameAction::EndPeriod).unwrap();
    assert_eq!(state.period(), Some(Period::Third), "1–0 after the 3rd: no overtime");
    assert_eq!(end_third.entry.as_ref().map(|e| (e.kind, e.period)), Some((EntryKind::EndPeriod, Some(Period::Third))));
    assert!(state.period_ended());
    let again = act(&mut state, GameAction::EndPeriod).unwrap_err();
    assert!(matches!(again, Rejection::State(_)), "going on to OT with a lead is a conflict: {again:?}");
    act(&mut state, GameAction::Final).unwrap();
    assert_eq!((state.status(), state.period()), (GameStatus::Final, Some(Period::Third)));
}

#[test]
fn a_late_goal_that_ties_an_ended_third_lets_the_game_go_to_overtime() {
    let mut state = live();
    act(&mut state, goal("H", None, &[])).unwrap();
    for _ in 0..3 {
        act(&mut state, GameAction::EndPeriod).unwrap();
    }
    act(&mut state, goal("A", None, &[])).unwrap();
    act(&mut state, GameAction::EndPeriod).unwrap();
    assert_eq!(state.period(), Some(Period::Overtime));
    assert!(!state.period_ended());
}

#[test]
fn an_overtime_goal_ends_overtime_without_a_shootout() {
    let mut state = live();
    for _ in 0..3 {
        act(&mut state, GameAction::EndPeriod).unwrap();
    }
    assert_eq!(state.period(), Some(Period::Overtime), "0–0 after the 3rd goes to OT");
    act(&mut state, goal("A", None, &[])).unwrap();
    act(&mut state, GameAction::EndPeriod).unwrap();
    assert_eq!(state.period(), Some(Period::Overtime));
    assert!(matches!(act(&mut state, GameAction::EndPeriod), Err(Rejection::State(_))));
}

#[test]
fn undoing_the_end_of_regulation_reopens_the_third() {
    let mut state = live();
    act(&mut state, goal("H", None, &[])).unwrap();
    for _ in 0..3 {
        act(&mut state, GameAction::EndPeriod).unwrap();
    }
    act(&mut state, GameAction::Undo).unwrap();
    assert_eq!(state.period(), Some(Period::Third));
    assert!(!state.period_ended());
    assert!(act(&mut state, GameAction::EndPeriod).is_ok(), "the 3rd can be ended again");
}

#[test]
fn final_gives_every_dressed_player_a_game_and_the_winner_two_points() {
    let mut state = live();
    act(&mut state, goal("H", Some("h1"), &[])).unwrap();
    let out = act(&mut state, GameAction::Final).unwrap();
    assert_eq!(state.status(), GameStatus::Final);
    let fx = effects(&out);
    assert_eq!(fx.players.len(), 8);
    assert!(fx.players.iter().all(|p| p.games_played == 1));
    let results: Vec<_> =
        fx.rosters.iter().map(|r| (r.roster_id.as_str(), r.wins, r.losses, r.ties, r.points)).collect();
    assert_eq!(results, [("H", 1, 0, 0, 2), ("A", 0, 1, 0, 0)]);
}

#[test]
fn a_tied_final_gives_each_roster_a_tie_and_a_point() {
    let mut state = live();
    let out = act(&mut state, GameAction::Final).unwrap();
    let results: Vec<_> = effects(&out).rosters.iter().map(|r| (r.ties, r.points)).collect();
    assert_eq!(results, [(1, 1), (1, 1)]);
}

#[test]
fn undo_reverts_the_last_goal_exactly() {
    let mut state = live();
    let goal_out = act(&mut state, goal("A", Some("a1"), &["a2"])).unwrap();
    let undo = act(&mut state, GameAction::Undo).unwrap();
    assert_eq!(state.away_score(), 0);
    assert_eq!(undo.undone, Some(goal_out.entry.as_ref().unwrap().seq));
    assert_eq!(*effects(&undo), effects(&goal_out).negated());
    assert!(state.log().iter().find(|e| e.kind == EntryKind::Goal).unwrap().undone);
}

#[test]
fn undo_of_final_restores_live_and_takes_the_stats_back() {
    let mut state = live();
    act(&mut state, goal("H", Some("h1"), &[])).unwrap();
    let fin = act(&mut state, GameAction::Final).unwrap();
    let undo = act(&mut state, GameAction::Undo).unwrap();
    assert_eq!(state.status(), GameStatus::Live);
    assert_eq!(state.home_score(), 1, "the goal before FINAL stands");
    let total = sum_roster_deltas(effects(&fin).rosters.iter().chain(&effects(&undo).rosters));
    assert!(total.is_empty(), "standings back to where they were: {total:?}");
    let players = sum_player_deltas(effects(&fin).players.iter().chain(&effects(&undo).players));
    assert!(players.is_empty());
    assert!(act(&mut state, goal("A", None, &[])).is_ok(), "the game is live again");
}

#[test]
fn undo_of_start_returns_the_game_to_scheduled() {
    let mut state = live();
    act(&mut state, GameAction::Undo).unwrap();
    assert_eq!((state.status(), state.period()), (GameStatus::Scheduled, None));
    assert!(act(&mut state, GameAction::Undo).is_err(), "nothing left to undo");
    assert!(act(&mut state, GameAction::Start).is_ok());
}

#[test]
fn repeated_undo_walks_back_one_entry_at_a_time() {
    let mut state = live();
    act(&mut state, goal("H", None, &[])).unwrap();
    act(&mut state, penalty("A", "a1", 2)).unwrap();
    act(&mut state, GameAction::EndPeriod).unwrap();
    let undone: Vec<_> = (0..3).map(|_| act(&mut state, GameAction::Undo).unwrap().undone.unwrap()).collect();
    assert_eq!(undone, [4, 3, 2]);
    assert_eq!((state.home_score(), state.period()), (0, Some(Period::First)));
}
