//! The generic aggregate actor: one per live event or game, driving its pure
//! core with GROUP COMMIT, PIPELINED: while one batch commits, the next is
//! already read and decided, so its commit can start the moment the first
//! one's returns.
//!
//! Where: this module holds the actor (its state, the finished batch's
//! answers and publishing, idling, the messages); `lanes.rs` moves a batch
//! through the pipeline; `job.rs` holds the phases themselves.
//!
//! Life of a batch (phases in `job.rs`):
//! 1. Handlers only enqueue (with a reply channel) and schedule a flush.
//!    actix drains the whole mailbox before it polls spawned futures, so
//!    the flush sees everything that arrived together. No timer, no
//!    artificial wait.
//! 2. The flush takes up to `max_batch` commands into a LANE and runs its
//!    READ phase off the actor: `prepare` (the event's people), stored
//!    replies of its command ids (memory first, then the store), and a load
//!    if the actor has no state.
//! 3. DECIDE, on the actor, in memory: every command in order on a working
//!    copy. The front lane decides on the committed state; a lane behind a
//!    committing one decides on the state that one WILL commit (its decided
//!    state), and a repeat of a command id still committing ahead is not
//!    decided again: it waits for the reply ahead.
//! 4. COMMIT, off the actor: ONE store commit with the version check. Only
//!    the front lane commits, so one aggregate never has two commits in
//!    flight (the server's writer combines batches of different aggregates
//!    and must never see two of one) and commits stay in order. `Conflict`
//!    means another node moved the version: reload, look the ids up again
//!    (the same command may have run there) and decide again, up to
//!    `max_attempts`.
//! 5. Only after the commit: replace the state, answer every caller,
//!    publish the document (seq = version). Then the lane behind moves to
//!    the front: if the batch ahead committed exactly as decided, its
//!    decisions stand and its commit starts at once; otherwise (a failure,
//!    or a conflict retry that decided differently) they are thrown away
//!    and it is decided again on what did commit, or after a fresh load.
//!    During a burst the document goes out at most every
//!    `publish_interval`; the state the burst ends in always does.
//!
//! Depth: at most two lanes, one committing and one reading or decided and
//! waiting. More would gain nothing, commits of one aggregate being serial.
//! A lane behind starts only when `ActorConfig::pipeline_from` commands
//! wait: under light load the next batch is fuller if it waits for the
//! commit (measured in `ActorConfig`'s docs).
//!
//! A rejected command gets its own error and does not spoil the batch
//! (decisions never mutate on rejection). Failures are whole-batch: if the
//! commit fails, nobody in it is told "ok", nor anyone behind it whose
//! decisions built on it.

mod job;
mod lanes;

use std::collections::{HashMap, VecDeque};
use std::marker::PhantomData;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use actix::prelude::*;
use tokio::sync::oneshot;
use tokio::time::Instant;

use crate::aggregate::{Aggregate, Deps, Envelope};
use crate::error::ActorError;
use crate::recent::RecentReplies;
use job::{Done, Next};
use lanes::Lane;

/// Room in the actix mailbox. Handlers only enqueue, so the mailbox
/// empties on every poll; the capacity just keeps senders from parking
/// during a burst (actix's default is 16).
const MAILBOX_CAPACITY: usize = 1024;

pub(crate) type ReplyTx<A> = oneshot::Sender<Result<<A as Aggregate>::Reply, ActorError>>;
pub(crate) type ReplyRx<A> = oneshot::Receiver<Result<<A as Aggregate>::Reply, ActorError>>;

/// Reply senders of the lanes in flight, by lane ticket.
///
/// Why not a field of [`Lane`]: if a phase future panics, the actor's task
/// unwinds and actix drops the actor BEFORE its mailbox and its spawned
/// futures after it. Callers must not see their channel close while the
/// address still reports connected, or a quick retry reaches the dead
/// actor instead of a fresh one. So every phase future holds a clone of
/// this map, and the front lane always has one in flight: the senders go
/// last.
type Callers<A> = Arc<Mutex<HashMap<u64, Vec<ReplyTx<A>>>>>;

/// Called when the actor decides to stop for good (idle, or its aggregate
/// is gone) so the registry forgets it.
pub(crate) type LeaveHook = Box<dyn Fn() + Send>;

/// Submit a command; the answer arrives on the returned channel after the
/// batch commits.
pub(crate) struct Submit<A: Aggregate>(pub(crate) Envelope<A::Command>);

impl<A: Aggregate> Message for Submit<A> {
    type Result = ReplyRx<A>;
}

/// The last committed `(version, document)`, if loaded.
pub(crate) struct Snapshot<A>(pub(crate) PhantomData<fn() -> A>);

impl<A: Aggregate> Message for Snapshot<A> {
    type Result = Option<(i64, A::Document)>;
}

struct Waiting<A: Aggregate> {
    envelope: Envelope<A::Command>,
    tx: ReplyTx<A>,
}

pub struct AggregateActor<A: Aggregate> {
    id: String,
    deps: Deps<A>,
    /// Last committed state. `None` until first loaded, and again after a
    /// failure that leaves the stored state unknown: the next batch reloads.
    state: Option<A::State>,
    queue: VecDeque<Waiting<A>>,
    /// Batches in flight, the front one first; at most `PIPELINE_DEPTH`.
    /// Only the front one ever commits.
    lanes: VecDeque<Lane<A>>,
    next_ticket: u64,
    /// Kept by the actor, not the phase futures, so a failure ahead or the
    /// aggregate disappearing can answer any lane whatever phase it is in.
    callers: Callers<A>,
    /// A flush is spawned but not yet run (avoid spawning one per message).
    flush_scheduled: bool,
    recent: RecentReplies,
    /// Tokio's clock, so tests can pause time.
    last_active: Instant,
    /// A committed change whose document has not gone out yet, and when
    /// the last one did (see `ActorConfig::publish_interval`).
    unpublished: bool,
    last_published: Option<Instant>,
    /// The version of the last update published (0 before the first).
    published_version: i64,
    leave: LeaveHook,
}

impl<A: Aggregate> AggregateActor<A> {
    pub(crate) fn new(id: String, deps: Deps<A>, leave: LeaveHook) -> Self {
        let recent = RecentReplies::new(deps.config.remembered_replies);
        AggregateActor {
            id,
            deps,
            state: None,
            queue: VecDeque::new(),
            lanes: VecDeque::new(),
            next_ticket: 0,
            callers: Callers::<A>::default(),
            flush_scheduled: false,
            recent,
            last_active: Instant::now(),
            unpublished: false,
            last_published: None,
            published_version: 0,
            leave,
        }
    }

    fn topic(&self) -> String {
        format!("{}:{}", A::KIND, self.id)
    }

    fn callers(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Vec<ReplyTx<A>>>> {
        // Only the actor's thread locks it; a panic there ends the actor.
        self.callers.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn take_callers(&self, ticket: u64) -> Vec<ReplyTx<A>> {
        self.callers().remove(&ticket).unwrap_or_default()
    }

    /// Applies a finished batch: state, remembered replies, answers,
    /// publishing. `false` when the aggregate is gone and the actor stopped.
    fn conclude(&mut self, ticket: u64, done: Done<A>, ctx: &mut Context<Self>) -> bool {
        self.last_active = Instant::now();
        let gone = matches!(done.next, Next::Gone);
        match done.next {
            Next::Replace(state) => self.state = Some(state),
            Next::Keep => {}
            Next::Reload | Next::Gone => {
                // What committed before this failure still goes out.
                self.flush_document();
                self.state = None;
            }
        }
        for (key, reply) in done.remember {
            self.recent.insert(key, reply);
        }
        for (tx, reply) in self.take_callers(ticket).into_iter().zip(done.replies) {
            // A caller that gave up waiting is not an error.
            let _ = tx.send(reply);
        }
        self.unpublished |= done.changed;
        let due = self.last_published.is_none_or(|at| at.elapsed() >= self.deps.config.publish_interval);
        if (self.queue.is_empty() && self.lanes.is_empty()) || due {
            self.flush_document();
        }
        if !done.touched.is_empty() {
            self.deps.publisher.touched(done.touched);
        }
        if gone {
            let err = ActorError::NotFound(format!("{} not found", A::KIND));
            self.lanes.clear();
            let lanes: Vec<_> = self.callers().drain().flat_map(|(_, senders)| senders).collect();
            for tx in lanes.into_iter().chain(self.queue.drain(..).map(|w| w.tx)) {
                let _ = tx.send(Err(err.clone()));
            }
            (self.leave)();
            ctx.stop();
            return false;
        }
        true
    }

    /// Publishes the document if a committed change has not gone out yet.
    fn flush_document(&mut self) {
        let Some(state) = &self.state else { return };
        if !self.unpublished {
            return;
        }
        self.unpublished = false;
        self.last_published = Some(Instant::now());
        // Unwatched, it goes to nobody: a later subscriber's snapshot is newer.
        let since = std::mem::replace(&mut self.published_version, A::version(state));
        let topic = self.topic();
        if !self.deps.publisher.is_watched(&topic) {
            return;
        }
        match serde_json::to_value(A::update(state, since)) {
            Ok(payload) => self.deps.publisher.publish(topic, A::version(state), payload),
            Err(e) => {
                tracing::error!(kind = A::KIND, id = %self.id, error = %e, "document not serialisable")
            }
        }
    }

    fn schedule_idle_check(&self, ctx: &mut Context<Self>, after: Duration) {
        ctx.run_later(after, |act, ctx| act.idle_check(ctx));
    }

    fn idle_check(&mut self, ctx: &mut Context<Self>) {
        let timeout = self.deps.config.idle_timeout;
        let idle = self.last_active.elapsed();
        let busy = !self.lanes.is_empty();
        if idle >= timeout && !busy && self.queue.is_empty() {
            tracing::debug!(kind = A::KIND, id = %self.id, "idle; stopping");
            (self.leave)();
            ctx.stop();
        } else {
            let wait = timeout.saturating_sub(idle).max(Duration::from_millis(1));
            self.schedule_idle_check(ctx, if busy { timeout } else { wait });
        }
    }
}

impl<A: Aggregate> Actor for AggregateActor<A> {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Self::Context) {
        ctx.set_mailbox_capacity(MAILBOX_CAPACITY);
        self.last_active = Instant::now();
        self.schedule_idle_check(ctx, self.deps.config.idle_timeout);
        // After a restart, commands queued before it still deserve a batch.
        self.schedule_flush(ctx);
    }
}

/// A restart (the actor stopped while someone still holds its address)
/// drops its spawned futures, so the batches in flight (the committing one
/// and the one behind it) are abandoned: their callers see their reply
/// channel close (`internal`), and whether the front one committed is
/// unknown. So the state is forgotten and reloaded from the
/// store on the next batch. Queued commands are kept. A panic instead kills
/// the actor's task outright; the registry notices the dead address and
/// starts a fresh actor, which likewise loads from the store.
impl<A: Aggregate> Supervised for AggregateActor<A> {
    fn restarting(&mut self, _ctx: &mut Self::Context) {
        tracing::warn!(kind = A::KIND, id = %self.id, "actor restarting; state will be reloaded");
        self.state = None;
        // Dropping the lanes' reply senders closes their callers' channels.
        self.lanes.clear();
        self.callers().clear();
        self.flush_scheduled = false;
    }
}

impl<A: Aggregate> Handler<Submit<A>> for AggregateActor<A> {
    type Result = MessageResult<Submit<A>>;

    fn handle(&mut self, Submit(envelope): Submit<A>, ctx: &mut Self::Context) -> Self::Result {
        let (tx, rx) = oneshot::channel();
        self.last_active = Instant::now();
        if self.queue.len() >= self.deps.config.max_queue {
            let _ = tx.send(Err(ActorError::Overloaded(format!("{} {} is busy; retry shortly", A::KIND, self.id))));
        } else {
            self.queue.push_back(Waiting { envelope, tx });
            self.schedule_flush(ctx);
        }
        MessageResult(rx)
    }
}

impl<A: Aggregate> Handler<Snapshot<A>> for AggregateActor<A> {
    type Result = MessageResult<Snapshot<A>>;

    fn handle(&mut self, _: Snapshot<A>, _: &mut Self::Context) -> Self::Result {
        // Being watched counts as activity: subscribers of a hot event keep
        // its actor (and its loaded state) warm.
        self.last_active = Instant::now();
        MessageResult(self.state.as_ref().map(|s| (A::version(s), A::document(s))))
    }
}
