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

use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::Instant;

use serde_json::{Value, json};

use crate::api::Attendees;
use crate::race_check::GOALIE;
use crate::stats::Recorder;

/// An RSVP answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    Attending,
    Declined,
}

impl Answer {
    pub fn as_str(self) -> &'static str {
        match self {
            Answer::Attending => "ATTENDING",
            Answer::Declined => "DECLINED",
        }
    }

    pub fn toggled(self) -> Answer {
        match self {
            Answer::Attending => Answer::Declined,
            Answer::Declined => Answer::Attending,
        }
    }
}

/// One RSVP the server acknowledged.
#[derive(Debug, Clone)]
pub struct RsvpAck {
    pub user_id: String,
    pub event: usize,
    /// The user's own count of its RSVPs: orders a user's answers.
    pub n: u64,
    pub answer: Answer,
    pub position: &'static str,
    pub version: u64,
    pub acked_at: Instant,
}

/// An RSVP that never got an answer before the run gave up on it: its
/// (user, event) is uncertain, so it is left out of the loss check and
/// reported instead.
#[derive(Debug, Clone)]
pub struct Unresolved {
    pub user_id: String,
    pub event: usize,
    pub n: u64,
}

/// One event's limits and final document.
#[derive(Debug, Clone)]
pub struct EventFinal {
    pub max_skaters: u32,
    pub max_goalies: u32,
    pub doc: Attendees,
}

/// What the RSVP check found.
#[derive(Debug, Default, Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RsvpVerdict {
    /// Acknowledged answers the final state does not reflect.
    pub lost: Vec<String>,
    /// Over a limit, a place free while someone waits, ranks out of order,
    /// someone listed twice, a version newer than the document.
    pub broken: Vec<String>,
}

#[cfg(test)]
impl RsvpVerdict {
    pub fn clean(&self) -> bool {
        self.lost.is_empty() && self.broken.is_empty()
    }
}

fn is_goalie(position: &str) -> bool {
    position == GOALIE
}

/// See the module doc.
pub fn check_rsvps(events: &[EventFinal], acks: &[RsvpAck], unresolved: &[Unresolved]) -> RsvpVerdict {
    let mut v = RsvpVerdict::default();
    for (i, e) in events.iter().enumerate() {
        check_event_shape(i, e, &mut v.broken);
    }
    // The last acknowledged answer per (user, event), by the user's order.
    let mut last: HashMap<(&str, usize), &RsvpAck> = HashMap::new();
    for a in acks {
        let slot = last.entry((a.user_id.as_str(), a.event)).or_insert(a);
        if a.n > slot.n {
            *slot = a;
        }
        if let Some(e) = events.get(a.event)
            && a.version > e.doc.version
        {
            v.broken.push(format!(
                "event {}: an RSVP was acknowledged at version {} but the document is at {}",
                a.event, a.version, e.doc.version
            ));
        }
    }
    let uncertain: HashSet<(&str, usize)> = unresolved.iter().map(|u| (u.user_id.as_str(), u.event)).collect();
    let mut keys: Vec<_> = last.keys().copied().collect();
    keys.sort();
    for key in keys {
        let (user, event) = key;
        let (Some(a), Some(e)) = (last.get(&key), events.get(event)) else { continue };
        // A later RSVP of this pair that never got an answer may or may not
        // have been applied.
        if uncertain.contains(&key) && unresolved.iter().any(|u| u.user_id == user && u.event == event && u.n > a.n) {
            continue;
        }
        let place = e
            .doc
            .attending
            .iter()
            .find(|x| x.user_id == user)
            .map(|x| x.position.as_str())
            .or_else(|| e.doc.waitlist.iter().find(|w| w.user_id == user).map(|w| w.position.as_str()));
        match (a.answer, place) {
            (Answer::Attending, None) => v.lost.push(format!(
                "event {event}: user {user}'s ATTENDING was acknowledged (version {}) but they are not listed",
                a.version
            )),
            (Answer::Attending, Some(p)) if p != a.position => v.lost.push(format!(
                "event {event}: user {user} asked as {} (acknowledged) but is listed as {p}",
                a.position
            )),
            (Answer::Declined, Some(_)) => v.lost.push(format!(
                "event {event}: user {user} declined (acknowledged at version {}) but is still listed",
                a.version
            )),
            _ => {}
        }
    }
    v
}

/// Limits, promotion, ranks and duplicates of one final document.
fn check_event_shape(i: usize, e: &EventFinal, broken: &mut Vec<String>) {
    let goalies = e.doc.attending.iter().filter(|a| is_goalie(&a.position)).count();
    let skaters = e.doc.attending.len() - goalies;
    let waiting_goalies: Vec<_> = e.doc.waitlist.iter().filter(|w| is_goalie(&w.position)).collect();
    let waiting_skaters: Vec<_> = e.doc.waitlist.iter().filter(|w| !is_goalie(&w.position)).collect();
    let (max_s, max_g) = (e.max_skaters as usize, e.max_goalies as usize);
    if skaters > max_s {
        broken.push(format!("event {i}: {skaters} skaters attending, over the limit of {max_s}"));
    }
    if goalies > max_g {
        broken.push(format!("event {i}: {goalies} goalies attending, over the limit of {max_g}"));
    }
    if skaters < max_s && !waiting_skaters.is_empty() {
        broken.push(format!("event {i}: {skaters} of {max_s} skater places taken while skaters wait"));
    }
    if goalies < max_g && !waiting_goalies.is_empty() {
        broken.push(format!("event {i}: {goalies} of {max_g} goalie places taken while goalies wait"));
    }
    for (role, list) in [("skater", &waiting_skaters), ("goalie", &waiting_goalies)] {
        let ranks: Vec<u32> = list.iter().map(|w| w.rank).collect();
        let want: Vec<u32> = (1..=u32::try_from(list.len()).unwrap_or(u32::MAX)).collect();
        if ranks != want {
            broken.push(format!("event {i}: {role} waitlist ranks are {ranks:?}, not 1..{}", list.len()));
        }
    }
    let mut seen = HashSet::new();
    for user in e.doc.attending.iter().map(|a| &a.user_id).chain(e.doc.waitlist.iter().map(|w| &w.user_id)) {
        if !seen.insert(user) {
            broken.push(format!("event {i}: user {user} is listed twice"));
        }
    }
}

/// Home or away.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Home,
    Away,
}

/// One goal the server acknowledged.
#[derive(Debug, Clone)]
pub struct GoalAck {
    pub side: Side,
    /// The game's version after the goal (the reply's `version`).
    pub version: u64,
    /// The `seq` of the goal's log entry (the last entry of the reply's log).
    pub entry_seq: i64,
    pub acked_at: Instant,
}

/// The game as finally read.
#[derive(Debug, Clone)]
pub struct GameFinal {
    pub version: u64,
    pub home_score: u64,
    pub away_score: u64,
    pub home_roster_id: String,
    pub away_roster_id: String,
    /// `(seq, type, rosterId)` of every log entry.
    pub log: Vec<(i64, String, Option<String>)>,
}

impl GameFinal {
    pub fn from_doc(doc: &Value) -> Option<Self> {
        let log = doc["log"]
            .as_array()?
            .iter()
            .map(|e| {
                let seq = e["seq"].as_i64().unwrap_or(-1);
                let kind = e["type"].as_str().unwrap_or_default().to_owned();
                (seq, kind, e["rosterId"].as_str().map(str::to_owned))
            })
            .collect();
        Some(Self {
            version: doc["version"].as_u64()?,
            home_score: doc["homeScore"].as_u64()?,
            away_score: doc["awayScore"].as_u64()?,
            home_roster_id: doc["homeRosterId"].as_str()?.to_owned(),
            away_roster_id: doc["awayRosterId"].as_str()?.to_owned(),
            log,
        })
    }
}

/// See the module doc. `unresolved` goals may or may not have counted.
pub fn check_goals(game: &GameFinal, acks: &[GoalAck], unresolved: usize) -> Vec<String> {
    let mut v = Vec::new();
    let mut seqs = HashSet::new();
    for a in acks {
        let roster = match a.side {
            Side::Home => &game.home_roster_id,
            Side::Away => &game.away_roster_id,
        };
        let present =
            game.log.iter().any(|(seq, kind, r)| *seq == a.entry_seq && kind == "GOAL" && r.as_ref() == Some(roster));
        if !present {
            v.push(format!(
                "goal at log seq {} (version {}) was acknowledged but is not in the log",
                a.entry_seq, a.version
            ));
        }
        if !seqs.insert(a.entry_seq) {
            v.push(format!("two acknowledged goals share log seq {}", a.entry_seq));
        }
        if a.version > game.version {
            v.push(format!("a goal was acknowledged at version {} but the game is at {}", a.version, game.version));
        }
    }
    let unresolved = u64::try_from(unresolved).unwrap_or(u64::MAX);
    for (side, score) in [(Side::Home, game.home_score), (Side::Away, game.away_score)] {
        let acked = u64::try_from(acks.iter().filter(|a| a.side == side).count()).unwrap_or(u64::MAX);
        if score < acked || score > acked.saturating_add(unresolved) {
            v.push(format!("{side:?} score is {score}, but {acked} goals were acknowledged ({unresolved} unresolved)"));
        }
    }
    v
}

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
    use crate::api::{Attending, Waiting};
    use std::time::Duration;

    fn doc(version: u64, attending: &[(&str, &str)], waitlist: &[(&str, &str, u32)]) -> Attendees {
        Attendees {
            version,
            attending: attending
                .iter()
                .map(|(u, p)| Attending { user_id: u.to_string(), position: p.to_string() })
                .collect(),
            waitlist: waitlist
                .iter()
                .map(|(u, p, r)| Waiting { user_id: u.to_string(), position: p.to_string(), rank: *r, regular: None })
                .collect(),
        }
    }

    fn event(max_skaters: u32, max_goalies: u32, d: Attendees) -> EventFinal {
        EventFinal { max_skaters, max_goalies, doc: d }
    }

    fn ack(user: &str, n: u64, answer: Answer, position: &'static str, version: u64) -> RsvpAck {
        RsvpAck { user_id: user.into(), event: 0, n, answer, position, version, acked_at: Instant::now() }
    }

    #[test]
    fn the_last_acknowledged_answer_is_what_must_hold() {
        let e = event(2, 1, doc(5, &[("a", "CENTER")], &[]));
        let acks = [
            ack("a", 1, Answer::Declined, "CENTER", 1),
            ack("a", 2, Answer::Attending, "CENTER", 2),
            ack("b", 1, Answer::Attending, "CENTER", 3),
            ack("b", 2, Answer::Declined, "CENTER", 4),
        ];
        assert!(check_rsvps(&[e], &acks, &[]).clean());
    }

    #[test]
    fn a_lost_attending_a_lost_decline_and_a_changed_position_are_reported() {
        let e = event(5, 1, doc(9, &[("b", "CENTER"), ("c", "LEFT_WING")], &[]));
        let acks = [
            ack("a", 1, Answer::Attending, "CENTER", 1),
            ack("b", 1, Answer::Attending, "CENTER", 2),
            ack("b", 2, Answer::Declined, "CENTER", 3),
            ack("c", 1, Answer::Attending, "CENTER", 4),
        ];
        let v = check_rsvps(&[e], &acks, &[]);
        assert_eq!(v.lost.len(), 3, "{v:?}");
        assert!(v.lost[0].contains("user a") && v.lost[0].contains("not listed"), "{v:?}");
        assert!(v.lost[1].contains("user b") && v.lost[1].contains("still listed"), "{v:?}");
        assert!(v.lost[2].contains("user c") && v.lost[2].contains("LEFT_WING"), "{v:?}");
    }

    #[test]
    fn an_unanswered_later_rsvp_makes_its_pair_uncertain_not_lost() {
        let e = event(5, 1, doc(9, &[], &[]));
        let acks = [ack("a", 1, Answer::Attending, "CENTER", 1)];
        let unresolved = [Unresolved { user_id: "a".into(), event: 0, n: 2 }];
        assert!(check_rsvps(std::slice::from_ref(&e), &acks, &unresolved).clean());
        // An earlier unanswered one does not excuse a later acknowledged one.
        let unresolved = [Unresolved { user_id: "a".into(), event: 0, n: 0 }];
        assert_eq!(check_rsvps(&[e], &acks, &unresolved).lost.len(), 1);
    }

    #[test]
    fn overbooking_unpromoted_waiters_bad_ranks_and_duplicates_are_broken_promises() {
        let e = event(
            1,
            1,
            doc(3, &[("a", "CENTER"), ("b", "CENTER"), ("a", "GOALIE")], &[("c", "CENTER", 2), ("d", "GOALIE", 1)]),
        );
        let v = check_rsvps(&[e], &[], &[]);
        let all = v.broken.join("\n");
        assert!(all.contains("2 skaters attending, over the limit of 1"), "{all}");
        assert!(all.contains("skater waitlist ranks are [2]"), "{all}");
        assert!(all.contains("user a is listed twice"), "{all}");
        let e = event(2, 1, doc(3, &[("a", "CENTER")], &[("c", "CENTER", 1)]));
        assert!(check_rsvps(&[e], &[], &[]).broken[0].contains("1 of 2 skater places taken while skaters wait"));
    }

    #[test]
    fn an_acknowledged_version_newer_than_the_document_is_broken() {
        let e = event(5, 1, doc(2, &[("a", "CENTER")], &[]));
        let v = check_rsvps(&[e], &[ack("a", 1, Answer::Attending, "CENTER", 3)], &[]);
        assert!(v.broken[0].contains("version 3 but the document is at 2"), "{v:?}");
    }

    fn game(home: u64, away: u64, log: &[(i64, &str, &str)]) -> GameFinal {
        GameFinal {
            version: 10,
            home_score: home,
            away_score: away,
            home_roster_id: "H".into(),
            away_roster_id: "A".into(),
            log: log.iter().map(|(s, k, r)| (*s, k.to_string(), Some(r.to_string()))).collect(),
        }
    }

    fn goal(side: Side, entry_seq: i64) -> GoalAck {
        GoalAck { side, version: 3, entry_seq, acked_at: Instant::now() }
    }

    #[test]
    fn every_acknowledged_goal_is_in_the_log_and_the_score() {
        let g = game(1, 1, &[(1, "START", "x"), (2, "GOAL", "H"), (3, "GOAL", "A")]);
        assert!(check_goals(&g, &[goal(Side::Home, 2), goal(Side::Away, 3)], 0).is_empty());
        let v = check_goals(&g, &[goal(Side::Home, 2), goal(Side::Home, 3)], 0);
        assert!(v.iter().any(|m| m.contains("log seq 3")), "{v:?}");
        assert!(v.iter().any(|m| m.contains("Home score is 1, but 2")), "{v:?}");
        let v = check_goals(&g, &[goal(Side::Home, 2), goal(Side::Home, 2)], 0);
        assert!(v.iter().any(|m| m.contains("share log seq 2")), "{v:?}");
    }

    #[test]
    fn unresolved_goals_may_or_may_not_have_counted() {
        let g = game(2, 0, &[(2, "GOAL", "H"), (3, "GOAL", "H")]);
        assert!(check_goals(&g, &[goal(Side::Home, 2)], 1).is_empty());
        assert!(!check_goals(&g, &[goal(Side::Home, 2)], 0).is_empty());
    }

    #[test]
    fn game_documents_read_from_json() {
        let doc = json!({"version": 4, "homeScore": 1, "awayScore": 0, "homeRosterId": "H", "awayRosterId": "A",
            "log": [{"seq": 1, "type": "START", "rosterId": null}, {"seq": 2, "type": "GOAL", "rosterId": "H"}]});
        let g = GameFinal::from_doc(&doc).unwrap();
        assert_eq!((g.version, g.home_score, g.log.len()), (4, 1, 2));
        assert_eq!(g.log[1], (2, "GOAL".to_string(), Some("H".to_string())));
        assert!(GameFinal::from_doc(&json!({})).is_none());
    }

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
