//! `scoreboard`: a live game watched by N signed-out arena displays while a
//! score keeper posts goals at a steady rate. Goals overlap in flight, so each
//! is matched to deliveries by the version its answer carries. With
//! `--baseline` the same rounds run against the floor too, alternately
//! ([`crate::baseline`]).

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Result, anyhow, bail};
use serde::Serialize;
use serde_json::json;
use tokio::task::JoinSet;
use tracing::{info, warn};

use super::{
    CpuClock, Memory, NodesMemory, Outcome, fleet_options, prepare_sockets_over, rss_after_nodes, rss_before_nodes,
};
use crate::api::{Api, Session, run_tag};
use crate::baseline::{FloorClient, FloorProcess, FrameStats, Mirror, Probe, RoundOut, Server, compare};
use crate::cli::ScoreboardArgs;
use crate::deliveries::{DeliveryAnalysis, DeliveryPool, DeliveryShare, Mark};
use crate::fleet::{AfterReport, ErrorTally, Fleet, OpenReport};
use crate::net::{Endpoint, SourcePool};
use crate::shard::Children;
use crate::stats::{Recorder, Summary};

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

/// Everything the goals need: who scores for whom.
pub(super) struct Game {
    pub id: String,
    /// `(rosterId, player userIds)` for home and away.
    pub sides: [(String, Vec<String>); 2],
}

/// A facility, an active season, two rosters of `players` and a started
/// game between them (also the `clock` scenario's game).
pub(super) async fn set_up(api: &Api, organiser: &Session, tag: &str, players: usize) -> Result<Game> {
    let t = &organiser.token;
    let facility = api.create_facility(t, &format!("Load test rink {tag}")).await?;
    let season = api.create_season(t, &facility, &format!("Load test season {tag}")).await?;
    let mut sides = Vec::new();
    for side in ["Home", "Away"] {
        let team = api.create_team(t, &format!("Load test {side} {tag}"), &facility).await?;
        let roster = api.create_roster(t, &team, &season, &format!("{side} {tag}")).await?;
        let mut ids = Vec::new();
        for j in 0..players {
            let player = api.dev_token(&format!("lt{tag}{}{j}", &side[..1].to_lowercase())).await?;
            let jersey = u32::try_from(j + 1).unwrap_or(99);
            api.add_player(t, &roster, &player.user_id, jersey).await?;
            ids.push(player.user_id);
        }
        sides.push((roster, ids));
    }
    let [home, away]: [(String, Vec<String>); 2] = match sides.try_into() {
        Ok(s) => s,
        Err(_) => bail!("expected two rosters"),
    };
    let id = api.create_game(t, &home.0, &away.0, &season).await?;
    let started = api.game_action(t, &id, json!({ "type": "START" })).await?;
    info!(game_id = %id, status = %started.status, "game started");
    Ok(Game { id, sides: [home, away] })
}

/// The GOAL body for goal number `n`: sides alternate, scorers rotate, and
/// up to `assists` of the players after the scorer assist.
fn goal_body(game: &Game, n: usize, assists: usize) -> serde_json::Value {
    let (roster, players) = &game.sides[n % 2];
    let mut body = json!({ "type": "GOAL", "rosterId": roster });
    if !players.is_empty() {
        let scorer = (n / 2) % players.len();
        body["scorerId"] = json!(players[scorer]);
        let helpers: Vec<&String> =
            (1..players.len()).take(assists).map(|k| &players[(scorer + k) % players.len()]).collect();
        if !helpers.is_empty() {
            body["assistIds"] = json!(helpers);
        }
    }
    body
}

/// Who makes the goals: Rinkside's score keeper, or the floor's publish
/// endpoint sending the frames Rinkside sent for them.
#[derive(Clone)]
enum Scorer {
    Rinkside { api: Api, token: String, game: Arc<Game>, assists: usize },
    Floor { client: FloorClient, topic: Arc<str>, mirror: Arc<Mirror> },
}

impl Scorer {
    /// Goal number `n`: the seq (version) its update carries.
    async fn score(&self, n: usize) -> Result<u64> {
        match self {
            Scorer::Rinkside { api, token, game, assists } => {
                Ok(api.game_action(token, &game.id, goal_body(game, n, *assists)).await?.version)
            }
            Scorer::Floor { client, topic, mirror } => Ok(client.publish(topic, mirror.update(n)).await?.seq),
        }
    }
}

struct Posted {
    sent_at: Instant,
    answered_at: Instant,
    result: Result<u64>,
}

/// Posts `goals` goals at `rate` per second, each in its own task so a slow
/// answer never delays the next goal (open loop).
async fn post_goals(scorer: Scorer, goals: usize, rate: f64) -> Vec<Posted> {
    let period = Duration::from_secs_f64(1.0 / rate);
    let mut tick = tokio::time::interval(period);
    let mut posts = JoinSet::new();
    for n in 0..goals {
        tick.tick().await;
        let scorer = scorer.clone();
        posts.spawn(async move {
            let sent_at = Instant::now();
            let result = scorer.score(n).await;
            Posted { sent_at, answered_at: Instant::now(), result }
        });
    }
    let mut out = Vec::with_capacity(goals);
    while let Some(joined) = posts.join_next().await {
        match joined {
            Ok(p) => out.push(p),
            Err(e) => warn!("goal task failed: {e}"),
        }
    }
    out
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
    Floor { floor: &'a FloorProcess, endpoint: Arc<Endpoint>, client: FloorClient, topic: String, mirror: Arc<Mirror> },
}

/// How a round runs.
#[derive(Debug, Clone, Copy)]
struct Plan {
    /// Read the server's RSS around the connection phase (with
    /// `--server-pid`).
    memory: bool,
}

pub async fn run(args: ScoreboardArgs) -> Result<Outcome> {
    if !(args.rate.is_finite() && args.rate > 0.0) {
        bail!("--rate must be a positive number of goals per second");
    }
    if args.baseline.baseline && args.subscribe_url.len() > 1 {
        bail!("--baseline compares one subscribe node with the floor; give one --subscribe-url");
    }
    let setup = Setup::prepare(&args).await?;
    if !args.baseline.baseline {
        let plan = Plan { memory: true };
        let out = run_round(&args, &setup, &Target::Rinkside { tag: setup.tag.clone() }, plan).await?;
        return Ok(Outcome {
            scenario: "scoreboard",
            passed: out.passed,
            report: serde_json::to_value(&out.report)?,
            human: out.human,
        });
    }

    let floor = FloorProcess::start().await?;
    let result = run_baseline(&args, &setup, &floor).await;
    floor.stop().await;
    result
}

/// Rinkside and the floor in turns, a fresh game for every Rinkside round;
/// the report is Rinkside's first round plus the comparison.
async fn run_baseline(args: &ScoreboardArgs, setup: &Setup, floor: &FloorProcess) -> Result<Outcome> {
    let client = FloorClient::new(&floor.url)?;
    let floor_ep = Arc::new(Endpoint::resolve(&floor.url).await?);
    let mut rounds = Vec::new();
    let mut first: Option<RoundOut<Report>> = None;
    for round in 1..=args.baseline.rounds.max(1) {
        info!(round, "baseline: Rinkside's round");
        let target = Target::Rinkside { tag: format!("{}r{round}", setup.tag) };
        // Memory in the first round only: later ones reuse what the
        // allocator kept, and their RSS difference understates.
        let plan = Plan { memory: round == 1 };
        let mut out = run_round(args, setup, &target, plan).await?;
        let rinkside = out.take_round(Server::Rinkside, round, &setup.subscribe_url());
        let mirror = Arc::new(Mirror::from_captured(&rinkside.captured)?);
        let topic = format!("game:{}", out.report.game_id);
        rounds.push(rinkside);
        first.get_or_insert(out);

        info!(round, "baseline: the floor's round");
        let target = Target::Floor { floor, endpoint: floor_ep.clone(), client: client.clone(), topic, mirror };
        let mut out = run_round(args, setup, &target, plan).await?;
        rounds.push(out.take_round(Server::Floor, round, &floor.url));
    }
    let comparison = compare(&floor.url, floor.pid, &rounds);
    let first = first.ok_or_else(|| anyhow!("no round ran"))?;
    let mut report = serde_json::to_value(&first.report)?;
    report["baseline"] = serde_json::to_value(&comparison)?;
    Ok(Outcome {
        scenario: "scoreboard",
        passed: rounds.iter().all(|r| r.passed),
        report,
        human: format!("{}{}", first.human, comparison.human()),
    })
}

/// Who watches: sockets in this process, or in child processes
/// (`--processes`).
enum Audience {
    Here(Box<Fleet>),
    Children(Children),
}

/// A child's part of the report.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ChildSummary {
    passed: bool,
    open: OpenReport,
    per_delivery: Summary,
    delivered: u64,
    missed: u64,
    after: AfterReport,
}

async fn run_round(args: &ScoreboardArgs, setup: &Setup, target: &Target<'_>, plan: Plan) -> Result<RoundOut<Report>> {
    let (scorer, topic, game_id, url, subscribe_url, endpoints, pids) = match target {
        Target::Rinkside { tag } => {
            let game = Arc::new(set_up(&setup.api, &setup.organiser, tag, args.players).await?);
            let topic = format!("game:{}", game.id);
            let game_id = game.id.clone();
            let scorer = Scorer::Rinkside {
                api: setup.api.clone(),
                token: setup.organiser.token.clone(),
                game,
                assists: usize::from(args.assists),
            };
            (
                scorer,
                topic,
                game_id,
                args.url.clone(),
                setup.subscribe_url(),
                setup.sub_eps.clone(),
                args.server_pid.clone(),
            )
        }
        Target::Floor { floor, endpoint, client, topic, mirror } => {
            if let Some(doc) = &mirror.snapshot_data {
                client.set_document(topic, doc).await?;
            }
            let scorer =
                Scorer::Floor { client: client.clone(), topic: Arc::from(topic.as_str()), mirror: mirror.clone() };
            let game_id = topic.trim_start_matches("game:").to_owned();
            // The floor's memory is measured when Rinkside's is.
            let pids = if args.server_pid.is_empty() { Vec::new() } else { vec![floor.pid] };
            (scorer, topic.clone(), game_id, floor.url.clone(), floor.url.clone(), vec![endpoint.clone()], pids)
        }
    };

    let pids = if plan.memory { pids } else { Vec::new() };
    let before = rss_before_nodes(&pids);
    let (mut audience, open) = if args.processes > 1 {
        let urls = match target {
            Target::Rinkside { .. } => setup.subscribe_urls.clone(),
            Target::Floor { floor, .. } => vec![floor.url.clone()],
        };
        let (children, opened) =
            Children::start(&urls, &topic, args.subscribers, args.processes, &args.net, args.settle_timeout).await?;
        (Audience::Children(children), merge_open(&opened))
    } else {
        let mut options =
            fleet_options(&args.net, endpoints[0].clone(), setup.sources.clone(), args.subscribers, None, &topic);
        options.endpoints = endpoints.clone();
        let fleet = Fleet::open(options).await?;
        let open = fleet.open.clone();
        (Audience::Here(Box::new(fleet)), open)
    };
    let nodes_memory = rss_after_nodes(before, open.subscribed).await;
    let memory = match nodes_memory.as_ref() {
        Some(m) if m.nodes.len() == 1 => m.nodes.first().cloned(),
        _ => None,
    };
    // One more socket keeps the frames: their sizes, and what the floor
    // sends in a baseline round.
    let probe = Probe::open(&endpoints[0], setup.sources.next(), None, &topic, args.net.timeout()).await?;

    info!(goals = args.goals, rate = args.rate, url = %subscribe_url, "scoring");
    let cpu = CpuClock::start(pids.first().copied().filter(|_| pids.len() == 1));
    let poster = tokio::spawn(post_goals(scorer.clone(), args.goals, args.rate));
    tokio::pin!(poster);
    let posted = match &mut audience {
        Audience::Here(fleet) => loop {
            tokio::select! {
                done = &mut poster => break done?,
                _ = fleet.pump_one() => {}
            }
        },
        Audience::Children(_) => poster.await?,
    };

    let mut round_trip = Recorder::new();
    let mut goal_errors = ErrorTally::default();
    let mut marks = Vec::new();
    let (mut first_sent, mut last_sent) = (None::<Instant>, None::<Instant>);
    for p in &posted {
        first_sent = Some(first_sent.map_or(p.sent_at, |f| f.min(p.sent_at)));
        last_sent = Some(last_sent.map_or(p.sent_at, |l| l.max(p.sent_at)));
        match &p.result {
            Ok(seq) => {
                round_trip.record(p.answered_at.saturating_duration_since(p.sent_at));
                marks.push(Mark { seq: *seq, sent_at: p.sent_at });
            }
            Err(e) => goal_errors.add(&format!("{e:#}")),
        }
    }
    marks.sort_by_key(|m| m.seq);
    let mut pool = DeliveryPool::default();
    let mut children = Vec::new();
    let (after, exactly_seen) = match audience {
        Audience::Here(mut fleet) => {
            if let Some(top) = marks.iter().map(|m| m.seq).max() {
                fleet.collector.set_target(top);
                let deadline = tokio::time::Instant::now() + Duration::from_secs(args.settle_timeout.max(1));
                if !fleet.pump_until(deadline, |c| c.target_settled()).await {
                    warn!(
                        reached = fleet.collector.reached(),
                        of = fleet.collector.members(),
                        "the last goal did not reach every display in time"
                    );
                }
            }
            fleet.shutdown().await;
            pool.add(&marks, &fleet.collector);
            let seen: Vec<bool> = marks.iter().map(|m| fleet.collector.anyone_saw_exactly(m.seq)).collect();
            (fleet.after.clone(), Some(seen))
        }
        Audience::Children(processes) => {
            let reports = processes.finish(&marks).await?;
            let shares: Vec<DeliveryShare> = reports.iter().map(|(_, r)| r.deliveries.clone()).collect();
            pool = DeliveryPool::from_shares(&marks, &shares);
            let mut after = AfterReport::default();
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
            (after, None)
        }
    };
    let cpu_seconds = CpuClock::stop(cpu);
    let captured = probe.finish(args.goals).await;
    let update_frames = FrameStats::of(captured.updates.iter().map(String::len));
    // Without the displays' logs (child processes), the probe tells whether
    // update seqs are the answers' versions.
    let exactly_seen = exactly_seen.unwrap_or_else(|| {
        let seqs: Vec<u64> = captured.updates.iter().filter_map(|f| seq_of(f)).collect();
        marks.iter().map(|m| seqs.contains(&m.seq)).collect()
    });

    let state = match &scorer {
        Scorer::Rinkside { api, game, .. } => {
            api.game_state(&game.id).await.inspect_err(|e| warn!("reading the final game state: {e:#}")).ok()
        }
        Scorer::Floor { .. } => None,
    };
    let deliveries = pool.analysis();
    let seq_not_seen_exactly = exactly_seen.iter().filter(|seen| !**seen).count();
    let window = match (first_sent, last_sent) {
        (Some(f), Some(l)) => l.saturating_duration_since(f),
        _ => Duration::ZERO,
    };
    let accepted = marks.len();
    let report = Report {
        url,
        subscribe_url,
        game_id,
        open,
        memory,
        nodes_memory: nodes_memory.filter(|m| m.nodes.len() > 1),
        processes: children,
        goals_requested: args.goals,
        goals_accepted: accepted,
        goal_errors,
        assists: args.assists,
        rate_requested: args.rate,
        // n goals posted over the n−1 gaps between the first and the last.
        rate_achieved: if accepted > 1 && !window.is_zero() {
            (accepted - 1) as f64 / window.as_secs_f64()
        } else {
            0.0
        },
        goal_round_trip: round_trip.summary(),
        deliveries,
        update_frames,
        seq_not_seen_exactly,
        final_home_score: state.as_ref().map(|s| s.home_score),
        final_away_score: state.as_ref().map(|s| s.away_score),
        after,
    };
    let score_total = report.final_home_score.zip(report.final_away_score).map(|(h, a)| (h + a) as usize);
    let score_ok = score_total.is_none_or(|t| t == accepted);
    let passed = report.open.failed == 0
        && report.goal_errors.is_empty()
        && report.deliveries.missed == 0
        && score_ok
        && report.after.clean()
        && report.processes.iter().all(|c| c.passed);
    let human = human(&report, score_ok);
    let memory = report.memory.clone();
    Ok(RoundOut { report, passed, human, pool, requests: round_trip, captured: Some(captured), memory, cpu_seconds })
}

/// The seq of a frame's text.
fn seq_of(frame: &str) -> Option<u64> {
    serde_json::from_str::<serde_json::Value>(frame).ok()?["seq"].as_u64()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn goals_alternate_sides_and_rotate_scorers() {
        let game = Game {
            id: "g".into(),
            sides: [("home".into(), vec!["h0".into(), "h1".into()]), ("away".into(), vec!["a0".into()])],
        };
        let bodies: Vec<_> = (0..4).map(|n| goal_body(&game, n, 0)).collect();
        assert_eq!(bodies[0], json!({"type":"GOAL","rosterId":"home","scorerId":"h0"}));
        assert_eq!(bodies[1], json!({"type":"GOAL","rosterId":"away","scorerId":"a0"}));
        assert_eq!(bodies[2], json!({"type":"GOAL","rosterId":"home","scorerId":"h1"}));
        assert_eq!(bodies[3], json!({"type":"GOAL","rosterId":"away","scorerId":"a0"}));
    }

    #[test]
    fn assists_go_to_the_players_after_the_scorer_never_the_scorer() {
        let game = Game {
            id: "g".into(),
            sides: [("home".into(), vec!["h0".into(), "h1".into(), "h2".into()]), ("away".into(), vec!["a0".into()])],
        };
        assert_eq!(goal_body(&game, 2, 2)["assistIds"], json!(["h2", "h0"]));
        assert_eq!(goal_body(&game, 0, 1)["assistIds"], json!(["h1"]));
        // A roster of one has nobody to assist.
        assert_eq!(goal_body(&game, 1, 2), json!({"type":"GOAL","rosterId":"away","scorerId":"a0"}));
    }
}
