//! Feed items, fanned out on write: one `feed_items` row per recipient,
//! written in the caller's transaction together with the fact it reports,
//! in one set-based statement however many followers there are.
//!
//! Aggregation (docs/feed.md): items of the same type about the same
//! resource in one person's feed within [`WINDOW_MS`] of the item's first
//! fact are one item. The open item of a (person, type, resource) carries
//! `open_key`, unique per person, so the insert of a second fact meets the
//! first as a conflict and grows it (`agg_count + 1`, its actor first,
//! `updated_at` forward) — on both backends, even when two facts commit at
//! the same moment.

use super::{dynamic, flag, new_id, now_ms};
use crate::domain::FeedItemType;
use sqlx::{Any, AnyConnection, Executor, FromRow};

/// How long an item keeps absorbing facts of its kind after its first.
pub const WINDOW_MS: i64 = 6 * 60 * 60 * 1000;
/// At most this many actors are kept (newest first).
pub const MAX_ACTORS: usize = 10;
/// Length cap of the stored actor list: more than [`MAX_ACTORS`] ids of 36
/// characters and their commas, so a truncated tail never costs one of the
/// newest ten.
const ACTORS_CHARS: i64 = 37 * (MAX_ACTORS as i64 + 2);

/// Who is told.
#[derive(Clone, Copy, Debug)]
pub enum Audience<'a> {
    FacilityFollowers(&'a str),
    TeamFollowers(&'a str),
    UserFollowers(&'a str),
    /// Everyone attending or waitlisted for an event.
    EventPeople(&'a str),
    /// One person, told even when they are the fact's actor (your own
    /// post in your own feed): the one audience the actor is not skipped
    /// from.
    Person(&'a str),
}

impl Audience<'_> {
    fn select(&self) -> (&'static str, &str) {
        match *self {
            Audience::FacilityFollowers(id) => {
                ("SELECT user_id AS uid FROM facility_follows WHERE facility_id = {}", id)
            }
            Audience::TeamFollowers(id) => ("SELECT user_id AS uid FROM team_follows WHERE team_id = {}", id),
            Audience::UserFollowers(id) => ("SELECT follower_id AS uid FROM follows WHERE following_id = {}", id),
            Audience::EventPeople(id) => (
                "SELECT user_id AS uid FROM event_rsvps WHERE event_id = {} AND status IN ('ATTENDING', 'WAITLISTED')",
                id,
            ),
            Audience::Person(id) => ("SELECT id AS uid FROM users WHERE id = {}", id),
        }
    }
}

/// What a resource of a feed item is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Resource {
    Event,
    Roster,
    Season,
    Post,
    User,
}

impl Resource {
    pub fn as_str(self) -> &'static str {
        match self {
            Resource::Event => "EVENT",
            Resource::Roster => "ROSTER",
            Resource::Season => "SEASON",
            Resource::Post => "POST",
            Resource::User => "USER",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        [Resource::Event, Resource::Roster, Resource::Season, Resource::Post, Resource::User]
            .into_iter()
            .find(|r| r.as_str() == s)
    }
}

/// What the item is about and who did it.
#[derive(Clone, Debug)]
pub struct Fact<'a> {
    pub kind: FeedItemType,
    /// Who did it; `None` for the product's own items (welcome, first-follow
    /// encouragement), which nobody "did".
    pub actor_id: Option<&'a str>,
    pub resource: Resource,
    pub resource_id: &'a str,
    /// More keys for `aggregatedData` (e.g. follow suggestions).
    pub extra: Option<serde_json::Value>,
}

impl Fact<'_> {
    /// The aggregation key: one open item per person for it.
    pub fn key(&self) -> String {
        open_key(self.kind, self.resource, self.resource_id)
    }
}

pub fn open_key(kind: FeedItemType, resource: Resource, resource_id: &str) -> String {
    format!("{}|{}|{}", kind.as_str(), resource.as_str(), resource_id)
}

/// What one fan-out wrote, for the push after its commit: the aggregation
/// key, and a time at or before every `updated_at` it set.
#[derive(Clone, Debug)]
pub struct Written {
    pub key: String,
    pub since: i64,
}

/// Writes (or grows) one item per distinct recipient of the audiences,
/// skipping the actor (nobody is told what they just did) unless named as
/// an [`Audience::Person`]. After the transaction commits, hand the result
/// to `Realtime::push_feed`.
pub async fn fan_out(
    conn: &mut AnyConnection,
    fact: &Fact<'_>,
    audiences: &[Audience<'_>],
) -> Result<Written, sqlx::Error> {
    let now = now_ms();
    let key = fact.key();
    let written = Written { key: key.clone(), since: now };
    if audiences.is_empty() {
        return Ok(written);
    }
    // Items older than the window stop absorbing: close them first.
    sqlx::query("UPDATE feed_items SET open_key = NULL WHERE open_key = $1 AND created_at < $2")
        .bind(&key)
        .bind(now - WINDOW_MS)
        .execute(&mut *conn)
        .await?;
    let first = 9; // placeholders $1..$8 are the fact's
    let union: Vec<String> =
        audiences.iter().enumerate().map(|(i, a)| a.select().0.replace("{}", &format!("${}", first + i))).collect();
    // A person named on purpose is told even of their own fact.
    let named: String = audiences
        .iter()
        .enumerate()
        .filter(|(_, a)| matches!(a, Audience::Person(_)))
        .map(|(i, _)| format!(" OR r.uid = ${}", first + i))
        .collect();
    let sql = format!(
        "INSERT INTO feed_items (id, type, user_id, actor_id, resource_id, resource_type, aggregated_data, \
           created_at, updated_at, open_key, agg_count, agg_actors) \
         SELECT CAST($1 AS TEXT) || '.' || r.uid, CAST($2 AS TEXT), r.uid, CAST($3 AS TEXT), CAST($4 AS TEXT), \
           CAST($5 AS TEXT), CAST($6 AS TEXT), CAST($7 AS BIGINT), CAST($7 AS BIGINT), CAST($8 AS TEXT), 1, CAST($3 AS TEXT) \
         FROM ({}) r WHERE r.uid <> COALESCE(CAST($3 AS TEXT), ''){named} ORDER BY r.uid \
         ON CONFLICT (user_id, open_key) DO UPDATE SET \
           actor_id = excluded.actor_id, \
           updated_at = CASE WHEN excluded.updated_at > feed_items.updated_at \
             THEN excluded.updated_at ELSE feed_items.updated_at + 1 END, \
           agg_count = feed_items.agg_count + 1, \
           agg_actors = substr(COALESCE(excluded.agg_actors || ',', '') || COALESCE(feed_items.agg_actors, ''), 1, {ACTORS_CHARS})",
        union.join(" UNION ")
    );
    let mut q = sqlx::query(dynamic(sql))
        .bind(new_id())
        .bind(fact.kind.as_str())
        .bind(fact.actor_id)
        .bind(fact.resource_id)
        .bind(fact.resource.as_str())
        .bind(fact.extra.as_ref().map(|e| e.to_string()))
        .bind(now)
        .bind(key);
    for a in audiences {
        q = q.bind(a.select().1);
    }
    q.execute(&mut *conn).await?;
    Ok(written)
}

/// Removes every item about a resource that no longer exists (a deleted
/// event or post), in the deleting transaction.
pub async fn forget<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    resource: Resource,
    resource_id: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM feed_items WHERE resource_type = $1 AND resource_id = $2")
        .bind(resource.as_str())
        .bind(resource_id)
        .execute(ex)
        .await?;
    Ok(())
}

#[derive(Debug, Clone, FromRow)]
pub struct FeedRow {
    pub id: String,
    #[sqlx(rename = "type")]
    pub kind: String,
    pub user_id: String,
    pub actor_id: Option<String>,
    pub resource_id: Option<String>,
    pub resource_type: Option<String>,
    pub aggregated_data: Option<String>,
    pub agg_count: i64,
    pub agg_actors: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
}

impl FeedRow {
    /// The newest distinct actors, at most [`MAX_ACTORS`].
    pub fn actor_ids(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for id in self.agg_actors.as_deref().unwrap_or("").split(',') {
            // A whole id only: the stored list's tail may be cut mid-id.
            if id.len() == 36 && !out.iter().any(|o| o == id) {
                out.push(id.to_string());
            }
            if out.len() == MAX_ACTORS {
                break;
            }
        }
        out
    }
}

const COLUMNS: &str = "f.id, f.type, f.user_id, f.actor_id, f.resource_id, f.resource_type, f.aggregated_data, \
    f.agg_count, f.agg_actors, f.created_at, f.updated_at";

/// A person's feed, newest first by `(updated_at, id)`, keyset-paged
/// before `(at, id)`; one row more than `limit` tells whether there is more.
pub async fn page<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    user_id: &str,
    before: Option<(i64, String)>,
    limit: i64,
) -> Result<Vec<FeedRow>, sqlx::Error> {
    let page_start = crate::db::keyset("f.updated_at", "f.id", crate::db::Order::NewestFirst, 2);
    let sql = format!(
        "SELECT {COLUMNS} FROM feed_items f WHERE f.user_id = $1 \
           AND {page_start} \
         ORDER BY f.updated_at DESC, f.id DESC LIMIT $5"
    );
    sqlx::query_as(dynamic(sql))
        .bind(user_id)
        .bind(flag(before.is_some()))
        .bind(before.as_ref().map(|b| b.0).unwrap_or(0))
        .bind(before.map(|b| b.1).unwrap_or_default())
        .bind(limit + 1)
        .fetch_all(ex)
        .await
}

/// The items one fact wrote or grew since `since` (milliseconds), for the
/// people among `users` (all of them when `None`): what is pushed live.
pub async fn touched(
    conn: &mut AnyConnection,
    key: &str,
    since: i64,
    users: Option<&[String]>,
) -> Result<Vec<FeedRow>, sqlx::Error> {
    rows_among(conn, "f.open_key = $1 AND f.updated_at >= $2", users, |q| q.bind(key).bind(since)).await
}

/// The items about a resource (every feed's, or only those of `users`):
/// what an edit of it pushes afresh and what its deletion takes away.
pub async fn about(
    conn: &mut AnyConnection,
    resource: Resource,
    resource_id: &str,
    users: Option<&[String]>,
) -> Result<Vec<FeedRow>, sqlx::Error> {
    rows_among(conn, "f.resource_type = $1 AND f.resource_id = $2", users, |q| {
        q.bind(resource.as_str()).bind(resource_id)
    })
    .await
}

type RowsQuery<'q> = sqlx::query::QueryAs<'q, Any, FeedRow, sqlx::any::AnyArguments>;

/// People per query when reading the items of some people: the bind
/// parameters stay well under every backend's limit.
const PEOPLE_PER_QUERY: usize = 500;

/// The items matching `condition` (its `$1` and `$2` bound by `bind`), of
/// the people among `users` (read [`PEOPLE_PER_QUERY`] at a time; none
/// when the list is empty), or of everyone when `None`.
async fn rows_among<'q>(
    conn: &mut AnyConnection,
    condition: &str,
    users: Option<&'q [String]>,
    bind: impl Fn(RowsQuery<'q>) -> RowsQuery<'q>,
) -> Result<Vec<FeedRow>, sqlx::Error> {
    let base = format!("SELECT {COLUMNS} FROM feed_items f WHERE {condition}");
    let Some(users) = users else {
        return bind(sqlx::query_as(dynamic(base))).fetch_all(conn).await;
    };
    let mut rows = Vec::new();
    for chunk in users.chunks(PEOPLE_PER_QUERY) {
        let list: Vec<String> = (0..chunk.len()).map(|i| format!("${}", i + 3)).collect();
        let mut q = bind(sqlx::query_as(dynamic(format!("{base} AND f.user_id IN ({})", list.join(", ")))));
        for u in chunk {
            q = q.bind(u);
        }
        rows.extend(q.fetch_all(&mut *conn).await?);
    }
    Ok(rows)
}

/// Whether the person follows anyone or anything (for the first-follow
/// encouragement).
pub async fn follows_anything<'e, E: Executor<'e, Database = Any>>(ex: E, user_id: &str) -> Result<bool, sqlx::Error> {
    let n: i64 = sqlx::query_scalar(
        "SELECT (SELECT COUNT(*) FROM follows WHERE follower_id = $1) \
              + (SELECT COUNT(*) FROM facility_follows WHERE user_id = $1) \
              + (SELECT COUNT(*) FROM team_follows WHERE user_id = $1)",
    )
    .bind(user_id)
    .fetch_one(ex)
    .await?;
    Ok(n > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(actors: &str) -> FeedRow {
        FeedRow {
            id: "i".into(),
            kind: "USER_JOINED_TEAM".into(),
            user_id: "u".into(),
            actor_id: None,
            resource_id: None,
            resource_type: None,
            aggregated_data: None,
            agg_count: 1,
            agg_actors: Some(actors.into()),
            created_at: 0,
            updated_at: 0,
        }
    }

    fn id(n: usize) -> String {
        format!("00000000-0000-7000-8000-{n:012}")
    }

    #[test]
    fn actors_are_the_newest_distinct_whole_ids_at_most_ten() {
        let list: Vec<String> = [1, 2, 1, 3].iter().map(|n| id(*n)).collect();
        assert_eq!(row(&list.join(",")).actor_ids(), vec![id(1), id(2), id(3)]);
        let many: Vec<String> = (0..12).map(id).collect();
        let stored = many.join(",");
        let cut = &stored[..ACTORS_CHARS.min(stored.len() as i64) as usize - 5];
        assert_eq!(row(cut).actor_ids().len(), MAX_ACTORS);
        assert_eq!(row("").actor_ids(), Vec::<String>::new());
    }

    #[test]
    fn the_stored_actor_list_holds_more_than_ten_whole_ids() {
        assert!(ACTORS_CHARS as usize > MAX_ACTORS * 37);
    }
}
