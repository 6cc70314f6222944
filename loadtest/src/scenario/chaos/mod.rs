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
//!
//! - [`plan`]: when to kill, restart and drop, and the dice;
//! - [`setup`]: what the run sets up, and the final state it reads back;
//! - [`requests`]: one idempotent request, retried to an answer;
//! - [`load`]: the RSVP users and the score keeper;
//! - [`subscriber`]: one subscriber, as the client's `lib/ws.ts`;
//! - [`audience`]: every subscriber, and their convergence;
//! - [`disrupt`]: the chaos on schedule;
//! - [`report`]: the verdict and the report.

mod audience;
mod disrupt;
mod load;
mod plan;
mod report;
mod requests;
mod setup;
mod subscriber;

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use tracing::info;

use self::audience::Audience;
use self::disrupt::{Chaos, Redis};
use self::load::Load;
use self::report::{Report, Requests, changes, verdict};
use self::setup::{Final, set_up};
use super::Outcome;
use super::own_node::{RunDatabase, run_dir, server_binary};
use crate::api::{Api, run_tag};
use crate::cli::ChaosArgs;
use crate::cluster::{Cluster, NodeConfig, PrivateRedis};
use crate::net::Endpoint;

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
    let redis = Redis { url: &redis_url, own: private_redis.is_some() };
    let run = Run { args: &args, tag: &tag, binary: &binary, log_dir: &log_dir, database: &database, redis };
    // Ctrl-C drops the run, and with it the cluster (its nodes are killed),
    // so no server is left behind; the schema is dropped below.
    let outcome = tokio::select! {
        outcome = run.on_cluster() => outcome,
        _ = tokio::signal::ctrl_c() => Err(anyhow::anyhow!("interrupted")),
    };
    drop(private_redis);
    database.finish(args.keep_schema);
    outcome
}

/// What a run on its own cluster needs.
struct Run<'a> {
    args: &'a ChaosArgs,
    tag: &'a Arc<str>,
    binary: &'a Path,
    log_dir: &'a Path,
    database: &'a RunDatabase,
    redis: Redis<'a>,
}

impl Run<'_> {
    /// Starts the cluster, sets up, subscribes, runs the load and the
    /// chaos, brings every node back, and judges.
    async fn on_cluster(&self) -> Result<Outcome> {
        let args = self.args;
        let config = NodeConfig {
            binary: self.binary.to_path_buf(),
            database_url: self.database.url.clone(),
            redis_url: Some(self.redis.url.to_owned()),
            db_connections: Some(args.db_connections),
            log_dir: self.log_dir.to_path_buf(),
            env: Vec::new(),
        };
        let mut cluster = Cluster::start(config, args.nodes).await?;
        let urls = Arc::new(cluster.urls());
        info!(?urls, logs = %self.log_dir.display(), "cluster up");
        let mut endpoints = Vec::new();
        for u in urls.iter() {
            endpoints.push(Arc::new(Endpoint::resolve(u).await?));
        }
        let api = Api::new(&urls[0])?;
        let setup = Arc::new(set_up(&api, self.tag, args).await?);
        info!(users = setup.users.len(), events = setup.events.len(), game = %setup.game_id, "set up");

        // Subscribers, spread over the nodes, each with its snapshot first.
        let mut audience = Audience::subscribe(args, &setup, Arc::new(endpoints)).await?;
        // The load, and the chaos on schedule.
        let load = Load::start(args, &setup, &urls, self.tag)?;
        let started = Instant::now();
        let mut chaos = Chaos::run(&mut cluster, args, &self.redis, started).await?;
        // Stop the load; bring every node back; let the unanswered finish.
        load.stop();
        chaos.bring_back(&mut cluster).await?;
        let settle = Duration::from_secs_f64(args.settle);
        let (rsvp, goals) = load.finish(settle).await?;
        // The final state, from every node: every subscriber must converge
        // to it.
        let fin = Final::read(&urls, &setup).await?;
        let converged_at = audience.converge(&fin.truth, settle).await;

        // The verdict.
        let (lost_acks, broken) = verdict(args, &fin, &rsvp, &goals)?;
        let changes = changes(&rsvp, &goals, audience.game_topic());
        let report = Report {
            nodes: args.nodes,
            seconds: args.seconds,
            log_dir: self.log_dir.display().to_string(),
            schema: self.database.schema_name().unwrap_or_default().to_owned(),
            redis: if self.redis.own { format!("{} (private)", self.redis.url) } else { self.redis.url.to_owned() },
            kills: chaos.kills,
            redis_drops: chaos.drops,
            rsvps: Requests::new(rsvp.sent, rsvp.acks.len(), rsvp.unresolved.len(), &chaos.windows, started),
            rsvp_statuses: rsvp.statuses,
            goals: Requests::new(goals.sent, goals.acks.len(), goals.unresolved, &chaos.windows, started),
            lost_acks,
            broken,
            subscribers: audience.report(&converged_at, &fin.truth, &changes, &chaos.windows),
            final_versions: audience.final_versions(&fin.truth),
            nodes_disagree: fin.nodes_disagree,
            disruptions: chaos.disruptions,
            node_panics: cluster.panics(),
        };
        drop(cluster);
        let passed = report.passed();
        Ok(Outcome { scenario: "chaos", passed, human: report.human(), report: serde_json::to_value(&report)? })
    }
}
