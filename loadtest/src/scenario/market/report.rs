//! The report of a market run ([`Report`]): what seeding made, how the
//! board and matches reads went, and the pushes; its verdict and its text.

use serde::Serialize;

use super::board::{FilterReport, WALK_PAGE, Walk};
use super::pushes::Pushes;
use super::quiet::Quiet;
use super::seed::Seeding;
use crate::fleet::ErrorTally;
use crate::scenario::Outcome;
use crate::stats::Summary;

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub database: String,
    pub url: String,
    pub server_pid: Option<u32>,
    pub seeding: Seeding,
    pub quiet_after_seeding: Option<Quiet>,
    pub walk: Walk,
    pub board: Summary,
    pub board_by_filter: Vec<FilterReport>,
    pub board_violations: usize,
    pub board_violation_samples: Vec<String>,
    pub board_errors: ErrorTally,
    pub matches: Summary,
    pub matches_items_mean: f64,
    pub quiet_after_subs: Option<Quiet>,
    pub pushes: Pushes,
    pub node_panics: Vec<String>,
}

impl Report {
    /// Everything seeded, every read within its filter, every sub
    /// subscribed and pushed every change, no node panic.
    fn passed(&self) -> bool {
        let (s, p) = (&self.seeding, &self.pushes);
        s.errors.is_empty()
            && self.walk.statuses == s.statuses_created
            && self.walk.duplicates == 0
            && self.board_violations == 0
            && self.board_errors.is_empty()
            && p.failed.is_empty()
            && p.subscribed == p.subs
            && p.missed == 0
            && p.rest_disagreements.is_empty()
            && p.socket_errors.is_empty()
            && self.node_panics.is_empty()
    }

    pub fn into_outcome(self) -> Outcome {
        let passed = self.passed();
        let mut h = format!(
            "market — {} node at {}, {} events, {} statuses, {} subs on `matches`\n",
            self.database, self.url, self.seeding.events_requested, self.seeding.statuses_requested, self.pushes.subs
        );
        h.push_str(&self.seeding_lines());
        h.push_str(&self.board_lines());
        h.push_str(&self.push_lines());
        for l in &self.node_panics {
            h.push_str(&format!("  ! {l}\n"));
        }
        let report = serde_json::to_value(&self).unwrap_or_default();
        Outcome { scenario: "market", passed, report, human: h }
    }

    fn seeding_lines(&self) -> String {
        let s = &self.seeding;
        let mut h = format!(
            "  seeding       {} facilities; {} of {} events in {:.1} s; {} teams; {} persons ({} with a level, {} playing at a rink) in {:.1} s\n",
            s.facilities,
            s.events_created,
            s.events_requested,
            s.events_seconds,
            s.teams_created,
            s.persons,
            s.persons_with_level,
            s.persons_at_facility,
            s.people_seconds
        );
        let mut types: Vec<_> = s.by_type.iter().collect();
        types.sort();
        let types: Vec<String> = types.iter().map(|(k, v)| format!("{v} {k}")).collect();
        h.push_str(&format!(
            "  statuses      {} of {} posted in {:.1} s ({:.0}/s): {}\n  status post   {}\n",
            s.statuses_created,
            s.statuses_requested,
            s.statuses_seconds,
            s.statuses_per_sec,
            types.join(", "),
            s.status_post
        ));
        if !s.errors.is_empty() {
            h.push_str(&format!("    seeding errors ({}):\n{}", s.errors.total(), s.errors.lines()));
        }
        if let Some(q) = &self.quiet_after_seeding {
            h.push_str(&format!(
                "  after posting the node stayed busy {:.1} s more ({:.1} CPU s: background pushes){}\n",
                q.seconds,
                q.cpu_seconds,
                if q.reached { "" } else { " — and was still busy when measuring started" }
            ));
        }
        h
    }

    fn board_lines(&self) -> String {
        let w = &self.walk;
        let mut h = format!(
            "  board walk    {} statuses in {} pages of {WALK_PAGE}, {} duplicates; page {}\n",
            w.statuses, w.pages, w.duplicates, w.page_latency
        );
        h.push_str(&format!("  board         {}\n", self.board));
        for f in &self.board_by_filter {
            h.push_str(&format!("    {:<21} {}   {:.1} items/read\n", f.filter, f.latency, f.mean_items));
        }
        if self.board_violations > 0 {
            h.push_str(&format!("    ! {} items broke their filter:\n", self.board_violations));
            for v in &self.board_violation_samples {
                h.push_str(&format!("      {v}\n"));
            }
        }
        if !self.board_errors.is_empty() {
            h.push_str(&format!("    board errors:\n{}", self.board_errors.lines()));
        }
        h.push_str(&format!("  matches       {}   {:.1} items/read\n", self.matches, self.matches_items_mean));
        h
    }

    fn push_lines(&self) -> String {
        let p = &self.pushes;
        let mut h = String::new();
        if let Some(q) = &self.quiet_after_subs {
            h.push_str(&format!("  subs' posts   node busy {:.1} s more ({:.1} CPU s)\n", q.seconds, q.cpu_seconds));
        }
        h.push_str(&format!(
            "  subs          {} of {} subscribed; snapshot {}   {:.1} matches each\n",
            p.subscribed, p.subs, p.subscribe, p.snapshot_items_mean
        ));
        if !p.failed.is_empty() {
            h.push_str(&format!("    failures:\n{}", p.failed.lines()));
        }
        h.push_str(&format!("  event         {} starting {} (maxGoalies 1)\n", p.event_id, p.event_start));
        for ph in &p.phases {
            h.push_str(&ph.human());
        }
        h.push_str(&format!("  spot opened   {}\n  spot filled   {}\n", p.upsert, p.drop));
        h.push_str(&format!("  completeness  {} pushes missed\n", p.missed));
        for d in &p.rest_disagreements {
            h.push_str(&format!("    ! {d}\n"));
        }
        if !p.socket_errors.is_empty() {
            h.push_str(&format!("    socket errors:\n{}", p.socket_errors.lines()));
        }
        h
    }
}
