//! What the decisions publish and store: versions per batch, the public
//! document, updates since a version, frame sizes, and JSON that round
//! trips.

use super::*;

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
