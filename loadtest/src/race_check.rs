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
//! untiered race's.

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

    let tiered = requests.iter().any(|r| r.regular);
    let requested: HashMap<&str, &Request> = requests.iter().map(|r| (r.user_id.as_str(), r)).collect();

    // 2. Exactly the right number attend per role: no overbooking, and no
    //    free place left while someone of that role waits (tiered: while a
    //    regular of that role waits; nobody else takes a limited place).
    if tiered {
        check_tiered_places(limits, requests, &requested, doc, &mut v);
    } else {
        check_places(limits, requests, doc, &mut v);
    }

    // 3. Everybody appears exactly once, in their own position; nobody else.
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
    if tiered {
        for w in &doc.waitlist {
            if let (Some(flag), Some(r)) = (w.regular, requested.get(w.user_id.as_str()))
                && flag != r.regular
            {
                v.push(format!(
                    "user {} is listed with regular {flag} but was made {}",
                    w.user_id,
                    tier_name(r.regular)
                ));
            }
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
    // 4b. Tiered: each role's waitlist lists every regular before anyone
    //     else (the order of promotion while the window is open).
    if tiered {
        for r in ["skater", "goalie"] {
            let mut first_other: Option<&str> = None;
            for w in doc.waitlist.iter().filter(|w| role(&w.position) == r) {
                let regular = requested.get(w.user_id.as_str()).is_some_and(|q| q.regular);
                match (regular, first_other) {
                    (false, None) => first_other = Some(&w.user_id),
                    (true, Some(other)) => v.push(format!(
                        "{r} waitlist lists regular {} (rank {}) behind non-regular {other}",
                        w.user_id, w.rank
                    )),
                    _ => {}
                }
            }
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

    // 6. Acceptance order is version order (ties are one commit): attendees
    //    in that order, each role's waitlist in that order, and within a role
    //    no waiter was committed before an attendee (tiered: within each
    //    tier, and among regulars).
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
    if tiered {
        check_tiered_order(requests, heard, &requested, doc, &version_of, &mut v);
    } else {
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
                v.push(format!(
                    "a {r} accepted at version {first_waiting} waits while one accepted at {last_in} attends"
                ));
            }
        }
    }
    if let Some(&max) = version_of.values().max()
        && doc.version < max
    {
        v.push(format!("document version {} is older than reply version {max}", doc.version));
    }
    v
}

fn tier_name(regular: bool) -> &'static str {
    if regular { "a regular" } else { "not a regular" }
}

/// Check 2 of a tiered race, per role: a limited role seats
/// `min(limit, regulars who asked)`, all of them regulars (nobody else
/// takes a place while the window is open); an unlimited one seats all.
fn check_tiered_places(
    limits: Limits,
    requests: &[Request],
    requested: &HashMap<&str, &Request>,
    doc: &Attendees,
    v: &mut Vec<String>,
) {
    for (r, limit) in [("skater", limits.skaters), ("goalie", limits.goalies)] {
        let asked = requests.iter().filter(|q| role(q.position) == r).count();
        let regulars = requests.iter().filter(|q| role(q.position) == r && q.regular).count();
        let attending: Vec<&str> =
            doc.attending.iter().filter(|a| role(&a.position) == r).map(|a| a.user_id.as_str()).collect();
        let want = match limit {
            Some(l) => regulars.min(l as usize),
            None => asked,
        };
        if attending.len() != want {
            v.push(format!(
                "{} {r}s attending, expected {want} (limit {limit:?}, {regulars} regulars of {asked} asked)",
                attending.len()
            ));
        }
        if limit.is_some() {
            for user in attending {
                if requested.get(user).is_some_and(|q| !q.regular) {
                    v.push(format!("{r} {user} attends but is not a regular, while the regulars' window is open"));
                }
            }
        }
    }
}

/// Check 6 of a tiered race, per role: each tier's waitlist in acceptance
/// order; no regular waits while a regular accepted later attends; and each
/// non-regular's told rank fits what was ahead of them then — the
/// non-regulars now ahead, plus the regulars waiting now who were accepted
/// before them (at most: no later than them; a commit's replies share a
/// version).
fn check_tiered_order(
    requests: &[Request],
    heard: &[Heard],
    requested: &HashMap<&str, &Request>,
    doc: &Attendees,
    version_of: &HashMap<&str, u64>,
    v: &mut Vec<String>,
) {
    let is_regular = |user: &str| requested.get(user).is_some_and(|q| q.regular);
    let told: HashMap<&str, Option<u32>> = requests
        .iter()
        .zip(heard)
        .filter_map(|(q, h)| match h {
            Heard::Ok(reply) if reply.status == "WAITLISTED" => Some((q.user_id.as_str(), reply.waitlist_rank)),
            _ => None,
        })
        .collect();
    for r in ["skater", "goalie"] {
        let line: Vec<&str> =
            doc.waitlist.iter().filter(|w| role(&w.position) == r).map(|w| w.user_id.as_str()).collect();
        for regular in [true, false] {
            check_increasing(
                &format!("{r} waitlist ({})", if regular { "regulars" } else { "others" }),
                line.iter().copied().filter(|&u| is_regular(u) == regular),
                version_of,
                v,
            );
        }
        let last_in = doc
            .attending
            .iter()
            .filter(|a| role(&a.position) == r && is_regular(&a.user_id))
            .filter_map(|a| version_of.get(a.user_id.as_str()))
            .max();
        let waiting_regulars: Vec<u64> =
            line.iter().filter(|&&u| is_regular(u)).filter_map(|&u| version_of.get(u).copied()).collect();
        if let (Some(last_in), Some(&first_waiting)) = (last_in, waiting_regulars.iter().min())
            && first_waiting < *last_in
        {
            v.push(format!(
                "a regular {r} accepted at version {first_waiting} waits while one accepted at {last_in} attends"
            ));
        }
        for (others_ahead, &user) in line.iter().filter(|&&u| !is_regular(u)).enumerate() {
            if let (Some(&rank), Some(&ver)) = (told.get(user), version_of.get(user)) {
                let before = waiting_regulars.iter().filter(|&&rv| rv < ver).count();
                let by = waiting_regulars.iter().filter(|&&rv| rv <= ver).count();
                let (lo, hi) = (others_ahead + before + 1, others_ahead + by + 1);
                if !rank.is_some_and(|t| (lo..=hi).contains(&(t as usize))) {
                    let range = if lo == hi { lo.to_string() } else { format!("{lo}–{hi}") };
                    v.push(format!(
                        "user {user} (not a regular) was told rank {rank:?}, where {range} fits the regulars then waiting and the others ahead"
                    ));
                }
            }
        }
    }
}

/// Check 2 of the untiered race: `min(limit, asked)` attend per role.
fn check_places(limits: Limits, requests: &[Request], doc: &Attendees, v: &mut Vec<String>) {
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
                regular: false,
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
                let w = Waiting { user_id: r.user_id.clone(), position: r.position.into(), rank: *wait, regular: None };
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

    /// Builds a fair tiered outcome as the event's actor decides while the
    /// regulars' window is open: clients accepted in index order,
    /// `goalies_at` are goalies, `regulars_at` regulars. Each waiter is told
    /// their rank at the time; the document lists both roles' waitlists
    /// together, regulars first, as the server does.
    fn fair_tiered(
        n: usize,
        goalies_at: &[usize],
        regulars_at: &[usize],
        limits: Limits,
    ) -> (Vec<Request>, Vec<Heard>, Attendees) {
        let requests: Vec<Request> = (0..n)
            .map(|i| Request {
                user_id: format!("u{i}"),
                position: if goalies_at.contains(&i) { GOALIE } else { "CENTER" },
                regular: regulars_at.contains(&i),
            })
            .collect();
        let mut doc = Attendees { version: n as u64, attending: vec![], waitlist: vec![] };
        let mut heard = vec![];
        // Per role: attending, regulars waiting, others waiting.
        let mut lines: BTreeMap<&str, (u32, Vec<usize>, Vec<usize>)> = BTreeMap::new();
        for (i, r) in requests.iter().enumerate() {
            let limit = if r.is_goalie() { limits.goalies } else { limits.skaters };
            let (count, regulars, others) = lines.entry(role(r.position)).or_default();
            let room = limit.is_none_or(|l| *count < l);
            let attends = if r.regular { room && regulars.is_empty() } else { limit.is_none() };
            let version = Some(i as u64 + 1);
            if attends {
                *count += 1;
                doc.attending.push(Attending { user_id: r.user_id.clone(), position: r.position.into() });
                heard.push(Heard::Ok(RsvpReply { status: "ATTENDING".into(), waitlist_rank: None, version }));
            } else {
                if r.regular {
                    regulars.push(i)
                } else {
                    others.push(i)
                }
                let rank = if r.regular { regulars.len() } else { regulars.len() + others.len() };
                heard.push(Heard::Ok(RsvpReply {
                    status: "WAITLISTED".into(),
                    waitlist_rank: Some(rank as u32),
                    version,
                }));
            }
        }
        let mut waiting: Vec<(bool, usize, u32)> = vec![];
        for (_, regulars, others) in lines.values() {
            let line = regulars.iter().map(|&i| (false, i)).chain(others.iter().map(|&i| (true, i)));
            waiting.extend(line.zip(1..).map(|((other, i), rank)| (other, i, rank)));
        }
        waiting.sort();
        for (other, i, rank) in waiting {
            let r = &requests[i];
            doc.waitlist.push(Waiting {
                user_id: r.user_id.clone(),
                position: r.position.into(),
                rank,
                regular: Some(!other),
            });
        }
        (requests, heard, doc)
    }

    /// 20 clients for 3 skater + 1 goalie places: skaters 3, 8, 12, 17 and
    /// 19 and goalie 5 are regulars.
    fn tiered_race() -> (Vec<Request>, Vec<Heard>, Attendees) {
        fair_tiered(20, &[0, 5, 9, 14], &[3, 5, 8, 12, 17, 19], LIMITS)
    }

    fn waitlist_index(d: &Attendees, user: &str) -> usize {
        d.waitlist.iter().position(|w| w.user_id == user).unwrap()
    }

    #[test]
    fn a_fair_tiered_race_has_no_violations() {
        let (r, h, d) = tiered_race();
        let attending: Vec<&str> = d.attending.iter().map(|a| a.user_id.as_str()).collect();
        assert_eq!(attending, ["u3", "u5", "u8", "u12"], "only regulars, first come first served");
        assert_eq!(d.waitlist[0].user_id, "u17");
        assert_eq!(check(LIMITS, &r, &h, &d), Vec::<String>::new());
    }

    #[test]
    fn a_tiered_race_decided_in_batches_is_fair() {
        let (r, mut h, d) = tiered_race();
        // Five commits of four decisions each: told ranks are as decided.
        for (i, x) in h.iter_mut().enumerate() {
            if let Heard::Ok(reply) = x {
                reply.version = Some(i as u64 / 4 + 1);
            }
        }
        assert_eq!(check(LIMITS, &r, &h, &d), Vec::<String>::new());
    }

    #[test]
    fn an_unlimited_role_seats_everybody_in_a_tiered_race() {
        let limits = Limits { skaters: Some(2), goalies: None };
        let (r, h, d) = fair_tiered(12, &[0, 4, 7], &[1, 4, 6, 9], limits);
        let goalies: Vec<&str> = d.attending.iter().filter(|a| a.position == GOALIE).map(|a| &*a.user_id).collect();
        assert_eq!(goalies, ["u0", "u4", "u7"]);
        assert_eq!(check(limits, &r, &h, &d), Vec::<String>::new());
    }

    #[test]
    fn a_non_regular_attending_while_the_window_is_open_is_reported() {
        let (r, h, mut d) = tiered_race();
        // u1 (not a regular) takes u12's place; u12 waits at the front.
        let at = d.attending.iter().position(|a| a.user_id == "u12").unwrap();
        d.attending[at].user_id = "u1".into();
        let w = waitlist_index(&d, "u1");
        d.waitlist.remove(w);
        d.waitlist
            .insert(0, Waiting { user_id: "u12".into(), position: "CENTER".into(), rank: 1, regular: Some(true) });
        for (rank, w) in d.waitlist.iter_mut().filter(|w| w.position != GOALIE).enumerate() {
            w.rank = rank as u32 + 1;
        }
        let v = check(LIMITS, &r, &h, &d);
        assert!(v.iter().any(|m| m.contains("skater u1 attends but is not a regular")), "{v:?}");
        assert!(v.iter().any(|m| m.contains("user u12 was told ATTENDING but the document says waiting")), "{v:?}");
    }

    #[test]
    fn a_regular_waiting_while_a_later_regular_attends_is_reported() {
        let (r, h, mut d) = tiered_race();
        let at = d.attending.iter().position(|a| a.user_id == "u12").unwrap();
        d.attending[at].user_id = "u17".into();
        let w = waitlist_index(&d, "u17");
        d.waitlist[w].user_id = "u12".into();
        let v = check(LIMITS, &r, &h, &d);
        assert!(
            v.iter()
                .any(|m| m.contains("a regular skater accepted at version 13 waits while one accepted at 18 attends")),
            "{v:?}"
        );
    }

    #[test]
    fn too_few_regulars_seated_is_reported() {
        let (r, h, mut d) = tiered_race();
        // The goalie place is left empty with regular goalie u5 waiting.
        let a = d.attending.remove(1);
        d.waitlist.insert(0, Waiting { user_id: a.user_id, position: a.position, rank: 1, regular: Some(true) });
        for (rank, w) in d.waitlist.iter_mut().filter(|w| w.position == GOALIE).enumerate() {
            w.rank = rank as u32 + 1;
        }
        let v = check(LIMITS, &r, &h, &d);
        assert!(
            v.iter().any(|m| m.contains("0 goalies attending, expected 1 (limit Some(1), 1 regulars of 4")),
            "{v:?}"
        );
    }

    #[test]
    fn a_non_regular_ranked_ahead_of_a_regular_is_reported() {
        let (r, h, mut d) = tiered_race();
        // Swap regular u19 (skater rank 2) with the first other skater, u1
        // (rank 3), keeping the ranks contiguous.
        let (a, b) = (waitlist_index(&d, "u19"), waitlist_index(&d, "u1"));
        d.waitlist.swap(a, b);
        let rank = d.waitlist[a].rank;
        d.waitlist[a].rank = d.waitlist[b].rank;
        d.waitlist[b].rank = rank;
        let v = check(LIMITS, &r, &h, &d);
        assert!(
            v.iter().any(|m| m.contains("skater waitlist lists regular u19 (rank 3) behind non-regular u1")),
            "{v:?}"
        );
        assert!(v.iter().any(|m| m.contains("user u19 was told rank Some(2) but is rank 3")), "{v:?}");
    }

    #[test]
    fn disorder_within_a_tier_is_reported() {
        let (r, h, mut d) = tiered_race();
        // Two non-regular skaters change places (ranks kept contiguous).
        let (a, b) = (waitlist_index(&d, "u1"), waitlist_index(&d, "u2"));
        d.waitlist[a].user_id = "u2".into();
        d.waitlist[b].user_id = "u1".into();
        let v = check(LIMITS, &r, &h, &d);
        assert!(v.iter().any(|m| m.contains("skater waitlist (others) out of acceptance order: u2")), "{v:?}");
        // …and so do the two regulars waiting.
        let (r2, h2, mut d2) = tiered_race();
        let (a, b) = (waitlist_index(&d2, "u17"), waitlist_index(&d2, "u19"));
        d2.waitlist[a].user_id = "u19".into();
        d2.waitlist[b].user_id = "u17".into();
        let v = check(LIMITS, &r2, &h2, &d2);
        assert!(v.iter().any(|m| m.contains("skater waitlist (regulars) out of acceptance order: u19")), "{v:?}");
        assert!(v.iter().any(|m| m.contains("user u17 was told rank Some(1) but is rank 2")), "{v:?}");
    }

    #[test]
    fn a_non_regular_told_a_rank_that_does_not_fit_is_reported() {
        let (r, mut h, d) = tiered_race();
        // u6 (not a regular, version 7) had three other skaters ahead (u1,
        // u2, u4) and no regular waiting: told 4. Say 1 instead.
        if let Heard::Ok(reply) = &mut h[6] {
            assert_eq!(reply.waitlist_rank, Some(4));
            reply.waitlist_rank = Some(1);
        }
        let v = check(LIMITS, &r, &h, &d);
        assert!(v.iter().any(|m| m.contains("user u6 (not a regular) was told rank Some(1), where 4 fits")), "{v:?}");
    }

    #[test]
    fn a_regular_flag_that_disagrees_is_reported() {
        let (r, h, mut d) = tiered_race();
        let w = waitlist_index(&d, "u1");
        d.waitlist[w].regular = Some(true);
        let v = check(LIMITS, &r, &h, &d);
        assert_eq!(v, ["user u1 is listed with regular true but was made not a regular"]);
    }

    #[test]
    fn a_position_change_is_reported() {
        let (r, h, mut d) = fair(3, &[], LIMITS);
        d.attending[0].position = "LEFT_WING".into();
        let v = check(LIMITS, &r, &h, &d);
        assert!(v.iter().any(|m| m.contains("asked as CENTER but is listed as LEFT_WING")), "{v:?}");
    }
}
