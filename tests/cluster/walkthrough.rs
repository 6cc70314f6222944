//! Issue 18 §6 across two nodes: a follow and a payment made on node A
//! move the counts and the player's page open on node B (docs/walkthrough.md).

use crate::nodes::*;
use serde_json::json;
use std::time::Duration;

#[tokio::test]
async fn a_follow_and_a_payment_on_node_a_reach_pages_open_on_node_b() {
    let cluster = Cluster::start(&shared_redis()).await;
    let alice = cluster.a.user("alice").await;
    let bob = cluster.a.user("bob").await;
    let http = reqwest::Client::new();

    let mut watcher = cluster.b.ws().await;
    let snap = watcher.subscribe(&format!("follows:{}", alice.id)).await;
    assert_eq!(snap["data"]["followerCount"], 0);
    let res = http
        .put(cluster.a.url(&format!("/api/v1/users/{}/follow", alice.id)))
        .bearer_auth(&bob.token)
        .send()
        .await
        .expect("follow");
    assert_eq!(res.status(), 204);
    let update = watcher.next_of("update", Duration::from_secs(5)).await.expect("the count reaches node B");
    assert_eq!(update["data"]["followerCount"], 1, "{update}");

    // Alice organises and collects; Bob plays and has his event page open on node B.
    // She runs her own rink, so as its staff she turns collection on.
    let res = http
        .post(cluster.a.url("/api/v1/facilities"))
        .bearer_auth(&alice.token)
        .json(&json!({"name": "Alice Arena", "timezone": "America/Toronto"}))
        .send()
        .await
        .expect("rink");
    assert!(res.status().is_success());
    let res = http
        .put(cluster.a.url(&format!("/api/v1/users/{}/payment-collection", alice.id)))
        .bearer_auth(&alice.token)
        .json(&json!({"enabled": true}))
        .send()
        .await
        .expect("collect");
    assert!(res.status().is_success());
    let event = cluster.a.event(&alice, 10, 1).await;
    cluster.a.rsvp(&bob, &event, "ATTENDING").await;
    let mut page = cluster.b.ws().await;
    page.auth(&bob).await;
    let snap = page.subscribe(&format!("event:{event}")).await;
    let seq = snap["seq"].as_i64().unwrap_or_default();
    let res = http
        .put(cluster.a.url(&format!("/api/v1/events/{event}/payments/{}", bob.id)))
        .bearer_auth(&alice.token)
        .json(&json!({"isPaid": true}))
        .send()
        .await
        .expect("mark paid");
    assert_eq!(res.status(), 200);
    let update = page.next_of("update", Duration::from_secs(5)).await.expect("the event reaches node B");
    assert!(update["seq"].as_i64().unwrap_or_default() > seq, "{update}");
    let mine: serde_json::Value = http
        .get(cluster.b.url(&format!("/api/v1/events/{event}")))
        .bearer_auth(&bob.token)
        .send()
        .await
        .expect("event")
        .json()
        .await
        .expect("json");
    assert_eq!(mine["viewer"]["isPaid"], true);
}
