//! `race`: N users, one socket each, all send an ATTENDING command at the same
//! instant to an event with a few places. Then the verdict of
//! [`crate::race_check`] on the replies and the final attendees document.
//!
//! With `--regulars-share` the event is the first week of a weekly series
//! whose regulars' window is open through the race (docs/pickup-night.md):
//! a share of the racers are on its list of regulars, and the verdict is
//! the tiered one.
//!
//! - [`setup`]: the event and the racers, their positions and regulars;
//! - [`racers`]: the sockets, the start signal, the replies;
//! - [`report`]: the report and its text.

mod racers;
mod report;
mod setup;

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};

use self::racers::Racers;
use self::report::{Report, commits, outcomes};
use self::setup::Field;
use super::{Nodes, Outcome, prepare_sockets};
use crate::api::{Api, Attendees, run_tag};
use crate::cli::RaceArgs;
use crate::race_check::{GOALIE, Limits, check};
use crate::stats::rate;

/// Dev sign-ins in flight at once (each is a database write).
const SIGN_IN_CONCURRENCY: usize = 16;

pub async fn run(args: RaceArgs) -> Result<Outcome> {
    if args.clients == 0 {
        bail!("--clients must be at least 1");
    }
    let nodes = Nodes::resolve(&args.url, args.url2.as_ref()).await?;
    let sources = prepare_sockets(&args.net, &nodes.endpoints[0], args.clients)?;
    let tag: Arc<str> = Arc::from(run_tag());
    let organiser = nodes.apis[0].dev_token(&format!("lt{tag}org")).await?;
    let field = Field::set_up(&args, &nodes, &organiser, &tag).await?;
    let (racers, connect_errors) = Racers::connect(&args, &nodes, &sources, &field, &tag).await?;
    let race = racers.race(args.clients, Duration::from_secs(args.reply_timeout.max(1))).await;

    let (doc, disagreements) = final_document(&nodes.apis, &nodes.urls, &organiser.token, &field.event_id).await?;
    let limits = Limits { skaters: Some(args.skaters), goalies: Some(args.goalies) };
    let mut violations = disagreements;
    violations.extend(check(limits, &field.requests, &race.heard, &doc));
    let ok = race.latency.count();
    let report = Report {
        urls: nodes.urls,
        event_id: field.event_id.clone(),
        clients: args.clients,
        goalie_clients: field.requests.iter().filter(|r| r.position == GOALIE).count(),
        regulars_share: args.regulars_share,
        regular_clients: field.regular_clients(),
        series_id: field.series_id,
        open_to_all_at: field.open_to_all_at,
        max_skaters: args.skaters,
        max_goalies: args.goalies,
        sign_in_retries: field.sign_in_retries,
        connect_failures: connect_errors.values().sum(),
        race_seconds: race.span.as_secs_f64(),
        replies_per_sec: rate(ok, race.span),
        reply_latency: race.latency.summary(),
        outcomes: outcomes(&race.heard),
        commits: commits(&race.heard),
        attending: doc.attending.len(),
        waitlisted: doc.waitlist.len(),
        document_version: doc.version,
        violations,
    };
    let human = report.human(ok, &connect_errors);
    Ok(Outcome { scenario: "race", passed: report.passed(), report: serde_json::to_value(&report)?, human })
}

/// How long nodes may take to agree on the final attendees document (the
/// bus is asynchronous; a node may serve the state it last heard of).
const CONVERGENCE: Duration = Duration::from_secs(3);

/// Reads the attendees document from every node until they agree or
/// [`CONVERGENCE`] passes. Returns the newest document (the one to judge the
/// race by) and one violation per node still serving something else.
async fn final_document(
    apis: &[Api],
    urls: &[String],
    token: &str,
    event_id: &str,
) -> Result<(Attendees, Vec<String>)> {
    let deadline = Instant::now() + CONVERGENCE;
    loop {
        let mut docs = Vec::with_capacity(apis.len());
        for api in apis {
            docs.push(api.attendees(token, event_id).await?);
        }
        let Some(newest) = docs.iter().max_by_key(|d| d.version).cloned() else {
            bail!("no node to read the attendees from");
        };
        let stale: Vec<String> = docs
            .iter()
            .zip(urls)
            .filter(|(d, _)| **d != newest)
            .map(|(d, url)| {
                format!(
                    "{url} serves a different attendees document after {}s: version {} with {} attending and {} waitlisted, where the newest is version {} with {} attending and {} waitlisted",
                    CONVERGENCE.as_secs(),
                    d.version,
                    d.attending.len(),
                    d.waitlist.len(),
                    newest.version,
                    newest.attending.len(),
                    newest.waitlist.len()
                )
            })
            .collect();
        if stale.is_empty() || Instant::now() >= deadline {
            return Ok((newest, stale));
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}
