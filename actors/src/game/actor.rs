//! Wires the scoring core into the group-commit actor. A game batch is
//! usually one command (one score keeper), but the same machinery gives
//! idempotency, conflict retries and durable-before-ack for free.
//!
//! Every command in a batch is answered with the game document after the
//! batch, at the version it commits as: the same document that is pushed.

use super::clock::GameSettings;
use super::decide::{GameCommand, GameOutcome, Lineup, decide};
use super::document::{GameDocument, GameUpdate};
use super::effects::{sum_player_deltas, sum_roster_deltas};
use super::model::{GameState, LogEntry};
use crate::aggregate::Aggregate;
use crate::error::ActorError;
use crate::group_commit::AggregateActor;
use crate::store::{BoxFuture, CommandResult, CommitResult, GameCommit, GameStore, StoreError};

/// Marker type naming the game aggregate.
#[derive(Debug)]
pub enum GameAggregate {}

/// The actor of one game.
pub type GameActor = AggregateActor<GameAggregate>;

/// A batch's accumulated changes.
#[derive(Debug, Default)]
pub struct GameBatch {
    entries: Vec<LogEntry>,
    undone: Vec<i64>,
    lineups: Vec<Lineup>,
    scheduled_at: Option<i64>,
    settings: Option<GameSettings>,
}

impl GameBatch {
    fn absorb(&mut self, outcome: GameOutcome) {
        self.entries.extend(outcome.entry);
        self.scheduled_at = outcome.scheduled_at.or(self.scheduled_at);
        self.settings = outcome.settings.or(self.settings);
        self.undone.extend(outcome.undone);
        if let Some(lineup) = outcome.lineup {
            // Only the last lineup of a roster in a batch matters.
            self.lineups.retain(|l| l.roster_id != lineup.roster_id);
            self.lineups.push(lineup);
        }
    }
}

impl Aggregate for GameAggregate {
    const KIND: &'static str = "game";
    type State = GameState;
    type Command = GameCommand;
    type Effects = GameBatch;
    type Intent = ();
    type Reply = GameDocument;
    type Document = GameDocument;
    /// The scoreboard, the clock and what changed since the last update: a
    /// goal's frame stays the same size however long the game has run.
    type Update = GameUpdate;
    type Store = dyn GameStore;

    fn load<'a>(store: &'a Self::Store, id: &str) -> BoxFuture<'a, Result<Option<GameState>, StoreError>> {
        store.load(id.to_owned())
    }

    fn decide(
        state: &mut GameState,
        batch: &mut GameBatch,
        command: &GameCommand,
        actor_id: &str,
        now_ms: i64,
    ) -> Result<(), ActorError> {
        let outcome = decide(state, command, actor_id, now_ms)?;
        batch.absorb(outcome);
        Ok(())
    }

    fn reply(state: &GameState, (): ()) -> GameDocument {
        state.public_document()
    }

    fn commit<'a>(
        store: &'a Self::Store,
        id: &str,
        expected_version: i64,
        state: &GameState,
        batch: GameBatch,
        results: Vec<CommandResult>,
    ) -> BoxFuture<'a, Result<CommitResult, StoreError>> {
        let player_deltas = sum_player_deltas(batch.entries.iter().flat_map(|e| &e.effects.players));
        let roster_deltas = sum_roster_deltas(batch.entries.iter().flat_map(|e| &e.effects.rosters));
        let commit = GameCommit {
            game_id: id.to_owned(),
            season_id: state.season_id().map(str::to_owned),
            expected_version,
            new_version: state.version(),
            status: state.status(),
            period: state.period(),
            home_score: state.home_score(),
            away_score: state.away_score(),
            clock: *state.clock(),
            settings: batch.settings,
            entries: batch.entries,
            undone: batch.undone,
            player_deltas,
            roster_deltas,
            lineups: batch.lineups,
            scheduled_at: batch.scheduled_at,
            results,
        };
        store.commit(commit)
    }

    fn version(state: &GameState) -> i64 {
        state.version()
    }

    fn seal(state: &mut GameState) {
        state.seal();
    }

    fn document(state: &GameState) -> GameDocument {
        state.public_document()
    }

    fn update(state: &GameState, since: i64) -> GameUpdate {
        state.update_document(since)
    }
}
