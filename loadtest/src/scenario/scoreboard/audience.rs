//! Who watches a scoreboard round: the displays' sockets in this process,
//! or split over child processes (`--processes`), opened, kept read while
//! the goals go in, and joined with the goals' marks at the end — the
//! children's reports merged as if one process had held every display.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;
use serde::Serialize;
use tokio::task::JoinHandle;
use tracing::warn;

use super::super::fleet_options;
use crate::cli::ScoreboardArgs;
use crate::deliveries::{DeliveryPool, DeliveryShare, Mark};
use crate::fleet::{AfterReport, Fleet, OpenReport};
use crate::net::{Endpoint, SourcePool};
use crate::shard::Children;
use crate::stats::Summary;

/// Who watches: sockets in this process, or in child processes
/// (`--processes`).
pub enum Audience {
    Here(Box<Fleet>),
    Children(Children),
}

/// A child's part of the report.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ChildSummary {
    pub passed: bool,
    pub open: OpenReport,
    pub per_delivery: Summary,
    pub delivered: u64,
    pub missed: u64,
    pub after: AfterReport,
}

/// What the audience saw of the goals.
pub struct Seen {
    pub pool: DeliveryPool,
    pub after: AfterReport,
    /// Per goal, whether any display saw its seq exactly (`None` with child
    /// processes: their logs stay there).
    pub exactly: Option<Vec<bool>>,
    pub children: Vec<ChildSummary>,
}

impl Audience {
    /// Opens `--subscribers` displays on `topic`: `urls` split over the
    /// child processes, or `endpoints` (round-robin) here.
    pub async fn open(
        args: &ScoreboardArgs,
        urls: &[String],
        endpoints: &[Arc<Endpoint>],
        sources: Arc<SourcePool>,
        topic: &str,
    ) -> Result<(Self, OpenReport)> {
        if args.processes > 1 {
            let (children, opened) =
                Children::start(urls, topic, args.subscribers, args.processes, &args.net, args.settle_timeout).await?;
            return Ok((Audience::Children(children), merge_open(&opened)));
        }
        let mut options = fleet_options(&args.net, endpoints[0].clone(), sources, args.subscribers, None, topic);
        options.endpoints = endpoints.to_vec();
        let fleet = Fleet::open(options).await?;
        let open = fleet.open.clone();
        Ok((Audience::Here(Box::new(fleet)), open))
    }

    /// Keeps the displays here read until `posting` is done; its result.
    pub async fn watch<T>(&mut self, posting: JoinHandle<T>) -> Result<T> {
        tokio::pin!(posting);
        Ok(match self {
            Audience::Here(fleet) => loop {
                tokio::select! {
                    done = &mut posting => break done?,
                    _ = fleet.pump_one() => {}
                }
            },
            Audience::Children(_) => posting.await?,
        })
    }

    /// Waits up to `settle` for the last goal to reach every display,
    /// closes them, and joins their deliveries with `marks`.
    pub async fn finish(self, marks: &[Mark], settle: Duration) -> Result<Seen> {
        match self {
            Audience::Here(mut fleet) => {
                if let Some(top) = marks.iter().map(|m| m.seq).max() {
                    fleet.collector.set_target(top);
                    let deadline = tokio::time::Instant::now() + settle;
                    if !fleet.pump_until(deadline, |c| c.target_settled()).await {
                        warn!(
                            reached = fleet.collector.reached(),
                            of = fleet.collector.members(),
                            "the last goal did not reach every display in time"
                        );
                    }
                }
                fleet.shutdown().await;
                let exactly = marks.iter().map(|m| fleet.collector.anyone_saw_exactly(m.seq)).collect();
                Ok(Seen {
                    pool: DeliveryPool::of(marks, &fleet.collector),
                    after: fleet.after.clone(),
                    exactly: Some(exactly),
                    children: Vec::new(),
                })
            }
            Audience::Children(processes) => {
                let reports = processes.finish(marks).await?;
                let shares: Vec<DeliveryShare> = reports.iter().map(|(_, r)| r.deliveries.clone()).collect();
                let mut after = AfterReport::default();
                let mut children = Vec::new();
                for (passed, r) in reports {
                    merge_after(&mut after, &r.after);
                    children.push(ChildSummary {
                        passed,
                        open: r.open,
                        per_delivery: r.per_delivery,
                        delivered: r.deliveries.delivered,
                        missed: r.deliveries.missed,
                        after: r.after,
                    });
                }
                Ok(Seen { pool: DeliveryPool::from_shares(marks, &shares), after, exactly: None, children })
            }
        }
    }
}

/// The children's connection reports as one: counts summed, the longest
/// ramp, and the connect and subscribe times of the slowest child (by p99).
fn merge_open(opened: &[OpenReport]) -> OpenReport {
    let mut all = OpenReport::empty(opened.iter().map(|o| o.requested).sum());
    for o in opened {
        all.subscribed += o.subscribed;
        all.failed += o.failed;
        all.ramp_seconds = all.ramp_seconds.max(o.ramp_seconds);
        for (message, n) in o.errors.iter() {
            all.errors.add_n(message, n);
        }
        if o.connect.p99_ms >= all.connect.p99_ms {
            all.connect = o.connect;
        }
        if o.subscribe.p99_ms >= all.subscribe.p99_ms {
            all.subscribe = o.subscribe;
        }
    }
    all.connections_per_sec = if all.ramp_seconds > 0.0 { all.subscribed as f64 / all.ramp_seconds } else { 0.0 };
    all
}

fn merge_after(all: &mut AfterReport, one: &AfterReport) {
    for (message, n) in one.server_errors.iter() {
        all.server_errors.add_n(message, n);
    }
    for (message, n) in one.disconnects.iter() {
        all.disconnects.add_n(message, n);
    }
    all.non_increasing_seq += one.non_increasing_seq;
}
