//! Game night over HTTP and WebSocket (docs/game-night.md): the clock run
//! from the console and read by displays, the server's time in pongs,
//! penalties that a power-play goal ends and UNDO brings back, shots and
//! goalies down to the player statistics, and period lengths from the
//! season or the game.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::games::{act, game_of, league, public_game};
use crate::helpers::*;
use serde_json::{Value, json};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(5);

fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64
}

async fn refused(app: &TestApp, by: &TestUser, game: &str, body: Value, status: u16, code: &str) {
    let (s, b) = app.post(&format!("/api/v1/games/{game}/actions"), Some(by), body.clone()).await;
    assert_error(s, &b, status, code);
}

async fn stats_of(app: &TestApp, user: &TestUser) -> Value {
    let (s, b) = app.get(&format!("/api/v1/users/{}/stats", user.id), None).await;
    assert_eq!(s, 200, "{b}");
    b["totals"].clone()
}

#[actix_web::test]
async fn the_console_runs_the_clock_and_a_display_hears_each_change_once() {
    let app = spawn_app().await;
    let l = league(&app, 2).await;
    let game = game_of(&app, &l).await;
    let mut display = app.ws().await;
    let snap = display.subscribe(&format!("game:{game}")).await;
    assert_eq!(snap["data"]["clock"]["running"], false);
    refused(&app, &l.rink, &game, json!({"type": "CLOCK_START"}), 409, "conflict").await;

    let g = act(&app, &l.rink, &game, json!({"type": "START"})).await;
    assert_eq!((g["clock"]["remainingMs"].as_i64(), g["clock"]["running"].as_bool()), (Some(1_200_000), Some(false)));
    display.next_of("update", WAIT).await.unwrap();
    let before = now_ms();
    let g = act(&app, &l.rink, &game, json!({"type": "CLOCK_START"})).await;
    let started_at = g["clock"]["at"].as_i64().unwrap();
    assert!((before - 1_000..=now_ms() + 1_000).contains(&started_at), "a server instant: {started_at}");
    let u = display.next_of("update", WAIT).await.unwrap();
    assert_eq!(u["data"]["clock"], json!({"running": true, "remainingMs": 1_200_000, "at": started_at}));
    assert_eq!(u["data"]["entries"], json!([]), "the clock is no log entry");
    refused(&app, &l.rink, &game, json!({"type": "CLOCK_START"}), 409, "conflict").await;

    // The console's tap, 300 ms before the request arrives, is where it stops.
    tokio::time::sleep(Duration::from_millis(600)).await;
    let tap = now_ms() - 300;
    let g = act(&app, &l.rink, &game, json!({"type": "CLOCK_STOP", "at": tap})).await;
    assert_eq!((g["clock"]["running"].as_bool(), g["clock"]["at"].as_i64()), (Some(false), Some(tap)));
    assert_eq!(g["clock"]["remainingMs"].as_i64(), Some(1_200_000 - (tap - started_at)));
    display.next_of("update", WAIT).await.unwrap();

    let g = act(&app, &l.rink, &game, json!({"type": "CLOCK_SET", "remainingMs": 754_000})).await;
    assert_eq!(g["clock"]["remainingMs"], 754_000);
    let u = display.next_of("update", WAIT).await.unwrap();
    assert!(u["data"]["clock"].get("periodMs").is_none(), "the same period: no shape: {u}");
    refused(&app, &l.rink, &game, json!({"type": "CLOCK_SET", "remainingMs": 1_200_001}), 422, "validation_failed")
        .await;
    refused(&app, &l.rink, &game, json!({"type": "CLOCK_SET", "remainingMs": -1}), 422, "validation_failed").await;

    // The end of the period: the next one's clock, then a break.
    let g = act(&app, &l.rink, &game, json!({"type": "END_PERIOD"})).await;
    assert_eq!((g["period"].as_str(), g["clock"]["offsetMs"].as_i64()), (Some("2"), Some(1_200_000)));
    let u = display.next_of("update", WAIT).await.unwrap();
    assert_eq!(u["data"]["clock"]["periodMs"], 1_200_000, "a new period carries the clock's shape");
    let g = act(&app, &l.rink, &game, json!({"type": "INTERMISSION", "minutes": 2})).await;
    assert_eq!(
        (g["clock"]["phase"].as_str(), g["clock"]["remainingMs"].as_i64()),
        (Some("INTERMISSION"), Some(120_000))
    );
    let g = act(&app, &l.rink, &game, json!({"type": "CLOCK_START"})).await;
    assert_eq!((g["clock"]["phase"].as_str(), g["clock"]["running"].as_bool()), (Some("PLAY"), Some(true)));
    // What was stored is what a fresh read (another node, a restart) sees.
    assert_eq!(public_game(&app, &game).await["clock"], g["clock"]);
}

#[actix_web::test]
async fn a_ping_is_answered_with_the_servers_time_and_its_id() {
    let app = spawn_app().await;
    let mut ws = app.ws().await;
    let sent = now_ms();
    ws.send(json!({"type": "ping", "id": "p1"})).await;
    let pong = ws.next_of("pong", WAIT).await.unwrap();
    assert_eq!(pong["id"], "p1");
    let now = pong["now"].as_i64().unwrap();
    assert!((sent - 1_000..=now_ms() + 1_000).contains(&now), "{pong}");
    ws.send(json!({"type": "ping"})).await;
    let pong = ws.next_of("pong", WAIT).await.unwrap();
    assert!(pong.get("id").is_none() && pong["now"].is_i64(), "{pong}");
    ws.send(json!({"type": "ping", "id": "x".repeat(65)})).await;
    assert_eq!(ws.next_json(WAIT).await.unwrap()["type"], "error");
}

#[actix_web::test]
async fn a_power_play_goal_ends_the_minor_and_undo_brings_it_back() {
    let app = spawn_app().await;
    let l = league(&app, 3).await;
    let game = game_of(&app, &l).await;
    let (h, a) = (&l.home.players, &l.away.players);
    act(&app, &l.rink, &game, json!({"type": "START"})).await;
    act(&app, &l.rink, &game, json!({"type": "CLOCK_START"})).await;
    let g = act(
        &app,
        &l.rink,
        &game,
        json!({"type": "PENALTY", "rosterId": l.away.roster, "playerId": a[0].id, "penalty": "MINOR"}),
    )
    .await;
    let penalty = g["log"].as_array().unwrap().last().unwrap().clone();
    assert_eq!((penalty["penalty"].as_str(), penalty["minutes"].as_i64()), (Some("MINOR"), Some(2)));
    let listed = g["penalties"].as_array().unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!((listed[0][0].clone(), listed[0][3].clone()), (penalty["seq"].clone(), json!(1)), "{listed:?}");
    assert_eq!(listed[0][2].as_i64().unwrap() - listed[0][1].as_i64().unwrap(), 120_000);

    let mut display = app.ws().await;
    display.subscribe(&format!("game:{game}")).await;
    let goal = json!({"type": "GOAL", "rosterId": l.home.roster, "scorerId": h[0].id, "assistIds": [h[1].id]});
    let g = act(&app, &l.rink, &game, goal).await;
    let scored = g["log"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(scored["strength"], "PP", "{scored}");
    assert_eq!(g["penalties"], json!([]), "the minor is over");
    let u = display.next_of("update", WAIT).await.unwrap();
    assert_eq!((u["data"]["entries"][0]["strength"].as_str(), u["data"]["penalties"].clone()), (Some("PP"), json!([])));
    assert_eq!(stats_of(&app, &h[0]).await["ppGoals"], 1);
    assert_eq!(stats_of(&app, &a[0]).await["minorPim"], 2);

    let g = act(&app, &l.rink, &game, json!({"type": "UNDO"})).await;
    assert_eq!(g["penalties"].as_array().unwrap().len(), 1, "the penalty runs again: {g}");
    assert_eq!(g["homeScore"], 0);
    let u = display.next_of("update", WAIT).await.unwrap();
    assert_eq!(u["data"]["undone"], json!([scored["seq"]]));
    assert_eq!(u["data"]["penalties"].as_array().unwrap().len(), 1);
    assert_eq!(stats_of(&app, &h[0]).await["ppGoals"], 0);
}

#[actix_web::test]
async fn shots_goalies_and_an_empty_net_reach_the_box_score_and_the_goalies_statistics() {
    let app = spawn_app().await;
    let l = league(&app, 3).await;
    let game = game_of(&app, &l).await;
    let (h, a) = (&l.home.players, &l.away.players);
    act(&app, &l.rink, &game, json!({"type": "START"})).await;
    act(&app, &l.rink, &game, json!({"type": "CLOCK_START"})).await;
    for (roster, goalie) in [(&l.home.roster, &h[2]), (&l.away.roster, &a[2])] {
        act(&app, &l.rink, &game, json!({"type": "GOALIE", "rosterId": roster, "playerId": goalie.id})).await;
    }
    for _ in 0..3 {
        act(&app, &l.rink, &game, json!({"type": "SHOT", "rosterId": l.home.roster})).await;
    }
    act(&app, &l.rink, &game, json!({"type": "GOAL", "rosterId": l.home.roster, "scorerId": h[0].id})).await;
    // Away pulls its goalie; the next home goal is into an empty net.
    let g = act(&app, &l.rink, &game, json!({"type": "GOALIE", "rosterId": l.away.roster, "playerId": null})).await;
    assert_eq!(g["goalies"], json!({"home": h[2].id, "away": null}));
    let g = act(&app, &l.rink, &game, json!({"type": "GOAL", "rosterId": l.home.roster, "scorerId": h[1].id})).await;
    let empty_netter = g["log"].as_array().unwrap().last().unwrap().clone();
    assert_eq!((empty_netter["emptyNet"].as_bool(), empty_netter["strength"].as_str()), (Some(true), Some("EV")));
    assert_eq!(g["shots"]["home"], json!([5, 0, 0, 0]), "three shots and two goals");
    tokio::time::sleep(Duration::from_millis(300)).await;
    act(&app, &l.rink, &game, json!({"type": "END_PERIOD"})).await;
    act(&app, &l.rink, &game, json!({"type": "FINAL"})).await;
    let keeper = stats_of(&app, &a[2]).await;
    assert_eq!((keeper["shotsAgainst"].as_i64(), keeper["goalsAgainst"].as_i64()), (Some(4), Some(1)), "{keeper}");
    assert!(keeper["goalieMs"].as_i64().unwrap() > 0, "{keeper}");
    let ours = stats_of(&app, &h[2]).await;
    let in_net = ours["goalieMs"].as_i64().unwrap();
    assert!((1_190_000..=1_200_000).contains(&in_net), "in net from the first seconds to the period's end: {ours}");
}

#[actix_web::test]
async fn period_lengths_come_from_the_season_unless_the_game_sets_its_own() {
    let app = spawn_app().await;
    let l = league(&app, 1).await;
    let (s, season) = app
        .patch(
            &format!("/api/v1/seasons/{}", l.season),
            Some(&l.rink),
            json!({"periodMinutes": 15, "clockMode": "RUNNING"}),
        )
        .await;
    assert_eq!(s, 200, "{season}");
    assert_eq!((season["periodMinutes"].as_i64(), season["clockMode"].as_str()), (Some(15), Some("RUNNING")));
    assert_eq!(season["overtimeMinutes"], 5);
    let (s, b) = app.patch(&format!("/api/v1/seasons/{}", l.season), Some(&l.rink), json!({"periodMinutes": 31})).await;
    assert_error(s, &b, 422, "validation_failed");

    let game = game_of(&app, &l).await;
    let g = public_game(&app, &game).await;
    assert_eq!(
        (g["settings"]["periodMinutes"].as_i64(), g["clock"]["remainingMs"].as_i64()),
        (Some(15), Some(900_000))
    );
    let (s, g) = app.patch(&format!("/api/v1/games/{game}"), Some(&l.rink), json!({"periodMinutes": 12})).await;
    assert_eq!(s, 200, "{g}");
    assert_eq!((g["settings"]["periodMinutes"].as_i64(), g["clock"]["periodMs"].as_i64()), (Some(12), Some(720_000)));
    let (s, b) = app.patch(&format!("/api/v1/games/{game}"), Some(&l.rink), json!({"overtimeMinutes": 21})).await;
    assert_error(s, &b, 422, "validation_failed");
    act(&app, &l.rink, &game, json!({"type": "START"})).await;
    let (s, b) = app.patch(&format!("/api/v1/games/{game}"), Some(&l.rink), json!({"periodMinutes": null})).await;
    assert_error(s, &b, 409, "conflict");
    assert_eq!(public_game(&app, &game).await["clock"]["remainingMs"], 720_000);
}

#[actix_web::test]
async fn bad_game_night_input_is_refused_and_changes_nothing() {
    let app = spawn_app().await;
    let l = league(&app, 2).await;
    let game = game_of(&app, &l).await;
    act(&app, &l.rink, &game, json!({"type": "START"})).await;
    let before = public_game(&app, &game).await;
    let (r, p) = (&l.home.roster, &l.home.players[0].id);
    for body in [
        json!({"type": "GOAL", "rosterId": r, "clockMs": 1_300_000}),
        json!({"type": "SHOT", "rosterId": "nope"}),
        json!({"type": "PENALTY", "rosterId": r, "playerId": p}),
        json!({"type": "PENALTY", "rosterId": r, "playerId": p, "penalty": "MINOR", "minutes": 5}),
        json!({"type": "GOALIE", "rosterId": r, "playerId": l.away.players[0].id}),
        json!({"type": "INTERMISSION", "minutes": 0}),
    ] {
        refused(&app, &l.rink, &game, body, 422, "validation_failed").await;
    }
    for body in [
        json!({"type": "PENALTY", "rosterId": r, "playerId": p, "penalty": "SLASHING"}),
        json!({"type": "CLOCK_START", "at": 5}),
        json!({"type": "CLOCK_SET", "remainingMs": "ten"}),
    ] {
        let (s, b) = app.post(&format!("/api/v1/games/{game}/actions"), Some(&l.rink), body).await;
        assert!(s == 400 || s == 422, "{s} {b}");
        assert!(b["error"]["code"].is_string(), "{b}");
    }
    refused(&app, &l.rink, &game, json!({"type": "CLOCK_STOP"}), 409, "conflict").await;
    assert_eq!(public_game(&app, &game).await, before, "nothing changed");
}

#[actix_web::test]
async fn the_clock_answers_over_the_socket_too() {
    let app = spawn_app().await;
    let l = league(&app, 1).await;
    let game = game_of(&app, &l).await;
    act(&app, &l.rink, &game, json!({"type": "START"})).await;
    let mut console = app.ws().await;
    console.auth(&l.rink).await;
    let reply = console.command("c1", json!({"kind": "gameAction", "gameId": game, "type": "CLOCK_START"})).await;
    assert_eq!(
        (reply["ok"].as_bool(), reply["data"]["clock"]["running"].as_bool()),
        (Some(true), Some(true)),
        "{reply}"
    );
    // A retry of the same command answers the first reply, later or not.
    tokio::time::sleep(Duration::from_millis(50)).await;
    let again = console.command("c1", json!({"kind": "gameAction", "gameId": game, "type": "CLOCK_START"})).await;
    assert_eq!(again["data"]["clock"], reply["data"]["clock"], "{again}");
}
