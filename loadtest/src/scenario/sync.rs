//! `sync`: season sync of a large league (docs/sync.md). Starts its own
//! node (SQLite file or a fresh PostgreSQL schema) that may fetch from
//! loopback, serves a generated CSV season of `--games` games between
//! `--teams` teams from this process, matches half the teams to teams of
//! ours (so about three games in four get an EXTERNAL_GAME event), then
//! times and counts:
//!
//! 1. the first import (every roster, game and event created);
//! 2. `--resyncs` syncs of the unchanged source (nothing to write);
//! 3. a sync after `--moved` games moved an hour (their events updated and
//!    their people told).
//!
//! Each sync's report says how many SQL statements its writes ran; the
//! scenario checks the counts the report gives against what it generated.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use chrono::{Datelike, Duration as Days, NaiveDate, Utc};
use serde::Serialize;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tracing::info;

use super::Outcome;
use super::own_node::{RunDatabase, make_run_dir, server_binary};
use crate::api::{Api, run_tag};
use crate::cli::SyncArgs;
use crate::cluster::{Cluster, NodeConfig};

/// Game slots per evening (two sheets, three start times).
const SLOTS: [(&str, &str, &str); 6] = [
    ("Rink A", "20:30", "21:40"),
    ("Rink B", "20:30", "21:40"),
    ("Rink A", "21:45", "22:55"),
    ("Rink B", "21:45", "22:55"),
    ("Rink A", "23:00", "00:10"),
    ("Rink B", "23:00", "00:10"),
];
const DIVISIONS: [&str; 4] = ["Adult A", "Adult B", "Adult C", "Adult D"];

fn team_name(i: usize) -> String {
    format!("League Team {:03}", i + 1)
}

/// The season as a CSV export: `games` games from tomorrow on, six an
/// evening; the first `moved` start an hour later when `shift` is set.
fn season_csv(games: usize, teams: usize, moved: usize, shift: bool) -> String {
    let first = Utc::now().date_naive() + Days::days(1);
    let mut out = String::from(
        "Game ID,Date,Start Time,End Time,Rink,Division,Home Team,Away Team,Home Goals,Away Goals,Game Type\n",
    );
    for g in 0..games {
        let day: NaiveDate = first + Days::days((g / SLOTS.len()) as i64);
        let (rink, start, end) = SLOTS[g % SLOTS.len()];
        let (start, end) = if shift && g < moved { ("19:30", "20:40") } else { (start, end) };
        // Team i plays in division i % 4, against teams of its division.
        let d = g % DIVISIONS.len();
        let per = teams / DIVISIONS.len();
        let k = (g / DIVISIONS.len() + day.ordinal() as usize) % per;
        let j = (k + 1 + (g / 7) % (per - 1)) % per;
        let (home, away) = (k * DIVISIONS.len() + d, j * DIVISIONS.len() + d);
        let division = DIVISIONS[d];
        out.push_str(&format!(
            "{},{},{start},{end},{rink},{division},{},{},,,Regular Season\n",
            900_000 + g,
            day.format("%Y-%m-%d"),
            team_name(home),
            team_name(away)
        ));
    }
    out
}

/// Serves whatever CSV is current at any path, on loopback.
async fn schedule_server(csv: Arc<Mutex<String>>) -> Result<String> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}/league.csv", listener.local_addr()?);
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let body = csv.lock().map(|c| c.clone()).unwrap_or_default();
            tokio::spawn(async move {
                let mut request = [0u8; 4096];
                let _ = socket.read(&mut request).await;
                let head = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: text/csv\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                    body.len()
                );
                let _ = socket.write_all(head.as_bytes()).await;
                let _ = socket.write_all(body.as_bytes()).await;
            });
        }
    });
    Ok(url)
}

/// One timed sync.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
struct Timed {
    millis: f64,
    statements: u64,
    report: Value,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Report {
    database: String,
    games: usize,
    teams: usize,
    first: Timed,
    resyncs: Vec<Timed>,
    moved: Timed,
    violations: Vec<String>,
}

pub async fn run(args: SyncArgs) -> Result<Outcome> {
    if args.teams < 8 || !args.teams.is_multiple_of(DIVISIONS.len()) || args.games == 0 || args.moved > args.games {
        bail!("--teams must be a multiple of 4 and at least 8, --games positive, --moved at most --games");
    }
    let tag = run_tag();
    let binary = server_binary(args.server_bin.as_ref())?;
    let log_dir = make_run_dir(args.log_dir.as_ref(), "sync", &tag)?;
    let database = RunDatabase::create(args.database, &args.database_url, &log_dir, "sync", &tag)?;
    let config = NodeConfig {
        binary,
        database_url: database.url.clone(),
        redis_url: None,
        db_connections: None,
        log_dir: log_dir.clone(),
        env: vec![("SYNC_ALLOW_PRIVATE_NETWORKS".into(), "true".into()), ("SYNC_TICK_SECONDS".into(), "0".into())],
    };
    let result = measure(&args, config, database.label).await;
    // `--keep` is about the schema: a SQLite file stays in the run's folder.
    database.drop_schema(args.keep);
    result.map(outcome)
}

async fn measure(args: &SyncArgs, config: NodeConfig, label: &str) -> Result<Report> {
    let cluster = Cluster::start(config, 1).await?;
    let api = Api::new(&cluster.urls()[0])?;
    let staff = api.dev_token(&format!("syncstaff{}", run_tag())).await?;
    let facility = api.create_facility(&staff.token, "Load Test Ice Centre").await?;
    let season = api.create_season(&staff.token, &facility, "Big League").await?;
    // Half the league's teams are ours already, so about 3 games in 4 get
    // an event (either side matched).
    for i in 0..args.teams / 2 {
        api.create_team(&staff.token, &team_name(i), &facility).await?;
    }
    let csv = Arc::new(Mutex::new(season_csv(args.games, args.teams, args.moved, false)));
    let url = schedule_server(csv.clone()).await?;
    api.patch_value(&format!("/api/v1/seasons/{season}"), &staff.token, json!({"syncUrl": url})).await?;
    let path = format!("/api/v1/seasons/{season}/sync");
    let sync = || async {
        let started = Instant::now();
        let report = api.post_value(&path, &staff.token, json!({})).await?;
        let millis = started.elapsed().as_secs_f64() * 1000.0;
        let statements = report["statements"].as_u64().unwrap_or_default();
        Ok::<_, anyhow::Error>(Timed { millis, statements, report })
    };
    let mut violations = Vec::new();
    info!(games = args.games, "first import");
    let first = sync().await?;
    let games = args.games as u64;
    check(&mut violations, "first import: games created", &first.report["games"]["created"], games);
    check(&mut violations, "first import: rosters created", &first.report["rosters"]["created"], args.teams as u64);
    let mut resyncs = Vec::new();
    for _ in 0..args.resyncs {
        let again = sync().await?;
        check(&mut violations, "re-sync: games unchanged", &again.report["games"]["unchanged"], games);
        check(&mut violations, "re-sync: events created", &again.report["events"]["created"], 0);
        check(&mut violations, "re-sync: events updated", &again.report["events"]["updated"], 0);
        resyncs.push(again);
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    if let Ok(mut c) = csv.lock() {
        *c = season_csv(args.games, args.teams, args.moved, true);
    }
    let moved = sync().await?;
    check(&mut violations, "moved: games updated", &moved.report["games"]["updated"], args.moved as u64);
    Ok(Report { database: label.to_string(), games: args.games, teams: args.teams, first, resyncs, moved, violations })
}

fn check(violations: &mut Vec<String>, what: &str, got: &Value, want: u64) {
    if got.as_u64() != Some(want) {
        violations.push(format!("{what}: {got}, expected {want}"));
    }
}

fn outcome(r: Report) -> Outcome {
    let mut times: Vec<f64> = r.resyncs.iter().map(|t| t.millis).collect();
    times.sort_by(f64::total_cmp);
    let median = times.get(times.len() / 2).copied().unwrap_or_default();
    let max = times.last().copied().unwrap_or_default();
    let resync_statements = r.resyncs.iter().map(|t| t.statements).max().unwrap_or_default();
    let mut h = String::new();
    h.push_str(&format!("sync of a {}-game season ({} teams) on {}\n", r.games, r.teams, r.database));
    h.push_str(&format!(
        "  first import  {:>8.0} ms  {:>5} statements  ({} games, {} events created)\n",
        r.first.millis, r.first.statements, r.first.report["games"]["created"], r.first.report["events"]["created"]
    ));
    h.push_str(&format!(
        "  re-sync ×{}    p50 {:>4.0} ms, max {:.0} ms  {:>3} statements (nothing changed)\n",
        r.resyncs.len(),
        median,
        max,
        resync_statements
    ));
    h.push_str(&format!(
        "  {} moved     {:>8.0} ms  {:>5} statements  ({} games, {} events updated)\n",
        r.moved.report["games"]["updated"],
        r.moved.millis,
        r.moved.statements,
        r.moved.report["games"]["updated"],
        r.moved.report["events"]["updated"]
    ));
    for v in &r.violations {
        h.push_str(&format!("  VIOLATION     {v}\n"));
    }
    let passed = r.violations.is_empty();
    let report = serde_json::to_value(&r).unwrap_or(Value::Null);
    Outcome { scenario: "sync", passed, report, human: h }
}
