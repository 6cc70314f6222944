//! An arena display for the `clock` scenario: a signed-out socket on
//! `game:ID` that keeps its estimate of the server's clock by ping/pong —
//! `pings` pings `gap` apart on connect, one every `every` after, the
//! shortest round trip of the last eight (docs/game-night.md › Time sync) —
//! and logs every clock message it reads ([`DisplayLog`]). On request it
//! drops its connection and comes back, as a phone that lost its network
//! would, and syncs again from scratch.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use futures_util::{SinkExt, StreamExt};
use serde::Serialize;
use serde_json::Value;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc, watch};
use tokio::task::JoinSet;
use tokio_tungstenite::tungstenite::Message;
use tracing::{info, warn};

use crate::deliveries::Collector;
use crate::fleet::{AfterReport, ErrorTally, OpenReport};
use crate::game_clock::{GameClock, OffsetEstimator, PingSample, epoch_ms};
use crate::net::{Endpoint, SourcePool, Ws, connect_ws};
use crate::skew::DisplayLog;
use crate::stats::{Recorder, Summary, rate};
use crate::ws::subscribe_frame;

/// How a display keeps its offset.
#[derive(Debug, Clone, Copy)]
pub struct SyncPlan {
    /// Pings on connect; the display is ready once their pongs are in.
    pub pings: usize,
    /// Between those pings.
    pub gap: Duration,
    /// Between pings after them.
    pub every: Duration,
}

/// Everything one display needs; shared parts are `Arc`s.
#[derive(Debug, Clone)]
pub struct DisplaySpec {
    pub idx: usize,
    pub endpoint: Arc<Endpoint>,
    pub source: Option<IpAddr>,
    pub topic: Arc<str>,
    pub sync: SyncPlan,
    /// Limit on connect + snapshot + the first pongs.
    pub timeout: Duration,
    /// Keep the text of the snapshot and every update (one display does:
    /// the frame sizes, and what the floor sends in the baseline).
    pub keep_frames: bool,
    /// Reconnects each time the scenario's reconnect signal changes.
    pub in_sample: bool,
}

/// What a display tells the scenario while it runs.
#[derive(Debug)]
pub enum DisplayEvent {
    /// Subscribed and synced; `again` after a forced reconnect.
    Ready { idx: usize, again: bool, connect: Duration, ready: Duration, seq: u64 },
    /// Never got that far (or, after a forced reconnect, never came back).
    Failed { idx: usize, error: String },
    /// An update frame, stamped when read.
    Update { idx: usize, seq: u64, at: Instant },
    /// Lost after it was ready (not at our request).
    Gone { idx: usize, reason: String },
}

/// The scenario's levers: stop everything; reconnect the sample.
#[derive(Debug, Clone)]
pub struct Controls {
    pub stop: watch::Receiver<bool>,
    pub reconnect: watch::Receiver<u64>,
}

/// What a display hands back when it stops.
#[derive(Debug, Default)]
pub struct DisplayRecord {
    pub idx: usize,
    pub log: DisplayLog,
    /// With `keep_frames`: the last snapshot and every update, as received.
    pub snapshot: Option<String>,
    pub updates: Vec<String>,
    /// Pongs that carried no `now` (a server before issue 28).
    pub pongs_without_now: u64,
    /// Round trip of the sample the last offset came from.
    pub best_round_trip_ms: Option<f64>,
}

/// How a connection ended.
enum End {
    Stop,
    Reconnect,
    Lost(String),
}

/// Runs one display until the scenario stops it; `permit` bounds the
/// handshakes in flight and is released once it is first ready.
pub async fn run_display(
    spec: DisplaySpec,
    events: mpsc::UnboundedSender<DisplayEvent>,
    mut controls: Controls,
    permit: OwnedSemaphorePermit,
) -> DisplayRecord {
    let mut record = DisplayRecord { idx: spec.idx, ..DisplayRecord::default() };
    let mut permit = Some(permit);
    let mut again = false;
    loop {
        let started = Instant::now();
        let opened = tokio::time::timeout(spec.timeout, open(&spec, &mut record)).await;
        let (mut ws, connect, seq) = match opened {
            Ok(Ok(opened)) => opened,
            Ok(Err(e)) => {
                let _ = events.send(DisplayEvent::Failed { idx: spec.idx, error: format!("{e:#}") });
                return record;
            }
            Err(_) => {
                let _ = events
                    .send(DisplayEvent::Failed { idx: spec.idx, error: "timed out connecting/subscribing".into() });
                return record;
            }
        };
        let ready = Ready { again, connect, started, seq };
        let end = session(&spec, &mut ws, &mut record, &events, &mut controls, ready, &mut permit).await;
        let _ = tokio::time::timeout(Duration::from_secs(2), ws.close(None)).await;
        match end {
            End::Stop => return record,
            End::Reconnect => again = true,
            End::Lost(reason) => {
                let _ = events.send(DisplayEvent::Gone { idx: spec.idx, reason });
                return record;
            }
        }
    }
}

/// Connects and subscribes; the snapshot's clock goes in the log.
async fn open(spec: &DisplaySpec, record: &mut DisplayRecord) -> Result<(Ws, Duration, u64)> {
    let started = Instant::now();
    let mut ws = connect_ws(&spec.endpoint, spec.source).await?;
    let connect = started.elapsed();
    ws.send(subscribe_frame(&spec.topic)).await.context("send subscribe")?;
    loop {
        let text = match ws.next().await {
            Some(Ok(Message::Text(text))) => text,
            Some(Ok(Message::Close(_))) | None => bail!("connection ended before the snapshot"),
            Some(Ok(_)) => continue,
            Some(Err(e)) => return Err(e).context("read"),
        };
        let frame: Value = serde_json::from_str(text.as_str()).context("unparseable frame")?;
        match frame["type"].as_str() {
            Some("snapshot") => {
                let seq = frame["seq"].as_u64().unwrap_or_default();
                if let Some(clock) = GameClock::of(&frame["data"]) {
                    record.log.clocks.push((epoch_ms(), seq, clock));
                }
                if spec.keep_frames {
                    record.snapshot = Some(text.as_str().to_owned());
                }
                return Ok((ws, connect, seq));
            }
            Some("error") => bail!("server error before the snapshot: {}", frame["error"]),
            _ => {}
        }
    }
}

/// When and how the connection was opened, for its `Ready`.
struct Ready {
    again: bool,
    connect: Duration,
    started: Instant,
    seq: u64,
}

/// Syncs and reads until told to stop or reconnect, or the connection is
/// lost.
async fn session(
    spec: &DisplaySpec,
    ws: &mut Ws,
    record: &mut DisplayRecord,
    events: &mpsc::UnboundedSender<DisplayEvent>,
    controls: &mut Controls,
    ready: Ready,
    permit: &mut Option<OwnedSemaphorePermit>,
) -> End {
    // A new connection's round trips are its own: start over.
    let mut estimator = OffsetEstimator::default();
    let mut pending: Vec<(u64, f64)> = Vec::new();
    let (mut sent, mut answered) = (0usize, 0usize);
    let mut is_ready = false;
    let mut next_ping = tokio::time::Instant::now();
    loop {
        tokio::select! {
            changed = controls.stop.changed() => {
                if changed.is_err() || *controls.stop.borrow() {
                    return End::Stop;
                }
            }
            changed = controls.reconnect.changed() => {
                if changed.is_err() {
                    return End::Stop;
                }
                if spec.in_sample {
                    return End::Reconnect;
                }
            }
            () = tokio::time::sleep_until(next_ping) => {
                let id = sent as u64;
                let frame = format!(r#"{{"type":"ping","id":"{id}"}}"#);
                pending.push((id, epoch_ms()));
                if let Err(e) = ws.send(Message::text(frame)).await {
                    return End::Lost(format!("ping: {e}"));
                }
                sent += 1;
                let wait = if sent < spec.sync.pings { spec.sync.gap } else { spec.sync.every };
                next_ping = tokio::time::Instant::now() + wait;
            }
            message = ws.next() => {
                let at = Instant::now();
                let received = epoch_ms();
                let text = match message {
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(Message::Close(_))) | None => return End::Lost("connection ended".into()),
                    Some(Ok(_)) => continue,
                    Some(Err(e)) => return End::Lost(format!("read: {e}")),
                };
                let Ok(frame) = serde_json::from_str::<Value>(text.as_str()) else {
                    return End::Lost(format!("unparseable frame {}", text.as_str()));
                };
                match frame["type"].as_str() {
                    Some("pong") => {
                        let id = frame["id"].as_str().and_then(|id| id.parse::<u64>().ok());
                        let sent_at = id.and_then(|id| pending.iter().position(|p| p.0 == id)).map(|i| pending.swap_remove(i).1);
                        match (sent_at, frame["now"].as_f64()) {
                            (Some(sent_at), Some(server_now)) => {
                                estimator.add(PingSample { sent: sent_at, received, server_now });
                                if let (Some(offset), Some(best)) = (estimator.offset(), estimator.best()) {
                                    if record.log.offsets.last().is_none_or(|o| o.1 != offset) {
                                        record.log.offsets.push((received, offset));
                                    }
                                    record.best_round_trip_ms = Some(best.round_trip());
                                }
                            }
                            _ => record.pongs_without_now += 1,
                        }
                        answered += 1;
                        if !is_ready && answered >= spec.sync.pings {
                            is_ready = true;
                            drop(permit.take());
                            let _ = events.send(DisplayEvent::Ready {
                                idx: spec.idx,
                                again: ready.again,
                                connect: ready.connect,
                                ready: ready.started.elapsed(),
                                seq: ready.seq,
                            });
                        }
                    }
                    Some("update") => {
                        let seq = frame["seq"].as_u64().unwrap_or_default();
                        if let Some(clock) = GameClock::of(&frame["data"]) {
                            record.log.clocks.push((received, seq, clock));
                        }
                        if spec.keep_frames {
                            record.updates.push(text.as_str().to_owned());
                        }
                        let _ = events.send(DisplayEvent::Update { idx: spec.idx, seq, at });
                    }
                    Some("unsubscribed") => return End::Lost(format!("unsubscribed by server: {}", frame["error"])),
                    Some("error") => return End::Lost(format!("error frame: {}", frame["error"])),
                    _ => {}
                }
            }
        }
    }
}

/// How long stopping the displays may take before the rest are aborted.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(15);

/// What a fleet of displays is asked to do.
pub struct DisplayFleetOptions {
    /// Display `i` connects to `endpoints[i % len]`.
    pub endpoints: Vec<Arc<Endpoint>>,
    pub count: usize,
    pub topic: Arc<str>,
    /// Handshakes (with their first sync) in flight at once.
    pub concurrency: usize,
    pub sources: Arc<SourcePool>,
    pub sync: SyncPlan,
    pub timeout: Duration,
    /// Every `sample_every`th display reconnects on [`DisplayFleet::reconnect`]
    /// (0: none).
    pub sample_every: usize,
}

/// Displays by the thousand on one game, over one or more nodes: opened
/// with bounded concurrency, their update frames fed into a [`Collector`]
/// while the console acts.
pub struct DisplayFleet {
    events: mpsc::UnboundedReceiver<DisplayEvent>,
    stop: watch::Sender<bool>,
    reconnect: watch::Sender<u64>,
    tasks: JoinSet<DisplayRecord>,
    /// The displays that reconnect on request.
    pub sample: Vec<usize>,
    /// Node index of every display.
    pub node_of: Vec<usize>,
    pub collector: Collector,
    /// `subscribe` here is from sending the subscription to the display
    /// being synced (its first pongs in).
    pub open: OpenReport,
    pub after: AfterReport,
}

/// What a forced reconnect of the sample came to.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReconnectReport {
    pub sample: usize,
    /// Back, subscribed and synced.
    pub back: usize,
    /// From the signal to each one being synced again.
    pub back_after: Summary,
    pub errors: ErrorTally,
}

impl DisplayFleet {
    pub async fn open(opts: DisplayFleetOptions) -> Result<Self> {
        let (tx, events) = mpsc::unbounded_channel();
        let (stop, stop_rx) = watch::channel(false);
        let (reconnect, reconnect_rx) = watch::channel(0u64);
        let semaphore = Arc::new(Semaphore::new(opts.concurrency.max(1)));
        let in_sample = |i: usize| opts.sample_every > 0 && i.is_multiple_of(opts.sample_every);
        let nodes = opts.endpoints.len().max(1);
        let mut fleet = Self {
            events,
            stop,
            reconnect,
            tasks: JoinSet::new(),
            sample: (0..opts.count).filter(|&i| in_sample(i)).collect(),
            node_of: (0..opts.count).map(|i| i % nodes).collect(),
            collector: Collector::new(opts.count),
            open: OpenReport::empty(opts.count),
            after: AfterReport::default(),
        };
        let (mut connect, mut ready) = (Recorder::new(), Recorder::new());
        let started = Instant::now();
        let mut settled = 0usize;
        let step = (opts.count / 10).max(1);
        info!(count = opts.count, nodes, topic = %opts.topic, "opening displays");
        for idx in 0..opts.count {
            let permit = loop {
                tokio::select! {
                    permit = semaphore.clone().acquire_owned() => break permit?,
                    Some(ev) = fleet.events.recv() => {
                        settled += fleet.account(ev, &mut connect, &mut ready);
                        if settled.is_multiple_of(step) {
                            info!(settled, of = opts.count, "displays settled");
                        }
                    }
                }
            };
            let Some(endpoint) = opts.endpoints.get(idx % nodes) else {
                bail!("no node to connect to");
            };
            let spec = DisplaySpec {
                idx,
                endpoint: endpoint.clone(),
                source: opts.sources.next(),
                topic: opts.topic.clone(),
                sync: opts.sync,
                timeout: opts.timeout,
                keep_frames: idx == 0,
                in_sample: in_sample(idx),
            };
            let controls = Controls { stop: stop_rx.clone(), reconnect: reconnect_rx.clone() };
            fleet.tasks.spawn(run_display(spec, tx.clone(), controls, permit));
        }
        drop(tx);
        while settled < opts.count {
            match fleet.events.recv().await {
                Some(ev) => {
                    let n = fleet.account(ev, &mut connect, &mut ready);
                    settled += n;
                    if n > 0 && settled.is_multiple_of(step) {
                        info!(settled, of = opts.count, "displays settled");
                    }
                }
                None => break,
            }
        }
        let ramp = started.elapsed();
        fleet.open.connect = connect.summary();
        fleet.open.subscribe = ready.summary();
        fleet.open.ramp_seconds = ramp.as_secs_f64();
        fleet.open.connections_per_sec = rate(fleet.open.subscribed as u64, ramp);
        if fleet.open.failed > 0 {
            warn!(failed = fleet.open.failed, "some displays failed");
        }
        Ok(fleet)
    }

    /// Books an event of the opening phase; 1 if it settled a display.
    fn account(&mut self, ev: DisplayEvent, connect: &mut Recorder, ready: &mut Recorder) -> usize {
        match ev {
            DisplayEvent::Ready { idx, again: false, connect: c, ready: r, seq } => {
                connect.record(c);
                ready.record(r);
                self.open.subscribed += 1;
                self.collector.subscribed(idx, seq);
                1
            }
            DisplayEvent::Failed { error, .. } => {
                self.open.failed += 1;
                self.open.errors.add(&error);
                1
            }
            other => {
                self.handle(other);
                0
            }
        }
    }

    fn handle(&mut self, ev: DisplayEvent) {
        match ev {
            DisplayEvent::Update { idx, seq, at } => self.collector.update(idx, seq, at),
            DisplayEvent::Gone { idx, reason } => {
                self.after.disconnects.add(&reason);
                self.collector.gone(idx);
            }
            DisplayEvent::Failed { idx, error } => {
                self.after.disconnects.add(&format!("reconnecting: {error}"));
                self.collector.gone(idx);
            }
            DisplayEvent::Ready { .. } => {}
        }
    }

    /// Processes events until `done` holds or `deadline` passes; true if done.
    pub async fn pump_until(&mut self, deadline: tokio::time::Instant, done: impl Fn(&Collector) -> bool) -> bool {
        loop {
            if done(&self.collector) {
                return true;
            }
            match tokio::time::timeout_at(deadline, self.events.recv()).await {
                Ok(Some(ev)) => self.handle(ev),
                Ok(None) => return done(&self.collector),
                Err(_) => return false,
            }
        }
    }

    /// Processes events for `span`.
    pub async fn pump_for(&mut self, span: Duration) {
        self.pump_until(tokio::time::Instant::now() + span, |_| false).await;
    }

    /// Drops the sample's connections and waits (up to `timeout`) until
    /// each is back, subscribed and synced.
    pub async fn reconnect(&mut self, timeout: Duration) -> ReconnectReport {
        let mut report = ReconnectReport { sample: self.sample.len(), ..ReconnectReport::default() };
        let mut back_after = Recorder::new();
        let signalled = Instant::now();
        self.reconnect.send_modify(|g| *g += 1);
        let deadline = tokio::time::Instant::now() + timeout;
        let mut settled = 0;
        while settled < report.sample {
            match tokio::time::timeout_at(deadline, self.events.recv()).await {
                Ok(Some(DisplayEvent::Ready { again: true, .. })) => {
                    back_after.record(signalled.elapsed());
                    report.back += 1;
                    settled += 1;
                }
                Ok(Some(DisplayEvent::Failed { idx, error })) => {
                    report.errors.add(&error);
                    self.collector.gone(idx);
                    settled += 1;
                }
                Ok(Some(ev)) => self.handle(ev),
                Ok(None) => break,
                Err(_) => {
                    report.errors.add("not back in time");
                    break;
                }
            }
        }
        report.back_after = back_after.summary();
        report
    }

    /// Stops every display and hands back their records, in display order.
    pub async fn stop(&mut self) -> Vec<DisplayRecord> {
        while let Ok(ev) = self.events.try_recv() {
            self.handle(ev);
        }
        self.after.non_increasing_seq = self.collector.non_increasing;
        let _ = self.stop.send(true);
        let mut records = Vec::new();
        let grace = tokio::time::sleep(SHUTDOWN_GRACE);
        tokio::pin!(grace);
        loop {
            tokio::select! {
                joined = self.tasks.join_next() => match joined {
                    Some(Ok(record)) => records.push(record),
                    Some(Err(e)) => warn!("display task failed: {e}"),
                    None => break,
                },
                _ = &mut grace => {
                    warn!(left = self.tasks.len(), "closing took too long; aborting the rest");
                    self.tasks.abort_all();
                    break;
                }
            }
        }
        records.sort_by_key(|r| r.idx);
        records
    }
}
