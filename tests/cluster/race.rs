//! The race for the last slot across two nodes.

#[path = "../common/race_check.rs"]
mod race_check;

use super::nodes::*;
use futures_util::future::join_all;
use serde_json::json;
use std::collections::HashMap;

#[tokio::test]
async fn five_hundred_clients_on_two_nodes_race_for_ten_skater_and_one_goalie_places() {
    let cluster = Cluster::start(&shared_redis()).await;
    let org = cluster.a.user("organiser").await;
    let event = cluster.a.event(&org, 10, 1).await;
    let mut users = Vec::new();
    for i in 0..500 {
        let node = if i % 2 == 0 { &cluster.a } else { &cluster.b };
        users.push(node.user(&format!("racer{i:03}")).await);
    }
    let goalie_ids: Vec<String> =
        users.iter().enumerate().filter(|(i, _)| i % 10 == 0).map(|(_, u)| u.id.clone()).collect();
    // Everyone connected and signed in first, then all commands at once.
    let mut sockets = Vec::new();
    for (i, u) in users.iter().enumerate() {
        let node = if i % 2 == 0 { &cluster.a } else { &cluster.b };
        let mut ws = node.ws().await;
        ws.auth(u).await;
        sockets.push(ws);
    }
    let sends = sockets.into_iter().zip(users.iter()).enumerate().map(|(i, (mut ws, u))| {
        let event = event.clone();
        let position = if i % 10 == 0 { "GOALIE" } else { "CENTER" };
        let id = u.id.clone();
        async move {
            let command = json!({"kind": "rsvp", "eventId": event, "action": "ATTENDING", "position": position});
            let frame = ws.command("race-1", command).await;
            assert_eq!(frame["ok"], true, "{frame}");
            (id, frame["data"].clone())
        }
    });
    let replies: HashMap<String, serde_json::Value> = join_all(sends).await.into_iter().collect();
    let doc = cluster.b.attendees(&org, &event).await;
    race_check::check_race(&doc, &replies, 10, 1, &goalie_ids);
    // Both nodes serve the committed truth, whichever actor decided last.
    assert_eq!(cluster.a.attendees(&org, &event).await, doc);
    let mut late = cluster.b.ws().await;
    late.auth(&org).await;
    let snap = late.subscribe(&format!("event:{event}")).await;
    assert_eq!(snap["seq"], doc["version"]);
}

/// Both nodes combine batches of many events into shared transactions at
/// the same time (locking the events in id order): nobody is overbooked or
/// refused, and every event ends with its own fair list.
#[tokio::test]
async fn two_nodes_busy_on_the_same_ten_events_at_once_keep_every_list_fair() {
    let cluster = Cluster::start(&shared_redis()).await;
    let org = cluster.a.user("organiser").await;
    let mut events = Vec::new();
    for _ in 0..10 {
        events.push(cluster.a.event(&org, 4, 1).await);
    }
    let mut users = Vec::new();
    for i in 0..40 {
        let node = if i % 2 == 0 { &cluster.a } else { &cluster.b };
        users.push(node.user(&format!("busy{i:02}")).await);
    }
    let goalie_ids: Vec<String> = users.iter().step_by(10).map(|u| u.id.clone()).collect();
    let mut sockets = Vec::new();
    for (i, u) in users.iter().enumerate() {
        let node = if i % 2 == 0 { &cluster.a } else { &cluster.b };
        let mut ws = node.ws().await;
        ws.auth(u).await;
        sockets.push(ws);
    }
    // Each user walks the events from a different starting point, so the
    // nodes' combined transactions touch the same events in every order.
    let runs = sockets.into_iter().zip(users.iter()).enumerate().map(|(i, (mut ws, u))| {
        let events = events.clone();
        let position = if i % 10 == 0 { "GOALIE" } else { "LEFT_DEFENSE" };
        let id = u.id.clone();
        async move {
            let mut replies = HashMap::new();
            for k in 0..events.len() {
                let event = &events[(i + k) % events.len()];
                let command = json!({"kind": "rsvp", "eventId": event, "action": "ATTENDING", "position": position});
                let frame = ws.command(&format!("c{k}"), command).await;
                assert_eq!(frame["ok"], true, "{frame}");
                replies.insert(event.clone(), frame["data"].clone());
            }
            (id, replies)
        }
    });
    let answers: Vec<(String, HashMap<String, serde_json::Value>)> = join_all(runs).await;
    for event in &events {
        let doc = cluster.b.attendees(&org, event).await;
        let replies: HashMap<String, serde_json::Value> =
            answers.iter().map(|(id, r)| (id.clone(), r[event].clone())).collect();
        race_check::check_race(&doc, &replies, 4, 1, &goalie_ids);
    }
}
