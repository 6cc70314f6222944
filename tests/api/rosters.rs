//! Facilities, teams, seasons, division mappings, rosters, players and join
//! requests: every rule, every refusal with its code and no change behind
//! it, the feed facts, and the live `roster:ID` topic.

// Fixture helpers are not `#[test]` functions, so clippy.toml's
// allow-unwrap-in-tests does not reach them: a failed fixture should panic.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::helpers::*;
use serde_json::{Value, json};
use std::time::Duration;

// ---------------------------------------------------------------- fixtures

pub const START: &str = "2026-09-01T00:00:00Z";
pub const END: &str = "2027-03-31T00:00:00Z";

/// Tables a refused roster write must leave alone.
pub const ROSTER_TABLES: &[&str] =
    &["rosters", "roster_players", "roster_join_requests", "division_mappings", "seasons", "feed_items"];

pub fn id(body: &Value) -> String {
    body["id"].as_str().unwrap_or_else(|| panic!("no id in {body}")).to_string()
}

pub async fn facility(app: &TestApp, owner: &TestUser) -> String {
    let (s, b) = app
        .post("/api/v1/facilities", Some(owner), json!({"name": "Maple Arena", "timezone": "America/Toronto"}))
        .await;
    assert_eq!(s, 201, "{b}");
    id(&b)
}

pub async fn team(app: &TestApp, owner: &TestUser, facility: Option<&str>) -> String {
    let (s, b) = app.post("/api/v1/teams", Some(owner), json!({"name": "Ice Owls", "facilityId": facility})).await;
    assert_eq!(s, 201, "{b}");
    id(&b)
}

pub async fn season(app: &TestApp, by: &TestUser, facility: &str) -> String {
    let (s, b) = app
        .post(
            &format!("/api/v1/facilities/{facility}/seasons"),
            Some(by),
            json!({"name": "Winter 2026", "startDate": START, "endDate": END}),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    id(&b)
}

pub async fn mapping(app: &TestApp, by: &TestUser, season: &str, name: &str) -> String {
    let (s, b) = app
        .post(
            &format!("/api/v1/seasons/{season}/division-mappings"),
            Some(by),
            json!({"facilityDivisionName": name, "universalDivisionScale": "RECREATIONAL"}),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    id(&b)
}

pub async fn roster(app: &TestApp, by: &TestUser, team: &str, season: &str, extra: Value) -> String {
    let mut body = json!({"teamId": team, "seasonId": season, "name": "Owls A"});
    if let (Some(b), Some(e)) = (body.as_object_mut(), extra.as_object()) {
        b.extend(e.clone());
    }
    let (s, b) = app.post("/api/v1/rosters", Some(by), body).await;
    assert_eq!(s, 201, "{b}");
    id(&b)
}

pub async fn put_manager(app: &TestApp, by: &TestUser, kind: &str, of: &str, user: &TestUser) {
    let (s, b) = app.put(&format!("/api/v1/{kind}/{of}/managers/{}", user.id), Some(by), None).await;
    assert_eq!(s, 204, "{b}");
}

pub async fn add(app: &TestApp, by: &TestUser, roster: &str, user: &TestUser, extra: Value) -> (u16, Value) {
    let mut body = json!({"userId": user.id});
    if let (Some(b), Some(e)) = (body.as_object_mut(), extra.as_object()) {
        b.extend(e.clone());
    }
    app.post(&format!("/api/v1/rosters/{roster}/players"), Some(by), body).await
}

pub async fn request(app: &TestApp, who: &TestUser, roster: &str) -> String {
    let (s, b) = app.post(&format!("/api/v1/rosters/{roster}/join-requests"), Some(who), json!({})).await;
    assert_eq!(s, 201, "{b}");
    id(&b)
}

/// A facility (owned by `rink`), a team based there (owned by `coach`), a
/// season of the facility and a roster of the team in it.
pub struct Club {
    pub facility: String,
    pub team: String,
    pub season: String,
    pub roster: String,
}

pub async fn club(app: &TestApp, rink: &TestUser, coach: &TestUser, roster_extra: Value) -> Club {
    let facility = facility(app, rink).await;
    let team = team(app, coach, Some(&facility)).await;
    let season = season(app, rink, &facility).await;
    let roster = roster(app, coach, &team, &season, roster_extra).await;
    Club { facility, team, season, roster }
}

/// `(type, resourceType, resourceId)` of a user's feed items.
pub async fn feed_of(app: &TestApp, user: &TestUser) -> Vec<(String, Option<String>, Option<String>)> {
    sqlx::query_as(
        "SELECT type, resource_type, resource_id FROM feed_items WHERE user_id = $1 ORDER BY created_at, type",
    )
    .bind(&user.id)
    .fetch_all(&app.state.db.pool)
    .await
    .unwrap()
}

fn players(roster: &Value) -> Vec<String> {
    roster["players"].as_array().unwrap().iter().map(|p| p["userId"].as_str().unwrap().to_string()).collect()
}

// ---------------------------------------------------------------- facilities and teams

#[actix_web::test]
async fn a_facility_is_edited_field_by_field_and_refuses_a_bad_time_zone() {
    let app = spawn_app().await;
    let owner = app.user("rinkowner").await;
    let f = facility(&app, &owner).await;
    let path = format!("/api/v1/facilities/{f}");
    let (s, page) = app
        .patch(
            &path,
            Some(&owner),
            json!({"name": "Maple Arena North", "timezone": "America/Vancouver", "phoneNumber": "+1 555 0100",
                   "email": "desk@maple.example", "website": "https://maple.example", "imageUrl": "https://maple.example/rink.jpg",
                   "description": "Two sheets."}),
        )
        .await;
    assert_eq!(s, 200, "{page}");
    assert_eq!(page["name"], "Maple Arena North");
    assert_eq!(page["timezone"], "America/Vancouver");
    assert_eq!(page["phoneNumber"], "+1 555 0100");
    assert_eq!(page["email"], "desk@maple.example");
    assert_eq!(page["website"], "https://maple.example");
    assert_eq!(page["imageUrl"], "https://maple.example/rink.jpg");
    assert_eq!(page["description"], "Two sheets.");
    assert_eq!(page["viewerRole"], "OWNER");

    // null clears an optional field; absent fields stay.
    let (s, page) = app.patch(&path, Some(&owner), json!({"phoneNumber": null})).await;
    assert_eq!(s, 200);
    assert_eq!(page["phoneNumber"], Value::Null);
    assert_eq!(page["email"], "desk@maple.example");

    let (_, before) = app.get(&path, None).await;
    let (s, body) = app.patch(&path, Some(&owner), json!({"timezone": "Mars/Olympus_Mons"})).await;
    assert_error(s, &body, 422, "validation_failed");
    assert!(body["error"]["details"]["timezone"].is_string(), "{body}");
    let (s, body) =
        app.post("/api/v1/facilities", Some(&owner), json!({"name": "Nowhere", "timezone": "EST5EDT6"})).await;
    assert_error(s, &body, 422, "validation_failed");
    let (s, body) = app.patch(&path, Some(&owner), json!({"website": "ftp://maple.example"})).await;
    assert_error(s, &body, 422, "validation_failed");
    let (s, body) = app.patch(&path, Some(&owner), json!({"ownerId": owner.id})).await;
    assert_error(s, &body, 422, "validation_failed");
    let (_, after) = app.get(&path, None).await;
    assert_eq!(before, after);
    assert_eq!(app.count("facilities").await, 1);
}

#[actix_web::test]
async fn a_facility_page_shows_managers_and_seasons_and_ownership_moves_on_transfer() {
    let app = spawn_app().await;
    let owner = app.user("rinkowner").await;
    let mgr = app.user("rinkmanager").await;
    let heir = app.user("heir").await;
    let f = facility(&app, &owner).await;
    put_manager(&app, &owner, "facilities", &f, &mgr).await;
    put_manager(&app, &owner, "facilities", &f, &mgr).await; // idempotent
    let s1 = season(&app, &mgr, &f).await;

    let (s, page) = app.get(&format!("/api/v1/facilities/{f}"), None).await;
    assert_eq!(s, 200);
    assert_eq!(page["managers"].as_array().unwrap().len(), 1);
    assert_eq!(page["managers"][0]["id"], mgr.id.as_str());
    assert_eq!(page["managers"][0]["username"], "rinkmanager");
    assert_eq!(page["seasons"][0]["id"], s1.as_str());
    assert_eq!(page["viewerRole"], Value::Null);
    let (_, page) = app.get(&format!("/api/v1/facilities/{f}"), Some(&mgr)).await;
    assert_eq!(page["viewerRole"], "MANAGER");
    let (s, list) = app.get(&format!("/api/v1/facilities/{f}/seasons"), None).await;
    assert_eq!(s, 200);
    assert_eq!(list["items"].as_array().unwrap().len(), 1);

    // The owner is no manager link: removing them is refused.
    let (s, body) = app.delete(&format!("/api/v1/facilities/{f}/managers/{}", owner.id), Some(&owner)).await;
    assert_error(s, &body, 422, "validation_failed");
    let (s, body) = app.put(&format!("/api/v1/facilities/{f}/managers/{}", owner.id), Some(&owner), None).await;
    assert_error(s, &body, 422, "validation_failed");
    let (s, body) = app.put(&format!("/api/v1/facilities/{f}/managers/no-such-user"), Some(&owner), None).await;
    assert_error(s, &body, 404, "not_found");
    // Managers cannot transfer.
    let (s, body) =
        app.post(&format!("/api/v1/facilities/{f}/transfer-ownership"), Some(&mgr), json!({"userId": mgr.id})).await;
    assert_error(s, &body, 403, "forbidden");

    let (s, page) =
        app.post(&format!("/api/v1/facilities/{f}/transfer-ownership"), Some(&owner), json!({"userId": heir.id})).await;
    assert_eq!(s, 200, "{page}");
    assert_eq!(page["ownerId"], heir.id.as_str());
    assert_eq!(page["creatorId"], owner.id.as_str());
    let managers: Vec<&str> = page["managers"].as_array().unwrap().iter().map(|m| m["id"].as_str().unwrap()).collect();
    assert!(managers.contains(&owner.id.as_str()) && managers.contains(&mgr.id.as_str()), "{page}");
    // The old owner, now a manager, may no longer transfer or delete.
    let (s, _) = app.delete(&format!("/api/v1/facilities/{f}"), Some(&owner)).await;
    assert_eq!(s, 403);
    // A manager may step down.
    let (s, _) = app.delete(&format!("/api/v1/facilities/{f}/managers/{}", mgr.id), Some(&mgr)).await;
    assert_eq!(s, 204);
    let (s, _) = app.patch(&format!("/api/v1/facilities/{f}"), Some(&mgr), json!({"description": "x"})).await;
    assert_eq!(s, 403);

    let (s, _) = app.delete(&format!("/api/v1/facilities/{f}"), Some(&heir)).await;
    assert_eq!(s, 204);
    let (s, _) = app.get(&format!("/api/v1/facilities/{f}"), None).await;
    assert_eq!(s, 404);
    assert_eq!(app.count("seasons").await, 0);
}

#[actix_web::test]
async fn a_team_is_edited_linked_to_a_facility_and_listed_there() {
    let app = spawn_app().await;
    let coach = app.user("coach").await;
    let rink = app.user("rink").await;
    let f = facility(&app, &rink).await;
    let t = team(&app, &coach, None).await;
    let path = format!("/api/v1/teams/{t}");
    let (s, page) = app
        .patch(&path, Some(&coach), json!({"name": "Night Owls", "facilityId": f, "logoUrl": "https://owls.example/logo.png", "description": "Beer league legends"}))
        .await;
    assert_eq!(s, 200, "{page}");
    assert_eq!(page["name"], "Night Owls");
    assert_eq!(page["facilityId"], f.as_str());
    assert_eq!(page["facilityName"], "Maple Arena");
    assert_eq!(page["logoUrl"], "https://owls.example/logo.png");
    assert_eq!(page["viewerRole"], "OWNER");
    assert_eq!(page["managers"], json!([]));
    assert_eq!(page["rosters"], json!([]));
    let (s, list) = app.get(&format!("/api/v1/facilities/{f}/teams"), None).await;
    assert_eq!(s, 200);
    assert_eq!(list["items"][0]["id"], t.as_str());

    let (_, before) = app.get(&path, None).await;
    let (s, body) = app.patch(&path, Some(&coach), json!({"facilityId": "no-such-facility"})).await;
    assert_error(s, &body, 422, "validation_failed");
    let (s, body) = app.patch(&path, Some(&coach), json!({"name": "  "})).await;
    assert_error(s, &body, 422, "validation_failed");
    let (_, after) = app.get(&path, None).await;
    assert_eq!(before, after);

    // The facility's owner has no say over a team based there.
    let (s, body) = app.patch(&path, Some(&rink), json!({"name": "Rink's Team"})).await;
    assert_error(s, &body, 403, "forbidden");

    let (s, page) = app.patch(&path, Some(&coach), json!({"facilityId": null})).await;
    assert_eq!(s, 200);
    assert_eq!(page["facilityId"], Value::Null);
    let (_, list) = app.get(&format!("/api/v1/facilities/{f}/teams"), None).await;
    assert_eq!(list["items"], json!([]));

    let (s, _) = app.delete(&path, Some(&coach)).await;
    assert_eq!(s, 204);
    assert_eq!(app.count("teams").await, 0);
}

#[actix_web::test]
async fn a_team_edit_is_pushed_on_its_topic() {
    let app = spawn_app().await;
    let coach = app.user("coach").await;
    let t = team(&app, &coach, None).await;
    let mut ws = app.ws().await;
    let snap = ws.subscribe(&format!("team:{t}")).await;
    let (s, _) = app.patch(&format!("/api/v1/teams/{t}"), Some(&coach), json!({"name": "Renamed"})).await;
    assert_eq!(s, 200);
    let update = ws.next_of("update", Duration::from_secs(5)).await.expect("team update");
    assert_eq!(update["data"]["name"], "Renamed");
    assert!(update["seq"].as_i64().unwrap() > snap["seq"].as_i64().unwrap());
}

// ---------------------------------------------------------------- seasons

#[actix_web::test]
async fn a_season_refuses_bad_dates_and_a_malformed_sync_url_and_changes_nothing() {
    let app = spawn_app().await;
    let rink = app.user("rink").await;
    let f = facility(&app, &rink).await;
    let path = format!("/api/v1/facilities/{f}/seasons");
    for (body, field) in [
        (json!({"name": "W", "startDate": START, "endDate": END, "syncUrl": "not a url"}), "syncUrl"),
        (
            json!({"name": "W", "startDate": START, "endDate": END, "syncUrl": "ftp://schedules.example/w.ics"}),
            "syncUrl",
        ),
        (json!({"name": "W", "startDate": START, "endDate": END, "syncUrl": "/relative/w.ics"}), "syncUrl"),
        (json!({"name": "W", "startDate": END, "endDate": START}), "endDate"),
        (json!({"name": "W", "startDate": "next tuesday", "endDate": END}), "startDate"),
        (json!({"name": "W", "startDate": START, "endDate": END, "syncEnabled": true}), "syncEnabled"),
        (json!({"name": "", "startDate": START, "endDate": END}), "name"),
    ] {
        let (s, b) = app.post(&path, Some(&rink), body.clone()).await;
        assert_error(s, &b, 422, "validation_failed");
        assert!(b["error"]["details"][field].is_string(), "{field} in {b} for {body}");
    }
    let (s, b) = app
        .post(&path, Some(&rink), json!({"name": "W", "startDate": START, "endDate": END, "lastSyncAt": START}))
        .await;
    assert_error(s, &b, 422, "validation_failed");
    assert_eq!(app.count("seasons").await, 0);

    let (s, season) = app
        .post(&path, Some(&rink), json!({"name": "Winter", "startDate": START, "endDate": END, "syncUrl": "https://schedules.example/w.ics", "syncEnabled": true}))
        .await;
    assert_eq!(s, 201, "{season}");
    assert_eq!(season["syncUrl"], "https://schedules.example/w.ics");
    assert_eq!(season["syncEnabled"], true);
    assert_eq!(season["lastSyncAt"], Value::Null);
    assert_eq!(season["isActive"], false);
    assert_eq!(season["startDate"], "2026-09-01T00:00:00.000Z");
    assert_eq!(season["divisionMappings"], json!([]));
    let sid = id(&season);
    let spath = format!("/api/v1/seasons/{sid}");

    let (_, before) = app.get(&spath, Some(&rink)).await;
    for body in [
        json!({"syncUrl": "htp:/broken"}),
        json!({"syncUrl": null}),
        json!({"endDate": "2020-01-01T00:00:00Z"}),
        json!({"lastSyncAt": START}),
    ] {
        let (s, b) = app.patch(&spath, Some(&rink), body.clone()).await;
        assert_error(s, &b, 422, "validation_failed");
    }
    let (_, after) = app.get(&spath, Some(&rink)).await;
    assert_eq!(before["updatedAt"], after["updatedAt"]);
    assert_eq!(before, after);

    // The sync URL is the facility staff's business.
    let (_, public) = app.get(&spath, None).await;
    assert_eq!(public["syncUrl"], Value::Null);
    assert_eq!(public["syncEnabled"], true);
    assert_eq!(public["viewerCanEdit"], false);

    let (s, season) =
        app.patch(&spath, Some(&rink), json!({"syncEnabled": false, "syncUrl": null, "name": "Winter League"})).await;
    assert_eq!(s, 200, "{season}");
    assert_eq!(season["syncUrl"], Value::Null);
    assert_eq!(season["name"], "Winter League");
}

#[actix_web::test]
async fn activating_a_season_tells_the_facility_followers_once() {
    let app = spawn_app().await;
    let rink = app.user("rink").await;
    let fan1 = app.user("fan1").await;
    let fan2 = app.user("fan2").await;
    let f = facility(&app, &rink).await;
    for u in [&fan1, &fan2, &rink] {
        let (s, _) = app.put(&format!("/api/v1/facilities/{f}/follow"), Some(u), None).await;
        assert_eq!(s, 204);
    }
    let sid = season(&app, &rink, &f).await;
    assert_eq!(app.count("feed_items").await, 0, "an inactive season is no news");

    let (s, body) = app.patch(&format!("/api/v1/seasons/{sid}"), Some(&rink), json!({"isActive": true})).await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["isActive"], true);
    let want = vec![("SEASON_STARTED".to_string(), Some("SEASON".to_string()), Some(sid.clone()))];
    assert_eq!(feed_of(&app, &fan1).await, want);
    assert_eq!(feed_of(&app, &fan2).await, want);
    assert_eq!(feed_of(&app, &rink).await, vec![], "the actor is not told what they did");
    let actor: Option<String> =
        sqlx::query_scalar("SELECT actor_id FROM feed_items LIMIT 1").fetch_one(&app.state.db.pool).await.unwrap();
    assert_eq!(actor.as_deref(), Some(rink.id.as_str()));

    // Already active: nothing new.
    app.patch(&format!("/api/v1/seasons/{sid}"), Some(&rink), json!({"isActive": true, "name": "Still Winter"})).await;
    assert_eq!(app.count("feed_items").await, 2);

    // Created active: told at once.
    let (s, _) = app
        .post(
            &format!("/api/v1/facilities/{f}/seasons"),
            Some(&rink),
            json!({"name": "Spring", "startDate": START, "endDate": END, "isActive": true}),
        )
        .await;
    assert_eq!(s, 201);
    assert_eq!(app.count("feed_items").await, 4);
}

// ---------------------------------------------------------------- division mappings

#[actix_web::test]
async fn the_division_scale_has_eight_levels_in_order() {
    let app = spawn_app().await;
    let (s, scale) = app.get("/api/v1/divisions/scale", None).await;
    assert_eq!(s, 200);
    let values: Vec<&str> = scale.as_array().unwrap().iter().map(|l| l["value"].as_str().unwrap()).collect();
    assert_eq!(
        values,
        ["LEARN_TO_PLAY", "BEGINNER", "NOVICE", "RECREATIONAL", "INTERMEDIATE", "ADVANCED", "COMPETITIVE", "ELITE"]
    );
    let levels: Vec<i64> = scale.as_array().unwrap().iter().map(|l| l["level"].as_i64().unwrap()).collect();
    assert_eq!(levels, (1..=8).collect::<Vec<_>>());
    assert_eq!(scale[0]["name"], "Learn to Play");
    assert!(scale.as_array().unwrap().iter().all(|l| l["description"].as_str().is_some_and(|d| d.len() > 20)));
}

#[actix_web::test]
async fn division_mappings_are_created_renamed_and_deleted_per_season() {
    let app = spawn_app().await;
    let rink = app.user("rink").await;
    let coach = app.user("coach").await;
    let c = club(&app, &rink, &coach, json!({})).await;
    let path = format!("/api/v1/seasons/{}/division-mappings", c.season);
    let (s, m) = app
        .post(
            &path,
            Some(&rink),
            json!({"facilityDivisionName": "C2", "universalDivisionScale": "NOVICE", "description": "Tuesday nights"}),
        )
        .await;
    assert_eq!(s, 201, "{m}");
    assert_eq!(m["universalDivisionScale"], "NOVICE");
    assert_eq!(m["level"], 3);
    assert_eq!(m["seasonId"], c.season.as_str());
    let mid = id(&m);

    let (s, b) =
        app.post(&path, Some(&rink), json!({"facilityDivisionName": "C2", "universalDivisionScale": "ELITE"})).await;
    assert_error(s, &b, 409, "division_name_taken");
    let (s, b) = app
        .post(&path, Some(&rink), json!({"facilityDivisionName": "D1", "universalDivisionScale": "PRETTY_GOOD"}))
        .await;
    assert_error(s, &b, 422, "validation_failed");
    assert!(b["error"]["details"]["universalDivisionScale"].is_string());
    assert_eq!(app.count("division_mappings").await, 1);

    // A roster placed in it shows it; an edit shows through.
    let (s, r) =
        app.patch(&format!("/api/v1/rosters/{}", c.roster), Some(&coach), json!({"divisionMappingId": mid})).await;
    assert_eq!(s, 200, "{r}");
    assert_eq!(r["division"]["facilityDivisionName"], "C2");
    let (s, m) = app
        .patch(
            &format!("/api/v1/division-mappings/{mid}"),
            Some(&rink),
            json!({"facilityDivisionName": "C1", "universalDivisionScale": "RECREATIONAL", "description": null}),
        )
        .await;
    assert_eq!(s, 200, "{m}");
    assert_eq!(m["description"], Value::Null);
    let (_, r) = app.get(&format!("/api/v1/rosters/{}", c.roster), None).await;
    assert_eq!(r["division"]["facilityDivisionName"], "C1");
    assert_eq!(r["division"]["universalDivisionScale"], "RECREATIONAL");
    assert_eq!(r["division"]["level"], 4);

    let (s, list) = app.get(&path, None).await;
    assert_eq!(s, 200);
    assert_eq!(list.as_array().unwrap().len(), 1);
    let (_, season) = app.get(&format!("/api/v1/seasons/{}", c.season), None).await;
    assert_eq!(season["divisionMappings"][0]["id"], mid.as_str());

    let (s, _) = app.delete(&format!("/api/v1/division-mappings/{mid}"), Some(&rink)).await;
    assert_eq!(s, 204);
    let (_, r) = app.get(&format!("/api/v1/rosters/{}", c.roster), None).await;
    assert_eq!(r["divisionMappingId"], Value::Null);
    assert_eq!(r["division"], Value::Null);
    let (s, _) = app.delete(&format!("/api/v1/division-mappings/{mid}"), Some(&rink)).await;
    assert_eq!(s, 404);
}

#[actix_web::test]
async fn a_roster_refuses_a_division_mapping_of_another_season() {
    let app = spawn_app().await;
    let rink = app.user("rink").await;
    let coach = app.user("coach").await;
    let c = club(&app, &rink, &coach, json!({})).await;
    let other_season = season(&app, &rink, &c.facility).await;
    let foreign = mapping(&app, &rink, &other_season, "A").await;
    let own = mapping(&app, &rink, &c.season, "A").await;

    let before = app.counts(ROSTER_TABLES).await;
    let (s, b) = app
        .post(
            "/api/v1/rosters",
            Some(&coach),
            json!({"teamId": c.team, "seasonId": c.season, "name": "B", "divisionMappingId": foreign}),
        )
        .await;
    assert_error(s, &b, 422, "validation_failed");
    assert!(b["error"]["details"]["divisionMappingId"].as_str().unwrap().contains("another season"), "{b}");
    let (_, roster_before) = app.get(&format!("/api/v1/rosters/{}", c.roster), None).await;
    let (s, b) =
        app.patch(&format!("/api/v1/rosters/{}", c.roster), Some(&coach), json!({"divisionMappingId": foreign})).await;
    assert_error(s, &b, 422, "validation_failed");
    assert_eq!(app.counts(ROSTER_TABLES).await, before);
    let (_, roster_after) = app.get(&format!("/api/v1/rosters/{}", c.roster), None).await;
    assert_eq!(roster_before, roster_after);

    let (s, b) = app
        .post(
            "/api/v1/rosters",
            Some(&coach),
            json!({"teamId": c.team, "seasonId": c.season, "name": "B", "divisionMappingId": own}),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    assert_eq!(b["divisionMappingId"], own.as_str());
}

// ---------------------------------------------------------------- rosters

#[actix_web::test]
async fn a_roster_moves_draft_active_archived_and_archived_is_read_only() {
    let app = spawn_app().await;
    let rink = app.user("rink").await;
    let coach = app.user("coach").await;
    let p1 = app.user("pat").await;
    let hopeful = app.user("hopeful").await;
    let late = app.user("late").await;
    let c = club(&app, &rink, &coach, json!({})).await;
    let rpath = format!("/api/v1/rosters/{}", c.roster);
    let (_, r) = app.get(&rpath, None).await;
    assert_eq!(r["status"], "DRAFT");
    let (s, b) = app
        .post(
            "/api/v1/rosters",
            Some(&coach),
            json!({"teamId": c.team, "seasonId": c.season, "name": "X", "status": "ARCHIVED"}),
        )
        .await;
    assert_error(s, &b, 422, "validation_failed");

    let (s, r) = app.patch(&rpath, Some(&coach), json!({"status": "ACTIVE"})).await;
    assert_eq!(s, 200, "{r}");
    assert_eq!(r["status"], "ACTIVE");
    let (s, b) = app.patch(&rpath, Some(&coach), json!({"status": "DRAFT"})).await;
    assert_error(s, &b, 409, "invalid_status_transition");

    assert_eq!(add(&app, &coach, &c.roster, &p1, json!({"jerseyNumber": 9})).await.0, 201);
    let pending = request(&app, &hopeful, &c.roster).await;
    let (s, r) = app.patch(&rpath, Some(&rink), json!({"status": "ARCHIVED"})).await;
    assert_eq!(s, 200, "the season's facility may archive: {r}");
    assert_eq!(r["status"], "ARCHIVED");
    let (_, q) = app.get(&format!("/api/v1/join-requests/{pending}"), Some(&hopeful)).await;
    assert_eq!(q["status"], "REJECTED", "archiving closes pending requests");

    let before = app.counts(ROSTER_TABLES).await;
    let (_, roster_before) = app.get(&rpath, None).await;
    let writes = [
        app.patch(&rpath, Some(&coach), json!({"name": "Renamed"})).await,
        app.patch(&rpath, Some(&coach), json!({"status": "ACTIVE"})).await,
        app.patch(&rpath, Some(&coach), json!({"status": "ARCHIVED"})).await,
        add(&app, &coach, &c.roster, &late, json!({})).await,
        app.patch(&format!("{rpath}/players/{}", p1.id), Some(&coach), json!({"jerseyNumber": 10})).await,
        app.delete(&format!("{rpath}/players/{}", p1.id), Some(&coach)).await,
        app.delete(&format!("{rpath}/players/{}", p1.id), Some(&p1)).await,
        app.post(&format!("{rpath}/join-requests"), Some(&late), json!({})).await,
    ];
    for (s, b) in writes {
        assert_error(s, &b, 409, "roster_archived");
    }
    assert_eq!(app.counts(ROSTER_TABLES).await, before);
    let (_, roster_after) = app.get(&rpath, None).await;
    assert_eq!(roster_before, roster_after);
}

#[actix_web::test]
async fn standings_and_stats_are_not_writable_here() {
    let app = spawn_app().await;
    let rink = app.user("rink").await;
    let coach = app.user("coach").await;
    let p1 = app.user("pat").await;
    let c = club(&app, &rink, &coach, json!({})).await;
    let before = app.counts(ROSTER_TABLES).await;
    let (s, b) = app
        .post("/api/v1/rosters", Some(&coach), json!({"teamId": c.team, "seasonId": c.season, "name": "X", "wins": 9}))
        .await;
    assert_error(s, &b, 422, "validation_failed");
    assert!(b["error"]["details"]["wins"].is_string(), "{b}");
    for field in ["wins", "losses", "ties", "points"] {
        let (s, b) = app.patch(&format!("/api/v1/rosters/{}", c.roster), Some(&coach), json!({field: 3})).await;
        assert_error(s, &b, 422, "validation_failed");
    }
    let (s, b) = add(&app, &coach, &c.roster, &p1, json!({"goals": 5})).await;
    assert_error(s, &b, 422, "validation_failed");
    assert_eq!(app.counts(ROSTER_TABLES).await, before);
    assert_eq!(add(&app, &coach, &c.roster, &p1, json!({})).await.0, 201);
    for field in ["goals", "assists", "penaltyMinutes", "gamesPlayed", "points"] {
        let (s, b) = app
            .patch(&format!("/api/v1/rosters/{}/players/{}", c.roster, p1.id), Some(&coach), json!({field: 1}))
            .await;
        assert_error(s, &b, 422, "validation_failed");
    }
}

#[actix_web::test]
async fn the_roster_page_lists_players_with_stats_and_what_the_viewer_may_do() {
    let app = spawn_app().await;
    let rink = app.user("rink").await;
    let coach = app.user("coach").await;
    let cap = app.user("cap").await;
    app.patch(
        "/api/v1/me",
        Some(&cap),
        json!({"firstName": "Cap", "lastName": "Tain", "profileImage": "https://img.example/cap.png"}),
    )
    .await;
    let c = club(&app, &rink, &coach, json!({"maxMembers": 20, "description": "A squad"})).await;
    let (s, p) = add(
        &app,
        &coach,
        &c.roster,
        &cap,
        json!({"jerseyNumber": 91, "position": "CENTER", "commitmentLevel": "FULL_TIME", "captain": true}),
    )
    .await;
    assert_eq!(s, 201, "{p}");
    assert_eq!(p["user"]["firstName"], "Cap");
    assert_eq!(p["points"], 0);
    sqlx::query(
        "UPDATE roster_players SET goals = 3, assists = 4, penalty_minutes = 2, games_played = 5 WHERE user_id = $1",
    )
    .bind(&cap.id)
    .execute(&app.state.db.pool)
    .await
    .unwrap();

    let (s, r) = app.get(&format!("/api/v1/rosters/{}", c.roster), None).await;
    assert_eq!(s, 200);
    assert_eq!(r["teamName"], "Ice Owls");
    assert_eq!(r["seasonName"], "Winter 2026");
    assert_eq!(r["facilityName"], "Maple Arena");
    assert_eq!(r["maxMembers"], 20);
    assert_eq!(r["memberCount"], 1);
    assert_eq!(r["wins"], 0);
    assert!(r["seq"].as_i64().unwrap() > 0);
    let player = &r["players"][0];
    for (k, v) in [
        ("userId", json!(cap.id)),
        ("jerseyNumber", json!(91)),
        ("position", json!("CENTER")),
        ("commitmentLevel", json!("FULL_TIME")),
        ("captain", json!(true)),
        ("alternateCaptain", json!(false)),
        ("goals", json!(3)),
        ("assists", json!(4)),
        ("penaltyMinutes", json!(2)),
        ("gamesPlayed", json!(5)),
        ("points", json!(7)),
    ] {
        assert_eq!(player[k], v, "{k} in {player}");
    }
    assert_eq!(
        player["user"],
        json!({"id": cap.id, "username": "cap", "firstName": "Cap", "lastName": "Tain", "profileImage": "https://img.example/cap.png"})
    );
    assert!(player["joinedAt"].as_str().unwrap().ends_with('Z'));
    assert_eq!(r["viewer"]["canEdit"], false);

    let (_, r) = app.get(&format!("/api/v1/rosters/{}", c.roster), Some(&cap)).await;
    assert_eq!(
        r["viewer"],
        json!({"isMember": true, "canEdit": false, "canManagePlayers": false, "canDecideRequests": true, "pendingRequestId": null})
    );
    let (_, r) = app.get(&format!("/api/v1/rosters/{}", c.roster), Some(&coach)).await;
    assert_eq!(r["viewer"]["canManagePlayers"], true);
    let (_, r) = app.get(&format!("/api/v1/rosters/{}", c.roster), Some(&rink)).await;
    assert_eq!((r["viewer"]["canEdit"].clone(), r["viewer"]["canManagePlayers"].clone()), (json!(true), json!(false)));

    // The team page lists its rosters by season.
    let (_, team) = app.get(&format!("/api/v1/teams/{}", c.team), None).await;
    assert_eq!(team["rosters"][0]["id"], c.roster.as_str());
    assert_eq!(team["rosters"][0]["memberCount"], 1);
    let (s, list) = app.get(&format!("/api/v1/teams/{}/rosters?seasonId={}", c.team, c.season), None).await;
    assert_eq!(s, 200);
    assert_eq!(list["items"].as_array().unwrap().len(), 1);
    let (_, list) = app.get(&format!("/api/v1/seasons/{}/rosters", c.season), None).await;
    assert_eq!(list["items"][0]["id"], c.roster.as_str());
}

// ---------------------------------------------------------------- players

#[actix_web::test]
async fn jersey_numbers_are_unique_on_a_roster_and_between_0_and_99() {
    let app = spawn_app().await;
    let rink = app.user("rink").await;
    let coach = app.user("coach").await;
    let (a, b, d) = (app.user("amy").await, app.user("bob").await, app.user("dan").await);
    let c = club(&app, &rink, &coach, json!({})).await;
    assert_eq!(add(&app, &coach, &c.roster, &a, json!({"jerseyNumber": 0})).await.0, 201);
    assert_eq!(add(&app, &coach, &c.roster, &b, json!({"jerseyNumber": 99})).await.0, 201);
    let before = app.counts(ROSTER_TABLES).await;
    let (s, body) = add(&app, &coach, &c.roster, &d, json!({"jerseyNumber": 0})).await;
    assert_error(s, &body, 409, "jersey_taken");
    for n in [100, -1] {
        let (s, body) = add(&app, &coach, &c.roster, &d, json!({"jerseyNumber": n})).await;
        assert_error(s, &body, 422, "validation_failed");
        assert!(body["error"]["details"]["jerseyNumber"].is_string());
    }
    let (s, body) = app
        .patch(&format!("/api/v1/rosters/{}/players/{}", c.roster, b.id), Some(&coach), json!({"jerseyNumber": 0}))
        .await;
    assert_error(s, &body, 409, "jersey_taken");
    let (s, body) = add(&app, &coach, &c.roster, &a, json!({})).await;
    assert_error(s, &body, 409, "already_on_roster");
    assert_eq!(app.counts(ROSTER_TABLES).await, before);

    // Keeping your own number, taking a free one, or none at all is fine.
    let ppath = format!("/api/v1/rosters/{}/players/{}", c.roster, b.id);
    assert_eq!(app.patch(&ppath, Some(&coach), json!({"jerseyNumber": 99})).await.0, 200);
    let (s, p) = app
        .patch(
            &ppath,
            Some(&coach),
            json!({"jerseyNumber": null, "position": "GOALIE", "commitmentLevel": "SUBSTITUTE"}),
        )
        .await;
    assert_eq!(s, 200, "{p}");
    assert_eq!(
        (p["jerseyNumber"].clone(), p["position"].clone(), p["commitmentLevel"].clone()),
        (Value::Null, json!("GOALIE"), json!("SUBSTITUTE"))
    );
    assert_eq!(add(&app, &coach, &c.roster, &d, json!({"jerseyNumber": 99})).await.0, 201);
    // The same number on another roster is fine.
    let other = roster(&app, &coach, &c.team, &c.season, json!({"name": "B"})).await;
    assert_eq!(add(&app, &coach, &other, &d, json!({"jerseyNumber": 99})).await.0, 201);
}

#[actix_web::test]
async fn a_roster_has_one_captain_and_at_most_two_alternates() {
    let app = spawn_app().await;
    let rink = app.user("rink").await;
    let coach = app.user("coach").await;
    let c = club(&app, &rink, &coach, json!({})).await;
    let mut people = Vec::new();
    for n in ["cap1", "cap2", "alt1", "alt2", "alt3", "xavier"] {
        people.push(app.user(n).await);
    }
    let [c1, c2, a1, a2, a3, x] = &people[..] else { unreachable!() };
    assert_eq!(add(&app, &coach, &c.roster, c1, json!({"captain": true})).await.0, 201);
    assert_eq!(add(&app, &coach, &c.roster, a1, json!({"alternateCaptain": true})).await.0, 201);
    assert_eq!(add(&app, &coach, &c.roster, a2, json!({"alternateCaptain": true})).await.0, 201);
    let before = app.counts(ROSTER_TABLES).await;
    let (s, b) = add(&app, &coach, &c.roster, c2, json!({"captain": true})).await;
    assert_error(s, &b, 409, "captain_taken");
    let (s, b) = add(&app, &coach, &c.roster, a3, json!({"alternateCaptain": true})).await;
    assert_error(s, &b, 409, "alternate_captains_full");
    let (s, b) = add(&app, &coach, &c.roster, x, json!({"captain": true, "alternateCaptain": true})).await;
    assert_error(s, &b, 422, "validation_failed");
    assert!(b["error"]["details"]["alternateCaptain"].is_string());
    // Promoting an alternate to captain while they keep the A is refused;
    // dropping the A is not enough while another player has the C.
    let a1path = format!("/api/v1/rosters/{}/players/{}", c.roster, a1.id);
    let (s, b) = app.patch(&a1path, Some(&coach), json!({"captain": true})).await;
    assert_error(s, &b, 422, "validation_failed");
    let (s, b) = app.patch(&a1path, Some(&coach), json!({"captain": true, "alternateCaptain": false})).await;
    assert_error(s, &b, 409, "captain_taken");
    let c1path = format!("/api/v1/rosters/{}/players/{}", c.roster, c1.id);
    let (s, b) = app.patch(&c1path, Some(&coach), json!({"alternateCaptain": true})).await;
    assert_error(s, &b, 422, "validation_failed");
    assert_eq!(app.counts(ROSTER_TABLES).await, before);
    let (_, r) = app.get(&format!("/api/v1/rosters/{}", c.roster), None).await;
    assert_eq!(r["players"].as_array().unwrap().iter().filter(|p| p["captain"] == true).count(), 1);
    assert_eq!(r["players"].as_array().unwrap().iter().filter(|p| p["alternateCaptain"] == true).count(), 2);

    // Hand the C over: take it off, then give it.
    assert_eq!(app.patch(&c1path, Some(&coach), json!({"captain": false})).await.0, 200);
    let (s, p) = app.patch(&a1path, Some(&coach), json!({"captain": true, "alternateCaptain": false})).await;
    assert_eq!(s, 200, "{p}");
    assert_eq!((p["captain"].clone(), p["alternateCaptain"].clone()), (json!(true), json!(false)));
    assert_eq!(add(&app, &coach, &c.roster, a3, json!({"alternateCaptain": true})).await.0, 201);
}

#[actix_web::test]
async fn max_members_holds_for_adds_and_approvals_and_cannot_drop_below_the_roster() {
    let app = spawn_app().await;
    let rink = app.user("rink").await;
    let coach = app.user("coach").await;
    let fan = app.user("fan").await;
    let (a, b, d) = (app.user("amy").await, app.user("bob").await, app.user("dan").await);
    let c = club(&app, &rink, &coach, json!({"maxMembers": 2})).await;
    let (s, body) = app
        .post(
            "/api/v1/rosters",
            Some(&coach),
            json!({"teamId": c.team, "seasonId": c.season, "name": "X", "maxMembers": 0}),
        )
        .await;
    assert_error(s, &body, 422, "validation_failed");
    app.put(&format!("/api/v1/teams/{}/follow", c.team), Some(&fan), None).await;
    assert_eq!(add(&app, &coach, &c.roster, &a, json!({})).await.0, 201);
    let q = request(&app, &d, &c.roster).await;
    assert_eq!(add(&app, &coach, &c.roster, &b, json!({})).await.0, 201);

    let before = app.counts(ROSTER_TABLES).await;
    let (s, body) = add(&app, &coach, &c.roster, &d, json!({})).await;
    assert_error(s, &body, 409, "roster_full");
    let (s, body) = app.post(&format!("/api/v1/join-requests/{q}/approve"), Some(&coach), json!({})).await;
    assert_error(s, &body, 409, "roster_full");
    let (s, body) = app.patch(&format!("/api/v1/rosters/{}", c.roster), Some(&coach), json!({"maxMembers": 1})).await;
    assert_error(s, &body, 409, "max_members_below_roster");
    assert_eq!(app.counts(ROSTER_TABLES).await, before, "nothing changed, not even the feed");
    let (_, req) = app.get(&format!("/api/v1/join-requests/{q}"), Some(&d)).await;
    assert_eq!(req["status"], "PENDING");

    // Room again: the same approval goes through.
    let (s, _) = app.patch(&format!("/api/v1/rosters/{}", c.roster), Some(&coach), json!({"maxMembers": 3})).await;
    assert_eq!(s, 200);
    let (s, req) = app.post(&format!("/api/v1/join-requests/{q}/approve"), Some(&coach), json!({})).await;
    assert_eq!(s, 200, "{req}");
    let (s, _) = app.patch(&format!("/api/v1/rosters/{}", c.roster), Some(&coach), json!({"maxMembers": null})).await;
    assert_eq!(s, 200);
}

#[actix_web::test]
async fn concurrent_approvals_never_overfill_a_roster() {
    let app = spawn_app().await;
    let rink = app.user("rink").await;
    let coach = app.user("coach").await;
    let c = club(&app, &rink, &coach, json!({"maxMembers": 3})).await;
    let mut requests = Vec::new();
    for i in 0..8 {
        let u = app.user(&format!("hopeful{i}")).await;
        requests.push(request(&app, &u, &c.roster).await);
    }
    let paths: Vec<String> = requests.iter().map(|q| format!("/api/v1/join-requests/{q}/approve")).collect();
    let answers = futures_util::future::join_all(paths.iter().map(|p| app.post(p, Some(&coach), json!({})))).await;
    let ok = answers.iter().filter(|(s, _)| *s == 200).count();
    assert_eq!(ok, 3, "{answers:?}");
    for (s, b) in answers.iter().filter(|(s, _)| *s != 200) {
        assert_error(*s, b, 409, "roster_full");
    }
    assert_eq!(app.count("roster_players").await, 3);
}

#[actix_web::test]
async fn a_player_may_leave_and_managers_may_remove_players() {
    let app = spawn_app().await;
    let rink = app.user("rink").await;
    let coach = app.user("coach").await;
    let (a, b) = (app.user("amy").await, app.user("bob").await);
    let c = club(&app, &rink, &coach, json!({})).await;
    add(&app, &coach, &c.roster, &a, json!({})).await;
    add(&app, &coach, &c.roster, &b, json!({})).await;
    let (s, body) = app.delete(&format!("/api/v1/rosters/{}/players/{}", c.roster, b.id), Some(&a)).await;
    assert_error(s, &body, 403, "forbidden");
    assert_eq!(app.delete(&format!("/api/v1/rosters/{}/players/{}", c.roster, a.id), Some(&a)).await.0, 204);
    assert_eq!(app.delete(&format!("/api/v1/rosters/{}/players/{}", c.roster, b.id), Some(&coach)).await.0, 204);
    let (s, body) = app.delete(&format!("/api/v1/rosters/{}/players/{}", c.roster, b.id), Some(&coach)).await;
    assert_error(s, &body, 404, "not_found");
    let (_, r) = app.get(&format!("/api/v1/rosters/{}", c.roster), None).await;
    assert_eq!(players(&r), Vec::<String>::new());
}

// ---------------------------------------------------------------- join requests

#[actix_web::test]
async fn a_join_request_is_asked_once_decided_once_and_joins_in_one_transaction() {
    let app = spawn_app().await;
    let rink = app.user("rink").await;
    let coach = app.user("coach").await;
    let cap = app.user("cap").await;
    let joe = app.user("joe").await;
    let joes_fan = app.user("joesfan").await;
    let team_fan = app.user("teamfan").await;
    let both = app.user("both").await;
    let c = club(&app, &rink, &coach, json!({})).await;
    add(&app, &coach, &c.roster, &cap, json!({"captain": true})).await;
    for u in [&joes_fan, &both] {
        assert_eq!(app.put(&format!("/api/v1/users/{}/follow", joe.id), Some(u), None).await.0, 204);
    }
    for u in [&team_fan, &both] {
        assert_eq!(app.put(&format!("/api/v1/teams/{}/follow", c.team), Some(u), None).await.0, 204);
    }
    let feed_before = app.count("feed_items").await;

    let jr = format!("/api/v1/rosters/{}/join-requests", c.roster);
    let (s, q) = app
        .post(
            &jr,
            Some(&joe),
            json!({"message": "I play D", "preferredPosition": "LEFT_DEFENSE", "commitmentLevel": "SUBSTITUTE"}),
        )
        .await;
    assert_eq!(s, 201, "{q}");
    assert_eq!(q["status"], "PENDING");
    assert_eq!(q["userId"], joe.id.as_str());
    assert_eq!(q["user"]["username"], "joe");
    assert_eq!(q["rosterName"], "Owls A");
    assert_eq!(q["teamName"], "Ice Owls");
    let qid = id(&q);

    let before = app.counts(ROSTER_TABLES).await;
    let (s, b) = app.post(&jr, Some(&joe), json!({})).await;
    assert_error(s, &b, 409, "request_pending");
    let (s, b) = app.post(&jr, Some(&cap), json!({})).await;
    assert_error(s, &b, 409, "already_on_roster");
    let (s, b) = app.post(&jr, Some(&joe), json!({"message": "x".repeat(1001)})).await;
    assert_error(s, &b, 422, "validation_failed");
    let (s, b) = app.post(&jr, Some(&joe), json!({"userId": cap.id})).await;
    assert_error(s, &b, 422, "validation_failed");
    assert_eq!(app.counts(ROSTER_TABLES).await, before);

    // Deciders see it with its message; the public document does not.
    let (s, list) = app.get(&format!("{jr}?status=PENDING"), Some(&cap)).await;
    assert_eq!(s, 200);
    assert_eq!(list["items"][0]["message"], "I play D");
    let (_, list) = app.get(&format!("{jr}?status=APPROVED"), Some(&coach)).await;
    assert_eq!(list["items"], json!([]));
    let (s, _) = app.get(&jr, Some(&joe)).await;
    assert_eq!(s, 403);
    let (_, mine) = app.get("/api/v1/me/join-requests", Some(&joe)).await;
    assert_eq!(mine["items"][0]["id"], qid.as_str());
    let (_, r) = app.get(&format!("/api/v1/rosters/{}", c.roster), Some(&joe)).await;
    assert_eq!(
        r["requests"][0],
        json!({"id": qid, "userId": joe.id, "status": "PENDING", "updatedAt": r["requests"][0]["updatedAt"]})
    );
    assert_eq!(r["viewer"]["pendingRequestId"], qid.as_str());
    assert!(!r.to_string().contains("I play D"));

    // A captain approves: Joe is on the roster with what he asked for.
    let (s, q) = app.post(&format!("/api/v1/join-requests/{qid}/approve"), Some(&cap), json!({})).await;
    assert_eq!(s, 200, "{q}");
    assert_eq!(q["status"], "APPROVED");
    assert_eq!(q["decidedById"], cap.id.as_str());
    let (_, r) = app.get(&format!("/api/v1/rosters/{}", c.roster), None).await;
    let joe_player = r["players"].as_array().unwrap().iter().find(|p| p["userId"] == joe.id.as_str()).unwrap().clone();
    assert_eq!(joe_player["position"], "LEFT_DEFENSE");
    assert_eq!(joe_player["commitmentLevel"], "SUBSTITUTE");

    // Feed: joined → Joe's followers and the team's (once each); roster updated → the team's.
    let joined = ("USER_JOINED_TEAM".to_string(), Some("ROSTER".to_string()), Some(c.roster.clone()));
    let updated = ("TEAM_ROSTER_UPDATED".to_string(), Some("ROSTER".to_string()), Some(c.roster.clone()));
    assert_eq!(feed_of(&app, &joes_fan).await, vec![joined.clone()]);
    let mut team_fans_feed = feed_of(&app, &team_fan).await;
    team_fans_feed.sort();
    assert_eq!(team_fans_feed, vec![updated.clone(), joined.clone()]);
    let mut both_feed = feed_of(&app, &both).await;
    both_feed.sort();
    assert_eq!(both_feed, vec![updated, joined]);
    assert_eq!(app.count("feed_items").await, feed_before + 5);

    // Deciding twice, or deciding a decided request, changes nothing.
    let before = app.counts(ROSTER_TABLES).await;
    for verb in ["approve", "reject"] {
        let (s, b) = app.post(&format!("/api/v1/join-requests/{qid}/{verb}"), Some(&coach), json!({})).await;
        assert_error(s, &b, 409, "not_pending");
    }
    let (s, b) = app.delete(&format!("/api/v1/join-requests/{qid}"), Some(&joe)).await;
    assert_error(s, &b, 409, "not_pending");
    assert_eq!(app.counts(ROSTER_TABLES).await, before);
}

#[actix_web::test]
async fn a_request_may_be_rejected_withdrawn_and_asked_again() {
    let app = spawn_app().await;
    let rink = app.user("rink").await;
    let coach = app.user("coach").await;
    let amy = app.user("amy").await;
    let c = club(&app, &rink, &coach, json!({})).await;
    let q1 = request(&app, &amy, &c.roster).await;
    let (s, q) = app.post(&format!("/api/v1/join-requests/{q1}/reject"), Some(&coach), json!({})).await;
    assert_eq!(s, 200);
    assert_eq!(q["status"], "REJECTED");
    let q2 = request(&app, &amy, &c.roster).await;
    let (s, b) = app.delete(&format!("/api/v1/join-requests/{q2}"), Some(&coach)).await;
    assert_error(s, &b, 403, "forbidden");
    assert_eq!(app.delete(&format!("/api/v1/join-requests/{q2}"), Some(&amy)).await.0, 204);
    let (s, _) = app.get(&format!("/api/v1/join-requests/{q2}"), Some(&amy)).await;
    assert_eq!(s, 404);
    request(&app, &amy, &c.roster).await;
    // Adding her directly approves her pending request.
    assert_eq!(add(&app, &coach, &c.roster, &amy, json!({})).await.0, 201);
    let (_, mine) = app.get("/api/v1/me/join-requests?status=PENDING", Some(&amy)).await;
    assert_eq!(mine["items"], json!([]));
    let (_, mine) = app.get("/api/v1/me/join-requests", Some(&amy)).await;
    let statuses: Vec<&str> = mine["items"].as_array().unwrap().iter().map(|q| q["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["APPROVED", "REJECTED"]);
}

#[actix_web::test]
async fn a_websocket_subscriber_sees_a_join_request_and_its_approval_live() {
    let app = spawn_app().await;
    let rink = app.user("rink").await;
    let coach = app.user("coach").await;
    let joe = app.user("joe").await;
    let c = club(&app, &rink, &coach, json!({})).await;
    let topic = format!("roster:{}", c.roster);

    // A display, signed out.
    let mut ws = app.ws().await;
    let snap = ws.subscribe(&topic).await;
    assert_eq!(snap["data"]["id"], c.roster.as_str());
    assert_eq!(snap["data"]["players"], json!([]));
    let mut seq = snap["seq"].as_i64().unwrap();

    let (s, q) = app
        .post(&format!("/api/v1/rosters/{}/join-requests", c.roster), Some(&joe), json!({"message": "secret note"}))
        .await;
    assert_eq!(s, 201);
    let update = ws.next_of("update", Duration::from_secs(5)).await.expect("request update");
    assert_eq!(update["topic"], topic.as_str());
    assert!(update["seq"].as_i64().unwrap() > seq);
    seq = update["seq"].as_i64().unwrap();
    assert_eq!(update["data"]["requests"][0]["id"], q["id"]);
    assert_eq!(update["data"]["requests"][0]["userId"], joe.id.as_str());
    assert_eq!(update["data"]["requests"][0]["status"], "PENDING");
    assert!(!update.to_string().contains("secret note"), "no messages in the public document");

    let (s, _) = app.post(&format!("/api/v1/join-requests/{}/approve", id(&q)), Some(&coach), json!({})).await;
    assert_eq!(s, 200);
    let update = ws.next_of("update", Duration::from_secs(5)).await.expect("approval update");
    assert!(update["seq"].as_i64().unwrap() > seq);
    assert_eq!(update["data"]["requests"][0]["status"], "APPROVED");
    assert_eq!(players(&update["data"]), vec![joe.id.clone()]);
    assert_eq!(update["data"]["players"][0]["user"]["username"], "joe");
    assert_eq!(update["data"]["memberCount"], 1);

    // A quick run of changes: seq strictly increases.
    let mut last = update["seq"].as_i64().unwrap();
    for n in 1..=3 {
        app.patch(
            &format!("/api/v1/rosters/{}/players/{}", c.roster, joe.id),
            Some(&coach),
            json!({"jerseyNumber": n}),
        )
        .await;
        let u = ws.next_of("update", Duration::from_secs(5)).await.expect("jersey update");
        assert!(u["seq"].as_i64().unwrap() > last);
        last = u["seq"].as_i64().unwrap();
        assert_eq!(u["data"]["players"][0]["jerseyNumber"], n);
    }
    // The REST page carries the same seq.
    let (_, r) = app.get(&format!("/api/v1/rosters/{}", c.roster), None).await;
    assert_eq!(r["seq"], last);
}

#[actix_web::test]
async fn a_missing_roster_topic_is_refused() {
    let app = spawn_app().await;
    let mut ws = app.ws().await;
    ws.send(json!({"type": "subscribe", "topic": "roster:0190-nope"})).await;
    let frame = ws.next_json(Duration::from_secs(5)).await.expect("an answer");
    assert_ne!(frame["type"], "snapshot", "{frame}");
}
