//! The report of a race ([`Report`]): who asked what, how the replies
//! came, what the final document holds, and the verdict's violations; its
//! text.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::race_check::Heard;
use crate::stats::Summary;

/// Violations printed in the human report; the JSON has them all.
const VIOLATIONS_SHOWN: usize = 25;

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub urls: Vec<String>,
    pub event_id: String,
    pub clients: usize,
    pub goalie_clients: usize,
    /// Share of clients asked to be regulars (0: the first-come race).
    pub regulars_share: f64,
    /// Clients on the series' list of regulars.
    pub regular_clients: usize,
    /// The weekly series the event is the first week of (tiered race).
    pub series_id: Option<String>,
    /// When the regulars' window closes, as the event's rules say (tiered).
    pub open_to_all_at: Option<String>,
    pub max_skaters: u32,
    pub max_goalies: u32,
    /// Failed dev sign-ins that succeeded on retry (setup, not measured;
    /// non-zero points at a server problem under concurrent writes).
    pub sign_in_retries: u32,
    /// Clients that could not connect and authenticate.
    pub connect_failures: usize,
    /// Time from the start signal to the last reply.
    pub race_seconds: f64,
    /// Successful replies per second over that time.
    pub replies_per_sec: f64,
    /// From sending the command to its reply.
    pub reply_latency: Summary,
    /// Reply statuses (ATTENDING, WAITLISTED, or error codes).
    pub outcomes: BTreeMap<String, usize>,
    /// Distinct versions among the replies: how many commits decided the
    /// race (fewer than replies means the server group-commits).
    pub commits: usize,
    pub attending: usize,
    pub waitlisted: usize,
    pub document_version: u64,
    pub violations: Vec<String>,
}

/// Reply statuses (ATTENDING, WAITLISTED), error codes, or no reply, counted.
pub fn outcomes(heard: &[Heard]) -> BTreeMap<String, usize> {
    let mut outcomes: BTreeMap<String, usize> = BTreeMap::new();
    for h in heard {
        let key = match h {
            Heard::Ok(r) => r.status.clone(),
            Heard::Failed(e) => format!("error: {}", e.split(':').next().unwrap_or(e)),
            Heard::Nothing(_) => "no reply".into(),
        };
        *outcomes.entry(key).or_default() += 1;
    }
    outcomes
}

/// Distinct versions among the replies: the commits that decided the race.
pub fn commits(heard: &[Heard]) -> usize {
    heard
        .iter()
        .filter_map(|h| match h {
            Heard::Ok(r) => r.version,
            _ => None,
        })
        .collect::<BTreeSet<_>>()
        .len()
}

impl Report {
    pub fn passed(&self) -> bool {
        self.violations.is_empty()
    }

    /// The text report; `ok` successful replies, `connect_errors` the
    /// racers that could not connect, by why.
    pub fn human(&self, ok: u64, connect_errors: &BTreeMap<String, usize>) -> String {
        let report = self;
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
            human.push_str(&format!(
                "  ! setup       {} dev sign-ins failed and were retried\n",
                report.sign_in_retries
            ));
        }
        if report.connect_failures > 0 {
            human.push_str(&format!("  connect failures {}: {connect_errors:?}\n", report.connect_failures));
        }
        human.push_str(&self.checks());
        human
    }

    /// The checks' line, and the violations if any.
    fn checks(&self) -> String {
        if self.passed() && self.regular_clients > 0 {
            return "  checks        PASS (only regulars seated, regulars ahead in every waitlist, FIFO within each tier, replies match the document)\n".to_owned();
        }
        if self.passed() {
            return "  checks        PASS (no overbooking, fair contiguous waitlists, replies match the document)\n"
                .to_owned();
        }
        let mut s = format!("  checks        FAIL — {} violations:\n", self.violations.len());
        for v in self.violations.iter().take(VIOLATIONS_SHOWN) {
            s.push_str(&format!("    - {v}\n"));
        }
        if self.violations.len() > VIOLATIONS_SHOWN {
            s.push_str(&format!("    … and {} more (see --json)\n", self.violations.len() - VIOLATIONS_SHOWN));
        }
        s
    }
}
