//! The per-game scoring aggregate's state: status, period, score, both
//! rosters (so decisions can check who may score), and the game log that
//! drives every statistic.

use serde::{Deserialize, Serialize};

use super::clock::{Clock, ClockSettings, GameSettings};
use super::effects::GameEffects;
use super::penalties::{self, PenaltyKind, Play, Sheet, Strength};
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
    Shot,
    Goalie,
}

text_enum!(EntryKind, "game log entry type", {
    Start => "START",
    Goal => "GOAL",
    Penalty => "PENALTY",
    EndPeriod => "END_PERIOD",
    Final => "FINAL",
    Undo => "UNDO",
    Shot => "SHOT",
    Goalie => "GOALIE",
});

impl EntryKind {
    /// Entries that happen at a moment of play, so they record the clock
    /// and keep the log in game-time order.
    pub fn is_timed(self) -> bool {
        matches!(self, EntryKind::Goal | EntryKind::Penalty | EntryKind::Shot | EntryKind::Goalie)
    }
}

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

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::Home => Side::Away,
            Side::Away => Side::Home,
        }
    }
}

/// The goalie in net for each side (`None`: none dressed, or pulled).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Goalies {
    pub home: Option<String>,
    pub away: Option<String>,
}

impl Goalies {
    pub fn get(&self, side: Side) -> Option<&str> {
        match side {
            Side::Home => self.home.as_deref(),
            Side::Away => self.away.as_deref(),
        }
    }

    pub fn with(&self, side: Side, goalie: Option<String>) -> Goalies {
        match side {
            Side::Home => Goalies { home: goalie, away: self.away.clone() },
            Side::Away => Goalies { home: self.home.clone(), away: goalie },
        }
    }
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
    /// GOAL: the scorer (may be unknown); PENALTY: the penalised player;
    /// GOALIE: the goalie now in net (`None`: pulled).
    pub player_id: Option<String>,
    pub assist_ids: Vec<String>,
    pub minutes: Option<i64>,
    /// Timed entries: the time left in the period when it happened.
    pub clock_ms: Option<i64>,
    /// PENALTY: what was called.
    pub penalty: Option<PenaltyKind>,
    /// GOAL: derived from the penalty box and the nets, never typed.
    pub strength: Option<Strength>,
    pub empty_net: bool,
    /// GOAL: the penalty it ended.
    pub releases: Option<i64>,
    /// UNDO: the seq it reverted.
    pub undoes: Option<i64>,
    /// Reverted by a later UNDO.
    pub undone: bool,
    pub created_by: String,
    pub created_at: i64,
    /// Exactly what this entry changed, so UNDO reverses it exactly
    /// (stored as JSON text).
    pub effects: GameEffects,
    /// The game version that added it, in memory only (0 when loaded):
    /// what an update since some version carries.
    #[serde(skip)]
    pub version: i64,
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
    /// Period lengths: the season's, and the game's own over them.
    pub season_settings: ClockSettings,
    pub own_settings: GameSettings,
    pub clock: Clock,
}

/// The aggregate. Built from a [`StoredGame`]; changed only by
/// [`super::decide()`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameState {
    pub(crate) game: StoredGame,
    pub(crate) next_seq: i64,
    /// See `EventState::batch_open`: one version bump per batch.
    pub(crate) batch_open: bool,
    pub(crate) goalies: Goalies,
    /// The version this state was loaded at: whoever committed up to it
    /// published it.
    pub(crate) loaded_version: i64,
    /// The versions that last changed the goalies and the clock's shape
    /// (phase, period length, offset), so an update carries them only
    /// when they moved.
    pub(crate) goalies_at: i64,
    pub(crate) clock_shape_at: i64,
}

impl GameState {
    pub fn new(mut game: StoredGame) -> Self {
        game.log.sort_by_key(|e| e.seq);
        let next_seq = game.log.last().map_or(1, |e| e.seq + 1);
        // The goalies are what the last entry that changed them left.
        let goalies = game
            .log
            .iter()
            .rev()
            .filter(|e| e.kind != EntryKind::Undo && !e.undone)
            .find_map(|e| e.effects.goalies.as_ref())
            .map(|change| change.to.clone())
            .unwrap_or_default();
        let version = game.version;
        GameState {
            game,
            next_seq,
            batch_open: false,
            goalies,
            loaded_version: version,
            goalies_at: version,
            clock_shape_at: version,
        }
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

    /// The settings this game plays by.
    pub fn settings(&self) -> ClockSettings {
        self.game.own_settings.over(self.game.season_settings)
    }

    pub fn own_settings(&self) -> GameSettings {
        self.game.own_settings
    }

    pub fn clock(&self) -> &Clock {
        &self.game.clock
    }

    pub fn goalies(&self) -> &Goalies {
        &self.goalies
    }

    /// Entries that stand: no UNDO, nothing undone.
    pub fn standing(&self) -> impl DoubleEndedIterator<Item = &LogEntry> {
        self.game.log.iter().filter(|e| e.kind != EntryKind::Undo && !e.undone)
    }

    /// The game time of a timed entry (an entry without a clock time sits
    /// at the start of its period).
    pub fn game_ms_of(&self, entry: &LogEntry) -> i64 {
        let Some(period) = entry.period else { return 0 };
        let settings = self.settings();
        let length = settings.period_ms(period);
        settings.offset_ms(period) + length - entry.clock_ms.unwrap_or(length).clamp(0, length)
    }

    /// The goals and penalties that stand, as the penalty box runs them.
    pub fn plays(&self) -> Vec<Play> {
        self.standing()
            .filter_map(|e| {
                let side = self.side_of(e.roster_id.as_deref()?)?;
                let at_ms = self.game_ms_of(e);
                match e.kind {
                    EntryKind::Penalty => {
                        Some(Play::Penalty { seq: e.seq, side, kind: e.penalty.unwrap_or(PenaltyKind::Other), at_ms })
                    }
                    EntryKind::Goal => Some(Play::Goal { seq: e.seq, side, at_ms }),
                    _ => None,
                }
            })
            .collect()
    }

    /// The penalty box over every goal and penalty that stands.
    pub fn sheet(&self) -> Sheet {
        penalties::run_unordered(self.plays())
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
