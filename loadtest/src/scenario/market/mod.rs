//! `market`: the sub market (docs/statuses.md) under a realistic amount of
//! data. Starts its own node (SQLite file or a fresh PostgreSQL schema),
//! seeds upcoming events, teams and thousands of statuses over HTTP, then:
//!
//! 1. times board reads (`GET /statuses`) with a mix of filters, checks what
//!    they answer against the filter, walks the whole board once, and times
//!    `GET /me/matches` for subs;
//! 2. opens `--subs` sockets of goalie subs on `matches` and times how fast
//!    an event going short of its goalie (the goalie declines) reaches every
//!    one of them as an `upsert`, and the refill (the goalie back) as a
//!    `drop`, for a few rounds.
//!
//! The posts push matches in the background, after their answer; the run
//! waits for the node's CPU to go quiet before it measures, and reports how
//! long that took.
//!
//! - [`seed`]: the captains, facilities, events, teams, persons, statuses;
//! - [`quiet`]: waiting for the node's background pushes to end;
//! - [`board`]: the board walk, the filtered board reads, the matches reads;
//! - [`pushes`]: the subs' sockets and the goalie spot's rounds;
//! - [`report`]: the report, its verdict and text.

mod board;
mod pushes;
mod quiet;
mod report;
mod seed;

use std::sync::Arc;
use std::time::Duration;

use anyhow::{Result, bail};
use chrono::{DateTime, SecondsFormat, Utc};
use tracing::warn;

use self::board::{read_board, read_matches, walk_board};
use self::pushes::{Pushes, push_rounds};
use self::quiet::wait_quiet_if;
use self::report::Report;
use self::seed::seed;
use super::Outcome;
use super::own_node::with_own_node;
use crate::api::{Api, run_tag};
use crate::cli::MarketArgs;
use crate::net::{Endpoint, raise_nofile};

const HOUR_MS: i64 = 3_600_000;
const DAY_MS: i64 = 24 * HOUR_MS;

/// An RFC 3339 UTC time `ms` from `now`.
fn at(now: DateTime<Utc>, ms: i64) -> String {
    (now + chrono::Duration::milliseconds(ms)).to_rfc3339_opts(SecondsFormat::Secs, true)
}

pub async fn run(args: MarketArgs) -> Result<Outcome> {
    if args.subs == 0 || args.rounds == 0 || args.facilities == 0 || args.teams == 0 {
        bail!("--subs, --rounds, --facilities and --teams must be positive");
    }
    if args.statuses < 2 * args.teams {
        bail!("--statuses must be at least twice --teams (each team posts two)");
    }
    // The node inherits the limit: it holds every sub's socket too.
    raise_nofile(args.subs + 2 * args.setup_concurrency + 2_048)?;
    let tag = run_tag();
    if let Some(url) = &args.url {
        let report = measure(&args, &tag, url, None, "external").await?;
        return Ok(report.into_outcome());
    }
    let (mut report, panics) = with_own_node(&args.node, args.log_dir.as_ref(), "market", &tag, async |node| {
        measure(&args, &tag, &node.url, node.pid, node.label).await
    })
    .await?;
    report.node_panics = panics;
    Ok(report.into_outcome())
}

/// Seeds, waits for the node to go quiet, reads the board and the
/// matches, then times the pushes.
async fn measure(args: &MarketArgs, tag: &str, url: &str, pid: Option<u32>, label: &str) -> Result<Report> {
    let endpoint = Arc::new(Endpoint::resolve(url).await?);
    let api = Api::new(endpoint.base_str())?;
    let seeded = seed(args, tag, &api).await?;
    let quiet_after_seeding = wait_quiet_if(pid, Duration::from_secs(args.quiet_timeout)).await?;

    let walk = walk_board(&api, &seeded.reader.token).await?;
    if walk.statuses != seeded.report.statuses_created || walk.duplicates > 0 {
        warn!(listed = walk.statuses, created = seeded.report.statuses_created, "the board does not list every status");
    }
    let board = read_board(args, &api, &seeded).await;
    let (matches, matches_items_mean) = read_matches(args, &api, &seeded).await;

    let mut pushes = Pushes::default();
    let quiet_after_subs = push_rounds(args, tag, &api, &endpoint, pid, &mut pushes).await?;

    Ok(Report {
        database: label.to_string(),
        url: url.to_string(),
        server_pid: pid,
        seeding: seeded.report,
        quiet_after_seeding,
        walk,
        board: board.overall,
        board_by_filter: board.by_filter,
        board_violations: board.violations,
        board_violation_samples: board.samples,
        board_errors: board.errors,
        matches,
        matches_items_mean,
        quiet_after_subs,
        pushes,
        node_panics: Vec::new(),
    })
}
