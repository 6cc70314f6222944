//! Team chat across nodes (docs/chat.md): messages posted on either node
//! reach a member watching on the other in one order, and a node killed
//! mid-burst loses no acknowledged message — a retry with its key answers
//! the message already posted and posts nothing.

use super::nodes::*;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// An event's chat with `n` people in (the organiser is a member too).
async fn event_chat(node: &Node, n: usize) -> (User, Vec<User>, String) {
    let org = node.user("organiser").await;
    let event = node.event(&org, 100, 2).await;
    let mut people = Vec::new();
    for i in 0..n {
        let p = node.user(&format!("chatter{i:02}")).await;
        node.rsvp(&p, &event, "ATTENDING").await;
        people.push(p);
    }
    (org, people, format!("event-{event}"))
}

async fn post(node: &Node, who: &User, chat: &str, body: &str, key: &str) -> reqwest::Response {
    node.http
        .post(node.url(&format!("/api/v1/chats/{chat}/messages")))
        .bearer_auth(&who.token)
        .header("Idempotency-Key", key)
        .json(&json!({"body": body}))
        .send()
        .await
        .expect("post")
}

#[tokio::test]
async fn messages_posted_on_either_node_reach_a_member_on_the_other_in_one_order() {
    let cluster = Cluster::start(&shared_redis()).await;
    let (org, people, chat) = event_chat(&cluster.a, 2).await;
    let mut ws = cluster.b.ws().await;
    ws.auth(&people[1]).await;
    ws.subscribe(&format!("chat:{chat}")).await;
    for n in 1..=20 {
        let (node, who) = if n % 2 == 0 { (&cluster.a, &people[0]) } else { (&cluster.b, &org) };
        let res = post(node, who, &chat, &format!("message {n}"), &format!("m-{n}")).await;
        assert_eq!(res.status(), 201);
    }
    let mut seen = Vec::new();
    while seen.len() < 20 {
        let u = ws.next_of("update", Duration::from_secs(10)).await.expect("every message reaches node B");
        seen.push((u["data"]["message"]["seq"].as_i64().unwrap_or_default(), u["data"]["message"]["body"].clone()));
    }
    let expected: Vec<(i64, Value)> = (1..=20).map(|n| (n, json!(format!("message {n}")))).collect();
    assert_eq!(seen, expected, "in order, none missing, none twice");
}

#[tokio::test]
async fn killing_a_node_mid_burst_loses_no_acknowledged_message() {
    const SENDS: usize = 400;
    let redis = shared_redis();
    let db = fresh_schema_url().await;
    let node = Node::start(&db, &redis).await;
    let (_, people, chat) = event_chat(&node, 16).await;
    let people = Arc::new(people);
    let acked: Arc<Mutex<Vec<(usize, Value)>>> = Arc::new(Mutex::new(Vec::new()));
    let next = Arc::new(AtomicUsize::new(0));
    let base = node.url("");
    let mut workers = Vec::new();
    for w in 0..people.len() {
        let (people, acked, next, base, chat) =
            (people.clone(), acked.clone(), next.clone(), base.clone(), chat.clone());
        workers.push(tokio::spawn(async move {
            let http = reqwest::Client::builder().timeout(Duration::from_secs(10)).build().expect("client");
            loop {
                let n = next.fetch_add(1, Ordering::SeqCst);
                if n >= SENDS {
                    return;
                }
                let sent = http
                    .post(format!("{base}/api/v1/chats/{chat}/messages"))
                    .bearer_auth(&people[w].token)
                    .header("Idempotency-Key", format!("burst-{n}"))
                    .json(&json!({"body": format!("burst {n}")}))
                    .send()
                    .await;
                let Ok(res) = sent else { return };
                if res.status() != 201 {
                    // The flood limit (20 at once each) or the node going down.
                    continue;
                }
                let Ok(body) = res.json::<Value>().await else { return };
                acked.lock().expect("lock").push((w, body));
            }
        }));
    }
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while acked.lock().expect("lock").len() < 60 {
        assert!(tokio::time::Instant::now() < deadline, "the burst is too slow");
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    drop(node); // SIGKILL, then reap
    for w in workers {
        let _ = w.await;
    }
    let acked = acked.lock().expect("lock").clone();

    let node = Node::start(&db, &redis).await;
    let mut stored: HashMap<String, Value> = HashMap::new();
    let mut before: Option<i64> = None;
    let mut seqs = Vec::new();
    loop {
        let q = before.map(|b| format!("&before={b}")).unwrap_or_default();
        let page = node.get(&people[0], &format!("/api/v1/chats/{chat}/messages?limit=100{q}")).await;
        for m in page["items"].as_array().cloned().unwrap_or_default() {
            seqs.push(m["seq"].as_i64().unwrap_or_default());
            stored.insert(m["id"].as_str().unwrap_or_default().to_string(), m);
        }
        match page["nextBefore"].as_i64() {
            Some(b) => before = Some(b),
            None => break,
        }
    }
    seqs.sort_unstable();
    assert_eq!(seqs, (1..=seqs.len() as i64).collect::<Vec<_>>(), "one place each, no gaps");
    for (_, reply) in &acked {
        let kept = stored.get(reply["id"].as_str().unwrap_or_default());
        assert_eq!(
            kept.map(|m| (&m["seq"], &m["body"])),
            Some((&reply["seq"], &reply["body"])),
            "acknowledged {reply}"
        );
    }
    // A retry of an acknowledged send answers the message already posted.
    let (w, reply) = &acked[0];
    let n: usize = reply["body"].as_str().unwrap_or_default().trim_start_matches("burst ").parse().unwrap_or_default();
    let res = post(&node, &people[*w], &chat, &format!("burst {n}"), &format!("burst-{n}")).await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.json::<Value>().await.expect("json")["id"], reply["id"]);
    let total = node.get(&people[0], &format!("/api/v1/chats/{chat}/messages?limit=1")).await;
    assert_eq!(total["items"][0]["seq"].as_i64(), Some(seqs.len() as i64), "the retry posted nothing");
}
