//! Sources a sync refuses: private addresses (when saved and before any
//! connection), what is not a schedule, what is too large. Each a clear
//! 422, nothing changed but the history.

use super::{league, source::fixture};
use crate::helpers::*;
use serde_json::json;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

const TABLES: &[&str] = &["external_rosters", "external_games", "events", "event_teams", "feed_items"];

#[actix_web::test]
async fn private_and_odd_urls_are_refused_when_saved_before_any_connection() {
    let app = spawn_app_with(&[("SYNC_ALLOW_PRIVATE_NETWORKS", "false")]).await;
    let league = league(&app).await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let connections = Arc::new(AtomicUsize::new(0));
    let seen = connections.clone();
    tokio::spawn(async move {
        while listener.accept().await.is_ok() {
            seen.fetch_add(1, Ordering::SeqCst);
        }
    });
    let urls = [
        format!("http://127.0.0.1:{port}/league.csv"),
        format!("http://localhost:{port}/league.csv"),
        format!("http://2130706433:{port}/"),
        format!("http://0177.0.0.1:{port}/"),
        format!("http://0x7f.0.0.1:{port}/"),
        format!("http://127.1:{port}/"),
        format!("http://[::1]:{port}/"),
        format!("http://[::ffff:127.0.0.1]:{port}/"),
        format!("http://[64:ff9b::7f00:1]:{port}/"),
        "http://169.254.169.254/latest/meta-data/".to_string(),
        "http://10.0.0.1/schedule.ics".to_string(),
        "http://192.168.1.1/schedule.ics".to_string(),
        "http://100.64.0.1/schedule.ics".to_string(),
        "http://[fe80::1]/schedule.ics".to_string(),
        "http://0.0.0.0/schedule.ics".to_string(),
        "ftp://example.com/schedule.csv".to_string(),
        "http://user:pass@example.com/schedule.csv".to_string(),
    ];
    let before = app.counts(&["seasons"]).await;
    for url in &urls {
        let (s, b) = app
            .patch(&format!("/api/v1/seasons/{}", league.season), Some(&league.staff), json!({"syncUrl": url}))
            .await;
        assert_error(s, &b, 422, "validation_failed");
        assert!(b["error"]["details"]["syncUrl"].is_string(), "{url}: {b}");
    }
    let (_, season) = app.get(&format!("/api/v1/seasons/{}", league.season), Some(&league.staff)).await;
    assert_eq!(season["syncUrl"], serde_json::Value::Null);
    assert_eq!(app.counts(&["seasons"]).await, before);
    assert_eq!(connections.load(Ordering::SeqCst), 0, "no connection was made");
}

/// Serves `body` as the season's source, syncs, and expects `code`.
async fn refused(content_type: &str, body: Vec<u8>, code: &str) {
    let app = spawn_app().await;
    let league = league(&app).await;
    league.source.put("/schedule", content_type, body);
    league.point_at(&app, "/schedule").await;
    let before = app.counts(TABLES).await;
    let (s, b) = league.sync(&app).await;
    assert_error(s, &b, 422, code);
    assert_eq!(app.counts(TABLES).await, before, "nothing changed");
    let (_, runs) = app.get(&format!("/api/v1/seasons/{}/sync-runs", league.season), Some(&league.staff)).await;
    assert_eq!(runs["items"][0]["ok"], false);
    assert_eq!(runs["items"][0]["error"]["code"], code);
    let (_, season) = app.get(&format!("/api/v1/seasons/{}", league.season), Some(&league.staff)).await;
    assert_eq!(season["lastSync"]["ok"], false);
    assert_eq!(season["lastSyncAt"], serde_json::Value::Null);
}

#[actix_web::test]
async fn a_web_page_is_not_fetched_as_a_schedule() {
    refused("text/html", b"<html><body>Schedule</body></html>".to_vec(), "fetch_failed").await;
}

#[actix_web::test]
async fn text_that_is_not_a_schedule_is_refused() {
    refused("text/plain", b"hello, this is not a schedule\nat all".to_vec(), "not_a_schedule").await;
}

#[actix_web::test]
async fn a_truncated_calendar_is_refused() {
    let ics = fixture("league.ics");
    refused("text/calendar", ics.as_bytes()[..ics.len() / 3].to_vec(), "not_a_schedule").await;
}

#[actix_web::test]
async fn a_csv_without_teams_is_refused_naming_the_column() {
    let app = spawn_app().await;
    let league = league(&app).await;
    league.source.put("/schedule.csv", "text/csv", "Game ID,Date,Start Time,Rink\n1,2026-09-08,20:30,Rink A\n");
    league.point_at(&app, "/schedule.csv").await;
    let (s, b) = league.sync(&app).await;
    assert_error(s, &b, 422, "not_a_schedule");
    assert!(b["error"]["message"].as_str().unwrap().to_lowercase().contains("home"), "{b}");
}

#[actix_web::test]
async fn json_that_is_not_daysmart_is_refused() {
    refused("application/json", br#"{"events": [1, 2, 3]}"#.to_vec(), "not_a_schedule").await;
}

#[actix_web::test]
async fn a_schedule_over_five_megabytes_is_refused() {
    let mut body = fixture("league.csv").into_bytes();
    body.resize(5 * 1024 * 1024 + 10, b' ');
    refused("text/csv", body, "too_large").await;
}
