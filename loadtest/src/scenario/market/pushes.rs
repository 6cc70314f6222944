//! The sub market's pushes ([`push_rounds`]): `--subs` goalie subs with
//! `matches` open on a socket ([`Sockets`]), and an event whose goalie
//! declines (a spot opens: every sub is pushed an `upsert`) and comes back
//! (filled: a `drop`), a few rounds, each push timed to every sub and
//! checked against sub 0's `GET /me/matches`.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use chrono::{SecondsFormat, Utc};
use futures_util::{SinkExt, StreamExt};
use serde::Serialize;
use serde_json::{Value, json};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc, watch};
use tokio::task::JoinSet;
use tokio_tungstenite::tungstenite::Message;
use tracing::info;

use super::quiet::{Quiet, wait_quiet_if};
use super::seed::{id_of, run_all};
use crate::api::{Api, Session};
use crate::cli::MarketArgs;
use crate::fleet::ErrorTally;
use crate::net::{Endpoint, Ws, connect_ws};
use crate::stats::{Recorder, Summary};
use crate::ws::{auth_frame, subscribe_frame};

/// How long closing the subs' sockets may take before the rest are aborted.
const CLOSE_GRACE: Duration = Duration::from_secs(15);

/// One push of a round, to every sub.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Phase {
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

/// The pushes' part of the report.
#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Pushes {
    pub subs: usize,
    pub subscribed: usize,
    pub failed: ErrorTally,
    pub subscribe: Summary,
    pub snapshot_items_mean: f64,
    pub event_id: String,
    pub event_start: String,
    pub phases: Vec<Phase>,
    pub upsert: Summary,
    pub drop: Summary,
    /// Pushes owed (subs × phases) that never came within --push-timeout.
    pub missed: usize,
    /// `GET /me/matches` of sub 0 disagreeing with what was pushed.
    pub rest_disagreements: Vec<String>,
    /// `error` frames and connections lost after subscribing.
    pub socket_errors: ErrorTally,
}

impl Phase {
    pub fn human(&self) -> String {
        let what = if self.op == "upsert" { "decline → upsert" } else { "attend  → drop  " };
        format!(
            "    round {} {}  {:>4} of {:<4} {}   (rsvp {:.1} ms)\n",
            self.round, what, self.reached, self.of, self.delivery, self.rsvp_rtt_ms
        )
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Upsert,
    Drop,
}

impl Op {
    fn label(self) -> &'static str {
        match self {
            Op::Upsert => "upsert",
            Op::Drop => "drop",
        }
    }
}

enum SubEvent {
    Ready { subscribe: Duration, items: usize },
    Failed(String),
    Got { idx: usize, op: Op, event_id: String, at: Instant },
    Lost(String),
}

/// Signs the subs in, opens their sockets, and runs the rounds; the node's
/// quiet time after the subs' posts (with its pid).
pub async fn push_rounds(
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
    pushes.event_start = start.to_rfc3339_opts(SecondsFormat::Secs, true);
    // The default expiry is the end of today (UTC for these subs); past
    // that, or too close to it, ask for one explicitly.
    let midnight = (now.date_naive() + chrono::Days::new(1)).and_hms_opt(0, 0, 0).map(|t| t.and_utc());
    let expires = match midnight {
        Some(m) if m > start + chrono::Duration::hours(1) => None,
        _ => Some((start + chrono::Duration::hours(2)).to_rfc3339_opts(SecondsFormat::Secs, true)),
    };
    let subs = sign_in_subs(args, tag, api, expires.as_deref(), pushes).await;
    let organiser = api.dev_token(&format!("mk{tag}org")).await?;
    let goalie = api.dev_token(&format!("mk{tag}goalie")).await?;
    let quiet = wait_quiet_if(pid, Duration::from_secs(args.quiet_timeout)).await?;

    let mut sockets = Sockets::open(args, endpoint, &subs, pushes).await?;
    let body = json!({"title": format!("Market: goalie wanted {tag}"), "startDate": pushes.event_start,
                      "eventType": "OTHER", "maxSkaters": 20, "maxGoalies": 1});
    let event_id = id_of(&api.post_value("/api/v1/events", &organiser.token, body).await?)?;
    pushes.event_id = event_id.clone();
    let rounds = Rounds {
        api,
        goalie: &goalie,
        event_id: &event_id,
        probe: subs.first().map(|s| s.token.as_str()),
        timeout: Duration::from_secs(args.push_timeout.max(1)),
    };
    rounds.run(args.rounds, &mut sockets, pushes).await?;
    sockets.close(pushes).await;
    Ok(quiet)
}

/// Subs: signed in, each with an AVAILABLE_TO_SUB as GOALIE.
async fn sign_in_subs(
    args: &MarketArgs,
    tag: &str,
    api: &Api,
    expires: Option<&str>,
    pushes: &mut Pushes,
) -> Vec<Session> {
    info!(subs = args.subs, "signing subs in and posting AVAILABLE_TO_SUB (GOALIE)");
    let mut errors = ErrorTally::default();
    let subs = run_all(args.subs, args.setup_concurrency, &mut errors, "subs", |i| {
        let api = api.clone();
        let name = format!("mk{tag}s{i}");
        let mut body = json!({"type": "AVAILABLE_TO_SUB", "entityType": "USER", "positions": ["GOALIE"]});
        if let Some(e) = expires {
            body["expiresAt"] = json!(e);
        }
        async move {
            let (s, _) = api.dev_token_retrying(&name).await?;
            api.post_value("/api/v1/statuses", &s.token, body).await?;
            Ok(s)
        }
    })
    .await;
    for (e, n) in errors.iter() {
        pushes.failed.add_n(e, n);
    }
    subs.into_iter().flatten().collect()
}

/// The rounds of one event's goalie spot.
struct Rounds<'a> {
    api: &'a Api,
    goalie: &'a Session,
    event_id: &'a str,
    /// Sub 0's token, whose `GET /me/matches` is checked after each push.
    probe: Option<&'a str>,
    timeout: Duration,
}

impl Rounds<'_> {
    /// Round 0 is the first fill (the event is not short); each round after
    /// empties the spot (the goalie declines) and fills it again.
    async fn run(&self, rounds: usize, sockets: &mut Sockets, pushes: &mut Pushes) -> Result<()> {
        let (mut upserts, mut drops) = (Recorder::new(), Recorder::new());
        for round in 0..=rounds {
            for (op, action) in [(Op::Upsert, "DECLINED"), (Op::Drop, "ATTENDING")] {
                if round == 0 && op == Op::Upsert {
                    continue;
                }
                let overall = if op == Op::Upsert { &mut upserts } else { &mut drops };
                self.phase(round, (op, action), sockets, overall, pushes).await?;
            }
        }
        pushes.upsert = upserts.summary();
        pushes.drop = drops.summary();
        Ok(())
    }

    /// One RSVP of the goalie, its push followed to every sub.
    async fn phase(
        &self,
        round: usize,
        (op, action): (Op, &str),
        sockets: &mut Sockets,
        overall: &mut Recorder,
        pushes: &mut Pushes,
    ) -> Result<()> {
        let mut recorder = Recorder::new();
        let since = Instant::now();
        self.api.rsvp(&self.goalie.token, self.event_id, action, Some("GOALIE")).await?;
        let rtt = since.elapsed();
        let reached =
            sockets.await_phase(pushes, (op, self.event_id), since, self.timeout, [&mut recorder, overall]).await;
        info!(round, op = op.label(), reached, of = pushes.subscribed, "pushed");
        pushes.missed += pushes.subscribed - reached;
        if let Some(token) = self.probe {
            let wanted = op == Op::Upsert;
            match rest_lists(self.api, token, self.event_id).await {
                Ok(listed) if listed != wanted => pushes.rest_disagreements.push(format!(
                    "round {round} after {action}: GET /me/matches of sub 0 {} event {}",
                    if listed { "lists" } else { "does not list" },
                    self.event_id
                )),
                Ok(_) => {}
                Err(e) => pushes.rest_disagreements.push(format!("round {round}: {e:#}")),
            }
        }
        pushes.phases.push(Phase {
            round,
            op: op.label(),
            rsvp_rtt_ms: rtt.as_secs_f64() * 1000.0,
            reached,
            of: pushes.subscribed,
            delivery: recorder.summary(),
        });
        Ok(())
    }
}

/// Whether sub 0's `GET /me/matches` lists the event.
async fn rest_lists(api: &Api, token: &str, event_id: &str) -> Result<bool> {
    let page = api.get_value("/api/v1/me/matches", token).await?;
    Ok(page["items"].as_array().into_iter().flatten().any(|m| m["event"]["id"] == event_id))
}

/// The subs' sockets on `matches`.
struct Sockets {
    events: mpsc::UnboundedReceiver<SubEvent>,
    stop: watch::Sender<bool>,
    tasks: JoinSet<()>,
}

impl Sockets {
    /// Opens a socket per sub (`--concurrency` handshakes at a time) and
    /// waits until each is subscribed or failed.
    async fn open(args: &MarketArgs, endpoint: &Arc<Endpoint>, subs: &[Session], pushes: &mut Pushes) -> Result<Self> {
        info!(subs = subs.len(), "opening the subs' matches sockets");
        let (tx, events) = mpsc::unbounded_channel();
        let (stop, stop_rx) = watch::channel(false);
        let semaphore = Arc::new(Semaphore::new(args.net.concurrency.max(1)));
        let mut sockets = Self { events, stop, tasks: JoinSet::new() };
        for (idx, s) in subs.iter().enumerate() {
            let permit = semaphore.clone().acquire_owned().await?;
            let sub = Sub { idx, endpoint: endpoint.clone(), token: s.token.clone(), timeout: args.net.timeout() };
            sockets.tasks.spawn(sub_socket(sub, permit, tx.clone(), stop_rx.clone()));
        }
        drop(tx);
        let mut subscribe = Recorder::new();
        let mut items = 0usize;
        let mut settled = 0usize;
        while settled < subs.len() {
            match sockets.events.recv().await {
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
        Ok(sockets)
    }

    /// Waits until every ready sub has `op` for `event_id` read after `since`;
    /// records the latencies. Returns how many got it.
    async fn await_phase(
        &mut self,
        pushes: &mut Pushes,
        (op, event_id): (Op, &str),
        since: Instant,
        timeout: Duration,
        mut recorders: [&mut Recorder; 2],
    ) -> usize {
        let mut got: HashSet<usize> = HashSet::new();
        let deadline = tokio::time::Instant::from_std(since) + timeout;
        while got.len() < pushes.subscribed {
            match tokio::time::timeout_at(deadline, self.events.recv()).await {
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

    /// Books what is left, then closes every socket (aborting those that
    /// take longer than [`CLOSE_GRACE`]).
    async fn close(mut self, pushes: &mut Pushes) {
        while let Ok(ev) = self.events.try_recv() {
            if let SubEvent::Lost(e) = ev {
                pushes.socket_errors.add(&e);
            }
        }
        let _ = self.stop.send(true);
        let grace = tokio::time::sleep(CLOSE_GRACE);
        tokio::pin!(grace);
        loop {
            tokio::select! {
                joined = self.tasks.join_next() => if joined.is_none() { break },
                _ = &mut grace => { self.tasks.abort_all(); break; }
            }
        }
    }
}

/// One sub's socket, before it opens.
struct Sub {
    idx: usize,
    endpoint: Arc<Endpoint>,
    token: String,
    /// Limit on connect + snapshot.
    timeout: Duration,
}

/// One sub's socket: auth, subscribe `matches`, then every upsert or drop
/// naming an event, stamped when read.
async fn sub_socket(
    sub: Sub,
    permit: OwnedSemaphorePermit,
    tx: mpsc::UnboundedSender<SubEvent>,
    stop: watch::Receiver<bool>,
) {
    let (ws, subscribe, items) = match tokio::time::timeout(sub.timeout, subscribe(&sub)).await {
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
    read_pushes(ws, sub.idx, tx, stop).await;
}

/// Connects, authenticates and subscribes to `matches`: the socket, the
/// time to the snapshot, and the matches in it.
async fn subscribe(sub: &Sub) -> Result<(Ws, Duration, usize)> {
    let mut ws = connect_ws(&sub.endpoint, None).await?;
    let sent = Instant::now();
    ws.send(auth_frame(&sub.token)).await?;
    ws.send(subscribe_frame("matches")).await?;
    while let Some(msg) = ws.next().await {
        let Message::Text(text) = msg? else { continue };
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
}

/// Reports every upsert or drop naming an event until `stop` (or the
/// connection is lost).
async fn read_pushes(mut ws: Ws, idx: usize, tx: mpsc::UnboundedSender<SubEvent>, mut stop: watch::Receiver<bool>) {
    loop {
        tokio::select! {
            _ = stop.changed() => {
                let _ = tokio::time::timeout(Duration::from_secs(2), ws.close(None)).await;
                return;
            }
            msg = ws.next() => {
                let at = Instant::now();
                let text = match msg {
                    Some(Ok(Message::Text(t))) => t,
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
                        if let Some((op, event_id)) = push_of(&frame["data"]) {
                            let _ = tx.send(SubEvent::Got { idx, op, event_id, at });
                        }
                    }
                    Some("error") => { let _ = tx.send(SubEvent::Lost(format!("error frame: {text}"))); }
                    _ => {}
                }
            }
        }
    }
}

/// The op and event of a `matches` update's data, when it names one.
fn push_of(data: &Value) -> Option<(Op, String)> {
    let (op, event) = match data["op"].as_str() {
        Some("upsert") => (Op::Upsert, data["match"]["event"]["id"].as_str()),
        Some("drop") => (Op::Drop, data["eventId"].as_str()),
        _ => return None,
    };
    Some((op, event?.to_string()))
}
