//! The report of a chaos run: the verdict on what was acknowledged
//! ([`verdict`]), each stream of requests ([`Requests`]), and the whole
//! report with its text ([`Report`]).

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use serde::Serialize;

use super::audience::Subscribers;
use super::disrupt::Disruption;
use super::load::{GoalResult, RsvpResult};
use super::requests::Sent;
use super::setup::Final;
use crate::chaos_check::{Change, EventFinal, GameFinal, check_goals, check_rsvps, split_latencies};
use crate::cli::ChaosArgs;
use crate::fleet::ErrorTally;
use crate::stats::Summary;

/// Findings printed in the text report; the JSON has them all.
const SHOWN: usize = 20;

/// The acknowledged answers and goals the final state lost, and the broken
/// promises (limits, promotions, ranks, duplicates, versions, scores).
pub fn verdict(
    args: &ChaosArgs,
    fin: &Final,
    rsvp: &RsvpResult,
    goals: &GoalResult,
) -> Result<(Vec<String>, Vec<String>)> {
    let events_final: Vec<EventFinal> = fin
        .docs
        .iter()
        .map(|doc| EventFinal { max_skaters: args.skaters, max_goalies: args.goalies, doc: doc.clone() })
        .collect();
    let rsvp_verdict = check_rsvps(&events_final, &rsvp.acks, &rsvp.unresolved);
    let game_final = GameFinal::from_doc(&fin.game).context("the final game document")?;
    let goal_problems = check_goals(&game_final, &goals.acks, goals.unresolved);
    let (lost_goals, broken_goals): (Vec<String>, Vec<String>) =
        goal_problems.into_iter().partition(|p| p.contains("not in the log") || p.contains("score is"));
    let mut lost_acks = rsvp_verdict.lost;
    lost_acks.extend(lost_goals);
    let mut broken = rsvp_verdict.broken;
    broken.extend(broken_goals);
    Ok((lost_acks, broken))
}

/// Every acknowledged change: the RSVPs' on their events' topics, the goals'
/// on the game's (`game_topic`).
pub fn changes(rsvp: &RsvpResult, goals: &GoalResult, game_topic: usize) -> Vec<Change> {
    let mut changes: Vec<Change> =
        rsvp.acks.iter().map(|a| Change { topic: a.event, version: a.version, acked_at: a.acked_at }).collect();
    changes.extend(goals.acks.iter().map(|g| Change { topic: game_topic, version: g.version, acked_at: g.acked_at }));
    changes
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Requests {
    sent: u64,
    acknowledged: usize,
    /// Requests (not attempts) that needed more than one attempt.
    retried: u64,
    unresolved: usize,
    refused: Vec<String>,
    /// First attempt to answer, retries included: all requests, those sent
    /// in calm periods, and those sent during a disruption (see `--window`).
    latency: Summary,
    latency_calm: Summary,
    latency_disrupted: Summary,
    /// The slowest answers: when (seconds into the load) and how long.
    slowest: Vec<String>,
    /// Failed attempts, by cause.
    attempt_errors: ErrorTally,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub nodes: usize,
    pub seconds: f64,
    pub log_dir: String,
    pub schema: String,
    pub redis: String,
    pub kills: usize,
    pub redis_drops: usize,
    pub disruptions: Vec<Disruption>,
    pub rsvps: Requests,
    pub rsvp_statuses: BTreeMap<String, u64>,
    pub goals: Requests,
    /// Acknowledged answers missing from the final state: must be empty.
    pub lost_acks: Vec<String>,
    /// Limits, promotions, ranks, duplicates, versions: must be empty.
    pub broken: Vec<String>,
    /// The nodes served different final documents.
    pub nodes_disagree: Vec<String>,
    pub subscribers: Subscribers,
    pub node_panics: Vec<String>,
    pub final_versions: BTreeMap<String, u64>,
}

impl Requests {
    /// What `sent` came to: `acknowledged` answered, `unresolved` given up
    /// on; latencies split by `windows`, the slowest placed in time from
    /// `started`.
    pub fn new(
        sent: Sent,
        acknowledged: usize,
        unresolved: usize,
        windows: &[(Instant, Instant)],
        started: Instant,
    ) -> Self {
        let (all, calm, disrupted) = split_latencies(&sent.timings, windows);
        let mut by_time: Vec<&(Instant, Duration)> = sent.timings.iter().collect();
        by_time.sort_by_key(|(_, took)| std::cmp::Reverse(*took));
        let slowest = by_time
            .iter()
            .take(5)
            .map(|(at, took)| {
                let t = at.saturating_duration_since(started).as_secs_f64();
                format!("{:.0} ms at {t:.1} s", took.as_secs_f64() * 1000.0)
            })
            .collect();
        Self {
            sent: sent.attempts,
            acknowledged,
            retried: sent.retried,
            unresolved,
            refused: sent.refused,
            latency: all.summary(),
            latency_calm: calm.summary(),
            latency_disrupted: disrupted.summary(),
            slowest,
            attempt_errors: sent.errors,
        }
    }
}

fn list(items: &[String]) -> String {
    let mut s: String = items.iter().take(SHOWN).map(|i| format!("      {i}\n")).collect();
    if items.len() > SHOWN {
        s.push_str(&format!("      … and {} more\n", items.len() - SHOWN));
    }
    s
}

fn requests_line(name: &str, r: &Requests) -> String {
    let mut s = format!(
        "  {name:<13} {} acknowledged of {} requests ({} HTTP attempts, {} needed a retry, {} unresolved, {} refused)\n  \
         {:<13} first attempt to answer {}\n  \
         {:<13}   sent when calm        {}\n  \
         {:<13}   sent while disrupted  {}\n  \
         {:<13}   slowest: {}\n",
        r.acknowledged,
        r.acknowledged + r.unresolved + r.refused.len(),
        r.sent,
        r.retried,
        r.unresolved,
        r.refused.len(),
        "",
        r.latency,
        "",
        r.latency_calm,
        "",
        r.latency_disrupted,
        "",
        r.slowest.join(", ")
    );
    if !r.attempt_errors.is_empty() {
        s.push_str("    failed attempts (retried):\n");
        s.push_str(&r.attempt_errors.lines());
    }
    if !r.refused.is_empty() {
        s.push_str("    refused:\n");
        s.push_str(&list(&r.refused));
    }
    s
}

impl Report {
    pub fn human(&self) -> String {
        let s = &self.subscribers;
        let mut out = format!(
            "chaos: {} nodes on PostgreSQL schema {} + Redis {}, {:.0} s of load\n  \
             disruptions   {} node kills (SIGKILL, restart), {} Redis connection drops\n",
            self.nodes, self.schema, self.redis, self.seconds, self.kills, self.redis_drops
        );
        for d in &self.disruptions {
            out.push_str(&format!("      {:>6.1} s  {:<22} {}\n", d.at_seconds, d.what, d.detail));
        }
        out.push_str(&requests_line("RSVPs", &self.rsvps));
        out.push_str(&format!(
            "  {:<13} {}\n",
            "",
            self.rsvp_statuses.iter().map(|(k, v)| format!("{v} {k}")).collect::<Vec<_>>().join(", ")
        ));
        out.push_str(&requests_line("goals", &self.goals));
        out.push_str(&format!(
            "  lost acks     {}\n",
            if self.lost_acks.is_empty() { "none".to_string() } else { self.lost_acks.len().to_string() }
        ));
        out.push_str(&list(&self.lost_acks));
        out.push_str(&format!(
            "  limits etc.   {}\n",
            if self.broken.is_empty() { "all held".to_string() } else { format!("{} broken", self.broken.len()) }
        ));
        out.push_str(&list(&self.broken));
        if !self.nodes_disagree.is_empty() {
            out.push_str("  nodes disagree on the final state:\n");
            out.push_str(&list(&self.nodes_disagree));
        }
        out.push_str(&format!(
            "  subscribers   {} of {} converged to the final document and seq ({} not)\n  \
             {:<13} final state, from its topic's last ack: {}\n  \
             {:<13} {} connection drops; resync (drop → snapshot on the next connection): {}\n  \
             {:<13} lag, calm:                  {}\n  \
             {:<13} lag, disrupted (reconverge): {}\n  \
             {:<13} {} stale snapshots, {} stale updates dropped, {} (change, subscriber) pairs missed\n",
            s.converged,
            s.total,
            s.not_converged.len(),
            "",
            s.final_state_after_last_ack,
            "",
            s.connection_drops,
            s.resync_after_drop,
            "",
            s.lag_calm,
            "",
            s.lag_disrupted,
            "",
            s.stale_snapshots,
            s.stale_updates,
            s.lag_missed,
        ));
        out.push_str(&list(&s.not_converged));
        if !s.errors.is_empty() {
            out.push_str("    subscriber connection errors:\n");
            out.push_str(&s.errors.lines());
        }
        out.push_str(&format!("  node panics   {}\n", self.node_panics.len()));
        out.push_str(&list(&self.node_panics));
        out.push_str(&format!("  node logs     {}\n", self.log_dir));
        out
    }

    pub fn passed(&self) -> bool {
        self.lost_acks.is_empty()
            && self.broken.is_empty()
            && self.nodes_disagree.is_empty()
            && self.subscribers.not_converged.is_empty()
            && self.node_panics.is_empty()
            && self.rsvps.unresolved == 0
            && self.goals.unresolved == 0
            && self.rsvps.refused.is_empty()
            && self.goals.refused.is_empty()
    }
}
