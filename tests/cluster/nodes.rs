//! Starting server processes, a private Redis, and talking to them.

#![allow(dead_code)]

use serde_json::{Value, json};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

#[path = "../common/ws.rs"]
mod ws;
pub use ws::{Credentials, Ws};

pub fn pg_base() -> String {
    std::env::var("TEST_DATABASE_URL").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".into())
}

pub fn shared_redis() -> String {
    std::env::var("TEST_REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".into())
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free port")
}

/// A fresh schema in the test database, shared by both nodes.
pub async fn fresh_schema_url() -> String {
    let base = pg_base();
    sqlx::any::install_default_drivers();
    let mut conn = <sqlx::AnyConnection as sqlx::Connection>::connect(&base)
        .await
        .unwrap_or_else(|e| panic!("cluster tests need PostgreSQL at {base}: {e}"));
    let schema = format!("c_{}", uuid::Uuid::new_v4().simple());
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE SCHEMA {schema}"))).execute(&mut conn).await.expect("schema");
    let sep = if base.contains('?') { '&' } else { '?' };
    format!("{base}{sep}options=-c%20search_path%3D{schema}")
}

pub struct Node {
    pub port: u16,
    child: Child,
    pub http: reqwest::Client,
}

impl Node {
    pub async fn start(database_url: &str, redis_url: &str) -> Node {
        Self::start_with(database_url, redis_url, &[]).await
    }

    /// With more environment (e.g. the sync scheduler's tick).
    pub async fn start_with(database_url: &str, redis_url: &str, env: &[(&str, &str)]) -> Node {
        let port = free_port();
        let child = Command::new(env!("CARGO_BIN_EXE_rinkside"))
            .envs(env.iter().copied())
            .env("DATABASE_URL", database_url)
            .env("REDIS_URL", redis_url)
            .env("DATABASE_MAX_CONNECTIONS", "8")
            .env("BIND", format!("127.0.0.1:{port}"))
            .env("AUTH_MODE", "dev")
            .env("CLIENT_DIST", "/nonexistent")
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the server binary starts");
        let node = Node { port, child, http: reqwest::Client::new() };
        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        loop {
            if let Ok(r) = node.http.get(node.url("/healthz")).send().await
                && r.status() == 200
            {
                break;
            }
            assert!(tokio::time::Instant::now() < deadline, "node on port {port} never became healthy");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        node
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    pub async fn user(&self, name: &str) -> User {
        let body: Value = self
            .http
            .post(self.url("/api/v1/dev/token"))
            .json(&json!({"clerkId": format!("dev_{name}"), "username": name}))
            .send()
            .await
            .expect("dev token")
            .json()
            .await
            .expect("json");
        User {
            id: body["user"]["id"].as_str().expect("id").to_string(),
            token: body["token"].as_str().expect("token").to_string(),
        }
    }

    pub async fn event(&self, org: &User, skaters: i64, goalies: i64) -> String {
        let body: Value = self
            .http
            .post(self.url("/api/v1/events"))
            .bearer_auth(&org.token)
            .json(
                &json!({"title": "Pickup", "startDate": (chrono::Utc::now() + chrono::Duration::days(2)).to_rfc3339(),
                          "eventType": "OTHER", "maxSkaters": skaters, "maxGoalies": goalies}),
            )
            .send()
            .await
            .expect("create event")
            .json()
            .await
            .expect("json");
        body["id"].as_str().unwrap_or_else(|| panic!("event created: {body}")).to_string()
    }

    pub async fn rsvp(&self, user: &User, event: &str, action: &str) -> Value {
        let res = self
            .http
            .put(self.url(&format!("/api/v1/events/{event}/rsvp")))
            .bearer_auth(&user.token)
            .json(&json!({"action": action}))
            .send()
            .await
            .expect("rsvp");
        assert_eq!(res.status(), 200);
        res.json().await.expect("json")
    }

    /// `GET path` as `user`, the body as JSON.
    pub async fn get(&self, user: &User, path: &str) -> Value {
        self.http
            .get(self.url(path))
            .bearer_auth(&user.token)
            .send()
            .await
            .unwrap_or_else(|e| panic!("GET {path}: {e}"))
            .json()
            .await
            .expect("json")
    }

    pub async fn attendees(&self, user: &User, event: &str) -> Value {
        self.get(user, &format!("/api/v1/events/{event}/attendees")).await
    }

    /// Opens a WebSocket; a command waits up to a minute for its reply
    /// (races queue many behind one actor).
    pub async fn ws(&self) -> Ws {
        let mut ws = Ws::connect(&format!("ws://127.0.0.1:{}/api/v1/ws", self.port)).await;
        ws.reply_within = Duration::from_secs(60);
        ws
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[derive(Clone, Debug)]
pub struct User {
    pub id: String,
    pub token: String,
}

/// Two nodes on one fresh PostgreSQL schema and one Redis.
pub struct Cluster {
    pub a: Node,
    pub b: Node,
    /// The schema's URL, for tests that read or write the database directly.
    pub db: String,
}

impl Cluster {
    pub async fn start(redis_url: &str) -> Cluster {
        Self::start_with(redis_url, &[]).await
    }

    /// Both nodes with more environment (e.g. the reminder job's tick).
    pub async fn start_with(redis_url: &str, env: &[(&str, &str)]) -> Cluster {
        check_redis(redis_url);
        let db = fresh_schema_url().await;
        let a = Node::start_with(&db, redis_url, env).await;
        let b = Node::start_with(&db, redis_url, env).await;
        Cluster { a, b, db }
    }
}

fn check_redis(url: &str) {
    let client = redis::Client::open(url).unwrap_or_else(|e| panic!("bad redis url {url}: {e}"));
    let mut conn = client.get_connection().unwrap_or_else(|e| panic!("cluster tests need Redis at {url}: {e}"));
    let pong: String = redis::cmd("PING").query(&mut conn).unwrap_or_else(|e| panic!("Redis at {url}: {e}"));
    assert_eq!(pong, "PONG");
}

/// A redis-server of the test's own, so it can be restarted mid-test
/// without disturbing anything else on the machine.
pub struct PrivateRedis {
    port: u16,
    child: Child,
}

impl PrivateRedis {
    pub fn start() -> PrivateRedis {
        let port = free_port();
        let child = Self::spawn(port);
        PrivateRedis { port, child }
    }

    fn spawn(port: u16) -> Child {
        let child = Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
            .stdout(Stdio::null())
            .spawn()
            .expect("redis-server is installed (cluster tests start a private one)");
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(std::time::Instant::now() < deadline, "private redis did not start");
            std::thread::sleep(Duration::from_millis(20));
        }
        child
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// Kill -9 and start again on the same port.
    pub fn restart(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        std::thread::sleep(Duration::from_millis(300));
        self.child = Self::spawn(self.port);
    }
}

impl Drop for PrivateRedis {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Credentials for User {
    fn token(&self) -> &str {
        &self.token
    }
    fn user_id(&self) -> &str {
        &self.id
    }
}
