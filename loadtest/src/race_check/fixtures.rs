//! Hand-built race outcomes for the tests: a fair first-come race.

use super::{GOALIE, Heard, Limits, Request};
use crate::api::{Attendees, Attending, RsvpReply, Waiting};

pub const LIMITS: Limits = Limits { skaters: Some(3), goalies: Some(1) };

/// Builds a fair outcome: clients accepted in index order, `goalies_at`
/// are goalies.
pub fn fair(n: usize, goalies_at: &[usize], limits: Limits) -> (Vec<Request>, Vec<Heard>, Attendees) {
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
