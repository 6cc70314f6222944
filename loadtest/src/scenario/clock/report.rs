//! The report of a clock run ([`Report`]): the displays' sync, start-to-
//! running and stop-to-stopped, whether every display showed each stop,
//! the skews, and the baseline; its verdict and its text.

use std::time::Duration;

use serde::Serialize;

use super::floor::ClockBaseline;
use super::skews::{ReconnectSkew, SkewReport, target};
use crate::baseline::FrameStats;
use crate::cli::ClockArgs;
use crate::deliveries::{DeliveryAnalysis, Mark};
use crate::display::DisplayRecord;
use crate::fleet::{AfterReport, OpenReport};
use crate::stats::{Recorder, Summary};
use crate::ws::seq_of;

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub urls: Vec<String>,
    pub console_url: String,
    pub game_id: String,
    /// `open.subscribe` runs until the display is synced (its first pongs in).
    pub open: OpenReport,
    pub sync: SyncReport,
    pub cycles: usize,
    /// Round trip of the console's CLOCK_START / CLOCK_STOP.
    pub console_round_trip: Summary,
    /// Starts or stops that did not reach every display in time.
    pub timed_out: usize,
    pub start_to_running: DeliveryAnalysis,
    pub stop_to_stopped: DeliveryAnalysis,
    /// (display, stop) pairs whose first clock at or after the stop was not
    /// a stopped one.
    pub stops_not_shown_stopped: u64,
    /// The stop's update frames as display 0 received them.
    pub stop_frames: FrameStats,
    pub skew: SkewReport,
    pub reconnect: Option<ReconnectSkew>,
    pub baseline: Option<ClockBaseline>,
    pub after: AfterReport,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SyncReport {
    pub pings: usize,
    pub ping_gap_ms: u64,
    pub ping_every_seconds: u64,
    /// Per display, the round trip of the sample its offset came from.
    pub best_round_trip: Summary,
    /// Displays with no offset at the end (no pong with `now`).
    pub without_offset: usize,
    pub pongs_without_now: u64,
}

impl SyncReport {
    /// How the displays kept their offsets, from their records.
    pub fn of(args: &ClockArgs, records: &[DisplayRecord]) -> Self {
        let mut best_round_trip = Recorder::new();
        for ms in records.iter().filter_map(|r| r.best_round_trip_ms) {
            best_round_trip.record(Duration::from_secs_f64(ms / 1000.0));
        }
        SyncReport {
            pings: args.pings,
            ping_gap_ms: args.ping_gap_ms,
            ping_every_seconds: args.ping_every,
            best_round_trip: best_round_trip.summary(),
            without_offset: records.iter().filter(|r| r.log.offsets.is_empty()).count(),
            pongs_without_now: records.iter().map(|r| r.pongs_without_now).sum(),
        }
    }
}

/// (display, stop) pairs where the first clock the display got at or after
/// the stop's seq was not a stopped one (or never came).
pub fn not_shown_stopped(records: &[DisplayRecord], stops: &[Mark]) -> u64 {
    let mut n = 0;
    for r in records.iter().filter(|r| !r.log.clocks.is_empty()) {
        for stop in stops {
            let first = r.log.clocks.iter().find(|c| c.1 >= stop.seq);
            if first.is_none_or(|c| c.2.running) {
                n += 1;
            }
        }
    }
    n
}

/// The stops' update frames as display 0 kept them.
pub fn stop_frames(records: &[DisplayRecord], stops: &[Mark]) -> FrameStats {
    let Some(first) = records.first() else {
        return FrameStats::default();
    };
    FrameStats::of(
        first.updates.iter().filter(|f| seq_of(f).is_some_and(|s| stops.iter().any(|m| m.seq == s))).map(String::len),
    )
}

impl Report {
    /// Every display connected, synced and shown every stop in time; the
    /// reconnected sample back; the floor's round complete.
    pub fn passed(&self) -> bool {
        self.open.failed == 0
            && self.timed_out == 0
            && self.stop_to_stopped.missed == 0
            && self.stops_not_shown_stopped == 0
            && self.sync.without_offset == 0
            && self.reconnect.as_ref().is_none_or(|r| r.reconnect.back == r.reconnect.sample)
            && self.baseline.as_ref().is_none_or(|b| b.deliveries.missed == 0 && b.open.failed == 0)
            && self.after.clean()
    }

    pub fn human(&self) -> String {
        let report = self;
        let mut s = format!(
            "clock — {} displays over {} watching game {}, {} start/stop cycles via {}\n",
            report.open.requested,
            report.urls.join(", "),
            report.game_id,
            report.cycles,
            report.console_url,
        );
        s.push_str(&report.open.human());
        let sync = &report.sync;
        s.push_str(&format!(
            "  sync          {} pings {} ms apart, then every {} s; best round trip per display {}\n",
            sync.pings, sync.ping_gap_ms, sync.ping_every_seconds, sync.best_round_trip
        ));
        if sync.without_offset > 0 || sync.pongs_without_now > 0 {
            s.push_str(&format!(
                "  ! {} displays without an offset; {} pongs without `now`\n",
                sync.without_offset, sync.pongs_without_now
            ));
        }
        s.push_str(&format!("  console rtt   {}\n", report.console_round_trip));
        let stop = &report.stop_to_stopped;
        s.push_str(&format!(
            "  start→running time to last {}\n  stop→stopped  per display {}\n                time to last {}\n                {} missed, {} coalesced; {} not shown stopped; stop frames {} bytes (min {}, max {})\n",
            report.start_to_running.time_to_last,
            stop.per_delivery,
            stop.time_to_last,
            stop.missed,
            stop.coalesced,
            report.stops_not_shown_stopped,
            report.stop_frames.mean_bytes,
            report.stop_frames.min_bytes,
            report.stop_frames.max_bytes,
        ));
        if report.timed_out > 0 {
            s.push_str(&format!("  ! {} starts/stops did not reach every display in time\n", report.timed_out));
        }
        s.push_str(&self.skew_lines());
        if let Some(b) = &report.baseline {
            s.push_str(&b.human());
        }
        s.push_str(&report.after.human());
        s
    }

    fn skew_lines(&self) -> String {
        let across = &self.skew.across_nodes;
        let mut s = format!("  skew, all     {across}{}\n", target(across));
        if self.skew.per_node.len() > 1 {
            for n in &self.skew.per_node {
                s.push_str(&format!("  skew, {}  {}{}\n", n.url, n.skew, target(&n.skew)));
            }
        }
        if let Some(r) = &self.reconnect {
            s.push_str(&format!(
                "  reconnect     {} of {} back, synced again after {}\n  skew, reconnected {}{}\n  skew, everyone after {}\n",
                r.reconnect.back,
                r.reconnect.sample,
                r.reconnect.back_after,
                r.reconnected,
                target(&r.reconnected),
                r.everyone,
            ));
            if !r.reconnect.errors.is_empty() {
                s.push_str(&r.reconnect.errors.lines());
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;
    use crate::game_clock::GameClock;
    use crate::skew::DisplayLog;

    fn clock(running: bool) -> GameClock {
        GameClock { running, remaining_ms: 60_000.0, at: 0.0 }
    }

    fn record(idx: usize, clocks: &[(u64, bool)], updates: &[&str]) -> DisplayRecord {
        DisplayRecord {
            idx,
            log: DisplayLog {
                offsets: vec![(0.0, 0.0)],
                clocks: clocks.iter().map(|&(q, r)| (1.0, q, clock(r))).collect(),
            },
            updates: updates.iter().map(|u| (*u).to_owned()).collect(),
            ..DisplayRecord::default()
        }
    }

    #[test]
    fn a_stop_counts_as_shown_when_the_first_clock_after_it_is_stopped() {
        let t = Instant::now();
        let stops = [Mark { seq: 3, sent_at: t }, Mark { seq: 5, sent_at: t }];
        // Display 0 saw both stops; display 1 got seq 4 (running again)
        // first after stop 3 — coalesced past it — and never stop 5.
        let records = [
            record(0, &[(2, true), (3, false), (4, true), (5, false)], &[]),
            record(1, &[(2, true), (4, true)], &[]),
            record(2, &[], &[]),
        ];
        assert_eq!(not_shown_stopped(&records, &stops), 2);
    }

    #[test]
    fn stop_frames_are_display_zeros_frames_of_the_stops_versions() {
        let t = Instant::now();
        let stops = [Mark { seq: 3, sent_at: t }];
        let start = r#"{"type":"update","topic":"game:g","seq":2,"data":{"clock":{}}}"#;
        let stop = r#"{"type":"update","topic":"game:g","seq":3,"data":{"clock":{"running":false}}}"#;
        let records = [record(0, &[], &[start, stop])];
        let frames = stop_frames(&records, &stops);
        assert_eq!((frames.count, frames.max_bytes), (1, stop.len()));
        assert_eq!(stop_frames(&[], &stops).count, 0);
        assert_eq!(seq_of("not json"), None);
    }
}
