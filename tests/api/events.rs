//! Events and RSVPs over HTTP and WebSocket: the rules of DESIGN.md
//! (limits, fair per-role waitlists, promotion, idempotency), payments, and
//! the race for the last slot.

#[path = "../common/race_check.rs"]
mod race_check;

use crate::helpers::*;
use futures_util::future::join_all;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::time::Duration;

async fn new_event(app: &TestApp, org: &TestUser, body: Value) -> String {
    let mut full = json!({"title": "Tuesday pickup", "startDate": "2026-12-01T21:00:00-05:00", "eventType": "OTHER"});
    full.as_object_mut().unwrap().extend(body.as_object().unwrap().clone());
    let (s, e) = app.post("/api/v1/events", Some(org), full).await;
    assert_eq!(s, 201, "{e}");
    e["id"].as_str().unwrap().to_string()
}

async fn rsvp(app: &TestApp, u: &TestUser, event: &str, body: Value) -> Value {
    let (s, r) = app.put(&format!("/api/v1/events/{event}/rsvp"), Some(u), Some(body)).await;
    assert_eq!(s, 200, "{r}");
    r
}

async fn attendees(app: &TestApp, u: &TestUser, event: &str) -> Value {
    let (s, d) = app.get(&format!("/api/v1/events/{event}/attendees"), Some(u)).await;
    assert_eq!(s, 200, "{d}");
    d
}

async fn users(app: &TestApp, prefix: &str, n: usize) -> Vec<TestUser> {
    let mut out = Vec::new();
    for i in 0..n {
        out.push(app.user(&format!("{prefix}{i:03}")).await);
    }
    out
}

#[actix_web::test]
async fn an_event_keeps_every_seed_field_and_validates_them() {
    let app = spawn_app().await;
    let org = app.user("organiser").await;
    let (s, e) = app
        .post(
            "/api/v1/events",
            Some(&org),
            json!({"title": "Beer league final", "description": "Bring both jerseys", "location": "Rink 2",
                   "startDate": "2026-12-05T20:00:00Z", "endDate": "2026-12-05T21:30:00Z",
                   "imageUrl": "https://img.example/final.png", "externalHomeTeamName": "Ice Hogs",
                   "externalAwayTeamName": "Puck Hogs", "externalRink": "North", "homeScore": 0, "awayScore": 0,
                   "eventType": "GAME", "maxSkaters": 20, "maxGoalies": 2,
                   "groupConfig": {"groups": [{"name": "White", "color": "#ffffff"}, {"name": "Dark", "color": "#111827"}], "balanceBy": "POSITION"}}),
        )
        .await;
    assert_eq!(s, 201, "{e}");
    assert_eq!(e["endDate"], "2026-12-05T21:30:00.000Z");
    assert_eq!(e["groupConfig"]["groups"][1]["name"], "Dark");
    assert_eq!(e["viewer"]["isOrganiser"], true);

    let before = app.count("events").await;
    for (body, field) in [
        (json!({"title": "", "startDate": "2026-12-05T20:00:00Z", "eventType": "GAME"}), "title"),
        (json!({"title": "x", "startDate": "tomorrow", "eventType": "GAME"}), "startDate"),
        (
            json!({"title": "x", "startDate": "2026-12-05T20:00:00Z", "endDate": "2026-12-05T19:00:00Z", "eventType": "GAME"}),
            "endDate",
        ),
        (
            json!({"title": "x", "startDate": "2026-12-05T20:00:00Z", "eventType": "GAME", "maxSkaters": -1}),
            "maxSkaters",
        ),
        (
            json!({"title": "x", "startDate": "2026-12-05T20:00:00Z", "eventType": "GAME", "groupConfig": {"groups": [], "balanceBy": "ORDER"}}),
            "groupConfig",
        ),
        (
            json!({"title": "x", "startDate": "2026-12-05T20:00:00Z", "eventType": "GAME", "facilityId": "nope"}),
            "facilityId",
        ),
    ] {
        let (s, body) = app.post("/api/v1/events", Some(&org), body).await;
        assert_error(s, &body, 422, "validation_failed");
        assert!(body["error"]["details"][field].is_string(), "{field}: {body}");
    }
    let (s, body) = app
        .post(
            "/api/v1/events",
            Some(&org),
            json!({"title": "x", "startDate": "2026-12-05T20:00:00Z", "eventType": "BROOMBALL"}),
        )
        .await;
    assert_error(s, &body, 422, "validation_failed");
    assert_eq!(app.count("events").await, before);
}

#[actix_web::test]
async fn a_title_over_200_characters_is_refused_saying_how_long_it_is_never_cut() {
    let app = spawn_app().await;
    let org = app.user("organiser").await;
    // Counted in characters, after trimming: 200 of "é" (400 bytes) is fine.
    let longest = "é".repeat(200);
    let event = new_event(&app, &org, json!({"title": format!("  {longest}  ")})).await;
    let (_, e) = app.get(&format!("/api/v1/events/{event}"), Some(&org)).await;
    assert_eq!(e["title"], longest.as_str());

    let before = app.count("events").await;
    let (s, body) = app
        .post(
            "/api/v1/events",
            Some(&org),
            json!({"title": "x".repeat(201), "startDate": "2026-12-05T20:00:00Z", "eventType": "OTHER"}),
        )
        .await;
    assert_error(s, &body, 422, "validation_failed");
    assert_eq!(body["error"]["details"]["title"], "201 characters; at most 200", "{body}");
    assert_eq!(body["error"]["message"], "Title: 201 characters; at most 200", "{body}");
    assert_eq!(app.count("events").await, before, "nothing stored, cut or not");

    // The same on an edit: refused, and the stored title stays whole.
    let (s, body) = app.patch(&format!("/api/v1/events/{event}"), Some(&org), json!({"title": "y".repeat(250)})).await;
    assert_error(s, &body, 422, "validation_failed");
    assert_eq!(body["error"]["details"]["title"], "250 characters; at most 200", "{body}");
    let (_, e) = app.get(&format!("/api/v1/events/{event}"), Some(&org)).await;
    assert_eq!(e["title"], longest.as_str());
    let (s, e) = app.patch(&format!("/api/v1/events/{event}"), Some(&org), json!({"title": "z".repeat(200)})).await;
    assert_eq!(s, 200, "{e}");
    assert_eq!(e["title"].as_str().unwrap().chars().count(), 200);
}

#[actix_web::test]
async fn a_cancellation_says_why_on_the_event_and_in_the_notification_and_a_reason_over_500_is_refused() {
    let app = spawn_app().await;
    let org = app.user("organiser").await;
    let skater = app.user("skater").await;
    let event = new_event(&app, &org, json!({"maxSkaters": 10})).await;
    rsvp(&app, &skater, &event, json!({"action": "ATTENDING"})).await;
    let (_, e) = app.get(&format!("/api/v1/events/{event}"), Some(&skater)).await;
    assert_eq!(e["cancelReason"], Value::Null, "null while not cancelled: {e}");

    // Too long: refused, nothing cancelled.
    let cancel = format!("/api/v1/events/{event}/cancel");
    let (s, b) = app.post(&cancel, Some(&org), json!({"reason": "x".repeat(501)})).await;
    assert_error(s, &b, 422, "validation_failed");
    assert_eq!(b["error"]["details"]["reason"], "501 characters; at most 500", "{b}");
    let (s, b) = app.post(&cancel, Some(&org), json!({"reason": "Ice", "why": "extra"})).await;
    assert_error(s, &b, 422, "validation_failed");
    let (_, e) = app.get(&format!("/api/v1/events/{event}"), Some(&skater)).await;
    assert_eq!(e["cancelledAt"], Value::Null, "{e}");

    let (s, e) = app.post(&cancel, Some(&org), json!({"reason": "  Zamboni broke down.  "})).await;
    assert_eq!(s, 200, "{e}");
    assert_eq!(e["cancelReason"], "Zamboni broke down.");
    let (_, seen) = app.get(&format!("/api/v1/events/{event}"), Some(&skater)).await;
    assert_eq!(seen["cancelReason"], "Zamboni broke down.");
    app.settled().await;
    let (_, notes) = app.get("/api/v1/notifications", Some(&skater)).await;
    let told =
        notes["items"].as_array().unwrap().iter().find(|n| n["type"] == "EVENT_CANCELLED").expect("told").clone();
    assert_eq!(told["data"]["reason"], "Zamboni broke down.", "{told}");
    // Cancelling again changes nothing, the reason included.
    let (s, b) = app.post(&cancel, Some(&org), json!({"reason": "Another story"})).await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(b["cancelReason"], "Zamboni broke down.");

    // Without a body (as before reasons existed) or with a blank one: no reason.
    let other = new_event(&app, &org, json!({})).await;
    let (s, e) = send(app.req(reqwest::Method::POST, &format!("/api/v1/events/{other}/cancel"), Some(&org))).await;
    assert_eq!(s, 200, "{e}");
    assert_eq!(e["cancelReason"], Value::Null);
    let third = new_event(&app, &org, json!({})).await;
    let (s, e) = app.post(&format!("/api/v1/events/{third}/cancel"), Some(&org), json!({"reason": "   "})).await;
    assert_eq!((s, &e["cancelReason"]), (200, &Value::Null), "{e}");
}

#[actix_web::test]
async fn full_roles_queue_fairly_and_a_freed_place_promotes_the_head_of_that_roles_line() {
    let app = spawn_app().await;
    let org = app.user("organiser").await;
    let event = new_event(&app, &org, json!({"maxSkaters": 2, "maxGoalies": 1})).await;
    let p = users(&app, "player", 6).await;
    assert_eq!(rsvp(&app, &p[0], &event, json!({"action": "ATTENDING"})).await["status"], "ATTENDING");
    assert_eq!(
        rsvp(&app, &p[1], &event, json!({"action": "ATTENDING", "position": "LEFT_WING"})).await["status"],
        "ATTENDING"
    );
    let r2 = rsvp(&app, &p[2], &event, json!({"action": "ATTENDING"})).await;
    assert_eq!((r2["status"].as_str(), r2["waitlistRank"].as_i64()), (Some("WAITLISTED"), Some(1)));
    let r3 = rsvp(&app, &p[3], &event, json!({"action": "ATTENDING"})).await;
    assert_eq!(r3["waitlistRank"], 2);
    // Goalies count against their own limit and have their own line.
    assert_eq!(
        rsvp(&app, &p[4], &event, json!({"action": "ATTENDING", "position": "GOALIE"})).await["status"],
        "ATTENDING"
    );
    let g = rsvp(&app, &p[5], &event, json!({"action": "ATTENDING", "position": "GOALIE"})).await;
    assert_eq!((g["status"].as_str(), g["waitlistRank"].as_i64()), (Some("WAITLISTED"), Some(1)));

    // Repeating changes nothing and answers the same.
    let before = attendees(&app, &org, &event).await["version"].clone();
    let again = rsvp(&app, &p[3], &event, json!({"action": "ATTENDING"})).await;
    assert_eq!((&again["status"], &again["waitlistRank"]), (&r3["status"], &r3["waitlistRank"]));
    assert_eq!(again["version"], before, "a repeat is no new version");
    assert_eq!(attendees(&app, &org, &event).await["version"], before);

    // A skater declines: the head of the skaters' line (p2) is promoted, not the goalie.
    rsvp(&app, &p[0], &event, json!({"action": "DECLINED"})).await;
    let doc = attendees(&app, &org, &event).await;
    let attending: Vec<&str> =
        doc["attending"].as_array().unwrap().iter().map(|e| e["userId"].as_str().unwrap()).collect();
    assert!(attending.contains(&p[2].id.as_str()));
    assert_eq!(
        doc["counts"],
        json!({"skaters": 2, "goalies": 1, "maxSkaters": 2, "maxGoalies": 1, "waitlistSkaters": 1, "waitlistGoalies": 1})
    );
    assert_eq!(
        doc["waitlist"].as_array().unwrap().iter().find(|e| e["userId"] == p[3].id.as_str()).unwrap()["rank"],
        1
    );

    // Declining from the waitlist leaves it.
    rsvp(&app, &p[3], &event, json!({"action": "DECLINED"})).await;
    assert_eq!(attendees(&app, &org, &event).await["counts"]["waitlistSkaters"], 0);

    // Histories recorded every step, in the same transactions.
    let promoted: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM event_waitlist_history WHERE action = 'PROMOTED'")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(promoted, 1);
    let declined: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM event_rsvp_history WHERE action = 'DECLINED'")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(declined, 2);
}

#[actix_web::test]
async fn lowering_a_limit_evicts_nobody_and_raising_it_promotes_at_once() {
    let app = spawn_app().await;
    let org = app.user("organiser").await;
    let event = new_event(&app, &org, json!({"maxSkaters": 3})).await;
    let p = users(&app, "player", 5).await;
    for u in &p {
        rsvp(&app, u, &event, json!({"action": "ATTENDING"})).await;
    }
    let (s, e) = app.patch(&format!("/api/v1/events/{event}"), Some(&org), json!({"maxSkaters": 1})).await;
    assert_eq!(s, 200, "{e}");
    let doc = attendees(&app, &org, &event).await;
    assert_eq!(doc["counts"]["skaters"], 3, "nobody evicted");
    // Below the limit nobody is admitted: p2 declines, nobody is promoted.
    rsvp(&app, &p[2], &event, json!({"action": "DECLINED"})).await;
    assert_eq!(attendees(&app, &org, &event).await["counts"]["skaters"], 2);
    let (s, _) = app.patch(&format!("/api/v1/events/{event}"), Some(&org), json!({"maxSkaters": 4})).await;
    assert_eq!(s, 200);
    let doc = attendees(&app, &org, &event).await;
    assert_eq!(doc["counts"]["skaters"], 4);
    assert_eq!(doc["counts"]["waitlistSkaters"], 0);
    // Unlimited admits everyone.
    app.patch(&format!("/api/v1/events/{event}"), Some(&org), json!({"maxSkaters": null})).await;
    let late = app.user("latecomer").await;
    assert_eq!(rsvp(&app, &late, &event, json!({"action": "ATTENDING"})).await["status"], "ATTENDING");
}

#[actix_web::test]
async fn only_organisers_remove_people_and_the_head_of_the_line_is_promoted() {
    let app = spawn_app().await;
    let org = app.user("organiser").await;
    let event = new_event(&app, &org, json!({"maxSkaters": 1})).await;
    let p = users(&app, "player", 2).await;
    rsvp(&app, &p[0], &event, json!({"action": "ATTENDING"})).await;
    rsvp(&app, &p[1], &event, json!({"action": "ATTENDING"})).await;
    let (s, body) = app.delete(&format!("/api/v1/events/{event}/attendees/{}", p[0].id), Some(&p[1])).await;
    assert_error(s, &body, 403, "forbidden");
    let (s, r) = app.delete(&format!("/api/v1/events/{event}/attendees/{}", p[0].id), Some(&org)).await;
    assert_eq!(s, 200, "{r}");
    assert_eq!(r["status"], "REMOVED");
    let doc = attendees(&app, &org, &event).await;
    assert_eq!(doc["attending"][0]["userId"], p[1].id.as_str());
    let removed: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM event_rsvp_history WHERE action = 'REMOVED'")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(removed, 1);
}

#[actix_web::test]
async fn an_idempotency_key_makes_a_retried_rsvp_answer_the_first_reply() {
    let app = spawn_app().await;
    let org = app.user("organiser").await;
    let event = new_event(&app, &org, json!({"maxSkaters": 1})).await;
    let a = app.user("amelia").await;
    let b = app.user("bruno").await;
    rsvp(&app, &a, &event, json!({"action": "ATTENDING"})).await;
    let first = send(
        app.req(reqwest::Method::PUT, &format!("/api/v1/events/{event}/rsvp"), Some(&b))
            .header("Idempotency-Key", "k-1")
            .json(&json!({"action": "ATTENDING"})),
    )
    .await;
    assert_eq!(first.1["status"], "WAITLISTED");
    rsvp(&app, &a, &event, json!({"action": "DECLINED"})).await;
    // b is promoted meanwhile, but the retry answers exactly the first reply.
    let retry = send(
        app.req(reqwest::Method::PUT, &format!("/api/v1/events/{event}/rsvp"), Some(&b))
            .header("Idempotency-Key", "k-1")
            .json(&json!({"action": "ATTENDING"})),
    )
    .await;
    assert_eq!(retry, first);
    let history: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM event_rsvp_history WHERE action = 'ATTENDING'")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(history, 2, "the retry was not applied again");
}

#[actix_web::test]
async fn an_idempotency_key_reused_for_another_command_is_refused_and_changes_nothing() {
    let app = spawn_app().await;
    let org = app.user("organiser").await;
    let event = new_event(&app, &org, json!({"maxSkaters": 5})).await;
    let other = new_event(&app, &org, json!({"maxSkaters": 5})).await;
    let b = app.user("bruno").await;
    let put = |event: &str, body: Value| {
        app.req(reqwest::Method::PUT, &format!("/api/v1/events/{event}/rsvp"), Some(&b))
            .header("Idempotency-Key", "k-1")
            .json(&body)
    };
    let (s, first) = send(put(&event, json!({"action": "ATTENDING"}))).await;
    assert_eq!((s, first["status"].as_str()), (200, Some("ATTENDING")), "{first}");
    // The same key with another body, or for another event: 422, nothing applied.
    for (on, body) in [(&event, json!({"action": "DECLINED"})), (&other, json!({"action": "ATTENDING"}))] {
        let (s, b2) = send(put(on, body)).await;
        assert_eq!((s, b2["error"]["code"].as_str()), (422, Some("idempotency_key_reused")), "{b2}");
    }
    let (_, doc) = app.get(&format!("/api/v1/events/{event}/attendees"), Some(&b)).await;
    assert_eq!(doc["attending"].as_array().map(Vec::len), Some(1), "still attending: {doc}");
    let (_, doc) = app.get(&format!("/api/v1/events/{other}/attendees"), Some(&b)).await;
    assert_eq!(doc["attending"].as_array().map(Vec::len), Some(0), "nothing on the other event: {doc}");
    // The same command again still replays the first reply.
    assert_eq!(send(put(&event, json!({"action": "ATTENDING"}))).await, (200, first));
}

#[actix_web::test]
async fn payments_are_private_to_the_organiser_and_the_payer() {
    let app = spawn_app().await;
    let org = app.user("organiser").await;
    let event = new_event(&app, &org, json!({"maxSkaters": 1})).await;
    let a = app.user("amelia").await;
    let b = app.user("bruno").await;
    rsvp(&app, &a, &event, json!({"action": "ATTENDING"})).await;
    rsvp(&app, &b, &event, json!({"action": "ATTENDING"})).await;
    // Without canCollectEventPayments the organiser cannot mark.
    let (s, body) =
        app.put(&format!("/api/v1/events/{event}/payments/{}", a.id), Some(&org), Some(json!({"isPaid": true}))).await;
    assert_error(s, &body, 403, "forbidden");
    app.collector(&org).await;
    let (s, pay) =
        app.put(&format!("/api/v1/events/{event}/payments/{}", a.id), Some(&org), Some(json!({"isPaid": true}))).await;
    assert_eq!(s, 200, "{pay}");
    assert_eq!(pay["isPaid"], true);
    assert_eq!(pay["markedPaidById"], org.id.as_str());
    // The waitlisted have no payment row.
    let (s, body) =
        app.put(&format!("/api/v1/events/{event}/payments/{}", b.id), Some(&org), Some(json!({"isPaid": true}))).await;
    assert_error(s, &body, 409, "not_attending");
    // Others see nothing; the payer sees their own.
    let (s, body) =
        app.put(&format!("/api/v1/events/{event}/payments/{}", a.id), Some(&b), Some(json!({"isPaid": false}))).await;
    assert_error(s, &body, 403, "forbidden");
    assert_eq!(attendees(&app, &b, &event).await["attending"][0]["isPaid"], Value::Null);
    assert_eq!(attendees(&app, &a, &event).await["attending"][0]["isPaid"], true);
    let (_, mine) = app.get(&format!("/api/v1/events/{event}"), Some(&a)).await;
    assert_eq!(mine["viewer"]["isPaid"], true);
    assert_eq!(attendees(&app, &org, &event).await["attending"][0]["isPaid"], true);
}

#[actix_web::test]
async fn cancelling_tells_every_watcher_at_once_and_stops_rsvps() {
    let app = spawn_app().await;
    let org = app.user("organiser").await;
    let event = new_event(&app, &org, json!({"maxSkaters": 5})).await;
    let a = app.user("amelia").await;
    rsvp(&app, &a, &event, json!({"action": "ATTENDING"})).await;
    let mut ws = app.ws().await;
    ws.auth(&a).await;
    let snap = ws.subscribe(&format!("event:{event}")).await;
    let (s, e) = app.post(&format!("/api/v1/events/{event}/cancel"), Some(&org), json!({})).await;
    assert_eq!(s, 200, "{e}");
    assert!(e["cancelledAt"].is_string());
    let update = ws.next_of("update", Duration::from_secs(5)).await.expect("a push on cancel");
    assert!(update["seq"].as_i64() > snap["seq"].as_i64());
    let (s, body) =
        app.put(&format!("/api/v1/events/{event}/rsvp"), Some(&a), Some(json!({"action": "DECLINED"}))).await;
    assert_error(s, &body, 409, "conflict");
    let (s, body) = app.patch(&format!("/api/v1/events/{event}"), Some(&org), json!({"title": "again"})).await;
    assert_error(s, &body, 409, "event_cancelled");
}

#[actix_web::test]
async fn events_are_listed_by_filters_with_keyset_pages() {
    let app = spawn_app().await;
    let org = app.user("organiser").await;
    let other = app.user("someone").await;
    for day in 1..=5 {
        new_event(&app, &org, json!({"startDate": format!("2026-12-0{day}T20:00:00Z"), "eventType": if day % 2 == 0 { "PRACTICE" } else { "GAME" }})).await;
    }
    let theirs = new_event(&app, &other, json!({"startDate": "2026-12-03T12:00:00Z"})).await;
    rsvp(&app, &org, &theirs, json!({"action": "ATTENDING"})).await;

    let (_, page) = app.get("/api/v1/events?limit=2", Some(&org)).await;
    assert_eq!(page["items"].as_array().unwrap().len(), 2);
    let mut seen = page["items"].as_array().unwrap().len();
    let mut cursor = page["nextCursor"].as_str().map(str::to_string);
    while let Some(c) = cursor {
        let (_, next) = app.get(&format!("/api/v1/events?limit=2&cursor={c}"), Some(&org)).await;
        seen += next["items"].as_array().unwrap().len();
        cursor = next["nextCursor"].as_str().map(str::to_string);
    }
    assert_eq!(seen, 6);
    let (_, practices) = app.get("/api/v1/events?eventType=PRACTICE", Some(&org)).await;
    assert_eq!(practices["items"].as_array().unwrap().len(), 2);
    let (_, mine) = app.get("/api/v1/events?createdBy=me", Some(&other)).await;
    assert_eq!(mine["items"].as_array().unwrap().len(), 1);
    let (_, going) = app.get("/api/v1/events?attending=me", Some(&org)).await;
    assert_eq!(going["items"][0]["id"], theirs.as_str());
    let (_, window) = app.get("/api/v1/events?from=2026-12-02T00:00:00Z&to=2026-12-04T00:00:00Z", Some(&org)).await;
    assert_eq!(window["items"].as_array().unwrap().len(), 3);
}

#[actix_web::test]
async fn the_rules_hold_over_the_socket_too() {
    let app = spawn_app().await;
    let org = app.user("organiser").await;
    let event = new_event(&app, &org, json!({"maxSkaters": 1, "maxGoalies": 0})).await;
    let a = app.user("amelia").await;
    let b = app.user("bruno").await;
    let mut wa = app.ws().await;
    wa.auth(&a).await;
    let mut wb = app.ws().await;
    wb.auth(&b).await;
    let mut worg = app.ws().await;
    worg.auth(&org).await;
    let r =
        wa.command("1", json!({"kind": "rsvp", "eventId": event, "action": "ATTENDING", "position": "GOALIE"})).await;
    assert_eq!((r["ok"].as_bool(), r["error"]["code"].as_str()), (Some(false), Some("conflict")), "{r}");
    assert_eq!(r["error"]["message"], "This event has no goalie places; answer as a skater", "{r}");
    let r = wb.command("1", json!({"kind": "rsvp", "eventId": event, "action": "ATTENDING"})).await;
    assert_eq!(r["data"]["status"], "ATTENDING");
    let r = wa.command("2", json!({"kind": "removeAttendee", "eventId": event, "userId": b.id})).await;
    assert_eq!((r["ok"].as_bool(), r["error"]["code"].as_str()), (Some(false), Some("forbidden")));
    let r = worg.command("1", json!({"kind": "removeAttendee", "eventId": event, "userId": b.id})).await;
    assert_eq!(r["data"]["status"], "REMOVED", "{r}");
    let r = wa.command("3", json!({"kind": "rsvp", "eventId": event, "action": "MAYBE"})).await;
    assert_eq!(r["error"]["code"], "validation_failed");
    let r = wa.command("4", json!({"kind": "rsvp", "eventId": "missing", "action": "ATTENDING"})).await;
    assert_eq!(r["error"]["code"], "not_found");
}

#[actix_web::test]
async fn five_hundred_clients_race_for_ten_skater_and_one_goalie_places_on_one_node() {
    let app = spawn_app().await;
    let org = app.user("organiser").await;
    let event = new_event(&app, &org, json!({"maxSkaters": 10, "maxGoalies": 1})).await;
    let racers = users(&app, "racer", 500).await;
    let goalie_ids: Vec<String> =
        racers.iter().enumerate().filter(|(i, _)| i % 10 == 0).map(|(_, u)| u.id.clone()).collect();
    let mut sockets = Vec::new();
    for u in &racers {
        let mut ws = app.ws().await;
        ws.auth(u).await;
        sockets.push(ws);
    }
    let sends = sockets.into_iter().zip(racers.iter()).enumerate().map(|(i, (mut ws, u))| {
        let event = event.clone();
        let position = if i % 10 == 0 { "GOALIE" } else { "RIGHT_DEFENSE" };
        let id = u.id.clone();
        async move {
            let reply = ws
                .command("go", json!({"kind": "rsvp", "eventId": event, "action": "ATTENDING", "position": position}))
                .await;
            assert_eq!(reply["ok"], true, "{reply}");
            (id, reply["data"].clone())
        }
    });
    let replies: HashMap<String, Value> = join_all(sends).await.into_iter().collect();
    let doc = attendees(&app, &org, &event).await;
    race_check::check_race(&doc, &replies, 10, 1, &goalie_ids);
    // Group commit: far fewer versions than requests.
    assert!(doc["version"].as_i64().unwrap() <= 500);
}

/// Many events busy at the same moment (on SQLite their batches share
/// write transactions): each event ends with its own list, and the
/// histories, payments and replies of one never land on another.
#[actix_web::test]
async fn twenty_busy_events_at_once_keep_their_lists_histories_and_payments_apart() {
    let app = spawn_app().await;
    let org = app.user("organiser").await;
    let mut events = Vec::new();
    for _ in 0..20 {
        events.push(new_event(&app, &org, json!({"maxSkaters": 3, "maxGoalies": 1})).await);
    }
    let players = users(&app, "busy", 8).await;
    let goalie_ids: Vec<String> = players.iter().take(2).map(|u| u.id.clone()).collect();
    let mut sockets = Vec::new();
    for u in &players {
        let mut ws = app.ws().await;
        ws.auth(u).await;
        sockets.push(ws);
    }
    // Every player answers every event, all players at once.
    let runs = sockets.into_iter().zip(players.iter()).enumerate().map(|(i, (mut ws, u))| {
        let events = events.clone();
        let position = if i < 2 { "GOALIE" } else { "LEFT_WING" };
        let id = u.id.clone();
        async move {
            let mut replies = Vec::new();
            for (n, event) in events.iter().enumerate() {
                let frame = json!({"kind": "rsvp", "eventId": event, "action": "ATTENDING", "position": position});
                let reply = ws.command(&format!("c{n}"), frame).await;
                assert_eq!(reply["ok"], true, "{reply}");
                replies.push(reply["data"].clone());
            }
            (id, replies)
        }
    });
    let answers: Vec<(String, Vec<Value>)> = join_all(runs).await;
    for (n, event) in events.iter().enumerate() {
        let doc = attendees(&app, &org, event).await;
        let replies: HashMap<String, Value> = answers.iter().map(|(id, r)| (id.clone(), r[n].clone())).collect();
        race_check::check_race(&doc, &replies, 3, 1, &goalie_ids);
    }
    assert_eq!(app.count("event_rsvps").await, 20 * 8);
    assert_eq!(app.count("event_rsvp_history").await, 20 * 8);
    assert_eq!(app.count("event_waitlist_history").await, 20 * 4, "one goalie and three skaters wait per event");
    assert_eq!(app.count("event_payments").await, 20 * 4, "attendees only");
    let per_event: Vec<(String, i64)> =
        sqlx::query_as("SELECT event_id, COUNT(*) FROM event_rsvp_history GROUP BY event_id")
            .fetch_all(&app.state.db.pool)
            .await
            .unwrap();
    assert_eq!(per_event.len(), 20);
    assert!(per_event.iter().all(|(_, n)| *n == 8), "{per_event:?}");
}

/// Titles of the events listed at a facility.
async fn listed_at(app: &TestApp, u: &TestUser, facility: &str, community: bool) -> Vec<String> {
    let (s, page) =
        app.get(&format!("/api/v1/events?facilityId={facility}&includeCommunity={community}"), Some(u)).await;
    assert_eq!(s, 200, "{page}");
    page["items"].as_array().unwrap().iter().map(|e| e["title"].as_str().unwrap().to_string()).collect()
}

#[actix_web::test]
async fn an_event_at_a_rink_is_listed_under_its_name_only_when_its_staff_made_or_listed_it() {
    let app = spawn_app().await;
    let owner = app.user("rinkowner").await;
    let manager = app.user("rinkmanager").await;
    let stranger = app.user("stranger").await;
    let rink = crate::rosters::facility(&app, &owner).await;
    let other_rink = crate::rosters::facility(&app, &stranger).await;
    crate::rosters::put_manager(&app, &owner, "facilities", &rink, &manager).await;

    let (s, theirs) = app
        .post(
            "/api/v1/events",
            Some(&stranger),
            json!({"title": "Stranger skate", "startDate": "2026-12-01T21:00:00Z", "eventType": "OTHER", "facilityId": rink}),
        )
        .await;
    assert_eq!(s, 201, "{theirs}");
    assert_eq!(theirs["hostedByFacility"], false, "{theirs}");
    assert_eq!(theirs["viewer"]["canHost"], false);
    let theirs = theirs["id"].as_str().unwrap().to_string();
    let ours = new_event(&app, &manager, json!({"title": "Rink skate", "facilityId": rink})).await;
    let (_, e) = app.get(&format!("/api/v1/events/{ours}"), Some(&manager)).await;
    assert_eq!(e["hostedByFacility"], true, "{e}");
    assert_eq!(listed_at(&app, &stranger, &rink, false).await, ["Rink skate"]);
    assert_eq!(listed_at(&app, &stranger, &rink, true).await, ["Stranger skate", "Rink skate"]);

    // Only the rink's staff list a community event; then the rink shows it.
    let (s, b) = app.put(&format!("/api/v1/events/{theirs}/hosting"), Some(&stranger), None).await;
    assert_eq!((s, b["error"]["code"].as_str()), (403, Some("forbidden")), "{b}");
    let (_, e) = app.get(&format!("/api/v1/events/{theirs}"), Some(&manager)).await;
    assert_eq!(e["viewer"]["canHost"], true);
    let (s, e) = app.put(&format!("/api/v1/events/{theirs}/hosting"), Some(&manager), None).await;
    assert_eq!((s, &e["hostedByFacility"]), (200, &json!(true)), "{e}");
    assert_eq!(listed_at(&app, &stranger, &rink, false).await, ["Stranger skate", "Rink skate"]);

    // Moved to a rink whose staff its organiser is not: a community event there.
    let (s, e) = app.patch(&format!("/api/v1/events/{ours}"), Some(&manager), json!({"facilityId": other_rink})).await;
    assert_eq!((s, &e["hostedByFacility"]), (200, &json!(false)), "{e}");
    assert!(listed_at(&app, &stranger, &other_rink, false).await.is_empty());

    // A season's schedule is always the facility's own.
    let season = crate::rosters::season(&app, &owner, &rink).await;
    let league =
        new_event(&app, &owner, json!({"title": "League night", "seasonId": season, "eventType": "GAME"})).await;
    let (s, b) = app.delete(&format!("/api/v1/events/{league}/hosting"), Some(&owner)).await;
    assert_eq!((s, b["error"]["code"].as_str()), (409, Some("season_event")), "{b}");
}

#[actix_web::test]
async fn a_team_is_linked_to_an_event_only_with_its_staff_and_either_side_may_unlink() {
    let app = spawn_app().await;
    let organiser = app.user("organiser").await;
    let coach = app.user("coach").await;
    let stranger = app.user("stranger").await;
    let team = crate::rosters::team(&app, &coach, None).await;
    let pickup = new_event(&app, &organiser, json!({})).await;

    // The organiser alone cannot put a team's name on their event.
    let (s, b) = app
        .put(&format!("/api/v1/events/{pickup}/teams/{team}"), Some(&organiser), Some(json!({"role": "HOME"})))
        .await;
    assert_eq!((s, b["error"]["code"].as_str()), (403, Some("forbidden")), "{b}");
    // Nor the team's coach on someone else's event.
    let (s, _) =
        app.put(&format!("/api/v1/events/{pickup}/teams/{team}"), Some(&coach), Some(json!({"role": "HOME"}))).await;
    assert_eq!(s, 403);
    let (_, e) = app.get(&format!("/api/v1/events/{pickup}"), Some(&organiser)).await;
    assert_eq!(e["teams"], json!([]));

    // The teams a person may put on an event are the ones they run.
    let (_, theirs) = app.get("/api/v1/me/teams", Some(&coach)).await;
    assert_eq!(theirs["items"][0]["id"], team.as_str(), "{theirs}");
    let (_, none) = app.get("/api/v1/me/teams", Some(&organiser)).await;
    assert_eq!(none["items"], json!([]));

    // The coach organising their team's game links it.
    let game = new_event(&app, &coach, json!({"eventType": "GAME"})).await;
    let (s, e) =
        app.put(&format!("/api/v1/events/{game}/teams/{team}"), Some(&coach), Some(json!({"role": "HOME"}))).await;
    assert_eq!(s, 200, "{e}");
    assert_eq!(e["teams"][0]["teamId"], team.as_str());

    // A stranger may not take it off; the team's side may.
    let (s, _) = app.delete(&format!("/api/v1/events/{game}/teams/{team}"), Some(&stranger)).await;
    assert_eq!(s, 403);
    let other_coach = app.user("othercoach").await;
    let (s, _) = app.put(&format!("/api/v1/teams/{team}/managers/{}", other_coach.id), Some(&coach), None).await;
    assert_eq!(s, 204);
    let (s, _) = app.delete(&format!("/api/v1/events/{game}/teams/{team}"), Some(&other_coach)).await;
    assert_eq!(s, 204);
    let (_, e) = app.get(&format!("/api/v1/events/{game}"), Some(&coach)).await;
    assert_eq!(e["teams"], json!([]));
}

/// Issue 26: answering a deleted event said "Event 01a2… not found not
/// found" (the actor's phrase, with " not found" added again).
#[actix_web::test]
async fn answering_a_deleted_event_says_event_not_found_once_without_its_id() {
    let app = spawn_app().await;
    let org = app.user("gone_org").await;
    let player = app.user("gone_player").await;
    let event = new_event(&app, &org, json!({})).await;
    let (s, b) = app.delete(&format!("/api/v1/events/{event}"), Some(&org)).await;
    assert!(s == 200 || s == 204, "{s} {b}");

    let (s, b) =
        app.put(&format!("/api/v1/events/{event}/rsvp"), Some(&player), Some(json!({"action": "ATTENDING"}))).await;
    assert_error(s, &b, 404, "not_found");
    assert_eq!(b["error"]["message"], "Event not found");

    let mut ws = app.ws().await;
    ws.auth(&player).await;
    let reply = ws.command("gone-1", json!({"kind": "rsvp", "eventId": event, "action": "ATTENDING"})).await;
    assert_eq!(reply["ok"], false, "{reply}");
    assert_eq!(reply["error"]["code"], "not_found");
    assert_eq!(reply["error"]["message"], "Event not found");
}
