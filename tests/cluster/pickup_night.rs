//! The game-day check across nodes (docs/pickup-night.md): with the job
//! ticking on both nodes, a night below its minimum gets exactly one call
//! for subs, its organiser one SHORT_HANDED, and a matched sub watching on
//! the other node is told live.

use super::nodes::*;
use serde_json::{Value, json};
use std::time::Duration;

async fn send(node: &Node, method: reqwest::Method, user: &User, path: &str, body: Value) -> Value {
    let res =
        node.http.request(method, node.url(path)).bearer_auth(&user.token).json(&body).send().await.expect("send");
    let status = res.status();
    let body: Value = res.json().await.expect("json");
    assert!(status.is_success(), "{path}: {status} {body}");
    body
}

#[tokio::test]
async fn a_short_night_gets_one_call_from_whichever_node_checks_and_the_sub_on_the_other_node_hears_of_it() {
    let redis = shared_redis();
    let env = [("REMINDER_TICK_SECONDS", "1")];
    let Cluster { a, b, db } = Cluster::start_with(&redis, &env).await;
    let org = a.user("organiser").await;
    let player = a.user("player").await;
    let sub = a.user("spare").await;
    let start = chrono::Utc::now() + chrono::Duration::hours(3);
    let event = send(
        &a,
        reqwest::Method::POST,
        &org,
        "/api/v1/events",
        json!({"title": "Pickup", "startDate": start.to_rfc3339(), "eventType": "OTHER", "maxSkaters": 12, "maxGoalies": 2}),
    )
    .await;
    let event = event["id"].as_str().expect("id").to_string();
    a.rsvp(&player, &event, "ATTENDING").await;
    let expires = (start + chrono::Duration::hours(1)).to_rfc3339();
    send(
        &a,
        reqwest::Method::POST,
        &sub,
        "/api/v1/statuses",
        json!({"type": "AVAILABLE_TO_SUB", "entityType": "USER", "expiresAt": expires}),
    )
    .await;
    let mut ws = b.ws().await;
    ws.auth(&sub).await;
    ws.subscribe("notifications").await;

    // Checked 4 h before: due at once, on whichever node holds the lease.
    send(
        &b,
        reqwest::Method::PUT,
        &org,
        &format!("/api/v1/events/{event}/rsvp-rules"),
        json!({"minSkaters": 6, "minGoalies": 1, "shortCheckMinutes": 240}),
    )
    .await;

    let told = ws.next_of("update", Duration::from_secs(15)).await.expect("the sub is told, through Redis");
    assert_eq!(told["data"]["notification"]["type"], "SUB_MATCH", "{told}");
    assert_eq!(told["data"]["notification"]["resourceId"], event.as_str());
    // Both nodes keep ticking: still one call, one SHORT_HANDED.
    tokio::time::sleep(Duration::from_secs(3)).await;
    sqlx::any::install_default_drivers();
    let mut conn = <sqlx::AnyConnection as sqlx::Connection>::connect(&db).await.expect("db");
    let calls: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM statuses WHERE type = 'LOOKING_FOR_SUBS' AND event_id = $1")
            .bind(&event)
            .fetch_one(&mut conn)
            .await
            .expect("count");
    assert_eq!(calls, 1);
    let short: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM notifications WHERE type = 'SHORT_HANDED'")
        .fetch_one(&mut conn)
        .await
        .expect("count");
    assert_eq!(short, 1);
    let board = a.get(&org, "/api/v1/statuses?type=LOOKING_FOR_SUBS").await;
    assert_eq!(board["items"][0]["message"], "Short 5 skaters and 1 goalie — come play.", "{board}");
}
