//! What the walkthrough of issue 18 found, each fixed (docs/walkthrough.md):
//! people search by `@username`, position and level; dates in words and
//! games within their season; no goalie places said as such; payments and
//! follower counts live; every message a person reads capitalised.

use crate::helpers::*;
use serde_json::{Value, json};
use std::time::Duration;

fn usernames(page: &Value) -> Vec<String> {
    let mut names: Vec<String> =
        page["items"].as_array().unwrap().iter().map(|u| u["username"].as_str().unwrap().to_string()).collect();
    names.sort();
    names
}

async fn position(app: &TestApp, who: &TestUser, position: &str, level: &str) {
    let (s, b) = app.post("/api/v1/me/positions", Some(who), json!({"position": position, "skillLevel": level})).await;
    assert_eq!(s, 201, "{b}");
}

#[actix_web::test]
async fn people_are_found_by_username_with_or_without_at_and_by_position_and_level() {
    let app = spawn_app().await;
    let sam = app.user("sam_goalie").await;
    let max = app.user("max_d").await;
    let lee = app.user("lee_c").await;
    app.user("samxgoalie").await;
    position(&app, &sam, "GOALIE", "ADVANCED").await;
    position(&app, &max, "LEFT_DEFENSE", "ADVANCED").await;
    position(&app, &max, "GOALIE", "BEGINNER").await;
    position(&app, &lee, "CENTER", "INTERMEDIATE").await;

    for (query, want) in [
        ("q=sam_goalie", vec!["sam_goalie"]),
        ("q=%40sam_goalie", vec!["sam_goalie"]),
        ("q=%40SAM_", vec!["sam_goalie"]),
        ("q=%40", vec!["lee_c", "max_d", "sam_goalie", "samxgoalie"]),
        ("position=GOALIE", vec!["max_d", "sam_goalie"]),
        ("skillLevel=ADVANCED", vec!["max_d", "sam_goalie"]),
        ("position=GOALIE&skillLevel=ADVANCED", vec!["sam_goalie"]),
        ("position=GOALIE&skillLevel=BEGINNER", vec!["max_d"]),
        ("q=max&position=CENTER", vec![]),
        ("q=lee&position=CENTER&skillLevel=INTERMEDIATE", vec!["lee_c"]),
    ] {
        let (s, page) = app.get(&format!("/api/v1/users?{query}"), None).await;
        assert_eq!(s, 200, "{query}: {page}");
        assert_eq!(usernames(&page), want, "{query}");
    }
    let (s, b) = app.get("/api/v1/users?position=KEEPER", None).await;
    assert_error(s, &b, 422, "validation_failed");
    assert!(b["error"]["message"].as_str().unwrap().starts_with(char::is_uppercase), "{b}");
}

/// A rink, its season (Sep 1, 2026 – Mar 31, 2027) and two rosters in it.
async fn league(app: &TestApp) -> (TestUser, String, String, String) {
    let rink = app.user("rink_owner").await;
    let (_, f) = app.post("/api/v1/facilities", Some(&rink), json!({"name": "Maple Arena", "timezone": "UTC"})).await;
    let facility = f["id"].as_str().unwrap().to_string();
    let (s, season) = app
        .post(
            &format!("/api/v1/facilities/{facility}/seasons"),
            Some(&rink),
            json!({"name": "Winter", "startDate": "2026-09-01T00:00:00Z", "endDate": "2027-03-31T00:00:00Z"}),
        )
        .await;
    assert_eq!(s, 201, "{season}");
    let season = season["id"].as_str().unwrap().to_string();
    let mut rosters = Vec::new();
    for name in ["Owls", "Hawks"] {
        let (_, t) = app.post("/api/v1/teams", Some(&rink), json!({"name": name, "facilityId": facility})).await;
        let (s, r) = app
            .post("/api/v1/rosters", Some(&rink), json!({"teamId": t["id"], "seasonId": season, "name": name}))
            .await;
        assert_eq!(s, 201, "{r}");
        rosters.push(r["id"].as_str().unwrap().to_string());
    }
    let away = rosters.pop().unwrap();
    let home = rosters.pop().unwrap();
    (rink, season, home, away)
}

#[actix_web::test]
async fn a_game_is_scheduled_within_its_season_and_date_errors_are_in_words() {
    let app = spawn_app().await;
    let (rink, season, home, away) = league(&app).await;
    let game = |at: &str| json!({"homeRosterId": home, "awayRosterId": away, "seasonId": season, "scheduledAt": at});

    for far in ["2031-01-10T19:30:00Z", "2026-07-01T19:30:00Z"] {
        let (s, b) = app.post("/api/v1/games", Some(&rink), game(far)).await;
        assert_error(s, &b, 422, "validation_failed");
        assert_eq!(
            b["error"]["details"]["scheduledAt"],
            "Must be during the season (Sep 1, 2026 – Mar 31, 2027), or within 30 days of it",
            "{far}: {b}"
        );
    }
    assert_eq!(app.count("games").await, 0);
    // A pre-season game a week before the first day is fine, and so is a
    // playoff game three weeks after the last.
    for near in ["2026-08-25T19:30:00Z", "2027-04-20T19:30:00Z"] {
        let (s, b) = app.post("/api/v1/games", Some(&rink), game(near)).await;
        assert_eq!(s, 201, "{near}: {b}");
    }
    let (_, g) = app.post("/api/v1/games", Some(&rink), game("2026-11-27T19:30:00Z")).await;
    let path = format!("/api/v1/games/{}", g["id"].as_str().unwrap());
    let (s, b) = app.patch(&path, Some(&rink), json!({"scheduledAt": "2029-11-27T19:30:00Z"})).await;
    assert_error(s, &b, 422, "validation_failed");
    assert!(b["error"]["details"]["scheduledAt"].as_str().unwrap().contains("during the season"), "{b}");

    // Not a time at all, or a year out of reach: said in words, naming the field.
    let (s, b) = app.post("/api/v1/games", Some(&rink), game("friday")).await;
    assert_error(s, &b, 422, "validation_failed");
    assert_eq!(b["error"]["details"]["scheduledAt"], "Must be a date and time, written like 2026-09-01T19:30:00Z");
    assert_eq!(b["error"]["message"], "Scheduled at: must be a date and time, written like 2026-09-01T19:30:00Z");
    let (s, b) = app.post("/api/v1/games", Some(&rink), game("+010000-01-01T04:59:59Z")).await;
    assert_error(s, &b, 422, "validation_failed");
    assert!(!b.to_string().contains("RFC"), "{b}");
}

#[actix_web::test]
async fn an_event_decades_ahead_is_refused_in_words() {
    let app = spawn_app().await;
    let org = app.user("organiser").await;
    let body = |start: &str| json!({"title": "Pickup", "startDate": start, "eventType": "OTHER"});
    let (s, b) = app.post("/api/v1/events", Some(&org), body("2062-12-01T21:00:00Z")).await;
    assert_error(s, &b, 422, "validation_failed");
    let message = b["error"]["details"]["startDate"].as_str().unwrap();
    assert!(message.starts_with("Must be within two years from today"), "{b}");
    assert_eq!(app.count("events").await, 0);
    let (s, b) = app.post("/api/v1/events", Some(&org), body("2026-12-01T21:00:00Z")).await;
    assert_eq!(s, 201, "{b}");
    let (s, moved) = app
        .patch(&format!("/api/v1/events/{}", b["id"].as_str().unwrap()), Some(&org), body("2099-01-01T00:00:00Z"))
        .await;
    assert_error(s, &moved, 422, "validation_failed");
}

#[actix_web::test]
async fn a_goalie_is_told_there_are_no_goalie_places_instead_of_being_waitlisted() {
    let app = spawn_app().await;
    let org = app.user("organiser").await;
    let (_, e) = app
        .post(
            "/api/v1/events",
            Some(&org),
            json!({"title": "Skaters only", "startDate": "2026-12-01T21:00:00Z", "eventType": "OTHER", "maxSkaters": 10, "maxGoalies": 0}),
        )
        .await;
    let event = e["id"].as_str().unwrap();
    let goalie = app.user("sam_goalie").await;
    let rsvp = format!("/api/v1/events/{event}/rsvp");
    let (s, b) = app.put(&rsvp, Some(&goalie), Some(json!({"action": "ATTENDING", "position": "GOALIE"}))).await;
    assert_error(s, &b, 409, "conflict");
    assert_eq!(b["error"]["message"], "This event has no goalie places; answer as a skater");
    assert_eq!(app.count("event_rsvps").await, 0);
    let (s, b) = app.put(&rsvp, Some(&goalie), Some(json!({"action": "ATTENDING", "position": "CENTER"}))).await;
    assert_eq!((s, b["status"].as_str()), (200, Some("ATTENDING")), "{b}");
}

#[actix_web::test]
async fn a_payment_marked_paid_reaches_the_players_open_page() {
    let app = spawn_app().await;
    let org = app.user("organiser").await;
    app.collector(&org).await;
    let (_, e) = app
        .post(
            "/api/v1/events",
            Some(&org),
            json!({"title": "Pickup", "startDate": "2026-12-01T21:00:00Z", "eventType": "OTHER"}),
        )
        .await;
    let event = e["id"].as_str().unwrap().to_string();
    let player = app.user("amelia").await;
    app.put(&format!("/api/v1/events/{event}/rsvp"), Some(&player), Some(json!({"action": "ATTENDING"}))).await;
    let (_, before) = app.get(&format!("/api/v1/events/{event}"), Some(&player)).await;
    assert_eq!(before["viewer"]["isPaid"], false);

    let mut ws = app.ws().await;
    ws.auth(&player).await;
    let snap = ws.subscribe(&format!("event:{event}")).await;
    let seq = snap["seq"].as_i64().unwrap();
    let (s, b) = app
        .put(&format!("/api/v1/events/{event}/payments/{}", player.id), Some(&org), Some(json!({"isPaid": true})))
        .await;
    assert_eq!(s, 200, "{b}");
    let update = ws.next_of("update", Duration::from_secs(5)).await.expect("the event is pushed");
    assert!(update["seq"].as_i64().unwrap() > seq, "a newer version: {update}");
    // The push says "read me again"; the page's read carries the payment.
    let (_, after) = app.get(&format!("/api/v1/events/{event}"), Some(&player)).await;
    assert_eq!(after["viewer"]["isPaid"], true);
    assert!(after["version"].as_i64().unwrap() >= update["seq"].as_i64().unwrap(), "{after}");
}

#[actix_web::test]
async fn follower_counts_are_pushed_to_every_open_page() {
    let app = spawn_app().await;
    let alice = app.user("alice").await;
    let bob = app.user("bob").await;
    let (_, team) = app.post("/api/v1/teams", Some(&alice), json!({"name": "Ice Owls"})).await;
    let team = team["id"].as_str().unwrap().to_string();

    let mut watcher = app.ws().await; // signed out: follower counts are public
    let snap = watcher.subscribe(&format!("follows:{}", alice.id)).await;
    assert_eq!((snap["data"]["followerCount"].as_i64(), snap["data"]["kind"].as_str()), (Some(0), Some("USER")));
    let mut bobs = app.ws().await;
    let own = bobs.subscribe(&format!("follows:{}", bob.id)).await;
    assert_eq!(own["data"]["followingCount"], 0);
    let teams = watcher.subscribe(&format!("follows:{team}")).await;
    assert_eq!((teams["data"]["followerCount"].as_i64(), teams["data"]["kind"].as_str()), (Some(0), Some("TEAM")));

    let (s, _) = app.put(&format!("/api/v1/users/{}/follow", alice.id), Some(&bob), None).await;
    assert_eq!(s, 204);
    let update = watcher.next_of("update", Duration::from_secs(5)).await.expect("alice's count");
    assert_eq!(
        (update["topic"].as_str(), update["data"]["followerCount"].as_i64()),
        (Some(format!("follows:{}", alice.id).as_str()), Some(1))
    );
    let mine = bobs.next_of("update", Duration::from_secs(5)).await.expect("bob's own count");
    assert_eq!(mine["data"]["followingCount"], 1);

    app.put(&format!("/api/v1/teams/{team}/follow"), Some(&bob), None).await;
    let update = watcher.next_of("update", Duration::from_secs(5)).await.expect("the team's count");
    assert_eq!(
        (update["topic"].as_str(), update["data"]["followerCount"].as_i64()),
        (Some(format!("follows:{team}").as_str()), Some(1))
    );
    app.delete(&format!("/api/v1/users/{}/follow", alice.id), Some(&bob)).await;
    let update = watcher.next_of("update", Duration::from_secs(5)).await.expect("unfollowed");
    assert_eq!(update["data"]["followerCount"], 0);

    watcher.send(json!({"type": "subscribe", "topic": "follows:nobody"})).await;
    let refused = watcher.next_of("error", Duration::from_secs(5)).await.unwrap();
    assert_eq!(refused["error"]["code"], "not_found", "{refused}");
}

#[actix_web::test]
async fn every_error_message_a_person_reads_starts_with_a_capital() {
    let app = spawn_app().await;
    let alice = app.user("alice").await;
    let (s, b) = app.put(&format!("/api/v1/users/{}/follow", alice.id), Some(&alice), None).await;
    assert_error(s, &b, 422, "validation_failed");
    assert_eq!(b["error"]["details"]["id"], "You cannot follow yourself");
    assert_eq!(b["error"]["message"], "Id: you cannot follow yourself");
    let (s, b) = app.get("/api/v1/users/nobody", None).await;
    assert_error(s, &b, 404, "not_found");
    assert_eq!(b["error"]["message"], "User not found");
    let (s, b) = app.post("/api/v1/teams", Some(&alice), json!({"name": "x", "colour": "red"})).await;
    assert_eq!(s, 422, "{b}");
    for (field, message) in b["error"]["details"].as_object().unwrap() {
        assert!(message.as_str().unwrap().starts_with(char::is_uppercase), "{field}: {b}");
    }
    assert!(b["error"]["message"].as_str().unwrap().starts_with(char::is_uppercase), "{b}");
    // Over the socket too: a bad frame and a refused command.
    let mut ws = app.ws().await;
    ws.send_text("not json").await;
    let e = ws.next_of("error", Duration::from_secs(5)).await.unwrap();
    assert!(e["error"]["message"].as_str().unwrap().starts_with(char::is_uppercase), "{e}");
    ws.auth(&alice).await;
    let r = ws.command("1", json!({"kind": "rsvp", "eventId": "missing", "action": "ATTENDING"})).await;
    assert!(r["error"]["message"].as_str().unwrap().starts_with(char::is_uppercase), "{r}");
}
