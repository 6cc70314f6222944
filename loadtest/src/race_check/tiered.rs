//! The tiered race (some requests from regulars, their window open:
//! docs/pickup-night.md): only regulars take places of a limited role
//! (check 2), the regular flags the document lists are the ones made
//! (check 3), every role's waitlist lists its regulars first (check 4),
//! and acceptance order holds within each tier, a non-regular's rank
//! bounded by what was ahead of them then (check 6).

use std::collections::HashMap;

use super::{Heard, Limits, Request, check_increasing, role};
use crate::api::Attendees;

fn tier_name(regular: bool) -> &'static str {
    if regular { "a regular" } else { "not a regular" }
}

/// Check 3 of a tiered race: the regular flag the waitlist shows is the one
/// each request was made with.
pub fn check_regular_flags(requested: &HashMap<&str, &Request>, doc: &Attendees, v: &mut Vec<String>) {
    for w in &doc.waitlist {
        if let (Some(flag), Some(r)) = (w.regular, requested.get(w.user_id.as_str()))
            && flag != r.regular
        {
            v.push(format!("user {} is listed with regular {flag} but was made {}", w.user_id, tier_name(r.regular)));
        }
    }
}

/// Check 4 of a tiered race: each role's waitlist lists every regular
/// before anyone else (the order of promotion while the window is open).
pub fn check_regulars_first(requested: &HashMap<&str, &Request>, doc: &Attendees, v: &mut Vec<String>) {
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

/// Check 2 of a tiered race, per role: a limited role seats
/// `min(limit, regulars who asked)`, all of them regulars (nobody else
/// takes a place while the window is open); an unlimited one seats all.
pub fn check_places(
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
pub fn check_order(
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

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::super::fixtures::LIMITS;
    use super::super::{GOALIE, check};
    use super::*;
    use crate::api::{Attending, RsvpReply, Waiting};

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
}
