//! The organiser's pickup night (docs/pickup-night.md) over HTTP and the
//! socket: RSVP rules and a series' regulars, regulars first (a regular on
//! the waitlist beats someone who joined earlier), the lock, check-in at
//! the rink, and the game-day check's call for subs.

use crate::helpers::*;
use serde_json::{Value, json};
use std::time::Duration;

const MINUTE: i64 = 60_000;

fn at(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms).unwrap().to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

fn now() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

/// A pickup starting `minutes` from now; `extra` merged into the body.
async fn pickup(app: &TestApp, org: &TestUser, start: i64, extra: Value) -> Value {
    let mut body = json!({"title": "Tuesday pickup", "startDate": at(start), "eventType": "OTHER",
                          "maxSkaters": 2, "maxGoalies": 1});
    body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    let (s, e) = app.post("/api/v1/events", Some(org), body).await;
    assert_eq!(s, 201, "{e}");
    e
}

async fn answer(app: &TestApp, u: &TestUser, event: &str, action: &str) -> (u16, Value) {
    app.put(&format!("/api/v1/events/{event}/rsvp"), Some(u), Some(json!({"action": action, "position": "CENTER"})))
        .await
}

async fn join(app: &TestApp, u: &TestUser, event: &str) -> Value {
    let (s, r) = answer(app, u, event, "ATTENDING").await;
    assert_eq!(s, 200, "{r}");
    r
}

async fn rules(app: &TestApp, org: &TestUser, path: &str, body: Value) -> Value {
    let (s, r) = app.put(path, Some(org), Some(body)).await;
    assert_eq!(s, 200, "{r}");
    r
}

async fn viewer(app: &TestApp, u: &TestUser, event: &str) -> Value {
    let (s, e) = app.get(&format!("/api/v1/events/{event}"), Some(u)).await;
    assert_eq!(s, 200, "{e}");
    e["viewer"].clone()
}

#[actix_web::test]
async fn a_regular_on_the_waitlist_beats_someone_who_joined_earlier_until_the_window_closes() {
    let app = spawn_app().await;
    let org = app.user("organiser").await;
    let (reg1, reg2, reg3) = (app.user("reg1").await, app.user("reg2").await, app.user("reg3").await);
    let early = app.user("early").await;
    let start = now() + 3 * 24 * 60 * MINUTE;
    let until = chrono::DateTime::from_timestamp_millis(start + 21 * 24 * 60 * MINUTE).unwrap();
    let repeat = json!({"frequency": "WEEKLY", "until": until.format("%Y-%m-%d").to_string()});
    let first = pickup(&app, &org, start, json!({"repeat": repeat})).await;
    let (event, series) = (first["id"].as_str().unwrap(), first["seriesId"].as_str().unwrap());

    // The series' list, and places kept for it until 2 h before each week.
    for r in [&reg1, &reg2, &reg3] {
        let (s, list) = app.put(&format!("/api/v1/event-series/{series}/regulars/{}", r.id), Some(&org), None).await;
        assert_eq!(s, 200, "{list}");
    }
    let set = rules(
        &app,
        &org,
        &format!("/api/v1/event-series/{series}/rsvp-rules"),
        json!({"regularsFirstMinutes": 2 * 24 * 60}),
    )
    .await;
    assert_eq!(set["regulars"].as_array().unwrap().len(), 3, "{set}");
    let (_, e) = app.get(&format!("/api/v1/events/{event}"), Some(&early)).await;
    assert_eq!(e["rsvpRules"]["openToAllAt"], at(start - 2 * 24 * 60 * MINUTE), "{e}");
    let (_, weeks) = app.get(&format!("/api/v1/event-series/{series}"), Some(&org)).await;
    let last = weeks["events"].as_array().unwrap().last().unwrap()["id"].as_str().unwrap().to_string();
    let (_, last) = app.get(&format!("/api/v1/events/{last}"), Some(&org)).await;
    assert!(last["rsvpRules"]["openToAllAt"].is_string(), "every week takes the series' rules: {last}");

    assert_eq!(join(&app, &reg1, event).await["status"], "ATTENDING");
    // A place is open, but it is the regulars' for now.
    let waiting = join(&app, &early, event).await;
    assert_eq!((waiting["status"].as_str(), waiting["waitlistRank"].as_i64()), (Some("WAITLISTED"), Some(1)));
    assert_eq!(join(&app, &reg2, event).await["status"], "ATTENDING");
    let third = join(&app, &reg3, event).await;
    assert_eq!((third["status"].as_str(), third["waitlistRank"].as_i64()), (Some("WAITLISTED"), Some(1)));
    let v = viewer(&app, &reg3, event).await;
    assert_eq!((v["isRegular"].as_bool(), v["waitlistRank"].as_i64()), (Some(true), Some(1)), "{v}");
    let v = viewer(&app, &early, event).await;
    assert_eq!((v["isRegular"].as_bool(), v["waitlistRank"].as_i64()), (Some(false), Some(2)), "{v}");
    let (_, doc) = app.get(&format!("/api/v1/events/{event}/attendees"), Some(&org)).await;
    let line: Vec<(&str, bool)> = doc["waitlist"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| (w["userId"].as_str().unwrap(), w["regular"].as_bool().unwrap()))
        .collect();
    assert_eq!(line, [(reg3.id.as_str(), true), (early.id.as_str(), false)]);

    // reg1 drops out: the regular waiting goes in, not the earlier spare.
    answer(&app, &reg1, event, "DECLINED").await;
    assert_eq!(viewer(&app, &reg3, event).await["status"], "ATTENDING");
    assert_eq!(viewer(&app, &early, event).await["waitlistRank"], 1);

    // Open to all now: first come, first served again.
    rules(&app, &org, &format!("/api/v1/events/{event}/rsvp-rules"), json!({})).await;
    answer(&app, &reg2, event, "DECLINED").await;
    assert_eq!(viewer(&app, &early, event).await["status"], "ATTENDING");

    // Only organisers set rules or keep the list; nobody else sees it.
    let (s, b) = app.put(&format!("/api/v1/events/{event}/rsvp-rules"), Some(&early), Some(json!({}))).await;
    assert_error(s, &b, 403, "forbidden");
    let (s, b) = app.get(&format!("/api/v1/event-series/{series}/regulars"), Some(&early)).await;
    assert_error(s, &b, 403, "forbidden");
    let (_, r) = app.get(&format!("/api/v1/events/{event}/rsvp-rules"), Some(&early)).await;
    assert_eq!(r["regulars"], json!([]), "{r}");
}

#[actix_web::test]
async fn removing_a_regular_from_the_list_and_past_attendees_suggested() {
    let app = spawn_app().await;
    let org = app.user("organiser").await;
    let kim = app.user("kim").await;
    let start = now() + 2 * 24 * 60 * MINUTE;
    let until = chrono::DateTime::from_timestamp_millis(start + 8 * 24 * 60 * MINUTE).unwrap();
    let first = pickup(
        &app,
        &org,
        start,
        json!({"repeat": {"frequency": "WEEKLY", "until": until.format("%Y-%m-%d").to_string()}}),
    )
    .await;
    let series = first["seriesId"].as_str().unwrap();
    // Kim played last week (the first week, moved into the past).
    join(&app, &kim, first["id"].as_str().unwrap()).await;
    sqlx::query("UPDATE events SET start_date = $1 WHERE id = $2")
        .bind(now() - 7 * 24 * 60 * MINUTE)
        .bind(first["id"].as_str().unwrap())
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    let (_, list) = app.get(&format!("/api/v1/event-series/{series}/regulars"), Some(&org)).await;
    assert_eq!(list["items"], json!([]));
    assert_eq!(list["suggestions"][0]["userId"], kim.id.as_str(), "{list}");
    assert_eq!(list["suggestions"][0]["attended"], 1);
    let (_, list) = app.put(&format!("/api/v1/event-series/{series}/regulars/{}", kim.id), Some(&org), None).await;
    assert_eq!(list["items"][0]["source"], "SERIES");
    assert_eq!(list["suggestions"], json!([]));
    let (_, again) = app.put(&format!("/api/v1/event-series/{series}/regulars/{}", kim.id), Some(&org), None).await;
    assert_eq!(again["items"].as_array().unwrap().len(), 1, "adding twice changes nothing");
    let (s, list) = app.delete(&format!("/api/v1/event-series/{series}/regulars/{}", kim.id), Some(&org)).await;
    assert_eq!((s, list["items"].clone()), (200, json!([])));
    let (s, b) = app.put(&format!("/api/v1/event-series/{series}/regulars/nobody"), Some(&org), None).await;
    assert_error(s, &b, 404, "not_found");
}

#[actix_web::test]
async fn the_lock_refuses_joins_but_not_drop_outs_and_not_the_organiser() {
    let app = spawn_app().await;
    let org = app.user("organiser").await;
    let (p1, p2, late) = (app.user("pat").await, app.user("pia").await, app.user("late").await);
    let start = now() + 60 * MINUTE;
    let e = pickup(&app, &org, start, json!({"maxSkaters": 1})).await;
    let event = e["id"].as_str().unwrap();
    join(&app, &p1, event).await;
    assert_eq!(join(&app, &p2, event).await["status"], "WAITLISTED");

    // Locked 2 h before: already past.
    let r = rules(&app, &org, &format!("/api/v1/events/{event}/rsvp-rules"), json!({"cutoffMinutes": 120})).await;
    assert_eq!(r["closesAt"], at(start - 120 * MINUTE));
    let (s, b) = answer(&app, &late, event, "ATTENDING").await;
    assert_error(s, &b, 409, "conflict");
    assert!(b["error"]["message"].as_str().unwrap().contains("closed"), "{b}");
    // A drop-out still counts, and the waitlist still moves.
    let (s, d) = answer(&app, &p1, event, "DECLINED").await;
    assert_eq!((s, d["status"].as_str()), (200, Some("DECLINED")));
    assert_eq!(viewer(&app, &p2, event).await["status"], "ATTENDING");
    // The organiser is not locked out.
    let mine = join(&app, &org, event).await;
    assert_eq!(mine["status"], "WAITLISTED", "in line like anyone: {mine}");
    // Nor is someone already in who changes position.
    let (s, _) = app
        .put(
            &format!("/api/v1/events/{event}/rsvp"),
            Some(&p2),
            Some(json!({"action": "ATTENDING", "position": "LEFT_WING"})),
        )
        .await;
    assert_eq!(s, 200);
    // Bad rules change nothing.
    let (s, b) = app
        .put(
            &format!("/api/v1/events/{event}/rsvp-rules"),
            Some(&org),
            Some(json!({"cutoffMinutes": -5, "shortCheckMinutes": 60})),
        )
        .await;
    assert_error(s, &b, 422, "validation_failed");
    assert!(
        b["error"]["details"]["cutoffMinutes"].is_string() && b["error"]["details"]["shortCheckMinutes"].is_string()
    );
    let (_, still) = app.get(&format!("/api/v1/events/{event}/rsvp-rules"), Some(&org)).await;
    assert_eq!(still["cutoffMinutes"], 120);
}

#[actix_web::test]
async fn check_in_by_a_tap_and_by_the_code_is_live_for_organiser_screens() {
    let app = spawn_app().await;
    let org = app.user("organiser").await;
    let (p1, p2, out) = (app.user("pat").await, app.user("pia").await, app.user("out").await);
    let e = pickup(&app, &org, now() + 30 * MINUTE, json!({})).await;
    let event = e["id"].as_str().unwrap();
    join(&app, &p1, event).await;
    join(&app, &p2, event).await;

    let (s, list) = app.get(&format!("/api/v1/events/{event}/check-ins"), Some(&org)).await;
    assert_eq!(s, 200, "{list}");
    assert_eq!((list["checkedIn"].as_i64(), list["expected"].as_i64()), (Some(0), Some(2)));
    let code = list["code"].as_str().unwrap().to_string();
    assert_eq!(code.len(), 8);
    let (_, again) = app.get(&format!("/api/v1/events/{event}/check-ins"), Some(&org)).await;
    assert_eq!(again["code"], code.as_str(), "one code per event");

    let mut ws = app.ws().await;
    ws.auth(&org).await;
    let snapshot = ws.subscribe(&format!("event:{event}")).await;
    let version = snapshot["seq"].as_i64().unwrap();

    let (s, row) = app.put(&format!("/api/v1/events/{event}/check-ins/{}", p1.id), Some(&org), None).await;
    assert_eq!(s, 200, "{row}");
    assert!(row["checkedInAt"].is_string());
    assert_eq!(row["checkedInById"], org.id.as_str());
    let pushed = ws.next_of("update", Duration::from_secs(5)).await.expect("a new version for open screens");
    assert!(pushed["seq"].as_i64().unwrap() > version, "{pushed}");

    // A player with the code, typed loosely; a wrong code or someone not in
    // is refused and changes nothing.
    let (s, b) = app.post(&format!("/api/v1/events/{event}/check-in"), Some(&p2), json!({"code": "WRONG123"})).await;
    assert_error(s, &b, 422, "validation_failed");
    let (s, b) =
        app.post(&format!("/api/v1/events/{event}/check-in"), Some(&out), json!({"code": code.to_lowercase()})).await;
    assert_error(s, &b, 422, "validation_failed");
    let typed = format!("{}-{}", &code[..4].to_lowercase(), &code[4..]);
    let (s, row) = app.post(&format!("/api/v1/events/{event}/check-in"), Some(&p2), json!({"code": typed})).await;
    assert_eq!(s, 200, "{row}");
    assert_eq!(row["checkedInById"], p2.id.as_str());

    let (_, list) = app.get(&format!("/api/v1/events/{event}/check-ins"), Some(&org)).await;
    assert_eq!((list["checkedIn"].as_i64(), list["expected"].as_i64()), (Some(2), Some(2)));
    let (s, b) = app.get(&format!("/api/v1/events/{event}/check-ins"), Some(&p1)).await;
    assert_error(s, &b, 403, "forbidden");
    let (s, b) = app.put(&format!("/api/v1/events/{event}/check-ins/{}", p2.id), Some(&p1), None).await;
    assert_error(s, &b, 403, "forbidden");

    // Undo.
    let (s, list) = app.delete(&format!("/api/v1/events/{event}/check-ins/{}", p1.id), Some(&org)).await;
    assert_eq!((s, list["checkedIn"].as_i64()), (200, Some(1)));
    assert!(list["items"][0]["checkedInAt"].is_null(), "{list}");
}

#[actix_web::test]
async fn the_game_day_check_calls_for_exactly_what_is_missing_once_and_tells_matched_subs() {
    let app = spawn_app().await;
    let org = app.user("organiser").await;
    let (p1, p2) = (app.user("pat").await, app.user("pia").await);
    let sub = app.user("sub").await;
    let start = now() + 3 * 60 * MINUTE;
    let e = pickup(&app, &org, start, json!({"maxSkaters": 12, "maxGoalies": 2})).await;
    let event = e["id"].as_str().unwrap();
    join(&app, &p1, event).await;
    join(&app, &p2, event).await;
    let (s, b) = app
        .post(
            "/api/v1/statuses",
            Some(&sub),
            json!({"type": "AVAILABLE_TO_SUB", "entityType": "USER", "expiresAt": at(start + 60 * MINUTE)}),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    // Four skaters and a goalie needed; checked 4 h before: already due.
    rules(
        &app,
        &org,
        &format!("/api/v1/events/{event}/rsvp-rules"),
        json!({"minSkaters": 4, "minGoalies": 1, "shortCheckMinutes": 240}),
    )
    .await;

    let done = rinkside::rule_moments::run(&app.state, "node-a").await.unwrap();
    assert_eq!((done.checked, done.calls), (1, 1));
    let again = rinkside::rule_moments::run(&app.state, "node-a").await.unwrap();
    assert_eq!((again.checked, again.calls), (0, 0), "checked once");
    app.settled().await;

    let (_, board) = app.get("/api/v1/statuses?type=LOOKING_FOR_SUBS", Some(&sub)).await;
    let calls: Vec<&Value> = board["items"].as_array().unwrap().iter().filter(|s| s["eventId"] == event).collect();
    assert_eq!(calls.len(), 1, "{board}");
    assert_eq!(calls[0]["message"], "Short 2 skaters and 1 goalie — come play.");
    assert_eq!(calls[0]["positions"].as_array().unwrap().len(), 6, "the skater positions and GOALIE");
    assert_eq!(calls[0]["user"]["id"], org.id.as_str(), "posted as the organiser");

    let (_, mine) = app.get("/api/v1/notifications", Some(&org)).await;
    let short = mine["items"].as_array().unwrap().iter().find(|n| n["type"] == "SHORT_HANDED").expect("told");
    assert_eq!(short["data"]["missing"], json!({"skaters": 2, "goalies": 1}), "{short}");
    let (_, theirs) = app.get("/api/v1/notifications", Some(&sub)).await;
    assert!(
        theirs["items"].as_array().unwrap().iter().any(|n| n["type"] == "SUB_MATCH" && n["resourceId"] == event),
        "the sub is told: {theirs}"
    );
}

#[actix_web::test]
async fn a_night_at_its_minimum_posts_no_call_and_the_regulars_window_closing_fills_the_places() {
    let app = spawn_app().await;
    let org = app.user("organiser").await;
    let (p1, spare) = (app.user("pat").await, app.user("spare").await);
    // The regulars' window closes two seconds from now.
    let start = now() + 60 * MINUTE + 2_000;
    let e = pickup(&app, &org, start, json!({"maxSkaters": 3})).await;
    let event = e["id"].as_str().unwrap();
    join(&app, &p1, event).await;
    rules(
        &app,
        &org,
        &format!("/api/v1/events/{event}/rsvp-rules"),
        json!({"regularsFirstMinutes": 60, "minSkaters": 1, "shortCheckMinutes": 120}),
    )
    .await;
    assert_eq!(join(&app, &spare, event).await["status"], "WAITLISTED", "a place is free, but not for a spare yet");
    let done = rinkside::rule_moments::run(&app.state, "node-a").await.unwrap();
    assert_eq!((done.opened, done.checked, done.calls), (0, 1, 0), "at the minimum: no call");

    tokio::time::sleep(Duration::from_millis(2_500)).await;
    let done = rinkside::rule_moments::run(&app.state, "node-a").await.unwrap();
    assert_eq!(done.opened, 1);
    assert_eq!(viewer(&app, &spare, event).await["status"], "ATTENDING");
}
