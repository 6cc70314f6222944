//! Posting a status: stored, then everyone it matches is told once it
//! commits. The one way a status is posted, by a person (`POST /statuses`)
//! or by an event's game-day check (`crate::rule_moments`).

use super::push;
use super::view::{self, Status};
use crate::db::{self, Db, statuses::NewStatus};
use crate::error::{AppError, AppResult};
use crate::realtime::pusher::Pusher;
use std::sync::Arc;

/// Statuses that ended longer ago than this are deleted when someone posts.
const KEEP_ENDED_MS: i64 = 30 * 24 * 60 * 60 * 1000;

/// Stores `new` (purging long-ended statuses on the way) and pushes its
/// matches; answers the status as the API shows it.
pub async fn post(db: &Db, pusher: &Arc<Pusher>, new: &NewStatus<'_>) -> AppResult<Status> {
    let mut tx = db.begin().await?;
    db::statuses::purge_ended(&mut *tx, new.now - KEEP_ENDED_MS).await?;
    let id = db::statuses::insert(&mut tx, new).await?;
    tx.commit().await?;
    let status = view::status(db, &id).await?.ok_or_else(|| AppError::not_found("status"))?;
    push::status_changed_soon(db, pusher, vec![(None, Some(status.clone()))], new.now);
    Ok(status)
}
