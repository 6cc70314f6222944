//! Profiles, onboarding, positions and search.

use crate::helpers::*;
use serde_json::json;

#[actix_web::test]
async fn a_new_user_signs_in_and_completes_onboarding() {
    let app = spawn_app().await;
    let alice = app.user("alice").await;
    let (status, me) = app.get("/api/v1/me", Some(&alice)).await;
    assert_eq!(status, 200);
    assert_eq!(me["username"], "alice");
    assert_eq!(me["onboardingComplete"], false);
    assert_eq!(me["profileTypes"], json!([]));

    // Finishing onboarding needs at least one profile type.
    let (status, body) = app.patch("/api/v1/me", Some(&alice), json!({"onboardingComplete": true})).await;
    assert_error(status, &body, 422, "validation_failed");

    // ... and the current terms accepted.
    let (status, body) = app
        .patch("/api/v1/me", Some(&alice), json!({"profileTypes": ["PLAYER", "COACH"], "onboardingComplete": true}))
        .await;
    assert_error(status, &body, 422, "validation_failed");
    let (status, body) = app.post("/api/v1/me/legal", Some(&alice), json!({"legalVersion": "1999"})).await;
    assert_error(status, &body, 422, "validation_failed");
    let (status, _) = app.post("/api/v1/me/legal", Some(&alice), json!({"legalVersion": "2026-11"})).await;
    assert_eq!(status, 200);

    let (status, me) = app
        .patch(
            "/api/v1/me",
            Some(&alice),
            json!({"profileTypes": ["PLAYER", "COACH"], "firstName": "Alice", "onboardingComplete": true}),
        )
        .await;
    assert_eq!(status, 200, "{me}");
    assert_eq!(me["profileTypes"], json!(["PLAYER", "COACH"]));
    assert_eq!(me["onboardingComplete"], true);
    assert_eq!(me["firstName"], "Alice");

    let (status, me) = app.post("/api/v1/me/legal", Some(&alice), json!({"legalVersion": "2026-11"})).await;
    assert_eq!(status, 200);
    assert_eq!(me["legalVersion"], "2026-11");
    assert!(me["legalAcceptedAt"].as_str().unwrap().ends_with('Z'));
}

#[actix_web::test]
async fn only_one_position_is_preferred() {
    let app = spawn_app().await;
    let bob = app.user("bob").await;
    let (s, c) = app
        .post(
            "/api/v1/me/positions",
            Some(&bob),
            json!({"position": "CENTER", "skillLevel": "ADVANCED", "isPreferred": true}),
        )
        .await;
    assert_eq!(s, 201, "{c}");
    let (s, g) = app
        .post(
            "/api/v1/me/positions",
            Some(&bob),
            json!({"position": "GOALIE", "skillLevel": "BEGINNER", "isPreferred": true}),
        )
        .await;
    assert_eq!(s, 201, "{g}");
    let (_, list) = app.get("/api/v1/me/positions", Some(&bob)).await;
    let preferred: Vec<_> = list.as_array().unwrap().iter().filter(|p| p["isPreferred"] == true).collect();
    assert_eq!(preferred.len(), 1);
    assert_eq!(preferred[0]["position"], "GOALIE");

    let (s, body) =
        app.post("/api/v1/me/positions", Some(&bob), json!({"position": "CENTER", "skillLevel": "BEGINNER"})).await;
    assert_error(s, &body, 409, "conflict");
    let (s, _) = app.delete(&format!("/api/v1/me/positions/{}", c["id"].as_str().unwrap()), Some(&bob)).await;
    assert_eq!(s, 204);
    let (_, list) = app.get("/api/v1/me/positions", Some(&bob)).await;
    assert_eq!(list.as_array().unwrap().len(), 1);
}

#[actix_web::test]
async fn people_are_found_by_username_or_name_case_insensitively() {
    let app = spawn_app().await;
    let alice = app.user("alice").await;
    app.patch("/api/v1/me", Some(&alice), json!({"firstName": "Alice", "lastName": "Ames"})).await;
    app.user("bob").await;
    let (s, page) = app.get("/api/v1/users?q=AME", None).await;
    assert_eq!(s, 200);
    let names: Vec<_> = page["items"].as_array().unwrap().iter().map(|u| u["username"].clone()).collect();
    assert_eq!(names, vec![json!("alice")]);
    let (_, page) = app.get("/api/v1/users?q=bo", None).await;
    assert_eq!(page["items"][0]["username"], "bob");
}

#[actix_web::test]
async fn usernames_are_unique_case_insensitively() {
    let app = spawn_app().await;
    app.user("alice").await;
    let bob = app.user("bob").await;
    let (s, body) = app.patch("/api/v1/me", Some(&bob), json!({"username": "ALICE"})).await;
    assert_error(s, &body, 409, "username_taken");
    let (_, me) = app.get("/api/v1/me", Some(&bob)).await;
    assert_eq!(me["username"], "bob");
}
