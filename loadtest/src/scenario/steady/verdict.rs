//! The verdict on a steady run ([`check`]): every event's final document
//! against what the users last asked for — nobody over a limit, everyone
//! whose last answer was ATTENDING attending or waitlisted, nobody who
//! declined listed, nobody listed who never had an acknowledged RSVP.

use std::collections::HashMap;

use crate::api::Attendees;
use crate::race_check::GOALIE;

/// Judges the final documents against what each user last asked for.
pub fn check(
    docs: &[Attendees],
    last_wish: &HashMap<(usize, String), &'static str>,
    max_skaters: u32,
    max_goalies: u32,
) -> Vec<String> {
    let mut violations = Vec::new();
    for (e, doc) in docs.iter().enumerate() {
        let goalies = doc.attending.iter().filter(|a| a.position == GOALIE).count();
        let skaters = doc.attending.len() - goalies;
        if skaters > max_skaters as usize {
            violations.push(format!("event #{e}: {skaters} skaters attending over the limit of {max_skaters}"));
        }
        if goalies > max_goalies as usize {
            violations.push(format!("event #{e}: {goalies} goalies attending over the limit of {max_goalies}"));
        }
        let listed: HashMap<&str, &str> = doc
            .attending
            .iter()
            .map(|a| (a.user_id.as_str(), "attending"))
            .chain(doc.waitlist.iter().map(|w| (w.user_id.as_str(), "waitlisted")))
            .collect();
        if listed.len() != doc.attending.len() + doc.waitlist.len() {
            violations.push(format!("event #{e}: someone is listed twice"));
        }
        for ((event, user_id), wish) in last_wish {
            if *event != e {
                continue;
            }
            match (*wish, listed.get(user_id.as_str())) {
                ("ATTENDING", None) => violations
                    .push(format!("event #{e}: {user_id} was answered ATTENDING/WAITLISTED but is not listed")),
                ("DECLINED", Some(place)) => violations.push(format!("event #{e}: {user_id} declined but is {place}")),
                _ => {}
            }
        }
        for user_id in listed.keys() {
            if !last_wish.contains_key(&(e, (*user_id).to_owned())) {
                violations.push(format!("event #{e}: {user_id} is listed but never had an acknowledged RSVP"));
            }
        }
    }
    violations
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_check_catches_a_lost_and_a_phantom_rsvp() {
        let doc = Attendees { version: 3, attending: Vec::new(), waitlist: Vec::new() };
        let mut wish = HashMap::new();
        wish.insert((0, "u1".to_owned()), "ATTENDING");
        let v = check(&[doc], &wish, 10, 1);
        assert_eq!(v.len(), 1, "{v:?}");
        assert!(v[0].contains("not listed"));
    }
}
