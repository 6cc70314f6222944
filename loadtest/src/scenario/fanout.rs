//! `fanout`: one event, N subscribers, changes made one at a time. For each
//! change: how long until the *last* subscriber has it, and how long each
//! delivery took. With `--publish-url` the change goes through another node,
//! so the path includes the Redis bus. With `--baseline` the same rounds run
//! against the floor too, alternately ([`crate::baseline`]).

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use serde::Serialize;
use serde_json::json;
use tracing::{info, warn};

use super::{CpuClock, Memory, Outcome, fleet_options, prepare_sockets, rss_after, rss_before};
use crate::api::{Api, Session, run_tag};
use crate::baseline::{self, Floor, FloorClient, Mirror, Probe, RoundOut, Rounds, Turn};
use crate::cli::{FanoutArgs, PublishVia};
use crate::deliveries::{DeliveryAnalysis, DeliveryPool, Mark};
use crate::fleet::{AfterReport, Fleet, OpenReport};
use crate::net::{Endpoint, SourcePool};
use crate::stats::{Recorder, Summary};
use crate::ws::{CommandConn, NotRsvp};

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
    Rest {
        api: Api,
        token: String,
    },
    Ws(Box<CommandConn>),
    /// `POST /publish` on the floor, with Rinkside's documents.
    Floor {
        client: FloorClient,
        mirror: Arc<Mirror>,
    },
}

impl Publisher {
    /// Makes change number `i` of the round, the run's `n`th; the seq the
    /// server says it has, if it says. The organiser's answer alternates
    /// over the whole run, so a round never starts by repeating the answer
    /// the last one ended with (which would change nothing).
    async fn change(&mut self, event_id: &str, topic: &str, i: usize, n: usize) -> Result<Option<u64>> {
        let action = if n.is_multiple_of(2) { "ATTENDING" } else { "DECLINED" };
        match self {
            Publisher::Rest { api, token } => Ok(api.rsvp(token, event_id, action, None).await?.version),
            Publisher::Ws(conn) => {
                match conn.call(&json!({ "kind": "rsvp", "eventId": event_id, "action": action })).await?.rsvp() {
                    Ok(reply) => Ok(reply.version),
                    Err(NotRsvp::Refused(error)) => {
                        bail!("rsvp command refused: {}", error.map(|e| e.to_string()).unwrap_or_default())
                    }
                    Err(NotRsvp::Unreadable(e)) => {
                        Err(anyhow::Error::from(e).context("rsvp reply data is not {status, waitlistRank, version}"))
                    }
                }
            }
            Publisher::Floor { client, mirror } => Ok(Some(client.publish(topic, mirror.update(i)).await?.seq)),
        }
    }
}

/// What every round shares: the event, its organiser, the sockets' sources.
struct Setup {
    sub_ep: Arc<Endpoint>,
    pub_ep: Endpoint,
    publish_url: String,
    sources: Arc<SourcePool>,
    api: Api,
    tag: String,
    organiser: Session,
    event_id: String,
    topic: String,
}

impl Setup {
    async fn prepare(args: &FanoutArgs) -> Result<Self> {
        let sub_ep = Arc::new(Endpoint::resolve(&args.url).await?);
        let publish_url = args.publish_url.clone().unwrap_or_else(|| args.url.clone());
        let pub_ep = Endpoint::resolve(&publish_url).await?;
        // The subscribers, the publisher's socket and a baseline probe.
        let sources = prepare_sockets(&args.net, &sub_ep, args.subscribers + 2)?;
        let api = Api::new(pub_ep.base_str())?;
        let tag = run_tag();
        let organiser = api.dev_token(&format!("lt{tag}fan")).await?;
        let event_id = api.create_event(&organiser.token, "Load test: fan-out", Some(100), Some(2)).await?;
        info!(%event_id, "event created");
        let topic = format!("event:{event_id}");
        Ok(Self { sub_ep, pub_ep, publish_url, sources, api, tag, organiser, event_id, topic })
    }
}

/// Which server a round runs against.
enum Target<'a> {
    Rinkside,
    /// The floor, sending what Rinkside's round before received.
    Floor {
        floor: &'a Floor<'a>,
        mirror: Arc<Mirror>,
    },
}

/// How a round runs.
#[derive(Debug, Clone, Copy)]
struct Plan {
    /// Keep one more socket's frames (a baseline round).
    probe: bool,
    /// Changes earlier rounds made on Rinkside.
    first_change: usize,
    /// Read the server's RSS around the connection phase (with
    /// `--server-pid`).
    memory: bool,
}

/// The scenario's rounds, for [`baseline::run`].
struct Fanout<'a> {
    args: &'a FanoutArgs,
    setup: Setup,
}

pub async fn run(args: FanoutArgs) -> Result<Outcome> {
    let setup = Setup::prepare(&args).await?;
    baseline::run(&Fanout { args: &args, setup }, &args.baseline).await
}

impl Rounds for Fanout<'_> {
    type Report = Report;
    const SCENARIO: &'static str = "fanout";

    fn rinkside_url(&self) -> String {
        self.args.url.clone()
    }

    async fn rinkside(&self, turn: Turn) -> Result<RoundOut<Report>> {
        let plan = Plan {
            probe: turn.baseline,
            first_change: (turn.round - 1) * self.args.updates,
            memory: turn.measures_memory(),
        };
        run_round(self.args, &self.setup, &Target::Rinkside, plan).await
    }

    async fn floor(&self, turn: Turn, floor: &Floor<'_>, mirror: Arc<Mirror>, _: &Report) -> Result<RoundOut<Report>> {
        let plan = Plan { probe: true, first_change: 0, memory: turn.measures_memory() };
        run_round(self.args, &self.setup, &Target::Floor { floor, mirror }, plan).await
    }
}

/// Where a round's subscribers connect.
struct Watched {
    endpoint: Arc<Endpoint>,
    url: String,
    /// The server's pid, for its memory and CPU time.
    pid: Option<u32>,
}

impl Target<'_> {
    /// The server the subscribers watch; the floor gets Rinkside's
    /// snapshot document first.
    async fn watched(&self, args: &FanoutArgs, setup: &Setup) -> Result<Watched> {
        match self {
            Target::Rinkside => {
                Ok(Watched { endpoint: setup.sub_ep.clone(), url: args.url.clone(), pid: args.server_pid })
            }
            Target::Floor { floor, mirror } => {
                if let Some(doc) = &mirror.snapshot_data {
                    floor.client.set_document(&setup.topic, doc).await?;
                }
                // The floor's memory is measured when Rinkside's is.
                let pid = args.server_pid.map(|_| floor.process.pid);
                Ok(Watched { endpoint: floor.endpoint.clone(), url: floor.process.url.clone(), pid })
            }
        }
    }

    /// Who makes the changes, where, and how (for the report).
    async fn publisher(&self, args: &FanoutArgs, setup: &Setup) -> Result<(Publisher, String, &'static str)> {
        let token = &setup.organiser.token;
        Ok(match self {
            Target::Rinkside => match args.publish_via {
                PublishVia::Rest => (
                    Publisher::Rest { api: setup.api.clone(), token: token.clone() },
                    setup.publish_url.clone(),
                    "rest",
                ),
                PublishVia::Ws => {
                    let id_prefix = format!("fan{}", setup.tag);
                    let conn = CommandConn::open(&setup.pub_ep, setup.sources.next(), token, id_prefix).await?;
                    (Publisher::Ws(Box::new(conn)), setup.publish_url.clone(), "ws")
                }
            },
            Target::Floor { floor, mirror } => (
                Publisher::Floor { client: floor.client.clone(), mirror: mirror.clone() },
                floor.process.url.clone(),
                "floor",
            ),
        })
    }
}

/// One round: subscribers on the target, `--updates` changes one at a
/// time.
async fn run_round(args: &FanoutArgs, setup: &Setup, target: &Target<'_>, plan: Plan) -> Result<RoundOut<Report>> {
    let watched = target.watched(args, setup).await?;
    let token = &setup.organiser.token;
    let before = rss_before(watched.pid.filter(|_| plan.memory));
    let mut fleet = Fleet::open(fleet_options(
        &args.net,
        watched.endpoint.clone(),
        setup.sources.clone(),
        args.subscribers,
        Some(token),
        &setup.topic,
    ))
    .await?;
    let memory = rss_after(before, fleet.open.subscribed).await;
    let probe = match plan.probe {
        true => Some(
            Probe::open(&watched.endpoint, setup.sources.next(), Some(token), &setup.topic, args.net.timeout()).await?,
        ),
        false => None,
    };
    let (mut publisher, publish_url, publish_via) = target.publisher(args, setup).await?;

    info!(updates = args.updates, url = %watched.url, "making changes one at a time");
    let cpu = CpuClock::start(watched.pid);
    let changes = make_changes(args, setup, &mut fleet, &mut publisher, plan.first_change).await?;
    let cpu_seconds = CpuClock::stop(cpu);
    if let Publisher::Ws(conn) = publisher {
        conn.close().await;
    }
    let captured = match probe {
        Some(p) => Some(p.finish(args.updates).await),
        None => None,
    };
    fleet.shutdown().await;

    let pool = DeliveryPool::of(&changes.marks, &fleet.collector);
    let seq_not_matching_version = changes.marks.iter().filter(|m| !fleet.collector.anyone_saw_exactly(m.seq)).count();
    let report = Report {
        subscribe_url: watched.url,
        publish_url,
        publish_via: publish_via.to_owned(),
        event_id: setup.event_id.clone(),
        open: fleet.open.clone(),
        memory,
        updates_requested: args.updates,
        updates_completed: args.updates - changes.timed_out,
        updates_timed_out: changes.timed_out,
        publish_round_trip: changes.round_trip.summary(),
        deliveries: pool.analysis(),
        seq_not_matching_version,
        after: fleet.after.clone(),
    };
    let passed = report.open.failed == 0
        && report.updates_timed_out == 0
        && report.deliveries.missed == 0
        && report.seq_not_matching_version == 0
        && report.after.clean();
    let human = human(&report);
    let memory = report.memory.clone();
    Ok(RoundOut { report, passed, human, pool, requests: changes.round_trip, captured, memory, cpu_seconds })
}

/// The changes of a round, each waited for until it reached every
/// subscriber (or timed out).
struct Changes {
    marks: Vec<Mark>,
    /// Round trips of the change requests.
    round_trip: Recorder,
    timed_out: usize,
}

/// Makes `--updates` changes one at a time, the first of them the run's
/// `first_change`th.
async fn make_changes(
    args: &FanoutArgs,
    setup: &Setup,
    fleet: &mut Fleet,
    publisher: &mut Publisher,
    first_change: usize,
) -> Result<Changes> {
    let mut changes = Changes { marks: Vec::with_capacity(args.updates), round_trip: Recorder::new(), timed_out: 0 };
    let mut prev_seq = fleet.collector.min_seq().unwrap_or(0);
    let timeout = Duration::from_secs(args.update_timeout.max(1));
    let step = (args.updates / 10).max(1);
    for i in 0..args.updates {
        let sent_at = Instant::now();
        let version = publisher.change(&setup.event_id, &setup.topic, i, first_change + i).await?;
        changes.round_trip.record(sent_at.elapsed());
        let seq = match version {
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
            changes.timed_out += 1;
            warn!(
                update = i,
                seq,
                reached = fleet.collector.reached(),
                of = fleet.collector.members(),
                "change did not reach every subscriber in time"
            );
        }
        changes.marks.push(Mark { seq, sent_at });
        if (i + 1) % step == 0 {
            info!(done = i + 1, of = args.updates, "changes delivered");
        }
    }
    Ok(changes)
}

fn human(report: &Report) -> String {
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
    human
}
