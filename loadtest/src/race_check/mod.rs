//! The verdict on an RSVP race: given what every client asked, what each was
//! told, and the final attendees document, list every broken promise.
//!
//! Pure, so it is tested on hand-built outcomes. The promises (DESIGN.md,
//! CONTRACT.md): no overbooking; every ATTENDING request either attends or
//! waits; ranks per role are 1..k in rank order; acceptance order is the
//! order of the versions the replies carry, so attendees come first in that
//! order and the waitlist follows it; what each client was told matches the
//! final document (nobody declined, so nothing moved after the fact).
//!
//! Several replies may carry the same version: a server that group-commits
//! decides a batch of RSVPs in one transaction, and the version is the
//! event's version after that commit. Within a batch, versions say nothing
//! about order, so the order checks allow ties; the ranks each waiter was
//! told still pin the waitlist order exactly.
//!
//! A **tiered** race (some requests come from regulars, and their window is
//! open: docs/pickup-night.md) is judged by the tiered promises instead of
//! the first-come ones: only regulars take places of a limited role, every
//! role's waitlist lists its regulars before anyone else, acceptance order
//! holds within each tier, and a non-regular's rank may grow after their
//! reply (regulars who ask later go ahead of them). Every other check is the
//!
//! - [`first_come`]: the first-come race's places and acceptance order;
//! - [`tiered`]: the tiered race's (regulars first).

mod first_come;
#[cfg(test)]
mod fixtures;
mod tiered;

use std::collections::{BTreeMap, HashMap};

use crate::api::{Attendees, RsvpReply};

/// The seed's HockeyPosition for goalies; every other position is a skater.
pub const GOALIE: &str = "GOALIE";

/// Skater positions handed out in turn to skater clients.
pub const SKATER_POSITIONS: [&str; 5] = ["CENTER", "LEFT_WING", "RIGHT_WING", "LEFT_DEFENSE", "RIGHT_DEFENSE"];

/// One racing client.
#[derive(Debug, Clone)]
pub struct Request {
    pub user_id: String,
    pub position: &'static str,
    /// On the event's list of regulars, with their window open: the race is
    /// tiered when any request is.
    pub regular: bool,
}

impl Request {
    pub fn is_goalie(&self) -> bool {
        self.position == GOALIE
    }
}

/// What a client heard back.
#[derive(Debug, Clone)]
pub enum Heard {
    /// `ok: true` with the RSVP body.
    Ok(RsvpReply),
    /// `ok: false` with this error code, or a transport failure.
    Failed(String),
    /// No reply (timed out, or never connected).
    Nothing(String),
}

/// Event limits; `None` is unlimited.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub skaters: Option<u32>,
    pub goalies: Option<u32>,
}

/// Where a user ended up in the final document.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Place {
    /// Index in `attending`.
    Attending(usize),
    /// Rank as listed.
    Waiting(u32),
}

fn role(position: &str) -> &'static str {
    if position == GOALIE { "goalie" } else { "skater" }
}

fn expected_attending(limit: Option<u32>, requested: usize) -> usize {
    limit.map_or(requested, |l| requested.min(l as usize))
}

/// Every violation found, as a sentence; empty means the race was fair.
pub fn check(limits: Limits, requests: &[Request], heard: &[Heard], doc: &Attendees) -> Vec<String> {
    let mut v = Vec::new();
    // 1. Every client got a successful reply.
    check_replies(requests, heard, &mut v);
    let tiered = requests.iter().any(|r| r.regular);
    let requested: HashMap<&str, &Request> = requests.iter().map(|r| (r.user_id.as_str(), r)).collect();
    // 2. Exactly the right number attend per role: no overbooking, and no
    //    free place left while someone of that role waits (tiered: while a
    //    regular of that role waits; nobody else takes a limited place).
    if tiered {
        tiered::check_places(limits, requests, &requested, doc, &mut v);
    } else {
        first_come::check_places(limits, requests, doc, &mut v);
    }
    // 3. Everybody appears exactly once, in their own position; nobody else.
    let place = check_listed(requests, &requested, doc, &mut v);
    if tiered {
        tiered::check_regular_flags(&requested, doc, &mut v);
    }
    // 4. Waitlist ranks count 1, 2, 3… per role in listed order (tiered:
    //    regulars first).
    check_ranks(doc, &mut v);
    if tiered {
        tiered::check_regulars_first(&requested, doc, &mut v);
    }
    // 5. Each reply agrees with the final document.
    check_told(requests, heard, &place, tiered, &mut v);
    // 6. Acceptance order is version order.
    check_order(requests, heard, &requested, doc, tiered, &mut v);
    v
}

/// Check 1: a successful reply for every request.
fn check_replies(requests: &[Request], heard: &[Heard], v: &mut Vec<String>) {
    for (req, h) in requests.iter().zip(heard) {
        match h {
            Heard::Ok(_) => {}
            Heard::Failed(e) => v.push(format!("user {} got an error reply: {e}", req.user_id)),
            Heard::Nothing(e) => v.push(format!("user {} got no reply: {e}", req.user_id)),
        }
    }
    if heard.len() != requests.len() {
        v.push(format!("{} requests but {} outcomes recorded", requests.len(), heard.len()));
    }
}

/// Check 3: everybody listed once, in the position they asked for, and
/// nobody who did not ask. Where each user is.
fn check_listed<'a>(
    requests: &[Request],
    requested: &HashMap<&str, &Request>,
    doc: &'a Attendees,
    v: &mut Vec<String>,
) -> HashMap<&'a str, Place> {
    let mut place: HashMap<&str, Place> = HashMap::new();
    let mut listed_position: HashMap<&str, &str> = HashMap::new();
    let entries = doc
        .attending
        .iter()
        .enumerate()
        .map(|(i, a)| (a.user_id.as_str(), a.position.as_str(), Place::Attending(i)))
        .chain(doc.waitlist.iter().map(|w| (w.user_id.as_str(), w.position.as_str(), Place::Waiting(w.rank))));
    for (user, position, p) in entries {
        if !requested.contains_key(user) {
            v.push(format!("user {user} is listed but never asked"));
        }
        if place.insert(user, p).is_some() {
            v.push(format!("user {user} is listed more than once"));
        }
        listed_position.insert(user, position);
    }
    for r in requests {
        match listed_position.get(r.user_id.as_str()) {
            None => v.push(format!("user {} asked but is neither attending nor waiting", r.user_id)),
            Some(&p) if p != r.position => {
                v.push(format!("user {} asked as {} but is listed as {p}", r.user_id, r.position))
            }
            Some(_) => {}
        }
    }
    place
}

/// Check 4: waitlist ranks count 1, 2, 3… per role in listed order.
fn check_ranks(doc: &Attendees, v: &mut Vec<String>) {
    let mut next_rank: BTreeMap<&str, u32> = BTreeMap::new();
    for w in &doc.waitlist {
        let n = next_rank.entry(role(&w.position)).or_insert(0);
        *n += 1;
        if w.rank != *n {
            v.push(format!("{} waitlist: user {} has rank {} at place {}", role(&w.position), w.user_id, w.rank, n));
        }
    }
}

/// Check 5: what each client was told is where the document has them.
fn check_told(requests: &[Request], heard: &[Heard], place: &HashMap<&str, Place>, tiered: bool, v: &mut Vec<String>) {
    for (req, h) in requests.iter().zip(heard) {
        let Heard::Ok(reply) = h else { continue };
        match (reply.status.as_str(), place.get(req.user_id.as_str())) {
            ("ATTENDING", Some(Place::Attending(_))) => {
                if reply.waitlist_rank.is_some() {
                    v.push(format!(
                        "user {} was told ATTENDING with waitlist rank {:?}",
                        req.user_id, reply.waitlist_rank
                    ));
                }
            }
            // Tiered: a non-regular's rank grows as regulars ask after
            // them; check 6 bounds it instead.
            ("WAITLISTED", Some(&Place::Waiting(_))) if tiered && !req.regular => {}
            ("WAITLISTED", Some(&Place::Waiting(rank))) => {
                if reply.waitlist_rank != Some(rank) {
                    v.push(format!("user {} was told rank {:?} but is rank {rank}", req.user_id, reply.waitlist_rank));
                }
            }
            (status, p) => v.push(format!(
                "user {} was told {status} but the document says {}",
                req.user_id,
                match p {
                    Some(Place::Attending(_)) => "attending",
                    Some(Place::Waiting(_)) => "waiting",
                    None => "absent",
                }
            )),
        }
    }
}

/// Check 6: acceptance order is version order (ties are one commit):
/// attendees in that order, each role's waitlist in that order, and within
/// a role no waiter was committed before an attendee (tiered: within each
/// tier, and among regulars); the document no older than any reply.
fn check_order(
    requests: &[Request],
    heard: &[Heard],
    requested: &HashMap<&str, &Request>,
    doc: &Attendees,
    tiered: bool,
    v: &mut Vec<String>,
) {
    let version_of: HashMap<&str, u64> = requests
        .iter()
        .zip(heard)
        .filter_map(|(r, h)| match h {
            Heard::Ok(RsvpReply { version: Some(ver), .. }) => Some((r.user_id.as_str(), *ver)),
            _ => None,
        })
        .collect();
    let ok_replies = heard.iter().filter(|h| matches!(h, Heard::Ok(_))).count();
    if version_of.len() < ok_replies {
        v.push(format!(
            "{} successful replies carry no version; acceptance order not checked",
            ok_replies - version_of.len()
        ));
        return;
    }
    check_increasing("attending list", doc.attending.iter().map(|a| a.user_id.as_str()), &version_of, v);
    if tiered {
        tiered::check_order(requests, heard, requested, doc, &version_of, v);
    } else {
        first_come::check_order(doc, &version_of, v);
    }
    if let Some(&max) = version_of.values().max()
        && doc.version < max
    {
        v.push(format!("document version {} is older than reply version {max}", doc.version));
    }
}

/// The users, in listed order, were accepted in version order (ties
/// allowed: one commit).
fn check_increasing<'a>(
    what: &str,
    users: impl Iterator<Item = &'a str>,
    version_of: &HashMap<&str, u64>,
    v: &mut Vec<String>,
) {
    let mut prev: Option<(u64, &str)> = None;
    for user in users {
        let Some(&ver) = version_of.get(user) else {
            continue;
        };
        if let Some((pv, pu)) = prev
            && ver < pv
        {
            v.push(format!("{what} out of acceptance order: {pu} (version {pv}) listed before {user} (version {ver})"));
        }
        prev = Some((ver, user));
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::{LIMITS, fair};
    use super::*;
    use crate::api::Waiting;

    #[test]
    fn a_gap_in_waitlist_ranks_is_reported() {
        let (r, h, mut d) = fair(8, &[], LIMITS);
        d.waitlist[1].rank = 3;
        let v = check(LIMITS, &r, &h, &d);
        assert!(v.iter().any(|m| m.contains("has rank 3 at place 2")), "{v:?}");
    }

    #[test]
    fn missing_replies_errors_and_strangers_are_reported() {
        let (r, mut h, mut d) = fair(5, &[], LIMITS);
        h[0] = Heard::Nothing("timeout".into());
        h[1] = Heard::Failed("conflict".into());
        d.waitlist.push(Waiting { user_id: "stranger".into(), position: "CENTER".into(), rank: 3, regular: None });
        let v = check(LIMITS, &r, &h, &d);
        assert!(v.iter().any(|m| m.contains("u0 got no reply")), "{v:?}");
        assert!(v.iter().any(|m| m.contains("u1 got an error reply")), "{v:?}");
        assert!(v.iter().any(|m| m.contains("stranger is listed but never asked")), "{v:?}");
    }

    #[test]
    fn someone_missing_from_the_document_is_reported() {
        let (r, h, mut d) = fair(5, &[], LIMITS);
        d.waitlist.pop();
        let v = check(LIMITS, &r, &h, &d);
        assert!(v.iter().any(|m| m.contains("u4 asked but is neither")), "{v:?}");
        assert!(v.iter().any(|m| m.contains("u4 was told WAITLISTED but the document says absent")), "{v:?}");
    }

    #[test]
    fn a_stale_document_is_reported() {
        let (r, h, mut d) = fair(4, &[], LIMITS);
        d.version = 3;
        let v = check(LIMITS, &r, &h, &d);
        assert_eq!(v.len(), 1, "{v:?}");
        assert!(v[0].contains("document version 3 is older than reply version 4"), "{v:?}");
    }

    #[test]
    fn replies_without_versions_skip_the_order_checks_but_say_so() {
        let (r, mut h, d) = fair(4, &[], LIMITS);
        for x in &mut h {
            if let Heard::Ok(reply) = x {
                reply.version = None;
            }
        }
        let v = check(LIMITS, &r, &h, &d);
        assert_eq!(v.len(), 1, "{v:?}");
        assert!(v[0].contains("carry no version"));
    }

    #[test]
    fn a_position_change_is_reported() {
        let (r, h, mut d) = fair(3, &[], LIMITS);
        d.attending[0].position = "LEFT_WING".into();
        let v = check(LIMITS, &r, &h, &d);
        assert!(v.iter().any(|m| m.contains("asked as CENTER but is listed as LEFT_WING")), "{v:?}");
    }
}
