//! Running the server: health and readiness, the OpenAPI document, the
//! client's SPA fallback, and the real binary's subcommands and clean exit
//! on SIGTERM.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed unwrap is a failed test

use crate::helpers::*;
use serde_json::json;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

#[actix_web::test]
async fn health_and_readiness_answer_ok() {
    let app = spawn_app().await;
    let (status, body) = app.get("/healthz", None).await;
    assert_eq!(status, 200);
    assert_eq!(body, json!({"status": "ok"}));
    let (status, _) = app.get("/readyz", None).await;
    assert_eq!(status, 200);
}

/// The `/api/v1` routes the Foundation offers, as `(method, path template)`.
const FOUNDATION_ROUTES: &[(&str, &str)] = &[
    ("get", "/api/v1/me"),
    ("patch", "/api/v1/me"),
    ("post", "/api/v1/me/legal"),
    ("get", "/api/v1/me/positions"),
    ("post", "/api/v1/me/positions"),
    ("patch", "/api/v1/me/positions/{id}"),
    ("delete", "/api/v1/me/positions/{id}"),
    ("get", "/api/v1/users"),
    ("get", "/api/v1/users/{id}"),
    ("put", "/api/v1/users/{id}/follow"),
    ("delete", "/api/v1/users/{id}/follow"),
    ("get", "/api/v1/users/{id}/followers"),
    ("get", "/api/v1/users/{id}/following"),
    ("get", "/api/v1/users/{id}/following/facilities"),
    ("get", "/api/v1/users/{id}/following/teams"),
    ("post", "/api/v1/facilities"),
    ("get", "/api/v1/facilities"),
    ("get", "/api/v1/facilities/{id}"),
    ("put", "/api/v1/facilities/{id}/follow"),
    ("delete", "/api/v1/facilities/{id}/follow"),
    ("get", "/api/v1/facilities/{id}/followers"),
    ("post", "/api/v1/teams"),
    ("get", "/api/v1/teams"),
    ("get", "/api/v1/teams/{id}"),
    ("put", "/api/v1/teams/{id}/follow"),
    ("delete", "/api/v1/teams/{id}/follow"),
    ("get", "/api/v1/teams/{id}/followers"),
    ("post", "/api/v1/dev/token"),
    ("post", "/api/v1/webhooks/clerk"),
];

#[actix_web::test]
async fn the_openapi_document_describes_every_api_route_with_its_responses() {
    let app = spawn_app().await;
    let (status, doc) = app.get("/api/openapi.json", None).await;
    assert_eq!(status, 200);
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."), "{}", doc["openapi"]);
    let paths = doc["paths"].as_object().expect("paths");

    for (method, path) in FOUNDATION_ROUTES {
        let op = &paths.get(*path).unwrap_or_else(|| panic!("{path} is not documented"))[*method];
        assert!(op.is_object(), "{} {path} is not documented", method.to_uppercase());
    }
    for (path, item) in paths {
        assert!(path.starts_with("/api/v1/"), "{path} is outside /api/v1");
        for (method, op) in item.as_object().unwrap() {
            let responses = op["responses"].as_object().unwrap_or_else(|| panic!("{method} {path} has no responses"));
            assert!(!responses.is_empty(), "{method} {path} has no responses");
            // A success that carries a body says what the body is: JSON,
            // or (calendar files, docs/schedule.md) text/calendar.
            for (code, response) in responses {
                if code.starts_with('2') && code != "204" {
                    let content = &response["content"];
                    let schema = if content["text/calendar"].is_object() {
                        &content["text/calendar"]["schema"]
                    } else {
                        &content["application/json"]["schema"]
                    };
                    assert!(schema.is_object(), "{method} {path} {code} has no schema: {response}");
                }
            }
        }
    }
    // Schemas referenced by the routes are defined.
    let text = doc.to_string();
    for name in ["User", "PublicUser", "Facility", "Team", "ErrorEnvelope"] {
        assert!(doc["components"]["schemas"][name].is_object(), "{name} schema missing");
        assert!(text.contains(&format!("#/components/schemas/{name}")), "{name} is never used");
    }
}

#[actix_web::test]
async fn a_client_route_falls_back_to_the_app_shell_and_api_routes_do_not() {
    let dist = tempfile::tempdir().unwrap();
    let shell = "<!doctype html><title>Rinkside</title><div id=\"root\"></div>";
    std::fs::write(dist.path().join("index.html"), shell).unwrap();
    std::fs::create_dir(dist.path().join("assets")).unwrap();
    std::fs::write(dist.path().join("assets/app.js"), "console.log('rinkside')").unwrap();
    let app = spawn_app_with(&[("CLIENT_DIST", dist.path().to_str().unwrap())]).await;

    for path in ["/", "/events/0193a1b2-c3d4", "/users/someone/followers"] {
        let res = app.http.get(app.url(path)).send().await.unwrap();
        assert_eq!(res.status(), 200, "{path}");
        let content_type = res.headers()["content-type"].to_str().unwrap().to_string();
        assert!(content_type.starts_with("text/html"), "{path}: {content_type}");
        assert_eq!(res.text().await.unwrap(), shell, "{path}");
    }
    let res = app.http.get(app.url("/assets/app.js")).send().await.unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.text().await.unwrap(), "console.log('rinkside')");

    // An unknown API route is the JSON envelope, never the shell.
    let (status, body) = app.get("/api/v1/events-typo", None).await;
    assert_error(status, &body, 404, "not_found");
}

/// The real binary, killed if the test ends early.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        if matches!(self.0.try_wait(), Ok(None)) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// `rinkside <args>` with only the environment given (none inherited).
fn rinkside(args: &[&str], env: &[(&str, &str)]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_rinkside"));
    cmd.args(args).env_clear().env("RUST_LOG", "warn").envs(env.iter().copied());
    cmd
}

async fn wait_for_exit(child: &mut Child, within: Duration) -> Option<std::process::ExitStatus> {
    let deadline = Instant::now() + within;
    while Instant::now() < deadline {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    None
}

#[actix_web::test]
async fn the_server_exits_cleanly_on_sigterm() {
    let (database_url, _dir) = fresh_database().await;
    let port = free_port();
    let bind = format!("127.0.0.1:{port}");
    let child = rinkside(
        &[],
        &[
            ("BIND", &bind),
            ("DATABASE_URL", &database_url),
            ("CLIENT_DIST", "/nonexistent"),
            ("SHUTDOWN_GRACE_SECS", "3"),
        ],
    )
    .stdout(Stdio::null())
    .stderr(Stdio::null())
    .spawn()
    .unwrap();
    let mut server = Server(child);

    let http = reqwest::Client::new();
    let base = format!("http://{bind}");
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(status) = server.0.try_wait().unwrap() {
            panic!("the server exited before serving: {status}");
        }
        if let Ok(res) = http.get(format!("{base}/healthz")).send().await
            && res.status() == 200
        {
            break;
        }
        assert!(Instant::now() < deadline, "the server never became healthy");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // It serves for real before it is asked to stop.
    let (status, body) = send(http.post(format!("{base}/api/v1/dev/token")).json(&json!({"clerkId": "dev_ops"}))).await;
    assert_eq!(status, 200, "{body}");

    let pid = server.0.id().to_string();
    let kill = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    assert!(kill.success());
    let status = wait_for_exit(&mut server.0, Duration::from_secs(8)).await.expect("exits within seconds of SIGTERM");
    assert!(status.success(), "exit status {status}");
    assert!(http.get(format!("{base}/healthz")).send().await.is_err(), "nothing listens any more");
}

#[actix_web::test]
async fn migrate_applies_the_schema_and_exits_and_an_unknown_command_fails() {
    let (database_url, _dir) = fresh_database().await;
    for _ in 0..2 {
        let out = rinkside(&["migrate"], &[("DATABASE_URL", &database_url)]).output().unwrap();
        assert!(out.status.success(), "migrate: {} {}", out.status, String::from_utf8_lossy(&out.stderr));
    }
    sqlx::any::install_default_drivers();
    let mut conn = <sqlx::AnyConnection as sqlx::Connection>::connect(&database_url).await.unwrap();
    let users: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM users").fetch_one(&mut conn).await.unwrap();
    assert_eq!(users, 0, "the schema is there, empty");

    let out = rinkside(&["bogus"], &[("DATABASE_URL", &database_url)]).output().unwrap();
    assert!(!out.status.success(), "bogus exited {}", out.status);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("bogus") && stderr.contains("usage"), "{stderr}");
}

#[actix_web::test]
async fn an_unbindable_address_or_bad_configuration_fails_at_start() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let bind = taken.local_addr().unwrap().to_string();
    let (database_url, _dir) = fresh_database().await;
    for env in [
        vec![("BIND", bind.as_str()), ("DATABASE_URL", database_url.as_str())],
        vec![("AUTH_MODE", "clerk"), ("DATABASE_URL", database_url.as_str())],
        vec![("DATABASE_URL", "mysql://nope")],
    ] {
        let mut child = rinkside(&[], &env).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
        let status = wait_for_exit(&mut child, Duration::from_secs(30)).await;
        let _ = child.kill();
        let status = status.unwrap_or_else(|| panic!("{env:?} kept running"));
        assert!(!status.success(), "{env:?} exited {status}");
    }
}
