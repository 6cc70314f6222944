//! What an aggregate must provide for the generic group-commit actor
//! ([`crate::group_commit`]) to drive it, and the envelope a command travels
//! in.
//!
//! Events and games implement [`Aggregate`] in their `actor.rs`; the
//! batching, idempotency, retry and publishing logic exists once.

use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::ActorError;
use crate::store::{BoxFuture, CommandResult, CommitResult, ReplyStore, StoreError};

/// A command plus who sent it and its idempotency key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Envelope<C> {
    /// Idempotency key, already scoped by the caller (e.g. by user), or
    /// `None` for commands that need no replay protection.
    pub command_id: Option<String>,
    /// What the command says (a digest of its body), stored with its reply:
    /// the same id with a different fingerprint is refused
    /// ([`crate::ActorError::KeyReused`]) instead of replaying a reply that
    /// answers another command.
    pub fingerprint: Option<String>,
    /// The signed-in user on whose behalf the command runs (log entries'
    /// `createdBy`, tracing).
    pub actor_id: String,
    pub command: C,
}

impl<C> Envelope<C> {
    pub fn new(actor_id: impl Into<String>, command: C) -> Self {
        Envelope { command_id: None, fingerprint: None, actor_id: actor_id.into(), command }
    }

    pub fn with_command_id(mut self, key: impl Into<String>) -> Self {
        self.command_id = Some(key.into());
        self
    }

    pub fn with_fingerprint(mut self, fingerprint: impl Into<String>) -> Self {
        self.fingerprint = Some(fingerprint.into());
        self
    }
}

/// The seam between the pure core of an aggregate and the actor machinery.
pub trait Aggregate: Unpin + Sized + 'static {
    /// Topic prefix (`event` → `event:ID`) and tracing label.
    const KIND: &'static str;
    type State: Clone + Send + Unpin + 'static;
    type Command: Send + Unpin + 'static;
    /// Changes accumulated over a batch, turned into one store commit.
    type Effects: Default + Send + 'static;
    /// What a decision needs to build its reply once the batch is decided
    /// (replies describe the batch's final state, at the committed version).
    type Intent: 'static;
    type Reply: Serialize + DeserializeOwned + Clone + Send + 'static;
    type Document: Serialize + Send + 'static;
    /// What an update frame carries: the document, or a smaller view of it
    /// (CONTRACT.md › Update frames stay small).
    type Update: Serialize + Send + 'static;
    type Store: ?Sized + ReplyStore;

    fn load<'a>(store: &'a Self::Store, id: &str) -> BoxFuture<'a, Result<Option<Self::State>, StoreError>>;

    /// Reads what the batch's commands need from the store before they are
    /// decided, in one go for the whole batch rather than one read per
    /// request (the event fills in who is answering). Runs once per batch,
    /// off the actor. Nothing by default.
    fn prepare<'a>(
        _store: &'a Self::Store,
        _commands: &'a mut [Envelope<Self::Command>],
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async { Ok(()) })
    }

    /// Decides one command, adding its changes to `effects`. Must leave
    /// `state` untouched when it returns `Err`.
    fn decide(
        state: &mut Self::State,
        effects: &mut Self::Effects,
        command: &Self::Command,
        actor_id: &str,
        now_ms: i64,
    ) -> Result<Self::Intent, ActorError>;

    fn reply(state: &Self::State, intent: Self::Intent) -> Self::Reply;

    fn commit<'a>(
        store: &'a Self::Store,
        id: &str,
        expected_version: i64,
        state: &Self::State,
        effects: Self::Effects,
        results: Vec<CommandResult>,
    ) -> BoxFuture<'a, Result<CommitResult, StoreError>>;

    fn version(state: &Self::State) -> i64;

    /// Closes the batch after a successful commit (see `EventState::seal`).
    fn seal(state: &mut Self::State);

    /// The whole state subscribers see: snapshots and `GET` reads.
    fn document(state: &Self::State) -> Self::Document;

    /// What is published after each commit: the change since version
    /// `since`, the last one this actor published (0 before its first).
    /// An aggregate whose update is its whole document ignores it.
    fn update(state: &Self::State, since: i64) -> Self::Update;
}

/// Tunables for every actor of a registry. Named limits, not magic numbers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActorConfig {
    /// Stop after this long without a message (default 5 minutes). The next
    /// command starts a fresh actor that reloads from the store.
    pub idle_timeout: Duration,
    /// Most commands decided and committed together (default 1024): bounds
    /// the transaction size. A commit costs a fixed ~15 ms of hand-offs
    /// between threads (measured on a 2-core VM: every statement is a round
    /// trip to the connection's thread, and a woken idle core is slow)
    /// plus ~30 µs per RSVP, so a burst is decided fastest in few big
    /// batches; with the pipeline the next batch is decided while one
    /// commits, so a big batch does not hold the one behind it.
    pub max_batch: usize,
    /// Commands that must be waiting before the next batch is read and
    /// decided while one commits (default 64). Below it the next batch
    /// waits for the commit, gathering what arrives meanwhile (plain group
    /// commit: fewer, fuller commits, which is what a busy league night of
    /// many quiet events needs); from it on, in a burst on one event, the
    /// pipeline keeps the database busy. Measured (steady, 100 events at
    /// 5,000/s asked): pipelining every batch halved the replies per
    /// commit and sustained 2,500/s instead of 3,100.
    pub pipeline_from: usize,
    /// Decide-and-commit attempts per batch when other nodes keep moving the
    /// version (default 10, with a short jittered pause between them); then
    /// the batch answers `conflict`.
    pub max_attempts: u32,
    /// Commands waiting for a batch (default 8192); beyond it new commands
    /// answer `rate_limited` instead of growing memory without bound.
    pub max_queue: usize,
    /// Replies of recent command ids kept in memory (default 4096), so a
    /// retry usually needs no store lookup.
    pub remembered_replies: usize,
    /// While commands keep queueing, the document goes out at most this
    /// often (default 50 ms) rather than after every batch: state topics
    /// coalesce anyway, and a burst of 5,000 RSVPs would otherwise serialise
    /// a growing attendee list twenty times. The state a burst ends in is
    /// always published as soon as the queue is empty.
    pub publish_interval: Duration,
}

impl Default for ActorConfig {
    fn default() -> Self {
        ActorConfig {
            idle_timeout: Duration::from_secs(5 * 60),
            max_batch: 1024,
            pipeline_from: 64,
            max_attempts: 10,
            max_queue: 8192,
            remembered_replies: 4096,
            publish_interval: Duration::from_millis(50),
        }
    }
}

/// Shared handles every actor of a kind needs.
pub(crate) struct Deps<A: Aggregate> {
    pub(crate) store: Arc<A::Store>,
    pub(crate) publisher: Arc<dyn crate::store::Publisher>,
    pub(crate) config: ActorConfig,
}

impl<A: Aggregate> Clone for Deps<A> {
    fn clone(&self) -> Self {
        Deps { store: Arc::clone(&self.store), publisher: Arc::clone(&self.publisher), config: self.config.clone() }
    }
}
