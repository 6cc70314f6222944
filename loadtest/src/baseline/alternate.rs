//! The rounds of a scenario that takes `--baseline` (`fanout`,
//! `scoreboard`): without it, one Rinkside round is the run; with it,
//! Rinkside and the floor take turns — Rinkside, floor, Rinkside, floor, …
//! — each floor round sending what the Rinkside round before it received
//! ([`Mirror`]), and the report is Rinkside's first round plus the
//! comparison.

use std::sync::Arc;

use anyhow::{Result, anyhow};
use serde::Serialize;
use tracing::info;

use super::{FloorClient, FloorProcess, Mirror, RoundOut, Server, compare};
use crate::cli::BaselineArgs;
use crate::net::Endpoint;
use crate::scenario::Outcome;

/// Which round a scenario is asked to run.
#[derive(Debug, Clone, Copy)]
pub struct Turn {
    /// 1-based, per server.
    pub round: usize,
    /// Part of a `--baseline` comparison: one more socket keeps Rinkside's
    /// frames for the floor's round.
    pub baseline: bool,
}

impl Turn {
    /// Read the server's RSS around the connection phase (when a pid is
    /// given) in the first round only: later ones reuse memory the
    /// allocator kept, and their RSS difference understates.
    pub fn measures_memory(self) -> bool {
        self.round == 1
    }
}

/// The floor a baseline runs against: the process, its address resolved,
/// and its publish endpoint.
pub struct Floor<'a> {
    pub process: &'a FloorProcess,
    pub endpoint: Arc<Endpoint>,
    pub client: FloorClient,
}

/// A scenario whose rounds run against Rinkside or the floor.
pub trait Rounds {
    type Report: Serialize;

    /// The scenario's name in its outcome.
    const SCENARIO: &'static str;

    /// Where Rinkside's rounds are watched, for the comparison.
    fn rinkside_url(&self) -> String;

    /// A round on Rinkside.
    async fn rinkside(&self, turn: Turn) -> Result<RoundOut<Self::Report>>;

    /// A round on the floor, right after Rinkside's round `rinkside`:
    /// sends `mirror`, what that round's probe received.
    async fn floor(
        &self,
        turn: Turn,
        floor: &Floor<'_>,
        mirror: Arc<Mirror>,
        rinkside: &Self::Report,
    ) -> Result<RoundOut<Self::Report>>;
}

/// The run of `scenario`: one Rinkside round, or with `--baseline` the
/// rounds in turns against a floor started for them (and stopped after).
pub async fn run<S: Rounds>(scenario: &S, args: &BaselineArgs) -> Result<Outcome> {
    if !args.baseline {
        return scenario.rinkside(Turn { round: 1, baseline: false }).await?.into_outcome(S::SCENARIO);
    }
    let floor = FloorProcess::start().await?;
    let result = alternate(scenario, args.rounds.max(1), &floor).await;
    floor.stop().await;
    result
}

/// Rinkside and the floor in turns, `rounds` each.
async fn alternate<S: Rounds>(scenario: &S, rounds: usize, process: &FloorProcess) -> Result<Outcome> {
    let client = FloorClient::new(&process.url)?;
    let floor = Floor { process, endpoint: Arc::new(Endpoint::resolve(&process.url).await?), client };
    let mut all = Vec::new();
    let mut first: Option<RoundOut<S::Report>> = None;
    for round in 1..=rounds {
        let turn = Turn { round, baseline: true };
        info!(round, "baseline: Rinkside's round");
        let mut out = scenario.rinkside(turn).await?;
        let rinkside = out.take_round(Server::Rinkside, round, &scenario.rinkside_url());
        let mirror = Arc::new(Mirror::from_captured(&rinkside.captured)?);
        all.push(rinkside);

        info!(round, "baseline: the floor's round");
        let mut floor_out = scenario.floor(turn, &floor, mirror, &out.report).await?;
        all.push(floor_out.take_round(Server::Floor, round, &process.url));
        first.get_or_insert(out);
    }
    let comparison = compare(&process.url, process.pid, &all);
    let first = first.ok_or_else(|| anyhow!("no round ran"))?;
    let mut report = serde_json::to_value(&first.report)?;
    report["baseline"] = serde_json::to_value(&comparison)?;
    Ok(Outcome {
        scenario: S::SCENARIO,
        passed: all.iter().all(|r| r.passed),
        report,
        human: format!("{}{}", first.human, comparison.human()),
    })
}
