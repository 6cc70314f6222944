//! Carries out what follows an event actor's commit, from the records the
//! commit wrote (`db::event_follow_ups`): EVENT_UPDATED feed items for a
//! cancellation or new limits, the notifications of people promoted,
//! removed or cancelled on, and the calls for subs the batch answered (the
//! event is full for what they asked). Then, after that transaction
//! commits, the pushes: notifications, feed items, the sub market's open
//! spots.
//!
//! One worker per node, woken after every commit that wrote a record and
//! sweeping every [`SWEEP`] for records nobody woke it for (written by a
//! node that died before carrying them out, or by this node before a
//! restart). A turn takes the oldest records in the transaction that
//! writes their consequences, so a record is carried out exactly once: a
//! crash before the commit leaves it for the next turn, on any node; on
//! PostgreSQL two nodes' turns take disjoint records.
//!
//! A turn that fails (the database is away) leaves its records where they
//! are and is tried again after [`RETRY`]; nothing acknowledged loses its
//! consequences, they only arrive late.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Notify;
use tokio::sync::mpsc::UnboundedSender;

use crate::db::event_follow_ups::{self, FollowUp};
use crate::db::{Db, feed::Written, now_ms, statuses};
use crate::feed::EventChange;
use crate::realtime::pusher::Pusher;

/// How often a worker looks for records nobody woke it for.
pub const SWEEP: Duration = Duration::from_secs(2);
/// How long a woken worker waits for more records before its turn.
/// Measured (steady, 100 events at 5,000/s asked, SQLite): a turn per
/// commit doubled the write transactions and cut what the node sustains.
const GATHER: Duration = Duration::from_millis(5);
/// The pause after a failed turn.
const RETRY: Duration = Duration::from_secs(1);

/// The handle the event store wakes after a commit that wrote a record.
#[derive(Default)]
pub struct FollowUps {
    wake: Notify,
}

/// Where a turn's pushes go once its transaction committed.
pub struct Outlets {
    pub pusher: Arc<Pusher>,
    /// Batch keys of the notifications written (`live::notifications::watch`).
    pub notices: UnboundedSender<String>,
    /// Events whose places moved (`market::push::watch`).
    pub open_places: UnboundedSender<String>,
}

impl FollowUps {
    /// Starts this node's worker; `hold` (crash tests only, see
    /// `Config::hold_follow_ups`) starts none, so records pile up.
    pub fn start(db: Db, outlets: Outlets, hold: bool) -> Arc<Self> {
        let this = Arc::new(FollowUps::default());
        if hold {
            tracing::warn!("HOLD_FOLLOW_UPS: this node leaves event follow-ups to others");
        } else {
            tokio::spawn(run(this.clone(), db, outlets));
        }
        this
    }

    /// A record was committed: carry it out soon.
    pub fn wake(&self) {
        self.wake.notify_one();
    }
}

async fn run(this: Arc<FollowUps>, db: Db, outlets: Outlets) {
    loop {
        tokio::select! {
            () = this.wake.notified() => {
                // Let the records of the commits landing now join this
                // turn: on SQLite every turn is a write transaction taking
                // the one writer's turn from the event commits.
                tokio::time::sleep(GATHER).await;
            }
            () = tokio::time::sleep(SWEEP) => {
                // A cheap read first: an idle node's sweep writes nothing.
                match event_follow_ups::pending(&db.pool).await {
                    Ok(0) => continue,
                    Ok(_) => {}
                    Err(e) => {
                        tracing::warn!(error = %e, "event follow-ups not read");
                        continue;
                    }
                }
            }
        }
        loop {
            match turn(&db, &outlets).await {
                Ok(n) if n < event_follow_ups::MAX_TAKEN as usize => break,
                Ok(_) => {}
                Err(e) => {
                    tracing::error!(error = %e, "event follow-ups not carried out; trying again");
                    tokio::time::sleep(RETRY).await;
                }
            }
        }
    }
}

/// Takes the oldest records and carries them out in one transaction;
/// returns how many it took.
async fn turn(db: &Db, outlets: &Outlets) -> Result<usize, sqlx::Error> {
    let mut tx = db.begin().await?;
    let taken = event_follow_ups::take(&mut tx, db.backend).await?;
    if taken.is_empty() {
        return Ok(0);
    }
    let now = now_ms();
    let mut written: Vec<Written> = Vec::new();
    let mut batches: Vec<String> = Vec::new();
    for (record, _) in &taken {
        if let Some(w) = tell_the_feed(&mut tx, record).await? {
            written.push(w);
        }
        batches.extend(crate::notify::event_commit(&mut tx, record).await?);
    }
    let mut moved: Vec<&str> = Vec::new();
    for (record, _) in taken.iter().filter(|(r, _)| r.places_moved) {
        if !moved.contains(&record.event_id.as_str()) {
            moved.push(&record.event_id);
        }
    }
    settle_calls_for_subs(&mut tx, &moved, now).await?;
    tx.commit().await?;

    let done = now_ms();
    let oldest = taken.iter().map(|(_, at)| *at).min().unwrap_or(done);
    tracing::debug!(records = taken.len(), lag_ms = done - oldest, "event follow-ups carried out");
    for batch in batches {
        let _ = outlets.notices.send(batch);
    }
    if !written.is_empty() {
        // In the background: an event with a big audience does not hold
        // the next turn (and the board's next settlement) behind its push.
        let (db, pusher) = (db.clone(), outlets.pusher.clone());
        tokio::spawn(async move {
            if let Err(e) = crate::live::feed::push(&db, &pusher, &written).await {
                tracing::warn!(error = %e, "feed items not pushed");
            }
        });
    }
    for event_id in moved {
        let _ = outlets.open_places.send(event_id.to_string());
    }
    Ok(taken.len())
}

/// EVENT_UPDATED for a cancellation or new limits. The actor's commands do
/// not say who sent them; the item names the event's organiser (its
/// creator), who is the one cancelling or changing limits but for a rink's
/// staff stepping in. Nothing for an event deleted since.
async fn tell_the_feed(conn: &mut sqlx::AnyConnection, r: &FollowUp) -> Result<Option<Written>, sqlx::Error> {
    let mut changes = Vec::new();
    if r.cancelled {
        changes.push(EventChange::Cancelled);
    }
    if r.limits_changed {
        changes.push(EventChange::Limits);
    }
    match crate::feed::event_updated(conn, None, &r.event_id, &changes).await {
        Err(sqlx::Error::RowNotFound) => Ok(None),
        other => other,
    }
}

/// Ends every call for subs the events' places answered: each role it
/// asks for has a limit and no place left, as the events stand now (the
/// columns the version check wrote). One read for all the events.
async fn settle_calls_for_subs(conn: &mut sqlx::AnyConnection, moved: &[&str], now: i64) -> Result<(), sqlx::Error> {
    if moved.is_empty() {
        return Ok(());
    }
    let calls = statuses::active_calls(&mut *conn, moved, now).await?;
    if calls.is_empty() {
        return Ok(());
    }
    let events: HashSet<&str> = calls.iter().map(|(_, event_id)| event_id.as_str()).collect();
    let open = event_follow_ups::open_places(&mut *conn, &events.into_iter().collect::<Vec<_>>()).await?;
    let ids: Vec<String> = calls.iter().map(|(id, _)| id.clone()).collect();
    let asked = statuses::positions(&mut *conn, &ids).await?;
    let answered: Vec<String> = calls
        .into_iter()
        .filter(|(id, event_id)| {
            let open = open.iter().find(|(e, _)| e == event_id).map(|(_, o)| *o);
            let asked = asked.get(id).map(Vec::as_slice).unwrap_or(&[]);
            open.is_some_and(|open| crate::market::rules::call_answered(asked, open))
        })
        .map(|(id, _)| id)
        .collect();
    statuses::end(&mut *conn, &answered, now).await?;
    Ok(())
}
