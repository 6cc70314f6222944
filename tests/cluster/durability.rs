//! Acknowledged means durable: a node SIGKILLed in the middle of an RSVP
//! burst loses no acknowledged answer, on PostgreSQL and on SQLite, and the
//! event actor a restarted node builds agrees with the database.

use super::nodes::*;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Racers in the burst; the node dies long before all have answered.
const RACERS: usize = 400;
/// Acknowledged RSVPs to wait for before the kill.
const ACKED_BEFORE_KILL: usize = 40;

async fn rsvp_burst_survives_a_kill(database_url: &str) {
    let redis = shared_redis();
    let node = Node::start(database_url, &redis).await;
    let org = node.user("organiser").await;
    let event = node.event(&org, 10, 1).await;
    let mut users = Vec::new();
    for i in 0..RACERS {
        users.push(node.user(&format!("burst{i:03}")).await);
    }
    let users = Arc::new(users);
    let base = node.url("");
    let acked: Arc<Mutex<Vec<(usize, Value)>>> = Arc::new(Mutex::new(Vec::new()));
    let next = Arc::new(AtomicUsize::new(0));
    let mut workers = Vec::new();
    for _ in 0..16 {
        let (users, acked, next, base, event) =
            (users.clone(), acked.clone(), next.clone(), base.clone(), event.clone());
        workers.push(tokio::spawn(async move {
            let http = reqwest::Client::builder().timeout(Duration::from_secs(10)).build().expect("client");
            loop {
                let n = next.fetch_add(1, Ordering::SeqCst);
                if n >= RACERS {
                    return;
                }
                let position = if n % 10 == 0 { "GOALIE" } else { "CENTER" };
                let sent = http
                    .put(format!("{base}/api/v1/events/{event}/rsvp"))
                    .bearer_auth(&users[n].token)
                    .header("Idempotency-Key", format!("burst-{n}"))
                    .json(&json!({"action": "ATTENDING", "position": position}))
                    .send()
                    .await;
                let Ok(res) = sent else { return };
                if res.status() != 200 {
                    return;
                }
                let Ok(body) = res.json::<Value>().await else { return };
                acked.lock().expect("lock").push((n, body));
            }
        }));
    }
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while acked.lock().expect("lock").len() < ACKED_BEFORE_KILL {
        assert!(tokio::time::Instant::now() < deadline, "the burst is too slow");
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    drop(node); // SIGKILL, then reap
    for w in workers {
        let _ = w.await;
    }
    let acked = acked.lock().expect("lock").clone();
    assert!(next.load(Ordering::SeqCst) < RACERS, "the node died mid-burst, not after it");

    // A fresh node reads what the database holds.
    let node = Node::start(database_url, &redis).await;
    let before = node.attendees(&org, &event).await;
    let mut place: HashMap<String, (&str, i64)> = HashMap::new();
    for a in before["attending"].as_array().into_iter().flatten() {
        place.insert(a["userId"].as_str().unwrap_or_default().to_string(), ("ATTENDING", 0));
    }
    for w in before["waitlist"].as_array().into_iter().flatten() {
        place.insert(
            w["userId"].as_str().unwrap_or_default().to_string(),
            ("WAITLISTED", w["rank"].as_i64().unwrap_or_default()),
        );
    }
    assert!(before["counts"]["skaters"].as_i64() <= Some(10), "{before}");
    assert!(before["counts"]["goalies"].as_i64() <= Some(1), "{before}");
    for (n, reply) in &acked {
        let status = reply["status"].as_str().unwrap_or_default();
        let stored = place.get(&users[*n].id);
        // Nobody declined or was removed, so an acknowledged place is kept
        // exactly: attending stays attending, a waitlist rank stays.
        let expected = (status, reply["waitlistRank"].as_i64().unwrap_or(0));
        assert_eq!(stored, Some(&expected), "racer {n} was told {reply} before the kill");
        assert!(reply["version"].as_i64() <= before["version"].as_i64());
    }

    // The restarted actor starts from the database: one more RSVP moves the
    // version by exactly one and changes the document by exactly that person.
    let late = node.user("late_skater").await;
    let reply = node.rsvp(&late, &event, "ATTENDING").await;
    assert_eq!(reply["version"].as_i64(), before["version"].as_i64().map(|v| v + 1), "{reply}");
    let after = node.attendees(&org, &event).await;
    let listed = |doc: &Value| -> Vec<String> {
        ["attending", "waitlist"]
            .iter()
            .flat_map(|k| doc[*k].as_array().cloned().unwrap_or_default())
            .map(|e| e["userId"].as_str().unwrap_or_default().to_string())
            .collect()
    };
    let mut expected = listed(&before);
    expected.push(late.id.clone());
    assert_eq!(listed(&after), expected, "the actor's state is the database's plus the new RSVP");

    // Every acknowledged command retried on the new node answers its first
    // reply and applies nothing twice.
    for (n, reply) in &acked {
        let position = if n % 10 == 0 { "GOALIE" } else { "CENTER" };
        let res = node
            .http
            .put(node.url(&format!("/api/v1/events/{event}/rsvp")))
            .bearer_auth(&users[*n].token)
            .header("Idempotency-Key", format!("burst-{n}"))
            .json(&json!({"action": "ATTENDING", "position": position}))
            .send()
            .await
            .expect("retry");
        assert_eq!(res.status(), 200);
        assert_eq!(&res.json::<Value>().await.expect("json"), reply, "racer {n} answers its first reply");
    }
    assert_eq!(node.attendees(&org, &event).await["version"], after["version"], "no retry applied again");
}

#[tokio::test]
async fn killing_a_node_mid_rsvp_burst_loses_no_acknowledged_rsvp_on_postgres() {
    rsvp_burst_survives_a_kill(&fresh_schema_url().await).await;
}

#[tokio::test]
async fn killing_a_node_mid_rsvp_burst_loses_no_acknowledged_rsvp_on_sqlite() {
    let dir = std::env::temp_dir().join(format!("rinkside-kill-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let url = format!("sqlite://{}", dir.join("rinkside.db").display());
    rsvp_burst_survives_a_kill(&url).await;
    let _ = std::fs::remove_dir_all(&dir);
}
