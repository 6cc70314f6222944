//! The per-game scoring aggregate: its state ([`model`]), what each log
//! entry changed ([`effects`]), the pure rules ([`mod@decide`], with what
//! each scoring action writes in `entries`, the clock actions in
//! `clock_actions` and the dressed lists in `lineup`), the public document
//! ([`document`]) and the actor wiring ([`actor`]); the clock ([`clock`])
//! and the penalty box ([`penalties`]) are pure arithmetic.

pub mod actor;
pub mod clock;
mod clock_actions;
pub mod decide;
pub mod document;
pub mod edit;
pub mod effects;
mod entries;
mod lineup;
pub mod model;
pub mod penalties;

#[cfg(test)]
mod night_tests;
#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;

pub use actor::{GameActor, GameAggregate, GameBatch};
pub use clock::{Clock, ClockMode, ClockPhase, ClockSettings, GameSettings, SettingsPatch};
pub use decide::{
    CLOCK_AT_WINDOW_MS, GameAction, GameCommand, GameOutcome, Lineup, MAX_ASSISTS, MAX_PENALTY_MINUTES, Rejection,
    decide,
};
pub use document::{ClockUpdate, GameDocument, GameUpdate, LogView, PenaltyView, PlayerView, Shots, TeamView};
pub use edit::GameEdit;
pub use effects::{Change, GameEffects, PlayerDelta, RosterDelta, sum_player_deltas, sum_roster_deltas};
pub use model::{EntryKind, GameState, GameStatus, Goalies, LogEntry, Period, Player, RosterSide, Side, StoredGame};
pub use penalties::{PenaltyKind, Strength};
