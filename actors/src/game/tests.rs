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
    assert_eq!(log[1]["playerId"], "h1");
    assert_eq!(log[1]["assistIds"], json!(["h2"]));
    assert_eq!(log[1]["clockMs"], 1_200_000);
    assert_eq!(log[1]["strength"], "EV");
    assert!(log[1].get("playerName").is_none(), "names come from home / away");
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
        log: state.log().iter().rev().cloned().map(|e| LogEntry { version: 0, ..e }).collect(),
        season_settings: state.settings(),
        own_settings: GameSettings::default(),
        clock: *state.clock(),
    });
    assert_eq!(rebuilt.public_document(), state.public_document());
    assert_eq!(rebuilt.goalies(), state.goalies());
}

#[test]
fn an_update_carries_the_scoreboard_and_only_the_entries_since_its_base() {
    let mut g = live();
    for _ in 0..30 {
        act(&mut g, goal("H", Some("h1"), &["h2"])).unwrap();
    }
    let base = g.version();
    act(&mut g, goal("H", Some("h1"), &["h2"])).unwrap();
    act(&mut g, GameAction::Undo).unwrap();
    act(&mut g, goal("H", Some("h3"), &[])).unwrap();
    let update = g.update_document(base);
    let doc = g.public_document();
    assert_eq!(
        (update.since, update.home_score, update.version, update.status),
        (Some(base), 31, doc.version, doc.status)
    );
    assert_eq!(update.entries, doc.log[doc.log.len() - 1..], "only the goal that stands since the base");
    assert_eq!(update.undone, vec![g.log()[g.log().len() - 3].seq]);
    assert_eq!(update.players_digest, doc.players_digest);
    let json = serde_json::to_value(&update).unwrap();
    assert!(json.get("log").is_none() && json.get("home").is_none(), "{json}");
    assert_eq!(json["penalties"], serde_json::json!([]));
    assert!(json["clock"].get("periodMs").is_none(), "the clock's shape did not change: {json}");
}

#[test]
fn an_update_after_a_load_starts_from_the_loaded_version() {
    let mut g = live();
    act(&mut g, goal("H", Some("h1"), &[])).unwrap();
    let loaded_at = g.version();
    let mut fresh = GameState::new(StoredGame {
        log: g.log().iter().cloned().map(|e| LogEntry { version: 0, ..e }).collect(),
        ..g.game.clone()
    });
    act(&mut fresh, goal("A", Some("a1"), &[])).unwrap();
    let update = fresh.update_document(0);
    assert_eq!((update.since, update.entries.len()), (None, 1), "one version on from the load");
    assert_eq!(update.version, loaded_at + 1);
}

#[test]
fn a_goal_frame_with_two_assists_stays_under_600_bytes_however_long_the_game() {
    // Ids as long as the server's (UUIDs), epoch-ms clock instants, the
    // third period, a clock that runs, and the worst penalty state: a
    // power-play goal at 5 on 3 with a third penalty waiting.
    let id = |n: u32| format!("0193a1b2-c3d4-7e5f-8a9b-{n:012}");
    let side = |roster: u32, first: u32| RosterSide {
        roster_id: id(roster),
        name: "A team with a long enough name".into(),
        players: (first..first + 20)
            .map(|n| {
                let position = if n % 20 == 19 { Position::Goalie } else { Position::Center };
                Player { position: Some(position), ..player(&id(n), i64::from(n % 99)) }
            })
            .collect(),
        lineup: None,
    };
    let mut g = GameState::new(StoredGame { game_id: id(1), home: side(2, 100), away: side(3, 200), ..game().game });
    let mut now = NOW;
    let step = |g: &mut GameState, action: GameAction, now: i64| {
        decide(g, &GameCommand::Action(action), "keeper", now).unwrap();
        g.seal();
    };
    step(&mut g, GameAction::Start, now);
    for _ in 0..2 {
        step(&mut g, GameAction::EndPeriod, now);
    }
    step(&mut g, GameAction::ClockStart { at: None }, now);
    let goal = |roster: u32, first: u32| GameAction::Goal {
        roster_id: id(roster),
        scorer_id: Some(id(first)),
        assist_ids: vec![id(first + 1), id(first + 2)],
        clock_ms: None,
    };
    let frame = |g: &GameState, base: i64| {
        let data = serde_json::to_string(&g.update_document(base)).unwrap();
        format!(r#"{{"type":"update","topic":"game:{}","seq":{},"data":{data}}}"#, id(1), g.version())
    };
    let mut largest = String::new();
    for n in 0..100u32 {
        now += 5_000;
        if n % 10 == 9 {
            // Three away minors: 5 on 3, the third waiting for a place.
            for p in 0..3 {
                let minor = GameAction::Penalty {
                    roster_id: id(3),
                    player_id: id(205 + p),
                    minutes: Some(2),
                    penalty: None,
                    clock_ms: None,
                };
                step(&mut g, minor, now);
            }
            now += 1_000;
        }
        let (roster, first) = if n % 2 == 0 || n % 10 == 9 { (2, 100) } else { (3, 200) };
        let base = g.version();
        step(&mut g, goal(roster, first), now);
        let sent = frame(&g, base);
        if sent.len() > largest.len() {
            largest = sent;
        }
    }
    assert!(largest.contains(r#""strength":"PP""#), "the worst case was measured: {largest}");
    eprintln!("largest goal frame: {} bytes", largest.len());
    assert!(largest.len() <= 600, "the largest goal frame is {} bytes: {largest}", largest.len());
}

#[test]
fn a_lineup_changes_the_players_digest_and_a_goal_does_not() {
    let mut g = live();
    let before = g.update_document(0).players_digest;
    act(&mut g, goal("H", Some("h1"), &[])).unwrap();
    assert_eq!(g.update_document(0).players_digest, before);
    run(&mut g, GameCommand::SetLineup { roster_id: "H".into(), user_ids: vec!["h1".into(), "hg".into()] }).unwrap();
    assert_ne!(g.update_document(0).players_digest, before);
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
