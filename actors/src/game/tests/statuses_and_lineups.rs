//! What a game accepts in each status, who dressed for it, and staff
//! edits (status, time, settings) decided whole.

use super::*;

#[test]
fn a_final_game_accepts_only_undo() {
    let mut state = live();
    act(&mut state, GameAction::Final).unwrap();
    let before = state.clone();
    for action in
        [GameAction::Start, goal("H", None, &[]), penalty("H", "h1", 2), GameAction::EndPeriod, GameAction::Final]
    {
        assert!(matches!(act(&mut state, action), Err(Rejection::State(_))));
    }
    let lineup = GameCommand::SetLineup { roster_id: "H".into(), user_ids: vec!["h1".into()] };
    assert!(run(&mut state, lineup).is_err());
    assert_eq!(state, before);
}

#[test]
fn a_scheduled_game_accepts_only_start_lineup_and_status() {
    let mut state = game();
    for action in
        [goal("H", None, &[]), penalty("H", "h1", 2), GameAction::EndPeriod, GameAction::Final, GameAction::Undo]
    {
        assert!(matches!(act(&mut state, action), Err(Rejection::State(_))));
    }
    let lineup = GameCommand::SetLineup { roster_id: "H".into(), user_ids: vec!["h1".into(), "hg".into()] };
    assert!(run(&mut state, lineup).unwrap().lineup.is_some());
    assert!(run(&mut state, set_status(GameStatus::Postponed)).unwrap().status_changed);
}

#[test]
fn the_lineup_decides_who_may_score_and_who_gets_a_game_played() {
    let mut state = game();
    let lineup = GameCommand::SetLineup { roster_id: "H".into(), user_ids: vec!["h1".into(), "hg".into()] };
    run(&mut state, lineup).unwrap();
    act(&mut state, GameAction::Start).unwrap();
    assert_eq!(invalid_field(act(&mut state, goal("H", Some("h2"), &[])).unwrap_err()), "scorerId");
    let fin = act(&mut state, GameAction::Final).unwrap();
    let home: Vec<_> =
        effects(&fin).players.iter().filter(|p| p.roster_id == "H").map(|p| p.user_id.as_str()).collect();
    assert_eq!(home, ["h1", "hg"]);
}

#[test]
fn the_lineup_cannot_leave_out_a_player_who_has_entries() {
    let mut state = live();
    act(&mut state, goal("H", Some("h1"), &["h2"])).unwrap();
    let lineup = GameCommand::SetLineup { roster_id: "H".into(), user_ids: vec!["h1".into()] };
    assert_eq!(invalid_field(run(&mut state, lineup.clone()).unwrap_err()), "userIds");
    act(&mut state, GameAction::Undo).unwrap();
    assert!(run(&mut state, lineup).is_ok(), "an undone goal no longer ties them");
}

#[test]
fn the_lineup_names_only_roster_players_once() {
    let mut state = game();
    for ids in [vec!["a1"], vec!["h1", "h1"]] {
        let lineup =
            GameCommand::SetLineup { roster_id: "H".into(), user_ids: ids.iter().map(|s| s.to_string()).collect() };
        assert_eq!(invalid_field(run(&mut state, lineup).unwrap_err()), "userIds");
    }
}

#[test]
fn postponing_and_cancelling_are_only_possible_before_the_game_goes_live() {
    let mut state = game();
    run(&mut state, set_status(GameStatus::Postponed)).unwrap();
    assert!(matches!(act(&mut state, GameAction::Start), Err(Rejection::State(_))));
    run(&mut state, set_status(GameStatus::Scheduled)).unwrap();
    act(&mut state, GameAction::Start).unwrap();
    assert!(run(&mut state, set_status(GameStatus::Cancelled)).is_err());
    let err = run(&mut game(), set_status(GameStatus::Final)).unwrap_err();
    assert_eq!(invalid_field(err), "status");
}

#[test]
fn a_game_is_rescheduled_through_its_aggregate_only_before_it_goes_live() {
    let mut state = game();
    let before = state.version();
    let moved = run(&mut state, reschedule(1_800_000_000_000)).unwrap();
    assert_eq!(moved.scheduled_at, Some(1_800_000_000_000));
    assert!(state.version() > before, "a new time is a new version: pushes carry a new seq");
    run(&mut state, set_status(GameStatus::Cancelled)).unwrap();
    assert!(run(&mut state, reschedule(1)).is_ok(), "a cancelled game's time may be corrected");
    let mut live = live();
    let frozen = live.clone();
    assert!(matches!(run(&mut live, reschedule(1)), Err(Rejection::State(_))));
    assert_eq!(live, frozen);
}

#[test]
fn an_edit_is_decided_whole_a_refused_status_leaves_the_time_alone() {
    let mut state = game();
    run(&mut state, set_status(GameStatus::Cancelled)).unwrap();
    let before = state.clone();
    let edit =
        GameEdit { scheduled_at: Some(1_800_000_000_000), status: Some(GameStatus::Scheduled), ..GameEdit::default() };
    assert!(matches!(run(&mut state, GameCommand::Edit(edit)), Err(Rejection::State(_))));
    assert_eq!(state, before, "nothing of a refused edit is taken");
    let mut fresh = game();
    let bad = GameEdit {
        scheduled_at: Some(1_800_000_000_000),
        status: Some(GameStatus::Postponed),
        settings: SettingsPatch { period_minutes: Some(Some(0)), ..SettingsPatch::default() },
    };
    let frozen = fresh.clone();
    assert!(matches!(run(&mut fresh, GameCommand::Edit(bad)), Err(Rejection::Invalid { .. })));
    assert_eq!(fresh, frozen);
    let good = GameEdit { status: Some(GameStatus::Postponed), ..bad };
    let good = GameEdit { settings: SettingsPatch::default(), ..good };
    let out = run(&mut fresh, GameCommand::Edit(good)).unwrap();
    assert!(out.status_changed && out.scheduled_at == Some(1_800_000_000_000));
    assert_eq!(fresh.status(), GameStatus::Postponed);
}
