//! `feed` — a person's own feed (private; `feed:<userId>` on the bus).
//! The snapshot is the first page; every new or grown item is an update
//! carrying that one item (CONTRACT.md › Feed and posts), with the item's
//! `updatedAt` in milliseconds as its seq. An edited post's items are
//! pushed again in place, and a deleted post's items as removals
//! (`{"id","removed":true}`), both with the commit time as seq
//! ([`unmoved_seq`]).
//!
//! Feed updates are items, not states: the outbox neither coalesces them
//! nor drops one for arriving after a newer one (`realtime::outbox`), and
//! the client merges them by id. Items are built here for the REST page,
//! the snapshot and the pushes alike, with their resource summaries read
//! once per resource type per batch.

use crate::db::feed::{FeedRow, Resource, Written};
use crate::db::{self, Db, feed_summaries};
use crate::domain::FeedItemType;
use crate::error::AppError;
use crate::realtime::pusher::Pusher;
use crate::realtime::topics::{Topic, TopicSource};
use futures_util::future::BoxFuture;
use serde::Serialize;
use serde_json::{Value, json};
use sqlx::AnyConnection;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// One item of a person's feed.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FeedItem {
    pub id: String,
    #[serde(rename = "type")]
    pub kind: FeedItemType,
    pub user_id: String,
    /// The newest actor (null for the product's own items).
    pub actor_id: Option<String>,
    pub resource_id: Option<String>,
    /// EVENT, ROSTER, SEASON, POST or USER.
    pub resource_type: Option<String>,
    /// `{"actorIds":[newest first, at most 10],"count":n}`, plus `suggestions`
    /// on FIRST_FOLLOW_ENCOURAGEMENT.
    #[schema(value_type = Object)]
    pub aggregated_data: Value,
    /// What the item is about, summarised for the card.
    #[schema(value_type = Object)]
    pub resource: Value,
    /// The people of `aggregatedData.actorIds`, in that order.
    pub actors: Vec<crate::summaries::UserSummary>,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: i64,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub updated_at: i64,
}

/// Items whose actors are the point: without one left, nothing to show.
fn needs_an_actor(kind: FeedItemType) -> bool {
    matches!(kind, FeedItemType::UserJoinedTeam | FeedItemType::PostCreated)
}

/// Builds the items of these rows, dropping those about something the
/// person can no longer see (a deleted event or post, an anonymised person).
pub async fn items(db: &Db, rows: Vec<FeedRow>) -> Result<Vec<FeedItem>, AppError> {
    let mut ids: HashMap<Resource, HashSet<String>> = HashMap::new();
    let mut people: HashSet<String> = HashSet::new();
    for row in &rows {
        if let (Some(kind), Some(id)) = (row.resource_type.as_deref().and_then(Resource::parse), &row.resource_id) {
            ids.entry(kind).or_default().insert(id.clone());
        }
        people.extend(row.actor_ids());
    }
    let list = |r: Resource| ids.get(&r).map(|s| s.iter().cloned().collect::<Vec<_>>()).unwrap_or_default();
    let pool = &db.pool;
    let mut summaries: HashMap<Resource, HashMap<String, Value>> = HashMap::new();
    summaries.insert(Resource::Event, feed_summaries::events(pool, &list(Resource::Event)).await?);
    summaries.insert(Resource::Roster, feed_summaries::rosters(pool, &list(Resource::Roster)).await?);
    summaries.insert(Resource::Season, feed_summaries::seasons(pool, &list(Resource::Season)).await?);
    summaries.insert(Resource::Post, feed_summaries::posts(pool, &list(Resource::Post)).await?);
    people.extend(list(Resource::User));
    let people = feed_summaries::people(pool, &people.into_iter().collect::<Vec<_>>()).await?;
    summaries.insert(
        Resource::User,
        people.iter().map(|(id, p)| (id.clone(), serde_json::to_value(p).unwrap_or(Value::Null))).collect(),
    );

    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let Some(kind) = FeedItemType::parse(&row.kind) else { continue };
        let resource = match (row.resource_type.as_deref().and_then(Resource::parse), &row.resource_id) {
            (Some(r), Some(id)) => match summaries.get(&r).and_then(|s| s.get(id)) {
                Some(summary) => summary.clone(),
                None => continue,
            },
            _ => Value::Null,
        };
        let actor_ids: Vec<String> = row.actor_ids().into_iter().filter(|a| people.contains_key(a)).collect();
        if needs_an_actor(kind) && actor_ids.is_empty() {
            continue;
        }
        let actors = actor_ids.iter().filter_map(|a| people.get(a).cloned()).collect();
        let mut aggregated = json!({"actorIds": actor_ids, "count": row.agg_count});
        if let Some(Value::Object(extra)) = row.aggregated_data.as_deref().and_then(|d| serde_json::from_str(d).ok())
            && let Value::Object(agg) = &mut aggregated
        {
            for (k, v) in extra {
                if k != "actorIds" && k != "count" {
                    agg.insert(k, v);
                }
            }
        }
        out.push(FeedItem {
            id: row.id,
            kind,
            user_id: row.user_id,
            actor_id: row.actor_id.filter(|a| people.contains_key(a)),
            resource_id: row.resource_id,
            resource_type: row.resource_type,
            aggregated_data: aggregated,
            resource,
            actors,
            created_at: row.created_at,
            updated_at: row.updated_at,
        });
    }
    Ok(out)
}

/// A page of a person's feed and the cursor of the next.
pub async fn page(
    db: &Db,
    user_id: &str,
    before: Option<(i64, String)>,
    limit: i64,
) -> Result<(Vec<FeedItem>, Option<String>), AppError> {
    let rows = db::feed::page(&db.pool, user_id, before, limit).await?;
    let (rows, next) = db::finish_page(rows, limit, |r| db::Cursor { at: r.updated_at, id: r.id.clone() }.encode());
    Ok((items(db, rows).await?, next))
}

pub struct FeedTopic {
    pub db: Db,
}

impl TopicSource for FeedTopic {
    fn authorize<'a>(&'a self, viewer: Option<&'a str>, id: &'a str) -> BoxFuture<'a, Result<(), AppError>> {
        // `Topic::parse` makes `feed` the viewer's own; nobody reads another's.
        Box::pin(async move {
            if viewer == Some(id) { Ok(()) } else { Err(AppError::forbidden("a feed is its owner's alone")) }
        })
    }

    fn snapshot<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<(i64, Value), AppError>> {
        Box::pin(async move {
            let (items, next) = page(&self.db, id, None, db::DEFAULT_PAGE_ROWS).await?;
            let seq = items.iter().map(|i| i.updated_at).max().unwrap_or(0);
            Ok((seq, json!({"items": items, "nextCursor": next})))
        })
    }

    fn is_private(&self) -> bool {
        true
    }
}

/// Pushes the feed items that committed fan-outs wrote or grew, in the
/// background (a post to 20,000 followers does not hold its answer).
pub fn spawn_push(db: &Db, pusher: &Arc<Pusher>, written: Vec<Written>) {
    if written.is_empty() {
        return;
    }
    let (db, pusher) = (db.clone(), pusher.clone());
    tokio::spawn(async move {
        if let Err(e) = push(&db, &pusher, &written).await {
            tracing::warn!(error = %e, "feed items not pushed");
        }
    });
}

/// Pushes every watched feed item about a resource that was edited at
/// `at` (its summary changed, its place did not), in the background.
pub fn spawn_push_edited(db: &Db, pusher: &Arc<Pusher>, resource: Resource, resource_id: &str, at: i64) {
    let (db, pusher, id) = (db.clone(), pusher.clone(), resource_id.to_string());
    tokio::spawn(async move {
        if let Err(e) = push_edited(&db, &pusher, resource, &id, at).await {
            tracing::warn!(error = %e, resource_id = %id, "edited feed items not pushed");
        }
    });
}

/// Takes these items (deleted at `at`) out of the open feeds, in the
/// background.
pub fn spawn_push_removed(pusher: &Arc<Pusher>, rows: Vec<FeedRow>, at: i64) {
    if rows.is_empty() {
        return;
    }
    let pusher = pusher.clone();
    tokio::spawn(async move { push_removed(&pusher, &rows, at) });
}

/// Pushes the items the writes touched to the feeds that are watched: on
/// one node, only the people subscribed here are read; in a cluster every
/// touched item is published (a subscriber may be on any node).
pub async fn push(db: &Db, pusher: &Pusher, written: &[Written]) -> Result<(), AppError> {
    let watchers: Option<Vec<String>> = pusher.local_feed_watchers();
    for w in written {
        let rows = {
            let mut conn = db.pool.acquire().await?;
            db::feed::touched(&mut conn, &w.key, w.since, watchers.as_deref()).await?
        };
        for item in items(db, rows).await? {
            let topic = Topic::feed(item.user_id.clone());
            pusher.publish_item(&topic, item.updated_at, &serde_json::to_value(&item).unwrap_or(Value::Null));
        }
    }
    Ok(())
}

/// The seq of a push about an item that did not move (an edit, a removal):
/// `at` is the app's clock after the change committed. A snapshot's floor
/// is the newest `updatedAt` of its first page, and any snapshot whose floor
/// reaches `at` was read after the commit, so it already shows the change;
/// every earlier one lets this push through. Never at or below the item's
/// own `updatedAt`, so even a clock behind the database's passes the floor
/// of a snapshot whose newest item is this one.
pub fn unmoved_seq(at: i64, updated_at: i64) -> i64 {
    at.max(updated_at.saturating_add(1))
}

/// The items about a resource in the feeds that are watched, by the same
/// rule as [`push`]: on one node only those of the people subscribed here,
/// in a cluster all of them.
pub async fn watched_about(
    conn: &mut AnyConnection,
    pusher: &Pusher,
    resource: Resource,
    resource_id: &str,
) -> Result<Vec<FeedRow>, AppError> {
    Ok(db::feed::about(conn, resource, resource_id, pusher.local_feed_watchers().as_deref()).await?)
}

/// After an edit of a resource committed at `at`: every watched item about
/// it, rebuilt (so its `resource` summary is the new one), goes to its
/// owner's feed. Its `updatedAt` stays: an edit does not move an item.
pub async fn push_edited(
    db: &Db,
    pusher: &Pusher,
    resource: Resource,
    resource_id: &str,
    at: i64,
) -> Result<(), AppError> {
    let rows = {
        let mut conn = db.pool.acquire().await?;
        watched_about(&mut conn, pusher, resource, resource_id).await?
    };
    for item in items(db, rows).await? {
        let topic = Topic::feed(item.user_id.clone());
        let seq = unmoved_seq(at, item.updated_at);
        pusher.publish_item(&topic, seq, &serde_json::to_value(&item).unwrap_or(Value::Null));
    }
    Ok(())
}

/// The frame that takes an item out of an open feed (docs/realtime.md ›
/// Frames beyond the contract).
pub fn removal(item_id: &str) -> Value {
    json!({"id": item_id, "removed": true})
}

/// After a deletion committed at `at`: each of these items (read with
/// [`watched_about`] in the deleting transaction, before they went) leaves
/// its owner's open feed.
pub fn push_removed(pusher: &Pusher, rows: &[FeedRow], at: i64) {
    for row in rows {
        let topic = Topic::feed(row.user_id.clone());
        pusher.publish_item(&topic, unmoved_seq(at, row.updated_at), &removal(&row.id));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_push_about_an_unmoved_item_is_above_the_item_and_at_least_the_commit_time() {
        assert_eq!(unmoved_seq(5_000, 1_000), 5_000);
        assert_eq!(unmoved_seq(1_000, 1_000), 1_001);
        assert_eq!(unmoved_seq(900, 1_000), 1_001);
        assert_eq!(unmoved_seq(0, i64::MAX), i64::MAX);
    }

    #[test]
    fn a_removal_names_the_item_and_nothing_else() {
        assert_eq!(removal("i1"), json!({"id": "i1", "removed": true}));
    }
}
