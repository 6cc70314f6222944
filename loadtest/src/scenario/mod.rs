//! The scenarios and what they share: the outcome every scenario hands
//! back to `main`, the server-memory and CPU probes, the nodes a scenario
//! drives and the sockets it prepares for them. [`own_node`] is what the
//! scenarios that start their own server share.

pub mod chaos;
pub mod chat;
pub mod clock;
pub mod connect;
pub mod fanout;
pub mod feed;
pub mod game;
pub mod history;
pub mod market;
pub mod own_node;
pub mod race;
pub mod reconnect;
pub mod scoreboard;
pub mod sides;
pub mod steady;
pub mod sync;

use std::collections::BTreeMap;
use std::sync::Arc;

use anyhow::Result;
use serde::Serialize;
use tokio::sync::mpsc;
use tracing::{info, warn};

use crate::api::Api;
use crate::cli::NetArgs;
use crate::fleet::FleetOptions;
use crate::net::{Endpoint, SETTLE, SourcePool, cpu_seconds, raise_nofile, rss_bytes};

/// What a scenario produced.
pub struct Outcome {
    pub scenario: &'static str,
    /// False when a check failed or connections/deliveries were lost.
    pub passed: bool,
    /// The machine-readable report.
    pub report: serde_json::Value,
    /// The human report.
    pub human: String,
}

/// Server memory around the connection phase.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Memory {
    pub pid: u32,
    pub rss_before_bytes: u64,
    /// After every subscriber is subscribed and idle, and a short settle.
    pub rss_after_bytes: u64,
    /// (after − before) / subscribed connections.
    pub bytes_per_connection: f64,
}

impl Memory {
    pub fn human(&self) -> String {
        format!(
            "  server RSS    {:.1} MiB before, {:.1} MiB with all subscribed idle: {:.1} KiB per connection (pid {})\n",
            mib(self.rss_before_bytes),
            mib(self.rss_after_bytes),
            self.bytes_per_connection / 1024.0,
            self.pid
        )
    }
}

/// Server memory of several nodes around the connection phase; the
/// connections are taken as spread evenly over them (round-robin).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NodesMemory {
    /// Each node's, its bytes per connection over its share.
    pub nodes: Vec<Memory>,
    pub connections: usize,
    /// Σ (after − before) / connections.
    pub bytes_per_connection: f64,
}

impl NodesMemory {
    pub fn human(&self) -> String {
        let mut s = String::new();
        for m in &self.nodes {
            s.push_str(&m.human());
        }
        s.push_str(&format!(
            "  server RSS    over {} nodes: {:.1} KiB per connection ({} connections)\n",
            self.nodes.len(),
            self.bytes_per_connection / 1024.0,
            self.connections
        ));
        s
    }
}

/// Reads every node's RSS before the connection phase (those that cannot
/// be read are warned about and left out).
pub fn rss_before_nodes(pids: &[u32]) -> Vec<(u32, u64)> {
    pids.iter().filter_map(|&pid| rss_before(Some(pid))).collect()
}

/// Waits for things to settle, then reads every node's RSS again.
pub async fn rss_after_nodes(before: Vec<(u32, u64)>, connections: usize) -> Option<NodesMemory> {
    if before.is_empty() {
        return None;
    }
    let share = connections / before.len();
    tokio::time::sleep(SETTLE).await;
    let mut nodes = Vec::new();
    for (pid, rss_before_bytes) in before {
        match rss_bytes(pid) {
            Ok(rss_after_bytes) => nodes.push(Memory {
                pid,
                rss_before_bytes,
                rss_after_bytes,
                bytes_per_connection: per_connection(rss_before_bytes, rss_after_bytes, share),
            }),
            Err(e) => warn!("cannot read server RSS: {e:#}"),
        }
    }
    let before: u64 = nodes.iter().map(|m| m.rss_before_bytes).sum();
    let after: u64 = nodes.iter().map(|m| m.rss_after_bytes).sum();
    let connections = share * nodes.len();
    Some(NodesMemory { bytes_per_connection: per_connection(before, after, connections), nodes, connections })
}

fn per_connection(before: u64, after: u64, connections: usize) -> f64 {
    if connections == 0 { 0.0 } else { (after as f64 - before as f64) / connections as f64 }
}

/// The server's CPU time (user + system) over the changes of a round:
/// started before the first change, stopped once the last one reached
/// everyone. Divided by the deliveries it is the server's work per delivery,
/// which the machine's other load disturbs far less than the wall clock.
pub struct CpuClock {
    pid: u32,
    started: f64,
}

impl CpuClock {
    /// `None` without a pid or when `/proc` cannot be read (warned).
    pub fn start(pid: Option<u32>) -> Option<Self> {
        let pid = pid?;
        match cpu_seconds(pid) {
            Ok(started) => Some(CpuClock { pid, started }),
            Err(e) => {
                warn!("cannot read server CPU time: {e:#}");
                None
            }
        }
    }

    /// CPU seconds since [`CpuClock::start`].
    pub fn stop(clock: Option<Self>) -> Option<f64> {
        let clock = clock?;
        cpu_seconds(clock.pid)
            .inspect_err(|e| warn!("cannot read server CPU time: {e:#}"))
            .ok()
            .map(|now| now - clock.started)
    }
}

fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

/// Reads RSS before the connection phase; `None` without a pid or on error
/// (warned, since the run is still worth having).
pub fn rss_before(pid: Option<u32>) -> Option<(u32, u64)> {
    let pid = pid?;
    match rss_bytes(pid) {
        Ok(b) => Some((pid, b)),
        Err(e) => {
            warn!("cannot read server RSS: {e:#}");
            None
        }
    }
}

/// Waits for things to settle, then reads RSS again.
pub async fn rss_after(before: Option<(u32, u64)>, connections: usize) -> Option<Memory> {
    let (pid, rss_before_bytes) = before?;
    tokio::time::sleep(SETTLE).await;
    let rss_after_bytes = match rss_bytes(pid) {
        Ok(b) => b,
        Err(e) => {
            warn!("cannot read server RSS: {e:#}");
            return None;
        }
    };
    let delta = rss_after_bytes as f64 - rss_before_bytes as f64;
    Some(Memory {
        pid,
        rss_before_bytes,
        rss_after_bytes,
        bytes_per_connection: if connections > 0 { delta / connections as f64 } else { 0.0 },
    })
}

/// The nodes a scenario drives: `--url` and, when given, `--url2`.
pub struct Nodes {
    pub urls: Vec<String>,
    pub endpoints: Vec<Arc<Endpoint>>,
    /// A REST client per node.
    pub apis: Vec<Api>,
}

impl Nodes {
    pub async fn resolve(url: &str, url2: Option<&String>) -> Result<Self> {
        let mut urls = vec![url.to_owned()];
        urls.extend(url2.cloned());
        let mut endpoints = Vec::new();
        for u in &urls {
            endpoints.push(Arc::new(Endpoint::resolve(u).await?));
        }
        let apis = endpoints.iter().map(|e| Api::new(e.base_str())).collect::<Result<_>>()?;
        Ok(Self { urls, endpoints, apis })
    }
}

/// Waits for `n` connections' word — ready, or why not — and returns the
/// failures, counted by why.
pub async fn await_ready(ready: &mut mpsc::UnboundedReceiver<Result<(), String>>, n: usize) -> BTreeMap<String, usize> {
    let mut failures: BTreeMap<String, usize> = BTreeMap::new();
    for _ in 0..n {
        match ready.recv().await {
            Some(Ok(())) => {}
            Some(Err(e)) => *failures.entry(e).or_default() += 1,
            None => break,
        }
    }
    failures
}

/// Raises the descriptor limit for `sockets` and plans source addresses.
pub fn prepare_sockets(net: &NetArgs, target: &Endpoint, sockets: usize) -> Result<Arc<SourcePool>> {
    let limit = raise_nofile(sockets)?;
    if (limit as usize) < sockets {
        warn!(limit, sockets, "RLIMIT_NOFILE is below the socket count; run as root or raise `ulimit -n`");
    }
    let pool = SourcePool::plan(&net.source_ips, target.addr, sockets);
    if !pool.addresses().is_empty() {
        info!(addresses = ?pool.addresses(), "spreading connections over source addresses");
    }
    Ok(Arc::new(pool))
}

/// [`prepare_sockets`] for `sockets` spread round-robin over `targets`:
/// the descriptor limit is the total's, the source addresses are planned
/// for one node's share (ports run out per destination, not overall).
pub fn prepare_sockets_over(net: &NetArgs, targets: &[Arc<Endpoint>], sockets: usize) -> Result<Arc<SourcePool>> {
    let first = targets.first().ok_or_else(|| anyhow::anyhow!("no node to connect to"))?;
    let limit = raise_nofile(sockets)?;
    if (limit as usize) < sockets {
        warn!(limit, sockets, "RLIMIT_NOFILE is below the socket count; run as root or raise `ulimit -n`");
    }
    prepare_sockets(net, first, sockets.div_ceil(targets.len()))
}

/// Fleet options from the shared flags.
pub fn fleet_options(
    net: &NetArgs,
    endpoint: Arc<Endpoint>,
    sources: Arc<SourcePool>,
    count: usize,
    token: Option<&str>,
    topic: &str,
) -> FleetOptions {
    FleetOptions {
        endpoints: vec![endpoint],
        count,
        token: token.map(Arc::from),
        topic: Arc::from(topic),
        concurrency: net.concurrency,
        sources,
        ping_every: net.ping_every(),
        timeout: net.timeout(),
    }
}
