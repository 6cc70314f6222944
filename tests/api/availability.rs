//! Availability for every league game (docs/availability.md) over HTTP and
//! the socket: answers by the right people only, the captain's counts by
//! group and live board, the lock, nudges to exactly those who have not
//! answered, reminders, my schedule's answer, and an imported game whose
//! answer is the player's RSVP.

use crate::games::{League, league};
use crate::helpers::*;
use serde_json::{Value, json};
use std::time::Duration;

const MINUTE: i64 = 60_000;
const HOUR: i64 = 60 * MINUTE;

fn at(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms).unwrap().to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

fn now() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

/// A game of the league's home roster against its away roster, `from_now`
/// ahead.
async fn game_in(app: &TestApp, l: &League, from_now: i64) -> String {
    let body = json!({"homeRosterId": l.home.roster, "awayRosterId": l.away.roster, "seasonId": l.season,
                      "scheduledAt": at(now() + from_now)});
    let (s, g) = app.post("/api/v1/games", Some(&l.rink), body).await;
    assert_eq!(s, 201, "{g}");
    g["id"].as_str().unwrap().to_string()
}

async fn set_player(app: &TestApp, l: &League, who: &TestUser, body: Value) {
    let path = format!("/api/v1/rosters/{}/players/{}", l.home.roster, who.id);
    let (s, b) = app.patch(&path, Some(&l.home.coach), body).await;
    assert_eq!(s, 200, "{b}");
}

async fn answer(app: &TestApp, by: &TestUser, roster: &str, game: &str, who: &TestUser, answer: &str) -> (u16, Value) {
    let path = format!("/api/v1/rosters/{roster}/availability/{game}/players/{}", who.id);
    app.put(&path, Some(by), Some(json!({"answer": answer}))).await
}

async fn said(app: &TestApp, l: &League, game: &str, who: &TestUser, what: &str) -> Value {
    let (s, b) = answer(app, who, &l.home.roster, game, who, what).await;
    assert_eq!(s, 200, "{b}");
    b
}

fn tally(view: &Value, group: &str) -> (i64, i64, i64) {
    let t = &view["counts"][group];
    (t["in"].as_i64().unwrap(), t["out"].as_i64().unwrap(), t["noAnswer"].as_i64().unwrap())
}

fn player<'a>(view: &'a Value, who: &TestUser) -> &'a Value {
    view["players"].as_array().unwrap().iter().find(|p| p["userId"] == who.id.as_str()).unwrap()
}

/// Four home players: a centre, a defenceman, a goalie and a sub.
async fn positions(app: &TestApp, l: &League) {
    let p = &l.home.players;
    set_player(app, l, &p[0], json!({"position": "CENTER"})).await;
    set_player(app, l, &p[1], json!({"position": "LEFT_DEFENSE"})).await;
    set_player(app, l, &p[2], json!({"position": "GOALIE"})).await;
    set_player(app, l, &p[3], json!({"position": "RIGHT_WING", "commitmentLevel": "SUBSTITUTE"})).await;
}

#[actix_web::test]
async fn players_answer_and_the_captain_counts_by_group_live() {
    let app = spawn_app().await;
    let l = league(&app, 4).await;
    positions(&app, &l).await;
    let game = game_in(&app, &l, 2 * 24 * HOUR).await;
    let roster = l.home.roster.as_str();
    let p = &l.home.players;

    let mut ws = app.ws().await;
    ws.auth(&l.home.coach).await;
    let snap = ws.subscribe(&format!("availability:{roster}")).await;
    let first = &snap["data"]["games"][0];
    assert_eq!((first["gameId"].as_str(), first["kind"].as_str()), (Some(game.as_str()), Some("GAME")), "{snap}");
    assert_eq!((first["side"].as_str(), first["opponent"].as_str()), (Some("HOME"), Some("Hawks")));
    for group in ["skaters", "defence", "goalies", "subs"] {
        assert_eq!(tally(first, group), (0, 0, 1), "{group}: {first}");
    }

    said(&app, &l, &game, &p[0], "IN").await;
    let update = ws.next_of("update", Duration::from_secs(5)).await.expect("the board follows the answer");
    assert_eq!(update["data"]["game"]["gameId"], game.as_str());
    assert_eq!(tally(&update["data"]["game"], "skaters"), (1, 0, 0));
    said(&app, &l, &game, &p[1], "OUT").await;
    said(&app, &l, &game, &p[3], "IN").await;
    // The same answer again changes nothing.
    let view = said(&app, &l, &game, &p[3], "IN").await;
    assert_eq!(tally(&view, "skaters"), (1, 0, 0));
    assert_eq!(tally(&view, "defence"), (0, 1, 0));
    assert_eq!(tally(&view, "goalies"), (0, 0, 1));
    assert_eq!(tally(&view, "subs"), (1, 0, 0), "a sub is counted apart: {view}");
    assert_eq!(player(&view, &p[2])["answer"], Value::Null);
    assert_eq!(
        (player(&view, &p[3])["group"].as_str(), player(&view, &p[1])["late"].as_bool()),
        (Some("SUBS"), Some(false))
    );

    // The captain's side may answer for a player; a player only for themself;
    // nobody off the roster at all.
    let (s, b) = answer(&app, &l.home.coach, roster, &game, &p[2], "IN").await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(tally(&b, "goalies"), (1, 0, 0));
    let (s, b) = answer(&app, &p[0], roster, &game, &p[1], "IN").await;
    assert_error(s, &b, 403, "forbidden");
    let (s, b) = answer(&app, &l.away.players[0], roster, &game, &l.away.players[0], "IN").await;
    assert_error(s, &b, 404, "not_found");
    let (s, b) = answer(&app, &l.away.coach, roster, &game, &p[0], "OUT").await;
    assert_error(s, &b, 403, "forbidden");
    let stranger = app.user("stranger").await;
    let (s, b) = app.get(&format!("/api/v1/rosters/{roster}/availability"), Some(&stranger)).await;
    assert_error(s, &b, 403, "forbidden");
    let (s, b) = app.get(&format!("/api/v1/rosters/{roster}/availability"), None).await;
    assert_error(s, &b, 401, "unauthorized");
    let mut theirs = app.ws().await;
    theirs.auth(&stranger).await;
    theirs.send(json!({"type": "subscribe", "topic": format!("availability:{roster}")})).await;
    let refused = theirs.next_of("error", Duration::from_secs(5)).await.expect("a stranger is refused the board");
    assert_eq!(refused["error"]["code"], "forbidden", "{refused}");

    // Bad input is refused and changes nothing.
    let before = app.count("game_availability").await;
    let path = format!("/api/v1/rosters/{roster}/availability/{game}/players/{}", p[0].id);
    for body in [json!({"answer": "MAYBE"}), json!({}), json!({"answer": "IN", "extra": 1})] {
        let (s, b) = app.put(&path, Some(&p[0]), Some(body.clone())).await;
        assert!(s == 400 || s == 422, "{body} → {s} {b}");
    }
    let (s, b) = answer(&app, &p[0], roster, "no-such-game", &p[0], "IN").await;
    assert_error(s, &b, 404, "not_found");
    assert_eq!(app.count("game_availability").await, before);

    // The answer is on my schedule, and one PUT changes it.
    let window = format!("from={}&to={}", at(now()), at(now() + 7 * 24 * HOUR));
    let (_, mine) = app.get(&format!("/api/v1/me/schedule?{window}"), Some(&p[0])).await;
    let item = mine["items"].as_array().unwrap().iter().find(|i| i["id"] == game.as_str()).unwrap().clone();
    assert_eq!((item["myState"].as_str(), item["rosterId"].as_str()), (Some("ATTENDING"), Some(roster)), "{item}");
    let (_, mine) = app.get(&format!("/api/v1/me/schedule?{window}"), Some(&p[2])).await;
    let item = mine["items"].as_array().unwrap().iter().find(|i| i["id"] == game.as_str()).unwrap().clone();
    assert_eq!(item["myState"], "ATTENDING", "the captain's answer for the goalie is theirs: {item}");
    let (_, theirs) = app.get(&format!("/api/v1/me/schedule?{window}"), Some(&l.away.players[0])).await;
    let item = theirs["items"].as_array().unwrap().iter().find(|i| i["id"] == game.as_str()).unwrap().clone();
    assert_eq!(item["myState"], "NOT_ANSWERED", "{item}");
}

#[actix_web::test]
async fn the_lock_refuses_in_but_takes_a_late_out_and_never_locks_the_captain_out() {
    let app = spawn_app().await;
    let l = league(&app, 3).await;
    let roster = l.home.roster.as_str();
    let p = &l.home.players;
    let game = game_in(&app, &l, HOUR).await;
    said(&app, &l, &game, &p[1], "IN").await;

    // Bad rules: each field named, nothing changed.
    let path = format!("/api/v1/rosters/{roster}/availability-rules");
    let (s, b) = app.put(&path, Some(&l.home.coach), Some(json!({"lockMinutes": -5, "minGoalies": 11}))).await;
    assert_error(s, &b, 422, "validation_failed");
    assert!(b["error"]["details"]["lockMinutes"].is_string() && b["error"]["details"]["minGoalies"].is_string(), "{b}");
    let (_, rules) = app.get(&path, Some(&p[0])).await;
    assert_eq!(rules, json!({"lockMinutes": null, "minSkaters": null, "minGoalies": null}));
    let (s, b) = app.put(&path, Some(&p[0]), Some(json!({"lockMinutes": 120}))).await;
    assert_error(s, &b, 403, "forbidden");

    // Locked two hours before: the game is an hour away.
    let (s, b) =
        app.put(&path, Some(&l.home.coach), Some(json!({"lockMinutes": 120, "minSkaters": 3, "minGoalies": 1}))).await;
    assert_eq!(s, 200, "{b}");
    let (s, b) = answer(&app, &p[0], roster, &game, &p[0], "IN").await;
    assert_error(s, &b, 409, "conflict");
    assert!(b["error"]["message"].as_str().unwrap().contains("you can still say you're out"), "{b}");
    let view = said(&app, &l, &game, &p[1], "OUT").await;
    assert_eq!((view["locked"].as_bool(), player(&view, &p[1])["late"].as_bool()), (Some(true), Some(true)));
    assert_eq!(view["short"], json!({"skaters": 3, "goalies": 1}), "{view}");
    let (s, b) = answer(&app, &l.home.coach, roster, &game, &p[0], "IN").await;
    assert_eq!(s, 200, "the captain's side is never locked out: {b}");
    assert_eq!(b["short"], json!({"skaters": 2, "goalies": 1}));

    // A game that is over takes nothing.
    let over = game_in(&app, &l, -3 * HOUR).await;
    let (s, b) = answer(&app, &l.home.coach, roster, &over, &p[0], "OUT").await;
    assert_error(s, &b, 409, "conflict");
}

#[actix_web::test]
async fn a_nudge_reaches_exactly_those_who_have_not_answered_once_per_quarter_hour() {
    let app = spawn_app().await;
    let l = league(&app, 3).await;
    let roster = l.home.roster.as_str();
    let p = &l.home.players;
    let game = game_in(&app, &l, 2 * 24 * HOUR).await;
    said(&app, &l, &game, &p[0], "IN").await;

    let nudge = format!("/api/v1/rosters/{roster}/availability/{game}/nudge");
    let (s, b) = app.post(&nudge, Some(&p[0]), json!({})).await;
    assert_error(s, &b, 403, "forbidden");
    let (s, b) = app.post(&nudge, Some(&l.home.coach), json!({})).await;
    assert_eq!((s, b["nudged"].as_i64()), (200, Some(2)), "{b}");
    for (who, told) in [(&p[0], 0), (&p[1], 1), (&p[2], 1), (&l.away.players[0], 0)] {
        let (_, list) = app.get("/api/v1/notifications", Some(who)).await;
        let nudges: Vec<&Value> =
            list["items"].as_array().unwrap().iter().filter(|n| n["type"] == "AVAILABILITY_NUDGE").collect();
        assert_eq!(nudges.len(), told, "{}: {list}", who.username);
        if let Some(n) = nudges.first() {
            assert_eq!((n["resourceType"].as_str(), n["resourceId"].as_str()), (Some("ROSTER"), Some(roster)));
            assert_eq!(n["data"]["gameId"], game.as_str(), "{n}");
        }
    }
    let (s, b) = app.post(&nudge, Some(&l.home.coach), json!({})).await;
    assert_error(s, &b, 409, "conflict");
    let (_, view) = app.get(&format!("/api/v1/rosters/{roster}/availability/{game}"), Some(&p[1])).await;
    assert!(view["nudgedAt"].is_string(), "{view}");
}

#[actix_web::test]
async fn the_reminder_job_asks_only_players_who_have_not_answered() {
    let app = spawn_app().await;
    let l = league(&app, 2).await;
    let p = &l.home.players;
    // Inside the default 2-hour reminder.
    let game = game_in(&app, &l, 90 * MINUTE).await;
    said(&app, &l, &game, &p[0], "OUT").await;
    rinkside::notify::reminders::run(&app.state, "test-node").await.unwrap();
    rinkside::notify::reminders::run(&app.state, "test-node").await.unwrap();
    let reminded = |list: &Value| {
        list["items"].as_array().unwrap().iter().filter(|n| n["type"] == "AVAILABILITY_REMINDER").count()
    };
    let (_, list) = app.get("/api/v1/notifications", Some(&p[0])).await;
    assert_eq!(reminded(&list), 0, "answered: {list}");
    let (_, list) = app.get("/api/v1/notifications", Some(&p[1])).await;
    assert_eq!(reminded(&list), 1, "once, however often the job runs: {list}");
    assert_eq!(list["items"][0]["data"]["minutesBefore"], 120);
    let (_, list) = app.get("/api/v1/notifications", Some(&l.away.players[1])).await;
    assert_eq!(reminded(&list), 1, "the other side's players are asked by their own roster");
}

/// A schedule with one game of ours, three days ahead, in the league CSV's
/// shape.
fn csv_with_a_game_ahead() -> String {
    let start = chrono::Utc::now() + chrono::Duration::days(3);
    let local = start.with_timezone(&chrono_tz::America::Toronto);
    format!(
        "Game ID,Date,Start Time,End Time,Rink,Division,Home Team,Away Team,Home Goals,Away Goals,Game Type\n\
         990001,{},20:30,21:40,Rink A,Adult C1,Backcheckers,Blue Liners,,,Regular Season\n",
        local.format("%Y-%m-%d")
    )
}

#[actix_web::test]
async fn an_imported_games_answer_is_the_players_rsvp_and_the_rosters_lock_closes_it() {
    let app = spawn_app().await;
    let league = crate::sync::league(&app).await;
    let captain = app.user("backcap").await;
    let team = league.team(&app, &captain, "Backcheckers").await;
    let (s, r) = app
        .post(
            "/api/v1/rosters",
            Some(&captain),
            json!({"teamId": team, "seasonId": league.season, "name": "Backcheckers"}),
        )
        .await;
    assert_eq!(s, 201, "{r}");
    let roster = r["id"].as_str().unwrap().to_string();
    let (pat, sam) = (app.user("pat").await, app.user("sam").await);
    for who in [&pat, &sam] {
        let (s, b) =
            app.post(&format!("/api/v1/rosters/{roster}/players"), Some(&captain), json!({"userId": who.id})).await;
        assert_eq!(s, 201, "{b}");
    }
    league.source.put("/ahead.csv", "text/csv", csv_with_a_game_ahead());
    league.point_at(&app, "/ahead.csv").await;
    league.synced(&app).await;
    let event = league.games(&app).await[0]["eventId"].as_str().expect("our game has an event").to_string();

    let (_, board) = app.get(&format!("/api/v1/rosters/{roster}/availability"), Some(&pat)).await;
    let game = &board["games"][0];
    assert_eq!((game["gameId"].as_str(), game["kind"].as_str()), (Some(event.as_str()), Some("EVENT")), "{board}");
    assert_eq!(game["opponent"], "Blue Liners");

    // Answering on the board is the RSVP; an RSVP on the event page is the answer.
    let (s, b) = answer(&app, &pat, &roster, &event, &pat, "IN").await;
    assert_eq!(s, 200, "{b}");
    let (_, e) = app.get(&format!("/api/v1/events/{event}"), Some(&pat)).await;
    assert_eq!(e["viewer"]["status"], "ATTENDING", "{e}");
    let (s, b) =
        app.put(&format!("/api/v1/events/{event}/rsvp"), Some(&sam), Some(json!({"action": "DECLINED"}))).await;
    assert_eq!(s, 200, "{b}");
    let (_, view) = app.get(&format!("/api/v1/rosters/{roster}/availability/{event}"), Some(&captain)).await;
    assert_eq!(tally(&view, "skaters"), (1, 1, 0), "{view}");
    // Only the player gives their RSVP.
    let (s, b) = answer(&app, &captain, &roster, &event, &sam, "IN").await;
    assert_error(s, &b, 403, "forbidden");

    // The roster's lock (four days before a game three days away) closes the
    // event's RSVPs too; an "out" still goes.
    let (s, b) = app
        .put(
            &format!("/api/v1/rosters/{roster}/availability-rules"),
            Some(&captain),
            Some(json!({"lockMinutes": 5760})),
        )
        .await;
    assert_eq!(s, 200, "{b}");
    let (s, b) =
        app.put(&format!("/api/v1/events/{event}/rsvp"), Some(&sam), Some(json!({"action": "ATTENDING"}))).await;
    assert_error(s, &b, 409, "conflict");
    let (s, b) = answer(&app, &sam, &roster, &event, &sam, "IN").await;
    assert_error(s, &b, 409, "conflict");
    let (s, b) = answer(&app, &pat, &roster, &event, &pat, "OUT").await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(player(&b, &pat)["late"], true, "{b}");
}
