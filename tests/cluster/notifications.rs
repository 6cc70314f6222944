//! Notifications across nodes: a removal on node A promotes the head of
//! the waitlist, whose `notifications` topic is open on node B; the
//! reminder job, ticking on both nodes, tells each reminder once.

use super::nodes::*;
use serde_json::json;
use std::time::Duration;

#[tokio::test]
async fn a_skater_watching_on_node_b_hears_of_a_promotion_decided_on_node_a_and_no_one_else_does() {
    let cluster = Cluster::start(&shared_redis()).await;
    let org = cluster.a.user("organiser").await;
    let first = cluster.a.user("first").await;
    let second = cluster.a.user("second").await;
    let third = cluster.a.user("third").await;
    let event = cluster.a.event(&org, 1, 0).await;
    for u in [&first, &second, &third] {
        cluster.a.rsvp(u, &event, "ATTENDING").await;
    }
    let mut second_ws = cluster.b.ws().await;
    second_ws.auth(&second).await;
    assert_eq!(second_ws.subscribe("notifications").await["data"]["unread"], 0);
    let mut third_ws = cluster.b.ws().await;
    third_ws.auth(&third).await;
    third_ws.subscribe("notifications").await;

    let res = cluster
        .a
        .http
        .delete(cluster.a.url(&format!("/api/v1/events/{event}/attendees/{}", first.id)))
        .bearer_auth(&org.token)
        .send()
        .await
        .expect("remove");
    assert_eq!(res.status(), 200);

    let u = second_ws.next_of("update", Duration::from_secs(10)).await.expect("the promotion, through Redis");
    assert_eq!(u["topic"], "notifications");
    assert_eq!(u["data"]["op"], "new");
    assert_eq!(u["data"]["unread"], 1);
    assert_eq!(u["data"]["notification"]["type"], "WAITLIST_PROMOTED");
    assert_eq!(u["data"]["notification"]["resourceId"], event.as_str());
    assert_eq!(third_ws.next_of("update", Duration::from_millis(500)).await, None, "still waitlisted: nothing");

    // Read on node B, where the count is read from the shared database.
    let page = cluster.b.get(&second, "/api/v1/notifications").await;
    assert_eq!(page["items"].as_array().map(Vec::len), Some(1), "{page}");
    let none = cluster.b.get(&third, "/api/v1/notifications").await;
    assert_eq!(none["items"], json!([]));
}

#[tokio::test]
async fn with_the_reminder_job_ticking_on_both_nodes_each_reminder_is_told_once() {
    let redis = shared_redis();
    let env = [("REMINDER_TICK_SECONDS", "1")];
    let Cluster { a, b, db } = Cluster::start_with(&redis, &env).await;
    let org = a.user("organiser").await;
    let me = a.user("myself").await;
    let soon = chrono::Utc::now() + chrono::Duration::minutes(90);
    let event: serde_json::Value = a
        .http
        .post(a.url("/api/v1/events"))
        .bearer_auth(&org.token)
        .json(&json!({"title": "Pickup", "startDate": soon.to_rfc3339(), "eventType": "OTHER"}))
        .send()
        .await
        .expect("create")
        .json()
        .await
        .expect("json");
    let event = event["id"].as_str().expect("id").to_string();
    let mut ws = b.ws().await;
    ws.auth(&me).await;
    ws.subscribe("notifications").await;
    a.rsvp(&me, &event, "ATTENDING").await;
    // As if answered days ago: the 2-hour reminder is due now.
    sqlx::any::install_default_drivers();
    let mut conn = <sqlx::AnyConnection as sqlx::Connection>::connect(&db).await.expect("db");
    sqlx::query("UPDATE event_rsvps SET responded_at = 0").execute(&mut conn).await.expect("update");

    let u = ws.next_of("update", Duration::from_secs(15)).await.expect("a reminder from whichever node ran");
    assert_eq!(u["data"]["notification"]["type"], "EVENT_REMINDER");
    assert_eq!(u["data"]["notification"]["data"]["minutesBefore"], 120);
    // Both nodes keep ticking: still one.
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(ws.next_of("update", Duration::from_millis(200)).await, None);
    let told: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM notifications WHERE type = 'EVENT_REMINDER'")
        .fetch_one(&mut conn)
        .await
        .expect("count");
    assert_eq!(told, 1);
}
