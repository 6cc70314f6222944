//! Who is told what when the market changes, after the write committed:
//! each affected person's `matches` topic gets one change per match
//! (`upsert`, or `drop` by status or by event), a sub an event matches gets
//! a SUB_MATCH notification (once per event), and a rink's `spots:`
//! document is pushed when one of its events' open places move.
//!
//! Event changes arrive from the RSVP batches' commits
//! ([`crate::db::event_store`]) on a channel, so the actor never waits for
//! the fan-out; status changes are pushed in the background by the REST
//! handlers that made them.

use super::matches;
use super::rules;
use super::view::{self, EventSummary, Match, Status};
use crate::db::statuses::Filter;
use crate::db::{self, Db};
use crate::domain::StatusType;
use crate::error::AppError;
use crate::realtime::pusher::Pusher;
use crate::realtime::topics::Topic;
use crate::time::Clock;
use serde_json::{Value, json};
use std::collections::HashSet;
use std::sync::Arc;
use tokio::sync::mpsc;

/// How far back a call counts as "just ended" for its owners' screens.
const JUST_ENDED_MS: i64 = 60_000;

/// One change to a person's matches.
enum Change<'a> {
    Upsert(&'a Match),
    DropStatus(&'a str),
    DropEvent(&'a str),
}

fn tell(pusher: &Pusher, user_id: &str, change: Change<'_>) {
    let data: Value = match change {
        Change::Upsert(m) => json!({"op": "upsert", "match": m}),
        Change::DropStatus(id) => json!({"op": "drop", "statusId": id}),
        Change::DropEvent(id) => json!({"op": "drop", "eventId": id}),
    };
    pusher.publish_item(&Topic::matches(user_id), crate::realtime::seq::next(), &data);
}

/// A status as it was before it ended, for finding who matched it.
fn as_it_was(status: &Status, now: i64) -> Status {
    Status { expires_at: status.expires_at.max(now + 1), ..status.clone() }
}

/// After a status was posted, edited, ended or taken down: its owners get
/// its matches afresh; the other side gets the match, or loses it.
pub async fn status_changed(
    db: &Db,
    pusher: &Pusher,
    before: Option<Status>,
    after: Option<Status>,
    now: i64,
) -> Result<(), AppError> {
    let Some(subject) = after.as_ref().or(before.as_ref()) else { return Ok(()) };
    let after = after.as_ref().filter(|a| a.is_active(now));
    for owner in view::owners(db, subject).await? {
        tell(pusher, &owner, Change::DropStatus(&subject.id));
        if let Some(a) = after {
            for m in matches::of_status(db, &owner, a, now).await? {
                tell(pusher, &owner, Change::Upsert(&m));
            }
        }
    }
    if let Some(event_id) = &subject.event_id {
        // A call for an event is part of the event's match for its subs.
        return event_changed(db, pusher, event_id, now).await;
    }
    let matched_now = match after {
        Some(a) => matches::counterparts(db, a, now).await?,
        None => Vec::new(),
    };
    let matched_before = match &before {
        Some(b) => matches::counterparts(db, &as_it_was(b, now), now).await?,
        None => Vec::new(),
    };
    let still: HashSet<&str> = matched_now.iter().map(|c| c.id.as_str()).collect();
    for c in &matched_now {
        let Some(a) = after else { break };
        let m = Match::status(c, a);
        for owner in view::owners(db, c).await? {
            tell(pusher, &owner, Change::Upsert(&m));
        }
    }
    for c in matched_before.iter().filter(|c| !still.contains(c.id.as_str())) {
        for owner in view::owners(db, c).await? {
            tell(pusher, &owner, Change::DropStatus(&subject.id));
        }
    }
    Ok(())
}

/// After an event's open places moved (or its calls changed): every sub who
/// could take it learns whether it is a match for them now, the owners of
/// its calls get theirs afresh, and the rink's lobby display is pushed.
pub async fn event_changed(db: &Db, pusher: &Pusher, event_id: &str, now: i64) -> Result<(), AppError> {
    let ids = [event_id.to_string()];
    let Some(row) = db::spots::events(&db.pool, &ids).await?.remove(event_id) else { return Ok(()) };
    let summary = EventSummary::from(row);
    if let Some(facility) = &summary.facility_id {
        pusher.push(&Topic::spots(facility.clone())).await;
    }
    let lfs = [StatusType::LookingForSubs];
    let calls =
        db::statuses::list(&db.pool, &Filter { now, kinds: &lfs, event_ids: &ids, ..Filter::default() }).await?;
    let calls = view::statuses(db, calls).await?;
    let ended = db::statuses::recently_ended_calls(&db.pool, event_id, now - JUST_ENDED_MS, now).await?;
    if calls.is_empty() && ended.is_empty() && summary.start_date > now + rules::SPOT_HORIZON_MS {
        // Too far ahead to be an open spot, and nobody asked: nobody's match.
        return Ok(());
    }
    for ended in ended {
        if let Some(call) = view::status(db, &ended).await? {
            for owner in view::owners(db, &call).await? {
                tell(pusher, &owner, Change::DropStatus(&call.id));
            }
        }
    }
    for call in &calls {
        for owner in view::owners(db, call).await? {
            for m in matches::of_status(db, &owner, call, now).await? {
                tell(pusher, &owner, Change::Upsert(&m));
            }
        }
    }
    if summary.start_date <= now {
        return Ok(());
    }
    let subs = [StatusType::AvailableToSub];
    let filter = Filter { now, kinds: &subs, active_after: Some(summary.start_date - 1), ..Filter::default() };
    let subs = view::statuses(db, db::statuses::list(&db.pool, &filter).await?).await?;
    let answered: HashSet<String> = db::spots::answered_by(&db.pool, event_id).await?.into_iter().collect();
    let spot = summary.spot();
    let mut matched = Vec::new();
    for sub in &subs {
        let Some(owner) = sub.user_id.as_deref() else { continue };
        let side = sub.side();
        let asks: Vec<Status> = calls
            .iter()
            .filter(|c| c.user_id.as_deref() != Some(owner) && rules::statuses_match(&side, &c.side(), now))
            .cloned()
            .collect();
        let wanted = rules::spot_matches(&side, &spot, now) || !asks.is_empty();
        if wanted && !answered.contains(owner) {
            tell(pusher, owner, Change::Upsert(&Match::event(sub, summary.clone(), asks)));
            matched.push(owner.to_string());
        } else {
            tell(pusher, owner, Change::DropEvent(event_id));
        }
    }
    notify_matched(db, pusher, event_id, &matched, (summary.open.skaters, summary.open.goalies)).await
}

/// SUB_MATCH for the subs an event matches now (`crate::notify::sub_match`:
/// once per event per person, as their settings allow), pushed once it
/// commits. Already-told people cost one insert that does nothing.
async fn notify_matched(
    db: &Db,
    pusher: &Pusher,
    event_id: &str,
    matched: &[String],
    open: (Option<i64>, Option<i64>),
) -> Result<(), AppError> {
    if matched.is_empty() {
        return Ok(());
    }
    let mut tx = db.begin().await?;
    let batch = crate::notify::sub_match(&mut tx, event_id, matched, open).await?;
    tx.commit().await?;
    if let Some(batch) = batch {
        pusher.push_notifications(batch);
    }
    Ok(())
}

/// Runs the fan-out of event changes reported by the commits, one event
/// at a time, merging repeats that queue meanwhile (a burst of RSVPs on
/// one event is one fan-out of its latest state).
pub fn watch(db: Db, pusher: Arc<Pusher>, clock: Clock, mut changes: mpsc::UnboundedReceiver<String>) {
    tokio::spawn(async move {
        while let Some(first) = changes.recv().await {
            let mut batch = vec![first];
            while let Ok(more) = changes.try_recv() {
                if !batch.contains(&more) {
                    batch.push(more);
                }
            }
            for event_id in batch {
                if let Err(e) = event_changed(&db, &pusher, &event_id, clock()).await {
                    tracing::warn!(event = %event_id, error = %e, "open spots not pushed");
                }
            }
        }
    });
}

/// [`event_changed`] in the background (a new event, or an edit moved the
/// event's time or rink; the RSVP batches report through [`watch`]).
pub fn event_changed_soon(db: &Db, pusher: &Arc<Pusher>, event_id: &str, now: i64) {
    let (db, pusher, event_id) = (db.clone(), pusher.clone(), event_id.to_string());
    tokio::spawn(async move {
        if let Err(e) = event_changed(&db, &pusher, &event_id, now).await {
            tracing::warn!(event = %event_id, error = %e, "open spots not pushed");
        }
    });
}

/// Pushes status changes in the background (the answer does not wait).
pub fn status_changed_soon(db: &Db, pusher: &Arc<Pusher>, changes: Vec<(Option<Status>, Option<Status>)>, now: i64) {
    if changes.is_empty() {
        return;
    }
    let (db, pusher) = (db.clone(), pusher.clone());
    tokio::spawn(async move {
        for (before, after) in changes {
            if let Err(e) = status_changed(&db, &pusher, before, after, now).await {
                tracing::warn!(error = %e, "matches not pushed");
            }
        }
    });
}
