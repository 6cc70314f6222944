//! Weekly skates (docs/series.md): a series is one event a week at the same
//! wall-clock time, each with its own RSVPs and waitlist; an edit or a
//! cancellation reaches one event or all that follow, and an open page's
//! row of weeks (`series:ID`) follows; bad input changes nothing.

use crate::helpers::*;
use serde_json::{Value, json};
use std::time::Duration;

/// Tue Nov 24, 2026, noon UTC: the tests' today.
const TODAY: i64 = 1_795_521_600_000;

async fn rsvp(app: &TestApp, u: &TestUser, event: &str) -> Value {
    let (s, r) = app.put(&format!("/api/v1/events/{event}/rsvp"), Some(u), Some(json!({"action": "ATTENDING"}))).await;
    assert_eq!(s, 200, "{r}");
    r
}

async fn series(app: &TestApp, u: &TestUser, id: &str) -> Value {
    let (s, b) = app.get(&format!("/api/v1/event-series/{id}"), Some(u)).await;
    assert_eq!(s, 200, "{b}");
    b
}

/// The series' events as `(startDate, endDate, title, cancelled)`.
async fn weeks(app: &TestApp, u: &TestUser, series_id: &str) -> Vec<(String, String, String, bool)> {
    let mut out = Vec::new();
    for e in series(app, u, series_id).await["events"].as_array().unwrap() {
        let (s, full) = app.get(&format!("/api/v1/events/{}", e["id"].as_str().unwrap()), Some(u)).await;
        assert_eq!(s, 200, "{full}");
        out.push((
            full["startDate"].as_str().unwrap().to_string(),
            full["endDate"].as_str().unwrap_or("").to_string(),
            full["title"].as_str().unwrap().to_string(),
            !full["cancelledAt"].is_null(),
        ));
    }
    out
}

fn ids(series: &Value) -> Vec<String> {
    series["events"].as_array().unwrap().iter().map(|e| e["id"].as_str().unwrap().to_string()).collect()
}

#[actix_web::test]
async fn a_weekly_skate_until_march_is_an_event_a_week_at_the_rinks_wall_clock_each_with_its_own_rsvps() {
    let app = spawn_app_with_clock(&[], TODAY).await;
    let org = app.user("organiser").await;
    let fan = app.user("fan").await;
    let (s, b) = app.put(&format!("/api/v1/users/{}/follow", org.id), Some(&fan), None).await;
    assert!(s < 300, "{b}");
    let (s, rink) =
        app.post("/api/v1/facilities", Some(&org), json!({"name": "Maple Arena", "timezone": "America/Toronto"})).await;
    assert_eq!(s, 201, "{rink}");
    // Tuesday Dec 1, 21:30–23:00 in Toronto. The rink's zone wins over the browser's.
    let (s, first) = app
        .post(
            "/api/v1/events",
            Some(&org),
            json!({"title": "Tuesday pickup", "eventType": "OTHER", "facilityId": rink["id"],
                   "startDate": "2026-12-02T02:30:00.000Z", "endDate": "2026-12-02T04:00:00.000Z",
                   "maxSkaters": 2, "maxGoalies": 1,
                   "repeat": {"frequency": "WEEKLY", "until": "2027-03-30", "timeZone": "Europe/Paris"}}),
        )
        .await;
    assert_eq!(s, 201, "{first}");
    assert_eq!(first["startDate"], "2026-12-02T02:30:00.000Z", "the answer is the first event");
    let series_id = first["seriesId"].as_str().expect("part of a series").to_string();
    let whole = series(&app, &org, &series_id).await;
    assert_eq!(
        (&whole["frequency"], &whole["until"], &whole["timeZone"]),
        (&json!("WEEKLY"), &json!("2027-03-30"), &json!("America/Toronto"))
    );
    let events = whole["events"].as_array().unwrap();
    assert_eq!(events.len(), 18, "every Tuesday from Dec 1 to Mar 30");
    assert_eq!(events[0]["id"], first["id"]);
    assert_eq!(events[1]["startDate"], "2026-12-09T02:30:00.000Z");
    // After the clocks go forward (Mar 14) the skate is still at 21:30.
    assert_eq!(
        (&events[17]["startDate"], &events[17]["endDate"]),
        (&json!("2027-03-31T01:30:00.000Z"), &json!("2027-03-31T03:00:00.000Z"))
    );
    assert!(events.iter().all(|e| e["title"] == "Tuesday pickup" && e["cancelledAt"].is_null()));

    // Each week is its own event: its own places, its own waitlist.
    let ids = ids(&whole);
    let mut p = Vec::new();
    for name in ["skater0", "skater1", "skater2"] {
        p.push(app.user(name).await);
    }
    assert_eq!(rsvp(&app, &p[0], &ids[1]).await["status"], "ATTENDING");
    assert_eq!(rsvp(&app, &p[1], &ids[1]).await["status"], "ATTENDING");
    let third = rsvp(&app, &p[2], &ids[1]).await;
    assert_eq!((third["status"].as_str(), third["waitlistRank"].as_i64()), (Some("WAITLISTED"), Some(1)));
    assert_eq!(rsvp(&app, &p[2], &ids[2]).await["status"], "ATTENDING", "next week has room");
    for (event, attending) in [(&ids[0], 0), (&ids[1], 2), (&ids[2], 1)] {
        let (_, doc) = app.get(&format!("/api/v1/events/{event}/attendees"), Some(&org)).await;
        assert_eq!(doc["attending"].as_array().map(Vec::len), Some(attending), "{doc}");
    }
    let (_, page) =
        app.get(&format!("/api/v1/events?facilityId={}&limit=100", rink["id"].as_str().unwrap()), Some(&org)).await;
    assert_eq!(page["items"].as_array().map(Vec::len), Some(18), "every week is listed");

    // The organiser's followers hear of the series once.
    let (_, feed) = app.get("/api/v1/feed?limit=100", Some(&fan)).await;
    let created: Vec<&Value> =
        feed["items"].as_array().unwrap().iter().filter(|i| i["type"] == "EVENT_CREATED").collect();
    assert_eq!(created.len(), 1, "{feed}");
}

#[actix_web::test]
async fn an_edit_reaches_this_event_or_all_that_follow_and_a_refusal_changes_nothing() {
    let app = spawn_app_with_clock(&[], TODAY).await;
    let org = app.user("organiser").await;
    let player = app.user("player").await;
    // No rink: the browser's zone. Tuesdays 21:30–23:00 in Toronto, six weeks.
    let (s, first) = app
        .post(
            "/api/v1/events",
            Some(&org),
            json!({"title": "Pickup", "eventType": "OTHER", "maxSkaters": 20,
                   "startDate": "2026-12-02T02:30:00.000Z", "endDate": "2026-12-02T04:00:00.000Z",
                   "repeat": {"frequency": "WEEKLY", "until": "2027-01-05", "timeZone": "America/Toronto"}}),
        )
        .await;
    assert_eq!(s, 201, "{first}");
    let series_id = first["seriesId"].as_str().unwrap().to_string();
    let ids = ids(&series(&app, &org, &series_id).await);
    assert_eq!(ids.len(), 6);
    rsvp(&app, &player, &ids[1]).await;
    rsvp(&app, &player, &ids[3]).await;

    // One event only: the third moves an hour; the others keep theirs.
    let (s, b) = app
        .patch(
            &format!("/api/v1/events/{}", ids[2]),
            Some(&org),
            json!({"title": "Pickup (late ice)", "startDate": "2026-12-16T03:30:00.000Z", "endDate": "2026-12-16T05:00:00.000Z"}),
        )
        .await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(b["seriesId"], json!(series_id), "still in its series");
    let before = weeks(&app, &org, &series_id).await;
    assert_eq!(before[2].0, "2026-12-16T03:30:00.000Z");
    assert_eq!((before[1].0.as_str(), before[3].0.as_str()), ("2026-12-09T02:30:00.000Z", "2026-12-23T02:30:00.000Z"));

    // Refused for one of them (the last would start more than two years
    // ahead): 422, and nothing changed anywhere.
    let (s, b) = app
        .patch(
            &format!("/api/v1/events/{}?scope=following", ids[1]),
            Some(&org),
            json!({"title": "Never", "startDate": "2028-11-08T02:30:00.000Z"}),
        )
        .await;
    assert_error(s, &b, 422, "validation_failed");
    assert!(b["error"]["details"]["startDate"].as_str().unwrap().contains("within two years"), "{b}");
    assert_eq!(weeks(&app, &org, &series_id).await, before, "nothing written");

    // This and all following: half an hour later, a new name, more places.
    let (s, b) = app
        .patch(
            &format!("/api/v1/events/{}?scope=following", ids[1]),
            Some(&org),
            json!({"title": "Late pickup", "startDate": "2026-12-09T03:00:00.000Z", "maxSkaters": 24}),
        )
        .await;
    assert_eq!(s, 200, "{b}");
    assert_eq!((b["startDate"].as_str(), b["maxSkaters"].as_i64()), (Some("2026-12-09T03:00:00.000Z"), Some(24)));
    let after = weeks(&app, &org, &series_id).await;
    assert_eq!(after[0], before[0], "an earlier event keeps what it had");
    let want = [
        ("2026-12-09T03:00:00.000Z", "2026-12-09T04:30:00.000Z"),
        ("2026-12-16T04:00:00.000Z", "2026-12-16T05:30:00.000Z"), // the moved one moves by the same half hour
        ("2026-12-23T03:00:00.000Z", "2026-12-23T04:30:00.000Z"),
        ("2026-12-30T03:00:00.000Z", "2026-12-30T04:30:00.000Z"),
        ("2027-01-06T03:00:00.000Z", "2027-01-06T04:30:00.000Z"),
    ];
    for (week, (start, end)) in after[1..].iter().zip(want) {
        assert_eq!((week.0.as_str(), week.1.as_str(), week.2.as_str()), (start, end, "Late pickup"));
    }
    for id in &ids[1..] {
        let (_, e) = app.get(&format!("/api/v1/events/{id}"), Some(&org)).await;
        assert_eq!(e["maxSkaters"], 24, "{e}");
    }
    // Still "until Jan 5" in Toronto: the last event moved within its day.
    assert_eq!(series(&app, &org, &series_id).await["until"], "2027-01-05");
    // Moved a day later, the series runs until its last event's day.
    let (s, b) = app
        .patch(
            &format!("/api/v1/events/{}?scope=following", ids[5]),
            Some(&org),
            json!({"startDate": "2027-01-07T03:00:00.000Z"}),
        )
        .await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(series(&app, &org, &series_id).await["until"], "2027-01-06");
    let (s, b) = app
        .patch(
            &format!("/api/v1/events/{}?scope=following", ids[5]),
            Some(&org),
            json!({"startDate": "2027-01-06T03:00:00.000Z"}),
        )
        .await;
    assert_eq!(s, 200, "{b}");
    // The player hears of each moved event they are in, and of no other.
    let (_, notes) = app.get("/api/v1/notifications?limit=100", Some(&player)).await;
    let mut moved: Vec<&str> = notes["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["type"] == "EVENT_MOVED")
        .map(|n| n["resourceId"].as_str().unwrap())
        .collect();
    moved.sort();
    let mut theirs = vec![ids[1].as_str(), ids[3].as_str()];
    theirs.sort();
    assert_eq!(moved, theirs);

    // Cancel one: the player's open page of another week sees it in its
    // row of weeks (`series:ID`) at once; then the rest from the fifth on.
    let mut ws = app.ws().await;
    ws.auth(&player).await;
    let snap = ws.subscribe(&format!("series:{series_id}")).await;
    assert_eq!(snap["data"]["events"].as_array().map(Vec::len), Some(6), "{snap}");
    let (s, b) = app.post(&format!("/api/v1/events/{}/cancel", ids[3]), Some(&org), json!({})).await;
    assert_eq!(s, 200, "{b}");
    let pushed = ws.next_of("update", Duration::from_secs(5)).await.expect("the series pushed");
    assert_eq!(pushed["topic"], format!("series:{series_id}"));
    let cancelled: Vec<bool> =
        pushed["data"]["events"].as_array().unwrap().iter().map(|e| !e["cancelledAt"].is_null()).collect();
    assert_eq!(cancelled, [false, false, false, true, false, false]);
    assert!(pushed["seq"].as_i64() > snap["seq"].as_i64());
    let (s, b) = app
        .post(
            &format!("/api/v1/events/{}/cancel?scope=following", ids[4]),
            Some(&org),
            json!({"reason": "Rink closed for the holidays"}),
        )
        .await;
    assert_eq!(s, 200, "{b}");
    let cancelled: Vec<bool> = weeks(&app, &org, &series_id).await.into_iter().map(|w| w.3).collect();
    assert_eq!(cancelled, [false, false, false, true, true, true]);
    // Each week the scope cancelled says why; the one cancelled alone before says nothing.
    let mut reasons = Vec::new();
    for id in &ids {
        let (_, e) = app.get(&format!("/api/v1/events/{id}"), Some(&org)).await;
        reasons.push(e["cancelReason"].as_str().map(str::to_string));
    }
    let closed = Some("Rink closed for the holidays".to_string());
    assert_eq!(reasons, [None, None, None, None, closed.clone(), closed]);
    let (s, b) = app.post(&format!("/api/v1/events/{}/cancel?scope=following", ids[5]), Some(&org), json!({})).await;
    assert_error(s, &b, 409, "event_cancelled");

    // A later edit of all following passes over the cancelled ones.
    let (s, b) =
        app.patch(&format!("/api/v1/events/{}?scope=following", ids[1]), Some(&org), json!({"title": "Pickup"})).await;
    assert_eq!(s, 200, "{b}");
    let titles: Vec<String> = weeks(&app, &org, &series_id).await.into_iter().map(|w| w.2).collect();
    assert_eq!(titles, ["Pickup", "Pickup", "Pickup", "Late pickup", "Late pickup", "Late pickup"]);

    // Only organisers; `following` needs a series; `repeat` is for creating.
    let (s, b) =
        app.patch(&format!("/api/v1/events/{}?scope=following", ids[1]), Some(&player), json!({"title": "Mine"})).await;
    assert_error(s, &b, 403, "forbidden");
    let (s, b) = app.post(&format!("/api/v1/events/{}/cancel?scope=following", ids[1]), Some(&player), json!({})).await;
    assert_error(s, &b, 403, "forbidden");
    let (_, single) = app
        .post(
            "/api/v1/events",
            Some(&org),
            json!({"title": "Once", "eventType": "OTHER", "startDate": "2026-12-05T20:00:00.000Z"}),
        )
        .await;
    assert!(single["seriesId"].is_null(), "{single}");
    let (s, b) = app
        .patch(
            &format!("/api/v1/events/{}?scope=following", single["id"].as_str().unwrap()),
            Some(&org),
            json!({"title": "x"}),
        )
        .await;
    assert_error(s, &b, 422, "validation_failed");
    assert_eq!(b["error"]["details"]["scope"], "The event is not part of a series");
    let repeat = json!({"frequency": "WEEKLY", "until": "2027-01-05"});
    let (s, b) = app.patch(&format!("/api/v1/events/{}", ids[0]), Some(&org), json!({"repeat": repeat})).await;
    assert_error(s, &b, 422, "validation_failed");
    let (s, b) =
        app.patch(&format!("/api/v1/events/{}?scope=sometimes", ids[0]), Some(&org), json!({"title": "x"})).await;
    assert_error(s, &b, 422, "validation_failed");
}

#[actix_web::test]
async fn a_series_that_cannot_be_is_refused_in_words_and_nothing_is_made() {
    let app = spawn_app_with_clock(&[], TODAY).await;
    let org = app.user("organiser").await;
    let base = json!({"title": "Pickup", "eventType": "OTHER", "startDate": "2026-12-02T02:30:00.000Z"});
    let with = |changes: Value| {
        let mut body = base.clone();
        for (k, v) in changes.as_object().unwrap() {
            body[k] = v.clone();
        }
        body
    };
    for (body, field, message) in [
        (
            with(json!({"eventType": "GAME", "repeat": {"frequency": "WEEKLY", "until": "2027-01-05"}})),
            "repeat",
            "Games are scheduled one by one (a league's come from its season); practices, skates and pickups repeat",
        ),
        (
            with(json!({"repeat": {"frequency": "WEEKLY", "until": "2026-11-30", "timeZone": "America/Toronto"}})),
            "repeat.until",
            "Must not be before the first event (Dec 1, 2026)",
        ),
        (
            with(json!({"repeat": {"frequency": "WEEKLY", "until": "2028-01-04", "timeZone": "America/Toronto"}})),
            "repeat.until",
            "A weekly series has at most 52 events (until Nov 23, 2027)",
        ),
        (
            with(json!({"repeat": {"frequency": "WEEKLY", "until": "March"}})),
            "repeat.until",
            "Must be a day, like 2027-03-30",
        ),
        (
            with(json!({"repeat": {"frequency": "WEEKLY", "until": "2027-01-05", "timeZone": "Mars/Olympus"}})),
            "repeat.timeZone",
            "Must be an IANA time zone such as America/Toronto",
        ),
    ] {
        let (s, b) = app.post("/api/v1/events", Some(&org), body.clone()).await;
        assert_error(s, &b, 422, "validation_failed");
        assert_eq!(b["error"]["details"][field], message, "{body}: {b}");
    }
    let (s, b) = app
        .post("/api/v1/events", Some(&org), with(json!({"repeat": {"frequency": "DAILY", "until": "2027-01-05"}})))
        .await;
    assert_error(s, &b, 422, "validation_failed");
    let (_, mine) = app.get("/api/v1/events?createdBy=me&includeCancelled=true", Some(&org)).await;
    assert_eq!(mine["items"].as_array().map(Vec::len), Some(0), "nothing made: {mine}");
    let (s, b) = app.get("/api/v1/event-series/no-such-series", Some(&org)).await;
    assert_error(s, &b, 404, "not_found");
    let mut ws = app.ws().await;
    ws.send(json!({"type": "subscribe", "topic": "series:no-such-series"})).await;
    let refused = ws.next_of("error", Duration::from_secs(5)).await.expect("an error frame");
    assert_eq!(refused["error"]["code"], "unauthorized", "signed out: {refused}");
}
