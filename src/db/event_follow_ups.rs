//! The record of what an event actor's commit did that others must hear
//! about (the transactional outbox of issue 27): written in the batch's own
//! transaction by [`super::event_commits`], taken and deleted by the
//! follow-up worker (`crate::store::follow_ups`) in the transaction that
//! carries the consequences out. Only the rows live here; what follows from
//! them is decided above `db/`.

use rinkside_actors::event::{RsvpAction, WaitlistAction};
use rinkside_actors::{EventCommit, OpenPlaces, Position};
use serde::{Deserialize, Serialize};
use sqlx::{Any, AnyConnection, Executor};

use super::{Backend, dynamic, new_id};

/// Most records one worker turn takes: one transaction carries them all.
pub const MAX_TAKEN: i64 = 64;

/// What one committed batch did, as far as anyone beyond its own rows
/// cares. Compact: a pure join race writes `{"openPlaces":…}` and nothing
/// else.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FollowUp {
    #[serde(skip)]
    pub event_id: String,
    /// The version the batch committed as (the notification batch key).
    #[serde(skip)]
    pub version: i64,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cancelled: bool,
    /// Why, in the organiser's words, when it became cancelled and they
    /// said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cancel_reason: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub limits_changed: bool,
    /// Taken off a waitlist, with the position they were promoted to.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub promoted: Vec<(String, Position)>,
    /// Removed by an organiser.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub removed: Vec<String>,
    /// The places left moved (the sub market follows).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub places_moved: bool,
}

impl FollowUp {
    /// What `c` did, or `None` when it did nothing anyone else hears of
    /// (a batch of rejected or repeated commands).
    pub fn of(c: &EventCommit) -> Option<FollowUp> {
        let promoted: Vec<(String, Position)> = c
            .waitlist_history
            .iter()
            .filter(|h| h.action == WaitlistAction::Promoted)
            .map(|h| (h.user_id.clone(), h.position))
            .collect();
        let removed: Vec<String> =
            c.rsvp_history.iter().filter(|h| h.action == RsvpAction::Removed).map(|h| h.user_id.clone()).collect();
        let record = FollowUp {
            event_id: c.event_id.clone(),
            version: c.new_version,
            cancelled: c.cancelled,
            cancel_reason: c.cancel_reason.clone().filter(|_| c.cancelled),
            limits_changed: c.limits.is_some(),
            promoted,
            removed,
            places_moved: c.open_places.is_some(),
        };
        (record != FollowUp { event_id: c.event_id.clone(), version: c.new_version, ..FollowUp::default() })
            .then_some(record)
    }
}

/// Appends the records of a transaction's batches, in order.
pub async fn append(conn: &mut AnyConnection, backend: Backend, records: &[FollowUp], now: i64) -> sqlx::Result<()> {
    for chunk in records.chunks(backend.rows_per_bulk_statement(5)) {
        let sql = format!(
            "INSERT INTO event_follow_ups (id, event_id, version, record, created_at) VALUES {}",
            backend.tuples(chunk.len(), 5)
        );
        let mut q = sqlx::query(dynamic(sql));
        for r in chunk {
            let record = serde_json::to_string(r).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
            q = q.bind(new_id()).bind(&r.event_id).bind(r.version).bind(record).bind(now);
        }
        q.execute(&mut *conn).await?;
    }
    Ok(())
}

/// Takes (deletes and returns) the oldest records, at most [`MAX_TAKEN`],
/// in commit order, with when each was written. Run it in the transaction
/// that carries them out: if that rolls back, the records are back. On
/// PostgreSQL another node's worker skips the rows this one holds, so two
/// nodes never take the same record.
pub async fn take(conn: &mut AnyConnection, backend: Backend) -> sqlx::Result<Vec<(FollowUp, i64)>> {
    let skip_locked = if backend == Backend::Postgres { " FOR UPDATE SKIP LOCKED" } else { "" };
    let sql = format!(
        "DELETE FROM event_follow_ups WHERE id IN \
           (SELECT id FROM event_follow_ups ORDER BY id LIMIT {MAX_TAKEN}{skip_locked}) \
         RETURNING id, event_id, version, record, created_at"
    );
    let mut rows: Vec<(String, String, i64, String, i64)> = sqlx::query_as(dynamic(sql)).fetch_all(&mut *conn).await?;
    rows.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let mut taken = Vec::with_capacity(rows.len());
    for (_, event_id, version, record, created_at) in rows {
        let mut r: FollowUp = serde_json::from_str(&record).map_err(|e| sqlx::Error::Decode(Box::new(e)))?;
        r.event_id = event_id;
        r.version = version;
        taken.push((r, created_at));
    }
    Ok(taken)
}

/// How many records wait (tests and the worker's lag report).
pub async fn pending<'e, E: Executor<'e, Database = Any>>(ex: E) -> sqlx::Result<i64> {
    sqlx::query_scalar("SELECT COUNT(*) FROM event_follow_ups").fetch_one(ex).await
}

/// The places left per role of each event (the columns the version check
/// writes), by id.
pub async fn open_places(conn: &mut AnyConnection, event_ids: &[&str]) -> sqlx::Result<Vec<(String, OpenPlaces)>> {
    if event_ids.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        "SELECT id, open_skaters, open_goalies FROM events WHERE id IN ({})",
        super::placeholder_list(1, event_ids.len())
    );
    let mut q = sqlx::query_as::<_, (String, Option<i64>, Option<i64>)>(dynamic(sql));
    for id in event_ids {
        q = q.bind(*id);
    }
    let rows = q.fetch_all(&mut *conn).await?;
    Ok(rows.into_iter().map(|(id, skaters, goalies)| (id, OpenPlaces { skaters, goalies })).collect())
}
