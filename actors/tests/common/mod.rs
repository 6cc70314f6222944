//! Test doubles for the server's side of the traits: an in-memory store
//! that behaves like the SQL one where it matters (the optimistic version
//! check, unique command-result keys, one "transaction" per commit) and a
//! publisher that records what was pushed.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rinkside_actors::event::{EventState, Person, Rsvp, RsvpHistory, StoredEvent, WaitlistHistory};
use rinkside_actors::game::{GameState, PlayerDelta, RosterDelta, StoredGame};
use rinkside_actors::{
    BoxFuture, CommitResult, EventCommit, EventStore, GameCommit, GameStore, Publisher, ReplyStore, StoreError,
    StoredReply,
};
use serde_json::Value;

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
        let row = self.event(id);
        EventState::new(StoredEvent {
            event_id: id.into(),
            version: row.version,
            max_skaters: row.max_skaters,
            max_goalies: row.max_goalies,
            cancelled: row.cancelled,
            rsvps: row.rsvps.into_values().collect(),
        })
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

    fn fail_injected(&self) -> bool {
        self.fail_next_commit.swap(false, Ordering::SeqCst)
    }

    /// The shared half of a commit: version check and result keys.
    fn check(&self, db: &Db, current: i64, expected: i64, keys: &[&str]) -> Result<(), StoreError> {
        if current != expected || keys.iter().any(|k| db.results.contains_key(*k)) {
            self.conflicts.fetch_add(1, Ordering::SeqCst);
            return Err(StoreError::Conflict);
        }
        Ok(())
    }
}

impl ReplyStore for MemStore {
    fn find_results(&self, keys: Vec<String>) -> BoxFuture<'_, Result<HashMap<String, StoredReply>, StoreError>> {
        Box::pin(async move {
            let db = self.db.lock().unwrap();
            Ok(keys.into_iter().filter_map(|k| db.results.get(&k).cloned().map(|r| (k, r))).collect())
        })
    }
}

impl EventStore for MemStore {
    fn load(&self, event_id: String) -> BoxFuture<'_, Result<Option<EventState>, StoreError>> {
        Box::pin(async move {
            if self.panic_next_load.swap(false, Ordering::SeqCst) {
                panic!("simulated bug while loading {event_id}");
            }
            let exists = self.db.lock().unwrap().events.contains_key(&event_id);
            Ok(exists.then(|| self.event_state(&event_id)))
        })
    }

    fn commit(&self, commit: EventCommit) -> BoxFuture<'_, Result<CommitResult, StoreError>> {
        Box::pin(async move {
            tokio::time::sleep(COMMIT_LATENCY).await;
            if self.fail_injected() {
                return Err(StoreError::Other("connection reset".into()));
            }
            let mut db = self.db.lock().unwrap();
            let current = db.events.get(&commit.event_id).ok_or(StoreError::NotFound)?.version;
            let keys: Vec<&str> = commit.results.iter().map(|r| r.key.as_str()).collect();
            self.check(&db, current, commit.expected_version, &keys)?;
            for r in &commit.results {
                db.results.insert(
                    r.key.clone(),
                    StoredReply { ok: r.ok, reply: r.reply.clone(), fingerprint: r.fingerprint.clone() },
                );
            }
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
            self.commits.fetch_add(1, Ordering::SeqCst);
            self.committed_results.fetch_add(commit.results.len(), Ordering::SeqCst);
            Ok(CommitResult::default())
        })
    }

    fn people(&self, user_ids: Vec<String>) -> BoxFuture<'_, Result<HashMap<String, Person>, StoreError>> {
        Box::pin(async move {
            let db = self.db.lock().unwrap();
            Ok(user_ids
                .into_iter()
                .filter(|id| !db.deleted_people.contains(id))
                .map(|id| (id.clone(), Person { display_name: format!("Name {id}"), preferred_position: None }))
                .collect())
        })
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
            let keys: Vec<&str> = commit.results.iter().map(|r| r.key.as_str()).collect();
            self.check(db, current, commit.expected_version, &keys)?;
            for r in &commit.results {
                db.results.insert(
                    r.key.clone(),
                    StoredReply { ok: r.ok, reply: r.reply.clone(), fingerprint: r.fingerprint.clone() },
                );
            }
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
                result.touched.push(format!("season:{season}"));
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
    fn touched(&self, topics: Vec<String>) {
        let mut messages = self.messages.lock().unwrap();
        messages.extend(topics.into_iter().map(|t| (t, 0, Value::Null)));
    }
}
