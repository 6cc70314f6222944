//! The load of a chaos run: users toggling their RSVPs for a few events
//! (each RSVP retried to an answer), and a score keeper posting goals,
//! until the run stops them; then the unanswered get a last chance and
//! everything acknowledged is collected ([`Load`]).

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use serde_json::json;
use tokio::sync::watch;
use tokio::task::{JoinHandle, JoinSet};
use tracing::info;

use super::plan::{Dice, stopped};
use super::requests::{Ended, Request, Sent};
use super::setup::Setup;
use crate::api::Session;
use crate::chaos_check::{Answer, GoalAck, RsvpAck, Side, Unresolved};
use crate::cli::ChaosArgs;
use crate::race_check::{GOALIE, SKATER_POSITIONS};

/// Every tenth user plays goal.
const GOALIE_EVERY: usize = 10;

/// How far out the deadline of a request is while the load runs: it gets
/// its real one when the load stops.
const NO_DEADLINE_YET: Duration = Duration::from_secs(3600);

/// The load while it runs.
pub struct Load {
    users: JoinSet<RsvpResult>,
    keeper: JoinHandle<GoalResult>,
    stop: watch::Sender<bool>,
    deadline: watch::Sender<Instant>,
}

impl Load {
    /// Every user and the score keeper, started.
    pub fn start(args: &ChaosArgs, setup: &Setup, urls: &Arc<Vec<String>>, tag: &Arc<str>) -> Result<Self> {
        let http = reqwest::Client::builder().pool_max_idle_per_host(32).build().context("http client")?;
        let (stop, stop_rx) = watch::channel(false);
        let (deadline, deadline_rx) = watch::channel(Instant::now() + NO_DEADLINE_YET);
        let interval = Duration::from_secs_f64(args.users as f64 / args.rsvp_rate);
        let events = Arc::new(setup.events.clone());
        let mut users = JoinSet::new();
        for (idx, session) in setup.users.iter().enumerate() {
            let position =
                if idx % GOALIE_EVERY == 0 { GOALIE } else { SKATER_POSITIONS[idx % SKATER_POSITIONS.len()] };
            let u = RsvpUser {
                idx,
                session: session.clone(),
                position,
                events: events.clone(),
                urls: urls.clone(),
                http: http.clone(),
                interval,
                tag: tag.clone(),
            };
            users.spawn(rsvp_user(u, stop_rx.clone(), deadline_rx.clone()));
        }
        let keeper = Keeper {
            token: setup.organiser.token.clone(),
            game_id: setup.game_id.clone(),
            rosters: setup.rosters.clone(),
            urls: urls.clone(),
            http: http.clone(),
            period: Duration::from_secs_f64(1.0 / args.goal_rate),
            tag: tag.clone(),
        };
        let keeper = tokio::spawn(keep_score(keeper, stop_rx, deadline_rx));
        Ok(Self { users, keeper, stop, deadline })
    }

    /// No new requests from now on.
    pub fn stop(&self) {
        let _ = self.stop.send(true);
    }

    /// Gives the requests still unanswered `settle` more, then collects
    /// what every user and the keeper were told.
    pub async fn finish(mut self, settle: Duration) -> Result<(RsvpResult, GoalResult)> {
        let _ = self.deadline.send(Instant::now() + settle);
        info!("load stopped; waiting for the last answers");
        let mut rsvp = RsvpResult::default();
        while let Some(joined) = self.users.join_next().await {
            rsvp.merge(joined.context("an RSVP user task failed")?);
        }
        let goals = self.keeper.await.context("the score keeper failed")?;
        Ok((rsvp, goals))
    }
}

// ---------------------------------------------------------------- RSVP users

struct RsvpUser {
    idx: usize,
    session: Session,
    position: &'static str,
    events: Arc<Vec<String>>,
    urls: Arc<Vec<String>>,
    http: reqwest::Client,
    /// Mean time between this user's RSVPs.
    interval: Duration,
    tag: Arc<str>,
}

/// What the users were told.
#[derive(Default)]
pub struct RsvpResult {
    pub acks: Vec<RsvpAck>,
    pub unresolved: Vec<Unresolved>,
    /// Answered RSVPs by the status they were answered.
    pub statuses: BTreeMap<String, u64>,
    pub sent: Sent,
}

impl RsvpResult {
    fn merge(&mut self, other: RsvpResult) {
        self.acks.extend(other.acks);
        self.unresolved.extend(other.unresolved);
        self.sent.merge(other.sent);
        for (k, n) in other.statuses {
            *self.statuses.entry(k).or_default() += n;
        }
    }
}

/// Toggles its answer for a random event every `interval` (jittered) until
/// `stop`; each RSVP is retried to an answer or `deadline`.
async fn rsvp_user(u: RsvpUser, mut stop: watch::Receiver<bool>, deadline: watch::Receiver<Instant>) -> RsvpResult {
    let mut out = RsvpResult::default();
    let mut dice = Dice::new(u.idx as u64 + 1);
    let mut answers: Vec<Answer> = vec![Answer::Declined; u.events.len()];
    // Spread the first RSVPs over one interval.
    let first = u.interval.mul_f64((dice.next() % 1000) as f64 / 1000.0);
    let mut wait = first;
    for n in 1u64.. {
        tokio::select! {
            _ = tokio::time::sleep(wait) => {}
            _ = stopped(&mut stop) => break,
        }
        wait = dice.jitter(u.interval);
        let event = dice.below(u.events.len());
        let answer = answers[event].toggled();
        let request = Request {
            http: &u.http,
            urls: &u.urls,
            first_node: u.idx + n as usize,
            method: reqwest::Method::PUT,
            path: format!("/api/v1/events/{}/rsvp", u.events[event]),
            token: &u.session.token,
            key: format!("chaos-{}-u{}-{n}", u.tag, u.idx),
            body: json!({"action": answer.as_str(), "position": u.position}),
        };
        let limit = *deadline.borrow();
        match out.sent.send(request, limit).await {
            Ended::Answered(body) => {
                let status = body["status"].as_str().unwrap_or("?").to_owned();
                *out.statuses.entry(status).or_default() += 1;
                answers[event] = answer;
                out.acks.push(RsvpAck {
                    user_id: u.session.user_id.clone(),
                    event,
                    n,
                    answer,
                    position: u.position,
                    version: body["version"].as_u64().unwrap_or(0),
                    acked_at: Instant::now(),
                });
            }
            Ended::Refused(why) => out.sent.refused.push(format!("user {} event {event}: {why}", u.idx)),
            Ended::GaveUp => {
                out.unresolved.push(Unresolved { user_id: u.session.user_id.clone(), event, n });
                // Whether it applied is unknown: nothing more for this user.
                break;
            }
        }
    }
    out
}

// ---------------------------------------------------------------- the score keeper

/// What the score keeper was told.
#[derive(Default)]
pub struct GoalResult {
    pub acks: Vec<GoalAck>,
    pub unresolved: usize,
    pub sent: Sent,
}

struct Keeper {
    token: String,
    game_id: String,
    rosters: [String; 2],
    urls: Arc<Vec<String>>,
    http: reqwest::Client,
    period: Duration,
    tag: Arc<str>,
}

/// Posts a goal every `period` (sides alternating) until `stop`, one at a
/// time, each retried to an answer or `deadline`.
async fn keep_score(k: Keeper, mut stop: watch::Receiver<bool>, deadline: watch::Receiver<Instant>) -> GoalResult {
    let mut out = GoalResult::default();
    let mut tick = tokio::time::interval(k.period);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    for n in 0u64.. {
        tokio::select! {
            _ = tick.tick() => {}
            _ = stopped(&mut stop) => break,
        }
        let side = if n % 2 == 0 { Side::Home } else { Side::Away };
        let roster = &k.rosters[usize::from(side == Side::Away)];
        let request = Request {
            http: &k.http,
            urls: &k.urls,
            first_node: n as usize,
            method: reqwest::Method::POST,
            path: format!("/api/v1/games/{}/actions", k.game_id),
            token: &k.token,
            key: format!("chaos-{}-goal-{n}", k.tag),
            body: json!({"type": "GOAL", "rosterId": roster}),
        };
        let limit = *deadline.borrow();
        match out.sent.send(request, limit).await {
            Ended::Answered(body) => {
                let entry_seq = body["log"].as_array().and_then(|l| l.last()).and_then(|e| e["seq"].as_i64());
                out.acks.push(GoalAck {
                    side,
                    version: body["version"].as_u64().unwrap_or(0),
                    entry_seq: entry_seq.unwrap_or(-1),
                    acked_at: Instant::now(),
                });
            }
            Ended::Refused(why) => out.sent.refused.push(format!("goal {n}: {why}")),
            Ended::GaveUp => {
                out.unresolved += 1;
                break;
            }
        }
    }
    out
}
