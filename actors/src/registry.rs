//! The only doors into the actors: [`Registry::send`] and
//! [`Registry::snapshot`].
//!
//! A registry maps an aggregate id to its live actor, starting one on first
//! use and forgetting it when it stops (idle, or its aggregate is gone). It
//! is cheap to clone and safe to call from every actix-web worker.
//!
//! Where actors live: on a small pool of DEDICATED arbiters ([`Arbiters`]),
//! an actor's arbiter chosen by a hash of its id. Not on the calling
//! worker's arbiter, because each actix-web worker has its own and the
//! first caller of an event would then pin it to a worker whose lifetime is
//! the HTTP server's business. A hash keeps placement deterministic and
//! spreads hot aggregates; actors mostly wait on the store, so a pool the
//! size of the core count is plenty. Event and game registries may share
//! one pool.
//!
//! Failure handling: actors run under an actix `Supervisor`, so an actor
//! that stops while addresses to it exist restarts and reloads its state. A
//! panic kills the actor's task instead; its address then reports
//! disconnected, and the next `send` starts a fresh actor that loads from
//! the store. Either way the store is the truth and versions keep stale
//! actors from overwriting it.

use std::collections::HashMap;
use std::collections::hash_map::DefaultHasher;
use std::future::Future;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use actix::prelude::*;

use crate::aggregate::{ActorConfig, Aggregate, Deps, Envelope};
use crate::error::ActorError;
use crate::event::EventAggregate;
use crate::game::GameAggregate;
use crate::group_commit::{AggregateActor, LeaveHook, Snapshot, Submit};
use crate::store::Publisher;

/// A pool of arbiters (event-loop threads) that actors are placed on.
#[derive(Clone)]
pub struct Arbiters {
    handles: Arc<[ArbiterHandle]>,
}

impl Arbiters {
    /// Starts `count` dedicated arbiter threads (at least one). Must be
    /// called inside a running actix `System` (e.g. in `actix_web::main`).
    pub fn spawn(count: usize) -> Result<Self, ActorError> {
        if System::try_current().is_none() {
            return Err(ActorError::Internal("Arbiters::spawn needs a running actix System".into()));
        }
        let handles = (0..count.max(1))
            .map(|_| {
                Arbiter::try_new()
                    .map(|a| a.handle())
                    .map_err(|e| ActorError::Internal(format!("cannot start an arbiter: {e}")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Arbiters { handles: handles.into() })
    }

    /// The calling thread's arbiter only: every actor runs on it. For tests
    /// (a paused clock applies to the test's own runtime) and for embedding
    /// in a single-threaded program.
    pub fn current() -> Result<Self, ActorError> {
        let handle =
            Arbiter::try_current().ok_or_else(|| ActorError::Internal("no actix arbiter on this thread".into()))?;
        Ok(Arbiters { handles: vec![handle].into() })
    }

    pub fn len(&self) -> usize {
        self.handles.len()
    }

    pub fn is_empty(&self) -> bool {
        self.handles.is_empty()
    }

    fn pick(&self, id: &str) -> Option<&ArbiterHandle> {
        let mut hasher = DefaultHasher::new();
        id.hash(&mut hasher);
        let n = u64::try_from(self.handles.len()).ok()?;
        let index = usize::try_from(hasher.finish() % n.max(1)).ok()?;
        self.handles.get(index)
    }
}

/// Live actors of one aggregate kind.
pub struct Registry<A: Aggregate> {
    inner: Arc<Inner<A>>,
}

/// Events: `send(event_id, Envelope<EventCommand>)` → `EventReply`.
pub type EventRegistry = Registry<EventAggregate>;
/// Games: `send(game_id, Envelope<GameCommand>)` → `GameDocument`.
pub type GameRegistry = Registry<GameAggregate>;

impl<A: Aggregate> Clone for Registry<A> {
    fn clone(&self) -> Self {
        Registry { inner: Arc::clone(&self.inner) }
    }
}

struct Inner<A: Aggregate> {
    deps: Deps<A>,
    arbiters: Arbiters,
    actors: Mutex<HashMap<String, Entry<A>>>,
    /// Tells an actor's own entry from a successor's, so a stopping actor
    /// never removes the actor that replaced it.
    next_generation: AtomicU64,
}

struct Entry<A: Aggregate> {
    addr: Addr<AggregateActor<A>>,
    generation: u64,
}

impl<A: Aggregate> Inner<A> {
    fn actors(&self) -> MutexGuard<'_, HashMap<String, Entry<A>>> {
        // The map holds no invariant a panic could break halfway.
        self.actors.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl<A: Aggregate> Registry<A> {
    pub fn new(store: Arc<A::Store>, publisher: Arc<dyn Publisher>, arbiters: Arbiters, config: ActorConfig) -> Self {
        Registry {
            inner: Arc::new(Inner {
                deps: Deps { store, publisher, config },
                arbiters,
                actors: Mutex::new(HashMap::new()),
                next_generation: AtomicU64::new(1),
            }),
        }
    }

    /// Sends a command to the aggregate's actor (starting it if needed) and
    /// resolves once the batch containing it is committed. The returned
    /// future owns everything it needs (`Send + 'static`), so it can be
    /// awaited in a handler or spawned.
    pub fn send(
        &self,
        id: &str,
        envelope: Envelope<A::Command>,
    ) -> impl Future<Output = Result<A::Reply, ActorError>> + Send + 'static {
        let addr = self.get(id);
        async move {
            let addr = addr?;
            let reply = addr
                .send(Submit(envelope))
                .await
                .map_err(|e| ActorError::Internal(format!("actor unreachable: {e}")))?;
            reply.await.map_err(|_| ActorError::Internal("actor stopped before answering".into()))?
        }
    }

    /// The live actor's last committed `(version, document)`. Never starts
    /// an actor: `None` when the aggregate is not live here (the caller then
    /// reads the store). In cluster mode a live actor may lag other nodes
    /// until its next command; subscribers catch up with the next push.
    pub fn snapshot(&self, id: &str) -> impl Future<Output = Option<(i64, A::Document)>> + Send + 'static {
        let addr = self.inner.actors().get(id).filter(|e| e.addr.connected()).map(|e| e.addr.clone());
        async move { addr?.send(Snapshot(PhantomData)).await.ok().flatten() }
    }

    /// Whether an actor for `id` is running on this node.
    pub fn is_live(&self, id: &str) -> bool {
        self.inner.actors().get(id).is_some_and(|e| e.addr.connected())
    }

    /// How many actors are running on this node.
    pub fn live_count(&self) -> usize {
        self.inner.actors().values().filter(|e| e.addr.connected()).count()
    }

    /// The live actor for `id`, started on first use (or after it died).
    fn get(&self, id: &str) -> Result<Addr<AggregateActor<A>>, ActorError> {
        let mut actors = self.inner.actors();
        if let Some(entry) = actors.get(id)
            && entry.addr.connected()
        {
            return Ok(entry.addr.clone());
        }
        let arbiter =
            self.inner.arbiters.pick(id).ok_or_else(|| ActorError::Internal("no arbiter to run actors on".into()))?;
        let generation = self.inner.next_generation.fetch_add(1, Ordering::Relaxed);
        let leave = self.leave_hook(id, generation);
        let deps = self.inner.deps.clone();
        let key = id.to_owned();
        let addr = Supervisor::start_in_arbiter(arbiter, move |_| AggregateActor::new(key, deps, leave));
        actors.insert(id.to_owned(), Entry { addr: addr.clone(), generation });
        tracing::debug!(kind = A::KIND, id, "actor started");
        Ok(addr)
    }

    fn leave_hook(&self, id: &str, generation: u64) -> LeaveHook {
        let registry = Arc::downgrade(&self.inner);
        let key = id.to_owned();
        Box::new(move || {
            if let Some(inner) = registry.upgrade() {
                let mut actors = inner.actors();
                if actors.get(&key).is_some_and(|e| e.generation == generation) {
                    actors.remove(&key);
                }
            }
        })
    }
}
