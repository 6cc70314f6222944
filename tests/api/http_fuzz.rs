//! The HTTP side under random input, end to end: path ids of any bytes,
//! hostile query strings and JSON bodies, sent to the real routes of a
//! spawned server (signed in, so handlers run past authentication). No
//! answer may be a 5xx, and every refusal carries the contract's envelope;
//! afterwards the server still serves. The parsers behind these routes
//! have unit-level fuzz targets beside them (`mod fuzz` in `src/`).
//! `FUZZ_REQUESTS` and `FUZZ_SEED` make a longer or a repeated run.

use crate::helpers::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};

/// Requests per run in `make test`.
const REQUESTS: usize = 300;

/// Routes with a path id, and the methods that read or write them.
const ROUTES: &[(&str, &str)] = &[
    ("GET", "/api/v1/events/{}"),
    ("GET", "/api/v1/events/{}/attendees"),
    ("PUT", "/api/v1/events/{}/rsvp"),
    ("PATCH", "/api/v1/events/{}"),
    ("GET", "/api/v1/games/{}"),
    ("POST", "/api/v1/games/{}/actions"),
    ("GET", "/api/v1/users/{}"),
    ("GET", "/api/v1/users/{}/stats"),
    ("PUT", "/api/v1/users/{}/follow"),
    ("GET", "/api/v1/teams/{}"),
    ("GET", "/api/v1/teams/{}/schedule"),
    ("GET", "/api/v1/facilities/{}"),
    ("POST", "/api/v1/facilities/{}/seasons"),
    ("GET", "/api/v1/rosters/{}"),
    ("POST", "/api/v1/rosters/{}/join-requests"),
    ("GET", "/api/v1/seasons/{}/standings"),
    ("GET", "/api/v1/seasons/{}/leaders"),
    ("GET", "/api/v1/events"),
    ("GET", "/api/v1/teams"),
    ("GET", "/api/v1/users"),
    ("POST", "/api/v1/events"),
    ("POST", "/api/v1/teams"),
    ("POST", "/api/v1/games"),
    ("PATCH", "/api/v1/me"),
];

const WORDS: &[&str] = &[
    "",
    " ",
    "\u{0}",
    "\u{202E}",
    "é",
    "ATTENDING",
    "GOALIE",
    "GOAL",
    "2026-11-22T19:30:00Z",
    "0000-01-01T00:00:00Z",
    "-1",
    "9223372036854775807",
    "1e309",
    "_",
    ".",
    "%",
    "me",
    "title",
    "startDate",
    "eventType",
    "OTHER",
    "name",
    "action",
    "type",
    "rosterId",
    "limit",
    "cursor",
    "from",
    "q",
];

/// Any bytes, percent-encoded, or a word as it is.
fn segment(rng: &mut StdRng, real: &str) -> String {
    match rng.gen_range(0..6) {
        0 => real.to_string(),
        1 => format!("{real}{}", ["%00", "%2F", "%20", "..", "%C0%AF", "%FF"][rng.gen_range(0..6)]),
        2 => "x".repeat(rng.gen_range(100..5_000)),
        _ => (0..rng.gen_range(0..40)).map(|_| format!("%{:02X}", rng.r#gen::<u8>())).collect(),
    }
}

fn word(rng: &mut StdRng) -> String {
    if rng.gen_bool(0.7) {
        WORDS[rng.gen_range(0..WORDS.len())].to_string()
    } else {
        (0..rng.gen_range(0..30)).map(|_| rng.r#gen::<char>()).collect()
    }
}

fn value(rng: &mut StdRng, depth: u32) -> Value {
    match rng.gen_range(0..if depth > 2 { 5 } else { 7 }) {
        0 | 1 => json!(word(rng)),
        2 => json!(rng.r#gen::<i64>()),
        3 => json!([i64::MIN, i64::MAX, 0, -1, 501][rng.gen_range(0..5)]),
        4 => [Value::Null, json!(true), json!(0.5)][rng.gen_range(0..3)].clone(),
        5 => Value::Array((0..rng.gen_range(0..4)).map(|_| value(rng, depth + 1)).collect()),
        _ => object(rng, depth + 1),
    }
}

fn object(rng: &mut StdRng, depth: u32) -> Value {
    let mut obj = serde_json::Map::new();
    for _ in 0..rng.gen_range(0..6) {
        obj.insert(word(rng), value(rng, depth));
    }
    Value::Object(obj)
}

fn query(rng: &mut StdRng) -> String {
    let encode = |s: &str| url::form_urlencoded::byte_serialize(s.as_bytes()).collect::<String>();
    (0..rng.gen_range(0..4))
        .map(|_| format!("{}={}", encode(&word(rng)), encode(&word(rng))))
        .collect::<Vec<_>>()
        .join("&")
}

#[actix_web::test]
async fn random_ids_queries_and_bodies_are_answered_without_a_5xx() {
    let seed = std::env::var("FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(rand::random::<u64>);
    let requests = std::env::var("FUZZ_REQUESTS").ok().and_then(|s| s.parse().ok()).unwrap_or(REQUESTS);
    // Limits off: a long run is thousands of requests from one address.
    let app = spawn_app_with(&[("HTTP_ADDRESS_RATE_PER_SEC", "0"), ("HTTP_USER_RATE_PER_SEC", "0")]).await;
    let user = app.user("http_fuzz").await;
    let (status, event) = app
        .post(
            "/api/v1/events",
            Some(&user),
            json!({"title": "Fuzz", "startDate": "2026-12-01T21:00:00Z", "eventType": "OTHER", "maxSkaters": 2}),
        )
        .await;
    assert_eq!(status, 201, "{event}");
    let real_id = event["id"].as_str().unwrap().to_string();

    let mut rng = StdRng::seed_from_u64(seed);
    let mut by_status = std::collections::BTreeMap::<u16, usize>::new();
    for i in 0..requests {
        let (method, template) = ROUTES[rng.gen_range(0..ROUTES.len())];
        let path = template.replace("{}", &segment(&mut rng, &real_id));
        let q = query(&mut rng);
        let url = if q.is_empty() { app.url(&path) } else { app.url(&format!("{path}?{q}")) };
        let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
        let mut rb = app.http.request(method.clone(), &url).bearer_auth(&user.token);
        let body = if rng.gen_bool(0.8) { object(&mut rng, 0).to_string() } else { word(&mut rng) };
        if method != reqwest::Method::GET {
            rb = rb.header("content-type", "application/json").body(body.clone());
        }
        let context =
            format!("request {i} (seed {seed}): {method} {url} {}", body.chars().take(300).collect::<String>());
        let (status, reply) = send(rb).await;
        *by_status.entry(status).or_default() += 1;
        assert!(status < 500, "{status} {reply} for {context}");
        if status >= 400 {
            assert!(reply["error"]["code"].is_string(), "no envelope in {reply} for {context}");
        }
    }
    eprintln!("http fuzz, seed {seed}: answers by status {by_status:?}");

    let (status, body) = app.get("/healthz", None).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = app.get(&format!("/api/v1/events/{real_id}/attendees"), Some(&user)).await;
    assert_eq!(status, 200, "{body}");
}
