//! `event:ID` — the attendees document (CONTRACT.md), seq = the event's
//! version. For signed-in people: an attendee list names people, so it is
//! not for anonymous sockets, and the subscription ends when the token
//! expires. Payments are never in it (`isPaid` is null).

use crate::db::{self, Db};
use crate::error::AppError;
use crate::realtime::topics::TopicSource;
use futures_util::future::BoxFuture;
use rinkside_actors::EventRegistry;

pub struct EventTopic {
    pub db: Db,
    pub events: EventRegistry,
}

/// The current attendees document: from the live actor when it is at the
/// committed version, else from the database. In a cluster another node may
/// have committed since this node's actor last decided, and the database is
/// the truth; one indexed read tells which.
pub async fn current(db: &Db, events: &EventRegistry, id: &str) -> Result<(i64, serde_json::Value), AppError> {
    let committed = db::events::version(&db.pool, id).await?.ok_or_else(|| AppError::not_found("event"))?;
    if let Some((version, doc)) = events.snapshot(id).await
        && version == committed
    {
        return Ok((version, serde_json::to_value(doc).map_err(AppError::internal)?));
    }
    let state = db::event_store::load_state(db, id)
        .await
        .map_err(|e| AppError::internal(anyhow::anyhow!(e.to_string())))?
        .ok_or_else(|| AppError::not_found("event"))?;
    let doc = state.attendees_document();
    Ok((doc.version, serde_json::to_value(doc).map_err(AppError::internal)?))
}

impl TopicSource for EventTopic {
    fn authorize<'a>(&'a self, viewer: Option<&'a str>, id: &'a str) -> BoxFuture<'a, Result<(), AppError>> {
        Box::pin(async move {
            if viewer.is_none() {
                return Err(AppError::unauthorized("sign in to follow an event's attendees"));
            }
            match db::events::get(&self.db.pool, id).await? {
                Some(_) => Ok(()),
                None => Err(AppError::not_found("event")),
            }
        })
    }

    fn snapshot<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<(i64, serde_json::Value), AppError>> {
        Box::pin(current(&self.db, &self.events, id))
    }

    fn is_private(&self) -> bool {
        true
    }
}
