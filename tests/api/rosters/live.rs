//! The live `roster:ID` topic: a subscriber sees requests, approvals and
//! edits with a strictly increasing seq; a missing roster is refused.

use super::*;
use crate::helpers::*;
use serde_json::json;
use std::time::Duration;

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
