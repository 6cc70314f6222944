//! Unit tests of the scoring rules, one behaviour each, named as sentences.

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
    })
}

fn run(state: &mut GameState, command: GameCommand) -> Result<GameOutcome, Rejection> {
    let out = decide(state, &command, "keeper", NOW);
    state.seal();
    out
}

fn act(state: &mut GameState, action: GameAction) -> Result<GameOutcome, Rejection> {
    run(state, GameCommand::Action(action))
}

fn goal(roster: &str, scorer: Option<&str>, assists: &[&str]) -> GameAction {
    GameAction::Goal {
        roster_id: roster.into(),
        scorer_id: scorer.map(Into::into),
        assist_ids: assists.iter().map(|a| a.to_string()).collect(),
    }
}

fn penalty(roster: &str, player: &str, minutes: i64) -> GameAction {
    GameAction::Penalty { roster_id: roster.into(), player_id: player.into(), minutes }
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
    let credit: Vec<_> = fx.players.iter().map(|p| (p.user_id.as_str(), p.goals, p.assists)).collect();
    assert_eq!(credit, [("a1", 1, 0), ("a2", 0, 1), ("a3", 0, 1)]);
    assert!(fx.players.iter().all(|p| p.roster_id == "A"));
}

#[test]
fn a_goal_without_a_known_scorer_still_counts_on_the_scoreboard() {
    let mut state = live();
    let out = act(&mut state, goal("H", None, &[])).unwrap();
    assert_eq!(state.home_score(), 1);
    assert!(effects(&out).players.is_empty());
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
    assert!(run(&mut state, GameCommand::SetStatus { status: GameStatus::Postponed }).unwrap().status_changed);
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
    run(&mut state, GameCommand::SetStatus { status: GameStatus::Postponed }).unwrap();
    assert!(matches!(act(&mut state, GameAction::Start), Err(Rejection::State(_))));
    run(&mut state, GameCommand::SetStatus { status: GameStatus::Scheduled }).unwrap();
    act(&mut state, GameAction::Start).unwrap();
    assert!(run(&mut state, GameCommand::SetStatus { status: GameStatus::Cancelled }).is_err());
    let err = run(&mut game(), GameCommand::SetStatus { status: GameStatus::Final }).unwrap_err();
    assert_eq!(invalid_field(err), "status");
}

#[test]
fn a_game_is_rescheduled_through_its_aggregate_only_before_it_goes_live() {
    let mut state = game();
    let before = state.version();
    let moved = run(&mut state, GameCommand::Reschedule { scheduled_at: 1_800_000_000_000 }).unwrap();
    assert_eq!(moved.scheduled_at, Some(1_800_000_000_000));
    assert!(state.version() > before, "a new time is a new version: pushes carry a new seq");
    run(&mut state, GameCommand::SetStatus { status: GameStatus::Cancelled }).unwrap();
    assert!(
        run(&mut state, GameCommand::Reschedule { scheduled_at: 1 }).is_ok(),
        "a cancelled game's time may be corrected"
    );
    let mut live = live();
    let frozen = live.clone();
    assert!(matches!(run(&mut live, GameCommand::Reschedule { scheduled_at: 1 }), Err(Rejection::State(_))));
    assert_eq!(live, frozen);
}

#[test]
fn a_batch_of_actions_bumps_the_version_once() {
    let mut state = game();
    decide(&mut state, &GameCommand::Action(GameAction::Start), "k", NOW).unwrap();
    decide(&mut state, &GameCommand::Action(goal("H", None, &[])), "k", NOW).unwrap();
    assert_eq!(state.version(), 2);
    state.seal();
    decide(&mut state, &GameCommand::Action(GameAction::Undo), "k", NOW).unwrap();
    assert_eq!(state.version(), 3);
}

#[test]
fn the_public_document_names_players_and_hides_undone_entries() {
    let mut state = live();
    act(&mut state, goal("H", Some("h1"), &["h2"])).unwrap();
    act(&mut state, penalty("A", "a3", 2)).unwrap();
    act(&mut state, GameAction::Undo).unwrap();
    let doc = serde_json::to_value(state.public_document()).unwrap();
    assert_eq!(doc["id"], "g1");
    assert_eq!(doc["status"], "LIVE");
    assert_eq!(doc["period"], "1");
    assert_eq!((doc["homeScore"].clone(), doc["awayScore"].clone()), (json!(1), json!(0)));
    assert_eq!((doc["homeRosterId"].clone(), doc["awayRosterId"].clone()), (json!("H"), json!("A")));
    assert_eq!(doc["version"], 5);
    let log = doc["log"].as_array().unwrap();
    let kinds: Vec<_> = log.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["START", "GOAL"]);
    assert_eq!(log[1]["playerName"], "Player h1");
    assert_eq!(log[1]["assistNames"], json!(["Player h2"]));
    assert_eq!(log[1]["createdAt"], "2026-11-03T19:30:00.000Z");
    assert_eq!(doc["home"]["name"], "Team H");
    assert_eq!(doc["home"]["players"][0]["dressed"], true);
}

#[test]
fn actions_parse_from_the_contract_json() {
    let parse = |v: serde_json::Value| serde_json::from_value::<GameAction>(v).unwrap();
    assert_eq!(parse(json!({"type": "START"})), GameAction::Start);
    assert_eq!(parse(json!({"type": "END_PERIOD"})), GameAction::EndPeriod);
    assert_eq!(parse(json!({"type": "GOAL", "rosterId": "H"})), goal("H", None, &[]));
    assert_eq!(
        parse(json!({"type": "GOAL", "rosterId": "H", "scorerId": "h1", "assistIds": ["h2"]})),
        goal("H", Some("h1"), &["h2"])
    );
    assert_eq!(
        parse(json!({"type": "PENALTY", "rosterId": "A", "playerId": "a1", "minutes": 2})),
        penalty("A", "a1", 2)
    );
    assert!(serde_json::from_value::<GameAction>(json!({"type": "DANCE"})).is_err());
}

#[test]
fn log_entry_effects_survive_their_stored_json() {
    let mut state = live();
    act(&mut state, goal("H", Some("h1"), &[])).unwrap();
    let out = act(&mut state, GameAction::Final).unwrap();
    let entry = out.entry.unwrap();
    let text = serde_json::to_string(&entry.effects).unwrap();
    let back: GameEffects = serde_json::from_str(&text).unwrap();
    assert_eq!(back, entry.effects);
}

#[test]
fn the_state_rebuilt_from_its_rows_is_the_state_that_wrote_them() {
    let mut state = live();
    act(&mut state, goal("H", Some("h1"), &[])).unwrap();
    act(&mut state, GameAction::Undo).unwrap();
    let rebuilt = GameState::new(StoredGame {
        game_id: "g1".into(),
        season_id: Some("s1".into()),
        version: state.version(),
        status: state.status(),
        period: state.period(),
        home_score: state.home_score(),
        away_score: state.away_score(),
        home: state.home().clone(),
        away: state.away().clone(),
        log: state.log().iter().rev().cloned().collect(),
    });
    assert_eq!(rebuilt, state);
}

#[test]
fn an_update_carries_the_scoreboard_and_the_last_ten_entries_that_stand() {
    let mut g = live();
    for _ in 0..30 {
        act(&mut g, goal("H", Some("h1"), &["h2"])).unwrap();
    }
    act(&mut g, GameAction::Undo).unwrap();
    let update = g.update_document();
    let doc = g.public_document();
    assert_eq!((update.home_score, update.version, update.status), (29, doc.version, doc.status));
    assert_eq!(update.log_tail.len(), LOG_TAIL);
    assert_eq!(update.log_tail[..], doc.log[doc.log.len() - LOG_TAIL..], "the tail is the end of the log that stands");
    assert_eq!(update.players_digest, doc.players_digest);
    let json = serde_json::to_value(&update).unwrap();
    assert!(json.get("log").is_none() && json["home"].get("players").is_none(), "{json}");
}

#[test]
fn an_update_is_the_same_size_however_long_the_game_has_run() {
    let mut g = live();
    let mut sizes = Vec::new();
    for n in 1..=100 {
        act(&mut g, goal(if n % 2 == 0 { "H" } else { "A" }, Some(if n % 2 == 0 { "h1" } else { "a1" }), &[])).unwrap();
        if n >= 10 {
            sizes.push(serde_json::to_string(&g.update_document()).unwrap().len());
        }
    }
    let (min, max) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
    assert!(max - min <= 16, "only the growing numbers change the size: {min}..{max}");
}

#[test]
fn a_lineup_changes_the_players_digest_and_a_goal_does_not() {
    let mut g = live();
    let before = g.update_document().players_digest;
    act(&mut g, goal("H", Some("h1"), &[])).unwrap();
    assert_eq!(g.update_document().players_digest, before);
    run(&mut g, GameCommand::SetLineup { roster_id: "H".into(), user_ids: vec!["h1".into(), "hg".into()] }).unwrap();
    assert_ne!(g.update_document().players_digest, before);
}
