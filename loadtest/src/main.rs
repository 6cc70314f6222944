//! `rinkside-loadtest`: load scenarios against a running Rinkside server.
//!
//! A tour of the modules:
//! - [`cli`]: the command line, one subcommand per scenario.
//! - [`scenario`]: `connect`, `fanout`, `race`, `steady`, `scoreboard`, `clock`, `feed` —
//!   each sets up what it needs through the API, drives load, and returns an
//!   `Outcome`; `chaos` also starts its own cluster and breaks it while it
//!   runs; `market` starts its own node and seeds the sub market; `sides`
//!   needs no server: it times the fair-sides split (`rinkside-pickup`) in
//!   process.
//! - [`cluster`]: server nodes as child processes, a fresh schema, a
//!   private Redis, and dropping its clients; [`chaos_check`]: the verdict
//!   on a chaos run (nothing acknowledged lost, every subscriber converged).
//! - [`fleet`]: thousands of subscriber sockets on one topic (and what the
//!   displays' fleet shares with it);
//!   [`display`]: arena displays that keep a server-clock offset by
//!   ping/pong and log every clock message (`clock`).
//! - [`game_clock`]: the game clock and the offset estimate as a screen
//!   works them out; [`skew`]: how far apart displays' clocks are.
//! - [`ws`]: the WebSocket frames of CONTRACT.md, a signed-in follower of
//!   one topic, and a command connection.
//! - [`api`]: the REST calls the scenarios make.
//! - [`deliveries`]: who received which seq when, and the latencies that
//!   follow; [`race_check`]: the fairness verdict on an RSVP race.
//! - [`shard`]: `scoreboard --processes`, the displays split over child
//!   processes (the hidden `displays` subcommand) for more sockets than one
//!   process may open.
//! - [`stats`]: HdrHistogram-backed latency summaries; [`net`]: endpoints,
//!   source addresses, socket buffers, descriptor limits, server RSS.
//! - [`floor`]: the baseline server (`floor`), a bare tokio-tungstenite
//!   broadcast server speaking the contract's frames; [`baseline`]: running
//!   it beside Rinkside (`--baseline` on `fanout` and `scoreboard`) and the
//!   comparison.
//!
//! Progress is logged to stderr; the report (text, or JSON with `--json`) is
//! the program's output on stdout.

mod api;
mod baseline;
mod chaos_check;
mod cli;
mod cluster;
mod deliveries;
mod display;
mod fleet;
mod floor;
mod game_clock;
mod net;
mod race_check;
mod scenario;
mod shard;
mod skew;
mod stats;
mod ws;

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;
use tracing_subscriber::EnvFilter;

use cli::{Cli, Scenario};
use scenario::Outcome;

fn main() -> ExitCode {
    let cli = Cli::parse();
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")))
        .init();

    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            tracing::error!("cannot start the runtime: {e}");
            return ExitCode::from(2);
        }
    };
    let json = cli.json;
    match runtime.block_on(run(cli.scenario)) {
        Ok(outcome) => {
            if let Err(e) = print(&outcome, json) {
                tracing::error!("writing the report: {e}");
                return ExitCode::from(2);
            }
            if outcome.passed { ExitCode::SUCCESS } else { ExitCode::from(1) }
        }
        Err(e) => {
            tracing::error!("the scenario could not run: {e:#}");
            ExitCode::from(2)
        }
    }
}

async fn run(scenario: Scenario) -> anyhow::Result<Outcome> {
    match scenario {
        Scenario::Connect(a) => scenario::connect::run(a).await,
        Scenario::Fanout(a) => scenario::fanout::run(a).await,
        Scenario::Race(a) => scenario::race::run(a).await,
        Scenario::Steady(a) => scenario::steady::run(a).await,
        Scenario::Scoreboard(a) => scenario::scoreboard::run(a).await,
        Scenario::Clock(a) => scenario::clock::run(a).await,
        Scenario::Feed(a) => scenario::feed::run(a).await,
        Scenario::Market(a) => scenario::market::run(a).await,
        Scenario::Sync(a) => scenario::sync::run(a).await,
        Scenario::Reconnect(a) => scenario::reconnect::run(a).await,
        Scenario::Chaos(a) => scenario::chaos::run(a).await,
        Scenario::Floor(a) => floor::run(a).await,
        Scenario::Sides(a) => scenario::sides::run(a).await,
        Scenario::History(a) => scenario::history::run(a).await,
        Scenario::Chat(a) => scenario::chat::run(a).await,
        Scenario::Displays(a) => shard::run_child(a).await,
    }
}

/// The report is the program's output, so it goes to stdout (not through
/// tracing, which is for progress on stderr).
fn print(outcome: &Outcome, json: bool) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    if json {
        let doc = serde_json::json!({
            "scenario": outcome.scenario,
            "passed": outcome.passed,
            "report": outcome.report,
        });
        writeln!(out, "{doc}")
    } else {
        write!(out, "{}", outcome.human)?;
        writeln!(out, "  verdict       {}", if outcome.passed { "PASS" } else { "FAIL" })
    }
}
