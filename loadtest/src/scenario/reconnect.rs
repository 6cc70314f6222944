//! `reconnect`: an arena's phones behind one address after a node restart.
//! Starts its own node (SQLite, the server's default rate limits), opens N
//! signed-out sockets from one address subscribed to a public topic, kills
//! the node (SIGKILL) and starts it again on the same port and database;
//! each socket reconnects with the browser client's backoff (equal jitter
//! from 500 ms, doubling, capped at 30 s: `client/src/lib/ws.ts`). Reports
//! how long after the node answered again every socket was subscribed
//! again, and how many handshakes were refused on the way. Then a flood —
//! handshakes as fast as the generator can open them, from the same address
//! — must still be refused past the handshake bucket.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use futures_util::{SinkExt, StreamExt};
use serde::Serialize;
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite;
use tracing::info;

use super::Outcome;
use super::own_node::{RunDatabase, make_run_dir, server_binary};
use crate::api::{Api, run_tag};
use crate::cli::ReconnectArgs;
use crate::cluster::{Node, NodeConfig, free_port};
use crate::net::{Endpoint, connect_ws, raise_nofile};
use crate::stats::{Recorder, Summary};
use crate::ws::{ServerFrame, next_frame, subscribe_frame};

/// The browser client's reconnect backoff (`client/src/lib/ws.ts`).
const BACKOFF_BASE_MS: f64 = 500.0;
const BACKOFF_MAX_MS: f64 = 30_000.0;

/// The delay before reconnect attempt `attempt` (0-based) with "equal
/// jitter": half the cap plus up to half again, `unit` in [0, 1).
pub fn backoff(attempt: u32, unit: f64) -> Duration {
    let cap = BACKOFF_MAX_MS.min(BACKOFF_BASE_MS * 2f64.powi(attempt.min(16) as i32));
    Duration::from_secs_f64((cap / 2.0 + cap / 2.0 * unit.clamp(0.0, 1.0)) / 1000.0)
}

/// A small deterministic generator per socket (xorshift64*): jitter needs no
/// more, and a run can be repeated.
struct Jitter(u64);

impl Jitter {
    fn new(seed: u64) -> Self {
        Jitter(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// A number in [0, 1).
    fn unit(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Why a handshake failed, as counted in the report.
#[derive(Default)]
struct Refusals {
    rate_limited: AtomicU64,
    refused: AtomicU64,
    other: AtomicU64,
}

impl Refusals {
    fn count(&self, error: &anyhow::Error) {
        let counter = match error.downcast_ref::<tungstenite::Error>() {
            Some(tungstenite::Error::Http(res)) if res.status() == 429 => &self.rate_limited,
            _ if error.chain().any(|e| {
                e.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::ConnectionRefused)
            }) =>
            {
                &self.refused
            }
            _ => &self.other,
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }

    fn snapshot(&self) -> (u64, u64, u64) {
        (
            self.rate_limited.load(Ordering::Relaxed),
            self.refused.load(Ordering::Relaxed),
            self.other.load(Ordering::Relaxed),
        )
    }
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Report {
    sockets: usize,
    topic: String,
    /// First connection of every socket, from the first connect.
    first_all_subscribed_ms: f64,
    /// From SIGKILL to the restarted node answering `/healthz`.
    restart_ms: f64,
    /// Per socket: from the node answering again to its new snapshot.
    back_after_ready: Summary,
    /// Sockets subscribed again within `within_seconds` of the node answering.
    back_within: usize,
    within_seconds: u64,
    /// Handshakes answered 429 while reconnecting (the whole round).
    reconnect_rate_limited: u64,
    /// Connects refused by the TCP stack while the node was down.
    reconnect_connection_refused: u64,
    reconnect_other_errors: u64,
    flood: FloodReport,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct FloodReport {
    attempts: usize,
    accepted: u64,
    rate_limited: u64,
    other_errors: u64,
    seconds: f64,
}

/// A socket's news for the scenario: subscribed (again) at an instant.
struct Back {
    at: Instant,
}

pub async fn run(args: ReconnectArgs) -> Result<Outcome> {
    raise_nofile(args.sockets + args.flood_concurrency).context("raising the open-file limit")?;
    let binary = server_binary(args.server_bin.as_ref())?;
    let tag = run_tag();
    let log_dir = make_run_dir(args.log_dir.as_ref(), "reconnect", &tag)?;
    let config = NodeConfig {
        binary,
        database_url: RunDatabase::sqlite(&log_dir, "reconnect").url,
        redis_url: None,
        db_connections: None,
        log_dir: log_dir.clone(),
        // What is measured is the server's own limits: its defaults.
        env: vec![("HTTP_ADDRESS_RATE_PER_SEC".into(), "200".into()), ("HTTP_USER_RATE_PER_SEC".into(), "50".into())],
    };
    let http = reqwest::Client::new();
    let mut node = Node::new(0, free_port()?);
    node.start(&config, &http).await?;
    let endpoint = Arc::new(Endpoint::resolve(&node.base_url()).await?);
    let api = Api::new(endpoint.base_str())?;
    let me = api.dev_token(&format!("rc{tag}")).await?;
    let topic = format!("follows:{}", me.user_id);

    let refusals = Arc::new(Refusals::default());
    let (tx, mut rx) = mpsc::unbounded_channel::<Back>();
    let started = Instant::now();
    for idx in 0..args.sockets {
        tokio::spawn(socket(idx, endpoint.clone(), topic.clone(), tx.clone(), refusals.clone()));
    }
    drop(tx);
    let wait = Duration::from_secs(60);
    if receive(&mut rx, args.sockets, started + wait).await.len() < args.sockets {
        bail!("not every socket subscribed within {wait:?}");
    }
    let first_all_subscribed_ms = ms(started.elapsed());
    info!(sockets = args.sockets, ms = first_all_subscribed_ms, "all subscribed; killing the node");
    let before = refusals.snapshot();

    let killed = Instant::now();
    node.kill();
    node.start(&config, &http).await?;
    let ready = Instant::now();
    let restart_ms = ms(ready - killed);
    let backs = receive(&mut rx, args.sockets, ready + wait).await;
    let after = refusals.snapshot();
    let mut times = Recorder::new();
    for back in &backs {
        times.record(back.at.saturating_duration_since(ready));
    }
    let within = Duration::from_secs(args.within);
    let back_within = backs.iter().filter(|b| b.at.saturating_duration_since(ready) <= within).count();
    info!(back = backs.len(), back_within, "reconnected; flooding");

    let flood = flood(&endpoint, args.flood, args.flood_concurrency).await;
    node.kill();

    let report = Report {
        sockets: args.sockets,
        topic,
        first_all_subscribed_ms,
        restart_ms,
        back_after_ready: times.summary(),
        back_within,
        within_seconds: args.within,
        reconnect_rate_limited: after.0 - before.0,
        reconnect_connection_refused: after.1 - before.1,
        reconnect_other_errors: after.2 - before.2,
        flood,
    };
    let passed = report.back_within == report.sockets && report.flood.rate_limited > 0;
    let human = report.human();
    Ok(Outcome { scenario: "reconnect", passed, report: serde_json::to_value(&report)?, human })
}

impl Report {
    fn human(&self) -> String {
        let report = self;
        format!(
            "reconnect — {} signed-out sockets from one address on {}\n\
             \x20 first connect  all subscribed in {:.0} ms\n\
             \x20 restart        SIGKILL → answering again in {:.0} ms\n\
             \x20 back           {} of {} within {} s of the node answering; per socket {}\n\
             \x20 on the way     {} handshakes answered 429, {} connects refused while down, {} other errors\n\
             \x20 flood          {} handshakes in {:.1} s from the same address: {} accepted, {} answered 429, {} other\n",
            report.sockets,
            report.topic,
            report.first_all_subscribed_ms,
            report.restart_ms,
            report.back_within,
            report.sockets,
            report.within_seconds,
            report.back_after_ready,
            report.reconnect_rate_limited,
            report.reconnect_connection_refused,
            report.reconnect_other_errors,
            report.flood.attempts,
            report.flood.seconds,
            report.flood.accepted,
            report.flood.rate_limited,
            report.flood.other_errors,
        )
    }
}

/// Collects up to `n` news until `deadline`.
async fn receive(rx: &mut mpsc::UnboundedReceiver<Back>, n: usize, deadline: Instant) -> Vec<Back> {
    let mut got = Vec::with_capacity(n);
    while got.len() < n {
        match tokio::time::timeout_at(deadline, rx.recv()).await {
            Ok(Some(back)) => got.push(back),
            Ok(None) | Err(_) => break,
        }
    }
    got
}

/// One phone: connect, subscribe, read until the connection goes, back off,
/// again — forever (the scenario ends the process).
async fn socket(
    idx: usize,
    endpoint: Arc<Endpoint>,
    topic: String,
    tx: mpsc::UnboundedSender<Back>,
    refusals: Arc<Refusals>,
) {
    let mut jitter = Jitter::new(idx as u64 + 1);
    let mut attempt = 0;
    loop {
        match connect_ws(&endpoint, None).await {
            Ok(mut ws) => {
                attempt = 0;
                if ws.send(subscribe_frame(&topic)).await.is_ok() {
                    loop {
                        match next_frame(&mut ws).await {
                            Ok(Some(ServerFrame::Snapshot { .. })) => {
                                let _ = tx.send(Back { at: Instant::now() });
                            }
                            Ok(Some(_)) => {}
                            Ok(None) | Err(_) => break,
                        }
                    }
                }
            }
            Err(e) => refusals.count(&e),
        }
        tokio::time::sleep(backoff(attempt, jitter.unit())).await;
        attempt += 1;
    }
}

/// `attempts` handshakes, `concurrency` at a time, each closed once open.
async fn flood(endpoint: &Arc<Endpoint>, attempts: usize, concurrency: usize) -> FloodReport {
    let refusals = Arc::new(Refusals::default());
    let accepted = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    futures_util::stream::iter(0..attempts)
        .for_each_concurrent(concurrency.max(1), |_| {
            let (endpoint, refusals, accepted) = (endpoint.clone(), refusals.clone(), accepted.clone());
            async move {
                match connect_ws(&endpoint, None).await {
                    Ok(mut ws) => {
                        accepted.fetch_add(1, Ordering::Relaxed);
                        let _ = ws.close(None).await;
                    }
                    Err(e) => refusals.count(&e),
                }
            }
        })
        .await;
    let (rate_limited, refused, other) = refusals.snapshot();
    FloodReport {
        attempts,
        accepted: accepted.load(Ordering::Relaxed),
        rate_limited,
        other_errors: refused + other,
        seconds: started.elapsed().as_secs_f64(),
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_backoff_is_the_clients_equal_jitter() {
        assert_eq!(backoff(0, 0.0), Duration::from_millis(250));
        assert_eq!(backoff(0, 1.0), Duration::from_millis(500));
        assert_eq!(backoff(2, 0.5), Duration::from_millis(1500));
        assert_eq!(backoff(40, 1.0), Duration::from_secs(30));
    }

    #[test]
    fn jitter_stays_in_the_unit_interval() {
        let mut j = Jitter::new(7);
        assert!((0..10_000).map(|_| j.unit()).all(|u| (0.0..1.0).contains(&u)));
    }
}
