//! `race`: N users, one socket each, all send an ATTENDING command at the same
//! instant to an event with a few places. Then the verdict of
//! [`crate::race_check`] on the replies and the final attendees document.
//!
//! With `--regulars-share` the event is the first week of a weekly series
//! whose regulars' window is open through the race (docs/pickup-night.md):
//! a share of the racers are on its list of regulars, and the verdict is
//! the tiered one.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use futures_util::{StreamExt, TryStreamExt, stream};
use serde::Serialize;
use serde_json::json;
use tokio::sync::{Semaphore, mpsc, watch};
use tokio::task::JoinSet;
use tracing::{info, warn};

use super::{Outcome, prepare_sockets};
use crate::api::{Api, Attendees, RsvpReply, Session, run_tag};
use crate::cli::RaceArgs;
use crate::net::{Endpoint, SourcePool};
use crate::race_check::{GOALIE, Heard, Limits, Request, SKATER_POSITIONS, check};
use crate::stats::{Recorder, Summary, rate};
use crate::ws::CommandConn;

/// Dev sign-ins in flight at once (each is a database write).
const SIGN_IN_CONCURRENCY: usize = 16;

/// Violations printed in the human report; the JSON has them all.
const VIOLATIONS_SHOWN: usize = 25;

/// The tiered race's `regularsFirstMinutes`: places are the regulars' until
/// an hour before a start 7 days out, so all through the race.
const REGULARS_FIRST_MINUTES: u32 = 60;

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Report {
    urls: Vec<String>,
    event_id: String,
    clients: usize,
    goalie_clients: usize,
    /// Share of clients asked to be regulars (0: the first-come race).
    regulars_share: f64,
    /// Clients on the series' list of regulars.
    regular_clients: usize,
    /// The weekly series the event is the first week of (tiered race).
    series_id: Option<String>,
    /// When the regulars' window closes, as the event's rules say (tiered).
    open_to_all_at: Option<String>,
    max_skaters: u32,
    max_goalies: u32,
    /// Failed dev sign-ins that succeeded on retry (setup, not measured;
    /// non-zero points at a server problem under concurrent writes).
    sign_in_retries: u32,
    /// Clients that could not connect and authenticate.
    connect_failures: usize,
    /// Time from the start signal to the last reply.
    race_seconds: f64,
    /// Successful replies per second over that time.
    replies_per_sec: f64,
    /// From sending the command to its reply.
    reply_latency: Summary,
    /// Reply statuses (ATTENDING, WAITLISTED, or error codes).
    outcomes: BTreeMap<String, usize>,
    /// Distinct versions among the replies: how many commits decided the
    /// race (fewer than replies means the server group-commits).
    commits: usize,
    attending: usize,
    waitlisted: usize,
    document_version: u64,
    violations: Vec<String>,
}

/// Goalie clients spread evenly: client i is a goalie when the running
/// count `floor((i+1)·g/n)` steps up.
fn positions(clients: usize, goalie_share: f64) -> Vec<&'static str> {
    let share = if goalie_share.is_finite() { goalie_share.clamp(0.0, 1.0) } else { 0.0 };
    let goalies = (clients as f64 * share).round() as usize;
    let mut skater = 0usize;
    (0..clients)
        .map(|i| {
            if clients > 0 && (i + 1) * goalies / clients > i * goalies / clients {
                GOALIE
            } else {
                skater += 1;
                SKATER_POSITIONS[(skater - 1) % SKATER_POSITIONS.len()]
            }
        })
        .collect()
}

/// Regulars spread evenly within each role, the same way goalies are spread
/// over all clients, so they are the same share of goalies as of skaters.
/// (One spread over all clients, offset or not, would at shares such as 0.1
/// and 0.2 make every goalie a regular or none: the two strides divide
/// each other.)
fn regulars(positions: &[&str], share: f64) -> Vec<bool> {
    let share = if share.is_finite() { share.clamp(0.0, 1.0) } else { 0.0 };
    let in_role = |goalie: bool| positions.iter().filter(|&&p| (p == GOALIE) == goalie).count();
    let (goalies, skaters) = (in_role(true), in_role(false));
    let wanted = |n: usize| (n as f64 * share).round() as usize;
    let (want_goalies, want_skaters) = (wanted(goalies), wanted(skaters));
    let (mut g, mut s) = (0usize, 0usize);
    positions
        .iter()
        .map(|&p| {
            let (k, n, want) =
                if p == GOALIE { (&mut g, goalies, want_goalies) } else { (&mut s, skaters, want_skaters) };
            let i = *k;
            *k += 1;
            (i + 1) * want / n > i * want / n
        })
        .collect()
}

/// The regulars' side of a tiered race: `regulars` on the series' list,
/// then the series' rules with a window of [`REGULARS_FIRST_MINUTES`].
/// Checks through the event's own rules that the window is open and it
/// has exactly these regulars; answers when the window closes.
async fn set_up_regulars(
    api: &Api,
    organiser: &str,
    event_id: &str,
    series_id: &str,
    regulars: &[&str],
) -> Result<String> {
    stream::iter(regulars)
        .map(|user| {
            let path = format!("/api/v1/event-series/{series_id}/regulars/{user}");
            async move { api.put_value(&path, organiser, None).await }
        })
        .buffer_unordered(SIGN_IN_CONCURRENCY)
        .try_for_each(|_| async { Ok(()) })
        .await?;
    api.put_value(
        &format!("/api/v1/event-series/{series_id}/rsvp-rules"),
        organiser,
        Some(json!({ "regularsFirstMinutes": REGULARS_FIRST_MINUTES })),
    )
    .await?;
    let rules = api.get_value(&format!("/api/v1/events/{event_id}/rsvp-rules"), organiser).await?;
    let listed = rules["regulars"].as_array().map_or(0, Vec::len);
    if listed != regulars.len() {
        bail!("the event lists {listed} regulars after {} were added to its series", regulars.len());
    }
    let open_to_all_at = rules["openToAllAt"].as_str().unwrap_or_default();
    match chrono::DateTime::parse_from_rfc3339(open_to_all_at) {
        Ok(at) if at > chrono::Utc::now() + chrono::Duration::hours(1) => Ok(open_to_all_at.to_owned()),
        _ => bail!("the event's regulars' window is not open for the race (openToAllAt {open_to_all_at:?})"),
    }
}

struct ClientSpec {
    idx: usize,
    endpoint: Arc<Endpoint>,
    sources: Arc<SourcePool>,
    token: String,
    event_id: Arc<str>,
    position: &'static str,
    tag: Arc<str>,
    connect_timeout: Duration,
}

/// One racer: connect + auth (bounded by `permit`), say ready, wait for the
/// start signal, fire, wait for the reply.
async fn racer(
    spec: ClientSpec,
    permit: tokio::sync::OwnedSemaphorePermit,
    ready: mpsc::UnboundedSender<Result<(), String>>,
    mut go: watch::Receiver<bool>,
) -> (usize, Heard, Option<(Instant, Instant)>) {
    let idx = spec.idx;
    let opened = tokio::time::timeout(
        spec.connect_timeout,
        CommandConn::open(&spec.endpoint, spec.sources.next(), &spec.token, format!("race{}c{idx}", spec.tag)),
    )
    .await;
    drop(permit);
    let mut conn = match opened {
        Ok(Ok(c)) => c,
        Ok(Err(e)) => {
            let msg = format!("{e:#}");
            let _ = ready.send(Err(msg.clone()));
            return (idx, Heard::Nothing(format!("connect: {msg}")), None);
        }
        Err(_) => {
            let _ = ready.send(Err("connect timed out".into()));
            return (idx, Heard::Nothing("connect timed out".into()), None);
        }
    };
    let _ = ready.send(Ok(()));
    if go.wait_for(|&g| g).await.is_err() {
        return (idx, Heard::Nothing("never started".into()), None);
    }
    let command = json!({
        "kind": "rsvp",
        "eventId": &*spec.event_id,
        "action": "ATTENDING",
        "position": spec.position,
    });
    let sent = Instant::now();
    let heard = match conn.call(&command).await {
        Ok(reply) if reply.ok => match serde_json::from_value::<RsvpReply>(reply.data.unwrap_or_default()) {
            Ok(r) => Heard::Ok(r),
            Err(e) => Heard::Failed(format!("reply data unreadable: {e}")),
        },
        Ok(reply) => {
            Heard::Failed(reply.error.map(|e| e.to_string()).unwrap_or_else(|| "ok:false without error".into()))
        }
        Err(e) => Heard::Nothing(format!("{e:#}")),
    };
    let got = Instant::now();
    conn.close().await;
    (idx, heard, Some((sent, got)))
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

pub async fn run(args: RaceArgs) -> Result<Outcome> {
    if args.clients == 0 {
        bail!("--clients must be at least 1");
    }
    let mut urls = vec![args.url.clone()];
    urls.extend(args.url2.clone());
    let mut endpoints = Vec::new();
    for u in &urls {
        endpoints.push(Arc::new(Endpoint::resolve(u).await?));
    }
    let sources = prepare_sockets(&args.net, &endpoints[0], args.clients)?;
    let apis: Vec<Api> = endpoints.iter().map(|e| Api::new(e.base_str())).collect::<Result<_>>()?;
    let api = &apis[0];

    let tag: Arc<str> = Arc::from(run_tag());
    let organiser = api.dev_token(&format!("lt{tag}org")).await?;
    let tiered = args.regulars_share > 0.0;
    let (event_id, series_id) = if tiered {
        let title = "Load test: RSVP race, regulars first";
        let (event, series) =
            api.create_weekly_event(&organiser.token, title, Some(args.skaters), Some(args.goalies)).await?;
        (event, Some(series))
    } else {
        let title = "Load test: RSVP race";
        (api.create_event(&organiser.token, title, Some(args.skaters), Some(args.goalies)).await?, None)
    };
    info!(%event_id, clients = args.clients, "event created; signing users in");

    let signed_in: Vec<(Session, u32)> = stream::iter(0..args.clients)
        .map(|i| {
            let api = apis[i % apis.len()].clone();
            let name = format!("lt{tag}r{i}");
            async move { api.dev_token_retrying(&name).await }
        })
        .buffered(SIGN_IN_CONCURRENCY)
        .try_collect()
        .await?;
    let sign_in_retries: u32 = signed_in.iter().map(|(_, r)| r).sum();
    let users: Vec<Session> = signed_in.into_iter().map(|(s, _)| s).collect();
    let positions = positions(args.clients, args.goalie_share);
    let regular = if tiered { regulars(&positions, args.regulars_share) } else { vec![false; args.clients] };
    let requests: Vec<Request> = users
        .iter()
        .zip(&positions)
        .zip(&regular)
        .map(|((u, &position), &regular)| Request { user_id: u.user_id.clone(), position, regular })
        .collect();
    let regular_ids: Vec<&str> = requests.iter().filter(|r| r.regular).map(|r| r.user_id.as_str()).collect();
    let open_to_all_at = match &series_id {
        Some(series_id) => {
            if regular_ids.is_empty() {
                bail!("--regulars-share {} of {} clients makes no regulars", args.regulars_share, args.clients);
            }
            info!(regulars = regular_ids.len(), %series_id, "putting regulars on the series' list");
            Some(set_up_regulars(api, &organiser.token, &event_id, series_id, &regular_ids).await?)
        }
        None => None,
    };
    let regular_clients = regular_ids.len();

    info!("connecting racers");
    let (ready_tx, mut ready_rx) = mpsc::unbounded_channel();
    let (go_tx, go_rx) = watch::channel(false);
    let semaphore = Arc::new(Semaphore::new(args.net.concurrency.max(1)));
    let event_arc: Arc<str> = Arc::from(event_id.as_str());
    let mut tasks = JoinSet::new();
    for (idx, (user, &position)) in users.into_iter().zip(&positions).enumerate() {
        let permit = semaphore.clone().acquire_owned().await?;
        let spec = ClientSpec {
            idx,
            endpoint: endpoints[idx % endpoints.len()].clone(),
            sources: sources.clone(),
            token: user.token,
            event_id: event_arc.clone(),
            position,
            tag: tag.clone(),
            connect_timeout: args.net.timeout(),
        };
        tasks.spawn(racer(spec, permit, ready_tx.clone(), go_rx.clone()));
    }
    drop(ready_tx);
    let mut connect_failures = 0usize;
    let mut connect_errors: BTreeMap<String, usize> = BTreeMap::new();
    for _ in 0..args.clients {
        match ready_rx.recv().await {
            Some(Ok(())) => {}
            Some(Err(e)) => {
                connect_failures += 1;
                *connect_errors.entry(e).or_default() += 1;
            }
            None => break,
        }
    }
    if connect_failures > 0 {
        warn!(connect_failures, errors = ?connect_errors, "some racers could not connect");
    }

    info!("go");
    let started = Instant::now();
    let _ = go_tx.send(true);
    let mut heard: Vec<Heard> = (0..args.clients).map(|_| Heard::Nothing("reply timed out".into())).collect();
    let mut latency = Recorder::new();
    let mut last_reply = started;
    let deadline = tokio::time::sleep(Duration::from_secs(args.reply_timeout.max(1)));
    tokio::pin!(deadline);
    loop {
        tokio::select! {
            joined = tasks.join_next() => match joined {
                None => break,
                Some(Ok((idx, h, times))) => {
                    if let (Heard::Ok(_), Some((sent, got))) = (&h, times) {
                        latency.record(got.saturating_duration_since(sent));
                        last_reply = last_reply.max(got);
                    }
                    if let Some(slot) = heard.get_mut(idx) {
                        *slot = h;
                    }
                }
                Some(Err(e)) => warn!("racer task failed: {e}"),
            },
            _ = &mut deadline => {
                warn!(left = tasks.len(), "replies timed out");
                tasks.abort_all();
                break;
            }
        }
    }
    let race = last_reply.saturating_duration_since(started);

    let (doc, disagreements) = final_document(&apis, &urls, &organiser.token, &event_id).await?;
    let limits = Limits { skaters: Some(args.skaters), goalies: Some(args.goalies) };
    let mut violations = disagreements;
    violations.extend(check(limits, &requests, &heard, &doc));

    let mut outcomes: BTreeMap<String, usize> = BTreeMap::new();
    for h in &heard {
        let key = match h {
            Heard::Ok(r) => r.status.clone(),
            Heard::Failed(e) => format!("error: {}", e.split(':').next().unwrap_or(e)),
            Heard::Nothing(_) => "no reply".into(),
        };
        *outcomes.entry(key).or_default() += 1;
    }
    let ok = latency.count();
    let commits = heard
        .iter()
        .filter_map(|h| match h {
            Heard::Ok(r) => r.version,
            _ => None,
        })
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    let report = Report {
        urls,
        event_id,
        clients: args.clients,
        goalie_clients: positions.iter().filter(|&&p| p == GOALIE).count(),
        regulars_share: args.regulars_share,
        regular_clients,
        series_id,
        open_to_all_at,
        max_skaters: args.skaters,
        max_goalies: args.goalies,
        sign_in_retries,
        connect_failures,
        race_seconds: race.as_secs_f64(),
        replies_per_sec: rate(ok, race),
        reply_latency: latency.summary(),
        outcomes,
        commits,
        attending: doc.attending.len(),
        waitlisted: doc.waitlist.len(),
        document_version: doc.version,
        violations,
    };
    let passed = report.violations.is_empty();

    let mut human = format!(
        "race — {} clients ({} as GOALIE) on {} for {} skater + {} goalie places, event {}\n",
        report.clients,
        report.goalie_clients,
        report.urls.join(" + "),
        report.max_skaters,
        report.max_goalies,
        report.event_id
    );
    if let (Some(series), Some(open)) = (&report.series_id, &report.open_to_all_at) {
        human.push_str(&format!(
            "  regulars      {} of the clients first (series {series}, open to all at {open})\n",
            report.regular_clients
        ));
    }
    human.push_str(&format!(
        "  replies       {:?}\n  throughput    {:.0} replies/s ({} in {:.3} s from the start signal)\n  reply latency {}\n  commits       {} distinct versions among the replies\n  final         {} attending, {} waitlisted, version {}\n",
        report.outcomes,
        report.replies_per_sec,
        ok,
        report.race_seconds,
        report.reply_latency,
        report.commits,
        report.attending,
        report.waitlisted,
        report.document_version,
    ));
    if report.sign_in_retries > 0 {
        human.push_str(&format!("  ! setup       {} dev sign-ins failed and were retried\n", report.sign_in_retries));
    }
    if report.connect_failures > 0 {
        human.push_str(&format!("  connect failures {}: {connect_errors:?}\n", report.connect_failures));
    }
    if passed && report.regular_clients > 0 {
        human.push_str(
            "  checks        PASS (only regulars seated, regulars ahead in every waitlist, FIFO within each tier, replies match the document)\n",
        );
    } else if passed {
        human
            .push_str("  checks        PASS (no overbooking, fair contiguous waitlists, replies match the document)\n");
    } else {
        human.push_str(&format!("  checks        FAIL — {} violations:\n", report.violations.len()));
        for v in report.violations.iter().take(VIOLATIONS_SHOWN) {
            human.push_str(&format!("    - {v}\n"));
        }
        if report.violations.len() > VIOLATIONS_SHOWN {
            human.push_str(&format!("    … and {} more (see --json)\n", report.violations.len() - VIOLATIONS_SHOWN));
        }
    }
    Ok(Outcome { scenario: "race", passed, report: serde_json::to_value(&report)?, human })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tenth_of_five_hundred_are_goalies_spread_out() {
        let p = positions(500, 0.1);
        assert_eq!(p.len(), 500);
        assert_eq!(p.iter().filter(|&&x| x == GOALIE).count(), 50);
        // Spread: one goalie in every block of ten.
        for block in p.chunks(10) {
            assert_eq!(block.iter().filter(|&&x| x == GOALIE).count(), 1);
        }
        // Skaters rotate through the skater positions.
        let skaters: Vec<_> = p.iter().filter(|&&x| x != GOALIE).take(6).collect();
        assert_eq!(*skaters[0], "CENTER");
        assert_eq!(*skaters[5], "CENTER");
    }

    #[test]
    fn a_fifth_of_each_role_are_regulars_spread_out() {
        let p = positions(5000, 0.1);
        let r = regulars(&p, 0.2);
        let of = |goalie: bool| p.iter().zip(&r).filter(|&(&x, &reg)| (x == GOALIE) == goalie && reg).count();
        assert_eq!((of(true), of(false)), (100, 900));
        // Every block of 50 clients (5 goalies, 45 skaters) has 1 regular
        // goalie and 9 regular skaters.
        for (ps, rs) in p.chunks(50).zip(r.chunks(50)) {
            let regular_goalies = ps.iter().zip(rs).filter(|&(&x, &reg)| x == GOALIE && reg).count();
            assert_eq!((regular_goalies, rs.iter().filter(|&&x| x).count()), (1, 10));
        }
        assert!(regulars(&p, 0.0).iter().all(|&x| !x));
        assert!(regulars(&p, f64::NAN).iter().all(|&x| !x));
        assert!(regulars(&p, 3.0).iter().all(|&x| x));
    }

    #[test]
    fn odd_shares_are_clamped() {
        assert!(positions(10, 0.0).iter().all(|&x| x != GOALIE));
        assert!(positions(10, 5.0).iter().all(|&x| x == GOALIE));
        assert!(positions(10, f64::NAN).iter().all(|&x| x != GOALIE));
        assert!(positions(0, 0.5).is_empty());
    }
}
