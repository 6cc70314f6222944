//! How the per-event actors' batches reach the database: the optimistic
//! version check opens the transaction, then one multi-row statement per
//! table (not one round trip per row).
//!
//! The transaction holds the batch's own rows, its command results and
//! one compact record of what others must hear about
//! ([`super::event_follow_ups`]); the feed items, notifications and settled
//! calls for subs that follow are written later, off the actor's path
//! (`crate::store::follow_ups`).
//!
//! Batches of different events are combined: one write transaction at a
//! time per node, and whoever gets the turn writes every batch that queued
//! meanwhile, of any event, together (flat combining). A hundred busy
//! events then cost a handful of statements per turn instead of eight
//! each, and one commit (one WAL flush) instead of a hundred. If a combined
//! transaction fails (a version conflict, say), each batch is written
//! again on its own, so one event's trouble never fails another's. On
//! PostgreSQL the events' rows are locked in id order first, so two
//! nodes' combined transactions cannot deadlock on them.

use std::sync::Mutex;

use rinkside_actors::event::Rsvp;
use rinkside_actors::event::{RsvpHistory, RsvpStatus, WaitlistHistory};
use rinkside_actors::{CommandResult, CommitResult, EventCommit, Position, StoreError};
use sqlx::AnyConnection;
use tokio::sync::oneshot;
use tokio::sync::oneshot::error::TryRecvError;

use super::command_results::insert_results;
use super::event_follow_ups::{self, FollowUp};
use super::{Backend, Db, dynamic, flag, new_id, now_ms, placeholder_list, store_error as other};

/// Most event batches one combined transaction writes; the rest wait for
/// the next turn.
const MAX_COMBINED: usize = 64;

type Answer = oneshot::Sender<Result<CommitResult, StoreError>>;

/// An RSVP row with the event it belongs to.
type EventRsvp<'a> = (&'a str, &'a Rsvp);

/// Commits event batches, combining those that queue together (see the
/// module docs).
#[derive(Default)]
pub struct EventWriter {
    queue: Mutex<Vec<(EventCommit, Answer)>>,
    turn: tokio::sync::Mutex<()>,
}

impl EventWriter {
    pub async fn commit(&self, db: &Db, commit: EventCommit) -> Result<CommitResult, StoreError> {
        let (tx, mut rx) = oneshot::channel();
        self.queue.lock().unwrap_or_else(|e| e.into_inner()).push((commit, tx));
        let _turn = self.turn.lock().await;
        loop {
            match rx.try_recv() {
                Ok(result) => return result,
                // Taken by a turn whose future was dropped mid-write.
                Err(TryRecvError::Closed) => return Err(StoreError::Other("commit abandoned; outcome unknown".into())),
                // Still queued: this turn writes it (and whatever queued with it).
                Err(TryRecvError::Empty) => {}
            }
            let taken: Vec<(EventCommit, Answer)> = {
                let mut queue = self.queue.lock().unwrap_or_else(|e| e.into_inner());
                let n = queue.len().min(MAX_COMBINED);
                queue.drain(..n).collect()
            };
            // A caller that gave up (its actor restarted) has been told the
            // outcome is unknown; its batch is not written behind its back.
            let taken: Vec<(EventCommit, Answer)> =
                taken.into_iter().filter(|(_, answer)| !answer.is_closed()).collect();
            let (commits, answers): (Vec<EventCommit>, Vec<Answer>) = taken.into_iter().unzip();
            for (answer, result) in answers.into_iter().zip(write_together(db, &commits).await) {
                let _ = answer.send(result);
            }
        }
    }
}

/// All batches in one transaction, or, if that fails, each on its own.
async fn write_together(db: &Db, commits: &[EventCommit]) -> Vec<Result<CommitResult, StoreError>> {
    if commits.len() > 1 {
        let started = std::time::Instant::now();
        match write(db, commits).await {
            Ok(()) => {
                tracing::debug!(batches = commits.len(), elapsed = ?started.elapsed(), "combined event commit");
                return vec![Ok(CommitResult::default()); commits.len()];
            }
            Err(e) => {
                tracing::debug!(error = %e, batches = commits.len(), "combined event commit failed; writing each alone")
            }
        }
    }
    let mut results = Vec::with_capacity(commits.len());
    for c in commits {
        results.push(write(db, std::slice::from_ref(c)).await.map(|()| CommitResult::default()));
    }
    results
}

/// One transaction: every batch's version check, then one multi-row
/// statement per table for all of them.
async fn write(db: &Db, commits: &[EventCommit]) -> Result<(), StoreError> {
    let now = now_ms();
    let mut tx = db.begin().await.map_err(other)?;
    if db.backend == Backend::Postgres && commits.len() > 1 {
        lock_in_id_order(&mut tx, commits).await?;
    }
    check_versions(&mut tx, db.backend, commits, now).await?;
    let rsvps: Vec<EventRsvp> =
        commits.iter().flat_map(|c| c.rsvps.iter().map(move |r| (c.event_id.as_str(), r))).collect();
    upsert_rsvps(&mut tx, db.backend, &rsvps, now).await?;
    sync_payments(&mut tx, db.backend, &rsvps, now).await?;
    let rsvp_rows: Vec<HistoryRow> =
        commits.iter().flat_map(|c| c.rsvp_history.iter().map(|h| HistoryRow::rsvp(&c.event_id, h))).collect();
    append_history(&mut tx, db.backend, "event_rsvp_history", &rsvp_rows).await?;
    let waitlist_rows: Vec<HistoryRow> =
        commits.iter().flat_map(|c| c.waitlist_history.iter().map(|h| HistoryRow::waitlist(&c.event_id, h))).collect();
    append_history(&mut tx, db.backend, "event_waitlist_history", &waitlist_rows).await?;
    let results: Vec<&CommandResult> = commits.iter().flat_map(|c| &c.results).collect();
    insert_results(&mut tx, db.backend, &results, now).await?;
    let follow_ups: Vec<FollowUp> = commits.iter().filter_map(FollowUp::of).collect();
    event_follow_ups::append(&mut tx, db.backend, &follow_ups, now).await.map_err(other)?;
    tx.commit().await.map_err(other)?;
    Ok(())
}

/// Locks the events' rows in id order (PostgreSQL), so that two nodes'
/// combined transactions wait for each other instead of deadlocking.
async fn lock_in_id_order(conn: &mut AnyConnection, commits: &[EventCommit]) -> Result<(), StoreError> {
    let mut ids: Vec<&str> = commits.iter().map(|c| c.event_id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    let sql = format!("SELECT id FROM events WHERE id IN ({}) ORDER BY id FOR UPDATE", placeholder_list(1, ids.len()));
    let mut q = sqlx::query_scalar::<_, String>(dynamic(sql));
    for id in ids {
        q = q.bind(id);
    }
    q.fetch_all(&mut *conn).await.map_err(other)?;
    Ok(())
}

/// Moves every event of the transaction to its new version if it is still
/// at the one its batch was decided on (and writes changed limits or the
/// cancellation), in one statement per chunk. Any event that was not at
/// its expected version fails the whole transaction: `Conflict`, or
/// `NotFound` when the event is gone.
async fn check_versions(
    conn: &mut AnyConnection,
    backend: Backend,
    commits: &[EventCommit],
    now: i64,
) -> Result<(), StoreError> {
    const COLUMNS: usize = 12;
    for chunk in commits.chunks(backend.rows_per_bulk_statement(COLUMNS)) {
        // VALUES columns are column1…column12 on both backends.
        let sql = format!(
            "UPDATE events SET version = v.column3, updated_at = v.column12, \
               max_skaters = CASE WHEN v.column4 = 1 THEN v.column5 ELSE events.max_skaters END, \
               max_goalies = CASE WHEN v.column4 = 1 THEN v.column6 ELSE events.max_goalies END, \
               cancelled_at = CASE WHEN v.column7 = 1 AND events.cancelled_at IS NULL THEN v.column12 \
                 ELSE events.cancelled_at END, \
               cancel_reason = CASE WHEN v.column7 = 1 AND events.cancelled_at IS NULL THEN CAST(v.column11 AS TEXT) \
                 ELSE events.cancel_reason END, \
               open_skaters = CASE WHEN v.column8 = 1 THEN v.column9 ELSE events.open_skaters END, \
               open_goalies = CASE WHEN v.column8 = 1 THEN v.column10 ELSE events.open_goalies END \
             FROM (VALUES {}) AS v \
             WHERE events.id = v.column1 AND events.version = v.column2 \
             RETURNING events.id",
            backend.tuples(chunk.len(), COLUMNS),
        );
        let mut q = sqlx::query_scalar::<_, String>(dynamic(sql));
        for c in chunk {
            let limits = c.limits.as_ref().map(|l| (l.max_skaters, l.max_goalies));
            q = q
                .bind(&c.event_id)
                .bind(c.expected_version)
                .bind(c.new_version)
                .bind(flag(limits.is_some()))
                .bind(limits.and_then(|l| l.0))
                .bind(limits.and_then(|l| l.1))
                .bind(flag(c.cancelled))
                .bind(flag(c.open_places.is_some()))
                .bind(c.open_places.and_then(|o| o.skaters))
                .bind(c.open_places.and_then(|o| o.goalies))
                .bind(c.cancel_reason.as_deref())
                .bind(now);
        }
        let moved = q.fetch_all(&mut *conn).await.map_err(other)?;
        if moved.len() == chunk.len() {
            continue;
        }
        let stuck =
            chunk.iter().find(|c| !moved.contains(&c.event_id)).map(|c| c.event_id.as_str()).unwrap_or_default();
        let exists = super::events::version(&mut *conn, stuck).await.map_err(other)?.is_some();
        return Err(if exists { StoreError::Conflict } else { StoreError::NotFound });
    }
    Ok(())
}

/// Upserts the batches' final RSVP rows (one per user and event).
async fn upsert_rsvps(
    conn: &mut AnyConnection,
    backend: Backend,
    rsvps: &[EventRsvp<'_>],
    now: i64,
) -> Result<(), StoreError> {
    for chunk in rsvps.chunks(backend.rows_per_bulk_statement(10)) {
        let sql = format!(
            "INSERT INTO event_rsvps (id, event_id, user_id, status, position, role, accepted_seq, responded_at, \
               created_at, updated_at) VALUES {} \
             ON CONFLICT (event_id, user_id) DO UPDATE SET status = excluded.status, position = excluded.position, \
               role = excluded.role, accepted_seq = excluded.accepted_seq, responded_at = excluded.responded_at, \
               updated_at = excluded.updated_at",
            backend.tuples(chunk.len(), 10)
        );
        let mut q = sqlx::query(dynamic(sql));
        for (event_id, r) in chunk {
            q = q
                .bind(new_id())
                .bind(*event_id)
                .bind(&r.user_id)
                .bind(r.status.as_str())
                .bind(r.position.as_str())
                .bind(r.role().as_str())
                .bind(r.accepted_seq)
                .bind(r.responded_at)
                .bind(now)
                .bind(now);
        }
        q.execute(&mut *conn).await.map_err(other)?;
    }
    Ok(())
}

/// Attendees have a payment row (unpaid until marked); the waitlisted have
/// none. Leaving drops an unpaid row and keeps a paid one.
async fn sync_payments(
    conn: &mut AnyConnection,
    backend: Backend,
    rsvps: &[EventRsvp<'_>],
    now: i64,
) -> Result<(), StoreError> {
    let (attending, others): (Vec<&EventRsvp>, Vec<&EventRsvp>) =
        rsvps.iter().partition(|(_, r)| r.status == RsvpStatus::Attending);
    for chunk in attending.chunks(backend.rows_per_bulk_statement(6)) {
        let sql = format!(
            "INSERT INTO event_payments (id, event_id, user_id, is_paid, created_at, updated_at) VALUES {} \
             ON CONFLICT (event_id, user_id) DO NOTHING",
            backend.tuples(chunk.len(), 6)
        );
        let mut q = sqlx::query(dynamic(sql));
        for (event_id, r) in chunk {
            q = q.bind(new_id()).bind(*event_id).bind(&r.user_id).bind(0_i64).bind(now).bind(now);
        }
        q.execute(&mut *conn).await.map_err(other)?;
    }
    for chunk in others.chunks(backend.rows_per_bulk_statement(2)) {
        let sql = format!(
            "DELETE FROM event_payments WHERE is_paid = 0 AND (event_id, user_id) IN (VALUES {})",
            backend.tuples(chunk.len(), 2)
        );
        let mut q = sqlx::query(dynamic(sql));
        for (event_id, r) in chunk {
            q = q.bind(*event_id).bind(&r.user_id);
        }
        q.execute(&mut *conn).await.map_err(other)?;
    }
    Ok(())
}

/// One row of EventRSVPHistory or EventWaitlistHistory: both have the same
/// shape (which event, who, action, position, when).
struct HistoryRow<'a> {
    event_id: &'a str,
    user_id: &'a str,
    action: &'static str,
    position: Position,
    at: i64,
}

impl<'a> HistoryRow<'a> {
    fn rsvp(event_id: &'a str, h: &'a RsvpHistory) -> Self {
        HistoryRow { event_id, user_id: &h.user_id, action: h.action.as_str(), position: h.position, at: h.created_at }
    }

    fn waitlist(event_id: &'a str, h: &'a WaitlistHistory) -> Self {
        HistoryRow { event_id, user_id: &h.user_id, action: h.action.as_str(), position: h.position, at: h.created_at }
    }
}

/// Appends history rows to `table`, in order (ids are UUIDv7, generated in
/// order, so reading by id gives the decision order).
async fn append_history(
    conn: &mut AnyConnection,
    backend: Backend,
    table: &str,
    rows: &[HistoryRow<'_>],
) -> Result<(), StoreError> {
    for chunk in rows.chunks(backend.rows_per_bulk_statement(6)) {
        let sql = format!(
            "INSERT INTO {table} (id, event_id, user_id, action, position, created_at) VALUES {}",
            backend.tuples(chunk.len(), 6)
        );
        let mut q = sqlx::query(dynamic(sql));
        for h in chunk {
            q = q.bind(new_id()).bind(h.event_id).bind(h.user_id).bind(h.action).bind(h.position.as_str()).bind(h.at);
        }
        q.execute(&mut *conn).await.map_err(other)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rinkside_actors::event::RsvpAction;
    use std::sync::Arc;

    async fn sqlite() -> (Db, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::connect(&format!("sqlite://{}/t.db", dir.path().display()), None).await.unwrap();
        db.migrate().await.unwrap();
        for (id, name) in [("u1", "ann"), ("u2", "bob")] {
            sqlx::query("INSERT INTO users (id, clerk_id, username, created_at, updated_at) VALUES ($1, $1, $2, 0, 0)")
                .bind(id)
                .bind(name)
                .execute(&db.pool)
                .await
                .unwrap();
        }
        for id in ["e1", "e2"] {
            sqlx::query(
                "INSERT INTO events (id, title, start_date, creator_id, event_type, created_at, updated_at) \
                 VALUES ($1, 'Pickup', 0, 'u1', 'OTHER', 0, 0)",
            )
            .bind(id)
            .execute(&db.pool)
            .await
            .unwrap();
        }
        (db, dir)
    }

    /// `user` joins `event`, which the batch believes is at `expected`.
    fn joining(event: &str, expected: i64, user: &str) -> EventCommit {
        EventCommit {
            event_id: event.into(),
            expected_version: expected,
            new_version: expected + 1,
            rsvps: vec![Rsvp {
                user_id: user.into(),
                display_name: user.into(),
                position: Position::Center,
                status: RsvpStatus::Attending,
                accepted_seq: 1,
                responded_at: 1,
            }],
            rsvp_history: vec![RsvpHistory {
                user_id: user.into(),
                action: RsvpAction::Attending,
                position: Position::Center,
                created_at: 1,
            }],
            waitlist_history: Vec::new(),
            limits: None,
            cancelled: false,
            cancel_reason: None,
            open_places: None,
            results: Vec::new(),
        }
    }

    /// Queues both commits while the turn is held elsewhere, so that one
    /// turn takes them together.
    async fn commit_together(db: &Db, a: EventCommit, b: EventCommit) -> [Result<CommitResult, StoreError>; 2] {
        let writer = Arc::new(EventWriter::default());
        let held = writer.turn.lock().await;
        let spawn = |c: EventCommit| {
            let (writer, db) = (writer.clone(), db.clone());
            tokio::spawn(async move { writer.commit(&db, c).await })
        };
        let (ta, tb) = (spawn(a), spawn(b));
        while writer.queue.lock().unwrap().len() < 2 {
            tokio::task::yield_now().await;
        }
        drop(held);
        [ta.await.unwrap(), tb.await.unwrap()]
    }

    async fn state(db: &Db, event: &str) -> (i64, i64, i64) {
        let version: i64 = sqlx::query_scalar("SELECT version FROM events WHERE id = $1")
            .bind(event)
            .fetch_one(&db.pool)
            .await
            .unwrap();
        let count = |table: &str| {
            let sql = format!("SELECT COUNT(*) FROM {table} WHERE event_id = $1");
            let pool = db.pool.clone();
            let event = event.to_string();
            async move { sqlx::query_scalar::<_, i64>(dynamic(sql)).bind(event).fetch_one(&pool).await.unwrap() }
        };
        (version, count("event_rsvps").await, count("event_rsvp_history").await)
    }

    #[tokio::test]
    async fn batches_of_different_events_commit_in_one_turn_each_to_its_own_event() {
        let (db, _dir) = sqlite().await;
        let [a, b] = commit_together(&db, joining("e1", 0, "u1"), joining("e2", 0, "u2")).await;
        assert!(a.is_ok() && b.is_ok(), "{a:?} {b:?}");
        assert_eq!(state(&db, "e1").await, (1, 1, 1));
        assert_eq!(state(&db, "e2").await, (1, 1, 1));
        let (owner,): (String,) = sqlx::query_as("SELECT user_id FROM event_payments WHERE event_id = 'e2'")
            .fetch_one(&db.pool)
            .await
            .unwrap();
        assert_eq!(owner, "u2");
    }

    #[tokio::test]
    async fn a_stale_batch_fails_alone_and_the_other_event_still_commits() {
        let (db, _dir) = sqlite().await;
        let [a, b] = commit_together(&db, joining("e1", 0, "u1"), joining("e2", 7, "u2")).await;
        assert!(a.is_ok(), "{a:?}");
        assert!(matches!(b, Err(StoreError::Conflict)), "{b:?}");
        assert_eq!(state(&db, "e1").await, (1, 1, 1));
        assert_eq!(state(&db, "e2").await, (0, 0, 0), "nothing of the stale batch is written");
        let [c, _] = commit_together(&db, joining("gone", 0, "u1"), joining("e2", 0, "u2")).await;
        assert!(matches!(c, Err(StoreError::NotFound)), "{c:?}");
    }
}
