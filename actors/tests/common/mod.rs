//! Test doubles for the server's side of the traits: an in-memory store
//! that behaves like the SQL one where it matters (the optimistic version
//! check, unique command-result keys, one "transaction" per commit) and a
//! publisher that records what was pushed.
//!
//! For the pipelining tests it also logs every store call in order, can
//! hold commits until the test releases them, can let "another node"
//! commit to an event just before the actor's next commit (a version
//! conflict), and keeps every successful event commit with the state it
//! left in the store.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rinkside_actors::event::{
    EventCommand, EventReply, EventState, Person, Rsvp, RsvpAnswer, RsvpHistory, RsvpReply, StoredEvent,
    WaitlistHistory,
};
use rinkside_actors::game::{GameState, PlayerDelta, RosterDelta, StoredGame};
use rinkside_actors::{
    ActorError, BoxFuture, CommandResult, CommitResult, Envelope, EventCommit, EventStore, GameCommit, GameStore,
    Position, Publisher, ReplyStore, StoreError, StoredReply, Touched,
};
use serde_json::Value;
use tokio::sync::{Notify, Semaphore};

/// Simulated commit latency: while one commit is "in flight", commands
/// queue up behind it, as they would behind a real database write.
const COMMIT_LATENCY: Duration = Duration::from_millis(2);

#[derive(Debug, Clone, Default)]
pub struct EventRow {
    pub version: i64,
    pub max_skaters: Option<i64>,
    pub max_goalies: Option<i64>,
    pub cancelled: bool,
    pub rsvps: HashMap<String, Rsvp>,
    pub rsvp_history: Vec<RsvpHistory>,
    pub waitlist_history: Vec<WaitlistHistory>,
}

#[derive(Debug, Clone)]
pub struct GameRow {
    pub game: StoredGame,
    pub players: HashMap<(String, String), PlayerDelta>,
    pub rosters: HashMap<String, RosterDelta>,
}

#[derive(Default)]
struct Db {
    events: HashMap<String, EventRow>,
    games: HashMap<String, GameRow>,
    results: HashMap<String, StoredReply>,
    /// People who no longer exist: `people` leaves them out. Everyone else
    /// exists, named after their id.
    deleted_people: Vec<String>,
}

/// One successful event commit (the actor's or another node's).
#[derive(Debug, Clone)]
pub struct CommitRecord {
    pub expected_version: i64,
    pub new_version: i64,
    /// Command-result keys in decision order, with their `ok` flag.
    pub results: Vec<(String, bool)>,
    /// Commands "another node" decided in this commit (then `results` is
    /// empty).
    pub other_node: Vec<EventCommand>,
    /// The event as stored right after this commit.
    pub after: EventState,
}

#[derive(Default)]
pub struct MemStore {
    db: Mutex<Db>,
    /// Successful commits.
    pub commits: AtomicUsize,
    /// Commits refused by the version check.
    pub conflicts: AtomicUsize,
    /// Make the next commit fail with `Other` (a lost connection).
    pub fail_next_commit: AtomicBool,
    /// Make the next event load panic (a bug inside the actor's task).
    pub panic_next_load: AtomicBool,
    /// Commands carried by successful commits (for batch-size checks).
    pub committed_results: AtomicUsize,
    /// Every store call in order: `people`, `find_results`, `load`,
    /// `commit v{expected}` when a commit starts and `committed
    /// v{new}` / `failed` / `conflict` when it returns.
    pub calls: Mutex<Vec<String>>,
    calls_changed: Notify,
    /// When set, each commit waits for a permit (`release_commits`).
    gate: Mutex<Option<Arc<Semaphore>>>,
    /// Commands "another node" commits to the event right before the
    /// actor's next commit reaches the version check.
    other_node_next: Mutex<Vec<(String, EventCommand)>>,
    /// Successful event commits, in order.
    pub event_commits: Mutex<Vec<CommitRecord>>,
    commits_in_flight: AtomicUsize,
    /// The most commits ever in flight at once (one event per test).
    pub max_commits_in_flight: AtomicUsize,
}

impl MemStore {
    pub fn new() -> Arc<Self> {
        Arc::new(MemStore::default())
    }

    pub fn add_event(&self, id: &str, max_skaters: Option<i64>, max_goalies: Option<i64>) {
        self.db
            .lock()
            .unwrap()
            .events
            .insert(id.into(), EventRow { version: 1, max_skaters, max_goalies, ..EventRow::default() });
    }

    /// The person no longer exists (deleted between sign-in and RSVP).
    pub fn delete_person(&self, user_id: &str) {
        self.db.lock().unwrap().deleted_people.push(user_id.into());
    }

    pub fn event(&self, id: &str) -> EventRow {
        self.db.lock().unwrap().events[id].clone()
    }

    /// The state a fresh load would see.
    pub fn event_state(&self, id: &str) -> EventState {
        state_of(id, &self.event(id))
    }

    pub fn add_game(&self, game: StoredGame) {
        self.db
            .lock()
            .unwrap()
            .games
            .insert(game.game_id.clone(), GameRow { game, players: HashMap::new(), rosters: HashMap::new() });
    }

    pub fn game(&self, id: &str) -> GameRow {
        self.db.lock().unwrap().games[id].clone()
    }

    fn log(&self, call: String) {
        self.calls.lock().unwrap().push(call);
        self.calls_changed.notify_waiters();
    }

    pub fn calls(&self) -> Vec<String> {
        self.calls.lock().unwrap().clone()
    }

    /// Waits until the call log satisfies `done` (fails the test after a
    /// while instead of hanging).
    pub async fn wait_for_calls(&self, what: &str, done: impl Fn(&[String]) -> bool) {
        let wait = async {
            loop {
                let changed = self.calls_changed.notified();
                tokio::pin!(changed);
                changed.as_mut().enable();
                if done(&self.calls.lock().unwrap()) {
                    return;
                }
                changed.await;
            }
        };
        if tokio::time::timeout(Duration::from_secs(5), wait).await.is_err() {
            panic!("timed out waiting for {what}; calls: {:?}", self.calls());
        }
    }

    /// From now on every commit waits for `release_commits`.
    pub fn hold_commits(&self) {
        *self.gate.lock().unwrap() = Some(Arc::new(Semaphore::new(0)));
    }

    /// Lets `n` held commits (or the next `n`) proceed.
    pub fn release_commits(&self, n: usize) {
        if let Some(gate) = &*self.gate.lock().unwrap() {
            gate.add_permits(n);
        }
    }

    /// Another node commits `command` (decided by the same pure core) to
    /// the event just before the actor's next commit reaches the version
    /// check, so that commit conflicts.
    pub fn other_node_before_next_commit(&self, event_id: &str, command: EventCommand) {
        self.other_node_next.lock().unwrap().push((event_id.into(), command));
    }

    /// Another node commits `command` to the event now.
    pub fn commit_as_other_node(&self, event_id: &str, command: EventCommand) {
        let mut state = self.event_state(event_id);
        let expected = state.version();
        let Ok(outcome) = rinkside_actors::event::decide(&mut state, &command, 0) else { return };
        let mut db = self.db.lock().unwrap();
        let row = db.events.get_mut(event_id).unwrap();
        row.version = state.version();
        for rsvp in outcome.effects.rsvps {
            row.rsvps.insert(rsvp.user_id.clone(), rsvp);
        }
        row.rsvp_history.extend(outcome.effects.rsvp_history);
        row.waitlist_history.extend(outcome.effects.waitlist_history);
        if outcome.effects.limits_changed {
            row.max_skaters = state.max_skaters();
            row.max_goalies = state.max_goalies();
        }
        row.cancelled |= outcome.effects.cancelled;
        let after = state_of(event_id, row);
        drop(db);
        self.event_commits.lock().unwrap().push(CommitRecord {
            expected_version: expected,
            new_version: after.version(),
            results: Vec::new(),
            other_node: vec![command],
            after,
        });
        self.log(format!("other node v{}", state.version()));
    }

    /// Waits at the gate, if commits are held.
    async fn pass_gate(&self) {
        let gate = self.gate.lock().unwrap().clone();
        if let Some(gate) = gate {
            gate.acquire().await.unwrap().forget();
        }
    }

    fn fail_injected(&self) -> bool {
        self.fail_next_commit.swap(false, Ordering::SeqCst)
    }

    /// The shared half of a commit: the version check, unique result keys,
    /// and the results written.
    fn check_and_record(
        &self,
        db: &mut Db,
        current: i64,
        expected: i64,
        results: &[CommandResult],
    ) -> Result<(), StoreError> {
        if current != expected || results.iter().any(|r| db.results.contains_key(&r.key)) {
            self.conflicts.fetch_add(1, Ordering::SeqCst);
            return Err(StoreError::Conflict);
        }
        for r in results {
            db.results.insert(
                r.key.clone(),
                StoredReply { ok: r.ok, reply: r.reply.clone(), fingerprint: r.fingerprint.clone() },
            );
        }
        Ok(())
    }
}

fn state_of(id: &str, row: &EventRow) -> EventState {
    EventState::new(StoredEvent {
        event_id: id.into(),
        version: row.version,
        max_skaters: row.max_skaters,
        max_goalies: row.max_goalies,
        cancelled: row.cancelled,
        rsvps: row.rsvps.values().cloned().collect(),
        ..Default::default()
    })
}

/// Counts a commit in flight while alive.
struct InFlight<'a>(&'a MemStore);

impl<'a> InFlight<'a> {
    fn new(store: &'a MemStore) -> Self {
        let now = store.commits_in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        store.max_commits_in_flight.fetch_max(now, Ordering::SeqCst);
        InFlight(store)
    }
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.0.commits_in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

impl ReplyStore for MemStore {
    fn find_results(&self, keys: Vec<String>) -> BoxFuture<'_, Result<HashMap<String, StoredReply>, StoreError>> {
        Box::pin(async move {
            self.log("find_results".into());
            let db = self.db.lock().unwrap();
            Ok(keys.into_iter().filter_map(|k| db.results.get(&k).cloned().map(|r| (k, r))).collect())
        })
    }
}

impl EventStore for MemStore {
    fn load(&self, event_id: String) -> BoxFuture<'_, Result<Option<EventState>, StoreError>> {
        Box::pin(async move {
            self.log("load".into());
            if self.panic_next_load.swap(false, Ordering::SeqCst) {
                panic!("simulated bug while loading {event_id}");
            }
            let exists = self.db.lock().unwrap().events.contains_key(&event_id);
            Ok(exists.then(|| self.event_state(&event_id)))
        })
    }

    fn commit(&self, commit: EventCommit) -> BoxFuture<'_, Result<CommitResult, StoreError>> {
        Box::pin(async move {
            let _in_flight = InFlight::new(self);
            self.log(format!("commit v{}", commit.expected_version));
            let result = self.commit_event(commit).await;
            self.log(match &result {
                Ok(version) => format!("committed v{version}"),
                Err(StoreError::Conflict) => "conflict".into(),
                Err(_) => "failed".into(),
            });
            result.map(|_| CommitResult::default())
        })
    }

    fn people(&self, user_ids: Vec<String>) -> BoxFuture<'_, Result<HashMap<String, Person>, StoreError>> {
        Box::pin(async move {
            self.log("people".into());
            let db = self.db.lock().unwrap();
            Ok(user_ids
                .into_iter()
                .filter(|id| !db.deleted_people.contains(id))
                .map(|id| (id.clone(), Person { display_name: format!("Name {id}"), preferred_position: None }))
                .collect())
        })
    }
}

impl MemStore {
    /// An event commit as one "transaction"; the new version when it
    /// succeeds.
    async fn commit_event(&self, commit: EventCommit) -> Result<i64, StoreError> {
        tokio::time::sleep(COMMIT_LATENCY).await;
        self.pass_gate().await;
        let others = std::mem::take(&mut *self.other_node_next.lock().unwrap());
        for (event_id, command) in others {
            self.commit_as_other_node(&event_id, command);
        }
        if self.fail_injected() {
            return Err(StoreError::Other("connection reset".into()));
        }
        let mut db = self.db.lock().unwrap();
        let current = db.events.get(&commit.event_id).ok_or(StoreError::NotFound)?.version;
        self.check_and_record(&mut db, current, commit.expected_version, &commit.results)?;
        let row = db.events.get_mut(&commit.event_id).ok_or(StoreError::NotFound)?;
        row.version = commit.new_version;
        for rsvp in commit.rsvps {
            row.rsvps.insert(rsvp.user_id.clone(), rsvp);
        }
        row.rsvp_history.extend(commit.rsvp_history);
        row.waitlist_history.extend(commit.waitlist_history);
        if let Some(limits) = commit.limits {
            row.max_skaters = limits.max_skaters;
            row.max_goalies = limits.max_goalies;
        }
        row.cancelled |= commit.cancelled;
        let after = state_of(&commit.event_id, row);
        drop(db);
        self.event_commits.lock().unwrap().push(CommitRecord {
            expected_version: commit.expected_version,
            new_version: commit.new_version,
            results: commit.results.iter().map(|r| (r.key.clone(), r.ok)).collect(),
            other_node: Vec::new(),
            after,
        });
        self.commits.fetch_add(1, Ordering::SeqCst);
        self.committed_results.fetch_add(commit.results.len(), Ordering::SeqCst);
        Ok(commit.new_version)
    }
}

impl GameStore for MemStore {
    fn load(&self, game_id: String) -> BoxFuture<'_, Result<Option<GameState>, StoreError>> {
        Box::pin(async move {
            let db = self.db.lock().unwrap();
            Ok(db.games.get(&game_id).map(|row| GameState::new(row.game.clone())))
        })
    }

    fn commit(&self, commit: GameCommit) -> BoxFuture<'_, Result<CommitResult, StoreError>> {
        Box::pin(async move {
            tokio::time::sleep(COMMIT_LATENCY).await;
            if self.fail_injected() {
                return Err(StoreError::Other("connection reset".into()));
            }
            let mut guard = self.db.lock().unwrap();
            let db = &mut *guard;
            let current = db.games.get(&commit.game_id).ok_or(StoreError::NotFound)?.game.version;
            self.check_and_record(db, current, commit.expected_version, &commit.results)?;
            let row = db.games.get_mut(&commit.game_id).ok_or(StoreError::NotFound)?;
            let game = &mut row.game;
            game.version = commit.new_version;
            game.status = commit.status;
            game.period = commit.period;
            game.home_score = commit.home_score;
            game.away_score = commit.away_score;
            game.log.extend(commit.entries);
            for entry in game.log.iter_mut().filter(|e| commit.undone.contains(&e.seq)) {
                entry.undone = true;
            }
            for lineup in commit.lineups {
                for side in [&mut game.home, &mut game.away] {
                    if side.roster_id == lineup.roster_id {
                        side.lineup = Some(lineup.user_ids.clone());
                    }
                }
            }
            for d in commit.player_deltas {
                let sum = row.players.entry((d.roster_id.clone(), d.user_id.clone())).or_default();
                sum.goals += d.goals;
                sum.assists += d.assists;
                sum.penalty_minutes += d.penalty_minutes;
                sum.games_played += d.games_played;
            }
            let standings_changed = !commit.roster_deltas.is_empty();
            for d in commit.roster_deltas {
                let sum = row.rosters.entry(d.roster_id.clone()).or_default();
                sum.wins += d.wins;
                sum.losses += d.losses;
                sum.ties += d.ties;
                sum.points += d.points;
            }
            let mut result = CommitResult::default();
            if standings_changed && let Some(season) = commit.season_id {
                result.touched.push(Touched::Season(season));
            }
            self.commits.fetch_add(1, Ordering::SeqCst);
            Ok(result)
        })
    }
}

/// Records every publication, in order.
#[derive(Default)]
pub struct Recorder {
    pub messages: Mutex<Vec<(String, i64, Value)>>,
}

impl Recorder {
    pub fn new() -> Arc<Self> {
        Arc::new(Recorder::default())
    }

    pub fn on(&self, topic: &str) -> Vec<(i64, Value)> {
        self.messages
            .lock()
            .unwrap()
            .iter()
            .filter(|(t, _, _)| t == topic)
            .map(|(_, seq, payload)| (*seq, payload.clone()))
            .collect()
    }
}

impl Publisher for Recorder {
    fn publish(&self, topic: String, seq: i64, payload: Value) {
        self.messages.lock().unwrap().push((topic, seq, payload));
    }

    /// The server builds touched documents itself; here each is recorded
    /// as a message without a payload.
    fn touched(&self, topics: Vec<Touched>) {
        let mut messages = self.messages.lock().unwrap();
        messages.extend(topics.into_iter().map(|t| match t {
            Touched::Season(id) => (format!("season:{id}"), 0, Value::Null),
            Touched::Roster(id) => (format!("roster:{id}"), 0, Value::Null),
        }));
    }
}

/// A person's own RSVP, as the server sends it (`person: None`: the actor
/// reads who they are).
pub fn rsvp(user: &str, answer: RsvpAnswer, position: Position) -> Envelope<EventCommand> {
    Envelope::new(
        user,
        EventCommand::Rsvp { user_id: user.into(), answer, position: Some(position), person: None, unlocked: false },
    )
}

pub fn attend(user: &str, position: Position) -> Envelope<EventCommand> {
    rsvp(user, RsvpAnswer::Attending, position)
}

/// The RSVP reply of a command that must have succeeded.
pub fn rsvp_reply(reply: Result<EventReply, ActorError>) -> RsvpReply {
    match reply.unwrap() {
        EventReply::Rsvp(r) => r,
        other => panic!("expected an RSVP reply, got {other:?}"),
    }
}
