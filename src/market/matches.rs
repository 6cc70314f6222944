//! A person's matches: for each of their active statuses, the statuses on
//! the other side that match it and, for a sub, the open spots they could
//! take. The database prefilters (type, positions, level, time); the pure
//! rules in [`super::rules`] decide.

use super::rules::{self, SPOT_HORIZON_MS};
use super::view::{self, EventSummary, Match, Status};
use crate::db::statuses::Filter;
use crate::db::{self, Db};
use crate::domain::{StatusType, UniversalDivision};
use crate::error::AppError;
use std::collections::{BTreeMap, HashSet};

/// The most matches a person is shown at once (soonest first).
pub const MAX_MATCHES: usize = 50;

/// Active statuses matching `mine` (never the viewer's own).
pub async fn counterparts(db: &Db, mine: &Status, now: i64) -> Result<Vec<Status>, AppError> {
    let kinds = [rules::counterpart(mine.kind)];
    let filter = Filter {
        now,
        kinds: &kinds,
        positions: &mine.positions,
        level_near: mine.level.map(UniversalDivision::level),
        unknown_level_ok: true,
        ..Filter::default()
    };
    let rows = db::statuses::list(&db.pool, &filter).await?;
    let side = mine.side();
    Ok(view::statuses(db, rows)
        .await?
        .into_iter()
        .filter(|t| t.user_id != mine.user_id)
        .filter(|t| rules::statuses_match(&side, &t.side(), now))
        .collect())
}

/// The open spots a sub's status matches, soonest first.
async fn open_spots(db: &Db, sub: &Status, now: i64) -> Result<Vec<EventSummary>, AppError> {
    let until = (now + SPOT_HORIZON_MS).min(sub.expires_at.saturating_add(1));
    let rows = db::spots::open_spots(&db.pool, now, until, None).await?;
    let side = sub.side();
    Ok(rows.into_iter().map(EventSummary::from).filter(|e| rules::spot_matches(&side, &e.spot(), now)).collect())
}

/// The matches resting on one of the viewer's statuses.
pub async fn of_status(db: &Db, viewer: &str, mine: &Status, now: i64) -> Result<Vec<Match>, AppError> {
    if !mine.is_active(now) {
        return Ok(Vec::new());
    }
    let theirs = counterparts(db, mine, now).await?;
    if mine.kind != StatusType::AvailableToSub {
        return Ok(theirs.iter().map(|t| Match::status(mine, t)).collect());
    }
    // A sub: teams' calls, and events (open spots with their calls folded in).
    let mut out = Vec::new();
    let mut events: BTreeMap<String, (EventSummary, Vec<Status>)> = BTreeMap::new();
    for t in theirs {
        match t.event.clone() {
            Some(summary) => events.entry(summary.id.clone()).or_insert((summary, Vec::new())).1.push(t),
            None => out.push(Match::status(mine, &t)),
        }
    }
    for summary in open_spots(db, mine, now).await? {
        events.entry(summary.id.clone()).or_insert((summary, Vec::new()));
    }
    let ids: Vec<String> = events.keys().cloned().collect();
    let answered: HashSet<String> = db::spots::answered(&db.pool, viewer, &ids).await?.into_iter().collect();
    for (id, (summary, asks)) in events {
        if !answered.contains(&id) {
            out.push(Match::event(mine, summary, asks));
        }
    }
    Ok(out)
}

/// The statuses a person may edit that are active: their own, their
/// teams', their calls for subs.
pub async fn mine(db: &Db, viewer: &str, now: i64) -> Result<Vec<Status>, AppError> {
    let rows = db::statuses::list(&db.pool, &Filter { now, editable_by: Some(viewer), ..Filter::default() }).await?;
    view::statuses(db, rows).await
}

/// Every match of a person, soonest first, at most [`MAX_MATCHES`].
pub async fn for_viewer(db: &Db, viewer: &str, now: i64) -> Result<Vec<Match>, AppError> {
    let mut out = Vec::new();
    for status in mine(db, viewer, now).await? {
        out.extend(of_status(db, viewer, &status, now).await?);
    }
    out.sort_by(|a, b| a.when().cmp(&b.when()).then_with(|| a.id.cmp(&b.id)));
    out.truncate(MAX_MATCHES);
    Ok(out)
}
