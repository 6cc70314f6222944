//! `clock`: a game clock on N arena displays over one or more nodes
//! (docs/game-night.md). Every display syncs its server-clock offset by
//! ping/pong; the console starts and stops the clock `--cycles` times over
//! HTTP. Reported: the **skew** between displays (what each would show at
//! sampled instants, per node and across nodes), **stop-to-stopped** (from
//! the console's CLOCK_STOP to every display holding the stopped clock),
//! and, after a sample of displays is made to reconnect, their skew again.
//! With `--baseline` the floor broadcasts a frame of the stop's size to as
//! many sockets, one at a time, in the same run.

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use serde::Serialize;
use serde_json::json;
use tracing::{info, warn};

use super::scoreboard::set_up;
use super::{Outcome, fleet_options, prepare_sockets, prepare_sockets_over};
use crate::api::{Api, run_tag};
use crate::baseline::{FloorClient, FloorProcess, FrameStats, MirrorFrame, data_of, ratio, times_x};
use crate::cli::ClockArgs;
use crate::deliveries::{DeliveryAnalysis, DeliveryPool, Mark};
use crate::display::{DisplayFleet, DisplayFleetOptions, DisplayRecord, ReconnectReport, SyncPlan};
use crate::fleet::{AfterReport, Fleet, OpenReport};
use crate::game_clock::epoch_ms;
use crate::net::Endpoint;
use crate::skew::{DisplayLog, Skew, instants, skew};
use crate::stats::{Recorder, Summary};
use crate::ws::seq_of;

/// The target of issue 28: displays agree on the clock within this.
const SKEW_TARGET_MS: f64 = 100.0;

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Report {
    urls: Vec<String>,
    console_url: String,
    game_id: String,
    /// `open.subscribe` runs until the display is synced (its first pongs in).
    open: OpenReport,
    sync: SyncReport,
    cycles: usize,
    /// Round trip of the console's CLOCK_START / CLOCK_STOP.
    console_round_trip: Summary,
    /// Starts or stops that did not reach every display in time.
    timed_out: usize,
    start_to_running: DeliveryAnalysis,
    stop_to_stopped: DeliveryAnalysis,
    /// (display, stop) pairs whose first clock at or after the stop was not
    /// a stopped one.
    stops_not_shown_stopped: u64,
    /// The stop's update frames as display 0 received them.
    stop_frames: FrameStats,
    skew: SkewReport,
    reconnect: Option<ReconnectSkew>,
    baseline: Option<ClockBaseline>,
    after: AfterReport,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct SyncReport {
    pings: usize,
    ping_gap_ms: u64,
    ping_every_seconds: u64,
    /// Per display, the round trip of the sample its offset came from.
    best_round_trip: Summary,
    /// Displays with no offset at the end (no pong with `now`).
    without_offset: usize,
    pongs_without_now: u64,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct SkewReport {
    /// All displays, over the cycles before the reconnect.
    across_nodes: Skew,
    /// Each node's displays among themselves.
    per_node: Vec<NodeSkew>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct NodeSkew {
    url: String,
    skew: Skew,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ReconnectSkew {
    reconnect: ReconnectReport,
    /// The reconnected displays over the cycles after, against the median
    /// of all.
    reconnected: Skew,
    /// All displays over the same cycles, for comparison.
    everyone: Skew,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ClockBaseline {
    floor_url: String,
    floor_pid: u32,
    open: OpenReport,
    /// One frame of the stop's size per stop, one at a time.
    deliveries: DeliveryAnalysis,
    frame_bytes: usize,
    /// stop-to-stopped / the floor's time to last (lower is better).
    ratio_time_to_last_p50: Option<f64>,
    ratio_time_to_last_p99: Option<f64>,
    ratio_time_to_last_max: Option<f64>,
    ratio_per_delivery_p50: Option<f64>,
}

/// The score keeper's console.
struct Console {
    api: Api,
    token: String,
    game_id: String,
    round_trip: Recorder,
}

impl Console {
    /// A clock action; its mark is the version the answer carries.
    async fn act(&mut self, kind: &str) -> Result<Mark> {
        let sent_at = Instant::now();
        let state = self.api.game_action(&self.token, &self.game_id, json!({ "type": kind })).await?;
        self.round_trip.record(sent_at.elapsed());
        Ok(Mark { seq: state.version, sent_at })
    }
}

/// The console's marks, and the changes that did not reach everyone.
#[derive(Default)]
struct Marks {
    starts: Vec<Mark>,
    stops: Vec<Mark>,
    timed_out: usize,
}

pub async fn run(args: ClockArgs) -> Result<Outcome> {
    if args.urls.is_empty() || args.displays == 0 {
        bail!("need at least one --url and one display");
    }
    let console_url = args.console_url.clone().unwrap_or_else(|| args.urls[0].clone());
    let mut endpoints = Vec::new();
    for url in &args.urls {
        endpoints.push(Arc::new(Endpoint::resolve(url).await?));
    }
    let sources = prepare_sockets_over(&args.net, &endpoints, args.displays)?;
    let api = Api::new(&console_url)?;
    let tag = run_tag();
    let keeper = api.dev_token(&format!("lt{tag}clock")).await?;
    let game = set_up(&api, &keeper, &tag, args.players).await?;
    let topic = format!("game:{}", game.id);
    let mut console = Console { api, token: keeper.token, game_id: game.id.clone(), round_trip: Recorder::new() };

    let mut fleet = DisplayFleet::open(DisplayFleetOptions {
        endpoints: endpoints.clone(),
        count: args.displays,
        topic: Arc::from(topic.as_str()),
        concurrency: args.net.concurrency,
        sources: sources.clone(),
        sync: SyncPlan {
            pings: args.pings.max(1),
            gap: Duration::from_millis(args.ping_gap_ms),
            every: Duration::from_secs(args.ping_every.max(1)),
        },
        timeout: args.net.timeout(),
        sample_every: args.reconnect_every,
    })
    .await?;

    let mut marks = Marks::default();
    let before_from = epoch_ms();
    for c in 0..args.cycles {
        info!(cycle = c + 1, of = args.cycles, "start, run, stop");
        cycle(&args, &mut console, &mut fleet, &mut marks).await?;
    }
    let before_to = epoch_ms();
    let mut after_window = None;
    let mut reconnect = None;
    if !fleet.sample.is_empty() {
        info!(displays = fleet.sample.len(), "reconnecting a sample of displays");
        reconnect = Some(fleet.reconnect(args.net.timeout()).await);
        let from = epoch_ms();
        for c in 0..args.cycles_after {
            info!(cycle = c + 1, of = args.cycles_after, "after the reconnect: start, run, stop");
            cycle(&args, &mut console, &mut fleet, &mut marks).await?;
        }
        after_window = Some((from, epoch_ms()));
    }
    let records = fleet.stop().await;
    let sample = fleet.sample.clone();

    let every = args.sample_ms.max(1) as f64;
    let logs: Vec<&DisplayLog> = records.iter().map(|r| &r.log).collect();
    let before = instants(before_from, before_to, every);
    let everyone: Vec<usize> = (0..logs.len()).collect();
    let per_node = args
        .urls
        .iter()
        .enumerate()
        .map(|(n, url)| {
            let mine: Vec<&DisplayLog> =
                records.iter().filter(|r| fleet.node_of.get(r.idx) == Some(&n)).map(|r| &r.log).collect();
            let all: Vec<usize> = (0..mine.len()).collect();
            NodeSkew { url: url.clone(), skew: skew(&mine, &all, &before) }
        })
        .collect();
    let skew_report = SkewReport { across_nodes: skew(&logs, &everyone, &before), per_node };
    let reconnect = match (reconnect, after_window) {
        (Some(reconnect), Some((from, to))) => {
            let after = instants(from, to, every);
            let focus: Vec<usize> = records
                .iter()
                .enumerate()
                .filter(|(_, r)| sample.binary_search(&r.idx).is_ok())
                .map(|(i, _)| i)
                .collect();
            Some(ReconnectSkew {
                reconnect,
                reconnected: skew(&logs, &focus, &after),
                everyone: skew(&logs, &everyone, &after),
            })
        }
        _ => None,
    };

    let deliveries = |marks: &[Mark]| {
        let mut pool = DeliveryPool::default();
        pool.add(marks, &fleet.collector);
        pool.analysis()
    };
    let stop_to_stopped = deliveries(&marks.stops);
    let stop_frames = stop_frames(&records, &marks.stops);
    let baseline = match args.baseline {
        true => Some(floor_round(&args, &topic, &records, &marks.stops, &stop_to_stopped).await?),
        false => None,
    };
    let mut best_round_trip = Recorder::new();
    for ms in records.iter().filter_map(|r| r.best_round_trip_ms) {
        best_round_trip.record(Duration::from_secs_f64(ms / 1000.0));
    }
    let report = Report {
        urls: args.urls.clone(),
        console_url,
        game_id: game.id.clone(),
        open: fleet.open.clone(),
        sync: SyncReport {
            pings: args.pings,
            ping_gap_ms: args.ping_gap_ms,
            ping_every_seconds: args.ping_every,
            best_round_trip: best_round_trip.summary(),
            without_offset: records.iter().filter(|r| r.log.offsets.is_empty()).count(),
            pongs_without_now: records.iter().map(|r| r.pongs_without_now).sum(),
        },
        cycles: marks.stops.len(),
        console_round_trip: console.round_trip.summary(),
        timed_out: marks.timed_out,
        start_to_running: deliveries(&marks.starts),
        stop_to_stopped,
        stops_not_shown_stopped: not_shown_stopped(&records, &marks.stops),
        stop_frames,
        skew: skew_report,
        reconnect,
        baseline,
        after: fleet.after.clone(),
    };
    let passed = report.open.failed == 0
        && report.timed_out == 0
        && report.stop_to_stopped.missed == 0
        && report.stops_not_shown_stopped == 0
        && report.sync.without_offset == 0
        && report.reconnect.as_ref().is_none_or(|r| r.reconnect.back == r.reconnect.sample)
        && report.baseline.as_ref().is_none_or(|b| b.deliveries.missed == 0 && b.open.failed == 0)
        && report.after.clean();
    Ok(Outcome { scenario: "clock", passed, human: human(&report), report: serde_json::to_value(&report)? })
}

/// Start, let it run, stop, let it rest: each change waited for until
/// every display has it.
async fn cycle(args: &ClockArgs, console: &mut Console, fleet: &mut DisplayFleet, marks: &mut Marks) -> Result<()> {
    let timeout = Duration::from_secs(args.update_timeout.max(1));
    let start = console.act("CLOCK_START").await?;
    marks.starts.push(start);
    marks.timed_out += usize::from(!reach_all(fleet, start.seq, timeout).await);
    fleet.pump_for(Duration::from_millis(args.run_ms)).await;
    let stop = console.act("CLOCK_STOP").await?;
    marks.stops.push(stop);
    marks.timed_out += usize::from(!reach_all(fleet, stop.seq, timeout).await);
    fleet.pump_for(Duration::from_millis(args.stopped_ms)).await;
    Ok(())
}

/// Waits until every display holds `seq` or later; false on timeout.
async fn reach_all(fleet: &mut DisplayFleet, seq: u64, timeout: Duration) -> bool {
    fleet.collector.set_target(seq);
    let reached = fleet.pump_until(tokio::time::Instant::now() + timeout, |c| c.target_settled()).await;
    if !reached {
        warn!(
            seq,
            reached = fleet.collector.reached(),
            of = fleet.collector.members(),
            "a change did not reach every display in time"
        );
    }
    reached
}

/// (display, stop) pairs where the first clock the display got at or after
/// the stop's seq was not a stopped one (or never came).
fn not_shown_stopped(records: &[DisplayRecord], stops: &[Mark]) -> u64 {
    let mut n = 0;
    for r in records.iter().filter(|r| !r.log.clocks.is_empty()) {
        for stop in stops {
            let first = r.log.clocks.iter().find(|c| c.1 >= stop.seq);
            if first.is_none_or(|c| c.2.running) {
                n += 1;
            }
        }
    }
    n
}

/// The stops' update frames as display 0 kept them.
fn stop_frames(records: &[DisplayRecord], stops: &[Mark]) -> FrameStats {
    let Some(first) = records.first() else {
        return FrameStats::default();
    };
    FrameStats::of(
        first.updates.iter().filter(|f| seq_of(f).is_some_and(|s| stops.iter().any(|m| m.seq == s))).map(String::len),
    )
}

/// The floor in the same run: as many sockets on the same topic, one frame
/// of the stop's bytes (and data) per stop, each sent when the last reached
/// everyone.
async fn floor_round(
    args: &ClockArgs,
    topic: &str,
    records: &[DisplayRecord],
    stops: &[Mark],
    rinkside: &DeliveryAnalysis,
) -> Result<ClockBaseline> {
    let first = records.first();
    let frame = first
        .and_then(|r| r.updates.iter().find(|f| seq_of(f).is_some_and(|s| stops.iter().any(|m| m.seq == s))))
        .map(|f| Ok::<_, anyhow::Error>(MirrorFrame { data: data_of(f)?, bytes: f.len() }))
        .transpose()?;
    let Some(frame) = frame else {
        bail!("display 0 kept no stop frame, so the floor's frame cannot be sized like it");
    };
    let snapshot = first.and_then(|r| r.snapshot.as_deref()).and_then(|s| data_of(s).ok());
    let floor = FloorProcess::start().await?;
    let result = async {
        let client = FloorClient::new(&floor.url)?;
        let endpoint = Arc::new(Endpoint::resolve(&floor.url).await?);
        if let Some(doc) = &snapshot {
            client.set_document(topic, doc).await?;
        }
        let sources = prepare_sockets(&args.net, &endpoint, args.displays)?;
        let mut fleet =
            Fleet::open(fleet_options(&args.net, endpoint.clone(), sources, args.displays, None, topic)).await?;
        info!(frames = stops.len(), bytes = frame.bytes, "the floor's round");
        let mut marks = Vec::new();
        for _ in stops {
            let sent_at = Instant::now();
            let answer = client.publish(topic, &frame).await?;
            marks.push(Mark { seq: answer.seq, sent_at });
            fleet.collector.set_target(answer.seq);
            let deadline = tokio::time::Instant::now() + Duration::from_secs(args.update_timeout.max(1));
            fleet.pump_until(deadline, |c| c.target_settled()).await;
            fleet.pump_until(tokio::time::Instant::now() + Duration::from_millis(args.stopped_ms), |_| false).await;
        }
        fleet.shutdown().await;
        let mut pool = DeliveryPool::default();
        pool.add(&marks, &fleet.collector);
        Ok::<_, anyhow::Error>((fleet.open.clone(), pool.analysis()))
    }
    .await;
    let (floor_url, floor_pid) = (floor.url.clone(), floor.pid);
    floor.stop().await;
    let (open, deliveries) = result?;
    let (r, f) = (&rinkside, &deliveries);
    Ok(ClockBaseline {
        floor_url,
        floor_pid,
        open,
        frame_bytes: frame.bytes,
        ratio_time_to_last_p50: ratio(r.time_to_last.p50_ms, f.time_to_last.p50_ms),
        ratio_time_to_last_p99: ratio(r.time_to_last.p99_ms, f.time_to_last.p99_ms),
        ratio_time_to_last_max: ratio(r.time_to_last.max_ms, f.time_to_last.max_ms),
        ratio_per_delivery_p50: ratio(r.per_delivery.p50_ms, f.per_delivery.p50_ms),
        deliveries,
    })
}

fn target(skew: &Skew) -> &'static str {
    match skew.instants {
        0 => "",
        _ if skew.spread_max_ms <= SKEW_TARGET_MS => "  (within 100 ms)",
        _ => "  ! past the 100 ms target",
    }
}

fn human(report: &Report) -> String {
    let mut s = format!(
        "clock — {} displays over {} watching game {}, {} start/stop cycles via {}\n",
        report.open.requested,
        report.urls.join(", "),
        report.game_id,
        report.cycles,
        report.console_url,
    );
    s.push_str(&report.open.human());
    let sync = &report.sync;
    s.push_str(&format!(
        "  sync          {} pings {} ms apart, then every {} s; best round trip per display {}\n",
        sync.pings, sync.ping_gap_ms, sync.ping_every_seconds, sync.best_round_trip
    ));
    if sync.without_offset > 0 || sync.pongs_without_now > 0 {
        s.push_str(&format!(
            "  ! {} displays without an offset; {} pongs without `now`\n",
            sync.without_offset, sync.pongs_without_now
        ));
    }
    s.push_str(&format!("  console rtt   {}\n", report.console_round_trip));
    let stop = &report.stop_to_stopped;
    s.push_str(&format!(
        "  start→running time to last {}\n  stop→stopped  per display {}\n                time to last {}\n                {} missed, {} coalesced; {} not shown stopped; stop frames {} bytes (min {}, max {})\n",
        report.start_to_running.time_to_last,
        stop.per_delivery,
        stop.time_to_last,
        stop.missed,
        stop.coalesced,
        report.stops_not_shown_stopped,
        report.stop_frames.mean_bytes,
        report.stop_frames.min_bytes,
        report.stop_frames.max_bytes,
    ));
    if report.timed_out > 0 {
        s.push_str(&format!("  ! {} starts/stops did not reach every display in time\n", report.timed_out));
    }
    let across = &report.skew.across_nodes;
    s.push_str(&format!("  skew, all     {across}{}\n", target(across)));
    if report.skew.per_node.len() > 1 {
        for n in &report.skew.per_node {
            s.push_str(&format!("  skew, {}  {}{}\n", n.url, n.skew, target(&n.skew)));
        }
    }
    if let Some(r) = &report.reconnect {
        s.push_str(&format!(
            "  reconnect     {} of {} back, synced again after {}\n  skew, reconnected {}{}\n  skew, everyone after {}\n",
            r.reconnect.back,
            r.reconnect.sample,
            r.reconnect.back_after,
            r.reconnected,
            target(&r.reconnected),
            r.everyone,
        ));
        if !r.reconnect.errors.is_empty() {
            s.push_str(&r.reconnect.errors.lines());
        }
    }
    if let Some(b) = &report.baseline {
        s.push_str(&format!(
            "  floor         {} sockets ({}, pid {}), {} frames of {} bytes one at a time: time to last {}\n  floor per delivery {}\n  stop→stopped / floor: time to last p50 {}, p99 {}, max {}; per delivery p50 {}\n",
            b.open.subscribed,
            b.floor_url,
            b.floor_pid,
            b.deliveries.changes,
            b.frame_bytes,
            b.deliveries.time_to_last,
            b.deliveries.per_delivery,
            times_x(b.ratio_time_to_last_p50),
            times_x(b.ratio_time_to_last_p99),
            times_x(b.ratio_time_to_last_max),
            times_x(b.ratio_per_delivery_p50),
        ));
    }
    s.push_str(&report.after.human());
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game_clock::GameClock;

    fn clock(running: bool) -> GameClock {
        GameClock { running, remaining_ms: 60_000.0, at: 0.0 }
    }

    fn record(idx: usize, clocks: &[(u64, bool)], updates: &[&str]) -> DisplayRecord {
        DisplayRecord {
            idx,
            log: DisplayLog {
                offsets: vec![(0.0, 0.0)],
                clocks: clocks.iter().map(|&(q, r)| (1.0, q, clock(r))).collect(),
            },
            updates: updates.iter().map(|u| (*u).to_owned()).collect(),
            ..DisplayRecord::default()
        }
    }

    #[test]
    fn a_stop_counts_as_shown_when_the_first_clock_after_it_is_stopped() {
        let t = Instant::now();
        let stops = [Mark { seq: 3, sent_at: t }, Mark { seq: 5, sent_at: t }];
        // Display 0 saw both stops; display 1 got seq 4 (running again)
        // first after stop 3 — coalesced past it — and never stop 5.
        let records = [
            record(0, &[(2, true), (3, false), (4, true), (5, false)], &[]),
            record(1, &[(2, true), (4, true)], &[]),
            record(2, &[], &[]),
        ];
        assert_eq!(not_shown_stopped(&records, &stops), 2);
    }

    #[test]
    fn stop_frames_are_display_zeros_frames_of_the_stops_versions() {
        let t = Instant::now();
        let stops = [Mark { seq: 3, sent_at: t }];
        let start = r#"{"type":"update","topic":"game:g","seq":2,"data":{"clock":{}}}"#;
        let stop = r#"{"type":"update","topic":"game:g","seq":3,"data":{"clock":{"running":false}}}"#;
        let records = [record(0, &[], &[start, stop])];
        let frames = stop_frames(&records, &stops);
        assert_eq!((frames.count, frames.max_bytes), (1, stop.len()));
        assert_eq!(stop_frames(&[], &stops).count, 0);
        assert_eq!(seq_of("not json"), None);
    }
}
