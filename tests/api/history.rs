//! Who dropped late (docs/pickup-night.md › History and the record) over
//! HTTP: an event's RSVP and waitlist history as its organisers read it —
//! every action once, in order, across pages; late drops marked by the
//! event's late window — and a series' record, everyone's for its
//! organisers and only their own line for a player.

use crate::helpers::*;
use serde_json::{Value, json};
use std::sync::atomic::Ordering;

const HOUR_MS: i64 = 3_600_000;
const DAY_MS: i64 = 24 * HOUR_MS;

fn rfc3339(ms: i64) -> String {
    chrono::DateTime::<chrono::Utc>::from_timestamp_millis(ms).unwrap().to_rfc3339()
}

fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

/// A pickup starting at `start` (epoch ms) with room for `skaters`; extra
/// fields in `more`. Its id, and its series' when `more` repeats it.
async fn pickup(app: &TestApp, org: &TestUser, start: i64, skaters: i64, more: Value) -> (String, Option<String>) {
    let mut body = json!({"title": "Late-night pickup", "startDate": rfc3339(start), "eventType": "OTHER",
                          "maxSkaters": skaters, "maxGoalies": 1});
    body.as_object_mut().unwrap().extend(more.as_object().unwrap().clone());
    let (s, e) = app.post("/api/v1/events", Some(org), body).await;
    assert_eq!(s, 201, "{e}");
    (e["id"].as_str().unwrap().to_string(), e["seriesId"].as_str().map(str::to_string))
}

async fn answer(app: &TestApp, who: &TestUser, event: &str, action: &str) -> Value {
    let (s, r) = app
        .put(&format!("/api/v1/events/{event}/rsvp"), Some(who), Some(json!({"action": action, "position": "CENTER"})))
        .await;
    assert_eq!(s, 200, "{r}");
    r
}

async fn remove(app: &TestApp, org: &TestUser, event: &str, who: &TestUser) {
    let (s, r) = app.delete(&format!("/api/v1/events/{event}/attendees/{}", who.id), Some(org)).await;
    assert!((200..300).contains(&s), "{s} {r}");
}

/// Sets the event's late window through its RSVP rules (the rest off).
async fn set_late_window(app: &TestApp, org: &TestUser, event: &str, minutes: Option<i64>) {
    let (s, r) = app
        .put(&format!("/api/v1/events/{event}/rsvp-rules"), Some(org), Some(json!({"lateWindowMinutes": minutes})))
        .await;
    assert_eq!(s, 200, "{r}");
    assert_eq!(r["lateWindowMinutes"], json!(minutes), "{r}");
}

/// The organiser checks `who` in at the rink.
async fn check_in(app: &TestApp, org: &TestUser, event: &str, who: &TestUser) {
    let (s, r) = app.put(&format!("/api/v1/events/{event}/check-ins/{}", who.id), Some(org), None).await;
    assert_eq!(s, 200, "{r}");
}

/// Every page of the event's history with pages of `limit`.
async fn walk(app: &TestApp, org: &TestUser, event: &str, limit: usize) -> Vec<Value> {
    let mut items = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..1000 {
        let path = match &cursor {
            None => format!("/api/v1/events/{event}/history?limit={limit}"),
            Some(c) => format!("/api/v1/events/{event}/history?limit={limit}&cursor={c}"),
        };
        let (s, page) = app.get(&path, Some(org)).await;
        assert_eq!(s, 200, "{page}");
        let got = page["items"].as_array().unwrap();
        assert!(got.len() <= limit, "{page}");
        items.extend(got.iter().cloned());
        match page["nextCursor"].as_str() {
            Some(next) => {
                assert_eq!(got.len(), limit, "a page short of the limit is the last: {page}");
                cursor = Some(next.to_string());
            }
            None => return items,
        }
    }
    panic!("the history never ended");
}

fn line(items: &[Value]) -> Vec<(String, String)> {
    items
        .iter()
        .map(|i| (i["displayName"].as_str().unwrap().to_string(), i["kind"].as_str().unwrap().to_string()))
        .collect()
}

fn pairs(want: &[(&str, &str)]) -> Vec<(String, String)> {
    want.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
}

#[actix_web::test]
async fn every_answer_appears_once_in_order_across_pages_of_any_size() {
    let app = spawn_app().await;
    let org = app.user("organiser").await;
    let (ann, bob, cat) = (app.user("ann").await, app.user("bob").await, app.user("cat").await);
    let (event, _) = pickup(&app, &org, now_ms() + 3 * DAY_MS, 2, json!({})).await;
    answer(&app, &ann, &event, "ATTENDING").await;
    answer(&app, &bob, &event, "ATTENDING").await;
    let waiting = answer(&app, &cat, &event, "ATTENDING").await;
    assert_eq!(waiting["status"], "WAITLISTED", "{waiting}");
    answer(&app, &ann, &event, "DECLINED").await; // cat takes ann's place
    remove(&app, &org, &event, &bob).await;
    answer(&app, &ann, &event, "ATTENDING").await; // back, into bob's place
    app.settled().await;

    let all = walk(&app, &org, &event, 100).await;
    assert_eq!(
        line(&all),
        pairs(&[
            ("ann", "JOINED"),
            ("bob", "JOINED"),
            ("cat", "JOINED"),
            ("cat", "WAITLISTED"),
            ("ann", "DECLINED"),
            ("cat", "PROMOTED"),
            ("bob", "REMOVED"),
            ("ann", "JOINED"),
        ]),
        "{all:#?}"
    );
    let stored = app.count("event_rsvp_history").await + app.count("event_waitlist_history").await;
    assert_eq!(all.len() as i64, stored, "every stored row once");
    for item in &all {
        assert_eq!(item["late"], false, "three days out, nothing is late: {item}");
        assert_eq!(item["position"], "CENTER", "{item}");
        let before = item["minutesBefore"].as_i64().unwrap();
        assert!((3 * 1440 - 5..=3 * 1440).contains(&before), "{item}");
    }
    let ann_id = all[0]["userId"].as_str().unwrap();
    assert_eq!(ann_id, ann.id);

    let ids = |items: &[Value]| items.iter().map(|i| i["id"].as_str().unwrap().to_string()).collect::<Vec<_>>();
    for limit in [1, 2, 3, 7, 8] {
        assert_eq!(ids(&walk(&app, &org, &event, limit).await), ids(&all), "pages of {limit}");
    }
}

#[actix_web::test]
async fn a_place_given_up_within_the_late_window_is_marked_late() {
    let app = spawn_app().await;
    let org = app.user("organiser").await;
    let (ann, cat, dan) = (app.user("ann").await, app.user("cat").await, app.user("dan").await);
    // Puck drop in three hours, one skater's place.
    let (event, _) = pickup(&app, &org, now_ms() + 3 * HOUR_MS, 1, json!({})).await;
    answer(&app, &ann, &event, "ATTENDING").await;
    answer(&app, &cat, &event, "ATTENDING").await; // waiting
    answer(&app, &dan, &event, "DECLINED").await; // never came in
    answer(&app, &cat, &event, "DECLINED").await; // leaves the waitlist
    answer(&app, &ann, &event, "DECLINED").await; // gives up the place
    app.settled().await;

    let late = |items: &[Value]| {
        items
            .iter()
            .filter(|i| i["late"] == true)
            .map(|i| (i["displayName"].as_str().unwrap().to_string(), i["kind"].as_str().unwrap().to_string()))
            .collect::<Vec<_>>()
    };
    // The default window: 24 hours.
    let items = walk(&app, &org, &event, 100).await;
    assert_eq!(late(&items), pairs(&[("ann", "DECLINED")]), "{items:#?}");
    let ann_drop = items.iter().find(|i| i["displayName"] == "ann" && i["kind"] == "DECLINED").unwrap();
    let before = ann_drop["minutesBefore"].as_i64().unwrap();
    assert!((175..=180).contains(&before), "declined about 3 h before: {ann_drop}");
    let declines: Vec<&Value> = items.iter().filter(|i| i["kind"] == "DECLINED").collect();
    assert_eq!(declines.len(), 3, "dan, cat and ann each declined once: {items:#?}");

    // A two-hour window: three hours before is not late.
    set_late_window(&app, &org, &event, Some(120)).await;
    let items = walk(&app, &org, &event, 100).await;
    assert!(late(&items).is_empty(), "{items:#?}");
    // Four hours: late again; a window of 0: never.
    set_late_window(&app, &org, &event, Some(240)).await;
    assert_eq!(late(&walk(&app, &org, &event, 2).await), pairs(&[("ann", "DECLINED")]));
    set_late_window(&app, &org, &event, Some(0)).await;
    assert!(late(&walk(&app, &org, &event, 100).await).is_empty());
}

#[actix_web::test]
async fn only_the_event_s_organisers_and_linked_teams_managers_read_its_history() {
    let app = spawn_app().await;
    let owner = app.user("rinkowner").await;
    let staff = app.user("rinkstaff").await;
    let (player, stranger) = (app.user("player").await, app.user("stranger").await);
    let (s, f) = app
        .post("/api/v1/facilities", Some(&owner), json!({"name": "Night Rink", "timezone": "America/Toronto"}))
        .await;
    assert_eq!(s, 201, "{f}");
    let facility = f["id"].as_str().unwrap();
    let (s, b) = app.put(&format!("/api/v1/facilities/{facility}/managers/{}", staff.id), Some(&owner), None).await;
    assert!((200..300).contains(&s), "{b}");
    let org = app.user("organiser").await;
    let (event, _) = pickup(&app, &org, now_ms() + DAY_MS, 10, json!({"facilityId": facility})).await;
    answer(&app, &player, &event, "ATTENDING").await;
    let path = format!("/api/v1/events/{event}/history");

    for who in [&org, &staff, &owner] {
        let (s, page) = app.get(&path, Some(who)).await;
        assert_eq!(s, 200, "{} reads it: {page}", who.username);
        assert_eq!(page["items"].as_array().unwrap().len(), 1);
    }
    for who in [&player, &stranger] {
        let (s, b) = app.get(&path, Some(who)).await;
        assert_error(s, &b, 403, "forbidden");
    }
    // The managers of a team linked to the event read it too (and the page
    // says so), not organisers otherwise.
    let team = crate::rosters::team(&app, &org, None).await;
    let manager = app.user("team_manager").await;
    let (s, b) = app.put(&format!("/api/v1/teams/{team}/managers/{}", manager.id), Some(&org), None).await;
    assert!((200..300).contains(&s), "{b}");
    let (s, b) = app.get(&path, Some(&manager)).await;
    assert_error(s, &b, 403, "forbidden");
    let (s, e) =
        app.put(&format!("/api/v1/events/{event}/teams/{team}"), Some(&org), Some(json!({"role": "HOME"}))).await;
    assert_eq!(s, 200, "{e}");
    let (s, page) = app.get(&path, Some(&manager)).await;
    assert_eq!(s, 200, "{page}");
    let (_, e) = app.get(&format!("/api/v1/events/{event}"), Some(&manager)).await;
    assert_eq!(
        (e["viewer"]["canReadHistory"].as_bool(), e["viewer"]["isOrganiser"].as_bool()),
        (Some(true), Some(false))
    );
    let (s, b) = app.put(&format!("/api/v1/events/{event}/rsvp-rules"), Some(&manager), Some(json!({}))).await;
    assert_error(s, &b, 403, "forbidden");
    let (s, b) = app.get(&path, None).await;
    assert_error(s, &b, 401, "unauthorized");
    let (s, b) = app.get("/api/v1/events/nope/history", Some(&org)).await;
    assert_error(s, &b, 404, "not_found");
    for bad in ["?limit=0", "?limit=101", "?limit=2.5", "?cursor=garbage"] {
        let (s, b) = app.get(&format!("{path}{bad}"), Some(&org)).await;
        assert_error(s, &b, 422, "validation_failed");
    }
}

#[actix_web::test]
async fn a_series_record_counts_attended_late_drop_outs_and_no_shows_and_a_player_sees_only_their_own() {
    let (app, clock) = spawn_app_with_offset_clock().await;
    let org = app.user("organiser").await;
    let (ann, bob, cat) = (app.user("ann").await, app.user("bob").await, app.user("cat").await);
    let stranger = app.user("stranger").await;
    let start = now_ms() + 2 * HOUR_MS;
    let until = chrono::DateTime::<chrono::Utc>::from_timestamp_millis(start + 15 * DAY_MS).unwrap();
    let (first, series) = pickup(
        &app,
        &org,
        start,
        10,
        json!({"repeat": {"frequency": "WEEKLY", "until": until.format("%Y-%m-%d").to_string()}}),
    )
    .await;
    let series = series.expect("a series");
    let (_, doc) = app.get(&format!("/api/v1/event-series/{series}"), Some(&org)).await;
    let weeks: Vec<String> =
        doc["events"].as_array().unwrap().iter().map(|e| e["id"].as_str().unwrap().to_string()).collect();
    assert_eq!(weeks.len(), 3, "{doc}");
    assert_eq!(weeks[0], first);

    // Week 1 (in two hours): ann and bob in, cat drops out late; check-in
    // used, only ann checked in.
    for p in [&ann, &bob, &cat] {
        answer(&app, p, &weeks[0], "ATTENDING").await;
    }
    answer(&app, &cat, &weeks[0], "DECLINED").await;
    check_in(&app, &org, &weeks[0], &ann).await;
    // Week 2: ann and bob in, no check-in. Week 3: ann in, not yet played.
    answer(&app, &ann, &weeks[1], "ATTENDING").await;
    answer(&app, &bob, &weeks[1], "ATTENDING").await;
    answer(&app, &ann, &weeks[2], "ATTENDING").await;
    app.settled().await;

    // Eight days on: weeks 1 and 2 are over.
    clock.store(8 * DAY_MS, Ordering::SeqCst);
    let path = format!("/api/v1/event-series/{series}/record");
    let (s, record) = app.get(&path, Some(&org)).await;
    assert_eq!(s, 200, "{record}");
    let rows: Vec<(String, i64, i64, i64)> = record["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["displayName"].as_str().unwrap().to_string(),
                r["attended"].as_i64().unwrap(),
                r["lateDropOuts"].as_i64().unwrap(),
                r["noShows"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        vec![("ann".to_string(), 2, 0, 0), ("bob".to_string(), 1, 0, 1), ("cat".to_string(), 0, 1, 0)],
        "{record}"
    );

    // A player sees their own line; someone who never answered, none.
    let (s, own) = app.get(&path, Some(&bob)).await;
    assert_eq!(s, 200, "{own}");
    let own = own["items"].as_array().unwrap();
    assert_eq!(own.len(), 1, "{own:?}");
    assert_eq!((own[0]["userId"].as_str(), own[0]["noShows"].as_i64()), (Some(bob.id.as_str()), Some(1)));
    let (s, none) = app.get(&path, Some(&stranger)).await;
    assert_eq!((s, none["items"].as_array().map(Vec::len)), (200, Some(0)), "{none}");
    let (s, b) = app.get(&path, None).await;
    assert_error(s, &b, 401, "unauthorized");
    let (s, b) = app.get("/api/v1/event-series/nope/record", Some(&org)).await;
    assert_error(s, &b, 404, "not_found");
}
