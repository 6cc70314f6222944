//! The doors to the outside world that the server implements: storage
//! ([`EventStore`], [`GameStore`], both with [`ReplyStore`]) and the bus
//! ([`Publisher`]).
//!
//! The traits speak in whole commits, not rows: one `commit` per group
//! commit batch, which the server runs as ONE transaction that starts with
//! the optimistic version check
//!
//! ```sql
//! UPDATE events SET version = $new WHERE id = $id AND version = $expected
//! ```
//!
//! and answers [`StoreError::Conflict`] when it touches zero rows (another
//! node committed first) or when a command-result key already exists (the
//! same command id raced in on another node). `new_version` may equal
//! `expected_version` (a batch of no-op or rejected commands): the UPDATE
//! still runs, because it is what proves the decisions were made on the
//! current state. Both SQLite and PostgreSQL count a matched row as
//! updated even when the value is unchanged.
//!
//! Futures are boxed so the traits are object-safe (`Arc<dyn EventStore>`)
//! and `Send` so the server may drive them from any runtime.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::error::ActorError;
use crate::event::{EventState, Person, Rsvp, RsvpHistory, WaitlistHistory};
use crate::game::{GameSettings, GameState, GameStatus, Lineup, LogEntry, Period, PlayerDelta, RosterDelta};

/// A boxed, sendable future: what every store method returns.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// The version check matched no row, or a command-result key already
    /// exists: the actor reloads and decides the batch again.
    #[error("the aggregate changed underneath this commit")]
    Conflict,
    /// The aggregate no longer exists (deleted): callers get `not_found`
    /// and the actor stops.
    #[error("not found")]
    NotFound,
    /// Anything else (connection lost, constraint violated). The commit's
    /// outcome is unknown, so the actor reloads before its next batch.
    #[error("{0}")]
    Other(String),
}

/// A reply stored under a command id: `reply` is the REST body when `ok`,
/// else the error object `{"code","message","details"?}`. Exactly what a
/// WebSocket `reply` carries as `data` / `error`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct StoredReply {
    pub ok: bool,
    pub reply: Value,
    /// The fingerprint of the command that got this reply, when known.
    #[serde(default)]
    pub fingerprint: Option<String>,
}

impl StoredReply {
    /// The stored form of a decided reply; `None` for transient errors
    /// (they must not be replayed) or an unserialisable reply.
    pub fn from_result<R: Serialize>(result: &Result<R, ActorError>) -> Option<Self> {
        match result {
            Ok(reply) => {
                serde_json::to_value(reply).ok().map(|reply| StoredReply { ok: true, reply, fingerprint: None })
            }
            Err(e) if e.is_decided() => Some(StoredReply { ok: false, reply: e.to_json(), fingerprint: None }),
            Err(_) => None,
        }
    }

    /// Whether a command with `fingerprint` may be answered with this reply:
    /// yes unless both fingerprints are known and differ.
    pub fn answers(&self, fingerprint: Option<&str>) -> bool {
        match (self.fingerprint.as_deref(), fingerprint) {
            (Some(stored), Some(asked)) => stored == asked,
            _ => true,
        }
    }

    /// Back to the typed reply a caller expects.
    pub fn to_result<R: DeserializeOwned>(&self) -> Result<R, ActorError> {
        if self.ok {
            serde_json::from_value(self.reply.clone())
                .map_err(|e| ActorError::Internal(format!("stored reply unreadable: {e}")))
        } else {
            Err(ActorError::from_json(&self.reply))
        }
    }
}

/// A command id's result to insert with the batch (same transaction), so a
/// replay answers the first reply even after a restart or on another node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandResult {
    /// The caller-scoped idempotency key (the server scopes client ids by
    /// user, e.g. `"{userId}:{clientId}"`).
    pub key: String,
    pub ok: bool,
    pub reply: Value,
    pub fingerprint: Option<String>,
}

/// What a successful commit hands back.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CommitResult {
    /// Other live documents the commit changed (a goal: its season's
    /// standings and both rosters' stats). The actor hands them to
    /// [`Publisher::touched`] after replying and after its own document; the
    /// server's one pusher builds and publishes each.
    pub touched: Vec<Touched>,
}

/// A live document that a commit changed besides the aggregate's own.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Touched {
    /// A season's standings and schedule (by season id).
    Season(String),
    /// A roster's document with its players' stats (by roster id).
    Roster(String),
}

/// Command-id idempotency, shared by both aggregates (one table suffices).
pub trait ReplyStore: Send + Sync + 'static {
    /// The stored replies for those of `keys` that exist.
    fn find_results(&self, keys: Vec<String>) -> BoxFuture<'_, Result<HashMap<String, StoredReply>, StoreError>>;
}

/// Limits to write (`None` = unlimited).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub max_skaters: Option<i64>,
    pub max_goalies: Option<i64>,
}

/// Everything one event batch changed; the server applies it in one
/// transaction after the version check.
#[derive(Debug, Clone, PartialEq)]
pub struct EventCommit {
    pub event_id: String,
    pub expected_version: i64,
    pub new_version: i64,
    /// RSVP rows to upsert by `(event_id, user_id)`; one per user, the
    /// final state of the batch.
    pub rsvps: Vec<Rsvp>,
    /// Rows to insert into EventRSVPHistory, in order.
    pub rsvp_history: Vec<RsvpHistory>,
    /// Rows to insert into EventWaitlistHistory, in order.
    pub waitlist_history: Vec<WaitlistHistory>,
    /// `Some` when the limits changed: write both columns.
    pub limits: Option<Limits>,
    /// The event became cancelled in this batch.
    pub cancelled: bool,
    /// Why (the organiser's words), when it became cancelled and they said.
    pub cancel_reason: Option<String>,
    /// `Some` when the places left per role changed in this batch (an
    /// answer, a removal, new limits, a cancellation): the sub market's
    /// open spots follow it.
    pub open_places: Option<OpenPlaces>,
    /// Command-id results to insert.
    pub results: Vec<CommandResult>,
}

/// Places left per role: `None` = unlimited; a cancelled event has none.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OpenPlaces {
    pub skaters: Option<i64>,
    pub goalies: Option<i64>,
}

pub trait EventStore: ReplyStore {
    /// The event with all its RSVP rows (see [`EventState::new`]), or
    /// `None` if there is no such event.
    fn load(&self, event_id: String) -> BoxFuture<'_, Result<Option<EventState>, StoreError>>;
    fn commit(&self, commit: EventCommit) -> BoxFuture<'_, Result<CommitResult, StoreError>>;
    /// The people among `user_ids` that exist, by id (one read per batch).
    fn people(&self, user_ids: Vec<String>) -> BoxFuture<'_, Result<HashMap<String, Person>, StoreError>>;
}

/// Everything one game batch changed; the server applies it in one
/// transaction after the version check.
#[derive(Debug, Clone, PartialEq)]
pub struct GameCommit {
    pub game_id: String,
    /// The season whose standings the batch may touch.
    pub season_id: Option<String>,
    pub expected_version: i64,
    pub new_version: i64,
    /// The game row after the batch (always written; cheap and simple).
    pub status: GameStatus,
    pub period: Option<Period>,
    pub home_score: i64,
    pub away_score: i64,
    /// The clock after the batch (written with the row).
    pub clock: crate::game::Clock,
    /// The game's own settings, when the batch replaced them.
    pub settings: Option<GameSettings>,
    /// New log entries to insert, in seq order (UNDO entries included).
    pub entries: Vec<LogEntry>,
    /// Then mark these seqs undone (they may be new or old entries).
    pub undone: Vec<i64>,
    /// RosterPlayer counters to add to, summed over the batch, zero rows
    /// dropped.
    pub player_deltas: Vec<PlayerDelta>,
    /// Roster wins/losses/ties/points to add to, summed, zero rows dropped.
    pub roster_deltas: Vec<RosterDelta>,
    /// Rosters whose dressed list was replaced in this batch.
    pub lineups: Vec<Lineup>,
    /// A new puck-drop time (epoch ms), when the batch rescheduled.
    pub scheduled_at: Option<i64>,
    pub results: Vec<CommandResult>,
}

pub trait GameStore: ReplyStore {
    /// The game with both rosters' players, lineups and its full log (see
    /// [`GameState::new`]), or `None` if there is no such game.
    fn load(&self, game_id: String) -> BoxFuture<'_, Result<Option<GameState>, StoreError>>;
    fn commit(&self, commit: GameCommit) -> BoxFuture<'_, Result<CommitResult, StoreError>>;
}

/// The bus. Fire and forget: a lost message is repaired by the next one
/// (each carries the full state) or by a re-subscribe with `since`.
pub trait Publisher: Send + Sync + 'static {
    fn publish(&self, topic: String, seq: i64, payload: Value);

    /// Whether anyone may be listening to `topic`. When nobody is, the actor
    /// skips building the document; a later subscriber gets a snapshot of
    /// the actor's state instead.
    fn is_watched(&self, _topic: &str) -> bool {
        true
    }

    /// A commit changed these other documents (see
    /// [`CommitResult::touched`]); the publisher builds and pushes them.
    fn touched(&self, _topics: Vec<Touched>) {}
}
