//! The goals' verdict of a chaos run ([`check_goals`]): every
//! acknowledged goal is in the final game log, once, and the score is the
//! acknowledged goals.

use std::collections::HashSet;
use std::time::Instant;

use serde_json::Value;

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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
}
