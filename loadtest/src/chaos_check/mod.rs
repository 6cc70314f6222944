//! The verdict of a `chaos` run, as pure functions over what the clients
//! were told and what the cluster finally holds, so each is tested on
//! hand-built outcomes:
//!
//! - [`check_rsvps`]: every RSVP the server acknowledged (2xx) is in the
//!   final attendees documents — a user whose last acknowledged answer
//!   was ATTENDING is attending or waitlisted in the position asked, one
//!   who declined is not listed — and no event is over its limits, leaves
//!   a place free while someone of that role waits, or ranks its waitlist
//!   wrongly;
//! - [`check_goals`]: every acknowledged goal is in the final game log, once,
//!   and the score is the acknowledged goals;
//! - [`normalize_event`] / [`normalize_game`]: the part of a document a
//!   subscriber and the HTTP read must agree on, whichever frame carried it;
//! - [`delivery_lags`]: how long each acknowledged change took to reach each
//!   subscriber of its topic, split into calm and disrupted periods.
//!
//! The RSVPs' verdict is [`rsvps`], the goals' [`goals`]; the rest is here.

mod goals;
mod rsvps;

use std::collections::BTreeMap;
use std::time::Instant;

use serde_json::{Value, json};

pub use goals::{GameFinal, GoalAck, Side, check_goals};
pub use rsvps::{Answer, EventFinal, RsvpAck, Unresolved, check_rsvps};

use crate::stats::Recorder;

/// What a subscriber of `event:ID` and the HTTP attendees read must agree
/// on: the version and who is where, in order.
pub fn normalize_event(doc: &Value) -> Value {
    let ids = |key: &str| -> Vec<Value> {
        doc[key]
            .as_array()
            .map(|a| a.iter().map(|e| json!([e["userId"], e["position"], e["rank"]])).collect())
            .unwrap_or_default()
    };
    json!({"version": doc["version"], "attending": ids("attending"), "waitlist": ids("waitlist")})
}

/// What a subscriber of `game:ID` (snapshot or the smaller update) and the
/// HTTP game read must agree on: the scoreboard.
pub fn normalize_game(doc: &Value) -> Value {
    json!({
        "version": doc["version"],
        "homeScore": doc["homeScore"],
        "awayScore": doc["awayScore"],
        "status": doc["status"],
        "period": doc["period"],
    })
}

/// Request latencies (`(sent, took)`) split by whether the request was
/// sent inside a disruption window: `(all, calm, disrupted)`.
pub fn split_latencies(
    timings: &[(Instant, std::time::Duration)],
    windows: &[(Instant, Instant)],
) -> (Recorder, Recorder, Recorder) {
    let (mut all, mut calm, mut disrupted) = (Recorder::new(), Recorder::new(), Recorder::new());
    for (sent, took) in timings {
        all.record(*took);
        if windows.iter().any(|(from, to)| (*from..=*to).contains(sent)) {
            disrupted.record(*took);
        } else {
            calm.record(*took);
        }
    }
    (all, calm, disrupted)
}

/// One acknowledged change: its topic (index), the version it produced,
/// and when the client had the acknowledgement.
#[derive(Debug, Clone, Copy)]
pub struct Change {
    pub topic: usize,
    pub version: u64,
    pub acked_at: Instant,
}

/// The lag of every (change, subscriber of its topic) pair: from the
/// acknowledgement to the first state the subscriber held at or past the
/// change's version (zero when the push beat the HTTP answer). Changes
/// acknowledged inside a disruption window are booked apart.
pub struct Lags {
    pub calm: Recorder,
    pub disrupted: Recorder,
    /// Pairs the subscriber never caught up with.
    pub missed: u64,
}

/// `timelines`: per subscriber, its topic and the `(instant, seq)` of every
/// state it held that raised its seq (increasing in both).
pub fn delivery_lags(
    changes: &[Change],
    timelines: &[(usize, Vec<(Instant, u64)>)],
    windows: &[(Instant, Instant)],
) -> Lags {
    let mut lags = Lags { calm: Recorder::new(), disrupted: Recorder::new(), missed: 0 };
    let mut by_topic: BTreeMap<usize, Vec<&Vec<(Instant, u64)>>> = BTreeMap::new();
    for (topic, timeline) in timelines {
        by_topic.entry(*topic).or_default().push(timeline);
    }
    for c in changes {
        let disrupted = windows.iter().any(|(from, to)| (*from..=*to).contains(&c.acked_at));
        for timeline in by_topic.get(&c.topic).into_iter().flatten() {
            let at = timeline.partition_point(|(_, seq)| *seq < c.version);
            match timeline.get(at) {
                Some((t, _)) => {
                    let lag = t.saturating_duration_since(c.acked_at);
                    if disrupted { lags.disrupted.record(lag) } else { lags.calm.record(lag) }
                }
                None => lags.missed += 1,
            }
        }
    }
    lags
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn snapshots_updates_and_http_reads_normalize_alike() {
        let http = json!({"version": 3, "attending": [{"userId": "a", "position": "CENTER", "isPaid": true, "respondedAt": "x"}],
            "waitlist": [{"userId": "b", "position": "GOALIE", "rank": 1, "addedAt": "y"}], "counts": {}});
        let pushed = json!({"version": 3, "attending": [{"userId": "a", "position": "CENTER", "isPaid": false}],
            "waitlist": [{"userId": "b", "position": "GOALIE", "rank": 1}]});
        assert_eq!(normalize_event(&http), normalize_event(&pushed));
        let moved =
            json!({"version": 3, "attending": [], "waitlist": [{"userId": "b", "position": "GOALIE", "rank": 1}]});
        assert_ne!(normalize_event(&http), normalize_event(&moved));
        let full =
            json!({"version": 7, "homeScore": 2, "awayScore": 1, "status": "LIVE", "period": "1", "log": [1, 2]});
        let update =
            json!({"version": 7, "homeScore": 2, "awayScore": 1, "status": "LIVE", "period": "1", "logTail": []});
        assert_eq!(normalize_game(&full), normalize_game(&update));
    }

    #[test]
    fn latencies_split_by_the_window_they_were_sent_in() {
        let t0 = Instant::now();
        let at = |ms: u64| t0 + Duration::from_millis(ms);
        let timings = [
            (at(0), Duration::from_millis(5)),
            (at(100), Duration::from_millis(900)),
            (at(300), Duration::from_millis(7)),
        ];
        let (all, calm, disrupted) = split_latencies(&timings, &[(at(50), at(200))]);
        assert_eq!((all.count(), calm.count(), disrupted.count()), (3, 2, 1));
        assert!((disrupted.summary().max_ms - 900.0).abs() < 1.0);
        assert!(calm.summary().max_ms < 8.0);
    }

    #[test]
    fn lags_run_from_the_ack_to_the_first_state_at_or_past_the_version() {
        let t0 = Instant::now();
        let at = |ms: u64| t0 + Duration::from_millis(ms);
        // Subscriber 0 (topic 0) got seq 1 at 10 ms and, coalesced, seq 3 at 50 ms.
        // Subscriber 1 (topic 0) only ever had seq 1. Subscriber 2 is on topic 1.
        let timelines = vec![(0, vec![(at(10), 1), (at(50), 3)]), (0, vec![(at(5), 1)]), (1, vec![(at(0), 9)])];
        let changes =
            [Change { topic: 0, version: 1, acked_at: at(20) }, Change { topic: 0, version: 2, acked_at: at(30) }];
        let windows = [(at(25), at(40))];
        let lags = delivery_lags(&changes, &timelines, &windows);
        // Change 1: both subscribers had it before the ack: zero lag, calm.
        assert_eq!(lags.calm.count(), 2);
        assert!(lags.calm.summary().max_ms < 0.01);
        // Change 2 (disrupted): subscriber 0 at 50 ms (20 ms lag); subscriber 1 never.
        assert_eq!(lags.disrupted.count(), 1);
        assert!((lags.disrupted.summary().max_ms - 20.0).abs() < 0.1);
        assert_eq!(lags.missed, 1);
    }
}
