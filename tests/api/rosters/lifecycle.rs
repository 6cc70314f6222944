//! A roster's life and page: DRAFT → ACTIVE → ARCHIVED with archived
//! read-only, the standings and stats that are not written here, and what
//! the roster page and the lists show to whom.

use super::*;
use crate::helpers::*;
use serde_json::json;

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
