//! The first-come race (no regulars): `min(limit, asked)` attend per role
//! (check 2), and each role's waitlist follows acceptance order with no
//! waiter committed before an attendee (check 6).

use std::collections::HashMap;

use super::{GOALIE, Limits, Request, check_increasing, expected_attending, role};
use crate::api::Attendees;

/// Check 2 of the untiered race: `min(limit, asked)` attend per role.
pub fn check_places(limits: Limits, requests: &[Request], doc: &Attendees, v: &mut Vec<String>) {
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

/// Check 6 of the untiered race, per role: the waitlist in acceptance
/// order, and no waiter accepted before an attendee.
pub fn check_order(doc: &Attendees, version_of: &HashMap<&str, u64>, v: &mut Vec<String>) {
    for r in ["skater", "goalie"] {
        check_increasing(
            &format!("{r} waitlist"),
            doc.waitlist.iter().filter(|w| role(&w.position) == r).map(|w| w.user_id.as_str()),
            version_of,
            v,
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
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{LIMITS, fair};
    use super::super::{Heard, Limits, check};
    use crate::api::Attending;

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
}
