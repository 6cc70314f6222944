//! `steady`: RSVPs arriving at a fixed rate spread over many events — the
//! everyday load of a busy league night rather than one hot event.
//!
//! Each user has one command socket and a fixed send schedule; together the
//! schedules interleave into `--rate` RSVPs per second. Latency is measured
//! from the *scheduled* send time, so a reply that arrives late also delays
//! the user's next send and is charged for it (no coordinated omission).
//! Every RSVP toggles the user's answer for one event (ATTENDING ↔ DECLINED),
//! so events fill up, waitlists form and promotions happen throughout.
//!
//! At the end every event's attendees document is checked against what the
//! users last asked for: nobody over a limit, everyone whose last answer was
//! ATTENDING is attending or waitlisted, nobody who declined is listed.
//!
//! - [`users`]: the schedule, the users and their sockets;
//! - [`verdict`]: the final documents against the users' last answers.

mod users;
mod verdict;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use futures_util::{StreamExt, TryStreamExt, stream};
use serde::Serialize;
use tracing::info;

use self::users::{Sent, UserResult, connect_users};
use self::verdict::check;
use super::{Nodes, Outcome, prepare_sockets};
use crate::api::{Api, Session, run_tag};
use crate::cli::SteadyArgs;
use crate::stats::{Recorder, Summary, rate};

/// Dev sign-ins and event creations in flight at once (setup, not measured).
const SETUP_CONCURRENCY: usize = 16;
/// Violations printed in the human report; the JSON has them all.
const VIOLATIONS_SHOWN: usize = 25;
/// Time between the last socket opening and the first scheduled send.
const LEAD_IN: Duration = Duration::from_millis(500);

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Report {
    urls: Vec<String>,
    events: usize,
    users: usize,
    target_rate: f64,
    seconds: f64,
    max_skaters: u32,
    max_goalies: u32,
    sent: u64,
    /// Successful replies per second from the first scheduled send to the
    /// last reply.
    achieved_rate: f64,
    /// From each RSVP's scheduled send time to its reply.
    reply_latency: Summary,
    /// Reply statuses (ATTENDING, WAITLISTED, DECLINED, or error codes).
    outcomes: BTreeMap<String, u64>,
    /// RSVPs answered per commit, on average (distinct event versions seen in
    /// the replies against the replies).
    replies_per_commit: f64,
    attending: usize,
    waitlisted: usize,
    violations: Vec<String>,
}

pub async fn run(args: SteadyArgs) -> Result<Outcome> {
    if args.users == 0
        || args.events == 0
        || args.rate.is_nan()
        || args.rate <= 0.0
        || args.seconds.is_nan()
        || args.seconds <= 0.0
    {
        bail!("--users, --events, --rate and --seconds must all be positive");
    }
    let nodes = Nodes::resolve(&args.url, args.url2.as_ref()).await?;
    let sources = prepare_sockets(&args.net, &nodes.endpoints[0], args.users)?;
    let api = &nodes.apis[0];
    let tag: Arc<str> = Arc::from(run_tag());
    let organiser = api.dev_token(&format!("lt{tag}org")).await?;
    let event_ids = Arc::new(create_events(&args, api, &organiser).await?);
    info!(users = args.users, "signing users in");
    let sessions = Api::sign_in_all(&nodes.apis, args.users, SETUP_CONCURRENCY, |i| format!("lt{tag}s{i}")).await?;
    let user_ids: Vec<String> = sessions.iter().map(|(s, _)| s.user_id.clone()).collect();

    let (mut tasks, go, connect_failures) = connect_users(&args, &nodes, &sources, sessions, &event_ids, &tag).await?;
    info!(rate = args.rate, seconds = args.seconds, "go");
    let start = Instant::now() + LEAD_IN;
    let _ = go.send(Some(start));
    let mut heard = Heard::new(start);
    while let Some(joined) = tasks.join_next().await {
        match joined {
            Ok(result) => heard.book(result, &user_ids),
            Err(e) => heard.violations.push(format!("a user task failed: {e}")),
        }
    }
    let span = heard.last_reply.saturating_duration_since(start);

    let mut docs = Vec::with_capacity(event_ids.len());
    for id in event_ids.iter() {
        docs.push(api.attendees(&organiser.token, id).await?);
    }
    let mut violations = heard.violations;
    violations.extend(check(&docs, &heard.last_wish, args.skaters, args.goalies));
    let ok = heard.latency.count();
    let report = Report {
        urls: nodes.urls,
        events: args.events,
        users: args.users,
        target_rate: args.rate,
        seconds: args.seconds,
        max_skaters: args.skaters,
        max_goalies: args.goalies,
        sent: heard.sent,
        achieved_rate: rate(ok, span),
        reply_latency: heard.latency.summary(),
        outcomes: heard.outcomes,
        replies_per_commit: if heard.versions.is_empty() { 0.0 } else { ok as f64 / heard.versions.len() as f64 },
        attending: docs.iter().map(|d| d.attending.len()).sum(),
        waitlisted: docs.iter().map(|d| d.waitlist.len()).sum(),
        violations,
    };
    let passed = report.violations.is_empty() && ok == report.sent && connect_failures == 0;
    Ok(Outcome { scenario: "steady", passed, human: report.human(ok), report: serde_json::to_value(&report)? })
}

/// `--events` events, every one with the same limits.
async fn create_events(args: &SteadyArgs, api: &Api, organiser: &Session) -> Result<Vec<String>> {
    info!(events = args.events, "creating events");
    stream::iter(0..args.events)
        .map(|i| {
            let (api, token) = (api.clone(), organiser.token.clone());
            let (skaters, goalies) = (args.skaters, args.goalies);
            async move { api.create_event(&token, &format!("Load test: steady #{i}"), Some(skaters), Some(goalies)).await }
        })
        .buffered(SETUP_CONCURRENCY)
        .try_collect()
        .await
}

/// What the users heard back, taken together.
struct Heard {
    /// From each RSVP's scheduled send to its reply.
    latency: Recorder,
    outcomes: BTreeMap<String, u64>,
    /// Each user's last acknowledged answer per event.
    last_wish: HashMap<(usize, String), &'static str>,
    /// `(event, version)` of every reply: the commits.
    versions: HashSet<(usize, u64)>,
    sent: u64,
    last_reply: Instant,
    violations: Vec<String>,
}

impl Heard {
    fn new(start: Instant) -> Self {
        Heard {
            latency: Recorder::new(),
            outcomes: BTreeMap::new(),
            last_wish: HashMap::new(),
            versions: HashSet::new(),
            sent: 0,
            last_reply: start,
            violations: Vec::new(),
        }
    }

    /// Takes one user's replies in; `user_ids` by user index.
    fn book(&mut self, result: UserResult, user_ids: &[String]) {
        if let Some(e) = result.connect_error {
            *self.outcomes.entry(format!("connect failed: {e}")).or_default() += 1;
        }
        for Sent { event, action, reply, due, got } in result.replies {
            self.sent += 1;
            match reply {
                Ok(r) => {
                    self.latency.record(got.saturating_duration_since(due));
                    self.last_reply = self.last_reply.max(got);
                    *self.outcomes.entry(r.status.clone()).or_default() += 1;
                    if let Some(v) = r.version {
                        self.versions.insert((event, v));
                    }
                    self.last_wish.insert((event, user_ids[result.idx].clone()), action);
                }
                Err(e) => *self.outcomes.entry(format!("error: {e}")).or_default() += 1,
            }
        }
    }
}

impl Report {
    /// The text report; `ok` successful replies.
    fn human(&self, ok: u64) -> String {
        let report = self;
        let mut human = format!(
            "steady — {} users toggling RSVPs over {} events ({} skater + {} goalie places each) at {:.0}/s for {:.0} s on {}\n",
            report.users,
            report.events,
            report.max_skaters,
            report.max_goalies,
            report.target_rate,
            report.seconds,
            report.urls.join(" + ")
        );
        human.push_str(&format!(
            "  replies       {:?}\n  throughput    {:.0} replies/s ({ok} of {} sent)\n  reply latency {}   (from the scheduled send)\n  batching      {:.2} replies per commit\n  final         {} attending, {} waitlisted over all events\n",
            report.outcomes,
            report.achieved_rate,
            report.sent,
            report.reply_latency,
            report.replies_per_commit,
            report.attending,
            report.waitlisted,
        ));
        if report.violations.is_empty() {
            human.push_str(
                "  checks        PASS (no overbooking; every acknowledged answer is what the documents show)\n",
            );
        } else {
            human.push_str(&format!("  checks        FAIL — {} violations:\n", report.violations.len()));
            for v in report.violations.iter().take(VIOLATIONS_SHOWN) {
                human.push_str(&format!("    - {v}\n"));
            }
        }
        human
    }
}
