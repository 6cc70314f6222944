//! The chaos on schedule ([`Chaos::run`]): nodes killed with SIGKILL and
//! restarted, the nodes' Redis connections dropped, as [`chaos_plan`] lays
//! them out; what was done when, and the windows of time each disrupted.
//! After the load every node is brought back ([`Chaos::bring_back`]).

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use serde::Serialize;
use tokio::task::JoinSet;
use tracing::info;

use super::plan::{Action, chaos_plan};
use crate::cli::ChaosArgs;
use crate::cluster::{Cluster, redis_kill_clients};

/// One disruption, for the report.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Disruption {
    pub at_seconds: f64,
    pub what: String,
    /// Node kills: seconds until it answered `/healthz` again after its restart
    /// began; Redis drops: connections dropped.
    pub detail: String,
}

/// A restart under way, once its node answers: the node, its disruption's
/// slot, since when it was down, how long it took to answer (or why it did
/// not), and when that was known.
type Restarted = (usize, usize, Instant, Result<Duration>, Instant);

/// The Redis the nodes share.
pub struct Redis<'a> {
    pub url: &'a str,
    /// The run's own: its publishers' connections are dropped too.
    pub own: bool,
}

/// The chaos of a run, as it went.
pub struct Chaos {
    pub disruptions: Vec<Disruption>,
    /// Disrupted periods: a node down until `--window` after it is back;
    /// `--window` after a Redis drop.
    pub windows: Vec<(Instant, Instant)>,
    pub kills: usize,
    pub drops: usize,
    window: Duration,
    down_since: BTreeMap<usize, Instant>,
    restarts: JoinSet<Restarted>,
}

impl Chaos {
    /// Runs the plan of `args` from `started` to the end of the load.
    pub async fn run(cluster: &mut Cluster, args: &ChaosArgs, redis: &Redis<'_>, started: Instant) -> Result<Self> {
        let mut chaos = Self {
            disruptions: Vec::new(),
            windows: Vec::new(),
            kills: 0,
            drops: 0,
            window: Duration::from_secs_f64(args.window),
            down_since: BTreeMap::new(),
            restarts: JoinSet::new(),
        };
        info!(seconds = args.seconds, "load and chaos running");
        for (at, action) in chaos_plan(args.seconds, args.nodes, args.kill_every, args.down, args.redis_drop_every) {
            tokio::time::sleep_until((started + at).into()).await;
            let t = started.elapsed().as_secs_f64();
            match action {
                Action::Kill(i) => chaos.kill(cluster, i, t),
                Action::Restart(i) => chaos.restart(cluster, i, t)?,
                Action::DropRedis => chaos.drop_redis(redis, t).await,
            }
        }
        tokio::time::sleep_until((started + Duration::from_secs_f64(args.seconds)).into()).await;
        Ok(chaos)
    }

    fn kill(&mut self, cluster: &mut Cluster, i: usize, t: f64) {
        cluster.nodes[i].kill();
        self.kills += 1;
        self.down_since.insert(i, Instant::now());
        info!(node = i, "killed (SIGKILL)");
        self.disruptions.push(Disruption { at_seconds: t, what: format!("kill -9 node {i}"), detail: String::new() });
    }

    /// Starts node `i` again; its health is waited for in the background.
    fn restart(&mut self, cluster: &mut Cluster, i: usize, t: f64) -> Result<()> {
        let health = cluster.respawn(i)?;
        let since = self.down_since.remove(&i).unwrap_or_else(Instant::now);
        let slot = self.disruptions.len();
        self.disruptions.push(Disruption { at_seconds: t, what: format!("restart node {i}"), detail: String::new() });
        self.restarts.spawn(async move { (i, slot, since, health.await, Instant::now()) });
        Ok(())
    }

    async fn drop_redis(&mut self, redis: &Redis<'_>, t: f64) {
        let mut detail = Vec::new();
        let kinds: &[&str] = if redis.own { &["pubsub", "normal"] } else { &["pubsub"] };
        for kind in kinds {
            match redis_kill_clients(redis.url, kind).await {
                Ok(n) => detail.push(format!("{n} {kind}")),
                Err(e) => detail.push(format!("{kind} failed: {e:#}")),
            }
        }
        self.drops += 1;
        self.windows.push((Instant::now(), Instant::now() + self.window));
        info!(dropped = %detail.join(", "), "dropped the Redis connections");
        self.disruptions.push(Disruption {
            at_seconds: t,
            what: "Redis CLIENT KILL".into(),
            detail: format!("{} connections dropped", detail.join(" + ")),
        });
    }

    /// Waits for every restart under way, then starts any node still down.
    /// A node that does not come back fails the run.
    pub async fn bring_back(&mut self, cluster: &mut Cluster) -> Result<()> {
        while let Some(joined) = self.restarts.join_next().await {
            let (i, slot, since, health, at) = joined.context("a restart task failed")?;
            let detail = match &health {
                Ok(d) => format!("healthy after {:.2} s", d.as_secs_f64()),
                Err(e) => format!("restart FAILED: {e:#}"),
            };
            info!(node = i, %detail, "restarted");
            self.disruptions[slot].detail = detail;
            self.windows.push((since, at + self.window));
            health.with_context(|| format!("node {i} did not come back"))?;
        }
        for i in 0..cluster.nodes.len() {
            if !cluster.nodes[i].is_up() {
                cluster.restart(i).await?;
            }
        }
        Ok(())
    }
}
