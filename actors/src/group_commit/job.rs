//! One batch's work: look up command ids, decide every command on a
//! working copy, commit once, and retry from a fresh load when another
//! node moved the version. Runs as a future spawned by the actor and owns
//! everything it touches, so the actor stays free to queue new commands.

use std::collections::HashMap;

use crate::aggregate::{Aggregate, Deps, Envelope};
use crate::error::ActorError;
use crate::store::{CommandResult, ReplyStore, StoreError, StoredReply};
use crate::time::now_ms;

/// What the actor does with its state after a batch.
pub(super) enum Next<S> {
    /// The new committed (or freshly loaded) state.
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
    pub(super) touched: Vec<String>,
}

impl<A: Aggregate> Done<A> {
    fn failed(n: usize, error: ActorError, next: Next<A::State>) -> Self {
        Done { next, replies: vec![Err(error); n], remember: Vec::new(), changed: false, touched: Vec::new() }
    }
}

/// How one command of a batch gets its reply.
enum Slot<I> {
    /// Replayed from a stored reply.
    Known,
    /// A repeat of an earlier command id in the same batch.
    SameAs(usize),
    Decided(Result<I, ActorError>),
}

/// The decisions of one attempt, before committing.
struct Decided<A: Aggregate> {
    effects: A::Effects,
    replies: Vec<Result<A::Reply, ActorError>>,
    results: Vec<CommandResult>,
    remember: Vec<(String, StoredReply)>,
    /// At least one command was decided here (not replayed), so the batch
    /// must be validated by a commit even if nothing changed.
    any_decided: bool,
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

/// One batch's work, run off the actor (it owns everything it needs).
pub(super) struct Job<A: Aggregate> {
    pub(super) id: String,
    pub(super) deps: Deps<A>,
    pub(super) envelopes: Vec<Envelope<A::Command>>,
    /// Stored replies found so far, per command.
    pub(super) known: Vec<Option<StoredReply>>,
}

impl<A: Aggregate> Job<A> {
    pub(super) async fn run(mut self, mut base: Option<A::State>) -> Done<A> {
        let n = self.envelopes.len();
        if let Err(e) = A::prepare(&self.deps.store, &mut self.envelopes).await {
            return Done::failed(n, internal(&e), Next::Keep);
        }
        for attempt in 1..=self.deps.config.max_attempts.max(1) {
            if let Err(e) = self.look_up_stored_replies().await {
                return Done::failed(n, internal(&e), Next::Keep);
            }
            let mut state = match base.take() {
                Some(state) => state,
                None => match A::load(&self.deps.store, &self.id).await {
                    Ok(Some(state)) => state,
                    Ok(None) => {
                        let err = ActorError::NotFound(format!("{} not found", A::KIND));
                        return Done::failed(n, err, Next::Gone);
                    }
                    Err(e) => return Done::failed(n, internal(&e), Next::Reload),
                },
            };
            let base_version = A::version(&state);
            let decided = self.decide_all(&mut state);
            if !decided.any_decided {
                return Done {
                    next: Next::Replace(state),
                    replies: decided.replies,
                    remember: decided.remember,
                    changed: false,
                    touched: Vec::new(),
                };
            }
            let commit = A::commit(&self.deps.store, &self.id, base_version, &state, decided.effects, decided.results);
            let started = std::time::Instant::now();
            let committed = commit.await;
            tracing::debug!(batch = n, attempt, ok = committed.is_ok(), elapsed = ?started.elapsed(), "commit finished");
            match committed {
                Ok(result) => {
                    let changed = A::version(&state) != base_version;
                    A::seal(&mut state);
                    return Done {
                        next: Next::Replace(state),
                        replies: decided.replies,
                        remember: decided.remember,
                        changed,
                        touched: result.touched,
                    };
                }
                Err(StoreError::Conflict) => {
                    tracing::debug!(attempt, "version moved underneath; reloading and deciding again");
                    tokio::time::sleep(conflict_pause(attempt)).await;
                }
                Err(StoreError::NotFound) => {
                    let err = ActorError::NotFound(format!("{} not found", A::KIND));
                    return Done::failed(n, err, Next::Gone);
                }
                Err(e) => {
                    tracing::error!(error = %e, "commit failed");
                    return Done::failed(n, internal(&e), Next::Reload);
                }
            }
        }
        tracing::warn!("gave up after repeated version conflicts");
        let err = ActorError::Conflict(format!("{} {} is changing too fast; try again", A::KIND, self.id));
        Done::failed(n, err, Next::Reload)
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
        for (env, known) in self.envelopes.iter().zip(self.known.iter_mut()) {
            if known.is_none()
                && let Some(stored) = env.command_id.as_ref().and_then(|k| found.get(k))
            {
                *known = Some(stored.clone());
            }
        }
        Ok(())
    }

    fn decide_all(&self, state: &mut A::State) -> Decided<A> {
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
                if let Some(&j) = first_of.get(key) {
                    slots.push(Slot::SameAs(j));
                    continue;
                }
                first_of.insert(key, i);
            }
            let decision = A::decide(state, &mut effects, &env.command, &env.actor_id, now);
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
        for (i, slot) in slots.into_iter().enumerate() {
            let key = self.envelopes[i].command_id.clone();
            let reply = match slot {
                Slot::Known => match &self.known[i] {
                    Some(stored) if !stored.answers(self.envelopes[i].fingerprint.as_deref()) => Err(key_reused()),
                    Some(stored) => {
                        if let Some(key) = key {
                            remember.push((key, stored.clone()));
                        }
                        stored.to_result()
                    }
                    None => Err(ActorError::Internal("stored reply vanished".into())),
                },
                Slot::SameAs(j) if !same_command(&self.envelopes[i], &self.envelopes[j]) => Err(key_reused()),
                Slot::SameAs(j) => replies
                    .get(j)
                    .cloned()
                    .unwrap_or_else(|| Err(ActorError::Internal("duplicate without original".into()))),
                Slot::Decided(decision) => {
                    // Replies describe the batch's final state, at the
                    // version it commits as.
                    let reply = decision.map(|intent| A::reply(state, intent));
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
        Decided { effects, replies, results, remember, any_decided }
    }
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
