//! Rinkside's aggregates: the per-event RSVP state machine and the per-game
//! scoring state machine, and the actix actors that serialise every change
//! to them.
//!
//! A tour, from the inside out:
//!
//! - [`hockey`], [`time`]: shared vocabulary (positions, roles) and the
//!   epoch-ms ⇄ RFC 3339 helper.
//! - [`event`] and [`game`]: each a PURE core, `decide(state, command) →
//!   (state, effects)`, plus its public document. No I/O; unit tests and
//!   property tests run them directly.
//! - [`store`]: the traits the server implements (storage with an
//!   optimistic version check, command-id results, the bus). This crate
//!   knows nothing of HTTP, SQL or Redis.
//! - [`aggregate`] and [`group_commit`]: one generic actor that drives any
//!   core with group commit: it commits a batch of queued commands in ONE
//!   store call and only then answers and publishes (seq = version). It is
//!   pipelined: while one batch commits, the next is read and decided on
//!   the state that one will commit, and its commit starts as soon as the
//!   first returns (decided again if it did not commit as decided).
//!   Conflicts from other nodes reload and decide again.
//! - [`registry`]: the doors. `Registry::send(id, envelope)` and
//!   `Registry::snapshot(id)`; actors start on first use, stop when idle.
//! - [`error`]: [`ActorError`], mapped onto the contract's error codes.
//!
//! Versions: each committed batch that changes anything bumps the
//! aggregate's version by exactly one, so the `seq` of `event:` / `game:`
//! pushes increases by one per push and is the same on every node.

pub mod aggregate;
pub mod error;
pub mod event;
pub mod game;
pub mod group_commit;
pub mod hockey;
mod recent;
pub mod registry;
pub mod store;
pub mod time;

pub use aggregate::{ActorConfig, Aggregate, Envelope};
pub use error::ActorError;
pub use hockey::{Position, Role, UnknownValue};
pub use registry::{Arbiters, EventRegistry, GameRegistry, Registry};
pub use store::{
    BoxFuture, CommandResult, CommitResult, EventCommit, EventStore, GameCommit, GameStore, Limits, OpenPlaces,
    Publisher, ReplyStore, StoreError, StoredReply, Touched,
};
