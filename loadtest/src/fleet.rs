//! A fleet of subscribers: opens N sockets on one topic with bounded
//! concurrency, waits until every one has its snapshot (or failed), then feeds
//! their update frames into a [`Collector`] while the scenario drives changes.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Result;
use serde::{Deserialize, Serialize};
use tokio::sync::{Semaphore, mpsc, watch};
use tokio::task::JoinSet;
use tracing::{info, warn};

use crate::deliveries::Collector;
use crate::net::{Endpoint, SourcePool};
use crate::stats::{Recorder, Summary, rate};
use crate::ws::{SubEvent, SubscriberSpec, run_subscriber};

/// How long shutting the fleet down may take before we stop waiting for
/// close handshakes.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(15);

/// Distinct error messages kept per tally; the rest are counted as "other".
const MAX_DISTINCT_ERRORS: usize = 20;

/// Counts of error messages, grouped by message.
#[derive(Debug, Default, Clone, Serialize, Deserialize)]
pub struct ErrorTally(BTreeMap<String, u64>);

impl ErrorTally {
    pub fn add(&mut self, message: &str) {
        self.add_n(message, 1);
    }

    /// Adds `n` of one message (merging tallies).
    pub fn add_n(&mut self, message: &str, n: u64) {
        let mut key: String = message.chars().take(300).collect();
        if !self.0.contains_key(&key) && self.0.len() >= MAX_DISTINCT_ERRORS {
            key = "(other errors)".into();
        }
        *self.0.entry(key).or_default() += n;
    }

    /// Message and count, in message order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, u64)> {
        self.0.iter().map(|(k, v)| (k.as_str(), *v))
    }

    pub fn total(&self) -> u64 {
        self.0.values().sum()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Indented lines for the human report.
    pub fn lines(&self) -> String {
        self.0.iter().map(|(k, v)| format!("      {v:>7} × {k}\n")).collect()
    }
}

/// What a fleet is asked to do.
pub struct FleetOptions {
    /// Subscriber `i` connects to `endpoints[i % len]` (one node, or several
    /// round-robin).
    pub endpoints: Vec<Arc<Endpoint>>,
    pub count: usize,
    pub token: Option<Arc<str>>,
    pub topic: Arc<str>,
    /// Handshakes in flight at once; more overflows the server's accept
    /// backlog and turns into 1 s SYN retransmits that pollute connect times.
    pub concurrency: usize,
    pub sources: Arc<SourcePool>,
    pub ping_every: Option<Duration>,
    pub timeout: Duration,
}

/// The connection phase's numbers.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OpenReport {
    pub requested: usize,
    pub subscribed: usize,
    pub failed: u64,
    /// TCP connect + WebSocket handshake.
    pub connect: Summary,
    /// Sending auth/subscribe to receiving the snapshot.
    pub subscribe: Summary,
    /// From the first connect to the last snapshot.
    pub ramp_seconds: f64,
    pub connections_per_sec: f64,
    pub errors: ErrorTally,
}

impl OpenReport {
    /// Before any connection was tried.
    pub fn empty(requested: usize) -> Self {
        Self {
            requested,
            subscribed: 0,
            failed: 0,
            connect: Summary::default(),
            subscribe: Summary::default(),
            ramp_seconds: 0.0,
            connections_per_sec: 0.0,
            errors: ErrorTally::default(),
        }
    }

    pub fn human(&self) -> String {
        let mut s = format!(
            "  connections   {} of {} subscribed, {} failed, in {:.2} s ({:.0}/s)\n  \
             connect       {}\n  subscribe     {}\n",
            self.subscribed,
            self.requested,
            self.failed,
            self.ramp_seconds,
            self.connections_per_sec,
            self.connect,
            self.subscribe,
        );
        if !self.errors.is_empty() {
            s.push_str("    connection errors:\n");
            s.push_str(&self.errors.lines());
        }
        s
    }
}

/// Errors seen after subscribing.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AfterReport {
    /// `error` frames received by subscribers.
    pub server_errors: ErrorTally,
    /// Subscribers whose connection ended under them.
    pub disconnects: ErrorTally,
    /// Update frames that did not advance the seq (must be 0).
    pub non_increasing_seq: u64,
}

impl AfterReport {
    pub fn human(&self) -> String {
        let mut s = String::new();
        if !self.server_errors.is_empty() {
            s.push_str(&format!("    error frames ({}):\n", self.server_errors.total()));
            s.push_str(&self.server_errors.lines());
        }
        if !self.disconnects.is_empty() {
            s.push_str(&format!("    disconnects ({}):\n", self.disconnects.total()));
            s.push_str(&self.disconnects.lines());
        }
        if self.non_increasing_seq > 0 {
            s.push_str(&format!("    {} update frames did not increase the seq\n", self.non_increasing_seq));
        }
        s
    }

    pub fn clean(&self) -> bool {
        self.server_errors.is_empty() && self.disconnects.is_empty() && self.non_increasing_seq == 0
    }
}

pub struct Fleet {
    events: mpsc::UnboundedReceiver<SubEvent>,
    stop: watch::Sender<bool>,
    tasks: JoinSet<()>,
    pub collector: Collector,
    pub open: OpenReport,
    pub after: AfterReport,
}

impl Fleet {
    /// Opens every connection and returns once each has its snapshot or has
    /// failed.
    pub async fn open(opts: FleetOptions) -> Result<Self> {
        let (tx, events) = mpsc::unbounded_channel();
        let (stop, stop_rx) = watch::channel(false);
        let semaphore = Arc::new(Semaphore::new(opts.concurrency.max(1)));
        let mut tasks = JoinSet::new();
        let mut fleet = Self {
            events,
            stop,
            tasks: JoinSet::new(),
            collector: Collector::new(opts.count),
            open: OpenReport::empty(opts.count),
            after: AfterReport::default(),
        };
        let mut connect = Recorder::new();
        let mut subscribe = Recorder::new();
        let started = Instant::now();
        let mut settled = 0usize;
        let step = (opts.count / 10).max(1);

        info!(
            count = opts.count,
            topic = %opts.topic,
            nodes = opts.endpoints.len(),
            "opening subscribers"
        );
        if opts.endpoints.is_empty() {
            anyhow::bail!("no node to connect to");
        }
        for idx in 0..opts.count {
            // Waiting for a permit is where the backpressure lives; meanwhile
            // account for what has settled so progress shows.
            let permit = loop {
                tokio::select! {
                    permit = semaphore.clone().acquire_owned() => break permit?,
                    Some(ev) = fleet.events.recv() => {
                        settled += fleet.account(ev, &mut connect, &mut subscribe);
                        if settled.is_multiple_of(step) {
                            info!(settled, of = opts.count, "subscribers settled");
                        }
                    }
                }
            };
            let spec = SubscriberSpec {
                idx,
                endpoint: opts.endpoints[idx % opts.endpoints.len()].clone(),
                source: opts.sources.next(),
                token: opts.token.clone(),
                topic: opts.topic.clone(),
                ping_every: opts.ping_every,
                timeout: opts.timeout,
            };
            tasks.spawn(run_subscriber(spec, tx.clone(), stop_rx.clone(), permit));
        }
        drop(tx);
        while settled < opts.count {
            match fleet.events.recv().await {
                Some(ev) => {
                    let n = fleet.account(ev, &mut connect, &mut subscribe);
                    settled += n;
                    if n > 0 && settled.is_multiple_of(step) {
                        info!(settled, of = opts.count, "subscribers settled");
                    }
                }
                None => break,
            }
        }
        let ramp = started.elapsed();
        fleet.tasks = tasks;
        fleet.open.connect = connect.summary();
        fleet.open.subscribe = subscribe.summary();
        fleet.open.ramp_seconds = ramp.as_secs_f64();
        fleet.open.connections_per_sec = rate(fleet.open.subscribed as u64, ramp);
        if fleet.open.failed > 0 {
            warn!(failed = fleet.open.failed, "some subscribers failed");
        }
        Ok(fleet)
    }

    /// Books one event; returns 1 if it settled a connection attempt.
    fn account(&mut self, ev: SubEvent, connect: &mut Recorder, subscribe: &mut Recorder) -> usize {
        match ev {
            SubEvent::Subscribed { idx, connect: c, subscribe: s, seq } => {
                connect.record(c);
                subscribe.record(s);
                self.open.subscribed += 1;
                self.collector.subscribed(idx, seq);
                1
            }
            SubEvent::Failed { error, .. } => {
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

    fn handle(&mut self, ev: SubEvent) {
        match ev {
            SubEvent::Update { idx, seq, at } => self.collector.update(idx, seq, at),
            SubEvent::ServerError { error, .. } => self.after.server_errors.add(&error),
            SubEvent::Gone { idx, reason } => {
                self.after.disconnects.add(&reason);
                self.collector.gone(idx);
            }
            // Only produced while opening; `account` books them.
            SubEvent::Subscribed { .. } | SubEvent::Failed { .. } => {}
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

    /// Processes one event (for scenarios that `select!` on other work).
    pub async fn pump_one(&mut self) {
        if let Some(ev) = self.events.recv().await {
            self.handle(ev);
        } else {
            // All senders gone: nothing more will come; don't spin.
            std::future::pending::<()>().await;
        }
    }

    /// Closes every connection and books what arrived meanwhile.
    pub async fn shutdown(&mut self) {
        // Book everything that arrived before we asked them to stop.
        while let Ok(ev) = self.events.try_recv() {
            self.handle(ev);
        }
        self.after.non_increasing_seq = self.collector.non_increasing;
        let _ = self.stop.send(true);
        let grace = tokio::time::sleep(SHUTDOWN_GRACE);
        tokio::pin!(grace);
        loop {
            tokio::select! {
                joined = self.tasks.join_next() => if joined.is_none() { break },
                _ = &mut grace => {
                    warn!(left = self.tasks.len(), "closing took too long; aborting the rest");
                    self.tasks.abort_all();
                    break;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_tallies_group_and_cap_distinct_messages() {
        let mut t = ErrorTally::default();
        t.add("a");
        t.add("a");
        for i in 0..30 {
            t.add(&format!("e{i}"));
        }
        assert_eq!(t.total(), 32);
        assert_eq!(t.0.len(), MAX_DISTINCT_ERRORS + 1);
        assert_eq!(t.0.get("a"), Some(&2));
        assert!(t.lines().contains("2 × a"));
    }
}
