//! One arena display ([`run_display`]): a signed-out socket on `game:ID`
//! that keeps its estimate of the server's clock by ping/pong and logs
//! every clock message it reads; on request it drops its connection and
//! comes back, as a phone that lost its network would, and syncs again
//! from scratch.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::sync::{OwnedSemaphorePermit, mpsc, watch};
use tokio_tungstenite::tungstenite::{Message, Utf8Bytes};

use crate::game_clock::{GameClock, OffsetEstimator, PingSample, epoch_ms};
use crate::net::{Endpoint, Ws, connect_ws};
use crate::skew::DisplayLog;
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
    let mut conn = Connection { spec, record, events, ready, permit, sync: Syncing::default() };
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
                let id = conn.sync.sent as u64;
                let frame = format!(r#"{{"type":"ping","id":"{id}"}}"#);
                conn.sync.pending.push((id, epoch_ms()));
                if let Err(e) = ws.send(Message::text(frame)).await {
                    return End::Lost(format!("ping: {e}"));
                }
                conn.sync.sent += 1;
                let wait = if conn.sync.sent < spec.sync.pings { spec.sync.gap } else { spec.sync.every };
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
                if let Some(end) = conn.frame(text, at, received) {
                    return end;
                }
            }
        }
    }
}

/// A connection's ping/pong so far.
#[derive(Default)]
struct Syncing {
    estimator: OffsetEstimator,
    /// `(id, sent at)` of the pings not yet answered.
    pending: Vec<(u64, f64)>,
    sent: usize,
    answered: usize,
    /// Its first pongs are in.
    ready: bool,
}

/// One connection of a display, while it reads.
struct Connection<'a> {
    spec: &'a DisplaySpec,
    record: &'a mut DisplayRecord,
    events: &'a mpsc::UnboundedSender<DisplayEvent>,
    ready: Ready,
    permit: &'a mut Option<OwnedSemaphorePermit>,
    sync: Syncing,
}

impl Connection<'_> {
    /// Acts on one text frame read at `at` (`received`, epoch ms); how the
    /// connection ends, when the frame ends it.
    fn frame(&mut self, text: Utf8Bytes, at: Instant, received: f64) -> Option<End> {
        let Ok(frame) = serde_json::from_str::<Value>(text.as_str()) else {
            return Some(End::Lost(format!("unparseable frame {}", text.as_str())));
        };
        match frame["type"].as_str() {
            Some("pong") => self.pong(&frame, received),
            Some("update") => {
                let seq = frame["seq"].as_u64().unwrap_or_default();
                if let Some(clock) = GameClock::of(&frame["data"]) {
                    self.record.log.clocks.push((received, seq, clock));
                }
                if self.spec.keep_frames {
                    self.record.updates.push(text.as_str().to_owned());
                }
                let _ = self.events.send(DisplayEvent::Update { idx: self.spec.idx, seq, at });
            }
            Some("unsubscribed") => return Some(End::Lost(format!("unsubscribed by server: {}", frame["error"]))),
            Some("error") => return Some(End::Lost(format!("error frame: {}", frame["error"]))),
            _ => {}
        }
        None
    }

    /// A pong: a sample for the offset (when it carries the server's `now`);
    /// once the first pings are answered the display is ready.
    fn pong(&mut self, frame: &Value, received: f64) {
        let pending = &mut self.sync.pending;
        let id = frame["id"].as_str().and_then(|id| id.parse::<u64>().ok());
        let sent_at = id.and_then(|id| pending.iter().position(|p| p.0 == id)).map(|i| pending.swap_remove(i).1);
        match (sent_at, frame["now"].as_f64()) {
            (Some(sent_at), Some(server_now)) => {
                let estimator = &mut self.sync.estimator;
                estimator.add(PingSample { sent: sent_at, received, server_now });
                if let (Some(offset), Some(best)) = (estimator.offset(), estimator.best()) {
                    if self.record.log.offsets.last().is_none_or(|o| o.1 != offset) {
                        self.record.log.offsets.push((received, offset));
                    }
                    self.record.best_round_trip_ms = Some(best.round_trip());
                }
            }
            _ => self.record.pongs_without_now += 1,
        }
        self.sync.answered += 1;
        if !self.sync.ready && self.sync.answered >= self.spec.sync.pings {
            self.sync.ready = true;
            drop(self.permit.take());
            let _ = self.events.send(DisplayEvent::Ready {
                idx: self.spec.idx,
                again: self.ready.again,
                connect: self.ready.connect,
                ready: self.ready.started.elapsed(),
                seq: self.ready.seq,
            });
        }
    }
}
