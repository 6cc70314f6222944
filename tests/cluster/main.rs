//! Two-node cluster tests: two real server processes on one PostgreSQL
//! schema, talking through Redis. They need PostgreSQL
//! (`TEST_DATABASE_URL`) and Redis (`TEST_REDIS_URL`, or a private
//! `redis-server` the test starts itself) and fail loudly without them.

// Test code may unwrap: a panic is the failure report.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod chat;
mod durability;
mod follow_ups;
mod games;
mod nodes;
mod notifications;
mod pickup_night;
mod race;
mod sync;
mod walkthrough;

use nodes::*;

use std::time::Duration;

#[tokio::test]
async fn a_subscriber_on_node_b_receives_in_order_updates_caused_on_node_a() {
    let cluster = Cluster::start(&shared_redis()).await;
    let org = cluster.a.user("organiser").await;
    let event = cluster.a.event(&org, 50, 2).await;
    let mut ws = cluster.b.ws().await;
    ws.auth(&org).await;
    let snap = ws.subscribe(&format!("event:{event}")).await;
    assert_eq!(snap["seq"], 0);

    let mut players = Vec::new();
    for i in 0..20 {
        players.push(cluster.a.user(&format!("skater{i}")).await);
    }
    for p in &players {
        cluster.a.rsvp(p, &event, "ATTENDING").await;
    }
    let mut last = 0;
    while last < 20 {
        let u = ws.next_of("update", Duration::from_secs(10)).await.expect("updates from node A");
        let seq = u["seq"].as_i64().unwrap_or_default();
        assert_eq!(seq, last + 1, "in order, none missing: {u}");
        assert_eq!(u["data"]["counts"]["skaters"], seq);
        last = seq;
    }
}

#[tokio::test]
async fn restarting_redis_during_a_stream_still_ends_with_every_client_at_the_latest_state() {
    let redis = PrivateRedis::start();
    let cluster = Cluster::start(&redis.url()).await;
    let org = cluster.a.user("organiser").await;
    let event = cluster.a.event(&org, 100, 2).await;
    let topic = format!("event:{event}");
    let mut on_b = Vec::new();
    for _ in 0..3 {
        let mut ws = cluster.b.ws().await;
        ws.auth(&org).await;
        ws.subscribe(&topic).await;
        on_b.push(ws);
    }
    let mut players = Vec::new();
    for i in 0..30 {
        players.push(cluster.a.user(&format!("skater{i}")).await);
    }
    let mut redis = redis;
    for (i, p) in players.iter().enumerate() {
        if i == 10 {
            redis.restart();
        }
        cluster.a.rsvp(p, &event, "ATTENDING").await;
        if i == 10 {
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
    let latest = cluster.a.attendees(&org, &event).await["version"].as_i64().unwrap_or_default();
    assert_eq!(latest, 30);
    for ws in &mut on_b {
        let mut seen = 0;
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        while seen < latest && tokio::time::Instant::now() < deadline {
            if let Some(frame) = ws.next_json(Duration::from_secs(1)).await
                && (frame["type"] == "update" || frame["type"] == "snapshot")
            {
                let seq = frame["seq"].as_i64().unwrap_or_default();
                assert!(seq > seen || frame["type"] == "snapshot", "never an older update");
                seen = seen.max(seq);
            }
        }
        assert_eq!(seen, latest, "every client ends at the latest state");
    }
}

#[tokio::test]
async fn a_post_on_node_a_reaches_a_followers_open_feed_on_node_b_within_a_second() {
    let cluster = Cluster::start(&shared_redis()).await;
    let author = cluster.a.user("author").await;
    let reader = cluster.b.user("reader").await;
    let http = reqwest::Client::new();
    let res = http
        .put(cluster.b.url(&format!("/api/v1/users/{}/follow", author.id)))
        .bearer_auth(&reader.token)
        .send()
        .await
        .expect("follow");
    assert!(res.status().is_success());
    let mut ws = cluster.b.ws().await;
    ws.auth(&reader).await;
    let snap = ws.subscribe("feed").await;
    assert_eq!(snap["topic"], "feed");

    let posted = std::time::Instant::now();
    let res = http
        .post(cluster.a.url("/api/v1/posts"))
        .bearer_auth(&author.token)
        .json(&serde_json::json!({"content": "Across the cluster"}))
        .send()
        .await
        .expect("post");
    assert_eq!(res.status(), 201);
    let update = ws.next_of("update", Duration::from_secs(5)).await.expect("the post reaches node B");
    assert!(posted.elapsed() < Duration::from_secs(1), "took {:?}", posted.elapsed());
    assert_eq!(update["topic"], "feed");
    assert_eq!(update["data"]["type"], "POST_CREATED");
    assert_eq!(update["data"]["resource"]["content"], "Across the cluster");
}

#[tokio::test]
async fn an_event_becoming_short_on_node_a_reaches_a_matched_sub_on_node_b_within_a_second() {
    let cluster = Cluster::start(&shared_redis()).await;
    let (org, keeper) = (cluster.a.user("org").await, cluster.a.user("keeper").await);
    let sub = cluster.b.user("sub").await;
    let http = reqwest::Client::new();
    let soon = |hours: i64| rinkside::time::to_rfc3339(chrono::Utc::now().timestamp_millis() + hours * 3_600_000);
    let res = http
        .post(cluster.b.url("/api/v1/statuses"))
        .bearer_auth(&sub.token)
        .json(&serde_json::json!({"type": "AVAILABLE_TO_SUB", "entityType": "USER", "positions": ["GOALIE"], "expiresAt": soon(6)}))
        .send()
        .await
        .expect("status");
    assert_eq!(res.status(), 201);
    let event: serde_json::Value = http
        .post(cluster.a.url("/api/v1/events"))
        .bearer_auth(&org.token)
        .json(&serde_json::json!({"title": "Late skate", "startDate": soon(3), "eventType": "OTHER", "maxSkaters": 0, "maxGoalies": 1}))
        .send()
        .await
        .expect("event")
        .json()
        .await
        .expect("json");
    let event = event["id"].as_str().expect("an event id").to_string();
    let answer = |action: &'static str| {
        http.put(cluster.a.url(&format!("/api/v1/events/{event}/rsvp")))
            .bearer_auth(&keeper.token)
            .json(&serde_json::json!({"action": action, "position": "GOALIE"}))
            .send()
    };
    assert_eq!(answer("ATTENDING").await.expect("rsvp").status(), 200);
    let mut ws = cluster.b.ws().await;
    ws.auth(&sub).await;
    ws.subscribe("matches").await;

    let declined = std::time::Instant::now();
    assert_eq!(answer("DECLINED").await.expect("rsvp").status(), 200);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    let update = loop {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        let up = ws.next_of("update", left).await.expect("the open spot reaches node B");
        // A drop from the first answer's fan-out may still come first.
        if up["data"]["op"] == "upsert" {
            break up;
        }
    };
    assert!(declined.elapsed() < Duration::from_secs(1), "took {:?}", declined.elapsed());
    assert_eq!(update["topic"], "matches");
    assert_eq!(update["data"]["match"]["event"]["id"], event.as_str());
}
