//! Statuses and the sub market (docs/statuses.md): who posts what, expiry,
//! statuses that clear themselves, the board's filters, matches, the race
//! for the last goalie place, and the live `matches` and `spots:` topics.

use crate::helpers::*;
use crate::rosters::{add, facility, id, roster, season, team};
use serde_json::{Value, json};
use std::sync::atomic::Ordering;
use std::time::Duration;

const HOUR: i64 = 3_600_000;

fn at(ms_from_now: i64) -> String {
    rinkside::time::to_rfc3339(chrono::Utc::now().timestamp_millis() + ms_from_now)
}

fn ms(rfc3339: &Value) -> i64 {
    rinkside::time::parse_rfc3339(rfc3339.as_str().unwrap()).unwrap()
}

async fn post_status(app: &TestApp, who: &TestUser, body: Value) -> Value {
    let (s, b) = app.post("/api/v1/statuses", Some(who), body).await;
    assert_eq!(s, 201, "{b}");
    b
}

/// An event starting in `hours`, with limits.
async fn event(app: &TestApp, by: &TestUser, hours: i64, skaters: i64, goalies: i64, extra: Value) -> String {
    let mut body = json!({"title": "Tuesday pickup", "startDate": at(hours * HOUR), "eventType": "OTHER",
                          "maxSkaters": skaters, "maxGoalies": goalies});
    if let (Value::Object(b), Value::Object(e)) = (&mut body, extra) {
        b.extend(e);
    }
    let (s, b) = app.post("/api/v1/events", Some(by), body).await;
    assert_eq!(s, 201, "{b}");
    id(&b)
}

async fn rsvp(app: &TestApp, who: &TestUser, event: &str, action: &str, position: &str) -> Value {
    let (s, b) = app
        .put(&format!("/api/v1/events/{event}/rsvp"), Some(who), Some(json!({"action": action, "position": position})))
        .await;
    assert_eq!(s, 200, "{b}");
    b
}

fn ids(list: &Value) -> Vec<String> {
    list["items"].as_array().unwrap().iter().map(|s| s["id"].as_str().unwrap().to_string()).collect()
}

async fn board(app: &TestApp, who: &TestUser, query: &str) -> Vec<String> {
    let (s, b) = app.get(&format!("/api/v1/statuses{query}"), Some(who)).await;
    assert_eq!(s, 200, "{b}");
    ids(&b)
}

#[actix_web::test]
async fn people_post_for_themselves_and_teams_for_themselves_with_sensible_expiries() {
    let app = spawn_app().await;
    let (ann, bo) = (app.user("ann").await, app.user("bob").await);
    let owls = team(&app, &ann, None).await;
    let before = app.count("statuses").await;
    for (who, body, field) in [
        (&ann, json!({"type": "RECRUITING", "entityType": "USER"}), "type"),
        (&ann, json!({"type": "AVAILABLE_TO_SUB", "entityType": "TEAM", "teamId": owls}), "type"),
        (&ann, json!({"type": "RECRUITING", "entityType": "TEAM"}), "teamId"),
        (&ann, json!({"type": "LOOKING_FOR_TEAM", "entityType": "USER", "teamId": owls}), "teamId"),
        (&ann, json!({"type": "AVAILABLE_TO_SUB", "entityType": "USER", "expiresAt": at(-HOUR)}), "expiresAt"),
        (&ann, json!({"type": "LOOKING_FOR_TEAM", "entityType": "USER", "expiresAt": at(91 * 24 * HOUR)}), "expiresAt"),
        (
            &ann,
            json!({"type": "AVAILABLE_TO_SUB", "entityType": "USER", "positions": ["GOALIE", "GOALIE"]}),
            "positions",
        ),
        (&ann, json!({"type": "AVAILABLE_TO_SUB", "entityType": "USER", "message": "x".repeat(501)}), "message"),
    ] {
        let (s, b) = app.post("/api/v1/statuses", Some(who), body.clone()).await;
        assert_error(s, &b, 422, "validation_failed");
        assert!(b["error"]["details"][field].is_string(), "{body} → {b}");
    }
    let (s, b) = app
        .post("/api/v1/statuses", Some(&bo), json!({"type": "RECRUITING", "entityType": "TEAM", "teamId": owls}))
        .await;
    assert_error(s, &b, 403, "forbidden");
    assert_eq!(app.count("statuses").await, before, "a refused status changes nothing");

    let now = chrono::Utc::now().timestamp_millis();
    let sub =
        post_status(&app, &ann, json!({"type": "AVAILABLE_TO_SUB", "entityType": "USER", "positions": ["GOALIE"]}))
            .await;
    let ends = ms(&sub["expiresAt"]);
    assert!(ends > now && ends <= now + 24 * HOUR, "available to sub ends tonight: {sub}");
    assert_eq!(sub["positions"], json!(["GOALIE"]));
    assert_eq!(sub["user"]["username"], "ann");
    let looking = post_status(&app, &bo, json!({"type": "LOOKING_FOR_TEAM", "entityType": "USER"})).await;
    let ends = ms(&looking["expiresAt"]);
    assert!((ends - now - 30 * 24 * HOUR).abs() < HOUR, "looking for a team lasts 30 days: {looking}");
    let recruiting = post_status(
        &app,
        &ann,
        json!({"type": "RECRUITING", "entityType": "TEAM", "teamId": owls, "message": "Need a D"}),
    )
    .await;
    assert_eq!(
        (recruiting["team"]["name"].as_str(), recruiting["userId"].as_str()),
        (Some("Ice Owls"), Some(ann.id.as_str()))
    );
    let (s, b) = app
        .post("/api/v1/statuses", Some(&ann), json!({"type": "RECRUITING", "entityType": "TEAM", "teamId": owls}))
        .await;
    assert_error(s, &b, 409, "conflict");

    // Edit and take down: only the same people.
    let path = format!("/api/v1/statuses/{}", recruiting["id"].as_str().unwrap());
    let (s, b) = app.patch(&path, Some(&bo), json!({"message": "mine now"})).await;
    assert_error(s, &b, 403, "forbidden");
    let (s, b) = app.patch(&path, Some(&ann), json!({"message": null, "positions": ["LEFT_DEFENSE"]})).await;
    assert_eq!(s, 200, "{b}");
    assert_eq!((b["message"].clone(), b["positions"].clone()), (Value::Null, json!(["LEFT_DEFENSE"])));
    let (s, _) = app.delete(&path, Some(&ann)).await;
    assert_eq!(s, 204);
    assert!(!board(&app, &bo, "").await.contains(&recruiting["id"].as_str().unwrap().to_string()));
}

#[actix_web::test]
async fn an_expired_status_is_never_listed_or_matched() {
    let (app, clock) = spawn_app_with_offset_clock().await;
    let (sub, captain) = (app.user("sub").await, app.user("captain").await);
    let owls = team(&app, &captain, None).await;
    let mine =
        post_status(&app, &sub, json!({"type": "AVAILABLE_TO_SUB", "entityType": "USER", "expiresAt": at(HOUR)})).await;
    let call = post_status(
        &app,
        &captain,
        json!({"type": "LOOKING_FOR_SUBS", "entityType": "TEAM", "teamId": owls, "expiresAt": at(3 * HOUR)}),
    )
    .await;
    let (_, m) = app.get("/api/v1/me/matches", Some(&captain)).await;
    assert_eq!(m["items"].as_array().unwrap().len(), 1, "{m}");
    assert_eq!(m["items"][0]["theirs"]["id"], mine["id"]);
    assert!(board(&app, &captain, "").await.contains(&mine["id"].as_str().unwrap().to_string()));

    clock.fetch_add(2 * HOUR, Ordering::SeqCst);
    let listed = board(&app, &captain, "").await;
    assert_eq!(listed, vec![call["id"].as_str().unwrap().to_string()], "the sub's status expired an hour ago");
    let (_, m) = app.get("/api/v1/me/matches", Some(&captain)).await;
    assert_eq!(m["items"], json!([]));
    let (_, mine_now) = app.get("/api/v1/me/statuses", Some(&sub)).await;
    assert_eq!(mine_now["items"], json!([]));
    // Its owner can still read it; it cannot be edited back to life.
    let path = format!("/api/v1/statuses/{}", mine["id"].as_str().unwrap());
    let (s, _) = app.get(&path, Some(&sub)).await;
    assert_eq!(s, 200);
    let (s, b) = app.patch(&path, Some(&sub), json!({"expiresAt": at(5 * HOUR)})).await;
    assert_error(s, &b, 409, "conflict");
}

#[actix_web::test]
async fn looking_for_a_team_ends_when_the_person_joins_an_active_roster() {
    let app = spawn_app().await;
    let (rink, coach, drifter) = (app.user("rink").await, app.user("coach").await, app.user("drifter").await);
    let fac = facility(&app, &rink).await;
    let season = season(&app, &rink, &fac).await;
    let owls = team(&app, &coach, Some(&fac)).await;
    let draft = roster(&app, &coach, &owls, &season, json!({})).await;
    let looking = post_status(&app, &drifter, json!({"type": "LOOKING_FOR_TEAM", "entityType": "USER"})).await;
    let looking_id = looking["id"].as_str().unwrap().to_string();
    let (s, b) = add(&app, &coach, &draft, &drifter, json!({})).await;
    assert_eq!(s, 201, "{b}");
    assert!(board(&app, &coach, "").await.contains(&looking_id), "a draft roster is not a team yet");
    let (s, b) = app.patch(&format!("/api/v1/rosters/{draft}"), Some(&coach), json!({"status": "ACTIVE"})).await;
    assert_eq!(s, 200, "{b}");
    assert!(!board(&app, &coach, "").await.contains(&looking_id), "the roster went active: they found a team");

    // Joining an active roster directly ends it too.
    let again = post_status(&app, &drifter, json!({"type": "LOOKING_FOR_TEAM", "entityType": "USER"})).await;
    let rays = team(&app, &coach, Some(&fac)).await;
    let active = roster(&app, &coach, &rays, &season, json!({"status": "ACTIVE"})).await;
    let (s, b) = add(&app, &coach, &active, &drifter, json!({})).await;
    assert_eq!(s, 201, "{b}");
    assert!(!board(&app, &coach, "").await.contains(&again["id"].as_str().unwrap().to_string()));
    let (_, mine) = app.get("/api/v1/me/statuses", Some(&drifter)).await;
    assert_eq!(mine["items"], json!([]));
}

#[actix_web::test]
async fn an_events_call_for_a_goalie_ends_when_the_goalie_place_fills() {
    let app = spawn_app().await;
    let (org, goalie, stranger) = (app.user("org").await, app.user("goalie").await, app.user("stranger").await);
    let ev = event(&app, &org, 5, 10, 1, json!({})).await;
    let call = json!({"type": "LOOKING_FOR_SUBS", "entityType": "USER", "eventId": ev});
    let (s, b) = app.post("/api/v1/statuses", Some(&stranger), call.clone()).await;
    assert_error(s, &b, 403, "forbidden");
    let posted = post_status(
        &app,
        &org,
        json!({"type": "LOOKING_FOR_SUBS", "entityType": "USER", "eventId": ev, "positions": ["GOALIE"]}),
    )
    .await;
    assert_eq!(posted["expiresAt"], posted["event"]["startDate"], "a call expires at puck drop");
    assert_eq!(posted["event"]["open"], json!({"skaters": 10, "goalies": 1}));
    let (s, b) = app.post("/api/v1/statuses", Some(&org), call).await;
    assert_error(s, &b, 409, "conflict");
    let posted_id = posted["id"].as_str().unwrap().to_string();
    assert!(board(&app, &stranger, "?type=LOOKING_FOR_SUBS&position=GOALIE").await.contains(&posted_id));
    // The game moves an hour later: the call follows its puck drop.
    let later = at(6 * HOUR);
    let (s, b) = app.patch(&format!("/api/v1/events/{ev}"), Some(&org), json!({"startDate": later})).await;
    assert_eq!(s, 200, "{b}");
    let (_, moved) = app.get(&format!("/api/v1/statuses/{posted_id}"), Some(&org)).await;
    assert_eq!(ms(&moved["expiresAt"]), ms(&b["startDate"]));

    rsvp(&app, &goalie, &ev, "ATTENDING", "GOALIE").await;
    // Settled by the commit's follow-up record, a few milliseconds later.
    app.settled().await;
    assert!(!board(&app, &stranger, "").await.contains(&posted_id), "the goalie place is filled");
    let (_, mine) = app.get("/api/v1/me/statuses", Some(&org)).await;
    assert_eq!(mine["items"], json!([]));
    // A team's call for an event needs the team on the event.
    let owls = team(&app, &org, None).await;
    let team_call = json!({"type": "LOOKING_FOR_SUBS", "entityType": "TEAM", "teamId": owls, "eventId": ev, "positions": ["CENTER"]});
    let (s, b) = app.post("/api/v1/statuses", Some(&org), team_call.clone()).await;
    assert_error(s, &b, 422, "validation_failed");
    assert!(b["error"]["details"]["eventId"].is_string(), "{b}");
    let (s, b) = app.put(&format!("/api/v1/events/{ev}/teams/{owls}"), Some(&org), Some(json!({"role": "HOME"}))).await;
    assert!((200..300).contains(&s), "{b}");
    let posted_for_team = post_status(&app, &org, team_call).await;
    assert_eq!(
        (posted_for_team["team"]["name"].as_str(), posted_for_team["expiresAt"].clone()),
        (Some("Ice Owls"), posted_for_team["event"]["startDate"].clone())
    );
    // Full for goalies: a new call for a goalie has nothing to ask for.
    let (s, b) = app
        .post(
            "/api/v1/statuses",
            Some(&org),
            json!({"type": "LOOKING_FOR_SUBS", "entityType": "USER", "eventId": ev, "positions": ["GOALIE"]}),
        )
        .await;
    assert_error(s, &b, 409, "conflict");
}

#[actix_web::test]
async fn two_subs_racing_for_the_last_goalie_place_get_exactly_one_attending() {
    let app = spawn_app().await;
    let org = app.user("org").await;
    let ev = event(&app, &org, 4, 10, 1, json!({})).await;
    let mut subs = Vec::new();
    for name in ["goalie1", "goalie2", "goalie3", "goalie4"] {
        let who = app.user(name).await;
        post_status(&app, &who, json!({"type": "AVAILABLE_TO_SUB", "entityType": "USER", "positions": ["GOALIE"], "expiresAt": at(6 * HOUR)})).await;
        subs.push(who);
    }
    let path = format!("/api/v1/events/{ev}/take-spot");
    let taps = subs.iter().map(|who| app.post(&path, Some(who), json!({})));
    let replies = futures_util::future::join_all(taps).await;
    let mut attending = 0;
    let mut ranks = Vec::new();
    for (s, b) in &replies {
        assert_eq!(*s, 200, "{b}");
        match b["status"].as_str() {
            Some("ATTENDING") => {
                attending += 1;
                assert_eq!(b["endedStatusIds"].as_array().unwrap().len(), 1, "taking the spot ends being available");
            }
            Some("WAITLISTED") => {
                ranks.push(b["waitlistRank"].as_i64().unwrap());
                assert_eq!(b["endedStatusIds"], json!([]), "a waitlisted sub stays available");
            }
            other => panic!("{other:?} {b}"),
        }
    }
    ranks.sort();
    assert_eq!((attending, ranks), (1, vec![1, 2, 3]));
    let (_, doc) = app.get(&format!("/api/v1/events/{ev}/attendees"), Some(&org)).await;
    assert_eq!(doc["counts"]["goalies"], 1);
    assert_eq!(doc["counts"]["waitlistGoalies"], 3);
    // The losers still match nothing here: the event is no longer short.
    let (_, m) = app.get("/api/v1/me/matches", Some(&subs[0])).await;
    assert_eq!(m["items"], json!([]));
}

#[actix_web::test]
async fn subs_match_teams_by_position_and_level_and_open_spots_by_role() {
    let app = spawn_app().await;
    let (rink, captain) = (app.user("rink").await, app.user("captain").await);
    let fac = facility(&app, &rink).await;
    let season = season(&app, &rink, &fac).await;
    let (s, b) = app
        .post(
            &format!("/api/v1/seasons/{season}/division-mappings"),
            Some(&rink),
            json!({"facilityDivisionName": "C1", "universalDivisionScale": "INTERMEDIATE"}),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    let c1 = id(&b);
    let owls = team(&app, &captain, Some(&fac)).await;
    roster(&app, &captain, &owls, &season, json!({"status": "ACTIVE", "divisionMappingId": c1})).await;
    let call = post_status(
        &app,
        &captain,
        json!({"type": "LOOKING_FOR_SUBS", "entityType": "TEAM", "teamId": owls, "positions": ["GOALIE"], "expiresAt": at(8 * HOUR)}),
    )
    .await;
    assert_eq!(call["level"], "INTERMEDIATE");

    // Skill levels place people without a division: ADVANCED is 6, one step
    // from INTERMEDIATE (5); PROFESSIONAL is 8.
    let mut people = Vec::new();
    for (name, position, skill) in
        [("close", "GOALIE", "ADVANCED"), ("far", "GOALIE", "PROFESSIONAL"), ("skater", "CENTER", "INTERMEDIATE")]
    {
        let who = app.user(name).await;
        let (s, b) =
            app.post("/api/v1/me/positions", Some(&who), json!({"position": position, "skillLevel": skill})).await;
        assert_eq!(s, 201, "{b}");
        let st = post_status(&app, &who, json!({"type": "AVAILABLE_TO_SUB", "entityType": "USER", "positions": [position], "expiresAt": at(8 * HOUR)})).await;
        people.push((who, st));
    }
    assert_eq!(people[0].1["level"], "ADVANCED");
    let (_, m) = app.get("/api/v1/me/matches", Some(&captain)).await;
    let theirs: Vec<&str> =
        m["items"].as_array().unwrap().iter().map(|x| x["theirs"]["user"]["username"].as_str().unwrap()).collect();
    assert_eq!(theirs, vec!["close"], "{m}");
    let (_, m) = app.get("/api/v1/me/matches", Some(&people[0].0)).await;
    assert_eq!(m["items"][0]["theirs"]["id"], call["id"]);
    assert_eq!(m["items"][0]["mine"]["id"], people[0].1["id"]);

    // An event short of a goalie is an open spot for the goalies, not the skater.
    let ev = event(&app, &rink, 3, 0, 1, json!({"facilityId": fac})).await;
    let (_, m) = app.get("/api/v1/me/matches", Some(&people[1].0)).await;
    let spot = m["items"].as_array().unwrap().iter().find(|x| x["event"]["id"] == ev.as_str()).expect("an open spot");
    assert_eq!((spot["theirs"].clone(), spot["event"]["open"]["goalies"].clone()), (Value::Null, json!(1)));
    let (_, m) = app.get("/api/v1/me/matches", Some(&people[2].0)).await;
    assert!(m["items"].as_array().unwrap().iter().all(|x| x["event"]["id"] != ev.as_str()), "{m}");

    // The board: type, position, facility and level.
    let all = |list: &[&Value]| list.iter().map(|v| v["id"].as_str().unwrap().to_string()).collect::<Vec<_>>();
    let listed = board(&app, &captain, "?type=AVAILABLE_TO_SUB&position=GOALIE").await;
    assert_eq!(listed, all(&[&people[1].1, &people[0].1]), "newest first");
    let listed = board(&app, &captain, "?division=INTERMEDIATE").await;
    assert_eq!(listed, all(&[&people[2].1, &people[0].1, &call]));
    let listed = board(&app, &captain, &format!("?facilityId={fac}")).await;
    assert_eq!(listed, all(&[&call]), "only the team plays at the rink");
    let (_, page) = app.get("/api/v1/statuses?limit=2", Some(&captain)).await;
    let (_, rest) = app
        .get(&format!("/api/v1/statuses?limit=2&cursor={}", page["nextCursor"].as_str().unwrap()), Some(&captain))
        .await;
    assert_eq!(ids(&page).len() + ids(&rest).len(), 4);
    let (s, b) = app.get("/api/v1/statuses?division=PRO", Some(&captain)).await;
    assert_error(s, &b, 422, "validation_failed");
}

/// The next update that `wanted` accepts: a fan-out of an earlier commit
/// (the first goalie's answer) may still arrive after subscribing.
async fn next_update(ws: &mut Ws, wanted: impl Fn(&Value) -> bool) -> Option<Value> {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    loop {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        let up = ws.next_of("update", left).await?;
        if wanted(&up["data"]) {
            return Some(up);
        }
    }
}

#[actix_web::test]
async fn a_sub_is_told_live_when_an_event_becomes_short_and_when_it_fills() {
    let app = spawn_app().await;
    let (org, keeper, sub, other) =
        (app.user("org").await, app.user("keeper").await, app.user("sub").await, app.user("other").await);
    let fac = facility(&app, &org).await;
    let ev = event(&app, &org, 3, 0, 1, json!({"facilityId": fac})).await;
    rsvp(&app, &keeper, &ev, "ATTENDING", "GOALIE").await;
    post_status(
        &app,
        &sub,
        json!({"type": "AVAILABLE_TO_SUB", "entityType": "USER", "positions": ["GOALIE"], "expiresAt": at(6 * HOUR)}),
    )
    .await;
    let mut ws = app.ws().await;
    ws.auth(&sub).await;
    let snap = ws.subscribe("matches").await;
    assert_eq!(snap["data"]["items"], json!([]), "the goalie place is taken");
    let mut lobby = app.ws().await;
    let doc = lobby.subscribe(&format!("spots:{fac}")).await;
    assert_eq!(doc["data"]["events"], json!([]));

    rsvp(&app, &keeper, &ev, "DECLINED", "GOALIE").await;
    let up = next_update(&mut ws, |d| d["op"] == "upsert").await.expect("the new open spot, live");
    assert_eq!((up["topic"].as_str(), up["data"]["op"].as_str()), (Some("matches"), Some("upsert")));
    assert_eq!(up["data"]["match"]["event"]["id"], ev.as_str());
    assert_eq!(up["data"]["match"]["event"]["open"]["goalies"], 1);
    let shown = next_update(&mut lobby, |d| d["events"] != json!([])).await.expect("the lobby display moves");
    assert_eq!(shown["data"]["events"][0]["id"], ev.as_str());

    rsvp(&app, &other, &ev, "ATTENDING", "GOALIE").await;
    let gone = next_update(&mut ws, |d| d["op"] == "drop").await.expect("the spot is gone, live");
    assert_eq!(gone["data"], json!({"op": "drop", "eventId": ev}));
    let shown = next_update(&mut lobby, |d| d["events"] == json!([])).await.expect("the lobby display empties");
    assert_eq!(shown["data"]["events"], json!([]));
}

#[actix_web::test]
async fn a_team_captain_sees_a_new_sub_appear_live() {
    let app = spawn_app().await;
    let (captain, sub) = (app.user("captain").await, app.user("sub").await);
    let owls = team(&app, &captain, None).await;
    post_status(
        &app,
        &captain,
        json!({"type": "LOOKING_FOR_SUBS", "entityType": "TEAM", "teamId": owls, "expiresAt": at(5 * HOUR)}),
    )
    .await;
    let mut ws = app.ws().await;
    ws.auth(&captain).await;
    ws.subscribe("matches").await;
    let posted =
        post_status(&app, &sub, json!({"type": "AVAILABLE_TO_SUB", "entityType": "USER", "expiresAt": at(5 * HOUR)}))
            .await;
    let up = next_update(&mut ws, |d| d["op"] == "upsert").await.expect("the sub, live");
    assert_eq!(up["data"]["match"]["theirs"]["id"], posted["id"]);
    let (s, _) = app.delete(&format!("/api/v1/statuses/{}", posted["id"].as_str().unwrap()), Some(&sub)).await;
    assert_eq!(s, 204);
    let down = next_update(&mut ws, |d| d["statusId"] == posted["id"]).await.expect("taken down, live");
    assert_eq!(down["data"], json!({"op": "drop", "statusId": posted["id"]}));
}
