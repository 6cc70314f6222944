//! `clock`: a game clock on N arena displays over one or more nodes
//! (docs/game-night.md). Every display syncs its server-clock offset by
//! ping/pong; the console starts and stops the clock `--cycles` times over
//! HTTP. Reported: the **skew** between displays (what each would show at
//! sampled instants, per node and across nodes), **stop-to-stopped** (from
//! the console's CLOCK_STOP to every display holding the stopped clock),
//! and, after a sample of displays is made to reconnect, their skew again.
//! With `--baseline` the floor broadcasts a frame of the stop's size to as
//! many sockets, one at a time, in the same run.
//!
//! - [`skews`]: how far apart the displays' clocks are;
//! - [`floor`]: the floor's round of `--baseline`;
//! - [`report`]: the report, its verdict and text.

mod floor;
mod report;
mod skews;

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use serde_json::json;
use tracing::{info, warn};

use self::floor::floor_round;
use self::report::{Report, SyncReport, not_shown_stopped, stop_frames};
use self::skews::skews;
use super::game::{LOAD_TEST, set_up_game};
use super::{Outcome, prepare_sockets_over};
use crate::api::{Api, run_tag};
use crate::cli::ClockArgs;
use crate::deliveries::{DeliveryPool, Mark};
use crate::display::{DisplayFleet, DisplayFleetOptions, ReconnectReport, SyncPlan};
use crate::game_clock::epoch_ms;
use crate::net::{Endpoint, SourcePool};
use crate::stats::Recorder;

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

/// The console's cycles: their marks, the span of those before the
/// reconnect and of those after it (epoch ms), and the reconnect.
struct Cycles {
    marks: Marks,
    before: (f64, f64),
    after: Option<(ReconnectReport, (f64, f64))>,
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
    let game = set_up_game(&api, &keeper, &LOAD_TEST, &tag, args.players).await?;
    let topic = format!("game:{}", game.id);
    let mut console = Console { api, token: keeper.token, game_id: game.id.clone(), round_trip: Recorder::new() };

    let mut fleet = DisplayFleet::open(display_options(&args, endpoints, sources, &topic)).await?;
    let cycles = run_cycles(&args, &mut console, &mut fleet).await?;
    let records = fleet.stop().await;
    let (skew, reconnect) = skews(&args, &fleet, &records, cycles.before, cycles.after);
    let marks = cycles.marks;
    let stop_to_stopped = DeliveryPool::of(&marks.stops, &fleet.collector).analysis();
    let stop_frames = stop_frames(&records, &marks.stops);
    let baseline = match args.baseline {
        true => Some(floor_round(&args, &topic, &records, &marks.stops, &stop_to_stopped).await?),
        false => None,
    };
    let report = Report {
        urls: args.urls.clone(),
        console_url,
        game_id: game.id.clone(),
        open: fleet.open.clone(),
        sync: SyncReport::of(&args, &records),
        cycles: marks.stops.len(),
        console_round_trip: console.round_trip.summary(),
        timed_out: marks.timed_out,
        start_to_running: DeliveryPool::of(&marks.starts, &fleet.collector).analysis(),
        stop_to_stopped,
        stops_not_shown_stopped: not_shown_stopped(&records, &marks.stops),
        stop_frames,
        skew,
        reconnect,
        baseline,
        after: fleet.after.clone(),
    };
    let passed = report.passed();
    Ok(Outcome { scenario: "clock", passed, human: report.human(), report: serde_json::to_value(&report)? })
}

/// The displays: every `--reconnect-every`th in the sample that reconnects.
fn display_options(
    args: &ClockArgs,
    endpoints: Vec<Arc<Endpoint>>,
    sources: Arc<SourcePool>,
    topic: &str,
) -> DisplayFleetOptions {
    DisplayFleetOptions {
        endpoints,
        count: args.displays,
        topic: Arc::from(topic),
        concurrency: args.net.concurrency,
        sources,
        sync: SyncPlan {
            pings: args.pings.max(1),
            gap: Duration::from_millis(args.ping_gap_ms),
            every: Duration::from_secs(args.ping_every.max(1)),
        },
        timeout: args.net.timeout(),
        sample_every: args.reconnect_every,
    }
}

/// `--cycles` cycles; then, with a sample, its reconnect and
/// `--cycles-after` more.
async fn run_cycles(args: &ClockArgs, console: &mut Console, fleet: &mut DisplayFleet) -> Result<Cycles> {
    let mut marks = Marks::default();
    let before_from = epoch_ms();
    for c in 0..args.cycles {
        info!(cycle = c + 1, of = args.cycles, "start, run, stop");
        cycle(args, console, fleet, &mut marks).await?;
    }
    let before = (before_from, epoch_ms());
    let mut after = None;
    if !fleet.sample.is_empty() {
        info!(displays = fleet.sample.len(), "reconnecting a sample of displays");
        let reconnect = fleet.reconnect(args.net.timeout()).await;
        let from = epoch_ms();
        for c in 0..args.cycles_after {
            info!(cycle = c + 1, of = args.cycles_after, "after the reconnect: start, run, stop");
            cycle(args, console, fleet, &mut marks).await?;
        }
        after = Some((reconnect, (from, epoch_ms())));
    }
    Ok(Cycles { marks, before, after })
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
