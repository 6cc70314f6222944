//! The game actor end to end against an in-memory store: actions answered
//! with the committed document, stats and standings written as deltas,
//! UNDO of FINAL taking them back, standings pushed, command-id replay.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::sync::Arc;
use std::sync::atomic::Ordering;

use rinkside_actors::game::{
    Clock, ClockSettings, GameAction, GameCommand, GameDocument, GameSettings, GameStatus, Period, Player, RosterSide,
    StoredGame,
};
use rinkside_actors::{ActorConfig, ActorError, Arbiters, Envelope, GameRegistry, GameStore, Publisher};

use common::{MemStore, Recorder};

const GAME: &str = "g1";

fn side(id: &str, prefix: &str) -> RosterSide {
    RosterSide {
        roster_id: id.into(),
        name: format!("Team {id}"),
        players: (1..=3)
            .map(|n| Player {
                user_id: format!("{prefix}{n}"),
                display_name: format!("{prefix} {n}"),
                jersey_number: Some(n),
                position: None,
            })
            .collect(),
        lineup: None,
    }
}

fn setup() -> (Arc<MemStore>, Arc<Recorder>, GameRegistry) {
    let store = MemStore::new();
    store.add_game(StoredGame {
        game_id: GAME.into(),
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
    });
    let bus = Recorder::new();
    let games_store: Arc<dyn GameStore> = store.clone();
    let publisher: Arc<dyn Publisher> = bus.clone();
    let games = GameRegistry::new(games_store, publisher, Arbiters::current().unwrap(), ActorConfig::default());
    (store, bus, games)
}

fn action(action: GameAction) -> Envelope<GameCommand> {
    Envelope::new("keeper", GameCommand::Action(action))
}

fn goal(roster: &str, scorer: &str) -> Envelope<GameCommand> {
    action(GameAction::Goal {
        roster_id: roster.into(),
        scorer_id: Some(scorer.into()),
        assist_ids: Vec::new(),
        clock_ms: None,
    })
}

async fn send(games: &GameRegistry, envelope: Envelope<GameCommand>) -> Result<GameDocument, ActorError> {
    games.send(GAME, envelope).await
}

#[actix::test]
async fn a_goal_is_answered_with_the_committed_document_and_pushed() {
    let (store, bus, games) = setup();
    send(&games, action(GameAction::Start)).await.unwrap();
    let doc = send(&games, goal("A", "a1")).await.unwrap();
    assert_eq!((doc.status, doc.period), (GameStatus::Live, Some(Period::First)));
    assert_eq!((doc.home_score, doc.away_score, doc.version), (0, 1, 3));
    assert_eq!(doc.log.last().unwrap().player_id.as_deref(), Some("a1"));

    let stored = store.game(GAME);
    assert_eq!((stored.game.away_score, stored.game.version), (1, 3));
    assert_eq!(stored.players[&("A".to_string(), "a1".to_string())].goals, 1);
    let pushes = bus.on("game:g1");
    assert_eq!(pushes.iter().map(|(s, _)| *s).collect::<Vec<_>>(), [2, 3]);
    // The push is the small update of the committed state (CONTRACT.md ›
    // Update frames stay small): the reply's scoreboard and only the entry
    // this change added, no player lists.
    let pushed = &pushes[1].1;
    let answered = serde_json::to_value(&doc).unwrap();
    for field in ["status", "period", "homeScore", "awayScore", "version", "playersDigest"] {
        assert_eq!(pushed[field], answered[field], "{field}");
    }
    assert_eq!(pushed["entries"], serde_json::json!([answered["log"][1]]), "the goal, and not START again");
    assert!(pushed.get("since").is_none(), "it continues from the version before");
    assert!(pushed.get("log").is_none() && pushed.get("home").is_none());
}

#[actix::test]
async fn final_writes_standings_and_pushes_the_season_and_undo_takes_them_back() {
    let (store, bus, games) = setup();
    send(&games, action(GameAction::Start)).await.unwrap();
    send(&games, goal("H", "h2")).await.unwrap();
    let fin = send(&games, action(GameAction::Final)).await.unwrap();
    assert_eq!(fin.status, GameStatus::Final);

    let stored = store.game(GAME);
    assert_eq!((stored.rosters["H"].wins, stored.rosters["H"].points), (1, 2));
    assert_eq!(stored.rosters["A"].losses, 1);
    assert!(stored.players.values().filter(|p| p.games_played == 1).count() == 6);
    assert_eq!(bus.on("season:s1").len(), 1, "standings pushed after FINAL");

    let undone = send(&games, action(GameAction::Undo)).await.unwrap();
    assert_eq!(undone.status, GameStatus::Live);
    let stored = store.game(GAME);
    assert_eq!((stored.rosters["H"].wins, stored.rosters["H"].points), (0, 0));
    assert!(stored.players.values().all(|p| p.games_played == 0));
    assert_eq!(stored.players[&("H".to_string(), "h2".to_string())].goals, 1, "the goal stands");
    assert_eq!(bus.on("season:s1").len(), 2, "standings pushed again after the undo");
    assert!(stored.game.log.iter().any(|e| e.undone));
}

#[actix::test]
async fn rejected_actions_answer_their_contract_codes() {
    let (store, _bus, games) = setup();
    let err = send(&games, goal("H", "h1")).await.unwrap_err();
    assert_eq!(err.code(), "conflict", "not started");
    send(&games, action(GameAction::Start)).await.unwrap();
    let err = send(&games, goal("H", "a1")).await.unwrap_err();
    assert_eq!(err.code(), "validation_failed");
    assert!(err.to_json()["details"]["scorerId"].is_string());
    assert_eq!(store.game(GAME).game.home_score, 0);
}

#[actix::test]
async fn a_retried_goal_is_counted_once() {
    let (store, _bus, games) = setup();
    send(&games, action(GameAction::Start)).await.unwrap();
    let first = send(&games, goal("H", "h1").with_command_id("keeper:7")).await.unwrap();
    let retry = send(&games, goal("H", "h1").with_command_id("keeper:7")).await.unwrap();
    assert_eq!(retry, first);
    assert_eq!(store.game(GAME).game.home_score, 1);
    assert_eq!(store.commits.load(Ordering::SeqCst), 2);
}

#[actix::test]
async fn the_lineup_is_stored_and_shown() {
    let (store, _bus, games) = setup();
    let lineup = Envelope::new(
        "coach",
        GameCommand::SetLineup { roster_id: "H".into(), user_ids: vec!["h1".into(), "h3".into()] },
    );
    let doc = send(&games, lineup).await.unwrap();
    let dressed: Vec<bool> = doc.home.players.iter().map(|p| p.dressed).collect();
    assert_eq!(dressed, [true, false, true]);
    assert_eq!(store.game(GAME).game.home.lineup, Some(vec!["h1".to_string(), "h3".to_string()]));
}
