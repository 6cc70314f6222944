//! The steady load's users: one command socket each with a fixed send
//! schedule ([`schedule`]), together `--rate` RSVPs per second, each
//! toggling the user's answer for one event; latency from the *scheduled*
//! send, so a late reply is charged for delaying the next one.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Result;
use serde_json::json;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc, watch};
use tokio::task::JoinSet;
use tracing::warn;

use crate::api::{RsvpReply, Session};
use crate::cli::SteadyArgs;
use crate::net::{Endpoint, SourcePool};
use crate::race_check::{GOALIE, SKATER_POSITIONS};
use crate::scenario::{Nodes, await_ready};
use crate::ws::{CommandConn, NotRsvp};

/// Every tenth user plays goal.
const GOALIE_EVERY: usize = 10;

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
pub struct Sent {
    pub event: usize,
    pub action: &'static str,
    pub reply: Result<RsvpReply, String>,
    pub due: Instant,
    pub got: Instant,
}

/// What a user heard back, per send, in order.
pub struct UserResult {
    pub idx: usize,
    pub replies: Vec<Sent>,
    pub connect_error: Option<String>,
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

/// Every user on its command socket (over the nodes in turn), with its
/// schedule, waiting for the start instant; returns once each is ready or
/// failed, with the start's sender and the failures.
pub async fn connect_users(
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
}
