//! The generic aggregate actor: one per live event or game, driving its pure
//! core with GROUP COMMIT.
//!
//! Life of a batch:
//! 1. Handlers only enqueue (with a reply channel) and schedule a flush.
//!    actix drains the whole mailbox before it polls spawned futures, so
//!    the flush sees everything that arrived together; while a commit is in
//!    flight, new commands simply queue. No timer, no artificial wait.
//! 2. The flush takes up to `max_batch` commands and runs a job (`job.rs`): look
//!    up command ids (memory, then store), decide each command in order on
//!    a working copy, and commit the whole batch in ONE store commit.
//! 3. `Conflict` means another node moved the version: reload, look up the
//!    ids again (the same command may have run there) and decide the batch
//!    again, up to `max_attempts`.
//! 4. Only after the commit: replace the state, answer every caller,
//!    publish the document (seq = version), then start the next batch.
//!    During a burst (commands still queued) the document goes out at most
//!    every `publish_interval`; the state the burst ends in always does.
//!
//! A rejected command gets its own error and does not spoil the batch
//! (decisions never mutate on rejection). Failures are whole-batch: if the
//! commit fails, nobody is told "ok".

mod job;

use std::collections::VecDeque;
use std::marker::PhantomData;
use std::time::Duration;

use actix::prelude::*;
use tokio::sync::oneshot;
use tokio::time::Instant;
use tracing::Instrument;

use crate::aggregate::{Aggregate, Deps, Envelope};
use crate::error::ActorError;
use crate::recent::RecentReplies;
use job::{Done, Job, Next};

/// Room in the actix mailbox. Handlers only enqueue, so the mailbox
/// empties on every poll; the capacity just keeps senders from parking
/// during a burst (actix's default is 16).
const MAILBOX_CAPACITY: usize = 1024;

pub(crate) type ReplyTx<A> = oneshot::Sender<Result<<A as Aggregate>::Reply, ActorError>>;
pub(crate) type ReplyRx<A> = oneshot::Receiver<Result<<A as Aggregate>::Reply, ActorError>>;

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
    /// A batch is between "taken from the queue" and "answered".
    in_flight: bool,
    /// A flush is spawned but not yet run (avoid spawning one per message).
    flush_scheduled: bool,
    recent: RecentReplies,
    /// Tokio's clock, so tests can pause time.
    last_active: Instant,
    /// A committed change whose document has not gone out yet, and when
    /// the last one did (see `ActorConfig::publish_interval`).
    unpublished: bool,
    last_published: Option<Instant>,
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
            in_flight: false,
            flush_scheduled: false,
            recent,
            last_active: Instant::now(),
            unpublished: false,
            last_published: None,
            leave,
        }
    }

    fn topic(&self) -> String {
        format!("{}:{}", A::KIND, self.id)
    }

    fn schedule_flush(&mut self, ctx: &mut Context<Self>) {
        if self.in_flight || self.flush_scheduled || self.queue.is_empty() {
            return;
        }
        self.flush_scheduled = true;
        ctx.spawn(fut::ready(()).map(|(), act: &mut Self, ctx| {
            act.flush_scheduled = false;
            act.start_batch(ctx);
        }));
    }

    fn start_batch(&mut self, ctx: &mut Context<Self>) {
        if self.in_flight || self.queue.is_empty() {
            return;
        }
        let take = self.queue.len().min(self.deps.config.max_batch.max(1));
        let (envelopes, senders): (Vec<_>, Vec<_>) = self.queue.drain(..take).map(|w| (w.envelope, w.tx)).unzip();
        let known =
            envelopes.iter().map(|e| e.command_id.as_deref().and_then(|k| self.recent.get(k)).cloned()).collect();
        let job = Job::<A> { id: self.id.clone(), deps: self.deps.clone(), envelopes, known };
        self.in_flight = true;
        let span = tracing::debug_span!("batch", kind = A::KIND, id = %self.id, size = take);
        let base = self.state.clone();
        ctx.spawn(
            job.run(base)
                .instrument(span)
                .into_actor(self)
                .map(move |done, act, ctx| act.finish_batch(done, senders, ctx)),
        );
    }

    fn finish_batch(&mut self, done: Done<A>, senders: Vec<ReplyTx<A>>, ctx: &mut Context<Self>) {
        self.in_flight = false;
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
        for (tx, reply) in senders.into_iter().zip(done.replies) {
            // A caller that gave up waiting is not an error.
            let _ = tx.send(reply);
        }
        self.unpublished |= done.changed;
        let due = self.last_published.is_none_or(|at| at.elapsed() >= self.deps.config.publish_interval);
        if self.queue.is_empty() || due {
            self.flush_document();
        }
        if !done.touched.is_empty() {
            self.deps.publisher.touched(done.touched);
        }
        if gone {
            let err = ActorError::NotFound(format!("{} not found", A::KIND));
            for w in self.queue.drain(..) {
                let _ = w.tx.send(Err(err.clone()));
            }
            (self.leave)();
            ctx.stop();
            return;
        }
        self.start_batch(ctx);
    }

    /// Publishes the document if a committed change has not gone out yet.
    fn flush_document(&mut self) {
        let Some(state) = &self.state else { return };
        if !self.unpublished {
            return;
        }
        self.unpublished = false;
        self.last_published = Some(Instant::now());
        let topic = self.topic();
        if !self.deps.publisher.is_watched(&topic) {
            return;
        }
        match serde_json::to_value(A::update(state)) {
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
        if idle >= timeout && !self.in_flight && self.queue.is_empty() {
            tracing::debug!(kind = A::KIND, id = %self.id, "idle; stopping");
            (self.leave)();
            ctx.stop();
        } else {
            let wait = timeout.saturating_sub(idle).max(Duration::from_millis(1));
            self.schedule_idle_check(ctx, if self.in_flight { timeout } else { wait });
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
/// drops its spawned futures, so an in-flight batch is abandoned: its
/// callers see their reply channel close (`internal`), and whether it
/// committed is unknown. So the state is forgotten and reloaded from the
/// store on the next batch. Queued commands are kept. A panic instead kills
/// the actor's task outright; the registry notices the dead address and
/// starts a fresh actor, which likewise loads from the store.
impl<A: Aggregate> Supervised for AggregateActor<A> {
    fn restarting(&mut self, _ctx: &mut Self::Context) {
        tracing::warn!(kind = A::KIND, id = %self.id, "actor restarting; state will be reloaded");
        self.state = None;
        self.in_flight = false;
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
