//! The RSVP verdict of a chaos run ([`check_rsvps`]): every acknowledged
//! answer is in the final attendees documents — a user whose last
//! acknowledged answer was ATTENDING is attending or waitlisted in the
//! position asked, one who declined is not listed — and no event is over
//! its limits, leaves a place free while someone of that role waits, or
//! ranks its waitlist wrongly.

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use crate::api::Attendees;
use crate::race_check::GOALIE;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{Attending, Waiting};

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
}
