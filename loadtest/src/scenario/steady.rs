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

use std::collections::{BTreeMap, HashMap, HashSet};
use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use futures_util::{StreamExt, TryStreamExt, stream};
use serde::Serialize;
use serde_json::json;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc, watch};
use tokio::task::JoinSet;
use tracing::{info, warn};

use super::{Nodes, Outcome, await_ready, prepare_sockets};
use crate::api::{Api, Attendees, RsvpReply, Session, run_tag};
use crate::cli::SteadyArgs;
use crate::net::{Endpoint, SourcePool};
use crate::race_check::{GOALIE, SKATER_POSITIONS};
use crate::stats::{Recorder, Summary, rate};
use crate::ws::{CommandConn, NotRsvp};

/// Dev sign-ins and event creations in flight at once (setup, not measured).
const SETUP_CONCURRENCY: usize = 16;
/// Every tenth user plays goal.
const GOALIE_EVERY: usize = 10;
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

/// One user's plan: which events it toggles, in which order, and when.
struct UserPlan {
    idx: usize,
    session: Session,
    position: &'static str,
    /// (scheduled offset from the start, event index)
    sends: Vec<(Duration, usize)>,
    endpoint: Arc<Endpoint>,
    source: Option<IpAddr>,
    event_ids: Arc<Vec<String>>,
    tag: Arc<str>,
}

/// One RSVP as the user saw it.
struct Sent {
    event: usize,
    action: &'static str,
    reply: Result<RsvpReply, String>,
    due: Instant,
    got: Instant,
}

/// What a user heard back, per send, in order.
struct UserResult {
    idx: usize,
    replies: Vec<Sent>,
    connect_error: Option<String>,
}

/// The send schedule: RSVP `k` of user `u` is the global RSVP `k·users + u`,
/// sent at `(k·users + u) / rate` seconds; its event walks the events with a
/// per-user stride so a user meets each event before meeting any twice.
fn schedule(users: usize, events: usize, rate: f64, seconds: f64) -> Vec<Vec<(Duration, usize)>> {
    let total = (rate * seconds).round() as usize;
    let mut plan: Vec<Vec<(Duration, usize)>> = vec![Vec::new(); users];
    for n in 0..total {
        let (u, k) = (n % users, n / users);
        let at = Duration::from_secs_f64(n as f64 / rate);
        plan[u].push((at, (u * 7 + k) % events));
    }
    plan
}

/// One user: connect + auth (bounded by `permit`), say ready, wait for the
/// start instant, then send on schedule.
async fn user(
    plan: UserPlan,
    permit: OwnedSemaphorePermit,
    ready: mpsc::UnboundedSender<Result<(), String>>,
    mut go: watch::Receiver<Option<Instant>>,
) -> UserResult {
    let id_prefix = format!("st{}u{}", plan.tag, plan.idx);
    let opened = CommandConn::open(&plan.endpoint, plan.source, &plan.session.token, id_prefix).await;
    drop(permit);
    let mut conn = match opened {
        Ok(c) => c,
        Err(e) => {
            let error = format!("{e:#}");
            let _ = ready.send(Err(error.clone()));
            return UserResult { idx: plan.idx, replies: Vec::new(), connect_error: Some(error) };
        }
    };
    let _ = ready.send(Ok(()));
    let start = match go.wait_for(Option::is_some).await {
        Ok(s) => s.unwrap_or_else(Instant::now),
        Err(_) => {
            return UserResult { idx: plan.idx, replies: Vec::new(), connect_error: Some("never started".into()) };
        }
    };
    let mut attending: HashMap<usize, bool> = HashMap::new();
    let mut replies = Vec::with_capacity(plan.sends.len());
    for (offset, event) in plan.sends {
        let due = start + offset;
        tokio::time::sleep_until(due.into()).await;
        let going = attending.entry(event).or_insert(false);
        let action = if *going { "DECLINED" } else { "ATTENDING" };
        let command = json!({
            "kind": "rsvp",
            "eventId": plan.event_ids[event],
            "action": action,
            "position": plan.position,
        });
        let reply = match conn.call(&command).await.map(|r| r.rsvp()) {
            Ok(Ok(r)) => Ok(r),
            Ok(Err(NotRsvp::Unreadable(e))) => Err(format!("reply data unreadable: {e}")),
            Ok(Err(NotRsvp::Refused(error))) => {
                Err(error.map(|e| e.code).unwrap_or_else(|| "ok:false without error".into()))
            }
            Err(e) => Err(format!("{e:#}")),
        };
        if reply.is_ok() {
            *going = action == "ATTENDING";
        }
        replies.push(Sent { event, action, reply, due, got: Instant::now() });
    }
    conn.close().await;
    UserResult { idx: plan.idx, replies, connect_error: None }
}

/// Judges the final documents against what each user last asked for.
fn check(
    docs: &[Attendees],
    last_wish: &HashMap<(usize, String), &'static str>,
    max_skaters: u32,
    max_goalies: u32,
) -> Vec<String> {
    let mut violations = Vec::new();
    for (e, doc) in docs.iter().enumerate() {
        let goalies = doc.attending.iter().filter(|a| a.position == GOALIE).count();
        let skaters = doc.attending.len() - goalies;
        if skaters > max_skaters as usize {
            violations.push(format!("event #{e}: {skaters} skaters attending over the limit of {max_skaters}"));
        }
        if goalies > max_goalies as usize {
            violations.push(format!("event #{e}: {goalies} goalies attending over the limit of {max_goalies}"));
        }
        let listed: HashMap<&str, &str> = doc
            .attending
            .iter()
            .map(|a| (a.user_id.as_str(), "attending"))
            .chain(doc.waitlist.iter().map(|w| (w.user_id.as_str(), "waitlisted")))
            .collect();
        if listed.len() != doc.attending.len() + doc.waitlist.len() {
            violations.push(format!("event #{e}: someone is listed twice"));
        }
        for ((event, user_id), wish) in last_wish {
            if *event != e {
                continue;
            }
            match (*wish, listed.get(user_id.as_str())) {
                ("ATTENDING", None) => violations
                    .push(format!("event #{e}: {user_id} was answered ATTENDING/WAITLISTED but is not listed")),
                ("DECLINED", Some(place)) => violations.push(format!("event #{e}: {user_id} declined but is {place}")),
                _ => {}
            }
        }
        for user_id in listed.keys() {
            if !last_wish.contains_key(&(e, (*user_id).to_owned())) {
                violations.push(format!("event #{e}: {user_id} is listed but never had an acknowledged RSVP"));
            }
        }
    }
    violations
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

/// Every user on its command socket (over the nodes in turn), with its
/// schedule, waiting for the start instant; returns once each is ready or
/// failed, with the start's sender and the failures.
async fn connect_users(
    args: &SteadyArgs,
    nodes: &Nodes,
    sources: &Arc<SourcePool>,
    sessions: Vec<(Session, u32)>,
    event_ids: &Arc<Vec<String>>,
    tag: &Arc<str>,
) -> Result<(JoinSet<UserResult>, watch::Sender<Option<Instant>>, usize)> {
    let plans = schedule(args.users, args.events, args.rate, args.seconds);
    let (ready_tx, mut ready_rx) = mpsc::unbounded_channel();
    let (go_tx, go_rx) = watch::channel(None);
    let semaphore = Arc::new(Semaphore::new(args.net.concurrency.max(1)));
    let mut tasks = JoinSet::new();
    for (idx, ((session, _), sends)) in sessions.into_iter().zip(plans).enumerate() {
        let position = if idx % GOALIE_EVERY == GOALIE_EVERY - 1 {
            GOALIE
        } else {
            SKATER_POSITIONS[idx % SKATER_POSITIONS.len()]
        };
        let plan = UserPlan {
            idx,
            session,
            position,
            sends,
            endpoint: nodes.endpoints[idx % nodes.endpoints.len()].clone(),
            source: sources.next(),
            event_ids: event_ids.clone(),
            tag: tag.clone(),
        };
        let permit = semaphore.clone().acquire_owned().await?;
        tasks.spawn(user(plan, permit, ready_tx.clone(), go_rx.clone()));
    }
    drop(ready_tx);
    let connect_failures: usize = await_ready(&mut ready_rx, args.users).await.values().sum();
    if connect_failures > 0 {
        warn!(connect_failures, "some users could not connect");
    }
    Ok((tasks, go_tx, connect_failures))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schedule_interleaves_users_into_the_target_rate() {
        let plan = schedule(4, 3, 100.0, 1.0);
        let total: usize = plan.iter().map(Vec::len).sum();
        assert_eq!(total, 100);
        // User 1's sends are 4 global slots (40 ms) apart.
        assert_eq!(plan[1][0].0, Duration::from_millis(10));
        assert_eq!(plan[1][1].0, Duration::from_millis(50));
    }

    #[test]
    fn a_user_meets_every_event_before_any_twice() {
        let plan = schedule(2, 5, 100.0, 1.0);
        let first: Vec<usize> = plan[0].iter().take(5).map(|&(_, e)| e).collect();
        let mut sorted = first.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, vec![0, 1, 2, 3, 4]);
    }

    #[test]
    fn the_check_catches_a_lost_and_a_phantom_rsvp() {
        let doc = Attendees { version: 3, attending: Vec::new(), waitlist: Vec::new() };
        let mut wish = HashMap::new();
        wish.insert((0, "u1".to_owned()), "ATTENDING");
        let v = check(&[doc], &wish, 10, 1);
        assert_eq!(v.len(), 1, "{v:?}");
        assert!(v[0].contains("not listed"));
    }
}
