//! Seasons (dates, sync URL, activation news) and their division mappings,
//! including a roster placed in one.

use super::*;
use crate::helpers::*;
use serde_json::{Value, json};

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
    assert_eq!(news(&app).await, 0, "an inactive season is no news");

    let (s, body) = app.patch(&format!("/api/v1/seasons/{sid}"), Some(&rink), json!({"isActive": true})).await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["isActive"], true);
    let want = vec![("SEASON_STARTED".to_string(), Some("SEASON".to_string()), Some(sid.clone()))];
    assert_eq!(feed_of(&app, &fan1).await, want);
    assert_eq!(feed_of(&app, &fan2).await, want);
    assert_eq!(feed_of(&app, &rink).await, vec![], "the actor is not told what they did");
    let actor: Option<String> =
        sqlx::query_scalar("SELECT actor_id FROM feed_items WHERE type <> 'WELCOME_MESSAGE' LIMIT 1")
            .fetch_one(&app.state.db.pool)
            .await
            .unwrap();
    assert_eq!(actor.as_deref(), Some(rink.id.as_str()));

    // Already active: nothing new.
    app.patch(&format!("/api/v1/seasons/{sid}"), Some(&rink), json!({"isActive": true, "name": "Still Winter"})).await;
    assert_eq!(news(&app).await, 2);

    // Created active: told at once.
    let (s, _) = app
        .post(
            &format!("/api/v1/facilities/{f}/seasons"),
            Some(&rink),
            json!({"name": "Spring", "startDate": START, "endDate": END, "isActive": true}),
        )
        .await;
    assert_eq!(s, 201);
    assert_eq!(news(&app).await, 4);
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

/// Feed items other than the welcome every new person gets.
async fn news(app: &TestApp) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM feed_items WHERE type <> 'WELCOME_MESSAGE'")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap()
}
