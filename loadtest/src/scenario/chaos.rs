//! `chaos`: what the outside tester did by hand, as a run anyone can
//! repeat. The scenario starts its own cluster (`rinkside serve` nodes on a
//! fresh PostgreSQL schema and a private Redis), drives a mixed load — many
//! users RSVPing for a few events with limited places, a score keeper
//! posting goals, WebSocket subscribers of every `event:` and the `game:`
//! topic spread over the nodes — and meanwhile SIGKILLs and restarts nodes
//! and drops the nodes' Redis connections (`CLIENT KILL TYPE pubsub`, and
//! `normal` for the publishers when the Redis is the run's own).
//!
//! The clients behave as CONTRACT.md's clients do: every RSVP and goal
//! carries an `Idempotency-Key` and is retried with the same key, on the
//! next node, until it is answered; a subscriber whose connection drops
//! reconnects (to the next node if its own is down), re-authenticates and
//! re-subscribes with `since` = the last seq it holds, and ignores updates
//! that are not newer.
//!
//! When the load stops every node is brought back, the unanswered requests
//! are retried to an answer, and the final state is read over HTTP from
//! every node (they must agree). Then: every acknowledged RSVP and goal
//! must be in it, no event over its limits (`chaos_check`), and every
//! subscriber must converge to the final document and seq. The run fails
//! (exit 1) on any lost acknowledgement, broken limit, unconverged
//! subscriber or panic in a node's log.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use futures_util::{SinkExt, StreamExt, TryStreamExt, stream};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::sync::watch;
use tokio::task::JoinSet;
use tokio_tungstenite::tungstenite::{Message, Utf8Bytes};
use tracing::info;

use super::Outcome;
use super::own_node::{RunDatabase, run_dir, server_binary};
use crate::api::{Api, Attendees, Session, run_tag};
use crate::chaos_check::{
    Answer, Change, EventFinal, GameFinal, GoalAck, RsvpAck, Side, Unresolved, check_goals, check_rsvps, delivery_lags,
    normalize_event, normalize_game, split_latencies,
};
use crate::cli::ChaosArgs;
use crate::cluster::{Cluster, NodeConfig, PrivateRedis, redis_kill_clients};
use crate::fleet::ErrorTally;
use crate::net::{Endpoint, Ws, connect_ws};
use crate::race_check::{GOALIE, SKATER_POSITIONS};
use crate::stats::{Recorder, Summary};

/// Setup calls in flight at once.
const SETUP_CONCURRENCY: usize = 8;
/// One HTTP attempt's limit; the request is retried (same key) after it.
const ATTEMPT_TIMEOUT: Duration = Duration::from_secs(10);
/// Backoff between attempts, doubling from the first to the cap.
const RETRY_FIRST: Duration = Duration::from_millis(50);
const RETRY_CAP: Duration = Duration::from_secs(1);
/// A subscriber's reconnect backoff, as the client's `lib/ws.ts`.
const RECONNECT_FIRST: Duration = Duration::from_millis(100);
const RECONNECT_CAP: Duration = Duration::from_secs(2);
/// Every tenth user plays goal.
const GOALIE_EVERY: usize = 10;
/// Findings printed in the text report; the JSON has them all.
const SHOWN: usize = 20;

// ---------------------------------------------------------------- the plan

/// A disruption, at an offset from the start of the load.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Kill(usize),
    Restart(usize),
    DropRedis,
}

/// When to kill which node (round-robin), when to bring it back, and when
/// to drop the Redis connections, within `seconds` of load. Nothing is
/// scheduled in the last `down` seconds, so the load ends with every node
/// up and a quiet moment behind the last disruption.
pub fn chaos_plan(seconds: f64, nodes: usize, kill_every: f64, down: f64, drop_every: f64) -> Vec<(Duration, Action)> {
    let mut plan = Vec::new();
    let end = seconds - down.max(1.0);
    if nodes > 0 && kill_every > 0.0 {
        let mut k = 0;
        let mut t = kill_every;
        while t + down < end {
            plan.push((Duration::from_secs_f64(t), Action::Kill(k % nodes)));
            plan.push((Duration::from_secs_f64(t + down), Action::Restart(k % nodes)));
            k += 1;
            t += kill_every;
        }
    }
    if drop_every > 0.0 {
        let mut t = drop_every / 2.0;
        while t < end {
            plan.push((Duration::from_secs_f64(t), Action::DropRedis));
            t += drop_every;
        }
    }
    plan.sort_by_key(|(at, _)| *at);
    plan
}

/// A small deterministic generator (xorshift), so a run's choices depend
/// only on the user's index.
#[derive(Debug, Clone)]
pub struct Dice(u64);

impl Dice {
    pub fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// 0..n (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % u64::try_from(n.max(1)).unwrap_or(1)).unwrap_or(0)
    }

    /// `d` scaled by a factor in [0.5, 1.5).
    pub fn jitter(&mut self, d: Duration) -> Duration {
        let f = 0.5 + (self.next() % 1000) as f64 / 1000.0;
        d.mul_f64(f)
    }
}

/// Resolves once `stop` is true (or its sender is gone), holding no borrow
/// of the channel across an await.
async fn stopped(stop: &mut watch::Receiver<bool>) {
    let _ = stop.wait_for(|s| *s).await;
}

/// Backoff before attempt `attempt` (0-based): doubling, capped.
pub fn backoff(attempt: u32, first: Duration, cap: Duration) -> Duration {
    first.saturating_mul(1u32 << attempt.min(16)).min(cap)
}

// ---------------------------------------------------------------- requests

/// How a request ended.
enum Ended {
    /// 2xx with its body.
    Answered(Value),
    /// A 4xx other than 408 and 429: the server refused it for good.
    Refused(String),
    /// Still unanswered at the deadline.
    GaveUp,
}

/// What one idempotent request needs.
struct Request<'a> {
    http: &'a reqwest::Client,
    urls: &'a [String],
    /// Node tried first; each retry moves to the next.
    first_node: usize,
    method: reqwest::Method,
    path: String,
    token: &'a str,
    key: String,
    body: Value,
}

/// Sends until answered (2xx), refused (a 4xx but 408 and 429) or
/// `deadline`: transport errors, 5xx, 408 (the server's request timeout)
/// and 429 are retried with the same key on the next node. Counts attempts and tallies the failures.
async fn send_idempotent(r: Request<'_>, deadline: Instant, attempts: &mut u64, errors: &mut ErrorTally) -> Ended {
    let mut attempt = 0u32;
    loop {
        let node = (r.first_node + attempt as usize) % r.urls.len();
        *attempts += 1;
        let sent = r
            .http
            .request(r.method.clone(), format!("{}{}", r.urls[node], r.path))
            .bearer_auth(r.token)
            .header("Idempotency-Key", &r.key)
            .timeout(ATTEMPT_TIMEOUT)
            .json(&r.body)
            .send()
            .await;
        match sent {
            Ok(res) if res.status().is_success() => match res.json::<Value>().await {
                Ok(body) => return Ended::Answered(body),
                Err(e) => errors.add(&format!("reading an answer: {}", short(&e))),
            },
            Ok(res) if res.status().is_client_error() && !matches!(res.status().as_u16(), 408 | 429) => {
                let status = res.status();
                let body = res.text().await.unwrap_or_default();
                if status.as_u16() == 409 && says_try_again(&body) {
                    errors.add("HTTP 409 \"changing too fast; try again\"");
                } else {
                    return Ended::Refused(format!("{status}: {}", body.chars().take(200).collect::<String>()));
                }
            }
            Ok(res) => errors.add(&format!("HTTP {}", res.status())),
            Err(e) => errors.add(&short(&e)),
        }
        if Instant::now() >= deadline {
            return Ended::GaveUp;
        }
        tokio::time::sleep(backoff(attempt, RETRY_FIRST, RETRY_CAP)).await;
        attempt += 1;
    }
}

/// Whether a 409 is the actor's "changing too fast; try again": its
/// optimistic commit lost to other nodes' commits of the same event too
/// many times in a row. Nothing was applied, so the client tries again with
/// the same key. (The code is the generic `conflict`, so only the message
/// tells it from a refusal for good.)
pub fn says_try_again(body: &str) -> bool {
    serde_json::from_str::<Value>(body)
        .ok()
        .and_then(|v| v["error"]["message"].as_str().map(|m| m.ends_with("try again")))
        .unwrap_or(false)
}

/// A reqwest error without its URL (which differs per node and port).
fn short(e: &reqwest::Error) -> String {
    let kind = if e.is_timeout() {
        "timed out"
    } else if e.is_connect() {
        "connect failed"
    } else if e.is_request() {
        "request failed (connection lost)"
    } else if e.is_body() || e.is_decode() {
        "body failed"
    } else {
        "error"
    };
    kind.to_owned()
}

// ---------------------------------------------------------------- RSVP users

struct RsvpUser {
    idx: usize,
    session: Session,
    position: &'static str,
    events: Arc<Vec<String>>,
    urls: Arc<Vec<String>>,
    http: reqwest::Client,
    /// Mean time between this user's RSVPs.
    interval: Duration,
    tag: Arc<str>,
}

#[derive(Default)]
struct RsvpResult {
    acks: Vec<RsvpAck>,
    unresolved: Vec<Unresolved>,
    refused: Vec<String>,
    attempts: u64,
    /// RSVPs answered only after a retry.
    retried: u64,
    errors: ErrorTally,
    /// `(first attempt, until the answer)` of every answered RSVP.
    timings: Vec<(Instant, Duration)>,
    statuses: BTreeMap<String, u64>,
}

/// Toggles its answer for a random event every `interval` (jittered) until
/// `stop`; each RSVP is retried to an answer or `deadline`.
async fn rsvp_user(u: RsvpUser, mut stop: watch::Receiver<bool>, deadline: watch::Receiver<Instant>) -> RsvpResult {
    let mut out = RsvpResult::default();
    let mut dice = Dice::new(u.idx as u64 + 1);
    let mut answers: Vec<Answer> = vec![Answer::Declined; u.events.len()];
    // Spread the first RSVPs over one interval.
    let first = u.interval.mul_f64((dice.next() % 1000) as f64 / 1000.0);
    let mut wait = first;
    for n in 1u64.. {
        tokio::select! {
            _ = tokio::time::sleep(wait) => {}
            _ = stopped(&mut stop) => break,
        }
        wait = dice.jitter(u.interval);
        let event = dice.below(u.events.len());
        let answer = answers[event].toggled();
        let started = Instant::now();
        let request = Request {
            http: &u.http,
            urls: &u.urls,
            first_node: u.idx + n as usize,
            method: reqwest::Method::PUT,
            path: format!("/api/v1/events/{}/rsvp", u.events[event]),
            token: &u.session.token,
            key: format!("chaos-{}-u{}-{n}", u.tag, u.idx),
            body: json!({"action": answer.as_str(), "position": u.position}),
        };
        let before = out.attempts;
        let limit = *deadline.borrow();
        match send_idempotent(request, limit, &mut out.attempts, &mut out.errors).await {
            Ended::Answered(body) => {
                let status = body["status"].as_str().unwrap_or("?").to_owned();
                *out.statuses.entry(status).or_default() += 1;
                out.timings.push((started, started.elapsed()));
                if out.attempts - before > 1 {
                    out.retried += 1;
                }
                answers[event] = answer;
                out.acks.push(RsvpAck {
                    user_id: u.session.user_id.clone(),
                    event,
                    n,
                    answer,
                    position: u.position,
                    version: body["version"].as_u64().unwrap_or(0),
                    acked_at: Instant::now(),
                });
            }
            Ended::Refused(why) => out.refused.push(format!("user {} event {event}: {why}", u.idx)),
            Ended::GaveUp => {
                out.unresolved.push(Unresolved { user_id: u.session.user_id.clone(), event, n });
                // Whether it applied is unknown: nothing more for this user.
                break;
            }
        }
    }
    out
}

// ---------------------------------------------------------------- the score keeper

#[derive(Default)]
struct GoalResult {
    acks: Vec<GoalAck>,
    unresolved: usize,
    refused: Vec<String>,
    attempts: u64,
    retried: u64,
    errors: ErrorTally,
    timings: Vec<(Instant, Duration)>,
}

struct Keeper {
    token: String,
    game_id: String,
    rosters: [String; 2],
    urls: Arc<Vec<String>>,
    http: reqwest::Client,
    period: Duration,
    tag: Arc<str>,
}

/// Posts a goal every `period` (sides alternating) until `stop`, one at a
/// time, each retried to an answer or `deadline`.
async fn keep_score(k: Keeper, mut stop: watch::Receiver<bool>, deadline: watch::Receiver<Instant>) -> GoalResult {
    let mut out = GoalResult::default();
    let mut tick = tokio::time::interval(k.period);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    for n in 0u64.. {
        tokio::select! {
            _ = tick.tick() => {}
            _ = stopped(&mut stop) => break,
        }
        let side = if n % 2 == 0 { Side::Home } else { Side::Away };
        let roster = &k.rosters[usize::from(side == Side::Away)];
        let started = Instant::now();
        let request = Request {
            http: &k.http,
            urls: &k.urls,
            first_node: n as usize,
            method: reqwest::Method::POST,
            path: format!("/api/v1/games/{}/actions", k.game_id),
            token: &k.token,
            key: format!("chaos-{}-goal-{n}", k.tag),
            body: json!({"type": "GOAL", "rosterId": roster}),
        };
        let before = out.attempts;
        let limit = *deadline.borrow();
        match send_idempotent(request, limit, &mut out.attempts, &mut out.errors).await {
            Ended::Answered(body) => {
                out.timings.push((started, started.elapsed()));
                if out.attempts - before > 1 {
                    out.retried += 1;
                }
                let entry_seq = body["log"].as_array().and_then(|l| l.last()).and_then(|e| e["seq"].as_i64());
                out.acks.push(GoalAck {
                    side,
                    version: body["version"].as_u64().unwrap_or(0),
                    entry_seq: entry_seq.unwrap_or(-1),
                    acked_at: Instant::now(),
                });
            }
            Ended::Refused(why) => out.refused.push(format!("goal {n}: {why}")),
            Ended::GaveUp => {
                out.unresolved += 1;
                break;
            }
        }
    }
    out
}

// ---------------------------------------------------------------- subscribers

/// A subscriber's topic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TopicKind {
    Event,
    Game,
}

impl TopicKind {
    fn normalize(self, doc: &Value) -> Value {
        match self {
            TopicKind::Event => normalize_event(doc),
            TopicKind::Game => normalize_game(doc),
        }
    }
}

/// What a subscriber holds, shared with the scenario so it can watch for
/// convergence.
#[derive(Debug, Default)]
struct Held {
    seq: Option<u64>,
    /// The frame that brought `seq`, as received: parsed only when the
    /// convergence check asks (a subscriber reads thousands of documents;
    /// building each would cost the load generator the CPU the server
    /// needs).
    frame: Option<Utf8Bytes>,
    /// `(when, seq)` of every state that raised the seq.
    timeline: Vec<(Instant, u64)>,
    connections: u32,
    /// Lost connections (not at our request).
    drops: u32,
    /// From losing a connection to the snapshot on the next one.
    resync: Vec<Duration>,
    /// Snapshots older than what the subscriber already held (kept the newer).
    stale_snapshots: u32,
    /// Updates at or below the held seq (dropped, as the client does).
    stale_updates: u32,
    errors: ErrorTally,
}

impl Held {
    fn take(&mut self, seq: u64, frame: Utf8Bytes, snapshot: bool) {
        if self.seq.is_some_and(|held| seq <= held) {
            if snapshot && self.seq.is_some_and(|held| seq < held) {
                self.stale_snapshots += 1;
            } else if !snapshot {
                self.stale_updates += 1;
            }
            // A snapshot at the held seq is the same state again.
            return;
        }
        self.seq = Some(seq);
        self.frame = Some(frame);
        self.timeline.push((Instant::now(), seq));
    }

    /// The held document, normalized.
    fn doc(&self, kind: TopicKind) -> Option<Value> {
        let frame: Value = serde_json::from_str(self.frame.as_ref()?.as_str()).ok()?;
        Some(kind.normalize(&frame["data"]))
    }
}

/// The head of a server frame; `data` is skipped, not built.
#[derive(Deserialize)]
struct Head {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    seq: Option<u64>,
    #[serde(default)]
    error: Option<HeadError>,
}

#[derive(Deserialize)]
struct HeadError {
    code: String,
}

struct SubSpec {
    topic: String,
    token: Option<String>,
    endpoints: Arc<Vec<Arc<Endpoint>>>,
    /// Node connected to first, and again after each drop.
    home: usize,
}

/// One subscriber, as the client's `lib/ws.ts`: connect, auth, subscribe
/// with `since`, apply newer states; on a drop, back off and do it again,
/// trying the next node when one does not answer.
async fn subscriber(spec: SubSpec, held: Arc<Mutex<Held>>, mut stop: watch::Receiver<bool>) {
    let mut failures = 0u32;
    let mut lost_at: Option<Instant> = None;
    loop {
        if *stop.borrow() {
            return;
        }
        let node = (spec.home + failures as usize) % spec.endpoints.len();
        let connected = tokio::select! {
            c = connect_ws(&spec.endpoints[node], None) => c,
            _ = stopped(&mut stop) => return,
        };
        let outcome = match connected {
            Ok(ws) => {
                held.lock().unwrap_or_else(PoisonError::into_inner).connections += 1;
                session(ws, &spec, &held, &mut stop, &mut lost_at).await
            }
            Err(e) => Err(format!("connect: {e:#}")),
        };
        match outcome {
            Ok(()) => return,
            Err(why) => {
                let mut h = held.lock().unwrap_or_else(PoisonError::into_inner);
                h.errors.add(&why);
                if lost_at.is_none() {
                    // The connection had its snapshot: start again from the
                    // home node, so the subscribers stay spread over the nodes.
                    failures = 0;
                }
                lost_at.get_or_insert_with(Instant::now);
            }
        }
        let pause = backoff(failures.min(8), RECONNECT_FIRST, RECONNECT_CAP);
        failures += 1;
        tokio::select! {
            _ = tokio::time::sleep(pause) => {}
            _ = stopped(&mut stop) => return,
        }
    }
}

/// One connection's life. `Ok` when stopped on purpose; `Err` says why it
/// ended otherwise. Resets `lost_at` once the snapshot is back.
async fn session(
    mut ws: Ws,
    spec: &SubSpec,
    held: &Arc<Mutex<Held>>,
    stop: &mut watch::Receiver<bool>,
    lost_at: &mut Option<Instant>,
) -> Result<(), String> {
    if let Some(token) = &spec.token {
        ws.send(Message::text(json!({"type": "auth", "token": token}).to_string()))
            .await
            .map_err(|e| format!("send: {e}"))?;
    }
    let since = held.lock().unwrap_or_else(PoisonError::into_inner).seq;
    let mut subscribe = json!({"type": "subscribe", "topic": spec.topic});
    if let Some(seq) = since {
        subscribe["since"] = json!(seq);
    }
    ws.send(Message::text(subscribe.to_string())).await.map_err(|e| format!("send: {e}"))?;
    let mut subscribed = false;
    loop {
        let msg = tokio::select! {
            m = ws.next() => m,
            _ = stopped(stop) => {
                let _ = tokio::time::timeout(Duration::from_secs(1), ws.close(None)).await;
                return Ok(());
            }
        };
        let text = match msg {
            None => return Err(lost(held, "connection ended")),
            Some(Err(e)) => return Err(lost(held, &format!("{e}"))),
            Some(Ok(Message::Close(frame))) => {
                return Err(lost(held, &format!("closed {}", frame.map(|f| f.code.to_string()).unwrap_or_default())));
            }
            Some(Ok(Message::Text(t))) => t,
            Some(Ok(_)) => continue,
        };
        let Ok(head) = serde_json::from_str::<Head>(text.as_str()) else { continue };
        let mut h = held.lock().unwrap_or_else(PoisonError::into_inner);
        match head.kind.as_str() {
            "snapshot" => {
                h.take(head.seq.unwrap_or(0), text, true);
                subscribed = true;
                if let Some(at) = lost_at.take() {
                    h.resync.push(at.elapsed());
                }
            }
            "update" if subscribed => h.take(head.seq.unwrap_or(0), text, false),
            "error" => {
                let code = head.error.map_or_else(|| "?".to_owned(), |e| e.code);
                h.errors.add(&format!("error frame: {code}"));
                if !subscribed {
                    // The subscribe failed (a node still starting, say): again, later.
                    return Err(format!("subscribe refused: {code}"));
                }
            }
            "unsubscribed" => return Err("unsubscribed by the server".into()),
            _ => {}
        }
    }
}

/// Books a lost connection; the reason for the error tally.
fn lost(held: &Arc<Mutex<Held>>, why: &str) -> String {
    held.lock().unwrap_or_else(PoisonError::into_inner).drops += 1;
    format!("lost: {why}")
}

// ---------------------------------------------------------------- the report

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Disruption {
    at_seconds: f64,
    what: String,
    /// Node kills: seconds until it answered `/healthz` again after its restart
    /// began; Redis drops: connections dropped.
    detail: String,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Requests {
    sent: u64,
    acknowledged: usize,
    /// Requests (not attempts) that needed more than one attempt.
    retried: u64,
    unresolved: usize,
    refused: Vec<String>,
    /// First attempt to answer, retries included: all requests, those sent
    /// in calm periods, and those sent during a disruption (see `--window`).
    latency: Summary,
    latency_calm: Summary,
    latency_disrupted: Summary,
    /// The slowest answers: when (seconds into the load) and how long.
    slowest: Vec<String>,
    /// Failed attempts, by cause.
    attempt_errors: ErrorTally,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Subscribers {
    total: usize,
    converged: usize,
    not_converged: Vec<String>,
    /// From the last acknowledged change of its topic to the moment each
    /// subscriber held the final state.
    final_state_after_last_ack: Summary,
    connection_drops: u64,
    /// From losing a connection to the snapshot on the next one.
    resync_after_drop: Summary,
    /// Every (acknowledged change, subscriber of its topic): from the HTTP
    /// answer to the subscriber holding that version or newer.
    lag_calm: Summary,
    /// The same for changes acknowledged during a disruption (a node down
    /// until `--window` after it is back; `--window` after a Redis drop):
    /// the reconvergence time.
    lag_disrupted: Summary,
    /// Pairs never caught up with (0 when every subscriber converged).
    lag_missed: u64,
    stale_snapshots: u64,
    stale_updates: u64,
    errors: ErrorTally,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Report {
    nodes: usize,
    seconds: f64,
    log_dir: String,
    schema: String,
    redis: String,
    kills: usize,
    redis_drops: usize,
    disruptions: Vec<Disruption>,
    rsvps: Requests,
    rsvp_statuses: BTreeMap<String, u64>,
    goals: Requests,
    /// Acknowledged answers missing from the final state: must be empty.
    lost_acks: Vec<String>,
    /// Limits, promotions, ranks, duplicates, versions: must be empty.
    broken: Vec<String>,
    /// The nodes served different final documents.
    nodes_disagree: Vec<String>,
    subscribers: Subscribers,
    node_panics: Vec<String>,
    final_versions: BTreeMap<String, u64>,
}

impl Requests {
    #[allow(clippy::too_many_arguments)]
    fn new(
        sent: u64,
        acknowledged: usize,
        retried: u64,
        unresolved: usize,
        refused: Vec<String>,
        timings: &[(Instant, Duration)],
        windows: &[(Instant, Instant)],
        started: Instant,
        attempt_errors: ErrorTally,
    ) -> Self {
        let (all, calm, disrupted) = split_latencies(timings, windows);
        let mut by_time: Vec<&(Instant, Duration)> = timings.iter().collect();
        by_time.sort_by_key(|(_, took)| std::cmp::Reverse(*took));
        let slowest = by_time
            .iter()
            .take(5)
            .map(|(at, took)| {
                let t = at.saturating_duration_since(started).as_secs_f64();
                format!("{:.0} ms at {t:.1} s", took.as_secs_f64() * 1000.0)
            })
            .collect();
        Self {
            sent,
            acknowledged,
            retried,
            unresolved,
            refused,
            latency: all.summary(),
            latency_calm: calm.summary(),
            latency_disrupted: disrupted.summary(),
            slowest,
            attempt_errors,
        }
    }
}

fn list(items: &[String]) -> String {
    let mut s: String = items.iter().take(SHOWN).map(|i| format!("      {i}\n")).collect();
    if items.len() > SHOWN {
        s.push_str(&format!("      … and {} more\n", items.len() - SHOWN));
    }
    s
}

fn requests_line(name: &str, r: &Requests) -> String {
    let mut s = format!(
        "  {name:<13} {} acknowledged of {} requests ({} HTTP attempts, {} needed a retry, {} unresolved, {} refused)\n  \
         {:<13} first attempt to answer {}\n  \
         {:<13}   sent when calm        {}\n  \
         {:<13}   sent while disrupted  {}\n  \
         {:<13}   slowest: {}\n",
        r.acknowledged,
        r.acknowledged + r.unresolved + r.refused.len(),
        r.sent,
        r.retried,
        r.unresolved,
        r.refused.len(),
        "",
        r.latency,
        "",
        r.latency_calm,
        "",
        r.latency_disrupted,
        "",
        r.slowest.join(", ")
    );
    if !r.attempt_errors.is_empty() {
        s.push_str("    failed attempts (retried):\n");
        s.push_str(&r.attempt_errors.lines());
    }
    if !r.refused.is_empty() {
        s.push_str("    refused:\n");
        s.push_str(&list(&r.refused));
    }
    s
}

impl Report {
    fn human(&self) -> String {
        let s = &self.subscribers;
        let mut out = format!(
            "chaos: {} nodes on PostgreSQL schema {} + Redis {}, {:.0} s of load\n  \
             disruptions   {} node kills (SIGKILL, restart), {} Redis connection drops\n",
            self.nodes, self.schema, self.redis, self.seconds, self.kills, self.redis_drops
        );
        for d in &self.disruptions {
            out.push_str(&format!("      {:>6.1} s  {:<22} {}\n", d.at_seconds, d.what, d.detail));
        }
        out.push_str(&requests_line("RSVPs", &self.rsvps));
        out.push_str(&format!(
            "  {:<13} {}\n",
            "",
            self.rsvp_statuses.iter().map(|(k, v)| format!("{v} {k}")).collect::<Vec<_>>().join(", ")
        ));
        out.push_str(&requests_line("goals", &self.goals));
        out.push_str(&format!(
            "  lost acks     {}\n",
            if self.lost_acks.is_empty() { "none".to_string() } else { self.lost_acks.len().to_string() }
        ));
        out.push_str(&list(&self.lost_acks));
        out.push_str(&format!(
            "  limits etc.   {}\n",
            if self.broken.is_empty() { "all held".to_string() } else { format!("{} broken", self.broken.len()) }
        ));
        out.push_str(&list(&self.broken));
        if !self.nodes_disagree.is_empty() {
            out.push_str("  nodes disagree on the final state:\n");
            out.push_str(&list(&self.nodes_disagree));
        }
        out.push_str(&format!(
            "  subscribers   {} of {} converged to the final document and seq ({} not)\n  \
             {:<13} final state, from its topic's last ack: {}\n  \
             {:<13} {} connection drops; resync (drop → snapshot on the next connection): {}\n  \
             {:<13} lag, calm:                  {}\n  \
             {:<13} lag, disrupted (reconverge): {}\n  \
             {:<13} {} stale snapshots, {} stale updates dropped, {} (change, subscriber) pairs missed\n",
            s.converged,
            s.total,
            s.not_converged.len(),
            "",
            s.final_state_after_last_ack,
            "",
            s.connection_drops,
            s.resync_after_drop,
            "",
            s.lag_calm,
            "",
            s.lag_disrupted,
            "",
            s.stale_snapshots,
            s.stale_updates,
            s.lag_missed,
        ));
        out.push_str(&list(&s.not_converged));
        if !s.errors.is_empty() {
            out.push_str("    subscriber connection errors:\n");
            out.push_str(&s.errors.lines());
        }
        out.push_str(&format!("  node panics   {}\n", self.node_panics.len()));
        out.push_str(&list(&self.node_panics));
        out.push_str(&format!("  node logs     {}\n", self.log_dir));
        out
    }

    fn passed(&self) -> bool {
        self.lost_acks.is_empty()
            && self.broken.is_empty()
            && self.nodes_disagree.is_empty()
            && self.subscribers.not_converged.is_empty()
            && self.node_panics.is_empty()
            && self.rsvps.unresolved == 0
            && self.goals.unresolved == 0
            && self.rsvps.refused.is_empty()
            && self.goals.refused.is_empty()
    }
}

// ---------------------------------------------------------------- the run

struct Setup {
    organiser: Session,
    users: Vec<Session>,
    events: Vec<String>,
    game_id: String,
    rosters: [String; 2],
}

async fn set_up(api: &Api, tag: &str, args: &ChaosArgs) -> Result<Setup> {
    let organiser = api.dev_token(&format!("ch{tag}org")).await?;
    let t = &organiser.token;
    let mut events = Vec::new();
    for i in 0..args.events {
        events.push(api.create_event(t, &format!("Chaos skate #{i}"), Some(args.skaters), Some(args.goalies)).await?);
    }
    let users: Vec<Session> = stream::iter(0..args.users)
        .map(|i| {
            let api = api.clone();
            let name = format!("ch{tag}u{i}");
            async move { api.dev_token_retrying(&name).await.map(|(s, _)| s) }
        })
        .buffered(SETUP_CONCURRENCY)
        .try_collect()
        .await?;
    let facility = api.create_facility(t, &format!("Chaos Arena {tag}")).await?;
    let season = api.create_season(t, &facility, &format!("Chaos {tag}")).await?;
    let mut rosters = Vec::new();
    for side in ["Home", "Away"] {
        let team = api.create_team(t, &format!("Chaos {side} {tag}"), &facility).await?;
        rosters.push(api.create_roster(t, &team, &season, &format!("{side} {tag}")).await?);
    }
    let [home, away]: [String; 2] = match rosters.try_into() {
        Ok(r) => r,
        Err(_) => bail!("expected two rosters"),
    };
    let game_id = api.create_game(t, &home, &away, &season).await?;
    api.game_action(t, &game_id, json!({"type": "START"})).await?;
    Ok(Setup { organiser, users, events, game_id, rosters: [home, away] })
}

/// The final state as one node serves it: each event's attendees, the game.
async fn read_final(api: &Api, setup: &Setup) -> Result<(Vec<Attendees>, Vec<Value>, Value)> {
    let mut docs = Vec::new();
    let mut raw = Vec::new();
    for e in &setup.events {
        let doc: Value = get_json(api, &format!("/api/v1/events/{e}/attendees"), &setup.organiser.token).await?;
        docs.push(serde_json::from_value(doc.clone()).context("attendees document")?);
        raw.push(doc);
    }
    let game = get_json(api, &format!("/api/v1/games/{}", setup.game_id), &setup.organiser.token).await?;
    Ok((docs, raw, game))
}

async fn get_json(api: &Api, path: &str, token: &str) -> Result<Value> {
    api.get_value(path, token).await
}

pub async fn run(args: ChaosArgs) -> Result<Outcome> {
    if args.nodes < 2 {
        bail!("--nodes must be at least 2 (one is killed at a time, the others serve)");
    }
    if !(args.seconds > 0.0 && args.rsvp_rate > 0.0 && args.goal_rate > 0.0) || args.users == 0 || args.events == 0 {
        bail!("--seconds, --rsvp-rate, --goal-rate, --users and --events must be positive");
    }
    let tag: Arc<str> = Arc::from(run_tag());
    let binary = server_binary(args.server_bin.as_ref())?;
    let log_dir = run_dir(args.log_dir.as_ref(), "chaos", &tag);

    // The database and Redis of the run.
    let database = RunDatabase::postgres(&args.database_url, "chaos", &tag)?;
    let private_redis = match &args.redis_url {
        Some(_) => None,
        None => Some(PrivateRedis::start(&args.redis_server)?),
    };
    let redis_url =
        args.redis_url.clone().or_else(|| private_redis.as_ref().map(|r| r.url.clone())).unwrap_or_default();
    // Ctrl-C drops the run, and with it the cluster (its nodes are killed),
    // so no server is left behind; the schema is dropped below.
    let outcome = tokio::select! {
        outcome = run_on(&args, &tag, &binary, &log_dir, &database, &redis_url, private_redis.is_some()) => outcome,
        _ = tokio::signal::ctrl_c() => Err(anyhow::anyhow!("interrupted")),
    };
    drop(private_redis);
    database.finish(args.keep_schema);
    outcome
}

#[allow(clippy::too_many_arguments)]
async fn run_on(
    args: &ChaosArgs,
    tag: &Arc<str>,
    binary: &std::path::Path,
    log_dir: &std::path::Path,
    database: &RunDatabase,
    redis_url: &str,
    own_redis: bool,
) -> Result<Outcome> {
    let config = NodeConfig {
        binary: binary.to_path_buf(),
        database_url: database.url.clone(),
        redis_url: Some(redis_url.to_owned()),
        db_connections: Some(args.db_connections),
        log_dir: log_dir.to_path_buf(),
        env: Vec::new(),
    };
    let mut cluster = Cluster::start(config, args.nodes).await?;
    let urls = Arc::new(cluster.urls());
    info!(?urls, logs = %log_dir.display(), "cluster up");
    let mut endpoints = Vec::new();
    for u in urls.iter() {
        endpoints.push(Arc::new(Endpoint::resolve(u).await?));
    }
    let endpoints = Arc::new(endpoints);
    let api = Api::new(&urls[0])?;
    let setup = Arc::new(set_up(&api, tag, args).await?);
    info!(users = setup.users.len(), events = setup.events.len(), game = %setup.game_id, "set up");

    // Subscribers, spread over the nodes, each with its snapshot first.
    let (stop_subs, stop_subs_rx) = watch::channel(false);
    let mut subs: Vec<(usize, TopicKind, Arc<Mutex<Held>>)> = Vec::new();
    let mut sub_tasks = JoinSet::new();
    let mut topics: Vec<(String, TopicKind)> =
        setup.events.iter().map(|e| (format!("event:{e}"), TopicKind::Event)).collect();
    topics.push((format!("game:{}", setup.game_id), TopicKind::Game));
    let game_topic = topics.len() - 1;
    let mut plan = Vec::new();
    for e in 0..setup.events.len() {
        plan.extend(std::iter::repeat_n(e, args.event_subscribers));
    }
    plan.extend(std::iter::repeat_n(game_topic, args.game_subscribers));
    for (i, topic) in plan.into_iter().enumerate() {
        let (name, kind) = topics[topic].clone();
        let token = (kind == TopicKind::Event).then(|| setup.users[i % setup.users.len()].token.clone());
        let held = Arc::new(Mutex::new(Held::default()));
        let spec = SubSpec { topic: name, token, endpoints: endpoints.clone(), home: i % endpoints.len() };
        sub_tasks.spawn(subscriber(spec, held.clone(), stop_subs_rx.clone()));
        subs.push((topic, kind, held));
    }
    let deadline = Instant::now() + Duration::from_secs(30);
    while subs.iter().any(|(_, _, h)| h.lock().unwrap_or_else(PoisonError::into_inner).seq.is_none()) {
        if Instant::now() > deadline {
            bail!("not every subscriber got its snapshot within 30 s");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    info!(subscribers = subs.len(), "subscribed");

    // The load.
    let http = reqwest::Client::builder().pool_max_idle_per_host(32).build().context("http client")?;
    let (stop_load, stop_load_rx) = watch::channel(false);
    let far = Instant::now() + Duration::from_secs(3600);
    let (deadline_tx, deadline_rx) = watch::channel(far);
    let interval = Duration::from_secs_f64(args.users as f64 / args.rsvp_rate);
    let events = Arc::new(setup.events.clone());
    let mut users = JoinSet::new();
    for (idx, session) in setup.users.iter().enumerate() {
        let position = if idx % GOALIE_EVERY == 0 { GOALIE } else { SKATER_POSITIONS[idx % SKATER_POSITIONS.len()] };
        let u = RsvpUser {
            idx,
            session: session.clone(),
            position,
            events: events.clone(),
            urls: urls.clone(),
            http: http.clone(),
            interval,
            tag: tag.clone(),
        };
        users.spawn(rsvp_user(u, stop_load_rx.clone(), deadline_rx.clone()));
    }
    let keeper = Keeper {
        token: setup.organiser.token.clone(),
        game_id: setup.game_id.clone(),
        rosters: setup.rosters.clone(),
        urls: urls.clone(),
        http: http.clone(),
        period: Duration::from_secs_f64(1.0 / args.goal_rate),
        tag: tag.clone(),
    };
    let scorer = tokio::spawn(keep_score(keeper, stop_load_rx.clone(), deadline_rx.clone()));

    // The chaos, on schedule.
    let started = Instant::now();
    let mut disruptions = Vec::new();
    let mut windows: Vec<(Instant, Instant)> = Vec::new();
    let window = Duration::from_secs_f64(args.window);
    let (mut kills, mut drops) = (0, 0);
    let mut down_since: BTreeMap<usize, Instant> = BTreeMap::new();
    let mut restarts = JoinSet::new();
    info!(seconds = args.seconds, "load and chaos running");
    for (at, action) in chaos_plan(args.seconds, args.nodes, args.kill_every, args.down, args.redis_drop_every) {
        tokio::time::sleep_until((started + at).into()).await;
        let t = started.elapsed().as_secs_f64();
        match action {
            Action::Kill(i) => {
                cluster.nodes[i].kill();
                kills += 1;
                down_since.insert(i, Instant::now());
                info!(node = i, "killed (SIGKILL)");
                disruptions.push(Disruption {
                    at_seconds: t,
                    what: format!("kill -9 node {i}"),
                    detail: String::new(),
                });
            }
            Action::Restart(i) => {
                let health = cluster.respawn(i)?;
                let since = down_since.remove(&i).unwrap_or_else(Instant::now);
                let slot = disruptions.len();
                disruptions.push(Disruption {
                    at_seconds: t,
                    what: format!("restart node {i}"),
                    detail: String::new(),
                });
                restarts.spawn(async move { (i, slot, since, health.await, Instant::now()) });
            }
            Action::DropRedis => {
                let mut detail = Vec::new();
                let kinds: &[&str] = if own_redis { &["pubsub", "normal"] } else { &["pubsub"] };
                for kind in kinds {
                    match redis_kill_clients(redis_url, kind).await {
                        Ok(n) => detail.push(format!("{n} {kind}")),
                        Err(e) => detail.push(format!("{kind} failed: {e:#}")),
                    }
                }
                drops += 1;
                windows.push((Instant::now(), Instant::now() + window));
                info!(dropped = %detail.join(", "), "dropped the Redis connections");
                disruptions.push(Disruption {
                    at_seconds: t,
                    what: "Redis CLIENT KILL".into(),
                    detail: format!("{} connections dropped", detail.join(" + ")),
                });
            }
        }
    }
    tokio::time::sleep_until((started + Duration::from_secs_f64(args.seconds)).into()).await;
    // Stop the load; bring every node back; let the unanswered finish.
    let _ = stop_load.send(true);
    while let Some(joined) = restarts.join_next().await {
        let (i, slot, since, health, at) = joined.context("a restart task failed")?;
        let detail = match &health {
            Ok(d) => format!("healthy after {:.2} s", d.as_secs_f64()),
            Err(e) => format!("restart FAILED: {e:#}"),
        };
        info!(node = i, %detail, "restarted");
        disruptions[slot].detail = detail;
        windows.push((since, at + window));
        health.with_context(|| format!("node {i} did not come back"))?;
    }

    for i in 0..cluster.nodes.len() {
        if !cluster.nodes[i].is_up() {
            cluster.restart(i).await?;
        }
    }
    let _ = deadline_tx.send(Instant::now() + Duration::from_secs_f64(args.settle));
    info!("load stopped; waiting for the last answers");
    let mut rsvp = RsvpResult::default();
    while let Some(joined) = users.join_next().await {
        let r = joined.context("an RSVP user task failed")?;
        rsvp.acks.extend(r.acks);
        rsvp.unresolved.extend(r.unresolved);
        rsvp.refused.extend(r.refused);
        rsvp.attempts += r.attempts;
        rsvp.retried += r.retried;
        for (k, n) in r.errors.iter() {
            rsvp.errors.add_n(k, n);
        }
        rsvp.timings.extend(r.timings);
        for (k, n) in r.statuses {
            *rsvp.statuses.entry(k).or_default() += n;
        }
    }
    let goals = scorer.await.context("the score keeper failed")?;

    // The final state, from every node.
    let mut finals = Vec::new();
    for u in urls.iter() {
        finals.push(read_final(&Api::new(u)?, &setup).await?);
    }
    let (docs, raw_events, game_doc) = finals[0].clone();
    let mut nodes_disagree = Vec::new();
    for (i, (_, raw, game)) in finals.iter().enumerate().skip(1) {
        for (e, (a, b)) in raw_events.iter().zip(raw).enumerate() {
            if normalize_event(a) != normalize_event(b) {
                nodes_disagree
                    .push(format!("event {e}: node 0 serves {} but node {i} serves {}", a["version"], b["version"]));
            }
        }
        if normalize_game(&game_doc) != normalize_game(game) {
            nodes_disagree
                .push(format!("game: node 0 serves {} but node {i} serves {}", game_doc["version"], game["version"]));
        }
    }
    let mut truth: Vec<(u64, Value)> =
        raw_events.iter().map(|d| (d["version"].as_u64().unwrap_or(0), normalize_event(d))).collect();
    truth.push((game_doc["version"].as_u64().unwrap_or(0), normalize_game(&game_doc)));

    // Every subscriber must converge to it.
    let settle_until = Instant::now() + Duration::from_secs_f64(args.settle);
    let mut converged_at: Vec<Option<Instant>> = vec![None; subs.len()];
    loop {
        for (i, (topic, kind, held)) in subs.iter().enumerate() {
            if converged_at[i].is_none() {
                let h = held.lock().unwrap_or_else(PoisonError::into_inner);
                if h.seq == Some(truth[*topic].0) && h.doc(*kind).as_ref() == Some(&truth[*topic].1) {
                    converged_at[i] = Some(Instant::now());
                }
            }
        }
        if converged_at.iter().all(Option::is_some) || Instant::now() > settle_until {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let _ = stop_subs.send(true);
    while sub_tasks.join_next().await.is_some() {}

    // The verdict.
    let events_final: Vec<EventFinal> = docs
        .iter()
        .map(|doc| EventFinal { max_skaters: args.skaters, max_goalies: args.goalies, doc: doc.clone() })
        .collect();
    let rsvp_verdict = check_rsvps(&events_final, &rsvp.acks, &rsvp.unresolved);
    let game_final = GameFinal::from_doc(&game_doc).context("the final game document")?;
    let goal_problems = check_goals(&game_final, &goals.acks, goals.unresolved);
    let (lost_goals, broken_goals): (Vec<String>, Vec<String>) =
        goal_problems.into_iter().partition(|p| p.contains("not in the log") || p.contains("score is"));
    let mut lost_acks = rsvp_verdict.lost.clone();
    lost_acks.extend(lost_goals);
    let mut broken = rsvp_verdict.broken.clone();
    broken.extend(broken_goals);

    let mut changes: Vec<Change> =
        rsvp.acks.iter().map(|a| Change { topic: a.event, version: a.version, acked_at: a.acked_at }).collect();
    changes.extend(goals.acks.iter().map(|g| Change { topic: game_topic, version: g.version, acked_at: g.acked_at }));
    let mut timelines = Vec::new();
    let mut not_converged = Vec::new();
    let mut converge = Recorder::new();
    let mut resync = Recorder::new();
    let (mut connection_drops, mut stale_snapshots, mut stale_updates) = (0u64, 0u64, 0u64);
    let mut sub_errors = ErrorTally::default();
    for (i, (topic, _, held)) in subs.iter().enumerate() {
        let h = held.lock().unwrap_or_else(PoisonError::into_inner);
        timelines.push((*topic, h.timeline.clone()));
        let last_ack = changes.iter().filter(|c| c.topic == *topic).map(|c| c.acked_at).max();
        let reached = h.timeline.iter().find(|(_, seq)| *seq >= truth[*topic].0).map(|(t, _)| *t);
        match converged_at[i] {
            Some(_) => {
                if let (Some(reached), Some(last_ack)) = (reached, last_ack) {
                    converge.record(reached.saturating_duration_since(last_ack));
                }
            }
            None => not_converged.push(format!(
                "subscriber {i} of {} holds seq {:?}{}, the final is {}",
                topics[*topic].0,
                h.seq,
                if h.seq == Some(truth[*topic].0) { " with a different document" } else { "" },
                truth[*topic].0
            )),
        }
        for d in &h.resync {
            resync.record(*d);
        }
        connection_drops += u64::from(h.drops);
        stale_snapshots += u64::from(h.stale_snapshots);
        stale_updates += u64::from(h.stale_updates);
        for (k, n) in h.errors.iter() {
            sub_errors.add_n(k, n);
        }
    }
    let lags = delivery_lags(&changes, &timelines, &windows);

    let mut final_versions = BTreeMap::new();
    for (i, (version, _)) in truth.iter().enumerate() {
        final_versions.insert(topics[i].0.clone(), *version);
    }
    let report = Report {
        nodes: args.nodes,
        seconds: args.seconds,
        log_dir: log_dir.display().to_string(),
        schema: database.schema_name().unwrap_or_default().to_owned(),
        redis: if own_redis { format!("{redis_url} (private)") } else { redis_url.to_owned() },
        kills,
        redis_drops: drops,
        disruptions,
        rsvps: Requests::new(
            rsvp.attempts,
            rsvp.acks.len(),
            rsvp.retried,
            rsvp.unresolved.len(),
            rsvp.refused,
            &rsvp.timings,
            &windows,
            started,
            rsvp.errors,
        ),
        rsvp_statuses: rsvp.statuses,
        goals: Requests::new(
            goals.attempts,
            goals.acks.len(),
            goals.retried,
            goals.unresolved,
            goals.refused,
            &goals.timings,
            &windows,
            started,
            goals.errors,
        ),
        lost_acks,
        broken,
        nodes_disagree,
        subscribers: Subscribers {
            total: subs.len(),
            converged: converged_at.iter().filter(|c| c.is_some()).count(),
            not_converged,
            final_state_after_last_ack: converge.summary(),
            connection_drops,
            resync_after_drop: resync.summary(),
            lag_calm: lags.calm.summary(),
            lag_disrupted: lags.disrupted.summary(),
            lag_missed: lags.missed,
            stale_snapshots,
            stale_updates,
            errors: sub_errors,
        },
        node_panics: cluster.panics(),
        final_versions,
    };
    drop(cluster);
    let passed = report.passed();
    Ok(Outcome { scenario: "chaos", passed, human: report.human(), report: serde_json::to_value(&report)? })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plan_kills_round_robin_restarts_after_the_downtime_and_ends_quiet() {
        let plan = chaos_plan(60.0, 3, 15.0, 3.0, 10.0);
        let kills: Vec<_> = plan.iter().filter(|(_, a)| matches!(a, Action::Kill(_))).collect();
        assert_eq!(
            kills.iter().map(|(t, a)| (t.as_secs(), *a)).collect::<Vec<_>>(),
            vec![(15, Action::Kill(0)), (30, Action::Kill(1)), (45, Action::Kill(2)),]
        );
        assert!(plan.contains(&(Duration::from_secs(18), Action::Restart(0))));
        let drops: Vec<u64> = plan.iter().filter(|(_, a)| *a == Action::DropRedis).map(|(t, _)| t.as_secs()).collect();
        assert_eq!(drops, vec![5, 15, 25, 35, 45, 55]);
        assert!(plan.windows(2).all(|w| w[0].0 <= w[1].0), "in time order");
        // Every kill has its restart before the end.
        for (t, a) in &plan {
            if let Action::Kill(i) = a {
                assert!(plan.iter().any(|(r, b)| *b == Action::Restart(*i) && r > t && r.as_secs_f64() <= 57.0));
            }
        }
    }

    #[test]
    fn no_kills_or_drops_when_switched_off() {
        assert!(chaos_plan(60.0, 3, 0.0, 3.0, 0.0).is_empty());
        assert!(chaos_plan(5.0, 3, 15.0, 3.0, 0.0).is_empty(), "too short for a kill and its restart");
    }

    #[test]
    fn only_the_try_again_conflict_is_retried() {
        let busy = r#"{"error":{"code":"conflict","message":"event e1 is changing too fast; try again"}}"#;
        assert!(says_try_again(busy));
        assert!(!says_try_again(r#"{"error":{"code":"conflict","message":"the game is over"}}"#));
        assert!(!says_try_again("not json"));
    }

    #[test]
    fn backoff_doubles_to_its_cap() {
        let f = Duration::from_millis(100);
        let cap = Duration::from_secs(2);
        let seq: Vec<u128> = (0..7).map(|a| backoff(a, f, cap).as_millis()).collect();
        assert_eq!(seq, vec![100, 200, 400, 800, 1600, 2000, 2000]);
        assert_eq!(backoff(u32::MAX, f, cap), cap);
    }

    #[test]
    fn dice_are_deterministic_and_in_range() {
        let (mut a, mut b) = (Dice::new(7), Dice::new(7));
        let xs: Vec<usize> = (0..100).map(|_| a.below(4)).collect();
        let ys: Vec<usize> = (0..100).map(|_| b.below(4)).collect();
        assert_eq!(xs, ys);
        assert!(xs.iter().all(|x| *x < 4));
        assert!((0..4).all(|v| xs.contains(&v)), "every value comes up");
        let d = Duration::from_millis(100);
        for _ in 0..100 {
            let j = a.jitter(d);
            assert!(j >= d / 2 && j < d * 3 / 2, "{j:?}");
        }
    }

    #[test]
    fn a_subscriber_keeps_the_newest_state_and_counts_stale_frames() {
        let mut h = Held::default();
        let frame = |v: u64| {
            Utf8Bytes::from(json!({"type": "update", "seq": v, "data": {"version": v, "homeScore": v}}).to_string())
        };
        h.take(3, frame(3), true);
        h.take(5, frame(5), false);
        h.take(4, frame(4), false);
        h.take(2, frame(2), true);
        h.take(5, frame(5), true);
        assert_eq!(h.seq, Some(5));
        assert_eq!(h.doc(TopicKind::Game).map(|d| d["homeScore"].clone()), Some(json!(5)));
        assert_eq!(h.timeline.iter().map(|(_, s)| *s).collect::<Vec<_>>(), vec![3, 5]);
        assert_eq!((h.stale_updates, h.stale_snapshots), (1, 1));
    }

    #[test]
    fn frame_heads_are_read_without_their_data() {
        let head: Head =
            serde_json::from_str(r#"{"type":"update","topic":"game:1","seq":9,"data":{"big":[1,2]}}"#).unwrap();
        assert_eq!((head.kind.as_str(), head.seq), ("update", Some(9)));
        let head: Head =
            serde_json::from_str(r#"{"type":"error","error":{"code":"not_found","message":"x"}}"#).unwrap();
        assert_eq!(head.error.map(|e| e.code).as_deref(), Some("not_found"));
    }
}
