//! The per-game scoring aggregate: its state ([`model`]), what each log
//! entry changed ([`effects`]), the pure rules ([`mod@decide`]), the public
//! document ([`document`]) and the actor wiring ([`actor`]).

pub mod actor;
pub mod decide;
pub mod document;
pub mod effects;
pub mod model;

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;

pub use actor::{GameActor, GameAggregate, GameBatch};
pub use decide::{GameAction, GameCommand, GameOutcome, Lineup, MAX_ASSISTS, MAX_PENALTY_MINUTES, Rejection, decide};
pub use document::{GameDocument, GameUpdate, LOG_TAIL, LogView, PlayerView, TeamName, TeamView};
pub use effects::{Change, GameEffects, PlayerDelta, RosterDelta, sum_player_deltas, sum_roster_deltas};
pub use model::{EntryKind, GameState, GameStatus, LogEntry, Period, Player, RosterSide, Side, StoredGame};
