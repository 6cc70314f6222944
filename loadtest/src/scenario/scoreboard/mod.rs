//! `scoreboard`: a live game watched by N signed-out arena displays while a
//! score keeper posts goals at a steady rate. Goals overlap in flight, so each
//! is matched to deliveries by the version its answer carries. With
//! `--baseline` the same rounds run against the floor too, alternately
//! ([`crate::baseline`]).

//!
//! - [`goals`]: the game, the score keeper (or the floor in its place), the
//!   goals posted open loop and what their answers came to;
//! - [`audience`]: the displays, here or over child processes.

mod audience;
mod goals;

use std::sync::Arc;
use std::time::Duration;

use anyhow::{Result, bail};
use serde::Serialize;
use tracing::{info, warn};

use self::audience::{Audience, ChildSummary};
use self::goals::{Scored, Scorer, post_goals};
use super::game::{LOAD_TEST, set_up_game};
use super::{CpuClock, Memory, NodesMemory, Outcome, prepare_sockets_over, rss_after_nodes, rss_before_nodes};
use crate::api::{Api, Session, run_tag};
use crate::baseline::{self, Floor, FrameStats, Mirror, Probe, RoundOut, Rounds, Turn};
use crate::cli::ScoreboardArgs;
use crate::deliveries::DeliveryAnalysis;
use crate::fleet::{AfterReport, ErrorTally, OpenReport};
use crate::net::{Endpoint, SourcePool};
use crate::stats::Summary;
use crate::ws::seq_of;

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Report {
    url: String,
    subscribe_url: String,
    game_id: String,
    open: OpenReport,
    /// With one `--server-pid`.
    memory: Option<Memory>,
    /// With several: every node's, and the bytes per connection over all.
    nodes_memory: Option<NodesMemory>,
    /// With `--processes`: each display process's part.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    processes: Vec<ChildSummary>,
    goals_requested: usize,
    goals_accepted: usize,
    goal_errors: ErrorTally,
    /// Assists every goal named.
    assists: u8,
    /// Goals per second asked for, and achieved (accepted goals over the
    /// posting window).
    rate_requested: f64,
    rate_achieved: f64,
    /// Round trip of `POST /games/{id}/actions`.
    goal_round_trip: Summary,
    deliveries: DeliveryAnalysis,
    /// The goals' update frames as one more display received them.
    update_frames: FrameStats,
    /// Goals whose version no display saw exactly (coalesced everywhere, or
    /// seq ≠ version).
    seq_not_seen_exactly: usize,
    final_home_score: Option<u32>,
    final_away_score: Option<u32>,
    after: AfterReport,
}

/// What every round shares.
struct Setup {
    api: Api,
    /// The nodes the displays connect to, as given, and resolved.
    subscribe_urls: Vec<String>,
    sub_eps: Vec<Arc<Endpoint>>,
    sources: Arc<SourcePool>,
    tag: String,
    organiser: Session,
}

impl Setup {
    async fn prepare(args: &ScoreboardArgs) -> Result<Self> {
        let api_ep = Endpoint::resolve(&args.url).await?;
        let subscribe_urls =
            if args.subscribe_url.is_empty() { vec![args.url.clone()] } else { args.subscribe_url.clone() };
        let mut sub_eps = Vec::new();
        for url in &subscribe_urls {
            sub_eps.push(Arc::new(Endpoint::resolve(url).await?));
        }
        // The displays of this process and a probe.
        let here = if args.processes > 1 { 1 } else { args.subscribers + 1 };
        let sources = prepare_sockets_over(&args.net, &sub_eps, here)?;
        let api = Api::new(api_ep.base_str())?;
        let tag = run_tag();
        let organiser = api.dev_token(&format!("lt{tag}keeper")).await?;
        Ok(Self { api, subscribe_urls, sub_eps, sources, tag, organiser })
    }

    /// The subscribe nodes, for the report.
    fn subscribe_url(&self) -> String {
        self.subscribe_urls.join(", ")
    }
}

/// Which server a round runs against.
enum Target<'a> {
    /// A fresh game, named after this tag.
    Rinkside { tag: String },
    /// The topic and frames of the Rinkside round before.
    Floor { floor: &'a Floor<'a>, topic: String, mirror: Arc<Mirror> },
}

/// The scenario's rounds, for [`baseline::run`].
struct Scoreboard<'a> {
    args: &'a ScoreboardArgs,
    setup: Setup,
}

pub async fn run(args: ScoreboardArgs) -> Result<Outcome> {
    if !(args.rate.is_finite() && args.rate > 0.0) {
        bail!("--rate must be a positive number of goals per second");
    }
    if args.baseline.baseline && args.subscribe_url.len() > 1 {
        bail!("--baseline compares one subscribe node with the floor; give one --subscribe-url");
    }
    let setup = Setup::prepare(&args).await?;
    baseline::run(&Scoreboard { args: &args, setup }, &args.baseline).await
}

impl Rounds for Scoreboard<'_> {
    type Report = Report;
    const SCENARIO: &'static str = "scoreboard";

    fn rinkside_url(&self) -> String {
        self.setup.subscribe_url()
    }

    /// A fresh game for every round of a baseline.
    async fn rinkside(&self, turn: Turn) -> Result<RoundOut<Report>> {
        let tag = if turn.baseline { format!("{}r{}", self.setup.tag, turn.round) } else { self.setup.tag.clone() };
        run_round(self.args, &self.setup, &Target::Rinkside { tag }, turn.measures_memory()).await
    }

    async fn floor(
        &self,
        turn: Turn,
        floor: &Floor<'_>,
        mirror: Arc<Mirror>,
        rinkside: &Report,
    ) -> Result<RoundOut<Report>> {
        let target = Target::Floor { floor, topic: format!("game:{}", rinkside.game_id), mirror };
        run_round(self.args, &self.setup, &target, turn.measures_memory()).await
    }
}

/// The game a round watches, where, and who scores in it.
struct Watched {
    scorer: Scorer,
    topic: String,
    game_id: String,
    /// Where the goals go.
    url: String,
    /// The nodes the displays connect to, as given, and resolved.
    urls: Vec<String>,
    endpoints: Vec<Arc<Endpoint>>,
    /// The watched nodes' pids, for their memory and CPU time.
    pids: Vec<u32>,
}

impl Target<'_> {
    /// Rinkside: a fresh game; the floor: the topic of Rinkside's round
    /// before, its snapshot document set first.
    async fn watched(&self, args: &ScoreboardArgs, setup: &Setup) -> Result<Watched> {
        match self {
            Target::Rinkside { tag } => {
                let game = Arc::new(set_up_game(&setup.api, &setup.organiser, &LOAD_TEST, tag, args.players).await?);
                Ok(Watched {
                    topic: format!("game:{}", game.id),
                    game_id: game.id.clone(),
                    scorer: Scorer::Rinkside {
                        api: setup.api.clone(),
                        token: setup.organiser.token.clone(),
                        game,
                        assists: usize::from(args.assists),
                    },
                    url: args.url.clone(),
                    urls: setup.subscribe_urls.clone(),
                    endpoints: setup.sub_eps.clone(),
                    pids: args.server_pid.clone(),
                })
            }
            Target::Floor { floor, topic, mirror } => {
                if let Some(doc) = &mirror.snapshot_data {
                    floor.client.set_document(topic, doc).await?;
                }
                let scorer = Scorer::Floor {
                    client: floor.client.clone(),
                    topic: Arc::from(topic.as_str()),
                    mirror: mirror.clone(),
                };
                Ok(Watched {
                    scorer,
                    topic: topic.clone(),
                    game_id: topic.trim_start_matches("game:").to_owned(),
                    url: floor.process.url.clone(),
                    urls: vec![floor.process.url.clone()],
                    endpoints: vec![floor.endpoint.clone()],
                    // The floor's memory is measured when Rinkside's is.
                    pids: if args.server_pid.is_empty() { Vec::new() } else { vec![floor.process.pid] },
                })
            }
        }
    }
}

/// One round: the displays open, `--goals` goals at `--rate`, every goal
/// followed to every display.
async fn run_round(
    args: &ScoreboardArgs,
    setup: &Setup,
    target: &Target<'_>,
    memory: bool,
) -> Result<RoundOut<Report>> {
    let watched = target.watched(args, setup).await?;
    let topic = &watched.topic;
    let pids = if memory { watched.pids.clone() } else { Vec::new() };
    let before = rss_before_nodes(&pids);
    let (mut audience, open) =
        Audience::open(args, &watched.urls, &watched.endpoints, setup.sources.clone(), topic).await?;
    let nodes_memory = rss_after_nodes(before, open.subscribed).await;
    // One more socket keeps the frames: their sizes, and what the floor
    // sends in a baseline round.
    let probe = Probe::open(&watched.endpoints[0], setup.sources.next(), None, topic, args.net.timeout()).await?;

    info!(goals = args.goals, rate = args.rate, url = %watched.urls.join(", "), "scoring");
    let cpu = CpuClock::start(pids.first().copied().filter(|_| pids.len() == 1));
    let posting = tokio::spawn(post_goals(watched.scorer.clone(), args.goals, args.rate));
    let scored = Scored::of(&audience.watch(posting).await?);
    let seen = audience.finish(&scored.marks, Duration::from_secs(args.settle_timeout.max(1))).await?;
    let cpu_seconds = CpuClock::stop(cpu);
    let captured = probe.finish(args.goals).await;
    // Without the displays' logs (child processes), the probe tells whether
    // update seqs are the answers' versions.
    let exactly_seen = seen.exactly.unwrap_or_else(|| {
        let seqs: Vec<u64> = captured.updates.iter().filter_map(|f| seq_of(f)).collect();
        scored.marks.iter().map(|m| seqs.contains(&m.seq)).collect()
    });
    let state = match &watched.scorer {
        Scorer::Rinkside { api, game, .. } => {
            api.game_state(&game.id).await.inspect_err(|e| warn!("reading the final game state: {e:#}")).ok()
        }
        Scorer::Floor { .. } => None,
    };

    let memory = match nodes_memory.as_ref() {
        Some(m) if m.nodes.len() == 1 => m.nodes.first().cloned(),
        _ => None,
    };
    let report = Report {
        url: watched.url,
        subscribe_url: watched.urls.join(", "),
        game_id: watched.game_id,
        open,
        memory,
        nodes_memory: nodes_memory.filter(|m| m.nodes.len() > 1),
        processes: seen.children,
        goals_requested: args.goals,
        goals_accepted: scored.marks.len(),
        goal_errors: scored.errors.clone(),
        assists: args.assists,
        rate_requested: args.rate,
        rate_achieved: scored.rate(),
        goal_round_trip: scored.round_trip.summary(),
        deliveries: seen.pool.analysis(),
        update_frames: FrameStats::of(captured.updates.iter().map(String::len)),
        seq_not_seen_exactly: exactly_seen.iter().filter(|seen| !**seen).count(),
        final_home_score: state.as_ref().map(|s| s.home_score),
        final_away_score: state.as_ref().map(|s| s.away_score),
        after: seen.after,
    };
    let score_total = report.final_home_score.zip(report.final_away_score).map(|(h, a)| (h + a) as usize);
    let score_ok = score_total.is_none_or(|t| t == report.goals_accepted);
    let passed = report.open.failed == 0
        && report.goal_errors.is_empty()
        && report.deliveries.missed == 0
        && score_ok
        && report.after.clean()
        && report.processes.iter().all(|c| c.passed);
    let human = human(&report, score_ok);
    let memory = report.memory.clone();
    Ok(RoundOut {
        report,
        passed,
        human,
        pool: seen.pool,
        requests: scored.round_trip,
        captured: Some(captured),
        memory,
        cpu_seconds,
    })
}

fn human(report: &Report, score_ok: bool) -> String {
    let d = &report.deliveries;
    let mut human = format!(
        "scoreboard — {} displays on {} watching game {}, {} goals at {}/s via {}\n",
        report.open.requested,
        report.subscribe_url,
        report.game_id,
        report.goals_requested,
        report.rate_requested,
        report.url,
    );
    human.push_str(&report.open.human());
    for (i, c) in report.processes.iter().enumerate() {
        human.push_str(&format!(
            "  process {}     {} of {} subscribed in {:.1} s; per delivery {}{}\n",
            i + 1,
            c.open.subscribed,
            c.open.requested,
            c.open.ramp_seconds,
            c.per_delivery,
            if c.passed { "" } else { "  ! failed its checks" },
        ));
    }
    if let Some(m) = &report.memory {
        human.push_str(&m.human());
    }
    if let Some(m) = &report.nodes_memory {
        human.push_str(&m.human());
    }
    human.push_str(&format!(
        "  goal frames   {:.0} bytes (min {}, max {}) as received, {} assists a goal\n",
        report.update_frames.mean_bytes, report.update_frames.min_bytes, report.update_frames.max_bytes, report.assists
    ));
    human.push_str(&format!(
        "  goals         {} accepted of {}, achieved {:.2}/s\n  goal rtt      {}\n  time to last  {}\n  per delivery  {}\n  throughput    {:.0} deliveries/s while fanning out ({} deliveries in {:.2} s)\n  completeness  {} missed, {} coalesced (delivered by a later state)\n",
        report.goals_accepted,
        report.goals_requested,
        report.rate_achieved,
        report.goal_round_trip,
        d.time_to_last,
        d.per_delivery,
        d.deliveries_per_sec,
        d.delivered,
        d.fanout_seconds,
        d.missed,
        d.coalesced,
    ));
    if let (Some(h), Some(a)) = (report.final_home_score, report.final_away_score) {
        human.push_str(&format!(
            "  final score   {h}–{a}{}\n",
            if score_ok { "" } else { "  ! does not add up to the accepted goals" }
        ));
    }
    if !report.goal_errors.is_empty() {
        human.push_str("    goal errors:\n");
        human.push_str(&report.goal_errors.lines());
    }
    if report.seq_not_seen_exactly > 0 {
        human.push_str(&format!(
            "  note          {} goals' versions were never seen exactly (coalesced everywhere, or seq ≠ version)\n",
            report.seq_not_seen_exactly
        ));
    }
    human.push_str(&report.after.human());
    human
}
