//! Notifications (docs/notifications.md): each type reaches the person it
//! happened to and no one else, over HTTP and live on the `notifications`
//! topic; reading and paging; settings; reminders with an injected clock.

use crate::helpers::*;
use crate::rosters::{add, club, id, request, roster, team};
use serde_json::{Value, json};
use std::sync::atomic::Ordering;
use std::time::Duration;

const HOUR: i64 = 3_600_000;
const QUIET: Duration = Duration::from_millis(400);

async fn new_event(app: &TestApp, org: &TestUser, body: Value) -> String {
    let mut full = json!({"title": "Tuesday pickup", "startDate": "2026-12-01T21:00:00-05:00", "eventType": "OTHER"});
    full.as_object_mut().unwrap().extend(body.as_object().unwrap().clone());
    let (s, e) = app.post("/api/v1/events", Some(org), full).await;
    assert_eq!(s, 201, "{e}");
    e["id"].as_str().unwrap().to_string()
}

async fn rsvp(app: &TestApp, u: &TestUser, event: &str, action: &str) -> Value {
    let (s, r) = app.put(&format!("/api/v1/events/{event}/rsvp"), Some(u), Some(json!({"action": action}))).await;
    assert_eq!(s, 200, "{r}");
    r
}

/// `(type, resourceId)` of a person's notifications, newest first.
async fn notes(app: &TestApp, u: &TestUser) -> Vec<(String, String)> {
    let (s, b) = app.get("/api/v1/notifications?limit=100", Some(u)).await;
    assert_eq!(s, 200, "{b}");
    b["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n["type"].as_str().unwrap().to_string(), n["resourceId"].as_str().unwrap().to_string()))
        .collect()
}

async fn unread(app: &TestApp, u: &TestUser) -> i64 {
    let (s, b) = app.get("/api/v1/notifications/unread-count", Some(u)).await;
    assert_eq!(s, 200, "{b}");
    b["unread"].as_i64().unwrap()
}

/// A signed-in socket subscribed to its owner's `notifications`.
async fn watching(app: &TestApp, u: &TestUser) -> Ws {
    let mut ws = app.ws().await;
    ws.auth(u).await;
    let snap = ws.subscribe("notifications").await;
    assert_eq!(snap["topic"], "notifications");
    ws
}

/// The next `new` notification pushed on the socket.
async fn pushed(ws: &mut Ws) -> Value {
    let u = ws.next_of("update", Duration::from_secs(10)).await.expect("a notification pushed");
    assert_eq!(u["topic"], "notifications", "{u}");
    u["data"].clone()
}

/// The next pushed change of this `op` (skipping others).
async fn pushed_op(ws: &mut Ws, op: &str) -> Value {
    loop {
        let data = pushed(ws).await;
        if data["op"] == op {
            return data;
        }
    }
}

/// Nothing was pushed on the socket before the answer to a ping sent now.
/// Proof only for pushes already handed to the socket: those of a request
/// answered before, or of batches pushed before one the test saw arrive.
async fn nothing_pushed_yet(ws: &mut Ws) {
    let before: Vec<Value> = ws.frames_before_pong().await.into_iter().filter(|f| f["type"] == "update").collect();
    assert!(before.is_empty(), "nothing for this person: {before:?}");
}

#[actix_web::test]
async fn a_removal_tells_the_removed_and_the_promoted_and_nobody_else_live() {
    let app = spawn_app().await;
    let org = app.user("organiser").await;
    let [first, second, third] = [app.user("first").await, app.user("second").await, app.user("third").await];
    let event = new_event(&app, &org, json!({"maxSkaters": 1})).await;
    rsvp(&app, &first, &event, "ATTENDING").await;
    rsvp(&app, &second, &event, "ATTENDING").await;
    rsvp(&app, &third, &event, "ATTENDING").await;
    let mut second_ws = watching(&app, &second).await;
    let mut third_ws = watching(&app, &third).await;
    let mut first_ws = watching(&app, &first).await;

    let (s, b) = app.delete(&format!("/api/v1/events/{event}/attendees/{}", first.id), Some(&org)).await;
    assert_eq!(s, 200, "{b}");

    let data = pushed(&mut second_ws).await;
    assert_eq!(data["op"], "new");
    assert_eq!(data["unread"], 1);
    let n = &data["notification"];
    assert_eq!((n["type"].as_str(), n["resourceType"].as_str()), (Some("WAITLIST_PROMOTED"), Some("EVENT")));
    assert_eq!(n["resourceId"], event.as_str());
    assert_eq!(n["data"]["title"], "Tuesday pickup");
    assert_eq!(n["data"]["startDate"], "2026-12-02T02:00:00.000Z");
    assert_eq!(n["data"]["position"], "CENTER");
    assert!(n["readAt"].is_null());
    assert_eq!(pushed(&mut first_ws).await["notification"]["type"], "REMOVED_FROM_EVENT");

    assert_eq!(notes(&app, &second).await, vec![("WAITLIST_PROMOTED".into(), event.clone())]);
    assert_eq!(notes(&app, &first).await, vec![("REMOVED_FROM_EVENT".into(), event.clone())]);
    assert!(notes(&app, &third).await.is_empty(), "still waitlisted: nothing happened to them");
    assert!(notes(&app, &org).await.is_empty(), "nobody is told what they did");

    // A skater who declines frees the place too: the next is promoted.
    // Each commit's notifications are pushed in commit order, so anything
    // the removal had told the third would have come before this.
    rsvp(&app, &second, &event, "DECLINED").await;
    let data = pushed(&mut third_ws).await;
    assert_eq!(data["notification"]["type"], "WAITLIST_PROMOTED", "the removal told the third nothing live: {data}");
    assert_eq!(data["unread"], 1, "the promotion is the third's first news: {data}");
    assert_eq!(notes(&app, &second).await.len(), 1, "declining is one's own doing");
}

#[actix_web::test]
async fn a_cancellation_tells_everyone_attending_or_waitlisted_but_the_organiser() {
    let app = spawn_app().await;
    let org = app.user("organiser").await;
    let [going, waiting, declined, stranger] =
        [app.user("going").await, app.user("waiting").await, app.user("declined").await, app.user("stranger").await];
    let event = new_event(&app, &org, json!({"maxSkaters": 2})).await;
    rsvp(&app, &org, &event, "ATTENDING").await;
    rsvp(&app, &going, &event, "ATTENDING").await;
    rsvp(&app, &waiting, &event, "ATTENDING").await;
    rsvp(&app, &declined, &event, "DECLINED").await;
    let mut ws = watching(&app, &waiting).await;

    let (s, b) = app.post(&format!("/api/v1/events/{event}/cancel"), Some(&org), json!({})).await;
    assert_eq!(s, 200, "{b}");
    let data = pushed(&mut ws).await;
    assert_eq!(data["notification"]["type"], "EVENT_CANCELLED");
    for who in [&going, &waiting] {
        assert_eq!(notes(&app, who).await, vec![("EVENT_CANCELLED".into(), event.clone())], "{}", who.username);
    }
    for who in [&org, &declined, &stranger] {
        assert!(notes(&app, who).await.is_empty(), "{}", who.username);
    }
}

#[actix_web::test]
async fn a_new_time_or_place_tells_its_people_and_a_new_description_does_not() {
    let app = spawn_app().await;
    let org = app.user("organiser").await;
    let [going, stranger] = [app.user("going").await, app.user("stranger").await];
    let event = new_event(&app, &org, json!({})).await;
    rsvp(&app, &going, &event, "ATTENDING").await;
    let path = format!("/api/v1/events/{event}");
    let (s, b) = app.patch(&path, Some(&org), json!({"description": "Bring a dark and a light jersey"})).await;
    assert_eq!(s, 200, "{b}");
    assert!(notes(&app, &going).await.is_empty(), "not news");

    let mut ws = watching(&app, &going).await;
    let (s, b) =
        app.patch(&path, Some(&org), json!({"startDate": "2026-12-01T22:00:00-05:00", "location": "Rink B"})).await;
    assert_eq!(s, 200, "{b}");
    let n = pushed(&mut ws).await["notification"].clone();
    assert_eq!(n["type"], "EVENT_MOVED");
    assert_eq!(n["data"]["changes"], json!(["TIME", "PLACE"]));
    assert_eq!(n["data"]["startDate"], "2026-12-02T03:00:00.000Z");
    assert_eq!(n["data"]["location"], "Rink B");
    assert!(notes(&app, &org).await.is_empty() && notes(&app, &stranger).await.is_empty());
}

#[actix_web::test]
async fn a_decided_join_request_and_a_roster_add_tell_the_player_only() {
    let app = spawn_app().await;
    let [rink, coach, asker, refused, added] = [
        app.user("rink").await,
        app.user("coach").await,
        app.user("asker").await,
        app.user("refused").await,
        app.user("added").await,
    ];
    let c = club(&app, &rink, &coach, json!({})).await;
    let mut ws = watching(&app, &asker).await;
    let approve = request(&app, &asker, &c.roster).await;
    let reject = request(&app, &refused, &c.roster).await;

    let (s, b) = app.post(&format!("/api/v1/join-requests/{approve}/approve"), Some(&coach), json!({})).await;
    assert_eq!(s, 200, "{b}");
    let n = pushed(&mut ws).await["notification"].clone();
    assert_eq!((n["type"].as_str(), n["resourceType"].as_str()), (Some("JOIN_REQUEST_APPROVED"), Some("ROSTER")));
    assert_eq!(n["resourceId"], c.roster.as_str());
    assert_eq!(n["data"]["teamId"], c.team.as_str());
    assert_eq!(n["data"]["teamName"], "Ice Owls");
    let (s, b) = app.post(&format!("/api/v1/join-requests/{reject}/reject"), Some(&coach), json!({})).await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(notes(&app, &refused).await, vec![("JOIN_REQUEST_REJECTED".into(), c.roster.clone())]);

    let (s, b) = add(&app, &coach, &c.roster, &added, json!({})).await;
    assert_eq!(s, 201, "{b}");
    assert_eq!(notes(&app, &added).await, vec![("ADDED_TO_ROSTER".into(), c.roster.clone())]);
    // The coach putting themselves on is their own doing.
    let (s, b) = add(&app, &coach, &c.roster, &coach, json!({})).await;
    assert_eq!(s, 201, "{b}");
    assert!(notes(&app, &coach).await.is_empty());
    assert!(notes(&app, &rink).await.is_empty());
    assert_eq!(notes(&app, &asker).await.len(), 1, "one notification for the asker");
}

#[actix_web::test]
async fn a_game_starting_and_its_final_score_tell_both_rosters_players_and_a_goal_does_not() {
    let app = spawn_app().await;
    let [rink, coach, other_coach, owl, hawk, fan] = [
        app.user("rink").await,
        app.user("coach").await,
        app.user("othercoach").await,
        app.user("owl").await,
        app.user("hawk").await,
        app.user("fan").await,
    ];
    let c = club(&app, &rink, &coach, json!({})).await;
    let mut owl_ws = watching(&app, &owl).await;
    let other_team = team(&app, &other_coach, None).await;
    let away = roster(&app, &other_coach, &other_team, &c.season, json!({"name": "Hawks"})).await;
    for (by, roster_id, who) in [(&coach, &c.roster, &owl), (&other_coach, &away, &hawk)] {
        let (s, b) = add(&app, by, roster_id, who, json!({"jerseyNumber": 9})).await;
        assert_eq!(s, 201, "{b}");
    }
    let (s, g) = app
        .post(
            "/api/v1/games",
            Some(&rink),
            json!({"homeRosterId": c.roster, "awayRosterId": away, "seasonId": c.season,
                   "scheduledAt": "2026-11-20T19:30:00Z"}),
        )
        .await;
    assert_eq!(s, 201, "{g}");
    let game = id(&g);
    assert_eq!(pushed(&mut owl_ws).await["notification"]["type"], "ADDED_TO_ROSTER");
    let act = |body: Value| {
        let (app, rink, game) = (&app, &rink, &game);
        async move {
            let (s, b) = app.post(&format!("/api/v1/games/{game}/actions"), Some(rink), body).await;
            assert_eq!(s, 200, "{b}");
        }
    };
    act(json!({"type": "START"})).await;
    let n = pushed(&mut owl_ws).await["notification"].clone();
    assert_eq!((n["type"].as_str(), n["resourceType"].as_str()), (Some("GAME_STARTED"), Some("GAME")));
    assert_eq!(n["resourceId"], game.as_str());
    act(json!({"type": "GOAL", "rosterId": c.roster, "scorerId": owl.id})).await;
    act(json!({"type": "FINAL"})).await;
    // The game's notifications are pushed in the order of its actions: a
    // goal's would come before the final's.
    let n = pushed(&mut owl_ws).await["notification"].clone();
    assert_eq!(n["type"], "GAME_FINAL", "a goal tells nobody");
    assert_eq!((n["data"]["homeScore"].as_i64(), n["data"]["awayScore"].as_i64()), (Some(1), Some(0)));
    assert_eq!(n["data"]["homeName"], "Ice Owls");

    let all = vec![
        ("GAME_FINAL".to_string(), game.clone()),
        ("GAME_STARTED".to_string(), game.clone()),
        ("ADDED_TO_ROSTER".to_string(), away.clone()),
    ];
    assert_eq!(notes(&app, &hawk).await, all);
    for who in [&rink, &fan] {
        assert!(notes(&app, who).await.is_empty(), "{}", who.username);
    }
    // Coaches who are not on their rosters as players are not told.
    let coach_notes: Vec<String> = notes(&app, &coach).await.into_iter().map(|n| n.0).collect();
    assert!(!coach_notes.iter().any(|t| t.starts_with("GAME_")), "{coach_notes:?}");
}

#[actix_web::test]
async fn notifications_page_newest_first_are_read_one_or_all_and_are_their_owners_alone() {
    let app = spawn_app().await;
    let org = app.user("organiser").await;
    let me = app.user("myself").await;
    let other = app.user("other").await;
    let mut events = Vec::new();
    for i in 0..3 {
        let event = new_event(&app, &org, json!({"title": format!("Skate {i}")})).await;
        rsvp(&app, &me, &event, "ATTENDING").await;
        let (s, b) = app.delete(&format!("/api/v1/events/{event}/attendees/{}", me.id), Some(&org)).await;
        assert_eq!(s, 200, "{b}");
        events.push(event);
    }
    app.settled().await;
    assert_eq!(unread(&app, &me).await, 3);
    let (s, p1) = app.get("/api/v1/notifications?limit=2", Some(&me)).await;
    assert_eq!(s, 200, "{p1}");
    let titles = |p: &Value| -> Vec<String> {
        p["items"].as_array().unwrap().iter().map(|n| n["data"]["title"].as_str().unwrap().to_string()).collect()
    };
    assert_eq!(titles(&p1), ["Skate 2", "Skate 1"]);
    let cursor = p1["nextCursor"].as_str().unwrap();
    let (s, p2) = app.get(&format!("/api/v1/notifications?limit=2&cursor={cursor}"), Some(&me)).await;
    assert_eq!(s, 200, "{p2}");
    assert_eq!(titles(&p2), ["Skate 0"]);
    assert!(p2["nextCursor"].is_null());

    let newest = p1["items"][0]["id"].as_str().unwrap().to_string();
    let (s, b) = app.post(&format!("/api/v1/notifications/{newest}/read"), Some(&other), json!({})).await;
    assert_error(s, &b, 404, "not_found");
    let mut ws = watching(&app, &me).await;
    let (s, b) = app.post(&format!("/api/v1/notifications/{newest}/read"), Some(&me), json!({})).await;
    assert_eq!(s, 200, "{b}");
    assert!(b["readAt"].is_string());
    let data = pushed_op(&mut ws, "read").await;
    assert_eq!((data["op"].as_str(), data["unread"].as_i64()), (Some("read"), Some(2)));
    assert_eq!(data["ids"], json!([newest]));
    // Reading again changes nothing and pushes nothing.
    let (s, again) = app.post(&format!("/api/v1/notifications/{newest}/read"), Some(&me), json!({})).await;
    assert_eq!((s, &again["readAt"]), (200, &b["readAt"]));
    nothing_pushed_yet(&mut ws).await;
    let (_, only_unread) = app.get("/api/v1/notifications?unread=true", Some(&me)).await;
    assert_eq!(titles(&only_unread), ["Skate 1", "Skate 0"]);

    let (s, b) = app.post("/api/v1/notifications/read-all", Some(&me), json!({})).await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(b, json!({"marked": 2, "unread": 0}));
    assert_eq!(pushed(&mut ws).await, json!({"op": "readAll", "unread": 0}));
    assert_eq!(unread(&app, &me).await, 0);

    // Signed out, nothing; bad paging input is a 422 naming the field.
    let (s, b) = app.get("/api/v1/notifications", None).await;
    assert_error(s, &b, 401, "unauthorized");
    let (s, b) = app.get("/api/v1/notifications?limit=0", Some(&me)).await;
    assert_error(s, &b, 422, "validation_failed");
    let (s, b) = app.get("/api/v1/notifications?cursor=nope", Some(&me)).await;
    assert_error(s, &b, 422, "validation_failed");
    let (s, b) = app.post("/api/v1/notifications/no-such/read", Some(&me), json!({})).await;
    assert_error(s, &b, 404, "not_found");

    // A deleted event takes its notifications with it.
    let (s, b) = app.delete(&format!("/api/v1/events/{}", events[0]), Some(&org)).await;
    assert_eq!(s, 204, "{b}");
    assert_eq!(notes(&app, &me).await.len(), 2);
}

#[actix_web::test]
async fn the_topic_snapshot_is_the_first_page_with_the_unread_count_and_needs_a_signed_in_owner() {
    let app = spawn_app().await;
    let org = app.user("organiser").await;
    let me = app.user("myself").await;
    let event = new_event(&app, &org, json!({})).await;
    rsvp(&app, &me, &event, "ATTENDING").await;
    let (s, _) = app.delete(&format!("/api/v1/events/{event}/attendees/{}", me.id), Some(&org)).await;
    assert_eq!(s, 200);
    app.settled().await;
    let mut ws = app.ws().await;
    ws.auth(&me).await;
    let snap = ws.subscribe("notifications").await;
    assert_eq!(snap["seq"], 0);
    assert_eq!(snap["data"]["unread"], 1);
    assert_eq!(snap["data"]["items"][0]["type"], "REMOVED_FROM_EVENT");

    let mut anon = app.ws().await;
    anon.send(json!({"type": "subscribe", "topic": "notifications"})).await;
    let e = anon.next_of("error", Duration::from_secs(5)).await.expect("refused");
    assert_eq!(e["error"]["code"], "unauthorized", "{e}");
    let mut nosy = app.ws().await;
    nosy.auth(&org).await;
    nosy.send(json!({"type": "subscribe", "topic": format!("notifications:{}", me.id)})).await;
    let e = nosy.next_of("error", Duration::from_secs(5)).await.expect("refused");
    assert_eq!(e["error"]["code"], "validation_failed", "{e}");
}

#[actix_web::test]
async fn reminder_settings_default_to_a_day_and_two_hours_and_refuse_what_makes_no_sense() {
    let app = spawn_app().await;
    let me = app.user("myself").await;
    let path = "/api/v1/me/notification-settings";
    // (The settings also carry `subMatches` since issue 26, on by default.)
    let (s, b) = app.get(path, Some(&me)).await;
    assert_eq!((s, b), (200, json!({"reminderMinutes": [1440, 120], "subMatches": true})));
    let (s, b) = app.put(path, Some(&me), Some(json!({"reminderMinutes": [30, 600]}))).await;
    assert_eq!((s, &b), (200, &json!({"reminderMinutes": [600, 30], "subMatches": true})));
    assert_eq!(app.get(path, Some(&me)).await.1, json!({"reminderMinutes": [600, 30], "subMatches": true}));
    for bad in [json!([1]), json!([20_000]), json!([60, 60]), json!([10, 20, 30, 40, 50]), json!([1.5]), json!("60")] {
        let (s, b) = app.put(path, Some(&me), Some(json!({"reminderMinutes": bad}))).await;
        assert_error(s, &b, 422, "validation_failed");
    }
    let (s, b) = app.put(path, Some(&me), Some(json!({"reminderMinutes": [60], "email": true}))).await;
    assert_error(s, &b, 422, "validation_failed");
    let (s, b) = app.put(path, Some(&me), Some(json!({"reminderMinutes": []}))).await;
    assert_eq!((s, b), (200, json!({"reminderMinutes": [], "subMatches": true})));
    let (s, b) = app.get(path, None).await;
    assert_error(s, &b, 401, "unauthorized");
}

/// The reminder job's run, as one node's tick would do it.
async fn tick(app: &TestApp, owner: &str) -> u64 {
    rinkside::notify::reminders::run(&app.state, owner).await.unwrap()
}

#[actix_web::test]
async fn reminders_come_once_at_each_chosen_time_never_for_a_cancelled_event_and_one_node_at_a_time() {
    let (app, clock) = spawn_app_with_offset_clock().await;
    let org = app.user("organiser").await;
    let [regular, custom, silent, late] =
        [app.user("regular").await, app.user("custom").await, app.user("silent").await, app.user("late").await];
    let now = chrono::Utc::now().timestamp_millis();
    let start = now + 48 * HOUR;
    let at = |ms: i64| chrono::DateTime::from_timestamp_millis(ms).unwrap().to_rfc3339();
    let event = new_event(&app, &org, json!({"startDate": at(start), "maxSkaters": 2})).await;
    let cancelled = new_event(&app, &org, json!({"startDate": at(start), "title": "Called off"})).await;
    for who in [&regular, &custom, &silent] {
        rsvp(&app, who, &event, "ATTENDING").await;
        rsvp(&app, who, &cancelled, "ATTENDING").await;
    }
    let settings = "/api/v1/me/notification-settings";
    app.put(settings, Some(&custom), Some(json!({"reminderMinutes": [2880 - 60]}))).await;
    app.put(settings, Some(&silent), Some(json!({"reminderMinutes": []}))).await;
    let mut ws = watching(&app, &regular).await;
    let (s, _) = app.post(&format!("/api/v1/events/{cancelled}/cancel"), Some(&org), json!({})).await;
    assert_eq!(s, 200);
    assert_eq!(pushed(&mut ws).await["notification"]["type"], "EVENT_CANCELLED");
    let reminders = |u: &TestUser| {
        let (app, u) = (&app, u.clone());
        async move { notes(app, &u).await.into_iter().filter(|n| n.0 == "EVENT_REMINDER").collect::<Vec<_>>() }
    };

    // 48 h before: nothing is due.
    assert_eq!(tick(&app, "node-a").await, 0);
    // 47 h before: the custom reminder, once however often it ticks; the
    // other node does not run while the lease is held.
    clock.store(HOUR + 1000, Ordering::SeqCst);
    assert_eq!(tick(&app, "node-a").await, 1);
    assert_eq!(tick(&app, "node-b").await, 0, "node-a holds the lease");
    assert_eq!(tick(&app, "node-a").await, 0, "told once");
    assert_eq!(reminders(&custom).await, vec![("EVENT_REMINDER".to_string(), event.clone())]);
    // 24 h before: the default day-before reminder to the regular.
    clock.store(24 * HOUR + 1000, Ordering::SeqCst);
    assert_eq!(tick(&app, "node-a").await, 1);
    let n = pushed(&mut ws).await["notification"].clone();
    assert_eq!(n["type"], "EVENT_REMINDER");
    assert_eq!(n["resourceId"], event.as_str());
    assert_eq!((n["data"]["minutesBefore"].as_i64(), n["data"]["status"].as_str()), (Some(1440), Some("ATTENDING")));
    // Someone who answers after a reminder's time is not told it.
    clock.store(25 * HOUR, Ordering::SeqCst);
    rsvp(&app, &late, &event, "ATTENDING").await; // waitlisted (2 places)
    // (The actors read the system clock: the answer's time as the test's clock has it.)
    sqlx::query("UPDATE event_rsvps SET responded_at = $1 WHERE user_id = $2")
        .bind(start - 23 * HOUR)
        .bind(&late.id)
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    // 2 h before: the regular's second, and the late one's (waitlisted).
    clock.store(46 * HOUR + 1000, Ordering::SeqCst);
    // After the lease ran out, another node may run the job.
    assert_eq!(tick(&app, "node-b").await, 2);
    assert_eq!(tick(&app, "node-b").await, 0);
    // After the start, nothing more.
    clock.store(49 * HOUR, Ordering::SeqCst);
    assert_eq!(tick(&app, "node-b").await, 0);

    assert_eq!(reminders(&regular).await.len(), 2);
    assert_eq!(reminders(&custom).await.len(), 1);
    assert!(reminders(&silent).await.is_empty(), "no reminders chosen");
    let late_ones = reminders(&late).await;
    assert_eq!(late_ones.len(), 1, "only the 2-hour one: {late_ones:?}");
    let cancelled_reminders: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM notifications WHERE type = 'EVENT_REMINDER' AND resource_id = $1")
            .bind(&cancelled)
            .fetch_one(&app.state.db.pool)
            .await
            .unwrap();
    assert_eq!(cancelled_reminders, 0);
}

#[actix_web::test]
async fn the_reminder_ticks_run_in_the_background_when_turned_on() {
    let app = spawn_app_with(&[("REMINDER_TICK_SECONDS", "1")]).await;
    let org = app.user("organiser").await;
    let me = app.user("myself").await;
    let soon = chrono::Utc::now().timestamp_millis() + HOUR;
    let event = new_event(
        &app,
        &org,
        json!({"startDate": chrono::DateTime::from_timestamp_millis(soon).unwrap().to_rfc3339()}),
    )
    .await;
    // Answered long ago as far as a 2-hour reminder is concerned.
    rsvp(&app, &me, &event, "ATTENDING").await;
    sqlx::query("UPDATE event_rsvps SET responded_at = 0").execute(&app.state.db.pool).await.unwrap();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while notes(&app, &me).await.is_empty() {
        assert!(tokio::time::Instant::now() < deadline, "no reminder within 10 s");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(notes(&app, &me).await, vec![("EVENT_REMINDER".to_string(), event)]);
}

/// A mail server on loopback that takes every message and keeps its text.
async fn smtp_sink() -> (u16, std::sync::Arc<std::sync::Mutex<Vec<String>>>) {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let mails = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let keep = mails.clone();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let keep = keep.clone();
            tokio::spawn(async move {
                let (r, mut w) = stream.into_split();
                let mut lines = BufReader::new(r).lines();
                w.write_all(b"220 sink ESMTP\r\n").await.ok();
                let mut data: Option<String> = None;
                while let Ok(Some(line)) = lines.next_line().await {
                    if let Some(buf) = data.as_mut() {
                        if line == "." {
                            keep.lock().unwrap().push(std::mem::take(buf));
                            data = None;
                            w.write_all(b"250 kept\r\n").await.ok();
                        } else {
                            buf.push_str(&line);
                            buf.push('\n');
                        }
                        continue;
                    }
                    let verb = line.to_ascii_uppercase();
                    let reply: &[u8] = if verb.starts_with("EHLO") || verb.starts_with("HELO") {
                        b"250-sink\r\n250 8BITMIME\r\n"
                    } else if verb.starts_with("DATA") {
                        data = Some(String::new());
                        b"354 go on\r\n"
                    } else if verb.starts_with("QUIT") {
                        w.write_all(b"221 bye\r\n").await.ok();
                        return;
                    } else {
                        b"250 ok\r\n"
                    };
                    w.write_all(reply).await.ok();
                }
            });
        }
    });
    (port, mails)
}

#[actix_web::test]
async fn with_smtp_set_a_notification_also_goes_by_mail_to_its_person_if_they_have_an_address() {
    let (port, mails) = smtp_sink().await;
    let smtp = format!("smtp://127.0.0.1:{port}");
    let app = spawn_app_with(&[("SMTP_URL", &smtp), ("SMTP_FROM", "Rinkside <notify@rinkside.test>")]).await;
    let org = app.user("organiser").await;
    let [first, second] = [app.user("first").await, app.user("second").await];
    for (who, address) in [(&second, "second@example.com"), (&org, "org@example.com")] {
        sqlx::query("UPDATE users SET email = $1 WHERE id = $2")
            .bind(address)
            .bind(&who.id)
            .execute(&app.state.db.pool)
            .await
            .unwrap();
    }
    let event = new_event(&app, &org, json!({"maxSkaters": 1})).await;
    rsvp(&app, &first, &event, "ATTENDING").await;
    rsvp(&app, &second, &event, "ATTENDING").await;
    let (s, _) = app.delete(&format!("/api/v1/events/{event}/attendees/{}", first.id), Some(&org)).await;
    assert_eq!(s, 200);

    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while mails.lock().unwrap().is_empty() {
        assert!(tokio::time::Instant::now() < deadline, "no mail within 10 s");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    tokio::time::sleep(QUIET).await;
    let mails = mails.lock().unwrap().clone();
    assert_eq!(mails.len(), 1, "only the promoted person has an address and news: {mails:?}");
    let mail = &mails[0];
    assert!(mail.contains("To: second@example.com"), "{mail}");
    assert!(mail.contains("From: Rinkside <notify@rinkside.test>"), "{mail}");
    assert!(mail.contains("Subject: You're in: Tuesday pickup"), "{mail}");
    assert!(mail.contains("A spot opened and you moved off the waitlist."), "{mail}");
}

#[actix_web::test]
async fn an_smtp_url_that_is_not_smtp_stops_the_server_at_start_saying_so() {
    let (url, _dir) = fresh_database().await;
    let config = test_config(&url, &[("SMTP_URL", "http://mail.example.com")]);
    let err = rinkside::startup::Application::build(config).await.err().expect("refused");
    assert!(err.to_string().contains("SMTP_URL"), "{err}");
}

/// A time `ms` from now, as the API takes it.
fn from_now(ms: i64) -> String {
    rinkside::time::to_rfc3339(chrono::Utc::now().timestamp_millis() + ms)
}

/// A signed-in socket subscribed to its owner's `matches`.
async fn watching_matches(app: &TestApp, u: &TestUser) -> Ws {
    let mut ws = app.ws().await;
    ws.auth(u).await;
    let snap = ws.subscribe("matches").await;
    assert_eq!(snap["data"]["items"], json!([]), "no match yet");
    ws
}

/// The next `matches` upsert about this event (skipping other changes).
async fn upserted(ws: &mut Ws, event: &str) -> Option<Value> {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        let up = ws.next_of("update", left).await?;
        if up["data"]["op"] == "upsert" && up["data"]["match"]["event"]["id"] == event {
            return Some(up);
        }
    }
}

/// The SUB_MATCH notifications a person has, as `resourceId`s.
async fn sub_matches(app: &TestApp, u: &TestUser) -> Vec<String> {
    notes(app, u).await.into_iter().filter(|(kind, _)| kind == "SUB_MATCH").map(|(_, id)| id).collect()
}

#[actix_web::test]
async fn a_new_event_with_open_places_reaches_matching_subs_live_and_tells_each_once_unless_they_opted_out() {
    let app = spawn_app().await;
    let [org, sub, quiet, skater, keeper] = [
        app.user("organiser").await,
        app.user("sub").await,
        app.user("quiet").await,
        app.user("skatersub").await,
        app.user("keeper").await,
    ];
    let settings = "/api/v1/me/notification-settings";
    let (s, b) = app.get(settings, Some(&sub)).await;
    assert_eq!((s, b), (200, json!({"reminderMinutes": [1440, 120], "subMatches": true})), "on by default");
    // Opting out keeps the reminders; changing reminders keeps the opt-out.
    let (s, b) = app.put(settings, Some(&quiet), Some(json!({"subMatches": false}))).await;
    assert_eq!((s, b), (200, json!({"reminderMinutes": [1440, 120], "subMatches": false})));
    let (s, b) = app.put(settings, Some(&quiet), Some(json!({"reminderMinutes": [60]}))).await;
    assert_eq!((s, b), (200, json!({"reminderMinutes": [60], "subMatches": false})));
    let (s, b) = app.put(settings, Some(&quiet), Some(json!({"subMatches": "no"}))).await;
    assert_error(s, &b, 422, "validation_failed");

    for (who, position) in [(&sub, "GOALIE"), (&quiet, "GOALIE"), (&skater, "CENTER")] {
        let body = json!({"type": "AVAILABLE_TO_SUB", "entityType": "USER", "positions": [position], "expiresAt": from_now(6 * HOUR)});
        let (s, b) = app.post("/api/v1/statuses", Some(who), body).await;
        assert_eq!(s, 201, "{b}");
    }
    let mut subs_matches = watching_matches(&app, &sub).await;
    let mut subs_notes = watching(&app, &sub).await;
    let mut quiets_matches = watching_matches(&app, &quiet).await;
    let mut quiets_notes = watching(&app, &quiet).await;
    let mut skaters_notes = watching(&app, &skater).await;

    // A new event short of a goalie (skaters unlimited): no reload needed.
    let event = new_event(&app, &org, json!({"startDate": from_now(3 * HOUR), "maxGoalies": 1})).await;
    let up = upserted(&mut subs_matches, &event).await.expect("the new event reaches the sub's open socket");
    assert_eq!(up["data"]["match"]["event"]["open"]["goalies"], 1);
    let told = pushed_op(&mut subs_notes, "new").await;
    assert_eq!(told["notification"]["type"], "SUB_MATCH");
    assert_eq!(told["notification"]["resourceType"], "EVENT");
    assert_eq!(told["notification"]["resourceId"], event.as_str());
    assert_eq!(told["notification"]["data"]["title"], "Tuesday pickup");
    assert_eq!(told["notification"]["data"]["open"], json!({"skaters": null, "goalies": 1}));
    // Who opted out still sees the match live (and is told nothing: below).
    upserted(&mut quiets_matches, &event).await.expect("the match is still shown live");

    // The place fills and opens again: the match comes back, the
    // notification does not (one per event per person).
    rsvp_as(&app, &keeper, &event, "GOALIE").await;
    rsvp(&app, &keeper, &event, "DECLINED").await;
    upserted(&mut subs_matches, &event).await.expect("the match is back");

    // A later event short of a goalie tells the sub. Events are matched and
    // their notifications pushed one batch after another in commit order,
    // so a second notification of the first event would have come first.
    let later = new_event(&app, &org, json!({"startDate": from_now(4 * HOUR), "maxGoalies": 1})).await;
    let told = pushed_op(&mut subs_notes, "new").await;
    assert_eq!(told["notification"]["type"], "SUB_MATCH", "{told}");
    assert_eq!(told["notification"]["resourceId"], later.as_str(), "told of the first event once: {told}");
    // Every batch before the later event's has been pushed by now: had the
    // opted-out or the skater been told of the first event, it would sit on
    // their sockets ahead of a pong.
    nothing_pushed_yet(&mut quiets_notes).await;
    nothing_pushed_yet(&mut skaters_notes).await;
    assert_eq!(sub_matches(&app, &sub).await, vec![later, event]);
    assert!(sub_matches(&app, &quiet).await.is_empty());
    assert!(sub_matches(&app, &skater).await.is_empty());
    assert!(sub_matches(&app, &org).await.is_empty(), "the organiser is nobody's sub here");
}

async fn rsvp_as(app: &TestApp, u: &TestUser, event: &str, position: &str) -> Value {
    let body = json!({"action": "ATTENDING", "position": position});
    let (s, r) = app.put(&format!("/api/v1/events/{event}/rsvp"), Some(u), Some(body)).await;
    assert_eq!(s, 200, "{r}");
    r
}
