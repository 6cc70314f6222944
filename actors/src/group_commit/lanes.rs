//! The pipeline: a batch taken off the queue into a LANE, and each lane's
//! way from READ through DECIDE to COMMIT (the phases are `job.rs`'s; this
//! module sequences them). At most [`PIPELINE_DEPTH`] lanes: one
//! committing, one read or decided behind it. Only the front lane commits;
//! when it is done the lane behind moves to the front, committing its
//! decisions at once if the batch ahead committed exactly as decided.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use actix::prelude::*;
use tracing::Instrument;

use super::AggregateActor;
use super::job::{self, Batch, Decided, Done, Next, Read};
use crate::aggregate::Aggregate;
use crate::error::ActorError;
use crate::store::StoredReply;

/// Lanes in flight: one committing, one read or decided behind it.
pub(super) const PIPELINE_DEPTH: usize = 2;

/// A batch between "taken from the queue" and "answered".
pub(super) struct Lane<A: Aggregate> {
    /// Matches a phase's result to its lane. After a restart the lanes are
    /// abandoned, and a late result must not land on a newer lane.
    ticket: u64,
    /// The batch's command ids: in the lane behind, repeats of them wait
    /// for this lane's replies instead of being decided twice.
    keys: HashSet<String>,
    /// Replies the batch ahead committed while this lane was reading: its
    /// read may have looked the store up before they existed.
    settled: HashMap<String, StoredReply>,
    stage: Stage<A>,
}

enum Stage<A: Aggregate> {
    /// The read phase runs; its future owns the batch.
    Reading,
    /// Decided on the state the lane ahead will commit; waits for it.
    /// Boxed: an actor must be `Unpin`, and replies and effects need not be.
    Decided(Box<(Batch<A>, Decided<A>)>),
    /// The commit phase runs. `after` is the decided state, sealed: the
    /// base the lane behind decides on.
    Committing { after: A::State },
}

impl<A: Aggregate> AggregateActor<A> {
    /// Whether a new lane may start: none in flight, or only one that is
    /// committing (a lane behind needs the state it will commit) while
    /// enough commands wait to make a pipeline worth it
    /// (`ActorConfig::pipeline_from`).
    fn lane_free(&self) -> bool {
        match self.lanes.len() {
            0 => true,
            n if n < PIPELINE_DEPTH => {
                self.queue.len() >= self.deps.config.pipeline_from.max(1)
                    && matches!(self.lanes.back().map(|l| &l.stage), Some(Stage::Committing { .. }))
            }
            _ => false,
        }
    }

    pub(super) fn schedule_flush(&mut self, ctx: &mut Context<Self>) {
        if self.flush_scheduled || self.queue.is_empty() || !self.lane_free() {
            return;
        }
        self.flush_scheduled = true;
        ctx.spawn(fut::ready(()).map(|(), act: &mut Self, ctx| {
            act.flush_scheduled = false;
            act.start_batch(ctx);
        }));
    }

    /// Takes the next batch off the queue into a lane and starts its read.
    fn start_batch(&mut self, ctx: &mut Context<Self>) {
        if self.queue.is_empty() || !self.lane_free() {
            return;
        }
        // A lane behind decides on the front lane's decided state, so only
        // a lane at the front may need a load.
        let load = self.lanes.is_empty() && self.state.is_none();
        let take = self.queue.len().min(self.deps.config.max_batch.max(1));
        let (envelopes, senders): (Vec<_>, Vec<_>) = self.queue.drain(..take).map(|w| (w.envelope, w.tx)).unzip();
        let known: Vec<_> =
            envelopes.iter().map(|e| e.command_id.as_deref().and_then(|k| self.recent.get(k)).cloned()).collect();
        let keys = envelopes.iter().filter_map(|e| e.command_id.clone()).collect();
        let batch = Batch::<A> { id: self.id.clone(), deps: self.deps.clone(), envelopes, known, prepared: false };
        let ticket = self.next_ticket;
        self.next_ticket += 1;
        self.callers().insert(ticket, senders);
        self.lanes.push_back(Lane { ticket, keys, settled: HashMap::new(), stage: Stage::Reading });
        self.spawn_read(ticket, batch, load, ctx);
    }

    fn spawn_read(&mut self, ticket: u64, batch: Batch<A>, load: bool, ctx: &mut Context<Self>) {
        let span = tracing::debug_span!("read", kind = A::KIND, id = %self.id, size = batch.len(), load);
        let keep = Arc::clone(&self.callers);
        ctx.spawn(batch.read(load).instrument(span).into_actor(self).map(move |read, act, ctx| {
            drop(keep);
            act.on_read(ticket, read, ctx);
        }));
    }

    fn on_read(&mut self, ticket: u64, read: Result<Read<A>, Done<A>>, ctx: &mut Context<Self>) {
        let Some(pos) = self.lanes.iter().position(|l| l.ticket == ticket) else { return };
        let Read { mut batch, loaded } = match read {
            Ok(read) => read,
            Err(done) => {
                // The read failed: answer the lane. No lane is ever
                // behind a reading one, so nothing else is affected.
                if let Some(lane) = self.lanes.remove(pos)
                    && self.conclude(lane.ticket, done, ctx)
                {
                    self.start_batch(ctx);
                }
                return;
            }
        };
        if let Some(state) = loaded {
            self.state = Some(state);
        }
        let settled = std::mem::take(&mut self.lanes[pos].settled);
        batch.learn(&settled);
        if pos == 0 {
            self.decide_front(batch, ctx);
            return;
        }
        let ahead = &self.lanes[0];
        match &ahead.stage {
            Stage::Committing { after } => {
                let decided = batch.decide(after, &ahead.keys);
                self.lanes[pos].stage = Stage::Decided(Box::new((batch, decided)));
            }
            Stage::Reading | Stage::Decided(..) => {
                // Unreachable by construction (`lane_free`); refuse the
                // batch rather than commit beside the lane ahead.
                tracing::error!(kind = A::KIND, id = %self.id, "a lane behind one that is not committing");
                let err = ActorError::Internal("batch out of order".into());
                if let Some(lane) = self.lanes.remove(pos) {
                    self.conclude(lane.ticket, Done::failed(batch.len(), err, Next::Keep), ctx);
                }
            }
        }
    }

    /// DECIDE the front lane on the committed state and commit it, or read
    /// again with a load when the state is unknown.
    fn decide_front(&mut self, batch: Batch<A>, ctx: &mut Context<Self>) {
        let Some(front) = self.lanes.front_mut() else { return };
        let Some(state) = &self.state else {
            // A failure ahead (or nothing loaded yet): load, and look the
            // ids up again, since what ran before is not known either.
            front.stage = Stage::Reading;
            let ticket = front.ticket;
            self.spawn_read(ticket, batch, true, ctx);
            return;
        };
        let decided = batch.decide(state, &HashSet::new());
        self.commit_front(batch, decided, ctx);
    }

    /// Starts the front lane's COMMIT (or answers it at once when every
    /// command was a replay), then lets the next batch read and decide
    /// behind it.
    fn commit_front(&mut self, batch: Batch<A>, decided: Decided<A>, ctx: &mut Context<Self>) {
        if !decided.any_decided {
            if let Some(lane) = self.lanes.pop_front()
                && self.conclude(lane.ticket, decided.without_commit(), ctx)
            {
                self.start_batch(ctx);
            }
            return;
        }
        let Some(front) = self.lanes.front_mut() else { return };
        // A second copy of the decided state: the commit future owns one,
        // the lane behind decides on this one.
        let mut after = decided.state.clone();
        A::seal(&mut after);
        front.stage = Stage::Committing { after };
        let ticket = front.ticket;
        let span = tracing::debug_span!("commit", kind = A::KIND, id = %self.id, size = batch.len());
        let keep = Arc::clone(&self.callers);
        ctx.spawn(job::commit(batch, decided).instrument(span).into_actor(self).map(move |done, act, ctx| {
            drop(keep);
            act.on_commit(ticket, done, ctx);
        }));
        self.start_batch(ctx);
    }

    fn on_commit(&mut self, ticket: u64, done: Done<A>, ctx: &mut Context<Self>) {
        if self.lanes.front().is_none_or(|l| l.ticket != ticket) {
            return;
        }
        let Some(lane) = self.lanes.pop_front() else { return };
        let settled: HashMap<String, StoredReply> =
            if self.lanes.is_empty() { HashMap::new() } else { done.remember.iter().cloned().collect() };
        let as_decided = done.as_decided && matches!(done.next, Next::Replace(_));
        if !self.conclude(lane.ticket, done, ctx) {
            return;
        }
        // The lane behind moves to the front.
        if let Some(next) = self.lanes.front_mut() {
            match std::mem::replace(&mut next.stage, Stage::Reading) {
                Stage::Reading => next.settled = settled,
                Stage::Decided(waiting) => {
                    let (mut batch, mut decided) = *waiting;
                    batch.learn(&settled);
                    if as_decided && batch.settle_pending(&mut decided, &settled) {
                        self.commit_front(batch, decided, ctx);
                    } else {
                        // Its base did not commit as decided (or a repeat
                        // ahead got no stored reply): decide again on what
                        // did commit, or after a fresh load.
                        tracing::debug!(kind = A::KIND, id = %self.id, "batch ahead changed; deciding again");
                        self.decide_front(batch, ctx);
                    }
                }
                Stage::Committing { after } => {
                    // Unreachable: only the front lane commits.
                    tracing::error!(kind = A::KIND, id = %self.id, "two lanes committing");
                    next.stage = Stage::Committing { after };
                }
            }
        }
        self.start_batch(ctx);
    }
}
