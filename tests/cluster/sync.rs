//! Scheduled season sync across two nodes: exactly one runs each due sync.

use super::nodes::*;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const CSV: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/fixtures/schedules/league.csv");

/// A schedule server on loopback that counts the requests it answers.
async fn schedule_server() -> (String, Arc<AtomicUsize>) {
    let body = std::fs::read(CSV).expect("the fixture CSV");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/league.csv", listener.local_addr().unwrap());
    let hits = Arc::new(AtomicUsize::new(0));
    let counted = hits.clone();
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            counted.fetch_add(1, Ordering::SeqCst);
            let body = body.clone();
            tokio::spawn(async move {
                let mut request = [0u8; 4096];
                let _ = socket.read(&mut request).await;
                let head = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: text/csv\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                    body.len()
                );
                let _ = socket.write_all(head.as_bytes()).await;
                let _ = socket.write_all(&body).await;
            });
        }
    });
    (url, hits)
}

async fn call(node: &Node, user: &User, method: reqwest::Method, path: &str, body: Option<Value>) -> Value {
    let mut req = node.http.request(method, node.url(path)).bearer_auth(&user.token);
    if let Some(b) = body {
        req = req.json(&b);
    }
    let res = req.send().await.unwrap();
    let status = res.status();
    let body: Value = res.json().await.unwrap_or(Value::Null);
    assert!(status.is_success(), "{path}: {status} {body}");
    body
}

#[tokio::test]
async fn a_due_season_syncs_on_exactly_one_of_two_nodes() {
    let env = [("SYNC_TICK_SECONDS", "1"), ("SYNC_ALLOW_PRIVATE_NETWORKS", "true")];
    let Cluster { a, b, db } = Cluster::start_with(&shared_redis(), &env).await;
    let (url, hits) = schedule_server().await;
    let staff = a.user("rinkstaff").await;
    let facility = call(
        &a,
        &staff,
        reqwest::Method::POST,
        "/api/v1/facilities",
        Some(json!({"name": "Example Ice Centre", "timezone": "America/Toronto"})),
    )
    .await;
    let facility = facility["id"].as_str().unwrap().to_string();
    let season = call(
        &a,
        &staff,
        reqwest::Method::POST,
        &format!("/api/v1/facilities/{facility}/seasons"),
        Some(json!({"name": "Fall", "startDate": "2026-09-01T00:00:00Z", "endDate": "2027-03-31T00:00:00Z",
                    "syncUrl": url, "syncEnabled": true})),
    )
    .await;
    let season = season["id"].as_str().unwrap().to_string();
    assert!(season_next_sync(&season, &staff, &b).await.is_some(), "sync is scheduled");
    // Due now rather than in a minute.
    sqlx::any::install_default_drivers();
    let mut conn = <sqlx::AnyConnection as sqlx::Connection>::connect(&db).await.unwrap();
    sqlx::query("UPDATE seasons SET sync_next_at = 0 WHERE id = $1").bind(&season).execute(&mut conn).await.unwrap();

    let runs_path = format!("/api/v1/seasons/{season}/sync-runs");
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let runs = call(&b, &staff, reqwest::Method::GET, &runs_path, None).await;
        if !runs["items"].as_array().unwrap().is_empty() {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "no scheduled sync ran");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // Several more ticks on both nodes: still one run, one fetch.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let runs = call(&a, &staff, reqwest::Method::GET, &runs_path, None).await;
    let items = runs["items"].as_array().unwrap();
    assert_eq!(items.len(), 1, "{runs}");
    assert_eq!(items[0]["trigger"], "SCHEDULED");
    assert_eq!(items[0]["games"]["created"], 40);
    assert_eq!(hits.load(Ordering::SeqCst), 1);
    let next = season_next_sync(&season, &staff, &a).await.expect("the next sync is scheduled");
    assert!(next > chrono::Utc::now() + chrono::Duration::minutes(50), "about an hour later: {next}");
}

async fn season_next_sync(season: &str, user: &User, node: &Node) -> Option<chrono::DateTime<chrono::Utc>> {
    let s = call(node, user, reqwest::Method::GET, &format!("/api/v1/seasons/{season}"), None).await;
    s["nextSyncAt"].as_str().and_then(|t| t.parse().ok())
}
