//! An arena display for the `clock` scenario: a signed-out socket on
//! `game:ID` that keeps its estimate of the server's clock by ping/pong —
//! `pings` pings `gap` apart on connect, one every `every` after, the
//! shortest round trip of the last eight (docs/game-night.md › Time sync) —
//! and logs every clock message it reads ([`DisplayLog`]). On request it
//! drops its connection and comes back, as a phone that lost its network
//! would, and syncs again from scratch.
//!
//! One display is [`socket`]; here is the fleet of them.

mod socket;

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use serde::Serialize;
use tokio::sync::{mpsc, watch};
use tokio::task::JoinSet;
use tracing::{info, warn};

use self::socket::{Controls, DisplayEvent, DisplaySpec, run_display};
pub use self::socket::{DisplayRecord, SyncPlan};
use crate::deliveries::Collector;
use crate::fleet::books::{Books, IntoNews, News, Opening, drain, join_within, open_all, pump_until};
use crate::fleet::{AfterReport, ErrorTally, OpenReport};
use crate::net::{Endpoint, SourcePool};
use crate::stats::{Recorder, Summary};

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

impl IntoNews for DisplayEvent {
    fn news(self, opening: bool) -> News {
        match self {
            DisplayEvent::Ready { idx, again: false, connect, ready, seq } if opening => {
                News::Subscribed { idx, connect, ready, seq }
            }
            DisplayEvent::Failed { error, .. } if opening => News::Failed { error },
            DisplayEvent::Failed { idx, error } => News::Gone { idx, reason: format!("reconnecting: {error}") },
            DisplayEvent::Update { idx, seq, at } => News::Update { idx, seq, at },
            DisplayEvent::Gone { idx, reason } => News::Gone { idx, reason },
            DisplayEvent::Ready { .. } => News::Other,
        }
    }
}

impl DisplayFleet {
    pub async fn open(opts: DisplayFleetOptions) -> Result<Self> {
        let (tx, events) = mpsc::unbounded_channel();
        let (stop, stop_rx) = watch::channel(false);
        let (reconnect, reconnect_rx) = watch::channel(0u64);
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
        info!(count = opts.count, nodes, topic = %opts.topic, "opening displays");
        let opening = Opening { count: opts.count, concurrency: opts.concurrency, noun: "displays" };
        let books = Books { collector: &mut fleet.collector, open: &mut fleet.open, after: &mut fleet.after };
        let tasks = &mut fleet.tasks;
        open_all(&mut fleet.events, books, &opening, move |idx, permit| {
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
            tasks.spawn(run_display(spec, tx.clone(), controls, permit));
            Ok(())
        })
        .await?;
        Ok(fleet)
    }

    fn books(&mut self) -> (&mut mpsc::UnboundedReceiver<DisplayEvent>, Books<'_>) {
        (&mut self.events, Books { collector: &mut self.collector, open: &mut self.open, after: &mut self.after })
    }

    /// Processes events until `done` holds or `deadline` passes; true if done.
    pub async fn pump_until(&mut self, deadline: tokio::time::Instant, done: impl Fn(&Collector) -> bool) -> bool {
        let (events, books) = self.books();
        pump_until(events, books, deadline, done).await
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
                Ok(Some(ev)) => self.books().1.handle(ev),
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
        let (events, books) = self.books();
        drain(events, books);
        let _ = self.stop.send(true);
        let mut records = Vec::new();
        for ended in join_within(&mut self.tasks, SHUTDOWN_GRACE).await {
            match ended {
                Ok(record) => records.push(record),
                Err(e) => warn!("display task failed: {e}"),
            }
        }
        records.sort_by_key(|r| r.idx);
        records
    }
}
