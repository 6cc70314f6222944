//! The reads of the per-event actors' store (`crate::store::events`):
//! an event's aggregate state and the people answering a batch. The
//! commit is [`super::event_commits`].

use super::events::{DISPLAY_NAME, EventRow, get};
use super::{Db, dynamic, now_ms, store_error as other};
use rinkside_actors::event::{Access, EventState, Person, Rsvp, RsvpStatus, StoredEvent};
use rinkside_actors::{Position, StoreError};
use sqlx::FromRow;
use std::collections::HashMap;

/// The people answering a batch of RSVPs, in one read per chunk: the name
/// the attendee list shows (the same expression the actor's state is loaded
/// with) and their preferred position. Ids of nobody are left out.
pub async fn people(db: &Db, user_ids: Vec<String>) -> Result<HashMap<String, Person>, StoreError> {
    let mut found = HashMap::with_capacity(user_ids.len());
    for chunk in user_ids.chunks(db.backend.rows_per_bulk_statement(1)) {
        let sql = format!(
            "SELECT u.id, {DISPLAY_NAME} AS display_name, \
               (SELECT p.position FROM player_positions p WHERE p.user_id = u.id AND p.is_preferred = 1) AS preferred \
             FROM users u WHERE u.id IN ({})",
            db.backend.list(chunk.len())
        );
        let mut q = sqlx::query_as::<_, (String, String, Option<String>)>(dynamic(sql));
        for id in chunk {
            q = q.bind(id);
        }
        for (id, display_name, preferred) in q.fetch_all(&db.pool).await.map_err(other)? {
            let preferred_position = preferred.as_deref().and_then(|p| Position::parse(p).ok());
            found.insert(id, Person { display_name, preferred_position });
        }
    }
    Ok(found)
}

#[derive(FromRow)]
struct RsvpRow {
    user_id: String,
    display_name: String,
    position: String,
    status: String,
    accepted_seq: i64,
    responded_at: i64,
}

/// Loads an event's aggregate state (also used for snapshots when no actor
/// is live on this node).
pub async fn load_state(db: &Db, event_id: &str) -> Result<Option<EventState>, StoreError> {
    let Some(row) = get(&db.pool, event_id).await.map_err(other)? else { return Ok(None) };
    let rows: Vec<RsvpRow> = sqlx::query_as(dynamic(format!(
        "SELECT r.user_id, {DISPLAY_NAME} AS display_name, r.position, r.status, r.accepted_seq, r.responded_at \
         FROM event_rsvps r JOIN users u ON u.id = r.user_id WHERE r.event_id = $1"
    )))
    .bind(event_id)
    .fetch_all(&db.pool)
    .await
    .map_err(other)?;
    let mut rsvps = Vec::with_capacity(rows.len());
    for r in rows {
        rsvps.push(Rsvp {
            user_id: r.user_id,
            display_name: r.display_name,
            position: Position::parse(&r.position).map_err(other)?,
            status: RsvpStatus::parse(&r.status).map_err(other)?,
            accepted_seq: r.accepted_seq,
            responded_at: r.responded_at,
        });
    }
    Ok(Some(EventState::new(StoredEvent {
        access: access(db, &row).await.map_err(other)?,
        loaded_at: now_ms(),
        event_id: row.id,
        version: row.version,
        max_skaters: row.max_skaters,
        max_goalies: row.max_goalies,
        cancelled: row.cancelled_at.is_some(),
        rsvps,
    })))
}

/// Who goes first and when RSVPs lock, from the event's rules and start.
/// The regulars are read only when there is a regulars' window.
pub async fn access(db: &Db, row: &EventRow) -> Result<Access, sqlx::Error> {
    let moments = row.rules.moments(row.start_date);
    let regulars = match moments.open_to_all_at {
        Some(_) => super::rsvp_rules::regulars(&db.pool, &row.id).await?.into_iter().map(|r| r.user_id).collect(),
        None => Default::default(),
    };
    // An imported league game also locks with its rosters' availability
    // rules (docs/availability.md): the earliest lock holds.
    let roster_locks = match row.event_type.as_str() {
        "EXTERNAL_GAME" => super::availability::rosters_of_imported(&db.pool, &row.id).await?,
        _ => Vec::new(),
    };
    let closes_at =
        moments.closes_at.into_iter().chain(roster_locks.iter().filter_map(|r| r.locks_at(row.start_date))).min();
    Ok(Access { regulars, regulars_until: moments.open_to_all_at, closes_at })
}
