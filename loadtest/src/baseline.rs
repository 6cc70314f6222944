//! `--baseline`: a scenario measured against Rinkside and against the floor
//! ([`crate::floor`]) in the same invocation, so the comparison does not
//! drift with the machine's load the way absolute numbers do.
//!
//! The floor runs as a child process of this same binary
//! ([`FloorProcess`]), so its resident memory is its own and it competes for
//! the CPUs like Rinkside does. The rounds alternate — Rinkside, floor,
//! Rinkside, floor, … — each with fresh subscriber sockets. During a
//! Rinkside round one extra socket ([`Probe`]) keeps the frames it receives;
//! the floor round after it sends the same documents ([`Mirror`]) with
//! update frames of exactly the same length and seeds the same snapshot, so
//! both servers put the same bytes on the same number of sockets (the floor
//! round has its probe too, to show the sizes matched). Then [`compare`]
//! pools each server's rounds and gives the ratios Rinkside / floor.

use std::net::IpAddr;
use std::process::Stdio;
use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail};
use futures_util::{SinkExt, StreamExt};
use reqwest::Url;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::Message;
use tracing::{info, warn};

use crate::deliveries::{DeliveryAnalysis, DeliveryPool};
use crate::floor::parse_announcement;
use crate::net::{Endpoint, Ws, connect_ws};
use crate::scenario::Memory;
use crate::stats::{Recorder, Summary};
use crate::ws::{ServerFrame, auth_frame, subscribe_frame};

/// How long the floor may take to print its address.
const FLOOR_START_TIMEOUT: Duration = Duration::from_secs(10);

/// Per publish or document request to the floor.
const FLOOR_REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// After a round, how long the probe may still wait for the last frames.
const PROBE_DRAIN: Duration = Duration::from_secs(2);

/// Which server a round ran against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Server {
    Rinkside,
    Floor,
}

impl std::fmt::Display for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // `pad`, so the comparison's table can align it.
        f.pad(match self {
            Server::Rinkside => "rinkside",
            Server::Floor => "floor",
        })
    }
}

/// `rinkside-loadtest floor` as a child process on an ephemeral loopback
/// port. Killed when stopped or dropped.
pub struct FloorProcess {
    child: tokio::process::Child,
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    pub pid: u32,
}

impl FloorProcess {
    /// Starts this program's `floor` subcommand and reads its address from
    /// the first line it prints. It inherits the raised descriptor limit
    /// and raises its own to the hard limit.
    pub async fn start() -> Result<Self> {
        let exe = std::env::current_exe().context("finding this program to start the floor")?;
        let mut child = tokio::process::Command::new(&exe)
            .args(["floor", "--bind", "127.0.0.1:0"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .with_context(|| format!("starting {} floor", exe.display()))?;
        let pid = child.id().ok_or_else(|| anyhow!("the floor exited at once"))?;
        let stdout = child.stdout.take().ok_or_else(|| anyhow!("no stdout from the floor"))?;
        let mut lines = BufReader::new(stdout).lines();
        let line = match tokio::time::timeout(FLOOR_START_TIMEOUT, lines.next_line()).await {
            Ok(Ok(Some(line))) => line,
            Ok(Ok(None)) => bail!("the floor exited before printing its address"),
            Ok(Err(e)) => return Err(e).context("reading the floor's output"),
            Err(_) => bail!("the floor printed no address within {FLOOR_START_TIMEOUT:?}"),
        };
        let addr =
            parse_announcement(&line).ok_or_else(|| anyhow!("unexpected first line from the floor: {line:?}"))?;
        // Keep its stdout drained so it can never block on a full pipe.
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        info!(%addr, pid, "floor started");
        Ok(Self { child, url: format!("http://{addr}"), pid })
    }

    pub async fn stop(mut self) {
        if let Err(e) = self.child.kill().await {
            warn!("stopping the floor: {e}");
        }
    }
}

/// The floor's answer to a publish.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PublishAnswer {
    pub seq: u64,
}

/// The floor's HTTP endpoints, as the scenarios' publisher.
#[derive(Debug, Clone)]
pub struct FloorClient {
    http: reqwest::Client,
    base: Url,
}

impl FloorClient {
    pub fn new(base: &str) -> Result<Self> {
        let http = reqwest::Client::builder().timeout(FLOOR_REQUEST_TIMEOUT).build().context("http client")?;
        Ok(Self { http, base: Url::parse(base).with_context(|| format!("bad floor URL {base:?}"))? })
    }

    fn url(&self, path: &str, topic: &str, bytes: Option<usize>) -> Url {
        let mut url = self.base.join(path).unwrap_or_else(|_| self.base.clone());
        {
            let mut q = url.query_pairs_mut();
            q.append_pair("topic", topic);
            if let Some(b) = bytes {
                q.append_pair("bytes", &b.to_string());
            }
        }
        url
    }

    async fn post(&self, url: Url, body: String) -> Result<String> {
        let resp = self.http.post(url.clone()).body(body).send().await.with_context(|| format!("POST {url}"))?;
        let status = resp.status();
        let text = resp.text().await.with_context(|| format!("POST {url}: reading the answer"))?;
        if !status.is_success() {
            bail!("POST {url} answered {status}: {text}");
        }
        Ok(text)
    }

    /// One update to every subscriber of `topic`, carrying `frame`'s data in a
    /// frame of `frame`'s length.
    pub async fn publish(&self, topic: &str, frame: &MirrorFrame) -> Result<PublishAnswer> {
        let text = self.post(self.url("/publish", topic, Some(frame.bytes)), frame.data.clone()).await?;
        serde_json::from_str(&text).with_context(|| format!("unexpected publish answer {text}"))
    }

    /// What the next snapshots of `topic` carry.
    pub async fn set_document(&self, topic: &str, data: &str) -> Result<()> {
        self.post(self.url("/document", topic, None), data.to_owned()).await.map(drop)
    }
}

/// The frames one socket received in a round, as text.
#[derive(Debug, Clone, Default)]
pub struct Captured {
    pub snapshot: String,
    pub updates: Vec<String>,
}

/// One more subscriber that keeps the frames it receives (the fleet's keep
/// only type and seq). Not counted in the deliveries.
pub struct Probe {
    stop: oneshot::Sender<usize>,
    task: JoinHandle<Vec<String>>,
    snapshot: String,
}

impl Probe {
    /// Connects, subscribes (after `auth` when given a token, as the fleet
    /// does) and returns once the snapshot is in.
    pub async fn open(
        endpoint: &Endpoint,
        source: Option<IpAddr>,
        token: Option<&str>,
        topic: &str,
        timeout: Duration,
    ) -> Result<Self> {
        let opening = async {
            let mut ws = connect_ws(endpoint, source).await?;
            if let Some(token) = token {
                ws.send(auth_frame(token)).await.context("send auth")?;
            }
            ws.send(subscribe_frame(topic)).await.context("send subscribe")?;
            loop {
                match ws.next().await {
                    Some(Ok(Message::Text(text))) => match serde_json::from_str::<ServerFrame>(text.as_str()) {
                        Ok(ServerFrame::Snapshot { .. }) => {
                            return Ok::<_, anyhow::Error>((ws, text.as_str().to_owned()));
                        }
                        Ok(ServerFrame::Error { error }) => bail!("probe: server error before snapshot: {error}"),
                        _ => {}
                    },
                    Some(Ok(_)) => {}
                    Some(Err(e)) => return Err(e).context("probe: read"),
                    None => bail!("probe: connection ended before the snapshot"),
                }
            }
        };
        let (ws, snapshot) = tokio::time::timeout(timeout, opening).await.context("probe: timed out subscribing")??;
        let (stop, stopped) = oneshot::channel();
        let task = tokio::spawn(keep_updates(ws, stopped));
        Ok(Self { stop, task, snapshot })
    }

    /// Stops once `expected` updates are in (or a short wait has passed) and
    /// hands back what was received.
    pub async fn finish(self, expected: usize) -> Captured {
        let _ = self.stop.send(expected);
        let updates = self.task.await.unwrap_or_else(|e| {
            warn!("probe task failed: {e}");
            Vec::new()
        });
        Captured { snapshot: self.snapshot, updates }
    }
}

async fn keep_updates(mut ws: Ws, mut stop: oneshot::Receiver<usize>) -> Vec<String> {
    let mut updates = Vec::new();
    let mut wanted: Option<usize> = None;
    let drain = tokio::time::sleep(Duration::from_secs(365 * 86_400));
    tokio::pin!(drain);
    loop {
        if wanted.is_some_and(|n| updates.len() >= n) {
            break;
        }
        tokio::select! {
            n = &mut stop, if wanted.is_none() => {
                wanted = Some(n.unwrap_or(0));
                drain.as_mut().reset(tokio::time::Instant::now() + PROBE_DRAIN);
            }
            () = &mut drain => break,
            message = ws.next() => match message {
                Some(Ok(Message::Text(text))) => {
                    if matches!(serde_json::from_str(text.as_str()), Ok(ServerFrame::Update { .. })) {
                        updates.push(text.as_str().to_owned());
                    }
                }
                Some(Ok(_)) => {}
                Some(Err(_)) | None => break,
            },
        }
    }
    let _ = tokio::time::timeout(Duration::from_secs(2), ws.close(None)).await;
    updates
}

/// An update for the floor to send: Rinkside's `data`, in a frame as long as
/// Rinkside's was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MirrorFrame {
    pub data: String,
    pub bytes: usize,
}

/// What the floor sends in a round: the documents Rinkside sent in the round
/// before, in the same order.
#[derive(Debug, Clone)]
pub struct Mirror {
    /// The snapshot's `data`, seeded as the topic's document.
    pub snapshot_data: Option<String>,
    /// Never empty.
    updates: Vec<MirrorFrame>,
}

/// The `data` of a frame, as compact JSON text.
pub fn data_of(frame: &str) -> Result<String> {
    let v: Value = serde_json::from_str(frame).context("a captured frame is not JSON")?;
    v.get("data").map(Value::to_string).ok_or_else(|| anyhow!("a captured frame has no data"))
}

impl Mirror {
    pub fn from_captured(captured: &Captured) -> Result<Self> {
        if captured.updates.is_empty() {
            bail!("the probe received no update from Rinkside, so the floor's frames cannot be sized like them");
        }
        let updates = captured
            .updates
            .iter()
            .map(|f| Ok(MirrorFrame { data: data_of(f)?, bytes: f.len() }))
            .collect::<Result<Vec<_>>>()?;
        Ok(Self { snapshot_data: data_of(&captured.snapshot).ok(), updates })
    }

    /// The `i`th update (cycling, should the floor's round need more than
    /// Rinkside's probe saw — a coalesced frame, say).
    pub fn update(&self, i: usize) -> &MirrorFrame {
        &self.updates[i % self.updates.len()]
    }
}

/// Sizes of update frames.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FrameStats {
    pub count: usize,
    pub mean_bytes: f64,
    pub min_bytes: usize,
    pub max_bytes: usize,
}

impl FrameStats {
    pub fn of(lengths: impl IntoIterator<Item = usize>) -> Self {
        let mut s = Self { min_bytes: usize::MAX, ..Self::default() };
        let mut total = 0usize;
        for n in lengths {
            s.count += 1;
            total += n;
            s.min_bytes = s.min_bytes.min(n);
            s.max_bytes = s.max_bytes.max(n);
        }
        if s.count == 0 {
            return Self::default();
        }
        s.mean_bytes = total as f64 / s.count as f64;
        s
    }
}

/// One round as the scenario ran it.
/// One round of a scenario that takes `--baseline`: its own report, and
/// what the comparison needs of it.
pub struct RoundOut<R> {
    pub report: R,
    pub passed: bool,
    pub human: String,
    pub pool: DeliveryPool,
    pub requests: Recorder,
    pub captured: Option<Captured>,
    pub memory: Option<Memory>,
    /// The server's CPU seconds over the round's changes (`--server-pid`).
    pub cpu_seconds: Option<f64>,
}

impl<R> RoundOut<R> {
    /// The round as the baseline comparison sees it (it takes the frames
    /// the probe kept).
    pub fn take_round(&mut self, server: Server, round: usize, url: &str) -> Round {
        Round {
            server,
            round,
            url: url.to_owned(),
            passed: self.passed,
            pool: self.pool.clone(),
            requests: self.requests.clone(),
            captured: self.captured.take().unwrap_or_default(),
            memory: self.memory.clone(),
            cpu_seconds: self.cpu_seconds,
        }
    }
}

pub struct Round {
    pub server: Server,
    /// 1-based, per server.
    pub round: usize,
    pub url: String,
    /// The round's own checks passed.
    pub passed: bool,
    pub pool: DeliveryPool,
    /// Round trips of the requests that made the changes (Rinkside's RSVPs
    /// or goals, the floor's publishes): part of every time to last.
    pub requests: Recorder,
    pub captured: Captured,
    /// Measured in each server's first round only (see [`Side`]).
    pub memory: Option<Memory>,
    pub cpu_seconds: Option<f64>,
}

/// Server CPU microseconds per delivery: the round's CPU time over the
/// (subscriber, change) pairs delivered, the request that made each change
/// included.
fn cpu_us_per_delivery(cpu_seconds: f64, delivered: u64) -> Option<f64> {
    ratio(cpu_seconds * 1e6, delivered as f64)
}

/// A round in the report.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RoundSummary {
    pub server: Server,
    pub round: usize,
    pub url: String,
    pub passed: bool,
    pub deliveries: DeliveryAnalysis,
    /// Round trip of the requests that made the changes.
    pub request_round_trip: Summary,
    /// The update frames the probe received.
    pub update_frames: FrameStats,
    pub snapshot_bytes: usize,
    pub memory: Option<Memory>,
    pub cpu_us_per_delivery: Option<f64>,
}

/// One server over all its rounds.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Side {
    pub rounds: usize,
    /// Latencies pooled over the rounds; deliveries per second over their
    /// summed fan-out time.
    pub deliveries: DeliveryAnalysis,
    pub request_round_trip: Summary,
    pub update_frames: FrameStats,
    /// From the rounds that measured it (with `--server-pid`, the first
    /// round of each server: in a later round the process reuses memory the
    /// allocator kept from the one before, and the RSS difference
    /// understates).
    pub bytes_per_connection: Option<f64>,
    /// Over the rounds that measured it: their CPU time over their deliveries.
    pub cpu_us_per_delivery: Option<f64>,
}

/// Rinkside / floor. For times lower is better (1.0: as fast as the floor);
/// for deliveries per second higher is better. `None` when the floor's side
/// has nothing to divide by.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Ratios {
    pub time_to_last_p50: Option<f64>,
    pub time_to_last_p99: Option<f64>,
    pub per_delivery_p50: Option<f64>,
    pub per_delivery_p99: Option<f64>,
    pub deliveries_per_sec: Option<f64>,
    pub bytes_per_connection: Option<f64>,
    /// Lower is better.
    pub cpu_per_delivery: Option<f64>,
}

/// The `baseline` object of a report.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Comparison {
    pub floor_url: String,
    pub floor_pid: u32,
    /// In the order they ran.
    pub rounds: Vec<RoundSummary>,
    pub rinkside: Side,
    pub floor: Side,
    pub ratios: Ratios,
}

/// `a / b`, when both are finite and `b` is positive.
pub fn ratio(a: f64, b: f64) -> Option<f64> {
    (a.is_finite() && b.is_finite() && b > 0.0).then(|| a / b)
}

fn side(rounds: &[Round], server: Server) -> Side {
    let mine: Vec<&Round> = rounds.iter().filter(|r| r.server == server).collect();
    let mut pool = DeliveryPool::default();
    let mut requests = Recorder::new();
    for r in &mine {
        pool.merge(&r.pool);
        requests.merge(&r.requests);
    }
    let memory: Vec<f64> = mine.iter().filter_map(|r| r.memory.as_ref().map(|m| m.bytes_per_connection)).collect();
    let timed: Vec<(f64, u64)> =
        mine.iter().filter_map(|r| r.cpu_seconds.map(|cpu| (cpu, r.pool.analysis().delivered))).collect();
    Side {
        rounds: mine.len(),
        deliveries: pool.analysis(),
        request_round_trip: requests.summary(),
        update_frames: FrameStats::of(mine.iter().flat_map(|r| r.captured.updates.iter().map(String::len))),
        bytes_per_connection: (!memory.is_empty()).then(|| memory.iter().sum::<f64>() / memory.len() as f64),
        cpu_us_per_delivery: (!timed.is_empty())
            .then(|| cpu_us_per_delivery(timed.iter().map(|t| t.0).sum(), timed.iter().map(|t| t.1).sum()))
            .flatten(),
    }
}

pub fn ratios(rinkside: &Side, floor: &Side) -> Ratios {
    let (r, f) = (&rinkside.deliveries, &floor.deliveries);
    Ratios {
        time_to_last_p50: ratio(r.time_to_last.p50_ms, f.time_to_last.p50_ms),
        time_to_last_p99: ratio(r.time_to_last.p99_ms, f.time_to_last.p99_ms),
        per_delivery_p50: ratio(r.per_delivery.p50_ms, f.per_delivery.p50_ms),
        per_delivery_p99: ratio(r.per_delivery.p99_ms, f.per_delivery.p99_ms),
        deliveries_per_sec: ratio(r.deliveries_per_sec, f.deliveries_per_sec),
        bytes_per_connection: both(rinkside.bytes_per_connection, floor.bytes_per_connection),
        cpu_per_delivery: both(rinkside.cpu_us_per_delivery, floor.cpu_us_per_delivery),
    }
}

fn both(rinkside: Option<f64>, floor: Option<f64>) -> Option<f64> {
    ratio(rinkside?, floor?)
}

/// Pools each server's rounds and divides.
pub fn compare(floor_url: &str, floor_pid: u32, rounds: &[Round]) -> Comparison {
    let rinkside = side(rounds, Server::Rinkside);
    let floor = side(rounds, Server::Floor);
    Comparison {
        floor_url: floor_url.to_owned(),
        floor_pid,
        rounds: rounds
            .iter()
            .map(|r| RoundSummary {
                server: r.server,
                round: r.round,
                url: r.url.clone(),
                passed: r.passed,
                cpu_us_per_delivery: r
                    .cpu_seconds
                    .and_then(|cpu| cpu_us_per_delivery(cpu, r.pool.analysis().delivered)),
                deliveries: r.pool.analysis(),
                request_round_trip: r.requests.summary(),
                update_frames: FrameStats::of(r.captured.updates.iter().map(String::len)),
                snapshot_bytes: r.captured.snapshot.len(),
                memory: r.memory.clone(),
            })
            .collect(),
        ratios: ratios(&rinkside, &floor),
        rinkside,
        floor,
    }
}

fn times(d: &DeliveryAnalysis) -> String {
    if d.time_to_last.count == 0 {
        return format!("{:>21}", "no complete change");
    }
    format!("{:>8.1} / {:>8.1} ms", d.time_to_last.p50_ms, d.time_to_last.p99_ms)
}

fn kib(bytes: Option<f64>) -> String {
    bytes.map_or_else(|| "-".to_owned(), |b| format!("{:.1} KiB", b / 1024.0))
}

fn micros(us: Option<f64>) -> String {
    us.map_or_else(|| "-".to_owned(), |us| format!("{us:.1} µs"))
}

fn times_x(r: Option<f64>) -> String {
    r.map_or_else(|| "n/a".to_owned(), |r| format!("{r:.2}×"))
}

impl Comparison {
    pub fn human(&self) -> String {
        let order: Vec<String> = self.rounds.iter().map(|r| r.server.to_string()).collect();
        let mut s = format!(
            "  baseline      {} rounds each against the floor ({}, pid {}), in this order: {}\n",
            self.rinkside.rounds.max(self.floor.rounds),
            self.floor_url,
            self.floor_pid,
            order.join(", "),
        );
        s.push_str(
            "    round server     time to last p50 / p99   per delivery p50   request p50   deliveries/s   CPU/delivery   update frame   memory/conn\n",
        );
        let line = |label: &str,
                    server: Server,
                    d: &DeliveryAnalysis,
                    request: &Summary,
                    cpu: Option<f64>,
                    frames: &FrameStats,
                    memory: Option<f64>| {
            format!(
                "    {label:<5} {server:<9} {}   {:>13.1} ms   {:>8.1} ms   {:>12.0}   {:>12}   {:>10.0} B   {:>11}\n",
                times(d),
                d.per_delivery.p50_ms,
                request.p50_ms,
                d.deliveries_per_sec,
                micros(cpu),
                frames.mean_bytes,
                kib(memory),
            )
        };
        for r in &self.rounds {
            s.push_str(&line(
                &r.round.to_string(),
                r.server,
                &r.deliveries,
                &r.request_round_trip,
                r.cpu_us_per_delivery,
                &r.update_frames,
                r.memory.as_ref().map(|m| m.bytes_per_connection),
            ));
        }
        for (server, side) in [(Server::Rinkside, &self.rinkside), (Server::Floor, &self.floor)] {
            s.push_str(&line(
                "all",
                server,
                &side.deliveries,
                &side.request_round_trip,
                side.cpu_us_per_delivery,
                &side.update_frames,
                side.bytes_per_connection,
            ));
        }
        let r = &self.ratios;
        s.push_str(&format!(
            "  ratio         Rinkside / floor: time to last p50 {}, p99 {} (lower is better; 1.00× = as fast as the floor); \
             deliveries/s {} (higher is better)",
            times_x(r.time_to_last_p50),
            times_x(r.time_to_last_p99),
            times_x(r.deliveries_per_sec),
        ));
        if r.cpu_per_delivery.is_some() {
            s.push_str(&format!("; server CPU per delivery {}", times_x(r.cpu_per_delivery)));
        }
        if r.bytes_per_connection.is_some() {
            s.push_str(&format!("; memory per connection {}", times_x(r.bytes_per_connection)));
        }
        s.push('\n');
        let failed: Vec<String> =
            self.rounds.iter().filter(|r| !r.passed).map(|r| format!("{} round {}", r.server, r.round)).collect();
        if !failed.is_empty() {
            s.push_str(&format!("  ! rounds that failed their checks: {}\n", failed.join(", ")));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deliveries::{Collector, Mark};
    use std::time::Instant;

    #[test]
    fn ratios_divide_rinkside_by_the_floor_and_refuse_zero() {
        assert_eq!(ratio(191.0, 110.0).map(|r| (r * 100.0).round()), Some(174.0));
        assert_eq!(ratio(1.0, 0.0), None);
        assert_eq!(ratio(f64::NAN, 1.0), None);
    }

    #[test]
    fn frame_stats_of_nothing_are_zero() {
        assert_eq!(FrameStats::of([]), FrameStats::default());
        let s = FrameStats::of([600, 700, 800]);
        assert_eq!((s.count, s.min_bytes, s.max_bytes), (3, 600, 800));
        assert!((s.mean_bytes - 700.0).abs() < 1e-9);
    }

    #[test]
    fn a_mirror_keeps_rinkside_data_and_frame_lengths() {
        let update = r#"{"data":{"homeScore":1,"logTail":[]},"seq":9,"topic":"game:g","type":"update"}"#;
        let captured = Captured {
            snapshot: r#"{"data":{"log":[1,2]},"seq":8,"topic":"game:g","type":"snapshot"}"#.into(),
            updates: vec![update.into(), r#"{"type":"update","seq":10,"data":{"x":"y"}}"#.into()],
        };
        let mirror = Mirror::from_captured(&captured).unwrap();
        assert_eq!(mirror.snapshot_data.as_deref(), Some(r#"{"log":[1,2]}"#));
        assert_eq!(
            mirror.update(0),
            &MirrorFrame { data: r#"{"homeScore":1,"logTail":[]}"#.into(), bytes: update.len() }
        );
        assert_eq!(mirror.update(1).data, r#"{"x":"y"}"#);
        assert_eq!(mirror.update(2), mirror.update(0));
        assert!(Mirror::from_captured(&Captured::default()).is_err());
    }

    /// A round whose `n` subscribers each get seq 1 `ms` after it was sent.
    fn round(server: Server, round: usize, n: usize, ms: u64, frame: usize, memory: Option<f64>) -> Round {
        let t0 = Instant::now();
        let mut c = Collector::new(n);
        for i in 0..n {
            c.subscribed(i, 0);
            c.update(i, 1, t0 + Duration::from_millis(ms));
        }
        let mut pool = DeliveryPool::default();
        pool.add(&[Mark { seq: 1, sent_at: t0 }], &c);
        Round {
            server,
            round,
            url: format!("http://{server}"),
            passed: true,
            pool,
            requests: Recorder::new(),
            captured: Captured { snapshot: "{}".into(), updates: vec!["x".repeat(frame)] },
            memory: memory.map(|b| Memory { pid: 1, rss_before_bytes: 0, rss_after_bytes: 0, bytes_per_connection: b }),
            cpu_seconds: None,
        }
    }

    #[test]
    fn each_server_is_pooled_over_its_rounds_and_divided() {
        let rounds = [
            round(Server::Rinkside, 1, 10, 200, 600, Some(20_480.0)),
            round(Server::Floor, 1, 10, 100, 600, Some(10_240.0)),
            round(Server::Rinkside, 2, 10, 300, 600, None),
            round(Server::Floor, 2, 10, 100, 600, Some(12_288.0)),
        ];
        let c = compare("http://127.0.0.1:1", 7, &rounds);
        assert_eq!(c.rounds.len(), 4);
        assert_eq!((c.rinkside.rounds, c.floor.rounds), (2, 2));
        assert_eq!(c.rinkside.deliveries.delivered, 20);
        assert_eq!(c.rinkside.update_frames.mean_bytes, 600.0);
        // Rinkside took 200 and 300 ms, the floor 100 and 100.
        let r = c.ratios;
        assert!((r.time_to_last_p99.unwrap() - 3.0).abs() < 0.01, "{r:?}");
        // 20 deliveries in 0.5 s against 20 in 0.2 s.
        assert!((r.deliveries_per_sec.unwrap() - 0.4).abs() < 1e-6, "{r:?}");
        // Memory: Rinkside measured once (20 KiB), the floor 10 and 12 KiB.
        assert_eq!(c.rinkside.bytes_per_connection, Some(20_480.0));
        assert!((r.bytes_per_connection.unwrap() - 20_480.0 / 11_264.0).abs() < 1e-9, "{r:?}");
        let human = c.human();
        assert!(human.contains("rinkside, floor, rinkside, floor"), "{human}");
        assert!(human.contains("deliveries/s 0.40×"), "{human}");
        let json = serde_json::to_value(&c).unwrap();
        assert_eq!(json["rounds"][1]["server"], "floor");
        assert!(json["ratios"]["timeToLastP50"].is_number());
        assert_eq!(r.cpu_per_delivery, None);
    }

    #[test]
    fn cpu_per_delivery_pools_the_rounds_that_timed_it() {
        let timed = |server, n, cpu| Round { cpu_seconds: cpu, ..round(server, 1, n, 100, 10, None) };
        let rounds = [
            timed(Server::Rinkside, 10, Some(0.000_03)),
            timed(Server::Rinkside, 30, Some(0.000_05)),
            timed(Server::Floor, 10, None),
            timed(Server::Floor, 20, Some(0.000_04)),
        ];
        let c = compare("http://x", 1, &rounds);
        // 80 µs over 40 deliveries against 40 µs over 20 (the untimed round left out).
        assert!((c.rinkside.cpu_us_per_delivery.unwrap() - 2.0).abs() < 1e-9, "{:?}", c.rinkside);
        assert!((c.floor.cpu_us_per_delivery.unwrap() - 2.0).abs() < 1e-9, "{:?}", c.floor);
        assert!((c.ratios.cpu_per_delivery.unwrap() - 1.0).abs() < 1e-9);
        assert!((c.rounds[0].cpu_us_per_delivery.unwrap() - 3.0).abs() < 1e-9);
        assert_eq!(c.rounds[2].cpu_us_per_delivery, None);
        assert!(c.human().contains("server CPU per delivery 1.00×"), "{}", c.human());
    }

    #[test]
    fn a_floor_without_samples_gives_no_ratio() {
        let rounds = [round(Server::Rinkside, 1, 2, 100, 10, None)];
        let c = compare("http://x", 1, &rounds);
        assert_eq!(c.ratios, Ratios::default());
        assert!(c.human().contains("time to last p50 n/a"));
    }

    #[test]
    fn floor_urls_carry_the_topic_and_size() {
        let client = FloorClient::new("http://127.0.0.1:9000").unwrap();
        assert_eq!(
            client.url("/publish", "game:a b", Some(600)).as_str(),
            "http://127.0.0.1:9000/publish?topic=game%3Aa+b&bytes=600"
        );
        assert_eq!(client.url("/document", "t", None).as_str(), "http://127.0.0.1:9000/document?topic=t");
    }
}
