//! Live scoring across nodes: a score keeper on node A and signed-out
//! displays on node B, and a node killed (SIGKILL) in the middle of a burst
//! of actions losing none that it acknowledged.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::nodes::*;
use serde_json::{Value, json};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

async fn call(
    node: &Node,
    method: reqwest::Method,
    path: &str,
    user: Option<&User>,
    body: Option<Value>,
) -> (u16, Value) {
    let mut rb = node.http.request(method, node.url(path));
    if let Some(u) = user {
        rb = rb.bearer_auth(&u.token);
    }
    if let Some(b) = body {
        rb = rb.json(&b);
    }
    let res = rb.send().await.expect("request");
    let status = res.status().as_u16();
    let text = res.text().await.expect("body");
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

async fn created(node: &Node, user: &User, path: &str, body: Value) -> String {
    let (s, b) = call(node, reqwest::Method::POST, path, Some(user), Some(body)).await;
    assert_eq!(s, 201, "{path}: {b}");
    b["id"].as_str().unwrap_or_else(|| panic!("id in {b}")).to_string()
}

/// A season with two rosters of three players each and a STARTed game
/// between them, all set up by the facility owner (who may score).
struct LiveGame {
    scorer: User,
    season: String,
    game: String,
    /// `(rosterId, player ids)` for home and away.
    sides: Vec<(String, Vec<String>)>,
}

async fn live_game(node: &Node) -> LiveGame {
    let rink = node.user("rink_owner").await;
    let facility =
        created(node, &rink, "/api/v1/facilities", json!({"name": "Maple Arena", "timezone": "America/Toronto"})).await;
    let season = created(
        node,
        &rink,
        &format!("/api/v1/facilities/{facility}/seasons"),
        json!({"name": "Winter 2026", "startDate": "2026-09-01T00:00:00Z", "endDate": "2027-03-31T00:00:00Z"}),
    )
    .await;
    let mut sides = Vec::new();
    for name in ["Owls", "Hawks"] {
        let team = created(node, &rink, "/api/v1/teams", json!({"name": name})).await;
        let roster =
            created(node, &rink, "/api/v1/rosters", json!({"teamId": team, "seasonId": season, "name": name})).await;
        let mut players = Vec::new();
        for n in 0..3 {
            let p = node.user(&format!("{}_{n}", name.to_lowercase())).await;
            let (s, b) = call(
                node,
                reqwest::Method::POST,
                &format!("/api/v1/rosters/{roster}/players"),
                Some(&rink),
                Some(json!({"userId": p.id, "jerseyNumber": n + 1})),
            )
            .await;
            assert_eq!(s, 201, "{b}");
            players.push(p.id);
        }
        sides.push((roster, players));
    }
    let game = created(
        node,
        &rink,
        "/api/v1/games",
        json!({"homeRosterId": sides[0].0, "awayRosterId": sides[1].0, "seasonId": season, "scheduledAt": "2026-11-20T19:30:00Z"}),
    )
    .await;
    let (s, b) = call(
        node,
        reqwest::Method::POST,
        &format!("/api/v1/games/{game}/actions"),
        Some(&rink),
        Some(json!({"type": "START"})),
    )
    .await;
    assert_eq!(s, 200, "{b}");
    LiveGame { scorer: rink, season, game, sides }
}

fn goal_body(g: &LiveGame, n: usize) -> Value {
    let (roster, players) = &g.sides[n % 2];
    json!({"type": "GOAL", "rosterId": roster, "scorerId": players[(n / 2) % players.len()]})
}

fn total(doc: &Value) -> i64 {
    doc["homeScore"].as_i64().unwrap_or_default() + doc["awayScore"].as_i64().unwrap_or_default()
}

#[tokio::test]
async fn a_scorer_on_node_a_and_signed_out_displays_on_node_b_see_every_goal_in_order() {
    let cluster = Cluster::start(&shared_redis()).await;
    let g = live_game(&cluster.a).await;
    let topic = format!("game:{}", g.game);
    let mut displays = Vec::new();
    for _ in 0..3 {
        let mut ws = cluster.b.ws().await;
        let snap = ws.subscribe(&topic).await;
        assert_eq!((snap["seq"].as_i64(), snap["data"]["status"].as_str()), (Some(1), Some("LIVE")), "{snap}");
        displays.push(ws);
    }
    let mut board = cluster.b.ws().await;
    let season_snap = board.subscribe(&format!("season:{}", g.season)).await;
    let goals = 20;
    // Each goal is awaited on every display before the next is posted, so
    // none is coalesced with a newer state in a display's outbox.
    for n in 1..=goals {
        let (s, b) = call(
            &cluster.a,
            reqwest::Method::POST,
            &format!("/api/v1/games/{}/actions", g.game),
            Some(&g.scorer),
            Some(goal_body(&g, n - 1)),
        )
        .await;
        assert_eq!(s, 200, "{b}");
        for ws in &mut displays {
            let u = ws.next_of("update", Duration::from_secs(10)).await.expect("every goal reaches node B");
            let seq = u["seq"].as_i64().unwrap_or_default();
            assert_eq!(seq, 1 + n as i64, "in order, none missing: {u}");
            assert_eq!(total(&u["data"]), n as i64);
            // An update carries the entries it added (CONTRACT.md › Update frames stay small).
            let last = u["data"]["entries"].as_array().and_then(|l| l.last()).cloned().unwrap_or_default();
            assert_eq!(last["playerId"], goal_body(&g, n - 1)["scorerId"], "the goal's scorer");
        }
    }
    // The season board on node B follows too, seq strictly increasing.
    let mut seq = season_snap["seq"].as_i64().unwrap_or_default();
    loop {
        let u = board.next_of("update", Duration::from_secs(10)).await.expect("season pushes reach node B");
        let next = u["seq"].as_i64().unwrap_or_default();
        assert!(next > seq, "strictly increasing");
        seq = next;
        if total(&u["data"]["schedule"][0]) == goals as i64 {
            break;
        }
    }
}

#[tokio::test]
async fn killing_a_node_mid_burst_loses_no_acknowledged_action() {
    let redis = shared_redis();
    let db = fresh_schema_url().await;
    let node = Node::start(&db, &redis).await;
    let g = Arc::new(live_game(&node).await);
    let base = node.url("");
    let acked: Arc<Mutex<Vec<(String, Value)>>> = Arc::new(Mutex::new(Vec::new()));
    let next = Arc::new(AtomicUsize::new(0));
    let mut workers = Vec::new();
    for _ in 0..8 {
        let (g, acked, next, base) = (g.clone(), acked.clone(), next.clone(), base.clone());
        workers.push(tokio::spawn(async move {
            let http = reqwest::Client::builder().timeout(Duration::from_secs(10)).build().expect("client");
            loop {
                let n = next.fetch_add(1, Ordering::SeqCst);
                if n >= 2000 {
                    return;
                }
                let key = format!("burst-{n}");
                let sent = http
                    .post(format!("{base}/api/v1/games/{}/actions", g.game))
                    .bearer_auth(&g.scorer.token)
                    .header("Idempotency-Key", &key)
                    .json(&goal_body(&g, n))
                    .send()
                    .await;
                let Ok(res) = sent else { return };
                if res.status() != 200 {
                    return;
                }
                let Ok(body) = res.json::<Value>().await else {
                    return;
                };
                acked.lock().expect("lock").push((key, body));
            }
        }));
    }
    // Let a good number be acknowledged, then SIGKILL the node mid-burst.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while acked.lock().expect("lock").len() < 40 {
        assert!(tokio::time::Instant::now() < deadline, "the burst is too slow");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    drop(node);
    for w in workers {
        let _ = w.await;
    }
    let acked = acked.lock().expect("lock").clone();
    assert!(acked.len() >= 40);
    assert!(next.load(Ordering::SeqCst) < 2000, "the node died mid-burst, not after it");

    let node = Node::start(&db, &redis).await;
    let (s, after) = call(&node, reqwest::Method::GET, &format!("/api/v1/games/{}", g.game), None, None).await;
    assert_eq!(s, 200, "{after}");
    let log = after["log"].as_array().cloned().unwrap_or_default();
    let goals_in_log = log.iter().filter(|e| e["type"] == "GOAL").count() as i64;
    assert_eq!(total(&after), goals_in_log, "the score is the log");
    assert!(goals_in_log >= acked.len() as i64, "{goals_in_log} goals stored, {} acknowledged", acked.len());
    let key_of = |e: &Value| {
        (e["seq"].as_i64(), e["type"].as_str().map(str::to_string), e["playerId"].as_str().map(str::to_string))
    };
    let stored: Vec<_> = log.iter().map(key_of).collect();
    for (key, reply) in &acked {
        assert!(reply["version"].as_i64() <= after["version"].as_i64(), "{key}");
        for entry in reply["log"].as_array().into_iter().flatten() {
            assert!(stored.contains(&key_of(entry)), "{key}: acknowledged entry {entry} survived the kill");
        }
    }
    // Retrying every acknowledged command on the new node replays its
    // answer and applies nothing twice.
    for (key, reply) in &acked {
        let n: usize = key.trim_start_matches("burst-").parse().expect("n");
        let res = node
            .http
            .post(node.url(&format!("/api/v1/games/{}/actions", g.game)))
            .bearer_auth(&g.scorer.token)
            .header("Idempotency-Key", key)
            .json(&goal_body(&g, n))
            .send()
            .await
            .expect("retry");
        assert_eq!(res.status(), 200);
        let again: Value = res.json().await.expect("json");
        assert_eq!(&again, reply, "{key} answers its first reply");
    }
    let (_, last) = call(&node, reqwest::Method::GET, &format!("/api/v1/games/{}", g.game), None, None).await;
    assert_eq!(total(&last), total(&after), "no retry applied again");
}
