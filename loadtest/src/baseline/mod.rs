//! `--baseline`: a scenario measured against Rinkside and against the floor
//! ([`crate::floor`]) in the same invocation, so the comparison does not
//! drift with the machine's load the way absolute numbers do.
//!
//! The floor runs as a child process of this same binary
//! ([`FloorProcess`]), so its resident memory is its own and it competes for
//! the CPUs like Rinkside does. The rounds alternate — Rinkside, floor,
//! Rinkside, floor, … — each with fresh subscriber sockets. During a
//! Rinkside round one extra socket ([`Probe`]) keeps the frames it receives;
//! the floor round after it sends the same documents ([`Mirror`]) with
//! update frames of exactly the same length and seeds the same snapshot, so
//! both servers put the same bytes on the same number of sockets (the floor
//! round has its probe too, to show the sizes matched). Then [`compare`]
//! pools each server's rounds and gives the ratios Rinkside / floor.
//!
//! - [`floor_process`]: the floor as a child process, and its publish and
//!   document endpoints;
//! - [`probe`]: the socket that keeps a round's frames, and their sizes;
//! - [`mirror`]: what the floor sends, made from what the probe kept;
//! - [`compare`]: the pooled sides, the ratios and their table;
//! - [`alternate`]: the rounds of a scenario, alone or in turns with the
//!   floor's.

mod alternate;
mod compare;
mod floor_process;
mod mirror;
mod probe;

pub use alternate::{Floor, Rounds, Turn, run};
pub use compare::{compare, ratio, times_x};
pub use floor_process::{FloorClient, FloorProcess};
pub use mirror::{Mirror, MirrorFrame, data_of};
pub use probe::{Captured, FrameStats, Probe};

use serde::Serialize;

use crate::deliveries::DeliveryPool;
use crate::scenario::{Memory, Outcome};
use crate::stats::Recorder;

/// Which server a round ran against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Server {
    Rinkside,
    Floor,
}

impl std::fmt::Display for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // `pad`, so the comparison's table can align it.
        f.pad(match self {
            Server::Rinkside => "rinkside",
            Server::Floor => "floor",
        })
    }
}

/// One round of a scenario that takes `--baseline`: its own report, and
/// what the comparison needs of it.
pub struct RoundOut<R> {
    pub report: R,
    pub passed: bool,
    pub human: String,
    pub pool: DeliveryPool,
    pub requests: Recorder,
    pub captured: Option<Captured>,
    pub memory: Option<Memory>,
    /// The server's CPU seconds over the round's changes (`--server-pid`).
    pub cpu_seconds: Option<f64>,
}

impl<R: Serialize> RoundOut<R> {
    /// The round as the whole run's outcome (no `--baseline`).
    pub fn into_outcome(self, scenario: &'static str) -> anyhow::Result<Outcome> {
        Ok(Outcome { scenario, passed: self.passed, report: serde_json::to_value(&self.report)?, human: self.human })
    }
}

impl<R> RoundOut<R> {
    /// The round as the baseline comparison sees it (it takes the frames
    /// the probe kept).
    pub fn take_round(&mut self, server: Server, round: usize, url: &str) -> Round {
        Round {
            server,
            round,
            url: url.to_owned(),
            passed: self.passed,
            pool: self.pool.clone(),
            requests: self.requests.clone(),
            captured: self.captured.take().unwrap_or_default(),
            memory: self.memory.clone(),
            cpu_seconds: self.cpu_seconds,
        }
    }
}

/// One round as the comparison sees it.
pub struct Round {
    pub server: Server,
    /// 1-based, per server.
    pub round: usize,
    pub url: String,
    /// The round's own checks passed.
    pub passed: bool,
    pub pool: DeliveryPool,
    /// Round trips of the requests that made the changes (Rinkside's RSVPs
    /// or goals, the floor's publishes): part of every time to last.
    pub requests: Recorder,
    pub captured: Captured,
    /// Measured in each server's first round only (see [`compare::Side`]).
    pub memory: Option<Memory>,
    pub cpu_seconds: Option<f64>,
}
