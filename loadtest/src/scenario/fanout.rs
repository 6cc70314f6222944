//! `fanout`: one event, N subscribers, changes made one at a time. For each
//! change: how long until the *last* subscriber has it, and how long each
//! delivery took. With `--publish-url` the change goes through another node,
//! so the path includes the Redis bus.

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use serde::Serialize;
use serde_json::json;
use tracing::{info, warn};

use super::{Memory, Outcome, fleet_options, prepare_sockets, rss_after, rss_before};
use crate::api::{Api, RsvpReply, run_tag};
use crate::cli::{FanoutArgs, PublishVia};
use crate::deliveries::{DeliveryAnalysis, Mark, analyse};
use crate::fleet::{AfterReport, Fleet, OpenReport};
use crate::net::Endpoint;
use crate::stats::{Recorder, Summary};
use crate::ws::CommandConn;

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Report {
    subscribe_url: String,
    publish_url: String,
    publish_via: String,
    event_id: String,
    open: OpenReport,
    memory: Option<Memory>,
    updates_requested: usize,
    /// Changes that reached every live subscriber within --update-timeout.
    updates_completed: usize,
    updates_timed_out: usize,
    /// Round trip of the change request itself (REST answer or command reply).
    publish_round_trip: Summary,
    deliveries: DeliveryAnalysis,
    /// Changes whose exact seq (the version in the reply) no subscriber saw:
    /// non-zero means update seqs are not the reply versions (contract).
    seq_not_matching_version: usize,
    after: AfterReport,
}

/// How the publisher makes changes.
enum Publisher {
    Rest { api: Api, token: String },
    Ws(Box<CommandConn>),
}

impl Publisher {
    async fn rsvp(&mut self, event_id: &str, action: &str) -> Result<RsvpReply> {
        match self {
            Publisher::Rest { api, token } => api.rsvp(token, event_id, action, None).await,
            Publisher::Ws(conn) => {
                let reply = conn.call(&json!({ "kind": "rsvp", "eventId": event_id, "action": action })).await?;
                if !reply.ok {
                    bail!("rsvp command refused: {}", reply.error.map(|e| e.to_string()).unwrap_or_default());
                }
                serde_json::from_value(reply.data.unwrap_or_default())
                    .context("rsvp reply data is not {status, waitlistRank, version}")
            }
        }
    }
}

pub async fn run(args: FanoutArgs) -> Result<Outcome> {
    let sub_ep = Arc::new(Endpoint::resolve(&args.url).await?);
    let publish_url = args.publish_url.clone().unwrap_or_else(|| args.url.clone());
    let pub_ep = Endpoint::resolve(&publish_url).await?;
    let sources = prepare_sockets(&args.net, &sub_ep, args.subscribers + 1)?;

    let api = Api::new(pub_ep.base_str())?;
    let tag = run_tag();
    let organiser = api.dev_token(&format!("lt{tag}fan")).await?;
    let event_id = api.create_event(&organiser.token, "Load test: fan-out", Some(100), Some(2)).await?;
    info!(%event_id, "event created");
    let topic = format!("event:{event_id}");

    let before = rss_before(args.server_pid);
    let mut fleet = Fleet::open(fleet_options(
        &args.net,
        sub_ep.clone(),
        sources.clone(),
        args.subscribers,
        Some(&organiser.token),
        &topic,
    ))
    .await?;
    let memory = rss_after(before, fleet.open.subscribed).await;

    let mut publisher = match args.publish_via {
        PublishVia::Rest => Publisher::Rest { api: api.clone(), token: organiser.token.clone() },
        PublishVia::Ws => Publisher::Ws(Box::new(
            CommandConn::open(&pub_ep, sources.next(), &organiser.token, format!("fan{tag}")).await?,
        )),
    };

    let mut marks = Vec::with_capacity(args.updates);
    let mut round_trip = Recorder::new();
    let mut timed_out = 0usize;
    let mut prev_seq = fleet.collector.min_seq().unwrap_or(0);
    let timeout = Duration::from_secs(args.update_timeout.max(1));
    let step = (args.updates / 10).max(1);
    info!(updates = args.updates, "making changes one at a time");
    for i in 0..args.updates {
        let action = if i % 2 == 0 { "ATTENDING" } else { "DECLINED" };
        let sent_at = Instant::now();
        let reply = publisher.rsvp(&event_id, action).await?;
        round_trip.record(sent_at.elapsed());
        let seq = match reply.version {
            Some(v) => v,
            None => {
                warn!("rsvp reply has no version; assuming the next seq");
                prev_seq + 1
            }
        };
        prev_seq = seq;
        fleet.collector.set_target(seq);
        let deadline = tokio::time::Instant::from_std(sent_at) + timeout;
        if !fleet.pump_until(deadline, |c| c.target_settled()).await {
            timed_out += 1;
            warn!(
                update = i,
                seq,
                reached = fleet.collector.reached(),
                of = fleet.collector.members(),
                "change did not reach every subscriber in time"
            );
        }
        marks.push(Mark { seq, sent_at });
        if (i + 1) % step == 0 {
            info!(done = i + 1, of = args.updates, "changes delivered");
        }
    }
    if let Publisher::Ws(conn) = publisher {
        conn.close().await;
    }
    fleet.shutdown().await;

    let deliveries = analyse(&marks, &fleet.collector);
    let seq_not_matching_version = marks.iter().filter(|m| !fleet.collector.anyone_saw_exactly(m.seq)).count();
    let report = Report {
        subscribe_url: args.url.clone(),
        publish_url,
        publish_via: format!("{:?}", args.publish_via).to_lowercase(),
        event_id,
        open: fleet.open.clone(),
        memory,
        updates_requested: args.updates,
        updates_completed: args.updates - timed_out,
        updates_timed_out: timed_out,
        publish_round_trip: round_trip.summary(),
        deliveries,
        seq_not_matching_version,
        after: fleet.after.clone(),
    };
    let passed = report.open.failed == 0
        && report.updates_timed_out == 0
        && report.deliveries.missed == 0
        && report.seq_not_matching_version == 0
        && report.after.clean();

    let d = &report.deliveries;
    let mut human = format!(
        "fanout — {} subscribers on {} via {}, {} changes via {} ({})\n",
        report.open.requested,
        report.subscribe_url,
        report.event_id,
        report.updates_requested,
        report.publish_url,
        report.publish_via,
    );
    human.push_str(&report.open.human());
    if let Some(m) = &report.memory {
        human.push_str(&m.human());
    }
    human.push_str(&format!(
        "  publish rtt   {}\n  time to last  {}\n  per delivery  {}\n  throughput    {:.0} deliveries/s while fanning out ({} deliveries in {:.2} s)\n",
        report.publish_round_trip,
        d.time_to_last,
        d.per_delivery,
        d.deliveries_per_sec,
        d.delivered,
        d.fanout_seconds,
    ));
    human.push_str(&format!(
        "  completeness  {} of {} changes reached everyone; {} deliveries missed, {} coalesced\n",
        report.updates_completed, report.updates_requested, d.missed, d.coalesced
    ));
    if report.seq_not_matching_version > 0 {
        human.push_str(&format!(
            "  ! {} changes: no subscriber saw the seq equal to the reply's version\n",
            report.seq_not_matching_version
        ));
    }
    human.push_str(&report.after.human());
    Ok(Outcome { scenario: "fanout", passed, report: serde_json::to_value(&report)?, human })
}
