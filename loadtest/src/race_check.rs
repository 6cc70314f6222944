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

    // 2. Exactly the right number attend per role: no overbooking, and no
    //    free place left while someone of that role waits.
    let goalie_requests = requests.iter().filter(|r| r.is_goalie()).count();
    let skater_requests = requests.len() - goalie_requests;
    let goalies = doc.attending.iter().filter(|a| a.position == GOALIE).count();
    let skaters = doc.attending.len() - goalies;
    let want_goalies = expected_attending(limits.goalies, goalie_requests);
    let want_skaters = expected_attending(limits.skaters, skater_requests);
    if goalies != want_goalies {
        v.push(format!(
            "{goalies} goalies attending, expected {want_goalies} (limit {:?}, {goalie_requests} asked)",
            limits.goalies
        ));
    }
    if skaters != want_skaters {
        v.push(format!(
            "{skaters} skaters attending, expected {want_skaters} (limit {:?}, {skater_requests} asked)",
            limits.skaters
        ));
    }

    // 3. Everybody appears exactly once, in their own position; nobody else.
    let mut place: HashMap<&str, Place> = HashMap::new();
    let mut listed_position: HashMap<&str, &str> = HashMap::new();
    let requested: HashMap<&str, &Request> = requests.iter().map(|r| (r.user_id.as_str(), r)).collect();
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

    // 4. Waitlist ranks count 1, 2, 3… per role in listed order.
    let mut next_rank: BTreeMap<&str, u32> = BTreeMap::new();
    for w in &doc.waitlist {
        let n = next_rank.entry(role(&w.position)).or_insert(0);
        *n += 1;
        if w.rank != *n {
            v.push(format!("{} waitlist: user {} has rank {} at place {}", role(&w.position), w.user_id, w.rank, n));
        }
    }

    // 5. Each reply agrees with the final document.
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

    // 6. Acceptance order is version order (ties are one commit): attendees
    //    in that order, each role's waitlist in that order, and within a role
    //    no waiter was committed before an attendee.
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
        return v;
    }
    check_increasing("attending list", doc.attending.iter().map(|a| a.user_id.as_str()), &version_of, &mut v);
    for r in ["skater", "goalie"] {
        check_increasing(
            &format!("{r} waitlist"),
            doc.waitlist.iter().filter(|w| role(&w.position) == r).map(|w| w.user_id.as_str()),
            &version_of,
            &mut v,
        );
        let last_in = doc
            .attending
            .iter()
            .filter(|a| role(&a.position) == r)
            .filter_map(|a| version_of.get(a.user_id.as_str()))
            .max();
        let first_waiting = doc
            .waitlist
            .iter()
            .filter(|w| role(&w.position) == r)
            .filter_map(|w| version_of.get(w.user_id.as_str()))
            .min();
        if let (Some(last_in), Some(first_waiting)) = (last_in, first_waiting)
            && first_waiting < last_in
        {
            v.push(format!("a {r} accepted at version {first_waiting} waits while one accepted at {last_in} attends"));
        }
    }
    if let Some(&max) = version_of.values().max()
        && doc.version < max
    {
        v.push(format!("document version {} is older than reply version {max}", doc.version));
    }
    v
}

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
    use super::*;
    use crate::api::{Attending, Waiting};

    /// Builds a fair outcome: clients accepted in index order, `goalies_at`
    /// are goalies.
    fn fair(n: usize, goalies_at: &[usize], limits: Limits) -> (Vec<Request>, Vec<Heard>, Attendees) {
        let requests: Vec<Request> = (0..n)
            .map(|i| Request {
                user_id: format!("u{i}"),
                position: if goalies_at.contains(&i) { GOALIE } else { "CENTER" },
            })
            .collect();
        let mut doc = Attendees { version: n as u64, attending: vec![], waitlist: vec![] };
        let mut heard = vec![];
        let (mut g, mut s, mut gw, mut sw) = (0u32, 0u32, 0u32, 0u32);
        let mut waiting_goalies = vec![];
        for (i, r) in requests.iter().enumerate() {
            let (count, limit, wait) =
                if r.is_goalie() { (&mut g, limits.goalies, &mut gw) } else { (&mut s, limits.skaters, &mut sw) };
            let version = Some(i as u64 + 1);
            if limit.is_none_or(|l| *count < l) {
                *count += 1;
                doc.attending.push(Attending { user_id: r.user_id.clone(), position: r.position.into() });
                heard.push(Heard::Ok(RsvpReply { status: "ATTENDING".into(), waitlist_rank: None, version }));
            } else {
                *wait += 1;
                let w = Waiting { user_id: r.user_id.clone(), position: r.position.into(), rank: *wait };
                // The server may list roles interleaved or grouped; group
                // goalies last to show grouping is accepted.
                if r.is_goalie() {
                    waiting_goalies.push(w);
                } else {
                    doc.waitlist.push(w);
                }
                heard.push(Heard::Ok(RsvpReply { status: "WAITLISTED".into(), waitlist_rank: Some(*wait), version }));
            }
        }
        doc.waitlist.extend(waiting_goalies);
        (requests, heard, doc)
    }

    const LIMITS: Limits = Limits { skaters: Some(3), goalies: Some(1) };

    #[test]
    fn a_fair_race_has_no_violations() {
        let (r, h, d) = fair(10, &[0, 5, 9], LIMITS);
        assert_eq!(check(LIMITS, &r, &h, &d), Vec::<String>::new());
    }

    #[test]
    fn unlimited_events_seat_everybody() {
        let limits = Limits { skaters: None, goalies: None };
        let (r, h, d) = fair(6, &[2], limits);
        assert!(d.waitlist.is_empty());
        assert_eq!(check(limits, &r, &h, &d), Vec::<String>::new());
    }

    #[test]
    fn overbooking_is_reported() {
        let (r, h, mut d) = fair(10, &[], LIMITS);
        let w = d.waitlist.remove(0);
        d.attending.push(Attending { user_id: w.user_id, position: w.position });
        let v = check(LIMITS, &r, &h, &d);
        assert!(v.iter().any(|m| m.contains("4 skaters attending, expected 3")), "{v:?}");
    }

    #[test]
    fn a_gap_in_waitlist_ranks_is_reported() {
        let (r, h, mut d) = fair(8, &[], LIMITS);
        d.waitlist[1].rank = 3;
        let v = check(LIMITS, &r, &h, &d);
        assert!(v.iter().any(|m| m.contains("has rank 3 at place 2")), "{v:?}");
    }

    #[test]
    fn a_waitlist_out_of_acceptance_order_is_reported() {
        let (r, h, mut d) = fair(8, &[], LIMITS);
        // Swap two waiters but keep ranks contiguous.
        let (a, b) = (d.waitlist[0].user_id.clone(), d.waitlist[1].user_id.clone());
        d.waitlist[0].user_id = b;
        d.waitlist[1].user_id = a;
        let v = check(LIMITS, &r, &h, &d);
        assert!(v.iter().any(|m| m.contains("skater waitlist out of acceptance order")), "{v:?}");
        // …and both clients were told a rank they no longer have.
        assert!(v.iter().filter(|m| m.contains("was told rank")).count() == 2, "{v:?}");
    }

    #[test]
    fn a_late_client_attending_before_an_early_one_is_reported() {
        let (r, h, mut d) = fair(6, &[], LIMITS);
        // u5 (version 6) attends in place of u2 (version 3), who waits.
        d.attending[2].user_id = "u5".into();
        let pos = d.waitlist.iter().position(|w| w.user_id == "u5").unwrap();
        d.waitlist[pos].user_id = "u2".into();
        let v = check(LIMITS, &r, &h, &d);
        assert!(v.iter().any(|m| m.contains("waits while one accepted at")), "{v:?}");
        assert!(v.iter().any(|m| m.contains("user u2 was told ATTENDING")), "{v:?}");
    }

    #[test]
    fn missing_replies_errors_and_strangers_are_reported() {
        let (r, mut h, mut d) = fair(5, &[], LIMITS);
        h[0] = Heard::Nothing("timeout".into());
        h[1] = Heard::Failed("conflict".into());
        d.waitlist.push(Waiting { user_id: "stranger".into(), position: "CENTER".into(), rank: 3 });
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
    fn group_committed_batches_share_a_version_and_are_fair() {
        let (r, mut h, d) = fair(12, &[0, 7], LIMITS);
        // Three commits of four decisions each.
        for (i, x) in h.iter_mut().enumerate() {
            if let Heard::Ok(reply) = x {
                reply.version = Some(i as u64 / 4 + 1);
            }
        }
        assert_eq!(check(LIMITS, &r, &h, &d), Vec::<String>::new());
    }

    #[test]
    fn a_waiter_from_an_earlier_commit_than_an_attendee_is_reported() {
        let (r, mut h, d) = fair(6, &[], LIMITS);
        // u4 waits (rank 1) but claims an earlier commit than attendee u2.
        if let Heard::Ok(reply) = &mut h[4] {
            reply.version = Some(1);
        }
        let v = check(LIMITS, &r, &h, &d);
        assert!(
            v.iter().any(|m| m.contains("a skater accepted at version 1 waits while one accepted at 3 attends")),
            "{v:?}"
        );
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
