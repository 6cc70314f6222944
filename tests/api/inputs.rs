//! Bad input of every kind: each is answered with the contract's envelope
//! and the right code, never a 500, and leaves the database as it was.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed unwrap is a failed test

use crate::helpers::*;
use reqwest::Method;
use serde_json::{Value, json};

/// Every table a refused request below could have touched.
const TABLES: &[&str] = &[
    "users",
    "user_profile_types",
    "player_positions",
    "follows",
    "facilities",
    "facility_follows",
    "teams",
    "team_follows",
    "webhook_events",
];

const JSON: Option<&str> = Some("application/json");

/// One bad request and the answer it must get.
struct Case<'a> {
    what: &'static str,
    method: Method,
    path: String,
    user: Option<&'a TestUser>,
    content_type: Option<&'static str>,
    body: Vec<u8>,
    status: u16,
    code: &'static str,
}

fn case<'a>(
    what: &'static str,
    method: Method,
    path: impl Into<String>,
    user: Option<&'a TestUser>,
    body: Option<Value>,
    status: u16,
    code: &'static str,
) -> Case<'a> {
    let (content_type, body) = match body {
        Some(b) => (JSON, b.to_string().into_bytes()),
        None => (None, Vec::new()),
    };
    Case { what, method, path: path.into(), user, content_type, body, status, code }
}

impl Case<'_> {
    /// The same request with a body that is not a JSON value.
    fn raw(mut self, content_type: Option<&'static str>, body: impl Into<Vec<u8>>) -> Self {
        self.content_type = content_type;
        self.body = body.into();
        self
    }
}

#[actix_web::test]
async fn every_bad_input_gets_its_error_code_and_changes_nothing() {
    let app = spawn_app().await;
    let alice = app.user("alice").await;
    let bob = app.user("bob").await;
    let (s, rink) = app
        .post("/api/v1/facilities", Some(&alice), json!({"name": "Maple Arena", "timezone": "America/Toronto"}))
        .await;
    assert_eq!(s, 201, "{rink}");
    let (s, _) =
        app.post("/api/v1/me/positions", Some(&alice), json!({"position": "CENTER", "skillLevel": "ADVANCED"})).await;
    assert_eq!(s, 201);
    let impostor = TestUser { token: "not.a.token".into(), ..alice.clone() };
    let a = Some(&alice);
    let followers = format!("/api/v1/users/{}/followers", bob.id);

    let cases = vec![
        case("malformed JSON", Method::PATCH, "/api/v1/me", a, None, 400, "bad_request")
            .raw(JSON, r#"{"firstName": "Al"#),
        case("an empty JSON body", Method::POST, "/api/v1/facilities", a, None, 400, "bad_request").raw(JSON, ""),
        case("a body that is not UTF-8", Method::PATCH, "/api/v1/me", a, None, 400, "bad_request")
            .raw(JSON, vec![b'{', b'"', 0xff, 0xfe, b'"', b'}']),
        case("a JSON body sent as text/plain", Method::PATCH, "/api/v1/me", a, None, 400, "bad_request")
            .raw(Some("text/plain"), r#"{"firstName": "Al"}"#),
        case("a JSON body with no Content-Type", Method::POST, "/api/v1/facilities", a, None, 400, "bad_request")
            .raw(None, r#"{"name": "X", "timezone": "UTC"}"#),
        case(
            "an unknown field",
            Method::PATCH,
            "/api/v1/me",
            a,
            Some(json!({"isAdmin": true})),
            422,
            "validation_failed",
        ),
        case(
            "a field of the wrong type",
            Method::PATCH,
            "/api/v1/me",
            a,
            Some(json!({"firstName": 5})),
            422,
            "validation_failed",
        ),
        case(
            "an array instead of an object",
            Method::POST,
            "/api/v1/facilities",
            a,
            Some(json!([1, 2])),
            422,
            "validation_failed",
        ),
        case(
            "a missing required field",
            Method::POST,
            "/api/v1/facilities",
            a,
            Some(json!({"name": "No Zone"})),
            422,
            "validation_failed",
        ),
        case(
            "null for a required field",
            Method::POST,
            "/api/v1/facilities",
            a,
            Some(json!({"name": null, "timezone": "UTC"})),
            422,
            "validation_failed",
        ),
        case(
            "a body over 64 KiB",
            Method::PATCH,
            "/api/v1/me",
            a,
            Some(json!({"bio": "x".repeat(70 * 1024)})),
            413,
            "payload_too_large",
        ),
        case("an unknown API route", Method::GET, "/api/v1/no-such-thing", a, None, 404, "not_found"),
        case("an unknown API version", Method::GET, "/api/v2/me", a, None, 404, "not_found"),
        case("an unknown sub-route", Method::GET, format!("/api/v1/users/{}/nope", bob.id), a, None, 404, "not_found"),
        case("a method the route does not have", Method::DELETE, "/api/v1/me", a, None, 405, "method_not_allowed"),
        case(
            "POST to a read-only route",
            Method::POST,
            format!("/api/v1/users/{}", bob.id),
            a,
            Some(json!({})),
            405,
            "method_not_allowed",
        ),
        case(
            "an unknown profile type",
            Method::PATCH,
            "/api/v1/me",
            a,
            Some(json!({"profileTypes": ["GOALKEEPER"]})),
            422,
            "validation_failed",
        ),
        case(
            "no profile types at all",
            Method::PATCH,
            "/api/v1/me",
            a,
            Some(json!({"profileTypes": []})),
            422,
            "validation_failed",
        ),
        case(
            "finishing onboarding without a profile type",
            Method::PATCH,
            "/api/v1/me",
            a,
            Some(json!({"onboardingComplete": true})),
            422,
            "validation_failed",
        ),
        case(
            "a username with a space",
            Method::PATCH,
            "/api/v1/me",
            a,
            Some(json!({"username": "al ice"})),
            422,
            "validation_failed",
        ),
        case(
            "a two-letter username",
            Method::PATCH,
            "/api/v1/me",
            a,
            Some(json!({"username": "al"})),
            422,
            "validation_failed",
        ),
        case(
            "a username someone has",
            Method::PATCH,
            "/api/v1/me",
            a,
            Some(json!({"username": "BOB"})),
            409,
            "username_taken",
        ),
        case(
            "a script URL as profile image",
            Method::PATCH,
            "/api/v1/me",
            a,
            Some(json!({"profileImage": "javascript:alert(1)"})),
            422,
            "validation_failed",
        ),
        case(
            "a relative URL as profile image",
            Method::PATCH,
            "/api/v1/me",
            a,
            Some(json!({"profileImage": "/me.png"})),
            422,
            "validation_failed",
        ),
        case(
            "a bio over 1000 characters",
            Method::PATCH,
            "/api/v1/me",
            a,
            Some(json!({"bio": "é".repeat(1001)})),
            422,
            "validation_failed",
        ),
        case(
            "a made-up time zone",
            Method::POST,
            "/api/v1/facilities",
            a,
            Some(json!({"name": "Mars Rink", "timezone": "Mars/Olympus"})),
            422,
            "validation_failed",
        ),
        case(
            "a blank facility name",
            Method::POST,
            "/api/v1/facilities",
            a,
            Some(json!({"name": "   ", "timezone": "UTC"})),
            422,
            "validation_failed",
        ),
        case(
            "a facility email without @",
            Method::POST,
            "/api/v1/facilities",
            a,
            Some(json!({"name": "X", "timezone": "UTC", "email": "front-desk"})),
            422,
            "validation_failed",
        ),
        case(
            "a facility website that is not http",
            Method::POST,
            "/api/v1/facilities",
            a,
            Some(json!({"name": "X", "timezone": "UTC", "website": "ftp://rink"})),
            422,
            "validation_failed",
        ),
        case(
            "a team at an unknown facility",
            Method::POST,
            "/api/v1/teams",
            a,
            Some(json!({"name": "Ghosts", "facilityId": "nowhere"})),
            422,
            "validation_failed",
        ),
        case(
            "a blank team name",
            Method::POST,
            "/api/v1/teams",
            a,
            Some(json!({"name": ""})),
            422,
            "validation_failed",
        ),
        case(
            "a dev sign-in with a bad email",
            Method::POST,
            "/api/v1/dev/token",
            None,
            Some(json!({"clerkId": "dev_new", "email": "new at example"})),
            422,
            "validation_failed",
        ),
        case(
            "a dev sign-in without clerkId",
            Method::POST,
            "/api/v1/dev/token",
            None,
            Some(json!({"username": "newbie"})),
            422,
            "validation_failed",
        ),
        case(
            "a dev sign-in as an anonymised row",
            Method::POST,
            "/api/v1/dev/token",
            None,
            Some(json!({"clerkId": "deleted:x"})),
            422,
            "validation_failed",
        ),
        case(
            "following yourself",
            Method::PUT,
            format!("/api/v1/users/{}/follow", alice.id),
            a,
            None,
            422,
            "validation_failed",
        ),
        case("following someone unknown", Method::PUT, "/api/v1/users/no-such-user/follow", a, None, 404, "not_found"),
        case(
            "following an unknown facility",
            Method::PUT,
            "/api/v1/facilities/no-such-rink/follow",
            a,
            None,
            404,
            "not_found",
        ),
        case("following an unknown team", Method::PUT, "/api/v1/teams/no-such-team/follow", a, None, 404, "not_found"),
        case(
            "editing an unknown position",
            Method::PATCH,
            "/api/v1/me/positions/no-such-position",
            a,
            Some(json!({"skillLevel": "BEGINNER"})),
            404,
            "not_found",
        ),
        case(
            "deleting an unknown position",
            Method::DELETE,
            "/api/v1/me/positions/no-such-position",
            a,
            None,
            404,
            "not_found",
        ),
        case(
            "a position twice",
            Method::POST,
            "/api/v1/me/positions",
            a,
            Some(json!({"position": "CENTER", "skillLevel": "BEGINNER"})),
            409,
            "conflict",
        ),
        case(
            "an unknown skill level",
            Method::POST,
            "/api/v1/me/positions",
            a,
            Some(json!({"position": "GOALIE", "skillLevel": "EXPERT"})),
            422,
            "validation_failed",
        ),
        case(
            "a cursor we never gave out",
            Method::GET,
            format!("{followers}?cursor=garbage"),
            a,
            None,
            422,
            "validation_failed",
        ),
        case(
            "a limit that is not a number",
            Method::GET,
            format!("{followers}?limit=ten"),
            a,
            None,
            422,
            "validation_failed",
        ),
        case(
            "a limit beyond 64 bits",
            Method::GET,
            format!("{followers}?limit=99999999999999999999999"),
            a,
            None,
            422,
            "validation_failed",
        ),
        case("an unknown query parameter", Method::GET, "/api/v1/users?sort=name", a, None, 422, "validation_failed"),
        case(
            "a facility cursor we never gave out",
            Method::GET,
            "/api/v1/facilities?cursor=garbage",
            a,
            None,
            422,
            "validation_failed",
        ),
        case(
            "an invalid token",
            Method::PATCH,
            "/api/v1/me",
            Some(&impostor),
            Some(json!({"firstName": "Mallory"})),
            401,
            "unauthorized",
        ),
        case(
            "an invalid token on a public read",
            Method::GET,
            format!("/api/v1/users/{}", bob.id),
            Some(&impostor),
            None,
            401,
            "unauthorized",
        ),
        case(
            "no token on a write",
            Method::POST,
            "/api/v1/facilities",
            None,
            Some(json!({"name": "X", "timezone": "UTC"})),
            401,
            "unauthorized",
        ),
        case("a path id that is not UTF-8", Method::PUT, "/api/v1/users/%FF%FE/follow", a, None, 404, "not_found"),
        case("an unsigned webhook", Method::POST, "/api/v1/webhooks/clerk", None, None, 404, "not_found")
            .raw(JSON, r#"{"type": "user.created", "data": {}}"#),
    ];
    assert!(cases.len() >= 20);

    let (_, alice_before) = app.get("/api/v1/me", Some(&alice)).await;
    for c in cases {
        let before = app.counts(TABLES).await;
        let (status, body) = app.raw(c.method.clone(), &c.path, c.user, c.content_type, c.body).await;
        assert_eq!(status, c.status, "{}: {} {} answered {body}", c.what, c.method, c.path);
        assert_error(status, &body, c.status, c.code);
        assert_eq!(app.counts(TABLES).await, before, "{}: the database changed", c.what);
    }
    let (_, alice_after) = app.get("/api/v1/me", Some(&alice)).await;
    assert_eq!(alice_after, alice_before, "alice's profile is untouched");
}

#[actix_web::test]
async fn validation_errors_name_the_fields_at_fault() {
    let app = spawn_app().await;
    let alice = app.user("alice").await;
    let (status, body) = app
        .post("/api/v1/facilities", Some(&alice), json!({"name": "", "timezone": "Nowhere/Land", "website": "rink"}))
        .await;
    assert_error(status, &body, 422, "validation_failed");
    let fields = body["error"]["details"].as_object().unwrap();
    for field in ["name", "timezone", "website"] {
        assert!(fields[field].is_string(), "{field} in {body}");
    }

    let (status, body) = app.patch("/api/v1/me", Some(&alice), json!({"nickname": "Al"})).await;
    assert_error(status, &body, 422, "validation_failed");
    assert!(body["error"]["details"]["nickname"].is_string(), "{body}");
}

#[actix_web::test]
async fn an_internal_detail_never_reaches_the_client() {
    let app = spawn_app().await;
    let alice = app.user("alice").await;
    // A SQL-looking id is just an id that does not exist.
    let (status, body) = app.get("/api/v1/users/'%20OR%201=1--", Some(&alice)).await;
    assert_error(status, &body, 404, "not_found");
    let text = body.to_string().to_lowercase();
    for leak in ["sql", "sqlite", "postgres", "panicked", "src/"] {
        assert!(!text.contains(leak), "{leak} leaked in {body}");
    }
}
