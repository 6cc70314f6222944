//! Games and live scoreboards over HTTP and WebSocket: scheduling, every
//! scoring action and its UNDO as a user sees them through the public reads
//! (game state, standings, leaders, player stats), who may score, lineups,
//! idempotent retries, live pushes to signed-out displays, and standings
//! order.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::helpers::*;
use serde_json::{Value, json};
use std::time::Duration;

const SEASON_START: &str = "2026-09-01T00:00:00Z";
const SEASON_END: &str = "2027-03-31T00:00:00Z";
const PUCK_DROP: &str = "2026-11-20T19:30:00Z";

fn id_of(body: &Value) -> String {
    body["id"].as_str().unwrap_or_else(|| panic!("no id in {body}")).to_string()
}

/// One side of a game: a team (owned by `coach`), its roster in the season
/// and its players, jersey numbers 1, 2, 3…
pub(crate) struct Side {
    pub(crate) coach: TestUser,
    pub(crate) team: String,
    pub(crate) roster: String,
    pub(crate) players: Vec<TestUser>,
}

/// A facility (owned by `rink`) with a season, and two sides in it.
pub(crate) struct League {
    pub(crate) rink: TestUser,
    pub(crate) facility: String,
    pub(crate) season: String,
    pub(crate) home: Side,
    pub(crate) away: Side,
}

async fn season(app: &TestApp, rink: &TestUser, facility: &str, name: &str) -> String {
    let (s, b) = app
        .post(
            &format!("/api/v1/facilities/{facility}/seasons"),
            Some(rink),
            json!({"name": name, "startDate": SEASON_START, "endDate": SEASON_END}),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    id_of(&b)
}

async fn side(app: &TestApp, season: &str, name: &str, players: usize) -> Side {
    let coach = app.user(&format!("coach_{}", name.to_lowercase())).await;
    let (s, t) = app.post("/api/v1/teams", Some(&coach), json!({"name": format!("{name} Hockey Club")})).await;
    assert_eq!(s, 201, "{t}");
    let team = id_of(&t);
    let (s, r) =
        app.post("/api/v1/rosters", Some(&coach), json!({"teamId": team, "seasonId": season, "name": name})).await;
    assert_eq!(s, 201, "{r}");
    let roster = id_of(&r);
    let mut list = Vec::new();
    for n in 0..players {
        let p = app.user(&format!("{}_{n}", name.to_lowercase())).await;
        let (s, b) = app
            .post(
                &format!("/api/v1/rosters/{roster}/players"),
                Some(&coach),
                json!({"userId": p.id, "jerseyNumber": n + 1}),
            )
            .await;
        assert_eq!(s, 201, "{b}");
        list.push(p);
    }
    Side { coach, team, roster, players: list }
}

pub(crate) async fn league(app: &TestApp, players: usize) -> League {
    let rink = app.user("rink_owner").await;
    let (s, f) = app
        .post("/api/v1/facilities", Some(&rink), json!({"name": "Maple Arena", "timezone": "America/Toronto"}))
        .await;
    assert_eq!(s, 201, "{f}");
    let facility = id_of(&f);
    let season = season(app, &rink, &facility, "Winter 2026").await;
    let home = side(app, &season, "Owls", players).await;
    let away = side(app, &season, "Hawks", players).await;
    League { rink, facility, season, home, away }
}

async fn new_game(app: &TestApp, by: &TestUser, season: &str, home: &str, away: &str, at: &str) -> Value {
    let (s, g) = app
        .post(
            "/api/v1/games",
            Some(by),
            json!({"homeRosterId": home, "awayRosterId": away, "seasonId": season, "scheduledAt": at}),
        )
        .await;
    assert_eq!(s, 201, "{g}");
    g
}

pub(crate) async fn game_of(app: &TestApp, l: &League) -> String {
    id_of(&new_game(app, &l.rink, &l.season, &l.home.roster, &l.away.roster, PUCK_DROP).await)
}

/// Posts an action that must succeed; answers the game state.
pub(crate) async fn act(app: &TestApp, by: &TestUser, game: &str, body: Value) -> Value {
    let (s, g) = app.post(&format!("/api/v1/games/{game}/actions"), Some(by), body.clone()).await;
    assert_eq!(s, 200, "{body} → {g}");
    g
}

/// The public game state, read signed out.
pub(crate) async fn public_game(app: &TestApp, game: &str) -> Value {
    let (s, g) = app.get(&format!("/api/v1/games/{game}"), None).await;
    assert_eq!(s, 200, "{g}");
    g
}

async fn standings(app: &TestApp, season: &str) -> Vec<Value> {
    let (s, b) = app.get(&format!("/api/v1/seasons/{season}/standings"), None).await;
    assert_eq!(s, 200, "{b}");
    b.as_array().unwrap_or_else(|| panic!("a list: {b}")).clone()
}

fn line<'a>(table: &'a [Value], roster: &str) -> &'a Value {
    table.iter().find(|r| r["rosterId"] == roster).unwrap_or_else(|| panic!("{roster} in {table:?}"))
}

/// `[gamesPlayed, wins, losses, ties, points, goalsFor, goalsAgainst]`.
fn record(row: &Value) -> [i64; 7] {
    ["gamesPlayed", "wins", "losses", "ties", "points", "goalsFor", "goalsAgainst"]
        .map(|k| row[k].as_i64().unwrap_or(-1))
}

/// `[goals, assists, points, penaltyMinutes, gamesPlayed]` of a player's
/// only roster, from the public stats.
async fn stats(app: &TestApp, user: &TestUser) -> [i64; 5] {
    let (s, b) = app.get(&format!("/api/v1/users/{}/stats", user.id), None).await;
    assert_eq!(s, 200, "{b}");
    let r = &b["rosters"][0];
    let line = ["goals", "assists", "points", "penaltyMinutes", "gamesPlayed"].map(|k| r[k].as_i64().unwrap_or(-1));
    let totals =
        ["goals", "assists", "points", "penaltyMinutes", "gamesPlayed"].map(|k| b["totals"][k].as_i64().unwrap_or(-1));
    assert_eq!(line, totals, "one roster: totals are its line");
    line
}

fn log_types(game: &Value) -> Vec<String> {
    game["log"].as_array().unwrap().iter().map(|e| e["type"].as_str().unwrap_or_default().to_string()).collect()
}

#[actix_web::test]
async fn a_game_is_scheduled_by_league_or_team_staff_and_read_by_anyone_signed_out() {
    let app = spawn_app().await;
    let l = league(&app, 2).await;
    let stranger = app.user("stranger").await;
    let body = json!({"homeRosterId": l.home.roster, "awayRosterId": l.away.roster, "seasonId": l.season, "scheduledAt": PUCK_DROP});

    let (s, b) = app.post("/api/v1/games", None, body.clone()).await;
    assert_error(s, &b, 401, "unauthorized");
    let (s, b) = app.post("/api/v1/games", Some(&stranger), body.clone()).await;
    assert_error(s, &b, 403, "forbidden");
    let other_season = season(&app, &l.rink, &l.facility, "Summer 2027").await;
    let elsewhere = side(&app, &other_season, "Loons", 0).await;
    for (bad, field) in [
        (
            json!({"homeRosterId": l.home.roster, "awayRosterId": l.home.roster, "seasonId": l.season, "scheduledAt": PUCK_DROP}),
            "awayRosterId",
        ),
        (
            json!({"homeRosterId": l.home.roster, "awayRosterId": elsewhere.roster, "seasonId": l.season, "scheduledAt": PUCK_DROP}),
            "awayRosterId",
        ),
        (
            json!({"homeRosterId": l.home.roster, "awayRosterId": "nope", "seasonId": l.season, "scheduledAt": PUCK_DROP}),
            "awayRosterId",
        ),
        (
            json!({"homeRosterId": l.home.roster, "awayRosterId": l.away.roster, "seasonId": l.season, "scheduledAt": "friday"}),
            "scheduledAt",
        ),
        (
            json!({"homeRosterId": l.home.roster, "awayRosterId": l.away.roster, "seasonId": "nope", "scheduledAt": PUCK_DROP}),
            "seasonId",
        ),
        (
            json!({"homeRosterId": l.home.roster, "awayRosterId": l.away.roster, "seasonId": l.season, "scheduledAt": PUCK_DROP, "homeScore": 9}),
            "homeScore",
        ),
    ] {
        let (s, b) = app.post("/api/v1/games", Some(&l.rink), bad).await;
        assert_error(s, &b, 422, "validation_failed");
        assert!(b["error"]["details"][field].is_string(), "{field}: {b}");
    }
    assert_eq!(app.count("games").await, 0, "nothing refused was stored");

    // The facility's owner and either team's owner may schedule.
    let first = new_game(&app, &l.rink, &l.season, &l.home.roster, &l.away.roster, "2026-11-27T19:30:00Z").await;
    let second = new_game(&app, &l.away.coach, &l.season, &l.away.roster, &l.home.roster, PUCK_DROP).await;
    assert_eq!(
        first["viewer"],
        json!({"canScore": true, "canManage": true, "lineupRosterIds": [l.home.roster, l.away.roster]})
    );
    // A team's staff set their own side's lineup only.
    let (_, seen) = app.get(&format!("/api/v1/games/{}", id_of(&first)), Some(&l.away.coach)).await;
    assert_eq!(seen["viewer"]["lineupRosterIds"], json!([l.away.roster]));

    let g = public_game(&app, &id_of(&first)).await;
    assert_eq!(g["status"], "SCHEDULED");
    assert_eq!(g["period"], Value::Null);
    assert_eq!((g["homeScore"].as_i64(), g["awayScore"].as_i64(), g["version"].as_i64()), (Some(0), Some(0), Some(0)));
    assert_eq!(
        (g["homeRosterId"].as_str(), g["awayRosterId"].as_str()),
        (Some(l.home.roster.as_str()), Some(l.away.roster.as_str()))
    );
    assert_eq!(g["log"], json!([]));
    assert_eq!(g["home"]["name"], "Owls");
    assert_eq!(g["home"]["players"].as_array().unwrap().len(), 2);
    assert_eq!(g["seasonId"], l.season.as_str());
    assert_eq!(g["scheduledAt"], "2026-11-27T19:30:00.000Z");
    assert!(g.get("viewer").is_none(), "no viewer when signed out");
    let (_, seen) = app.get(&format!("/api/v1/games/{}", id_of(&first)), Some(&stranger)).await;
    assert_eq!(seen["viewer"], json!({"canScore": false, "canManage": false, "lineupRosterIds": []}));
    let (s, b) = app.get("/api/v1/games/nope", None).await;
    assert_error(s, &b, 404, "not_found");

    // Schedules, public, by time.
    let (s, sched) = app.get(&format!("/api/v1/seasons/{}/schedule", l.season), None).await;
    assert_eq!(s, 200, "{sched}");
    let ids: Vec<&str> = sched.as_array().unwrap().iter().map(|g| g["id"].as_str().unwrap()).collect();
    assert_eq!(ids, [id_of(&second), id_of(&first)]);
    assert_eq!(sched[0]["homeRosterName"], "Hawks");
    assert_eq!(sched[0]["seasonName"], "Winter 2026");
    let (s, team) = app.get(&format!("/api/v1/teams/{}/schedule?limit=1", l.home.team), None).await;
    assert_eq!(s, 200, "{team}");
    assert_eq!(team["items"][0]["id"], id_of(&second).as_str());
    let cursor = team["nextCursor"].as_str().expect("a second page").to_string();
    let (_, page2) = app.get(&format!("/api/v1/teams/{}/schedule?limit=1&cursor={cursor}", l.home.team), None).await;
    assert_eq!(page2["items"][0]["id"], id_of(&first).as_str());
    assert_eq!(page2["nextCursor"], Value::Null);
    let (_, none) = app.get(&format!("/api/v1/teams/{}/schedule?seasonId={other_season}", l.home.team), None).await;
    assert_eq!(none["items"], json!([]));

    let table = standings(&app, &l.season).await;
    assert_eq!(table.len(), 2);
    assert_eq!(record(line(&table, &l.home.roster)), [0; 7]);
}

#[actix_web::test]
async fn every_action_moves_score_period_and_stats_and_undo_takes_each_back() {
    let app = spawn_app().await;
    let l = league(&app, 3).await;
    let game = game_of(&app, &l).await;
    let (h, a) = (&l.home.players, &l.away.players);
    let (home, away) = (l.home.roster.as_str(), l.away.roster.as_str());

    let g = act(&app, &l.rink, &game, json!({"type": "START"})).await;
    assert_eq!((g["status"].as_str(), g["period"].as_str(), g["version"].as_i64()), (Some("LIVE"), Some("1"), Some(1)));

    // A goal with a scorer and two assists.
    let g = act(
        &app,
        &l.rink,
        &game,
        json!({"type": "GOAL", "rosterId": home, "scorerId": h[0].id, "assistIds": [h[1].id, h[2].id]}),
    )
    .await;
    assert_eq!((g["homeScore"].as_i64(), g["awayScore"].as_i64()), (Some(1), Some(0)));
    let goal = g["log"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(
        (goal["type"].as_str(), goal["period"].as_str(), goal["playerId"].as_str()),
        (Some("GOAL"), Some("1"), Some(h[0].id.as_str()))
    );
    assert_eq!(goal["assistIds"], json!([h[1].id, h[2].id]));
    assert!(goal.get("playerName").is_none(), "names come from the sides' players: {goal}");
    let named = g["home"]["players"].as_array().unwrap().iter().find(|p| p["userId"] == h[0].id.as_str()).unwrap();
    assert_eq!(named["displayName"], "owls_0");
    assert_eq!(stats(&app, &h[0]).await, [1, 0, 1, 0, 0]);
    assert_eq!(stats(&app, &h[1]).await, [0, 1, 1, 0, 0]);
    assert_eq!(stats(&app, &h[2]).await, [0, 1, 1, 0, 0]);

    // A second goal, then its UNDO: score and every credited stat go back.
    let g = act(
        &app,
        &l.rink,
        &game,
        json!({"type": "GOAL", "rosterId": home, "scorerId": h[1].id, "assistIds": [h[0].id]}),
    )
    .await;
    assert_eq!(g["homeScore"], 2);
    assert_eq!(stats(&app, &h[1]).await, [1, 1, 2, 0, 0]);
    let g = act(&app, &l.rink, &game, json!({"type": "UNDO"})).await;
    assert_eq!((g["homeScore"].as_i64(), g["awayScore"].as_i64()), (Some(1), Some(0)));
    assert_eq!(log_types(&g), ["START", "GOAL"], "the undone goal and the UNDO leave the public log");
    assert_eq!(stats(&app, &h[0]).await, [1, 0, 1, 0, 0]);
    assert_eq!(stats(&app, &h[1]).await, [0, 1, 1, 0, 0]);
    assert_eq!(public_game(&app, &game).await["homeScore"], 1);

    // A penalty.
    let g = act(
        &app,
        &l.away.coach,
        &game,
        json!({"type": "PENALTY", "rosterId": away, "playerId": a[0].id, "minutes": 2}),
    )
    .await;
    assert_eq!(g["log"].as_array().unwrap().last().unwrap()["minutes"], 2);
    assert_eq!(stats(&app, &a[0]).await, [0, 0, 0, 2, 0]);

    // Periods: 1 → 2 → 3; at 1–0 the end of the 3rd ends regulation and
    // there is no overtime (the tied walk to OT and SO is its own test).
    for want in ["2", "3", "3"] {
        let g = act(&app, &l.rink, &game, json!({"type": "END_PERIOD"})).await;
        assert_eq!(g["period"], want);
    }
    let (s, b) = app.post(&format!("/api/v1/games/{game}/actions"), Some(&l.rink), json!({"type": "END_PERIOD"})).await;
    assert_error(s, &b, 409, "conflict");
    // A goal entered after the buzzer counts like any other, and its UNDO takes it back.
    let g = act(&app, &l.rink, &game, json!({"type": "GOAL", "rosterId": away, "scorerId": a[1].id})).await;
    assert_eq!(
        (g["awayScore"].as_i64(), g["log"].as_array().unwrap().last().unwrap()["period"].as_str()),
        (Some(1), Some("3"))
    );
    let g = act(&app, &l.rink, &game, json!({"type": "UNDO"})).await;
    assert_eq!(g["awayScore"], 0);

    // FINAL: the result to both rosters and a game played to everyone dressed.
    let g = act(&app, &l.rink, &game, json!({"type": "FINAL"})).await;
    assert_eq!(g["status"], "FINAL");
    let table = standings(&app, &l.season).await;
    assert_eq!(record(line(&table, home)), [1, 1, 0, 0, 2, 1, 0]);
    assert_eq!(record(line(&table, away)), [1, 0, 1, 0, 0, 0, 1]);
    assert_eq!(table[0]["rosterId"], home);
    assert_eq!(table[0]["name"], "Owls");
    assert_eq!(stats(&app, &h[0]).await, [1, 0, 1, 0, 1]);
    assert_eq!(stats(&app, &a[2]).await, [0, 0, 0, 0, 1]);
    let (s, leaders) = app.get(&format!("/api/v1/seasons/{}/leaders", l.season), None).await;
    assert_eq!(s, 200, "{leaders}");
    // h0 and h1 and h2 each have 1 point; h0 leads on goals.
    assert_eq!(leaders[0]["userId"], h[0].id.as_str());
    assert_eq!(
        (
            leaders[0]["goals"].as_i64(),
            leaders[0]["points"].as_i64(),
            leaders[0]["gamesPlayed"].as_i64(),
            leaders[0]["jerseyNumber"].as_i64()
        ),
        (Some(1), Some(1), Some(1), Some(1))
    );
    assert_eq!(leaders[0]["rosterName"], "Owls");
    assert_eq!(leaders[0]["displayName"], "owls_0");
    assert_eq!(leaders.as_array().unwrap().len(), 6);

    // UNDO of FINAL takes the result and the games played back.
    let g = act(&app, &l.rink, &game, json!({"type": "UNDO"})).await;
    assert_eq!((g["status"].as_str(), g["period"].as_str()), (Some("LIVE"), Some("3")));
    let table = standings(&app, &l.season).await;
    assert_eq!(record(line(&table, home)), [0; 7]);
    assert_eq!(record(line(&table, away)), [0; 7]);
    assert_eq!(stats(&app, &h[0]).await, [1, 0, 1, 0, 0]);
    assert_eq!(stats(&app, &a[0]).await, [0, 0, 0, 2, 0]);

    // And FINAL again gives them back exactly once.
    act(&app, &l.rink, &game, json!({"type": "FINAL"})).await;
    assert_eq!(record(line(&standings(&app, &l.season).await, home)), [1, 1, 0, 0, 2, 1, 0]);
    assert_eq!(stats(&app, &h[2]).await, [0, 1, 1, 0, 1]);
    let undone: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM game_log WHERE game_id = $1 AND undone_at IS NOT NULL")
        .bind(&game)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(undone, 3, "two goals and a FINAL were undone, and stay in the log marked");
}

/// Issue 26: END 3RD at 1–0 and then FINAL read "FINAL · OT". Overtime is
/// played only from a tie; scored over HTTP and watched over the socket.
#[actix_web::test]
async fn end_of_the_third_and_final_at_one_nil_stays_regulation() {
    let app = spawn_app().await;
    let l = league(&app, 1).await;
    let game = game_of(&app, &l).await;
    let mut display = app.ws().await;
    display.subscribe(&format!("game:{game}")).await;
    let mut keeper = app.ws().await;
    keeper.auth(&l.rink).await;

    act(&app, &l.rink, &game, json!({"type": "START"})).await;
    act(&app, &l.rink, &game, json!({"type": "GOAL", "rosterId": l.home.roster})).await;
    act(&app, &l.rink, &game, json!({"type": "END_PERIOD"})).await;
    act(&app, &l.rink, &game, json!({"type": "END_PERIOD"})).await;
    // END 3RD over the socket, as the console sends it.
    let r = keeper.command("end3", json!({"kind": "gameAction", "gameId": game, "type": "END_PERIOD"})).await;
    assert_eq!((r["ok"].as_bool(), r["data"]["period"].as_str()), (Some(true), Some("3")), "{r}");
    assert_eq!(r["data"]["log"].as_array().unwrap().last().unwrap()["type"], "END_PERIOD");
    // Going on to OT with a lead is refused, over both transports, in the envelope.
    let (s, b) = app.post(&format!("/api/v1/games/{game}/actions"), Some(&l.rink), json!({"type": "END_PERIOD"})).await;
    assert_error(s, &b, 409, "conflict");
    let r = keeper.command("ot", json!({"kind": "gameAction", "gameId": game, "type": "END_PERIOD"})).await;
    assert_eq!((r["ok"].as_bool(), r["error"]["code"].as_str()), (Some(false), Some("conflict")), "{r}");

    let r = keeper.command("final", json!({"kind": "gameAction", "gameId": game, "type": "FINAL"})).await;
    assert_eq!((r["data"]["status"].as_str(), r["data"]["period"].as_str()), (Some("FINAL"), Some("3")), "{r}");
    let g = public_game(&app, &game).await;
    assert_eq!((g["status"].as_str(), g["period"].as_str()), (Some("FINAL"), Some("3")), "regulation, not OT");
    let last = loop {
        let u = display.next_of("update", Duration::from_secs(5)).await.expect("pushes up to FINAL");
        if u["data"]["status"] == "FINAL" {
            break u;
        }
    };
    assert_eq!(last["data"]["period"], "3", "the display is told regulation: {last}");
    let (_, sched) = app.get(&format!("/api/v1/seasons/{}/schedule", l.season), None).await;
    assert_eq!(sched[0]["period"], "3");
    assert_eq!(record(line(&standings(&app, &l.season).await, &l.home.roster)), [1, 1, 0, 0, 2, 1, 0]);
}

#[actix_web::test]
async fn a_tied_game_goes_to_overtime_then_a_shootout_and_no_further() {
    let app = spawn_app().await;
    let l = league(&app, 1).await;
    let game = game_of(&app, &l).await;
    act(&app, &l.rink, &game, json!({"type": "START"})).await;
    act(&app, &l.rink, &game, json!({"type": "GOAL", "rosterId": l.home.roster})).await;
    act(&app, &l.rink, &game, json!({"type": "GOAL", "rosterId": l.away.roster})).await;
    for want in ["2", "3", "OT", "SO"] {
        let g = act(&app, &l.rink, &game, json!({"type": "END_PERIOD"})).await;
        assert_eq!(g["period"], want);
    }
    let (s, b) = app.post(&format!("/api/v1/games/{game}/actions"), Some(&l.rink), json!({"type": "END_PERIOD"})).await;
    assert_error(s, &b, 409, "conflict");
    // A shootout goal counts like any other.
    let g = act(&app, &l.rink, &game, json!({"type": "GOAL", "rosterId": l.away.roster})).await;
    assert_eq!(
        (g["awayScore"].as_i64(), g["log"].as_array().unwrap().last().unwrap()["period"].as_str()),
        (Some(2), Some("SO"))
    );
    let g = act(&app, &l.rink, &game, json!({"type": "FINAL"})).await;
    assert_eq!((g["status"].as_str(), g["period"].as_str()), (Some("FINAL"), Some("SO")));
}

#[actix_web::test]
async fn a_final_game_refuses_every_action_but_undo() {
    let app = spawn_app().await;
    let l = league(&app, 1).await;
    let game = game_of(&app, &l).await;
    act(&app, &l.rink, &game, json!({"type": "START"})).await;
    act(&app, &l.rink, &game, json!({"type": "FINAL"})).await;
    let before = public_game(&app, &game).await;
    for body in [
        json!({"type": "START"}),
        json!({"type": "GOAL", "rosterId": l.home.roster}),
        json!({"type": "PENALTY", "rosterId": l.home.roster, "playerId": l.home.players[0].id, "minutes": 2}),
        json!({"type": "END_PERIOD"}),
        json!({"type": "FINAL"}),
    ] {
        let (s, b) = app.post(&format!("/api/v1/games/{game}/actions"), Some(&l.rink), body.clone()).await;
        assert_error(s, &b, 409, "conflict");
    }
    let (s, b) = app
        .put(
            &format!("/api/v1/games/{game}/lineups/{}", l.home.roster),
            Some(&l.rink),
            Some(json!({"userIds": [l.home.players[0].id]})),
        )
        .await;
    assert_error(s, &b, 409, "conflict");
    assert_eq!(public_game(&app, &game).await, before, "nothing changed");
    assert_eq!(act(&app, &l.rink, &game, json!({"type": "UNDO"})).await["status"], "LIVE");
}

#[actix_web::test]
async fn only_scorers_may_score_and_only_staff_assign_score_keepers() {
    let app = spawn_app().await;
    let l = league(&app, 1).await;
    let game = game_of(&app, &l).await;
    let stranger = app.user("stranger").await;
    let keeper = app.user("keeper").await;
    let helper = app.user("helper").await;
    let actions = format!("/api/v1/games/{game}/actions");

    let (s, b) = app.post(&actions, None, json!({"type": "START"})).await;
    assert_error(s, &b, 401, "unauthorized");
    let (s, b) = app.post(&actions, Some(&stranger), json!({"type": "START"})).await;
    assert_error(s, &b, 403, "forbidden");
    // A player on a roster is not a scorer either.
    let (s, b) = app.post(&actions, Some(&l.home.players[0]), json!({"type": "START"})).await;
    assert_error(s, &b, 403, "forbidden");
    let (s, b) = app.post("/api/v1/games/nope/actions", Some(&l.rink), json!({"type": "START"})).await;
    assert_error(s, &b, 404, "not_found");

    // Staff assign score keepers; a score keeper may score but not assign.
    let keepers = format!("/api/v1/games/{game}/scorekeepers");
    let (s, b) = app.put(&format!("{keepers}/{}", keeper.id), Some(&stranger), None).await;
    assert_error(s, &b, 403, "forbidden");
    let (s, b) = app.put(&format!("{keepers}/{}", keeper.id), Some(&l.home.coach), None).await;
    assert_eq!(s, 204, "{b}");
    let (s, _) = app.put(&format!("{keepers}/{}", keeper.id), Some(&l.rink), None).await;
    assert_eq!(s, 204, "idempotent");
    let (s, b) = app.put(&format!("{keepers}/nobody"), Some(&l.rink), None).await;
    assert_error(s, &b, 404, "not_found");
    let (_, list) = app.get(&keepers, Some(&keeper)).await;
    assert_eq!(list, json!([{"userId": keeper.id, "displayName": "keeper"}]));
    let (s, b) = app.put(&format!("{keepers}/{}", helper.id), Some(&keeper), None).await;
    assert_error(s, &b, 403, "forbidden");
    assert_eq!(act(&app, &keeper, &game, json!({"type": "START"})).await["status"], "LIVE");
    let (_, seen) = app.get(&format!("/api/v1/games/{game}"), Some(&keeper)).await;
    assert_eq!(
        seen["viewer"],
        json!({"canScore": true, "canManage": false, "lineupRosterIds": [l.home.roster, l.away.roster]})
    );

    // Team and facility managers score too.
    let (s, b) =
        app.put(&format!("/api/v1/teams/{}/managers/{}", l.away.team, helper.id), Some(&l.away.coach), None).await;
    assert_eq!(s, 204, "{b}");
    assert_eq!(act(&app, &helper, &game, json!({"type": "GOAL", "rosterId": l.away.roster})).await["awayScore"], 1);
    let rink_hand = app.user("rink_hand").await;
    let (s, b) =
        app.put(&format!("/api/v1/facilities/{}/managers/{}", l.facility, rink_hand.id), Some(&l.rink), None).await;
    assert_eq!(s, 204, "{b}");
    assert_eq!(act(&app, &rink_hand, &game, json!({"type": "GOAL", "rosterId": l.home.roster})).await["homeScore"], 1);

    // Unassigned, the keeper is refused again.
    let (s, _) = app.delete(&format!("{keepers}/{}", keeper.id), Some(&l.rink)).await;
    assert_eq!(s, 204);
    let (s, b) = app.post(&actions, Some(&keeper), json!({"type": "UNDO"})).await;
    assert_error(s, &b, 403, "forbidden");

    // The same rules over the socket.
    let mut anon = app.ws().await;
    let r = anon.command("1", json!({"kind": "gameAction", "gameId": game, "type": "UNDO"})).await;
    assert_eq!((r["ok"].as_bool(), r["error"]["code"].as_str()), (Some(false), Some("unauthorized")), "{r}");
    let mut ws = app.ws().await;
    ws.auth(&stranger).await;
    let r = ws.command("1", json!({"kind": "gameAction", "gameId": game, "type": "UNDO"})).await;
    assert_eq!(r["error"]["code"], "forbidden", "{r}");
    assert_eq!(public_game(&app, &game).await["log"].as_array().unwrap().len(), 3, "no refused action was applied");
}

#[actix_web::test]
async fn a_goal_credited_to_a_player_of_the_other_roster_is_refused_and_changes_nothing() {
    let app = spawn_app().await;
    let l = league(&app, 2).await;
    let game = game_of(&app, &l).await;
    act(&app, &l.rink, &game, json!({"type": "START"})).await;
    let before = public_game(&app, &game).await;
    let (home, theirs) = (l.home.roster.as_str(), &l.away.players);
    for (body, field) in [
        (json!({"type": "GOAL", "rosterId": home, "scorerId": theirs[0].id}), "scorerId"),
        (
            json!({"type": "GOAL", "rosterId": home, "scorerId": l.home.players[0].id, "assistIds": [theirs[1].id]}),
            "assistIds",
        ),
        (
            json!({"type": "GOAL", "rosterId": home, "scorerId": l.home.players[0].id, "assistIds": [l.home.players[0].id]}),
            "assistIds",
        ),
        (json!({"type": "PENALTY", "rosterId": home, "playerId": theirs[0].id, "minutes": 2}), "playerId"),
        (json!({"type": "PENALTY", "rosterId": home, "playerId": l.home.players[0].id, "minutes": 0}), "minutes"),
        (json!({"type": "GOAL", "rosterId": "not-in-this-game"}), "rosterId"),
    ] {
        let (s, b) = app.post(&format!("/api/v1/games/{game}/actions"), Some(&l.rink), body.clone()).await;
        assert_error(s, &b, 422, "validation_failed");
        assert!(b["error"]["details"][field].is_string(), "{field}: {b}");
    }
    let (s, b) = app
        .post(
            &format!("/api/v1/games/{game}/actions"),
            Some(&l.rink),
            json!({"type": "GOAL", "rosterId": home, "stick": "left"}),
        )
        .await;
    assert_error(s, &b, 422, "validation_failed");
    assert_eq!(public_game(&app, &game).await, before, "score, log and version unchanged");
    assert_eq!(stats(&app, &theirs[0]).await, [0; 5]);
}

#[actix_web::test]
async fn a_signed_out_subscriber_sees_each_goal_live_and_the_standings_change_at_final() {
    let app = spawn_app().await;
    let l = league(&app, 1).await;
    let game = game_of(&app, &l).await;
    let mut display = app.ws().await;
    let snap = display.subscribe(&format!("game:{game}")).await;
    assert_eq!((snap["seq"].as_i64(), snap["data"]["status"].as_str()), (Some(0), Some("SCHEDULED")));
    let mut board = app.ws().await;
    let season_snap = board.subscribe(&format!("season:{}", l.season)).await;
    assert_eq!(season_snap["data"]["schedule"][0]["id"], game.as_str());
    assert_eq!(season_snap["data"]["standings"].as_array().unwrap().len(), 2);
    let mut season_seq = season_snap["seq"].as_i64().unwrap();
    let mut roster_watch = app.ws().await;
    roster_watch.subscribe(&format!("roster:{}", l.home.roster)).await;

    // Each action is pushed before the next is posted, so no push is
    // coalesced with a newer one (the outbox keeps only the newest state of
    // a topic a client has not read yet).
    let scorer = &l.home.players[0];
    let start = json!({"type": "START"});
    let goal = json!({"type": "GOAL", "rosterId": l.home.roster, "scorerId": scorer.id});
    for (seq, body) in [(1, &start), (2, &goal), (3, &goal), (4, &goal)] {
        act(&app, &l.rink, &game, body.clone()).await;
        let u = display.next_of("update", Duration::from_secs(5)).await.expect("a push per action");
        assert_eq!(u["topic"], format!("game:{game}"));
        assert_eq!((u["seq"].as_i64(), u["data"]["homeScore"].as_i64()), (Some(seq), Some(seq - 1)), "in order: {u}");
        assert_eq!(u["data"]["version"], seq);
    }
    // The roster page sees the scorer's goals.
    let mut goals = 0;
    while goals < 3 {
        let u = roster_watch.next_of("update", Duration::from_secs(5)).await.expect("roster pushes after goals");
        let p = u["data"]["players"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["userId"] == scorer.id.as_str())
            .cloned()
            .unwrap();
        goals = p["goals"].as_i64().unwrap();
    }

    act(&app, &l.rink, &game, json!({"type": "FINAL"})).await;
    let u = display.next_of("update", Duration::from_secs(5)).await.expect("FINAL pushed");
    assert_eq!((u["seq"].as_i64(), u["data"]["status"].as_str()), (Some(5), Some("FINAL")));
    // The season board: strictly increasing seq, ending with the result.
    let last = loop {
        let u = board.next_of("update", Duration::from_secs(5)).await.expect("season pushes");
        let seq = u["seq"].as_i64().unwrap();
        assert!(seq > season_seq, "strictly increasing: {seq} after {season_seq}");
        season_seq = seq;
        if u["data"]["schedule"][0]["status"] == "FINAL" {
            break u;
        }
    };
    assert_eq!(last["data"]["standings"][0]["rosterId"], l.home.roster.as_str());
    assert_eq!(last["data"]["standings"][0]["points"], 2);
    assert_eq!(last["data"]["standings"][0]["goalsFor"], 3);
    // A fresh subscriber gets the same state at the same seq.
    let mut late = app.ws().await;
    let again = late.subscribe(&format!("season:{}", l.season)).await;
    assert_eq!((again["seq"].as_i64(), &again["data"]), (Some(season_seq), &last["data"]));
}

#[actix_web::test]
async fn a_retried_command_id_does_not_apply_twice() {
    let app = spawn_app().await;
    let l = league(&app, 1).await;
    let game = game_of(&app, &l).await;
    act(&app, &l.rink, &game, json!({"type": "START"})).await;
    let path = format!("/api/v1/games/{game}/actions");
    let goal = json!({"type": "GOAL", "rosterId": l.home.roster, "scorerId": l.home.players[0].id});
    let post = |key: &'static str, body: Value| {
        send(app.req(reqwest::Method::POST, &path, Some(&l.rink)).header("Idempotency-Key", key).json(&body))
    };

    let first = post("goal-1", goal.clone()).await;
    assert_eq!(first.0, 200, "{}", first.1);
    act(&app, &l.rink, &game, json!({"type": "GOAL", "rosterId": l.away.roster})).await;
    let retry = post("goal-1", goal.clone()).await;
    assert_eq!(retry, first, "the retry answers the first reply");
    assert_eq!(public_game(&app, &game).await["homeScore"], 1);
    assert_eq!(stats(&app, &l.home.players[0]).await[0], 1);
    // A refusal is replayed too.
    let bad = json!({"type": "PENALTY", "rosterId": l.home.roster, "playerId": l.home.players[0].id, "minutes": 99});
    let refused = post("pen-1", bad.clone()).await;
    assert_eq!(refused.0, 422);
    assert_eq!(post("pen-1", bad).await, refused);

    // Over the socket, the command id is the key.
    let mut ws = app.ws().await;
    ws.auth(&l.rink).await;
    let r1 = ws
        .command("c-1", json!({"kind": "gameAction", "gameId": game, "type": "GOAL", "rosterId": l.home.roster}))
        .await;
    assert_eq!((r1["ok"].as_bool(), r1["data"]["homeScore"].as_i64()), (Some(true), Some(2)), "{r1}");
    let r2 = ws
        .command("c-1", json!({"kind": "gameAction", "gameId": game, "type": "GOAL", "rosterId": l.home.roster}))
        .await;
    assert_eq!(r2["data"], r1["data"]);
    let g = public_game(&app, &game).await;
    assert_eq!((g["homeScore"].as_i64(), g["awayScore"].as_i64()), (Some(2), Some(1)));
    let goals: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM game_log WHERE game_id = $1 AND type = 'GOAL'")
        .bind(&game)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(goals, 3);
}

/// START, `home` and `away` goals without scorers, FINAL.
async fn play(app: &TestApp, by: &TestUser, season: &str, home: &str, away: &str, score: (usize, usize)) {
    let game = id_of(&new_game(app, by, season, home, away, PUCK_DROP).await);
    act(app, by, &game, json!({"type": "START"})).await;
    for _ in 0..score.0 {
        act(app, by, &game, json!({"type": "GOAL", "rosterId": home})).await;
    }
    for _ in 0..score.1 {
        act(app, by, &game, json!({"type": "GOAL", "rosterId": away})).await;
    }
    act(app, by, &game, json!({"type": "FINAL"})).await;
}

#[actix_web::test]
async fn standings_order_by_points_then_wins_then_goal_difference_then_name() {
    let app = spawn_app().await;
    let rink = app.user("rink_owner").await;
    let (_, f) = app
        .post("/api/v1/facilities", Some(&rink), json!({"name": "Maple Arena", "timezone": "America/Toronto"}))
        .await;
    let season = season(&app, &rink, &id_of(&f), "Winter 2026").await;
    let mut rosters = std::collections::HashMap::new();
    for name in ["Alpha", "Bravo", "Charlie", "Delta", "Foxtrot", "Echo"] {
        rosters.insert(name, side(&app, &season, name, 0).await.roster);
    }
    let r = |n: &str| rosters[n].clone();
    play(&app, &rink, &season, &r("Alpha"), &r("Bravo"), (2, 1)).await; // Alpha W
    play(&app, &rink, &season, &r("Charlie"), &r("Delta"), (1, 1)).await; // tie
    play(&app, &rink, &season, &r("Charlie"), &r("Bravo"), (1, 1)).await; // tie
    let table = standings(&app, &season).await;
    let order: Vec<&str> = table.iter().map(|row| row["name"].as_str().unwrap()).collect();
    // Alpha and Charlie have 2 points: Alpha has the win. Delta and Bravo
    // have 1: Delta's goal difference is better. Echo and Foxtrot have
    // nothing: by name.
    assert_eq!(order, ["Alpha", "Charlie", "Delta", "Bravo", "Echo", "Foxtrot"]);
    assert_eq!(record(&table[0]), [1, 1, 0, 0, 2, 2, 1]);
    assert_eq!(record(&table[1]), [2, 0, 0, 2, 2, 2, 2]);
    assert_eq!(record(&table[2]), [1, 0, 0, 1, 1, 1, 1]);
    assert_eq!(record(&table[3]), [2, 0, 1, 1, 1, 2, 3]);
    assert_eq!(record(&table[4]), [0; 7]);
    // The season topic carries the same table.
    let mut ws = app.ws().await;
    let snap = ws.subscribe(&format!("season:{season}")).await;
    assert_eq!(snap["data"]["standings"], Value::Array(table.clone()));
    assert_eq!(snap["data"]["schedule"].as_array().unwrap().len(), 3);
    let (s, b) = app.get("/api/v1/seasons/nope/standings", None).await;
    assert_error(s, &b, 404, "not_found");
}

#[actix_web::test]
async fn a_lineup_decides_who_may_be_credited_and_who_gets_a_game_played() {
    let app = spawn_app().await;
    let l = league(&app, 3).await;
    let game = game_of(&app, &l).await;
    let h = &l.home.players;
    let lineup = format!("/api/v1/games/{game}/lineups/{}", l.home.roster);
    let outsider = app.user("outsider").await;
    for body in [json!({"userIds": []}), json!({"userIds": [outsider.id]}), json!({"userIds": [h[0].id, h[0].id]})] {
        let (s, b) = app.put(&lineup, Some(&l.rink), Some(body)).await;
        assert_error(s, &b, 422, "validation_failed");
    }
    let (s, b) = app.put(&lineup, Some(&l.home.players[2]), Some(json!({"userIds": [h[0].id]}))).await;
    assert_error(s, &b, 403, "forbidden");
    let (s, g) = app.put(&lineup, Some(&l.home.coach), Some(json!({"userIds": [h[0].id, h[1].id]}))).await;
    assert_eq!(s, 200, "{g}");
    let dressed: Vec<bool> =
        g["home"]["players"].as_array().unwrap().iter().map(|p| p["dressed"].as_bool().unwrap()).collect();
    assert_eq!(dressed, [true, true, false]);

    act(&app, &l.rink, &game, json!({"type": "START"})).await;
    let (s, b) = app
        .post(
            &format!("/api/v1/games/{game}/actions"),
            Some(&l.rink),
            json!({"type": "GOAL", "rosterId": l.home.roster, "scorerId": h[2].id}),
        )
        .await;
    assert_error(s, &b, 422, "validation_failed");
    act(
        &app,
        &l.rink,
        &game,
        json!({"type": "GOAL", "rosterId": l.home.roster, "scorerId": h[1].id, "assistIds": [h[0].id]}),
    )
    .await;
    // Someone with an entry must stay dressed.
    let (s, b) = app.put(&lineup, Some(&l.rink), Some(json!({"userIds": [h[0].id]}))).await;
    assert_error(s, &b, 422, "validation_failed");
    act(&app, &l.rink, &game, json!({"type": "FINAL"})).await;
    assert_eq!(stats(&app, &h[0]).await, [0, 1, 1, 0, 1]);
    assert_eq!(stats(&app, &h[1]).await, [1, 0, 1, 0, 1]);
    assert_eq!(stats(&app, &h[2]).await, [0, 0, 0, 0, 0], "not dressed, no game played");
    assert_eq!(stats(&app, &l.away.players[2]).await, [0, 0, 0, 0, 1], "no lineup set: the whole roster dressed");
    // The lineup survives a reload from the database (a fresh GET after a
    // restart reads the same rows): check the rows directly.
    let rows: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM game_lineups WHERE game_id = $1")
        .bind(&game)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(rows, 2);
}

#[actix_web::test]
async fn a_game_is_rescheduled_postponed_and_cancelled_only_before_it_goes_live() {
    let app = spawn_app().await;
    let l = league(&app, 1).await;
    let game = game_of(&app, &l).await;
    let path = format!("/api/v1/games/{game}");
    let keeper = app.user("keeper").await;
    app.put(&format!("{path}/scorekeepers/{}", keeper.id), Some(&l.rink), None).await;

    let (s, b) = app.patch(&path, Some(&keeper), json!({"status": "POSTPONED"})).await;
    assert_error(s, &b, 403, "forbidden");
    let (s, b) = app.patch(&path, Some(&l.rink), json!({"status": "LIVE"})).await;
    assert_error(s, &b, 422, "validation_failed");
    let (s, b) = app.patch(&path, Some(&l.rink), json!({"scheduledAt": "soon"})).await;
    assert_error(s, &b, 422, "validation_failed");

    let (s, g) = app
        .patch(&path, Some(&l.home.coach), json!({"scheduledAt": "2026-12-04T20:00:00-05:00", "status": "POSTPONED"}))
        .await;
    assert_eq!(s, 200, "{g}");
    assert_eq!(
        (g["scheduledAt"].as_str(), g["status"].as_str()),
        (Some("2026-12-05T01:00:00.000Z"), Some("POSTPONED"))
    );
    assert_eq!(g["version"], 1, "one edit, decided whole by the game's actor, is one version");
    let (s, b) = app.post(&format!("{path}/actions"), Some(&l.rink), json!({"type": "START"})).await;
    assert_error(s, &b, 409, "conflict");
    let (s, g) = app.patch(&path, Some(&l.rink), json!({"status": "SCHEDULED"})).await;
    assert_eq!((s, g["status"].as_str()), (200, Some("SCHEDULED")));
    act(&app, &keeper, &game, json!({"type": "START"})).await;
    for body in [json!({"scheduledAt": PUCK_DROP}), json!({"status": "POSTPONED"})] {
        let (s, b) = app.patch(&path, Some(&l.rink), body).await;
        assert_error(s, &b, 409, "conflict");
    }
    let (_, sched) = app.get(&format!("/api/v1/seasons/{}/schedule", l.season), None).await;
    assert_eq!(
        (sched[0]["status"].as_str(), sched[0]["scheduledAt"].as_str()),
        (Some("LIVE"), Some("2026-12-05T01:00:00.000Z"))
    );

    // Cancelled is final.
    let other = game_of(&app, &l).await;
    let (s, g) =
        app.patch(&format!("/api/v1/games/{other}"), Some(&l.away.coach), json!({"status": "CANCELLED"})).await;
    assert_eq!((s, g["status"].as_str()), (200, Some("CANCELLED")));
    let (s, b) = app.patch(&format!("/api/v1/games/{other}"), Some(&l.rink), json!({"status": "SCHEDULED"})).await;
    assert_error(s, &b, 409, "conflict");
}

#[actix_web::test]
async fn a_team_with_games_is_kept_and_one_without_games_may_be_deleted() {
    let app = spawn_app().await;
    let l = league(&app, 1).await;
    let game = game_of(&app, &l).await;
    let (s, b) = app.delete(&format!("/api/v1/teams/{}", l.home.team), Some(&l.home.coach)).await;
    assert_eq!((s, b["error"]["code"].as_str()), (409, Some("team_has_games")), "{b}");
    assert_eq!(public_game(&app, &game).await["homeRosterId"], l.home.roster.as_str(), "the game still stands");
    let lonely = side(&app, &l.season, "Loons", 1).await;
    let (s, b) = app.delete(&format!("/api/v1/teams/{}", lonely.team), Some(&lonely.coach)).await;
    assert_eq!(s, 204, "{b}");
    let (s, _) = app.get(&format!("/api/v1/teams/{}", lonely.team), None).await;
    assert_eq!(s, 404);
}

#[actix_web::test]
async fn a_goals_update_frame_carries_only_the_goal_and_stays_under_600_bytes() {
    let app = spawn_app().await;
    let l = league(&app, 3).await;
    let game = game_of(&app, &l).await;
    let mut display = app.ws().await;
    display.subscribe(&format!("game:{game}")).await;
    act(&app, &l.rink, &game, json!({"type": "START"})).await;
    display.next_of("update", Duration::from_secs(5)).await.expect("START pushed");
    act(&app, &l.rink, &game, json!({"type": "CLOCK_START"})).await;
    display.next_of("update", Duration::from_secs(5)).await.expect("the clock pushed");
    let h = &l.home.players;
    let goal = json!({"type": "GOAL", "rosterId": l.home.roster, "scorerId": h[0].id, "assistIds": [h[1].id, h[2].id]});
    let mut largest = 0;
    let mut last = Value::Null;
    for n in 1..=100 {
        act(&app, &l.rink, &game, goal.clone()).await;
        let frame = display.next_text_of("update", Duration::from_secs(5)).await.expect("a push per goal");
        largest = largest.max(frame.len());
        last = serde_json::from_str(&frame).unwrap();
        assert_eq!(last["data"]["homeScore"], n, "in order");
    }
    let data = &last["data"];
    assert!(data.get("log").is_none() && data.get("home").is_none(), "no log, no sides: {data}");
    assert!(data.get("since").is_none(), "each continues from the one before: {data}");
    let entries = data["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 1, "only the goal: {data}");
    assert_eq!(
        (entries[0]["playerId"].as_str(), entries[0]["strength"].as_str()),
        (Some(h[0].id.as_str()), Some("EV"))
    );
    assert!(data["clock"]["running"].as_bool().unwrap());
    let snapshot = public_game(&app, &game).await;
    assert_eq!(snapshot["log"].as_array().unwrap().len(), 101, "the snapshot keeps the whole log");
    assert_eq!(entries[0], snapshot["log"][100]);
    assert_eq!(data["playersDigest"], snapshot["playersDigest"]);
    assert!(largest <= 600, "the largest goal frame was {largest} bytes");
}
