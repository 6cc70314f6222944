//! The [`EventStore`] the per-event actors persist through: loading an
//! event's aggregate state, the people answering a batch, and the commit
//! (one transaction per group-commit batch, written by
//! [`super::event_commits`]).

use super::event_commits::EventWriter;
use super::events::{DISPLAY_NAME, get};
use super::{Db, dynamic, placeholder_list, store_error as other};
use rinkside_actors::event::{EventState, Person, Rsvp, RsvpStatus, StoredEvent};
use rinkside_actors::{
    BoxFuture, CommitResult, EventCommit, EventStore, Position, ReplyStore, StoreError, StoredReply,
};
use sqlx::FromRow;
use std::collections::HashMap;
use tokio::sync::mpsc::UnboundedSender;

/// The people answering a batch of RSVPs, in one read per chunk: the name
/// the attendee list shows (the same expression the actor's state is loaded
/// with) and their preferred position. Ids of nobody are left out.
async fn people(db: &Db, user_ids: Vec<String>) -> Result<HashMap<String, Person>, StoreError> {
    let mut found = HashMap::with_capacity(user_ids.len());
    for chunk in user_ids.chunks(db.backend.rows_per_statement(1)) {
        let sql = format!(
            "SELECT u.id, {DISPLAY_NAME} AS display_name, \
               (SELECT p.position FROM player_positions p WHERE p.user_id = u.id AND p.is_preferred = 1) AS preferred \
             FROM users u WHERE u.id IN ({})",
            placeholder_list(1, chunk.len())
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

/// The persistence of the per-event actors.
pub struct SqlEventStore {
    pub db: Db,
    writer: EventWriter,
    /// Told the id of every event whose open places a commit changed (the
    /// sub market's open spots), after the commit.
    open_places: Option<UnboundedSender<String>>,
    /// Told the batch key of every commit, after it, so the notifications
    /// it wrote are pushed (`live::notifications::watch`).
    notices: Option<UnboundedSender<String>>,
}

impl SqlEventStore {
    pub fn new(db: Db) -> Self {
        SqlEventStore { db, writer: EventWriter::default(), open_places: None, notices: None }
    }

    pub fn reporting_open_places(self, to: UnboundedSender<String>) -> Self {
        SqlEventStore { open_places: Some(to), ..self }
    }

    pub fn notifying(self, to: UnboundedSender<String>) -> Self {
        SqlEventStore { notices: Some(to), ..self }
    }
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
        event_id: row.id,
        version: row.version,
        max_skaters: row.max_skaters,
        max_goalies: row.max_goalies,
        cancelled: row.cancelled_at.is_some(),
        rsvps,
    })))
}

impl ReplyStore for SqlEventStore {
    fn find_results(&self, keys: Vec<String>) -> BoxFuture<'_, Result<HashMap<String, StoredReply>, StoreError>> {
        Box::pin(super::command_results::find_results(&self.db, keys))
    }
}

impl EventStore for SqlEventStore {
    fn load(&self, event_id: String) -> BoxFuture<'_, Result<Option<EventState>, StoreError>> {
        Box::pin(async move { load_state(&self.db, &event_id).await })
    }

    fn commit(&self, commit: EventCommit) -> BoxFuture<'_, Result<CommitResult, StoreError>> {
        Box::pin(async move {
            let moved = commit.open_places.is_some().then(|| commit.event_id.clone());
            let told = crate::notify::tells_anyone(&commit)
                .then(|| crate::notify::event_batch(&commit.event_id, commit.new_version));
            let result = self.writer.commit(&self.db, commit).await?;
            if let (Some(event_id), Some(to)) = (moved, &self.open_places) {
                let _ = to.send(event_id);
            }
            if let (Some(batch), Some(to)) = (told, &self.notices) {
                let _ = to.send(batch);
            }
            Ok(result)
        })
    }

    fn people(&self, user_ids: Vec<String>) -> BoxFuture<'_, Result<HashMap<String, Person>, StoreError>> {
        Box::pin(people(&self.db, user_ids))
    }
}
