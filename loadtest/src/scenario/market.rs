//! `market`: the sub market (docs/statuses.md) under a realistic amount of
//! data. Starts its own node (SQLite file or a fresh PostgreSQL schema),
//! seeds upcoming events, teams and thousands of statuses over HTTP, then:
//!
//! 1. times board reads (`GET /statuses`) with a mix of filters, checks what
//!    they answer against the filter, walks the whole board once, and times
//!    `GET /me/matches` for subs;
//! 2. opens `--subs` sockets of goalie subs on `matches` and times how fast
//!    an event going short of its goalie (the goalie declines) reaches every
//!    one of them as an `upsert`, and the refill (the goalie back) as a
//!    `drop`, for a few rounds.
//!
//! The posts push matches in the background, after their answer; the run
//! waits for the node's CPU to go quiet before it measures, and reports how
//! long that took.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use chrono::{DateTime, SecondsFormat, Utc};
use futures_util::{SinkExt, StreamExt, TryStreamExt, stream};
use serde::Serialize;
use serde_json::{Value, json};
use tokio::sync::{Semaphore, mpsc, watch};
use tokio::task::JoinSet;
use tracing::{info, warn};

use super::Outcome;
use super::own_node::with_own_node;
use crate::api::{Api, Session, run_tag};
use crate::cli::MarketArgs;
use crate::fleet::ErrorTally;
use crate::net::{Endpoint, connect_ws, cpu_seconds, raise_nofile};
use crate::stats::{Recorder, Summary, rate};
use crate::ws::{auth_frame, subscribe_frame};

const HOUR_MS: i64 = 3_600_000;
const DAY_MS: i64 = 24 * HOUR_MS;

/// The seeded events start between an hour and five weeks from now.
const EVENT_SPREAD_MS: i64 = 35 * DAY_MS;

/// Teams per captain (the captains own the teams and host the events).
const TEAMS_PER_CAPTAIN: usize = 10;

/// The node counts as quiet below this share of one core…
const QUIET_CPU_SHARE: f64 = 0.10;
/// …for this many consecutive one-second samples.
const QUIET_SAMPLES: usize = 3;

/// Board page size for the full walk.
const WALK_PAGE: usize = 100;

/// Violations kept for the report (the count is always complete).
const MAX_VIOLATIONS: usize = 25;

const TIMEZONES: [&str; 5] =
    ["America/Toronto", "America/Vancouver", "America/New_York", "America/Edmonton", "America/Winnipeg"];
const SKILLS: [&str; 4] = ["BEGINNER", "INTERMEDIATE", "ADVANCED", "PROFESSIONAL"];
const STATUS_TYPES: [&str; 4] = ["AVAILABLE_TO_SUB", "LOOKING_FOR_TEAM", "RECRUITING", "LOOKING_FOR_SUBS"];
/// Divisions within one step of INTERMEDIATE (the filter the reads use).
const NEAR_INTERMEDIATE: [&str; 3] = ["RECREATIONAL", "INTERMEDIATE", "ADVANCED"];

/// Positions offered or asked, in rotation (empty: any position).
fn positions(i: usize) -> Vec<&'static str> {
    match i % 6 {
        0 => vec!["GOALIE"],
        1 => vec!["CENTER", "LEFT_WING"],
        2 => vec!["LEFT_DEFENSE", "RIGHT_DEFENSE"],
        3 => vec![],
        4 => vec!["RIGHT_WING"],
        _ => vec!["CENTER", "GOALIE"],
    }
}

/// An RFC 3339 UTC time `ms` from `now`.
fn at(now: DateTime<Utc>, ms: i64) -> String {
    (now + chrono::Duration::milliseconds(ms)).to_rfc3339_opts(SecondsFormat::Secs, true)
}

fn parse_time(raw: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(raw).ok().map(|t| t.with_timezone(&Utc))
}

/// The filter kinds of the timed board reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum FilterKind {
    None,
    Type,
    Position,
    Facility,
    Division,
    Window,
}

const FILTERS: [FilterKind; 6] = [
    FilterKind::None,
    FilterKind::Type,
    FilterKind::Position,
    FilterKind::Facility,
    FilterKind::Division,
    FilterKind::Window,
];

impl FilterKind {
    fn label(self) -> &'static str {
        match self {
            FilterKind::None => "none",
            FilterKind::Type => "type",
            FilterKind::Position => "position=GOALIE",
            FilterKind::Facility => "facilityId",
            FilterKind::Division => "division=INTERMEDIATE",
            FilterKind::Window => "from/to window",
        }
    }
}

// ---------------------------------------------------------------- report

#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
struct Seeding {
    facilities: usize,
    events_requested: usize,
    events_created: usize,
    events_seconds: f64,
    teams_created: usize,
    persons: usize,
    /// Persons who added a rated position (they have a level).
    persons_with_level: usize,
    /// Persons who RSVPed to an event at a facility (they play there).
    persons_at_facility: usize,
    people_seconds: f64,
    statuses_requested: usize,
    statuses_created: usize,
    statuses_seconds: f64,
    statuses_per_sec: f64,
    /// `POST /statuses` round trip while seeding (`--setup-concurrency` in flight).
    status_post: Summary,
    by_type: HashMap<String, usize>,
    errors: ErrorTally,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Quiet {
    /// From the last seeding answer until the node's CPU went quiet.
    seconds: f64,
    reached: bool,
    /// CPU seconds the node used in that time.
    cpu_seconds: f64,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct FilterReport {
    filter: &'static str,
    latency: Summary,
    mean_items: f64,
}

#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
struct Walk {
    statuses: usize,
    pages: usize,
    duplicates: usize,
    page_latency: Summary,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Phase {
    round: usize,
    /// `upsert` (the goalie declined: a spot opened) or `drop` (filled).
    op: &'static str,
    /// The RSVP request's own round trip.
    rsvp_rtt_ms: f64,
    reached: usize,
    of: usize,
    /// From just before the RSVP was sent to each sub's receipt; max is the
    /// time to the last sub.
    delivery: Summary,
}

#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
struct Pushes {
    subs: usize,
    subscribed: usize,
    failed: ErrorTally,
    subscribe: Summary,
    snapshot_items_mean: f64,
    event_id: String,
    event_start: String,
    phases: Vec<Phase>,
    upsert: Summary,
    drop: Summary,
    /// Pushes owed (subs × phases) that never came within --push-timeout.
    missed: usize,
    /// `GET /me/matches` of sub 0 disagreeing with what was pushed.
    rest_disagreements: Vec<String>,
    /// `error` frames and connections lost after subscribing.
    socket_errors: ErrorTally,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Report {
    database: String,
    url: String,
    server_pid: Option<u32>,
    seeding: Seeding,
    quiet_after_seeding: Option<Quiet>,
    walk: Walk,
    board: Summary,
    board_by_filter: Vec<FilterReport>,
    board_violations: usize,
    board_violation_samples: Vec<String>,
    board_errors: ErrorTally,
    matches: Summary,
    matches_items_mean: f64,
    quiet_after_subs: Option<Quiet>,
    pushes: Pushes,
    node_panics: Vec<String>,
}

// ---------------------------------------------------------------- the run

pub async fn run(args: MarketArgs) -> Result<Outcome> {
    if args.subs == 0 || args.rounds == 0 || args.facilities == 0 || args.teams == 0 {
        bail!("--subs, --rounds, --facilities and --teams must be positive");
    }
    if args.statuses < 2 * args.teams {
        bail!("--statuses must be at least twice --teams (each team posts two)");
    }
    // The node inherits the limit: it holds every sub's socket too.
    raise_nofile(args.subs + 2 * args.setup_concurrency + 2_048)?;
    let tag = run_tag();
    if let Some(url) = &args.url {
        let report = measure(&args, &tag, url, None, "external").await?;
        return Ok(outcome(report));
    }
    let (mut report, panics) = with_own_node(&args.node, args.log_dir.as_ref(), "market", &tag, async |node| {
        measure(&args, &tag, &node.url, node.pid, node.label).await
    })
    .await?;
    report.node_panics = panics;
    Ok(outcome(report))
}

async fn measure(args: &MarketArgs, tag: &str, url: &str, pid: Option<u32>, label: &str) -> Result<Report> {
    let endpoint = Arc::new(Endpoint::resolve(url).await?);
    let api = Api::new(endpoint.base_str())?;
    let seeded = seed(args, tag, &api).await?;
    let quiet_after_seeding = match pid {
        Some(pid) => Some(wait_quiet(pid, Duration::from_secs(args.quiet_timeout)).await?),
        None => None,
    };

    let walk = walk_board(&api, &seeded.reader.token).await?;
    if walk.statuses != seeded.report.statuses_created || walk.duplicates > 0 {
        warn!(listed = walk.statuses, created = seeded.report.statuses_created, "the board does not list every status");
    }
    let board = read_board(args, &api, &seeded).await;
    let (matches, matches_items_mean) = read_matches(args, &api, &seeded).await;

    let mut pushes = Pushes::default();
    let quiet_after_subs = push_rounds(args, tag, &api, &endpoint, pid, &mut pushes).await?;

    Ok(Report {
        database: label.to_string(),
        url: url.to_string(),
        server_pid: pid,
        seeding: seeded.report,
        quiet_after_seeding,
        walk,
        board: board.overall,
        board_by_filter: board.by_filter,
        board_violations: board.violations,
        board_violation_samples: board.samples,
        board_errors: board.errors,
        matches,
        matches_items_mean,
        quiet_after_subs,
        pushes,
        node_panics: Vec::new(),
    })
}

// ---------------------------------------------------------------- seeding

struct Seeded {
    report: Seeding,
    facilities: Vec<String>,
    /// Persons with an AVAILABLE_TO_SUB status (for the matches reads).
    subs: Vec<Session>,
    /// Whoever reads the board.
    reader: Session,
}

/// Runs `n` jobs `concurrency` at a time; each job's error is tallied, not
/// fatal. Returns the successes in job order (`None` for a failure).
async fn run_all<T, F, Fut>(n: usize, concurrency: usize, errors: &mut ErrorTally, what: &str, job: F) -> Vec<Option<T>>
where
    F: Fn(usize) -> Fut,
    Fut: std::future::Future<Output = Result<T>>,
{
    let step = (n / 10).max(1);
    let mut done = 0usize;
    let mut out: Vec<Option<T>> = Vec::with_capacity(n);
    let mut results = stream::iter(0..n).map(job).buffered(concurrency.max(1));
    while let Some(r) = results.next().await {
        match r {
            Ok(v) => out.push(Some(v)),
            Err(e) => {
                errors.add(&format!("{what}: {e:#}"));
                out.push(None);
            }
        }
        done += 1;
        if done.is_multiple_of(step) {
            info!(done, of = n, "{what}");
        }
    }
    out
}

fn id_of(v: &Value) -> Result<String> {
    v["id"].as_str().map(str::to_string).context("no id in the answer")
}

async fn seed(args: &MarketArgs, tag: &str, api: &Api) -> Result<Seeded> {
    let mut report = Seeding { events_requested: args.events, ..Seeding::default() };
    let conc = args.setup_concurrency;
    let now = Utc::now();

    // Captains: own the facilities and teams, host the events.
    let captain_count = args.teams.div_ceil(TEAMS_PER_CAPTAIN).max(1);
    let captains: Vec<Session> = stream::iter(0..captain_count)
        .map(|i| {
            let api = api.clone();
            let name = format!("mk{tag}c{i}");
            async move { api.dev_token_retrying(&name).await.map(|(s, _)| s) }
        })
        .buffered(conc)
        .try_collect()
        .await?;
    let mut facilities = Vec::new();
    for i in 0..args.facilities {
        let body = json!({"name": format!("Market Arena {i} {tag}"), "timezone": TIMEZONES[i % TIMEZONES.len()]});
        facilities.push(id_of(&api.post_value("/api/v1/facilities", &captains[0].token, body).await?)?);
    }
    report.facilities = facilities.len();

    // Events: every third at a facility (hosted by its owner), limits mixed.
    info!(events = args.events, "seeding events");
    let started = Instant::now();
    let n = args.events.max(1) as i64;
    let events = run_all(args.events, conc, &mut report.errors, "POST /events", |i| {
        let api = api.clone();
        let at_facility = (i % 3 == 0).then(|| facilities[(i / 3) % facilities.len()].clone());
        let token =
            if at_facility.is_some() { captains[0].token.clone() } else { captains[i % captains.len()].token.clone() };
        let start = at(now, HOUR_MS + (i as i64) * (EVENT_SPREAD_MS - HOUR_MS) / n);
        let (skaters, goalies) = match i % 4 {
            0 => (Some(20), Some(2)),
            1 => (None, Some(1)),
            2 => (Some(12), None),
            _ => (None, None),
        };
        async move {
            let mut body = json!({"title": format!("Market skate #{i}"), "startDate": start, "eventType": "OTHER",
                                  "maxSkaters": skaters, "maxGoalies": goalies});
            if let Some(f) = &at_facility {
                body["facilityId"] = json!(f);
            }
            let id = id_of(&api.post_value("/api/v1/events", &token, body).await?)?;
            Ok((id, at_facility))
        }
    })
    .await;
    report.events_seconds = started.elapsed().as_secs_f64();
    let events: Vec<(String, Option<String>)> = events.into_iter().flatten().collect();
    report.events_created = events.len();
    // Open-ended events at facilities: where persons RSVP to "play there".
    let facility_events: Vec<String> = events
        .iter()
        .enumerate()
        .filter(|(i, (_, f))| f.is_some() && i % 4 == 3)
        .map(|(_, (id, _))| id.clone())
        .collect();

    // Teams: half at a facility.
    let teams = run_all(args.teams, conc, &mut report.errors, "POST /teams", |i| {
        let api = api.clone();
        let token = captains[i % captains.len()].token.clone();
        let mut body = json!({"name": format!("Market Team {i} {tag}")});
        if i % 2 == 0 {
            body["facilityId"] = json!(facilities[i % facilities.len()]);
        }
        async move { id_of(&api.post_value("/api/v1/teams", &token, body).await?) }
    })
    .await;
    let teams: Vec<(usize, String)> = teams.into_iter().enumerate().filter_map(|(i, t)| t.map(|t| (i, t))).collect();
    report.teams_created = teams.len();

    // Persons: a third with a rated position (a level), a tenth playing at
    // a facility (an RSVP there), before any status exists so those RSVPs'
    // pushes are cheap.
    let person_statuses = args.statuses - 2 * args.teams;
    let person_count = person_statuses.div_ceil(2);
    info!(persons = person_count, "signing persons in");
    let started = Instant::now();
    let persons = run_all(person_count, conc, &mut report.errors, "persons", |i| {
        let api = api.clone();
        let name = format!("mk{tag}p{i}");
        let rsvp_to = (i % 10 == 0 && !facility_events.is_empty())
            .then(|| facility_events[(i / 10) % facility_events.len()].clone());
        async move {
            let (s, _) = api.dev_token_retrying(&name).await?;
            let mut level = false;
            if i % 3 == 0 {
                let body = json!({"position": if i % 2 == 0 { "GOALIE" } else { "CENTER" },
                                  "skillLevel": SKILLS[(i / 3) % SKILLS.len()], "isPreferred": true});
                api.post_value("/api/v1/me/positions", &s.token, body).await?;
                level = true;
            }
            let mut plays = false;
            if let Some(event) = rsvp_to {
                api.rsvp(&s.token, &event, "ATTENDING", Some("CENTER")).await?;
                plays = true;
            }
            Ok((s, level, plays))
        }
    })
    .await;
    report.people_seconds = started.elapsed().as_secs_f64();
    let persons: Vec<(usize, Session)> = persons
        .into_iter()
        .enumerate()
        .filter_map(|(i, p)| {
            let (s, level, plays) = p?;
            report.persons_with_level += usize::from(level);
            report.persons_at_facility += usize::from(plays);
            Some((i, s))
        })
        .collect();
    report.persons = persons.len();

    // The statuses: the teams' first, then the persons' (two each).
    let mut posts: Vec<(String, Value)> = Vec::with_capacity(args.statuses);
    for (i, team) in &teams {
        let token = captains[i % captains.len()].token.clone();
        posts.push((
            token.clone(),
            json!({"type": "RECRUITING", "entityType": "TEAM", "teamId": team, "positions": positions(*i + 1),
                   "message": "Recruiting for the winter season"}),
        ));
        posts.push((
            token,
            json!({"type": "LOOKING_FOR_SUBS", "entityType": "TEAM", "teamId": team, "positions": positions(*i),
                   "expiresAt": at(now, (1 + (*i as i64) % 13) * DAY_MS)}),
        ));
    }
    let mut person_posts = 0usize;
    for (i, p) in &persons {
        let i = *i;
        if person_posts < person_statuses {
            let mut body = json!({"type": "AVAILABLE_TO_SUB", "entityType": "USER", "positions": positions(i)});
            if i % 3 != 0 {
                // Spread over the 14 days allowed; a third keep the default
                // (the end of today).
                body["expiresAt"] = json!(at(now, (1 + (i as i64) % 13) * DAY_MS + ((i as i64) % 24) * HOUR_MS));
            }
            posts.push((p.token.clone(), body));
            person_posts += 1;
        }
        if person_posts < person_statuses {
            let mut body = json!({"type": "LOOKING_FOR_TEAM", "entityType": "USER", "positions": positions(i + 3)});
            if i % 2 == 1 {
                body["expiresAt"] = json!(at(now, (2 + (i as i64) % 85) * DAY_MS));
            }
            posts.push((p.token.clone(), body));
            person_posts += 1;
        }
    }
    report.statuses_requested = posts.len();
    info!(statuses = posts.len(), "posting statuses");
    let started = Instant::now();
    let latency = std::sync::Mutex::new(Recorder::new());
    let posted = run_all(posts.len(), conc, &mut report.errors, "POST /statuses", |i| {
        let api = api.clone();
        let (token, body) = posts[i].clone();
        let latency = &latency;
        async move {
            let sent = Instant::now();
            let s = api.post_value("/api/v1/statuses", &token, body).await?;
            if let Ok(mut l) = latency.lock() {
                l.record(sent.elapsed());
            }
            Ok(s["type"].as_str().unwrap_or("?").to_string())
        }
    })
    .await;
    let span = started.elapsed();
    report.statuses_seconds = span.as_secs_f64();
    for kind in posted.into_iter().flatten() {
        *report.by_type.entry(kind).or_default() += 1;
        report.statuses_created += 1;
    }
    report.statuses_per_sec = rate(report.statuses_created as u64, span);
    report.status_post = latency.lock().map(|l| l.summary()).unwrap_or_default();
    info!(created = report.statuses_created, seconds = report.statuses_seconds, "statuses posted");

    // Subs are the persons with an AVAILABLE_TO_SUB (all but maybe the last).
    let subs: Vec<Session> = persons.iter().map(|(_, s)| s.clone()).collect();
    let reader = captains[0].clone();
    Ok(Seeded { report, facilities, subs, reader })
}

/// Samples the node's CPU each second until it stays under
/// [`QUIET_CPU_SHARE`] of a core for [`QUIET_SAMPLES`] seconds.
async fn wait_quiet(pid: u32, limit: Duration) -> Result<Quiet> {
    let started = Instant::now();
    let first = cpu_seconds(pid)?;
    let mut last = first;
    let mut calm = 0usize;
    info!("waiting for the node to finish its background pushes");
    loop {
        tokio::time::sleep(Duration::from_secs(1)).await;
        let now = cpu_seconds(pid)?;
        let share = now - last;
        last = now;
        calm = if share < QUIET_CPU_SHARE { calm + 1 } else { 0 };
        if calm >= QUIET_SAMPLES {
            // The calm seconds are not part of the busy time.
            let seconds = (started.elapsed().as_secs_f64() - QUIET_SAMPLES as f64).max(0.0);
            info!(seconds, "node quiet");
            return Ok(Quiet { seconds, reached: true, cpu_seconds: now - first });
        }
        if started.elapsed() > limit {
            warn!(cpu_share = share, "node still busy; measuring anyway");
            return Ok(Quiet { seconds: started.elapsed().as_secs_f64(), reached: false, cpu_seconds: now - first });
        }
        if started.elapsed().as_secs().is_multiple_of(15) {
            info!(cpu_share = share, elapsed = started.elapsed().as_secs(), "node still busy");
        }
    }
}

// ---------------------------------------------------------------- the board

async fn walk_board(api: &Api, token: &str) -> Result<Walk> {
    info!("walking the whole board");
    let mut walk = Walk::default();
    let mut latency = Recorder::new();
    let mut seen = HashSet::new();
    let mut cursor: Option<String> = None;
    loop {
        let path = match &cursor {
            None => format!("/api/v1/statuses?limit={WALK_PAGE}"),
            Some(c) => format!("/api/v1/statuses?limit={WALK_PAGE}&cursor={c}"),
        };
        let sent = Instant::now();
        let page = api.get_value(&path, token).await?;
        latency.record(sent.elapsed());
        walk.pages += 1;
        for item in page["items"].as_array().into_iter().flatten() {
            let id = item["id"].as_str().unwrap_or_default().to_string();
            if !seen.insert(id) {
                walk.duplicates += 1;
            }
            walk.statuses += 1;
        }
        match page["nextCursor"].as_str() {
            Some(c) if !c.is_empty() => cursor = Some(c.to_string()),
            _ => break,
        }
        if walk.pages > 100_000 {
            bail!("the board did not end after 100,000 pages");
        }
    }
    walk.statuses = seen.len();
    walk.page_latency = latency.summary();
    Ok(walk)
}

struct Board {
    overall: Summary,
    by_filter: Vec<FilterReport>,
    violations: usize,
    samples: Vec<String>,
    errors: ErrorTally,
}

/// Checks one answer against its filter; describes each item that breaks it.
fn check_items(kind: FilterKind, query: &str, asked_type: &str, from: DateTime<Utc>, items: &[Value]) -> Vec<String> {
    let now = Utc::now();
    let mut bad = Vec::new();
    for item in items {
        let id = item["id"].as_str().unwrap_or("?");
        let expires = item["expiresAt"].as_str().and_then(parse_time);
        if expires.is_none_or(|e| e <= now) {
            bad.push(format!("{query}: status {id} is not active (expiresAt {})", item["expiresAt"]));
        }
        let why = match kind {
            FilterKind::Type if item["type"] != asked_type => Some(format!("type {}", item["type"])),
            FilterKind::Position => {
                let ps = item["positions"].as_array().cloned().unwrap_or_default();
                (!ps.is_empty() && !ps.iter().any(|p| p == "GOALIE"))
                    .then(|| format!("positions {}", item["positions"]))
            }
            FilterKind::Division => {
                let level = item["level"].as_str().unwrap_or("null");
                (!NEAR_INTERMEDIATE.contains(&level)).then(|| format!("level {level}"))
            }
            FilterKind::Window if expires.is_some_and(|e| e <= from) => {
                Some(format!("expiresAt {} is before the window", item["expiresAt"]))
            }
            _ => None,
        };
        if let Some(why) = why {
            bad.push(format!("{query}: status {id}: {why}"));
        }
    }
    bad
}

async fn read_board(args: &MarketArgs, api: &Api, seeded: &Seeded) -> Board {
    info!(reads = args.board_reads, "timing board reads");
    let token = &seeded.reader.token;
    let mut overall = Recorder::new();
    let mut per: HashMap<FilterKind, (Recorder, usize, usize)> = HashMap::new();
    let mut violations = 0usize;
    let mut samples = Vec::new();
    let mut errors = ErrorTally::default();
    for i in 0..args.board_reads {
        let kind = FILTERS[i % FILTERS.len()];
        let round = i / FILTERS.len();
        let now = Utc::now();
        let from = now + chrono::Duration::days(3);
        let asked_type = STATUS_TYPES[round % STATUS_TYPES.len()];
        let query = match kind {
            FilterKind::None => String::new(),
            FilterKind::Type => format!("?type={asked_type}"),
            FilterKind::Position => "?position=GOALIE".into(),
            FilterKind::Facility => format!("?facilityId={}", seeded.facilities[round % seeded.facilities.len()]),
            FilterKind::Division => "?division=INTERMEDIATE".into(),
            FilterKind::Window => {
                format!("?from={}&to={}", at(now, 3 * DAY_MS).replace('+', "%2B"), at(now, 5 * DAY_MS))
            }
        };
        let sent = Instant::now();
        match api.get_value(&format!("/api/v1/statuses{query}"), token).await {
            Ok(page) => {
                let took = sent.elapsed();
                overall.record(took);
                let items = page["items"].as_array().cloned().unwrap_or_default();
                let entry = per.entry(kind).or_insert_with(|| (Recorder::new(), 0, 0));
                entry.0.record(took);
                entry.1 += 1;
                entry.2 += items.len();
                for v in check_items(kind, &query, asked_type, from, &items) {
                    violations += 1;
                    if samples.len() < MAX_VIOLATIONS {
                        samples.push(v);
                    }
                }
            }
            Err(e) => errors.add(&format!("{e:#}")),
        }
    }
    let by_filter = FILTERS
        .iter()
        .filter_map(|k| {
            let (r, reads, items) = per.get(k)?;
            Some(FilterReport {
                filter: k.label(),
                latency: r.summary(),
                mean_items: if *reads > 0 { *items as f64 / *reads as f64 } else { 0.0 },
            })
        })
        .collect();
    Board { overall: overall.summary(), by_filter, violations, samples, errors }
}

async fn read_matches(args: &MarketArgs, api: &Api, seeded: &Seeded) -> (Summary, f64) {
    info!(reads = args.matches_reads, "timing matches reads");
    let mut latency = Recorder::new();
    let mut items = 0usize;
    let mut reads = 0usize;
    for j in 0..args.matches_reads {
        if seeded.subs.is_empty() {
            break;
        }
        let sub = &seeded.subs[(j * 37) % seeded.subs.len()];
        let sent = Instant::now();
        match api.get_value("/api/v1/me/matches", &sub.token).await {
            Ok(page) => {
                latency.record(sent.elapsed());
                items += page["items"].as_array().map_or(0, Vec::len);
                reads += 1;
            }
            Err(e) => warn!("matches read failed: {e:#}"),
        }
    }
    (latency.summary(), if reads > 0 { items as f64 / reads as f64 } else { 0.0 })
}

// ---------------------------------------------------------------- pushes

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Upsert,
    Drop,
}

enum SubEvent {
    Ready { subscribe: Duration, items: usize },
    Failed(String),
    Got { idx: usize, op: Op, event_id: String, at: Instant },
    Lost(String),
}

/// One sub's socket: auth, subscribe `matches`, then every upsert or drop
/// naming an event, stamped when read.
async fn sub_socket(
    idx: usize,
    endpoint: Arc<Endpoint>,
    token: String,
    permit: tokio::sync::OwnedSemaphorePermit,
    timeout: Duration,
    tx: mpsc::UnboundedSender<SubEvent>,
    mut stop: watch::Receiver<bool>,
) {
    let opened = async {
        let mut ws = connect_ws(&endpoint, None).await?;
        let sent = Instant::now();
        ws.send(auth_frame(&token)).await?;
        ws.send(subscribe_frame("matches")).await?;
        while let Some(msg) = ws.next().await {
            let tokio_tungstenite::tungstenite::Message::Text(text) = msg? else { continue };
            let frame: Value = serde_json::from_str(&text)?;
            match frame["type"].as_str() {
                Some("snapshot") => {
                    let items = frame["data"]["items"].as_array().map_or(0, Vec::len);
                    return Ok((ws, sent.elapsed(), items));
                }
                Some("error") => bail!("error frame before the snapshot: {text}"),
                _ => {}
            }
        }
        bail!("connection ended before the snapshot")
    };
    let (mut ws, subscribe, items) = match tokio::time::timeout(timeout, opened).await {
        Ok(Ok(v)) => v,
        Ok(Err(e)) => {
            let _ = tx.send(SubEvent::Failed(format!("{e:#}")));
            return;
        }
        Err(_) => {
            let _ = tx.send(SubEvent::Failed("timed out connecting/subscribing".into()));
            return;
        }
    };
    drop(permit);
    let _ = tx.send(SubEvent::Ready { subscribe, items });
    loop {
        tokio::select! {
            _ = stop.changed() => {
                let _ = tokio::time::timeout(Duration::from_secs(2), ws.close(None)).await;
                return;
            }
            msg = ws.next() => {
                let at = Instant::now();
                let text = match msg {
                    Some(Ok(tokio_tungstenite::tungstenite::Message::Text(t))) => t,
                    Some(Ok(_)) => continue,
                    Some(Err(e)) => { let _ = tx.send(SubEvent::Lost(format!("{e}"))); return; }
                    None => { let _ = tx.send(SubEvent::Lost("connection ended".into())); return; }
                };
                let Ok(frame) = serde_json::from_str::<Value>(&text) else {
                    let _ = tx.send(SubEvent::Lost(format!("unparseable frame {text}")));
                    return;
                };
                match frame["type"].as_str() {
                    Some("update") if frame["topic"] == "matches" => {
                        let data = &frame["data"];
                        let (op, event) = match data["op"].as_str() {
                            Some("upsert") => (Op::Upsert, data["match"]["event"]["id"].as_str()),
                            Some("drop") => (Op::Drop, data["eventId"].as_str()),
                            _ => continue,
                        };
                        if let Some(event) = event {
                            let _ = tx.send(SubEvent::Got { idx, op, event_id: event.to_string(), at });
                        }
                    }
                    Some("error") => { let _ = tx.send(SubEvent::Lost(format!("error frame: {text}"))); }
                    _ => {}
                }
            }
        }
    }
}

/// Waits until every ready sub has `op` for `event_id` read after `since`;
/// records the latencies. Returns how many got it.
async fn await_phase(
    rx: &mut mpsc::UnboundedReceiver<SubEvent>,
    pushes: &mut Pushes,
    (op, event_id): (Op, &str),
    since: Instant,
    timeout: Duration,
    mut recorders: [&mut Recorder; 2],
) -> usize {
    let mut got: HashSet<usize> = HashSet::new();
    let deadline = tokio::time::Instant::from_std(since) + timeout;
    while got.len() < pushes.subscribed {
        match tokio::time::timeout_at(deadline, rx.recv()).await {
            Ok(Some(SubEvent::Got { idx, op: o, event_id: e, at })) => {
                if o == op && e == event_id && at >= since && got.insert(idx) {
                    for r in recorders.iter_mut() {
                        r.record(at - since);
                    }
                }
            }
            Ok(Some(SubEvent::Lost(why))) => pushes.socket_errors.add(&why),
            Ok(Some(_)) => {}
            Ok(None) | Err(_) => break,
        }
    }
    got.len()
}

/// Whether sub 0's `GET /me/matches` lists the event.
async fn rest_lists(api: &Api, token: &str, event_id: &str) -> Result<bool> {
    let page = api.get_value("/api/v1/me/matches", token).await?;
    Ok(page["items"].as_array().into_iter().flatten().any(|m| m["event"]["id"] == event_id))
}

async fn push_rounds(
    args: &MarketArgs,
    tag: &str,
    api: &Api,
    endpoint: &Arc<Endpoint>,
    pid: Option<u32>,
    pushes: &mut Pushes,
) -> Result<Option<Quiet>> {
    pushes.subs = args.subs;
    let now = Utc::now();
    let start = now + chrono::Duration::hours(3);
    // The default expiry is the end of today (UTC for these subs); past
    // that, or too close to it, ask for one explicitly.
    let midnight = (now.date_naive() + chrono::Days::new(1)).and_hms_opt(0, 0, 0).map(|t| t.and_utc());
    let expires = match midnight {
        Some(m) if m > start + chrono::Duration::hours(1) => None,
        _ => Some((start + chrono::Duration::hours(2)).to_rfc3339_opts(SecondsFormat::Secs, true)),
    };
    pushes.event_start = start.to_rfc3339_opts(SecondsFormat::Secs, true);

    info!(subs = args.subs, "signing subs in and posting AVAILABLE_TO_SUB (GOALIE)");
    let mut errors = ErrorTally::default();
    let subs = run_all(args.subs, args.setup_concurrency, &mut errors, "subs", |i| {
        let api = api.clone();
        let name = format!("mk{tag}s{i}");
        let mut body = json!({"type": "AVAILABLE_TO_SUB", "entityType": "USER", "positions": ["GOALIE"]});
        if let Some(e) = &expires {
            body["expiresAt"] = json!(e);
        }
        async move {
            let (s, _) = api.dev_token_retrying(&name).await?;
            api.post_value("/api/v1/statuses", &s.token, body).await?;
            Ok(s)
        }
    })
    .await;
    let subs: Vec<Session> = subs.into_iter().flatten().collect();
    for (e, n) in errors.iter() {
        pushes.failed.add_n(e, n);
    }
    let organiser = api.dev_token(&format!("mk{tag}org")).await?;
    let goalie = api.dev_token(&format!("mk{tag}goalie")).await?;
    let quiet = match pid {
        Some(pid) => Some(wait_quiet(pid, Duration::from_secs(args.quiet_timeout)).await?),
        None => None,
    };

    info!(subs = subs.len(), "opening the subs' matches sockets");
    let (tx, mut rx) = mpsc::unbounded_channel();
    let (stop, stop_rx) = watch::channel(false);
    let semaphore = Arc::new(Semaphore::new(args.net.concurrency.max(1)));
    let mut tasks = JoinSet::new();
    for (idx, s) in subs.iter().enumerate() {
        let permit = semaphore.clone().acquire_owned().await?;
        tasks.spawn(sub_socket(
            idx,
            endpoint.clone(),
            s.token.clone(),
            permit,
            args.net.timeout(),
            tx.clone(),
            stop_rx.clone(),
        ));
    }
    drop(tx);
    let mut subscribe = Recorder::new();
    let mut items = 0usize;
    let mut settled = 0usize;
    while settled < subs.len() {
        match rx.recv().await {
            Some(SubEvent::Ready { subscribe: d, items: n }) => {
                subscribe.record(d);
                items += n;
                pushes.subscribed += 1;
                settled += 1;
            }
            Some(SubEvent::Failed(e)) => {
                pushes.failed.add(&e);
                settled += 1;
            }
            Some(SubEvent::Lost(e)) => pushes.socket_errors.add(&e),
            Some(SubEvent::Got { .. }) => {}
            None => break,
        }
    }
    pushes.subscribe = subscribe.summary();
    pushes.snapshot_items_mean = if pushes.subscribed > 0 { items as f64 / pushes.subscribed as f64 } else { 0.0 };
    info!(subscribed = pushes.subscribed, of = subs.len(), "subs subscribed");

    let body = json!({"title": format!("Market: goalie wanted {tag}"), "startDate": pushes.event_start,
                      "eventType": "OTHER", "maxSkaters": 20, "maxGoalies": 1});
    let event_id = id_of(&api.post_value("/api/v1/events", &organiser.token, body).await?)?;
    pushes.event_id = event_id.clone();
    let timeout = Duration::from_secs(args.push_timeout.max(1));
    let mut upserts = Recorder::new();
    let mut drops = Recorder::new();
    let probe = subs.first().map(|s| s.token.clone());
    // Round 0 is the first fill (the event is not short); each round after
    // empties the spot (the goalie declines) and fills it again.
    for round in 0..=args.rounds {
        for (op, action) in [(Op::Upsert, "DECLINED"), (Op::Drop, "ATTENDING")] {
            if round == 0 && op == Op::Upsert {
                continue;
            }
            let mut recorder = Recorder::new();
            let overall = if op == Op::Upsert { &mut upserts } else { &mut drops };
            let since = Instant::now();
            api.rsvp(&goalie.token, &event_id, action, Some("GOALIE")).await?;
            let rtt = since.elapsed();
            let reached = await_phase(&mut rx, pushes, (op, &event_id), since, timeout, [&mut recorder, overall]).await;
            let label = if op == Op::Upsert { "upsert" } else { "drop" };
            info!(round, op = label, reached, of = pushes.subscribed, "pushed");
            pushes.missed += pushes.subscribed - reached;
            if let Some(token) = &probe {
                let wanted = op == Op::Upsert;
                match rest_lists(api, token, &event_id).await {
                    Ok(listed) if listed != wanted => pushes.rest_disagreements.push(format!(
                        "round {round} after {action}: GET /me/matches of sub 0 {} event {event_id}",
                        if listed { "lists" } else { "does not list" }
                    )),
                    Ok(_) => {}
                    Err(e) => pushes.rest_disagreements.push(format!("round {round}: {e:#}")),
                }
            }
            pushes.phases.push(Phase {
                round,
                op: label,
                rsvp_rtt_ms: rtt.as_secs_f64() * 1000.0,
                reached,
                of: pushes.subscribed,
                delivery: recorder.summary(),
            });
        }
    }
    pushes.upsert = upserts.summary();
    pushes.drop = drops.summary();
    while let Ok(ev) = rx.try_recv() {
        if let SubEvent::Lost(e) = ev {
            pushes.socket_errors.add(&e);
        }
    }
    let _ = stop.send(true);
    let grace = tokio::time::sleep(Duration::from_secs(15));
    tokio::pin!(grace);
    loop {
        tokio::select! {
            joined = tasks.join_next() => if joined.is_none() { break },
            _ = &mut grace => { tasks.abort_all(); break; }
        }
    }
    Ok(quiet)
}

// ---------------------------------------------------------------- output

fn outcome(r: Report) -> Outcome {
    let s = &r.seeding;
    let p = &r.pushes;
    let passed = s.errors.is_empty()
        && r.walk.statuses == s.statuses_created
        && r.walk.duplicates == 0
        && r.board_violations == 0
        && r.board_errors.is_empty()
        && p.failed.is_empty()
        && p.subscribed == p.subs
        && p.missed == 0
        && p.rest_disagreements.is_empty()
        && p.socket_errors.is_empty()
        && r.node_panics.is_empty();
    let mut h = format!(
        "market — {} node at {}, {} events, {} statuses, {} subs on `matches`\n",
        r.database, r.url, s.events_requested, s.statuses_requested, p.subs
    );
    h.push_str(&format!(
        "  seeding       {} facilities; {} of {} events in {:.1} s; {} teams; {} persons ({} with a level, {} playing at a rink) in {:.1} s\n",
        s.facilities,
        s.events_created,
        s.events_requested,
        s.events_seconds,
        s.teams_created,
        s.persons,
        s.persons_with_level,
        s.persons_at_facility,
        s.people_seconds
    ));
    let mut types: Vec<_> = s.by_type.iter().collect();
    types.sort();
    let types: Vec<String> = types.iter().map(|(k, v)| format!("{v} {k}")).collect();
    h.push_str(&format!(
        "  statuses      {} of {} posted in {:.1} s ({:.0}/s): {}\n  status post   {}\n",
        s.statuses_created,
        s.statuses_requested,
        s.statuses_seconds,
        s.statuses_per_sec,
        types.join(", "),
        s.status_post
    ));
    if !s.errors.is_empty() {
        h.push_str(&format!("    seeding errors ({}):\n{}", s.errors.total(), s.errors.lines()));
    }
    if let Some(q) = &r.quiet_after_seeding {
        h.push_str(&format!(
            "  after posting the node stayed busy {:.1} s more ({:.1} CPU s: background pushes){}\n",
            q.seconds,
            q.cpu_seconds,
            if q.reached { "" } else { " — and was still busy when measuring started" }
        ));
    }
    h.push_str(&format!(
        "  board walk    {} statuses in {} pages of {WALK_PAGE}, {} duplicates; page {}\n",
        r.walk.statuses, r.walk.pages, r.walk.duplicates, r.walk.page_latency
    ));
    h.push_str(&format!("  board         {}\n", r.board));
    for f in &r.board_by_filter {
        h.push_str(&format!("    {:<21} {}   {:.1} items/read\n", f.filter, f.latency, f.mean_items));
    }
    if r.board_violations > 0 {
        h.push_str(&format!("    ! {} items broke their filter:\n", r.board_violations));
        for v in &r.board_violation_samples {
            h.push_str(&format!("      {v}\n"));
        }
    }
    if !r.board_errors.is_empty() {
        h.push_str(&format!("    board errors:\n{}", r.board_errors.lines()));
    }
    h.push_str(&format!("  matches       {}   {:.1} items/read\n", r.matches, r.matches_items_mean));
    if let Some(q) = &r.quiet_after_subs {
        h.push_str(&format!("  subs' posts   node busy {:.1} s more ({:.1} CPU s)\n", q.seconds, q.cpu_seconds));
    }
    h.push_str(&format!(
        "  subs          {} of {} subscribed; snapshot {}   {:.1} matches each\n",
        p.subscribed, p.subs, p.subscribe, p.snapshot_items_mean
    ));
    if !p.failed.is_empty() {
        h.push_str(&format!("    failures:\n{}", p.failed.lines()));
    }
    h.push_str(&format!("  event         {} starting {} (maxGoalies 1)\n", p.event_id, p.event_start));
    for ph in &p.phases {
        let what = if ph.op == "upsert" { "decline → upsert" } else { "attend  → drop  " };
        h.push_str(&format!(
            "    round {} {}  {:>4} of {:<4} {}   (rsvp {:.1} ms)\n",
            ph.round, what, ph.reached, ph.of, ph.delivery, ph.rsvp_rtt_ms
        ));
    }
    h.push_str(&format!("  spot opened   {}\n  spot filled   {}\n", p.upsert, p.drop));
    h.push_str(&format!("  completeness  {} pushes missed\n", p.missed));
    for d in &p.rest_disagreements {
        h.push_str(&format!("    ! {d}\n"));
    }
    if !p.socket_errors.is_empty() {
        h.push_str(&format!("    socket errors:\n{}", p.socket_errors.lines()));
    }
    for l in &r.node_panics {
        h.push_str(&format!("  ! {l}\n"));
    }
    let report = serde_json::to_value(&r).unwrap_or_default();
    Outcome { scenario: "market", passed, report, human: h }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_breaking_their_filter_are_named() {
        let soon = at(Utc::now(), DAY_MS);
        let past = at(Utc::now(), -DAY_MS);
        let from = Utc::now() + chrono::Duration::hours(36);
        let items = vec![
            json!({"id": "a", "type": "RECRUITING", "positions": [], "level": null, "expiresAt": soon}),
            json!({"id": "b", "type": "AVAILABLE_TO_SUB", "positions": ["CENTER"], "level": "ELITE", "expiresAt": past}),
        ];
        assert!(check_items(FilterKind::None, "", "", from, &items[..1]).is_empty());
        assert_eq!(check_items(FilterKind::None, "", "", from, &items).len(), 1);
        assert_eq!(check_items(FilterKind::Type, "?type=X", "AVAILABLE_TO_SUB", from, &items[..1]).len(), 1);
        assert_eq!(check_items(FilterKind::Position, "", "", from, &items).len(), 2);
        assert_eq!(check_items(FilterKind::Division, "", "", from, &items[..1]).len(), 1);
        assert_eq!(check_items(FilterKind::Window, "", "", from, &items[..1]).len(), 1);
    }

    #[test]
    fn positions_rotate_through_goalies_skaters_and_any() {
        assert_eq!(positions(0), vec!["GOALIE"]);
        assert!(positions(3).is_empty());
        assert_eq!((0..6).filter(|i| positions(*i).contains(&"GOALIE")).count(), 2);
    }
}
