//! One batch's work, in three named phases:
//!
//! - READ ([`Batch::read`], off the actor): what the decisions need from the
//!   store: the aggregate's `prepare` (the event's people), stored replies
//!   of the batch's command ids, and the state when the actor has none.
//! - DECIDE ([`Batch::decide`], on the actor, in memory): every command in
//!   order on a working copy of a base state. No I/O, so the actor can
//!   decide the next batch on the state the batch ahead WILL commit while
//!   that one is still committing.
//! - COMMIT ([`commit`], off the actor): one store commit with the version
//!   check; when another node moved the version, reload, look the ids up
//!   again and decide again, up to `max_attempts`.
//!
//! The actor (`mod.rs`) sequences the phases and answers callers.

use std::collections::{HashMap, HashSet};

use crate::aggregate::{Aggregate, Deps, Envelope};
use crate::error::ActorError;
use crate::store::{CommandResult, ReplyStore, StoreError, StoredReply};
use crate::time::now_ms;

/// What the actor does with its state after a batch.
pub(super) enum Next<S> {
    /// The new committed state.
    Replace(S),
    /// Nothing was learned; keep what we have.
    Keep,
    /// The stored state is unknown; load before the next batch.
    Reload,
    /// The aggregate does not exist; stop.
    Gone,
}

/// A finished batch, ready to be answered.
pub(super) struct Done<A: Aggregate> {
    pub(super) next: Next<A::State>,
    /// One per command, in order.
    pub(super) replies: Vec<Result<A::Reply, ActorError>>,
    /// Command-id replies to keep in memory.
    pub(super) remember: Vec<(String, StoredReply)>,
    /// The version moved: publish the document.
    pub(super) changed: bool,
    pub(super) touched: Vec<crate::store::Touched>,
    /// The batch committed exactly the decisions the actor made (no
    /// conflict retry re-decided it), so the state it commits is the one
    /// the batch behind was decided on.
    pub(super) as_decided: bool,
}

impl<A: Aggregate> Done<A> {
    pub(super) fn failed(n: usize, error: ActorError, next: Next<A::State>) -> Self {
        Done {
            next,
            replies: vec![Err(error); n],
            remember: Vec::new(),
            changed: false,
            touched: Vec::new(),
            as_decided: false,
        }
    }
}

/// How one command of a batch gets its reply.
enum Slot<I> {
    /// Replayed from a stored reply.
    Known,
    /// Its command id is in the batch ahead, which has not committed yet:
    /// answered with that batch's reply once it commits (never decided
    /// twice).
    Pending,
    /// A repeat of an earlier command id in the same batch.
    SameAs(usize),
    Decided(Result<I, ActorError>),
}

/// The decisions of one batch on one base state, before committing.
pub(super) struct Decided<A: Aggregate> {
    /// The working copy after every decision: what the commit writes.
    pub(super) state: A::State,
    /// The version the decisions were made on (the commit's expected one).
    pub(super) base_version: i64,
    effects: A::Effects,
    replies: Vec<Result<A::Reply, ActorError>>,
    results: Vec<CommandResult>,
    remember: Vec<(String, StoredReply)>,
    /// Commands whose reply is the batch ahead's (see [`Slot::Pending`]).
    pending: Vec<usize>,
    /// At least one command was decided here (not replayed), so the batch
    /// must be validated by a commit even if nothing changed.
    pub(super) any_decided: bool,
}

impl<A: Aggregate> Decided<A> {
    /// The answer for a batch that needs no commit (every command a
    /// replay). Only the front lane, which has nothing pending, gets here;
    /// were a command still pending, its placeholder error would go out,
    /// never an "ok".
    pub(super) fn without_commit(self) -> Done<A> {
        Done {
            next: Next::Keep,
            replies: self.replies,
            remember: self.remember,
            changed: false,
            touched: Vec::new(),
            as_decided: true,
        }
    }
}

/// What the read phase found.
pub(super) struct Read<A: Aggregate> {
    pub(super) batch: Batch<A>,
    /// The freshly loaded state, when the read was asked to load.
    pub(super) loaded: Option<A::State>,
}

/// How long to wait before deciding again after the `attempt`-th conflict:
/// a random share of 2, 4, 8 … 64 ms. Without it the node that keeps its
/// state in memory (the winner) commits its next batch while the loser is
/// still reloading, and the loser can lose every attempt in lockstep; a
/// jittered, growing pause lets the other node's queue drain.
fn conflict_pause(attempt: u32) -> std::time::Duration {
    let ceiling_ms = 1u64 << attempt.clamp(1, 6);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
    // The clock's low bits are the jitter source: cheap and good enough to
    // desynchronise two processes.
    let jitter_us = u64::from(nanos / 1_000) % (ceiling_ms * 1_000);
    std::time::Duration::from_micros(ceiling_ms * 500 + jitter_us / 2)
}

/// One batch's commands and what is known about their ids. Moves between
/// the actor (deciding) and the read and commit futures (which own it
/// while they run, so the actor stays free to queue new commands).
pub(super) struct Batch<A: Aggregate> {
    pub(super) id: String,
    pub(super) deps: Deps<A>,
    pub(super) envelopes: Vec<Envelope<A::Command>>,
    /// Stored replies found so far, per command.
    pub(super) known: Vec<Option<StoredReply>>,
    /// `prepare` ran: a re-read after a failure ahead only looks up ids
    /// and loads.
    pub(super) prepared: bool,
}

impl<A: Aggregate> Batch<A> {
    pub(super) fn len(&self) -> usize {
        self.envelopes.len()
    }

    /// READ phase: prepare (once), look up stored replies, and load the
    /// state if `load`. A failure answers the whole batch.
    pub(super) async fn read(mut self, load: bool) -> Result<Read<A>, Done<A>> {
        let n = self.len();
        if !self.prepared {
            if let Err(e) = A::prepare(&self.deps.store, &mut self.envelopes).await {
                return Err(Done::failed(n, internal(&e), Next::Keep));
            }
            self.prepared = true;
        }
        if let Err(e) = self.look_up_stored_replies().await {
            return Err(Done::failed(n, internal(&e), Next::Keep));
        }
        let loaded = if load { Some(self.load().await?) } else { None };
        Ok(Read { batch: self, loaded })
    }

    async fn load(&self) -> Result<A::State, Done<A>> {
        match A::load(&self.deps.store, &self.id).await {
            Ok(Some(state)) => Ok(state),
            Ok(None) => Err(Done::failed(self.len(), gone::<A>(), Next::Gone)),
            Err(e) => Err(Done::failed(self.len(), internal(&e), Next::Reload)),
        }
    }

    /// Takes stored replies the actor learned after this batch's read
    /// (the batch ahead committed them), so they are replayed, not decided
    /// again.
    pub(super) fn learn(&mut self, settled: &HashMap<String, StoredReply>) {
        for (env, known) in self.envelopes.iter().zip(self.known.iter_mut()) {
            if known.is_none()
                && let Some(stored) = env.command_id.as_ref().and_then(|k| settled.get(k))
            {
                *known = Some(stored.clone());
            }
        }
    }

    /// Fills `known` from the store for command ids not yet known. Runs on
    /// every attempt: after a conflict, another node may have run the same
    /// command id.
    async fn look_up_stored_replies(&mut self) -> Result<(), StoreError> {
        let mut keys: Vec<String> = Vec::new();
        for (env, known) in self.envelopes.iter().zip(&self.known) {
            if let (Some(key), None) = (&env.command_id, known)
                && !keys.contains(key)
            {
                keys.push(key.clone());
            }
        }
        if keys.is_empty() {
            return Ok(());
        }
        let found = self.deps.store.find_results(keys).await?;
        self.learn(&found);
        Ok(())
    }

    /// DECIDE phase: every command in order on a copy of `base`. `ahead`
    /// holds the command ids of the batch still committing ahead of this
    /// one; those become [`Slot::Pending`].
    pub(super) fn decide(&self, base: &A::State, ahead: &HashSet<String>) -> Decided<A> {
        let mut state = base.clone();
        let base_version = A::version(&state);
        let now = now_ms();
        let mut effects = A::Effects::default();
        let mut first_of: HashMap<&str, usize> = HashMap::new();
        let mut slots = Vec::with_capacity(self.envelopes.len());
        for (i, env) in self.envelopes.iter().enumerate() {
            if self.known[i].is_some() {
                slots.push(Slot::Known);
                continue;
            }
            if let Some(key) = env.command_id.as_deref() {
                if ahead.contains(key) {
                    slots.push(Slot::Pending);
                    continue;
                }
                if let Some(&j) = first_of.get(key) {
                    slots.push(Slot::SameAs(j));
                    continue;
                }
                first_of.insert(key, i);
            }
            let decision = A::decide(&mut state, &mut effects, &env.command, &env.actor_id, now);
            tracing::trace!(
                command_id = env.command_id.as_deref(),
                actor_id = %env.actor_id,
                ok = decision.is_ok(),
                "decided"
            );
            slots.push(Slot::Decided(decision));
        }

        let any_decided = slots.iter().any(|s| matches!(s, Slot::Decided(_)));
        let mut replies: Vec<Result<A::Reply, ActorError>> = Vec::with_capacity(slots.len());
        let mut results = Vec::new();
        let mut remember = Vec::new();
        let mut pending = Vec::new();
        for (i, slot) in slots.into_iter().enumerate() {
            let key = self.envelopes[i].command_id.clone();
            let reply = match slot {
                Slot::Known => match &self.known[i] {
                    Some(stored) => self.replay(i, stored, &mut remember),
                    None => Err(ActorError::Internal("stored reply vanished".into())),
                },
                Slot::Pending => {
                    pending.push(i);
                    // Replaced by `settle_pending` before anyone sees it.
                    Err(ActorError::Internal("waiting for the batch ahead".into()))
                }
                Slot::SameAs(j) if !same_command(&self.envelopes[i], &self.envelopes[j]) => Err(key_reused()),
                Slot::SameAs(j) => replies
                    .get(j)
                    .cloned()
                    .unwrap_or_else(|| Err(ActorError::Internal("duplicate without original".into()))),
                Slot::Decided(decision) => {
                    // Replies describe the batch's final state, at the
                    // version it commits as.
                    let reply = decision.map(|intent| A::reply(&state, intent));
                    if let (Some(key), Some(mut stored)) = (key, StoredReply::from_result(&reply)) {
                        stored.fingerprint = self.envelopes[i].fingerprint.clone();
                        results.push(CommandResult {
                            key: key.clone(),
                            ok: stored.ok,
                            reply: stored.reply.clone(),
                            fingerprint: stored.fingerprint.clone(),
                        });
                        remember.push((key, stored));
                    }
                    reply
                }
            };
            replies.push(reply);
        }
        Decided { state, base_version, effects, replies, results, remember, pending, any_decided }
    }

    /// The batch ahead committed as decided: answer this batch's repeats of
    /// its command ids with its stored replies. `false` (and nothing
    /// changed) when one of them got no stored reply there (a transient
    /// error): then it must be decided here, so the batch is decided again.
    pub(super) fn settle_pending(&self, decided: &mut Decided<A>, settled: &HashMap<String, StoredReply>) -> bool {
        let mut found = Vec::with_capacity(decided.pending.len());
        for &i in &decided.pending {
            match self.envelopes[i].command_id.as_ref().and_then(|k| settled.get(k)) {
                Some(stored) => found.push((i, stored)),
                None => return false,
            }
        }
        for (i, stored) in found {
            decided.replies[i] = self.replay(i, stored, &mut decided.remember);
        }
        decided.pending.clear();
        true
    }

    /// The reply to command `i` from a stored reply to the same id.
    fn replay(
        &self,
        i: usize,
        stored: &StoredReply,
        remember: &mut Vec<(String, StoredReply)>,
    ) -> Result<A::Reply, ActorError> {
        let env = &self.envelopes[i];
        if !stored.answers(env.fingerprint.as_deref()) {
            return Err(key_reused());
        }
        if let Some(key) = &env.command_id {
            remember.push((key.clone(), stored.clone()));
        }
        stored.to_result()
    }
}

/// COMMIT phase: one store commit of `decided`; on a version conflict,
/// pause, reload, look the ids up again, decide again and retry, up to
/// `max_attempts` in all.
pub(super) async fn commit<A: Aggregate>(mut batch: Batch<A>, decided: Decided<A>) -> Done<A> {
    let n = batch.len();
    let max_attempts = batch.deps.config.max_attempts.max(1);
    let mut decided = decided;
    let mut attempt = 1;
    loop {
        let Decided { mut state, base_version, effects, replies, results, remember, .. } = decided;
        let started = std::time::Instant::now();
        let committed = A::commit(&batch.deps.store, &batch.id, base_version, &state, effects, results).await;
        tracing::debug!(batch = n, attempt, ok = committed.is_ok(), elapsed = ?started.elapsed(), "commit finished");
        match committed {
            Ok(result) => {
                let changed = A::version(&state) != base_version;
                A::seal(&mut state);
                return Done {
                    next: Next::Replace(state),
                    replies,
                    remember,
                    changed,
                    touched: result.touched,
                    as_decided: attempt == 1,
                };
            }
            Err(StoreError::Conflict) if attempt < max_attempts => {
                tracing::debug!(attempt, "version moved underneath; reloading and deciding again");
                tokio::time::sleep(conflict_pause(attempt)).await;
                attempt += 1;
            }
            Err(StoreError::Conflict) => {
                tracing::warn!("gave up after repeated version conflicts");
                let err = ActorError::Conflict(format!("{} {} is changing too fast; try again", A::KIND, batch.id));
                return Done::failed(n, err, Next::Reload);
            }
            Err(StoreError::NotFound) => return Done::failed(n, gone::<A>(), Next::Gone),
            Err(e) => {
                tracing::error!(error = %e, "commit failed");
                return Done::failed(n, internal(&e), Next::Reload);
            }
        }
        // Another node committed first: the ids may have run there too.
        if let Err(e) = batch.look_up_stored_replies().await {
            return Done::failed(n, internal(&e), Next::Reload);
        }
        let base = match batch.load().await {
            Ok(state) => state,
            Err(done) => return done,
        };
        decided = batch.decide(&base, &HashSet::new());
        if !decided.any_decided {
            // Every command turned out to be a replay: nothing to commit,
            // but the reloaded state is the freshest we know.
            return Done {
                next: Next::Replace(base),
                replies: decided.replies,
                remember: decided.remember,
                changed: false,
                touched: Vec::new(),
                as_decided: false,
            };
        }
    }
}

fn gone<A: Aggregate>() -> ActorError {
    ActorError::NotFound(format!("{} not found", A::KIND))
}

fn key_reused() -> ActorError {
    ActorError::KeyReused("this command id was already used for a different command; use a new id".into())
}

/// Two envelopes with one command id say the same thing (or one of them
/// does not say).
fn same_command<C>(a: &Envelope<C>, b: &Envelope<C>) -> bool {
    match (a.fingerprint.as_deref(), b.fingerprint.as_deref()) {
        (Some(x), Some(y)) => x == y,
        _ => true,
    }
}

fn internal(e: &StoreError) -> ActorError {
    ActorError::Internal(format!("store: {e}"))
}
