//! What one game log entry changed, in a form that can be stored (JSON),
//! summed into the statistics tables, and negated for UNDO.
//!
//! Recording effects instead of recomputing them on UNDO means an undo
//! reverses exactly what happened, even if the lineup or rules around it
//! changed since.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::model::{GameStatus, Period};

/// A transition, so it can be run backwards.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Change<T> {
    pub from: T,
    pub to: T,
}

impl<T: Clone> Change<T> {
    fn reversed(&self) -> Self {
        Change { from: self.to.clone(), to: self.from.clone() }
    }
}

/// Additions to one RosterPlayer's counters.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlayerDelta {
    pub roster_id: String,
    pub user_id: String,
    #[serde(default)]
    pub goals: i64,
    #[serde(default)]
    pub assists: i64,
    #[serde(default)]
    pub penalty_minutes: i64,
    #[serde(default)]
    pub games_played: i64,
}

impl PlayerDelta {
    fn negated(&self) -> Self {
        PlayerDelta {
            roster_id: self.roster_id.clone(),
            user_id: self.user_id.clone(),
            goals: -self.goals,
            assists: -self.assists,
            penalty_minutes: -self.penalty_minutes,
            games_played: -self.games_played,
        }
    }

    pub fn is_zero(&self) -> bool {
        self.goals == 0 && self.assists == 0 && self.penalty_minutes == 0 && self.games_played == 0
    }
}

/// Additions to one Roster's standings columns (win 2 points, tie 1, loss 0).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RosterDelta {
    pub roster_id: String,
    #[serde(default)]
    pub wins: i64,
    #[serde(default)]
    pub losses: i64,
    #[serde(default)]
    pub ties: i64,
    #[serde(default)]
    pub points: i64,
}

impl RosterDelta {
    fn negated(&self) -> Self {
        RosterDelta {
            roster_id: self.roster_id.clone(),
            wins: -self.wins,
            losses: -self.losses,
            ties: -self.ties,
            points: -self.points,
        }
    }

    pub fn is_zero(&self) -> bool {
        self.wins == 0 && self.losses == 0 && self.ties == 0 && self.points == 0
    }
}

/// Everything a log entry changed. Stored as the entry's `effects` JSON.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GameEffects {
    #[serde(default)]
    pub home_score: i64,
    #[serde(default)]
    pub away_score: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<Change<GameStatus>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub period: Option<Change<Option<Period>>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub players: Vec<PlayerDelta>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rosters: Vec<RosterDelta>,
}

impl GameEffects {
    /// The exact reversal: what an UNDO of this entry changes.
    pub fn negated(&self) -> Self {
        GameEffects {
            home_score: -self.home_score,
            away_score: -self.away_score,
            status: self.status.as_ref().map(Change::reversed),
            period: self.period.as_ref().map(Change::reversed),
            players: self.players.iter().map(PlayerDelta::negated).collect(),
            rosters: self.rosters.iter().map(RosterDelta::negated).collect(),
        }
    }
}

/// Sums player deltas per `(roster, user)`, dropping rows that cancel out
/// (a goal and its UNDO in one batch touch nothing).
pub fn sum_player_deltas<'a>(deltas: impl IntoIterator<Item = &'a PlayerDelta>) -> Vec<PlayerDelta> {
    let mut sums: BTreeMap<(String, String), PlayerDelta> = BTreeMap::new();
    for d in deltas {
        let sum = sums.entry((d.roster_id.clone(), d.user_id.clone())).or_insert_with(|| PlayerDelta {
            roster_id: d.roster_id.clone(),
            user_id: d.user_id.clone(),
            ..PlayerDelta::default()
        });
        sum.goals += d.goals;
        sum.assists += d.assists;
        sum.penalty_minutes += d.penalty_minutes;
        sum.games_played += d.games_played;
    }
    sums.into_values().filter(|d| !d.is_zero()).collect()
}

/// Sums roster deltas per roster, dropping rows that cancel out.
pub fn sum_roster_deltas<'a>(deltas: impl IntoIterator<Item = &'a RosterDelta>) -> Vec<RosterDelta> {
    let mut sums: BTreeMap<String, RosterDelta> = BTreeMap::new();
    for d in deltas {
        let sum = sums
            .entry(d.roster_id.clone())
            .or_insert_with(|| RosterDelta { roster_id: d.roster_id.clone(), ..RosterDelta::default() });
        sum.wins += d.wins;
        sum.losses += d.losses;
        sum.ties += d.ties;
        sum.points += d.points;
    }
    sums.into_values().filter(|d| !d.is_zero()).collect()
}
