//! The test harness: each test starts the real app on port 0 against a fresh
//! database — a temp SQLite file, or (with `TEST_DB=postgres`) a fresh schema
//! in `TEST_DATABASE_URL` — and talks to it over HTTP and WebSocket like a
//! client would.

#![allow(dead_code)]

use rinkside::config::Config;
use rinkside::startup::Application;
use rinkside::state::AppState;
use rinkside::time::Clock;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

#[path = "../common/ws.rs"]
mod ws;
pub use ws::{Credentials, Ws};

pub const DEFAULT_PG: &str = "postgres://postgres@127.0.0.1:5432/test";

pub struct TestApp {
    pub address: String,
    pub port: u16,
    pub http: reqwest::Client,
    pub state: actix_web::web::Data<AppState>,
    pub database_url: String,
    /// Keeps the SQLite temp folder alive for the test's duration.
    _dir: Option<tempfile::TempDir>,
}

/// Which backend this test run uses: `TEST_DB=sqlite` (default) or `postgres`.
pub fn backend() -> String {
    std::env::var("TEST_DB").unwrap_or_else(|_| "sqlite".into())
}

/// A fresh database URL for one test.
pub async fn fresh_database() -> (String, Option<tempfile::TempDir>) {
    match backend().as_str() {
        "postgres" => {
            let base = std::env::var("TEST_DATABASE_URL").unwrap_or_else(|_| DEFAULT_PG.into());
            let schema = format!("t_{}", uuid::Uuid::new_v4().simple());
            sqlx::any::install_default_drivers();
            let mut conn = <sqlx::AnyConnection as sqlx::Connection>::connect(&base)
                .await
                .unwrap_or_else(|e| panic!("TEST_DB=postgres but {base} is unreachable: {e}"));
            sqlx::query(sqlx::AssertSqlSafe(format!("CREATE SCHEMA {schema}"))).execute(&mut conn).await.unwrap();
            let sep = if base.contains('?') { '&' } else { '?' };
            (format!("{base}{sep}options=-c%20search_path%3D{schema}"), None)
        }
        "sqlite" => {
            let dir = tempfile::tempdir().unwrap();
            let url = format!("sqlite://{}/rinkside.db", dir.path().display());
            (url, Some(dir))
        }
        other => panic!("TEST_DB must be sqlite or postgres, not {other}"),
    }
}

/// Test configuration: dev auth, port 0, a fresh database; `extra` overrides.
pub fn test_config(database_url: &str, extra: &[(&str, &str)]) -> Config {
    let mut vars: HashMap<String, String> = HashMap::new();
    vars.insert("BIND".into(), "127.0.0.1:0".into());
    vars.insert("DATABASE_URL".into(), database_url.into());
    vars.insert("AUTH_MODE".into(), "dev".into());
    vars.insert("CLIENT_DIST".into(), "/nonexistent".into());
    // Tests run in parallel against one PostgreSQL: keep each app's pool small.
    vars.insert("DATABASE_MAX_CONNECTIONS".into(), "5".into());
    // Schedules come from the test's own loopback server; scheduled syncs
    // only where a test turns them on (they would race its "sync now").
    vars.insert("SYNC_ALLOW_PRIVATE_NETWORKS".into(), "true".into());
    vars.insert("SYNC_TICK_SECONDS".into(), "0".into());
    // Reminders run where a test drives them (`notify::reminders::run`)
    // with its own clock, or turns the ticks on.
    vars.insert("REMINDER_TICK_SECONDS".into(), "0".into());
    for (k, v) in extra {
        vars.insert(k.to_string(), v.to_string());
    }
    if !vars.contains_key("AUTH_MODE_KEEP") && vars.contains_key("CLERK_JWT_KEY") {
        vars.remove("AUTH_MODE");
    }
    Config::from_lookup(|k| vars.get(k).cloned()).unwrap()
}

pub async fn spawn_app() -> TestApp {
    spawn_app_with(&[]).await
}

pub async fn spawn_app_with(extra: &[(&str, &str)]) -> TestApp {
    let (url, dir) = fresh_database().await;
    let config = test_config(&url, extra);
    start(config, None, url, dir).await
}

/// With a pinned clock (epoch ms), e.g. for webhook signature timestamps.
pub async fn spawn_app_with_clock(extra: &[(&str, &str)], now_ms: i64) -> TestApp {
    let (url, dir) = fresh_database().await;
    let config = test_config(&url, extra);
    start(config, Some(Arc::new(move || now_ms)), url, dir).await
}

/// With a clock that runs `offset` ahead of real time; tests move it on
/// (expiry) by adding to the returned cell.
pub async fn spawn_app_with_offset_clock() -> (TestApp, Arc<std::sync::atomic::AtomicI64>) {
    let (url, dir) = fresh_database().await;
    let config = test_config(&url, &[]);
    let offset = Arc::new(std::sync::atomic::AtomicI64::new(0));
    let ahead = offset.clone();
    let clock: Clock =
        Arc::new(move || chrono::Utc::now().timestamp_millis() + ahead.load(std::sync::atomic::Ordering::SeqCst));
    (start(config, Some(clock), url, dir).await, offset)
}

async fn start(config: Config, clock: Option<Clock>, database_url: String, dir: Option<tempfile::TempDir>) -> TestApp {
    let app = match clock {
        Some(c) => Application::build_with_clock(config, c).await,
        None => Application::build(config).await,
    }
    .expect("app builds");
    let port = app.port();
    let state = app.state();
    actix_web::rt::spawn(app.run_until_stopped());
    TestApp {
        address: format!("http://127.0.0.1:{port}"),
        port,
        http: reqwest::Client::new(),
        state,
        database_url,
        _dir: dir,
    }
}

/// The server binary as a process of its own, on a fresh SQLite file, for
/// what only a whole process shows (its descriptors, its exit on SIGTERM).
pub struct ServerProcess {
    pub child: std::process::Child,
    pub port: u16,
    /// Keeps the SQLite folder alive while the process runs.
    _dir: tempfile::TempDir,
}

impl ServerProcess {
    /// Starts it and waits until it answers `/healthz`.
    pub async fn start() -> ServerProcess {
        let dir = tempfile::tempdir().unwrap();
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let child = std::process::Command::new(env!("CARGO_BIN_EXE_rinkside"))
            .env("DATABASE_URL", format!("sqlite://{}/r.db", dir.path().display()))
            .env("BIND", format!("127.0.0.1:{port}"))
            .env("AUTH_MODE", "dev")
            .env("RUST_LOG", "warn")
            .spawn()
            .unwrap();
        let server = ServerProcess { child, port, _dir: dir };
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        while reqwest::get(format!("http://127.0.0.1:{port}/healthz")).await.is_err() {
            assert!(tokio::time::Instant::now() < deadline, "server never started");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        server
    }

    pub fn ws_url(&self) -> String {
        format!("ws://127.0.0.1:{}/api/v1/ws", self.port)
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A signed-in test user.
#[derive(Clone, Debug)]
pub struct TestUser {
    pub id: String,
    pub token: String,
    pub username: String,
}

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.address)
    }

    /// Signs in (dev auth) as `name`, creating the user.
    pub async fn user(&self, name: &str) -> TestUser {
        let res = self
            .http
            .post(self.url("/api/v1/dev/token"))
            .json(&json!({"clerkId": format!("dev_{name}"), "username": name}))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200, "dev token for {name}");
        let body: Value = res.json().await.unwrap();
        TestUser {
            id: body["user"]["id"].as_str().unwrap().to_string(),
            token: body["token"].as_str().unwrap().to_string(),
            username: name.to_string(),
        }
    }

    /// A request with the user's token (or none).
    pub fn req(&self, method: reqwest::Method, path: &str, user: Option<&TestUser>) -> reqwest::RequestBuilder {
        let mut rb = self.http.request(method, self.url(path));
        if let Some(u) = user {
            rb = rb.bearer_auth(&u.token);
        }
        rb
    }

    pub async fn get(&self, path: &str, user: Option<&TestUser>) -> (u16, Value) {
        send(self.req(reqwest::Method::GET, path, user)).await
    }

    pub async fn post(&self, path: &str, user: Option<&TestUser>, body: Value) -> (u16, Value) {
        send(self.req(reqwest::Method::POST, path, user).json(&body)).await
    }

    pub async fn patch(&self, path: &str, user: Option<&TestUser>, body: Value) -> (u16, Value) {
        send(self.req(reqwest::Method::PATCH, path, user).json(&body)).await
    }

    pub async fn put(&self, path: &str, user: Option<&TestUser>, body: Option<Value>) -> (u16, Value) {
        let rb = self.req(reqwest::Method::PUT, path, user);
        send(match body {
            Some(b) => rb.json(&b),
            None => rb,
        })
        .await
    }

    pub async fn delete(&self, path: &str, user: Option<&TestUser>) -> (u16, Value) {
        send(self.req(reqwest::Method::DELETE, path, user)).await
    }

    /// Opens a WebSocket (no Origin header, like a display or a script).
    pub async fn ws(&self) -> Ws {
        Ws::connect(&format!("ws://127.0.0.1:{}/api/v1/ws", self.port)).await
    }

    /// Waits until every event commit's follow-up record has been carried
    /// out (feed items, notifications, settled calls for subs: they follow
    /// the commit off the actor's path, a few milliseconds later).
    pub async fn settled(&self) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        while self.count("event_follow_ups").await > 0 {
            assert!(tokio::time::Instant::now() < deadline, "event follow-ups were never carried out");
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    /// Lets `user` collect payments the one way there is: they own a rink
    /// (a new one) and, as its staff, turn their own collection on
    /// (docs/sides-and-bill.md › Who may collect).
    pub async fn collector(&self, user: &TestUser) {
        let (s, f) = self
            .post("/api/v1/facilities", Some(user), json!({"name": "Collector Rink", "timezone": "America/Toronto"}))
            .await;
        assert_eq!(s, 201, "{f}");
        let (s, b) = self
            .put(&format!("/api/v1/users/{}/payment-collection", user.id), Some(user), Some(json!({"enabled": true})))
            .await;
        assert_eq!(s, 200, "{b}");
    }

    /// Counts rows of a table, to prove a refused write changed nothing.
    pub async fn count(&self, table: &str) -> i64 {
        sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) FROM {table}")))
            .fetch_one(&self.state.db.pool)
            .await
            .unwrap()
    }
}

/// Sends and decodes: status plus JSON body (Null when empty).
pub async fn send(rb: reqwest::RequestBuilder) -> (u16, Value) {
    let res = rb.send().await.unwrap();
    let status = res.status().as_u16();
    let text = res.text().await.unwrap();
    let body = if text.is_empty() { Value::Null } else { serde_json::from_str(&text).unwrap_or(Value::String(text)) };
    (status, body)
}

/// Asserts the contract's error envelope with this code.
pub fn assert_error(status: u16, body: &Value, want_status: u16, want_code: &str) {
    assert_eq!(status, want_status, "status for {body}");
    assert_eq!(body["error"]["code"], want_code, "code in {body}");
    assert!(body["error"]["message"].is_string(), "message in {body}");
}

impl Credentials for TestUser {
    fn token(&self) -> &str {
        &self.token
    }
    fn user_id(&self) -> &str {
        &self.id
    }
}

impl TestApp {
    /// Row counts of several tables at once, to compare before and after a
    /// refused request.
    pub async fn counts(&self, tables: &[&str]) -> Vec<(String, i64)> {
        let mut out = Vec::with_capacity(tables.len());
        for table in tables {
            out.push((table.to_string(), self.count(table).await));
        }
        out
    }

    /// Sends a raw body with a Content-Type (or none), for inputs that are
    /// not JSON values: malformed text, oversize bodies, wrong media types.
    pub async fn raw(
        &self,
        method: reqwest::Method,
        path: &str,
        user: Option<&TestUser>,
        content_type: Option<&str>,
        body: impl Into<reqwest::Body>,
    ) -> (u16, Value) {
        let mut rb = self.req(method, path, user).body(body);
        if let Some(ct) = content_type {
            rb = rb.header(reqwest::header::CONTENT_TYPE, ct);
        }
        send(rb).await
    }
}
