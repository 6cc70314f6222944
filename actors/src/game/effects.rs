//! What one game log entry changed, in a form that can be stored (JSON),
//! summed into the statistics tables, and negated for UNDO.
//!
//! Recording effects instead of recomputing them on UNDO means an undo
//! reverses exactly what happened, even if the lineup or rules around it
//! changed since.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::clock::Clock;
use super::model::{GameStatus, Goalies, Period};

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
    #[serde(default, skip_serializing_if = "is_zero")]
    pub pp_goals: i64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub sh_goals: i64,
    /// Penalty minutes by kind (`penalty_minutes` is the total): minors
    /// and double minors; majors; misconducts and game misconducts.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub minor_pim: i64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub major_pim: i64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub misconduct_pim: i64,
    /// Goalies: shots and goals against while in net, and time in net.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub shots_against: i64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub goals_against: i64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub goalie_ms: i64,
}

fn is_zero(n: &i64) -> bool {
    *n == 0
}

impl PlayerDelta {
    /// Every counter, in one order: what negating, summing and storing
    /// walk over.
    pub fn counters(&self) -> [i64; 12] {
        [
            self.goals,
            self.assists,
            self.penalty_minutes,
            self.games_played,
            self.pp_goals,
            self.sh_goals,
            self.minor_pim,
            self.major_pim,
            self.misconduct_pim,
            self.shots_against,
            self.goals_against,
            self.goalie_ms,
        ]
    }

    fn counters_mut(&mut self) -> [&mut i64; 12] {
        [
            &mut self.goals,
            &mut self.assists,
            &mut self.penalty_minutes,
            &mut self.games_played,
            &mut self.pp_goals,
            &mut self.sh_goals,
            &mut self.minor_pim,
            &mut self.major_pim,
            &mut self.misconduct_pim,
            &mut self.shots_against,
            &mut self.goals_against,
            &mut self.goalie_ms,
        ]
    }

    /// A zero delta for one player.
    pub fn of(roster_id: &str, user_id: &str) -> Self {
        PlayerDelta { roster_id: roster_id.to_owned(), user_id: user_id.to_owned(), ..PlayerDelta::default() }
    }

    fn negated(&self) -> Self {
        let mut negated = self.clone();
        for c in negated.counters_mut() {
            *c = -*c;
        }
        negated
    }

    fn add(&mut self, other: &PlayerDelta) {
        for (c, o) in self.counters_mut().into_iter().zip(other.counters()) {
            *c += o;
        }
    }

    pub fn is_zero(&self) -> bool {
        self.counters().iter().all(|c| *c == 0)
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
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<Change<Clock>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goalies: Option<Change<Goalies>>,
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
            clock: self.clock.as_ref().map(Change::reversed),
            goalies: self.goalies.as_ref().map(Change::reversed),
        }
    }
}

/// Sums player deltas per `(roster, user)`, dropping rows that cancel out
/// (a goal and its UNDO in one batch touch nothing).
pub fn sum_player_deltas<'a>(deltas: impl IntoIterator<Item = &'a PlayerDelta>) -> Vec<PlayerDelta> {
    let mut sums: BTreeMap<(String, String), PlayerDelta> = BTreeMap::new();
    for d in deltas {
        let sum = sums
            .entry((d.roster_id.clone(), d.user_id.clone()))
            .or_insert_with(|| PlayerDelta::of(&d.roster_id, &d.user_id));
        sum.add(d);
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
