//! The OpenAPI document at `/api/openapi.json` describes the server
//! exactly (issue 13): what it promises here is checked against the running
//! server, and `scripts/schemathesis.sh` fuzzes every operation against it.

use crate::helpers::*;
use reqwest::Method;
use serde_json::json;

#[actix_web::test]
async fn a_method_a_known_route_lacks_answers_405_with_the_methods_it_has() {
    let app = spawn_app().await;
    let user = app.user("allow").await;
    for (method, path, allow) in [
        (Method::TRACE, "/api/v1/divisions/scale", "GET"),
        (Method::DELETE, "/api/v1/me", "GET, PATCH"),
        (Method::POST, "/api/v1/events/some-event", "DELETE, GET, PATCH"),
        (Method::OPTIONS, "/api/v1/users/u1/follow", "DELETE, PUT"),
    ] {
        let res = app.req(method.clone(), path, Some(&user)).send().await.unwrap();
        assert_eq!(res.status().as_u16(), 405, "{method} {path}");
        let header = res.headers().get("allow").map(|v| v.to_str().unwrap().to_string());
        assert_eq!(header.as_deref(), Some(allow), "{method} {path}");
        let body: serde_json::Value = res.json().await.unwrap();
        assert_error(405, &body, 405, "method_not_allowed");
    }
    let res = app.req(Method::TRACE, "/api/v1/no-such-route", Some(&user)).send().await.unwrap();
    assert_eq!(res.status().as_u16(), 404);
    assert!(res.headers().get("allow").is_none());
}

#[actix_web::test]
async fn the_served_document_has_the_bearer_scheme_and_says_which_operations_need_it() {
    let app = spawn_app().await;
    let (status, doc) = app.get("/api/openapi.json", None).await;
    assert_eq!(status, 200);
    let scheme = &doc["components"]["securitySchemes"]["bearerAuth"];
    assert_eq!((scheme["type"].as_str(), scheme["scheme"].as_str()), (Some("http"), Some("bearer")));
    assert_eq!(scheme["bearerFormat"], "JWT");
    let me = &doc["paths"]["/api/v1/me"]["get"];
    assert_eq!(me["security"], json!([{"bearerAuth": []}]), "signed in only");
    assert!(me["responses"]["401"].is_object());
    let game = &doc["paths"]["/api/v1/games/{id}"]["get"];
    assert_eq!(game["security"], json!([{}, {"bearerAuth": []}]), "public, reads the viewer when signed in");
    assert_eq!(doc["paths"]["/api/v1/divisions/scale"]["get"]["security"], json!([]), "reads no token");
    for path in ["/api/v1/feed", "/api/v1/posts"] {
        let operation = doc["paths"][path].as_object().unwrap().values().next().unwrap();
        assert_eq!(operation["security"], json!([{"bearerAuth": []}]), "{path} answers 401 without a token");
    }
}

/// The committed copy of the document (`client/src/lib/api/openapi.json`)
/// is what the client's types are generated from (`npm run api:check`):
/// it must be the document the server serves. `UPDATE_OPENAPI=1` rewrites
/// it (then run `npm run api:generate` in `client/`).
#[actix_web::test]
async fn the_committed_document_is_the_one_the_server_serves() {
    let app = spawn_app().await;
    let res = app.http.get(app.url("/api/openapi.json")).send().await.unwrap();
    assert_eq!(res.status().as_u16(), 200);
    let served = res.text().await.unwrap();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("client/src/lib/api/openapi.json");
    if std::env::var("UPDATE_OPENAPI").is_ok_and(|v| v == "1") {
        std::fs::write(&path, format!("{served}\n")).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    let parsed = |text: &str| serde_json::from_str::<serde_json::Value>(text).ok();
    assert!(
        parsed(&committed).is_some() && parsed(&committed) == parsed(&served),
        "{} differs from the served document: run `UPDATE_OPENAPI=1 cargo test --test api -- openapi::the_committed` \
         and then `npm run api:generate` in client/",
        path.display()
    );
}

#[actix_web::test]
async fn the_served_document_lists_the_value_sets_in_upper_case_as_the_server_speaks() {
    let app = spawn_app().await;
    let (_, doc) = app.get("/api/openapi.json", None).await;
    let schemas = &doc["components"]["schemas"];
    for (name, value) in [
        ("EventType", "PUBLIC_SKATING"),
        ("HockeyPosition", "LEFT_WING"),
        ("ProfileType", "SCORE_KEEPER"),
        ("RequestStatus", "PENDING"),
        ("RosterCommitment", "FULL_TIME"),
        ("RosterStatus", "ARCHIVED"),
        ("SkillLevel", "PROFESSIONAL"),
        ("TeamRole", "HOME"),
        ("UniversalDivision", "LEARN_TO_PLAY"),
        ("RsvpAction", "ATTENDING"),
    ] {
        let values: Vec<&str> = schemas[name]["enum"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
        assert!(values.contains(&value), "{name}: {values:?}");
        assert!(values.iter().all(|v| *v == v.to_uppercase()), "{name}: {values:?}");
    }
    // And the server answers in them: what the document says is what comes back.
    let (status, scale) = app.get("/api/v1/divisions/scale", None).await;
    assert_eq!(status, 200);
    assert_eq!(scale[0]["value"], "LEARN_TO_PLAY");
}

#[actix_web::test]
async fn integers_written_with_a_zero_fraction_are_taken_as_json_schema_allows() {
    let app = spawn_app().await;
    let owner = app.user("wholes").await;
    let facility = crate::rosters::facility(&app, &owner).await;
    let team = crate::rosters::team(&app, &owner, Some(&facility)).await;
    let season = crate::rosters::season(&app, &owner, &facility).await;
    let roster = crate::rosters::roster(&app, &owner, &team, &season, json!({"maxMembers": 20.0})).await;
    let (status, body) = app
        .post(
            &format!("/api/v1/rosters/{roster}/players"),
            Some(&owner),
            json!({"userId": owner.id, "jerseyNumber": 9.0}),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["jerseyNumber"], 9);
    let (status, body) = app.get(&format!("/api/v1/rosters/{roster}"), None).await;
    assert_eq!((status, &body["maxMembers"]), (200, &json!(20)));
    // A fraction is still no integer, in a body or a query string.
    let (status, body) = app
        .post(
            &format!("/api/v1/rosters/{roster}/players"),
            Some(&owner),
            json!({"userId": owner.id, "jerseyNumber": 9.5}),
        )
        .await;
    assert_error(status, &body, 422, "validation_failed");
    let (status, body) = app.get("/api/v1/users?limit=20.0", Some(&owner)).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = app.get("/api/v1/users?limit=2.5", Some(&owner)).await;
    assert_error(status, &body, 422, "validation_failed");
}

#[actix_web::test]
async fn a_json_body_that_is_not_an_object_is_refused_naming_the_body() {
    let app = spawn_app().await;
    let user = app.user("arrays").await;
    let (status, position) =
        app.post("/api/v1/me/positions", Some(&user), json!({"position": "GOALIE", "skillLevel": "BEGINNER"})).await;
    assert_eq!(status, 201);
    // serde reads `[null, null]` as a struct's two fields: an empty edit that answered 200.
    let path = format!("/api/v1/me/positions/{}", position["id"].as_str().unwrap());
    for body in ["[null, null]", "[]", "\"GOALIE\"", "7"] {
        let (status, answer) =
            send(app.req(Method::PATCH, &path, Some(&user)).header("content-type", "application/json").body(body))
                .await;
        assert_error(status, &answer, 422, "validation_failed");
        assert!(answer["error"]["details"]["body"].is_string(), "{body}: {answer}");
    }
}

#[actix_web::test]
async fn a_request_to_the_socket_that_is_no_handshake_is_refused_in_the_envelope() {
    let app = spawn_app().await;
    let (status, body) = app.get("/api/v1/ws", None).await;
    assert_error(status, &body, 400, "bad_request");
}

#[actix_web::test]
async fn a_clerk_id_is_limited_in_characters_as_its_message_says() {
    let app = spawn_app().await;
    let sign_in = |clerk_id: String| app.http.post(app.url("/api/v1/dev/token")).json(&json!({"clerkId": clerk_id}));
    // 100 characters of two bytes each were refused as "at most 100 characters".
    let (status, body) = send(sign_in("é".repeat(100))).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = send(sign_in("é".repeat(101))).await;
    assert_error(status, &body, 422, "validation_failed");
}

#[actix_web::test]
async fn an_rsvp_action_outside_the_enum_is_refused_naming_the_action() {
    let app = spawn_app().await;
    let user = app.user("answers").await;
    let (status, event) = app
        .post(
            "/api/v1/events",
            Some(&user),
            json!({"title": "Skate", "startDate": "2026-10-01T22:00:00Z", "eventType": "PRACTICE"}),
        )
        .await;
    assert_eq!(status, 201, "{event}");
    let path = format!("/api/v1/events/{}/rsvp", event["id"].as_str().unwrap());
    let (status, body) = app.put(&path, Some(&user), Some(json!({"action": "MAYBE"}))).await;
    assert_error(status, &body, 422, "validation_failed");
    assert!(body["error"]["details"]["action"].as_str().unwrap().contains("ATTENDING or DECLINED"), "{body}");
    let (status, body) = app.put(&path, Some(&user), Some(json!({"action": "ATTENDING"}))).await;
    assert_eq!((status, body["status"].as_str()), (200, Some("ATTENDING")), "{body}");
}
