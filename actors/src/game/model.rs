//! The per-game scoring aggregate's state: status, period, score, both
//! rosters (so decisions can check who may score), and the game log that
//! drives every statistic.

use serde::{Deserialize, Serialize};

use super::effects::GameEffects;
use crate::hockey::{Position, text_enum};

/// DESIGN.md: SCHEDULED → LIVE → FINAL; POSTPONED / CANCELLED only before
/// LIVE.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum GameStatus {
    Scheduled,
    Live,
    Final,
    Postponed,
    Cancelled,
}

text_enum!(GameStatus, "GameStatus", {
    Scheduled => "SCHEDULED",
    Live => "LIVE",
    Final => "FINAL",
    Postponed => "POSTPONED",
    Cancelled => "CANCELLED",
});

/// The period of a live game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum Period {
    #[serde(rename = "1")]
    First,
    #[serde(rename = "2")]
    Second,
    #[serde(rename = "3")]
    Third,
    #[serde(rename = "OT")]
    Overtime,
    #[serde(rename = "SO")]
    Shootout,
}

text_enum!(Period, "Period", {
    First => "1",
    Second => "2",
    Third => "3",
    Overtime => "OT",
    Shootout => "SO",
});

impl Period {
    /// The period END_PERIOD leads to; `None` after the shootout.
    pub fn next(self) -> Option<Period> {
        match self {
            Period::First => Some(Period::Second),
            Period::Second => Some(Period::Third),
            Period::Third => Some(Period::Overtime),
            Period::Overtime => Some(Period::Shootout),
            Period::Shootout => None,
        }
    }
}

/// What a log entry records. The action names of CONTRACT.md, plus UNDO.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum EntryKind {
    Start,
    Goal,
    Penalty,
    EndPeriod,
    Final,
    Undo,
}

text_enum!(EntryKind, "game log entry type", {
    Start => "START",
    Goal => "GOAL",
    Penalty => "PENALTY",
    EndPeriod => "END_PERIOD",
    Final => "FINAL",
    Undo => "UNDO",
});

/// A RosterPlayer as the game needs it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Player {
    pub user_id: String,
    pub display_name: String,
    pub jersey_number: Option<i64>,
    pub position: Option<Position>,
}

/// One side of the game: the roster, its players, and who dressed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RosterSide {
    pub roster_id: String,
    pub name: String,
    pub players: Vec<Player>,
    /// User ids of the players who dressed; `None` = every roster player
    /// (the default until a lineup is set).
    pub lineup: Option<Vec<String>>,
}

impl RosterSide {
    pub fn player(&self, user_id: &str) -> Option<&Player> {
        self.players.iter().find(|p| p.user_id == user_id)
    }

    pub fn is_dressed(&self, user_id: &str) -> bool {
        match &self.lineup {
            Some(lineup) => lineup.iter().any(|u| u == user_id),
            None => self.player(user_id).is_some(),
        }
    }

    /// Dressed players, in roster order.
    pub fn dressed(&self) -> impl Iterator<Item = &Player> {
        self.players.iter().filter(|p| self.is_dressed(&p.user_id))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    Home,
    Away,
}

/// One row of the game log (a table beyond the seed). UNDO entries stay in
/// the log; the entry they reverted is marked `undone`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LogEntry {
    /// 1, 2, 3… per game.
    pub seq: i64,
    #[serde(rename = "type")]
    pub kind: EntryKind,
    /// The period the entry happened in (START: the period it opened).
    pub period: Option<Period>,
    pub roster_id: Option<String>,
    /// GOAL: the scorer (may be unknown); PENALTY: the penalised player.
    pub player_id: Option<String>,
    pub assist_ids: Vec<String>,
    pub minutes: Option<i64>,
    /// UNDO: the seq it reverted.
    pub undoes: Option<i64>,
    /// Reverted by a later UNDO.
    pub undone: bool,
    pub created_by: String,
    pub created_at: i64,
    /// Exactly what this entry changed, so UNDO reverses it exactly
    /// (stored as JSON text).
    pub effects: GameEffects,
}

/// What the server loads to rebuild a game's state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredGame {
    pub game_id: String,
    pub season_id: Option<String>,
    /// `games.version`: the optimistic-concurrency token and `game:ID` seq.
    pub version: i64,
    pub status: GameStatus,
    /// `None` unless the game has started.
    pub period: Option<Period>,
    pub home_score: i64,
    pub away_score: i64,
    pub home: RosterSide,
    pub away: RosterSide,
    /// The full log, any order (sorted by seq on load).
    pub log: Vec<LogEntry>,
}

/// The aggregate. Built from a [`StoredGame`]; changed only by
/// [`super::decide()`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameState {
    pub(crate) game: StoredGame,
    pub(crate) next_seq: i64,
    /// See `EventState::batch_open`: one version bump per batch.
    pub(crate) batch_open: bool,
}

impl GameState {
    pub fn new(mut game: StoredGame) -> Self {
        game.log.sort_by_key(|e| e.seq);
        let next_seq = game.log.last().map_or(1, |e| e.seq + 1);
        GameState { game, next_seq, batch_open: false }
    }

    pub fn game_id(&self) -> &str {
        &self.game.game_id
    }

    pub fn season_id(&self) -> Option<&str> {
        self.game.season_id.as_deref()
    }

    pub fn version(&self) -> i64 {
        self.game.version
    }

    pub fn status(&self) -> GameStatus {
        self.game.status
    }

    pub fn period(&self) -> Option<Period> {
        self.game.period
    }

    pub fn home_score(&self) -> i64 {
        self.game.home_score
    }

    pub fn away_score(&self) -> i64 {
        self.game.away_score
    }

    pub fn home(&self) -> &RosterSide {
        &self.game.home
    }

    pub fn away(&self) -> &RosterSide {
        &self.game.away
    }

    pub fn side(&self, side: Side) -> &RosterSide {
        match side {
            Side::Home => &self.game.home,
            Side::Away => &self.game.away,
        }
    }

    /// Which side a roster id is, if either.
    pub fn side_of(&self, roster_id: &str) -> Option<Side> {
        if self.game.home.roster_id == roster_id {
            Some(Side::Home)
        } else if self.game.away.roster_id == roster_id {
            Some(Side::Away)
        } else {
            None
        }
    }

    /// The whole log in seq order, UNDO and undone entries included.
    pub fn log(&self) -> &[LogEntry] {
        &self.game.log
    }

    /// The entry UNDO would revert: the last one that is neither an UNDO
    /// nor already undone.
    pub fn last_undoable(&self) -> Option<&LogEntry> {
        self.game.log.iter().rev().find(|e| e.kind != EntryKind::Undo && !e.undone)
    }

    /// Whether the current period has been ended without the game moving
    /// on: a standing END_PERIOD entry of this very period (END 3RD with a
    /// lead, or END OT after an overtime goal). Such a game waits for FINAL.
    pub fn period_ended(&self) -> bool {
        let Some(current) = self.game.period else { return false };
        self.game.log.iter().any(|e| e.kind == EntryKind::EndPeriod && !e.undone && e.period == Some(current))
    }

    /// See `EventState::seal`.
    pub fn seal(&mut self) {
        self.batch_open = false;
    }

    pub(crate) fn touch(&mut self) {
        if !self.batch_open {
            self.batch_open = true;
            self.game.version += 1;
        }
    }

    pub(crate) fn side_mut(&mut self, side: Side) -> &mut RosterSide {
        match side {
            Side::Home => &mut self.game.home,
            Side::Away => &mut self.game.away,
        }
    }
}
