//! What follows an event commit survives a crash between the commit and
//! its consequences (issue 27): a node that writes follow-up records but
//! never carries them out (`HOLD_FOLLOW_UPS=1`, which makes "killed right
//! after the commit" deterministic) is SIGKILLed; the nodes that come up
//! after it tell every promoted, removed and cancelled-on person exactly
//! once, write the cancellation's feed item once, and end the call for subs
//! the event's last place answered.

use super::nodes::*;
use serde_json::json;
use std::time::Duration;

/// Items of `kind` in a `{"items": […]}` page `user` reads at `path`.
async fn items_of(node: &Node, user: &User, path: &str, kind: &str) -> usize {
    let page = node.get(user, path).await;
    page["items"].as_array().into_iter().flatten().filter(|n| n["type"] == kind).count()
}

/// Notifications of `kind` that `user` has, read on `node`.
async fn told(node: &Node, user: &User, kind: &str) -> usize {
    items_of(node, user, "/api/v1/notifications?limit=50", kind).await
}

/// EVENT_UPDATED items in `user`'s feed.
async fn event_updates_in_feed(node: &Node, user: &User) -> usize {
    items_of(node, user, "/api/v1/feed", "EVENT_UPDATED").await
}

async fn open_calls(node: &Node, user: &User) -> usize {
    node.get(user, "/api/v1/me/statuses").await["items"].as_array().map_or(0, Vec::len)
}

async fn pending_follow_ups(database_url: &str) -> i64 {
    sqlx::any::install_default_drivers();
    let mut conn = <sqlx::AnyConnection as sqlx::Connection>::connect(database_url).await.expect("database");
    sqlx::query_scalar("SELECT COUNT(*) FROM event_follow_ups").fetch_one(&mut conn).await.expect("count")
}

/// Commits with consequences on a holding node, kills it, then brings up
/// `after` ordinary nodes on the same database and checks that everything
/// that should have followed did, once.
async fn follow_ups_survive_a_kill(database_url: &str, after: usize) {
    let redis = shared_redis();
    let held = Node::start_with(database_url, &redis, &[("HOLD_FOLLOW_UPS", "1")]).await;
    let org = held.user("organiser").await;
    let (first, second, third) = (held.user("first").await, held.user("second").await, held.user("third").await);
    let goalie = held.user("goalie").await;
    let event = held.event(&org, 1, 1).await;
    let in_hours = |h: i64| rinkside::time::to_rfc3339(chrono::Utc::now().timestamp_millis() + h * 3_600_000);
    let call = held
        .http
        .post(held.url("/api/v1/statuses"))
        .bearer_auth(&org.token)
        .json(&json!({"type": "LOOKING_FOR_SUBS", "entityType": "USER", "eventId": event, "positions": ["GOALIE"], "expiresAt": in_hours(3)}))
        .send()
        .await
        .expect("call for a goalie");
    assert_eq!(call.status(), 201);
    for u in [&first, &second, &third] {
        held.rsvp(u, &event, "ATTENDING").await;
    }
    let res = held
        .http
        .put(held.url(&format!("/api/v1/events/{event}/rsvp")))
        .bearer_auth(&goalie.token)
        .json(&json!({"action": "ATTENDING", "position": "GOALIE"}))
        .send()
        .await
        .expect("the goalie answers");
    assert_eq!(res.status(), 200);
    // first declines: second is promoted. The organiser removes second:
    // third is promoted, second is told of the removal. Then the organiser
    // cancels: third and the goalie are told, and the followers' feeds.
    held.rsvp(&first, &event, "DECLINED").await;
    let res = held
        .http
        .delete(held.url(&format!("/api/v1/events/{event}/attendees/{}", second.id)))
        .bearer_auth(&org.token)
        .send()
        .await
        .expect("remove");
    assert_eq!(res.status(), 200);
    let res = held
        .http
        .post(held.url(&format!("/api/v1/events/{event}/cancel")))
        .bearer_auth(&org.token)
        .json(&json!({"reason": "Ice resurfacer broke"}))
        .send()
        .await
        .expect("cancel");
    assert_eq!(res.status(), 200);

    // Committed and acknowledged, not yet carried out.
    assert_eq!(told(&held, &second, "WAITLIST_PROMOTED").await, 0);
    assert_eq!(open_calls(&held, &org).await, 1, "the call is still up while its record waits");
    assert!(pending_follow_ups(database_url).await >= 4);
    drop(held); // SIGKILL, then reap

    let mut nodes = Vec::new();
    for _ in 0..after {
        nodes.push(Node::start(database_url, &redis).await);
    }
    let node = &nodes[0];
    let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
    while pending_follow_ups(database_url).await > 0 {
        assert!(tokio::time::Instant::now() < deadline, "the records were never carried out");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Another sweep on every node: nothing is carried out twice.
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    assert_eq!(told(node, &second, "WAITLIST_PROMOTED").await, 1);
    assert_eq!(told(node, &second, "REMOVED_FROM_EVENT").await, 1);
    assert_eq!(told(node, &third, "WAITLIST_PROMOTED").await, 1);
    assert_eq!(told(node, &third, "EVENT_CANCELLED").await, 1);
    assert_eq!(told(node, &goalie, "EVENT_CANCELLED").await, 1);
    assert_eq!(told(node, &first, "WAITLIST_PROMOTED").await, 0, "nobody else is told");
    assert_eq!(event_updates_in_feed(node, &goalie).await, 1, "one EVENT_UPDATED for the cancellation");
    assert_eq!(open_calls(node, &org).await, 0, "the goalie place answered the call");
}

#[tokio::test]
async fn a_kill_between_commit_and_follow_ups_loses_nothing_and_two_nodes_carry_each_out_once_on_postgres() {
    follow_ups_survive_a_kill(&fresh_schema_url().await, 2).await;
}

#[tokio::test]
async fn a_kill_between_commit_and_follow_ups_loses_nothing_after_a_restart_on_sqlite() {
    let dir = std::env::temp_dir().join(format!("rinkside-follow-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let url = format!("sqlite://{}", dir.join("rinkside.db").display());
    follow_ups_survive_a_kill(&url, 1).await;
    let _ = std::fs::remove_dir_all(&dir);
}
