//! `feed` — a person's own feed (private; `feed:<userId>` on the bus).
//! The snapshot is the first page; every new or grown item is an update
//! carrying that one item (CONTRACT.md › Feed and posts), with the item's
//! `updatedAt` in milliseconds as its seq.
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
use std::collections::{HashMap, HashSet};

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

/// Pushes the items the writes touched to the feeds that are watched: on
/// one node, only the people subscribed here are read; in a cluster every
/// touched item is published (a subscriber may be on any node).
pub async fn push(db: &Db, pusher: &Pusher, written: &[Written]) -> Result<(), AppError> {
    const CHUNK: usize = 500;
    let watchers: Option<Vec<String>> = pusher.local_feed_watchers();
    for w in written {
        let rows = match &watchers {
            None => db::feed::touched(&db.pool, &w.key, w.since, None).await?,
            Some(users) if users.is_empty() => continue,
            Some(users) => {
                let mut rows = Vec::new();
                for chunk in users.chunks(CHUNK) {
                    rows.extend(db::feed::touched(&db.pool, &w.key, w.since, Some(chunk)).await?);
                }
                rows
            }
        };
        for item in items(db, rows).await? {
            let topic = Topic::feed(item.user_id.clone());
            pusher.publish_item(&topic, item.updated_at, &serde_json::to_value(&item).unwrap_or(Value::Null));
        }
    }
    Ok(())
}
