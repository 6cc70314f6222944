//! Rosters and what they hang on (facilities, teams, seasons, division
//! mappings), their players and join requests: every rule, every refusal
//! with its code and no change behind it, the feed facts, and the live
//! `roster:ID` topic. The fixtures are here (other suites build clubs with
//! them too); the tests are in one module per subject.

// Fixture helpers are not `#[test]` functions, so clippy.toml's
// allow-unwrap-in-tests does not reach them: a failed fixture should panic.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod facilities_and_teams;
mod join_requests;
mod lifecycle;
mod live;
mod players;
mod seasons;

use crate::helpers::*;
use serde_json::{Value, json};

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
        "SELECT type, resource_type, resource_id FROM feed_items WHERE user_id = $1 AND type <> 'WELCOME_MESSAGE' \
         ORDER BY created_at, type",
    )
    .bind(&user.id)
    .fetch_all(&app.state.db.pool)
    .await
    .unwrap()
}

fn players(roster: &Value) -> Vec<String> {
    roster["players"].as_array().unwrap().iter().map(|p| p["userId"].as_str().unwrap().to_string()).collect()
}
