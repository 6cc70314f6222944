//! Follows of users, facilities and teams. Writes are idempotent: following
//! twice or unfollowing someone you do not follow changes nothing.

use super::orgs::Org;
use super::users::UserRow;
use super::{Cursor, flag, new_id, now_ms};
use sqlx::{Any, Executor, FromRow};

/// What can be followed, and where its follows live.
#[derive(Clone, Copy, Debug)]
pub enum Target {
    User,
    /// A facility or a team.
    Org(Org),
}

impl Target {
    /// `(table, follower column, followed column)`.
    fn table(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Target::User => ("follows", "follower_id", "following_id"),
            Target::Org(org) => {
                let (table, column) = org.follows();
                (table, "user_id", column)
            }
        }
    }
}

pub async fn follow<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    target: Target,
    user_id: &str,
    target_id: &str,
) -> Result<(), sqlx::Error> {
    let (table, who, what) = target.table();
    let sql = format!(
        "INSERT INTO {table} (id, {who}, {what}, created_at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT ({who}, {what}) DO NOTHING"
    );
    sqlx::query(super::dynamic(sql)).bind(new_id()).bind(user_id).bind(target_id).bind(now_ms()).execute(ex).await?;
    Ok(())
}

pub async fn unfollow<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    target: Target,
    user_id: &str,
    target_id: &str,
) -> Result<(), sqlx::Error> {
    let (table, who, what) = target.table();
    let sql = format!("DELETE FROM {table} WHERE {who} = $1 AND {what} = $2");
    sqlx::query(super::dynamic(sql)).bind(user_id).bind(target_id).execute(ex).await?;
    Ok(())
}

pub async fn is_following<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    target: Target,
    user_id: &str,
    target_id: &str,
) -> Result<bool, sqlx::Error> {
    let (table, who, what) = target.table();
    let sql = format!("SELECT COUNT(*) FROM {table} WHERE {who} = $1 AND {what} = $2");
    let n: i64 = sqlx::query_scalar(super::dynamic(sql)).bind(user_id).bind(target_id).fetch_one(ex).await?;
    Ok(n > 0)
}

pub async fn follower_count<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    target: Target,
    target_id: &str,
) -> Result<i64, sqlx::Error> {
    let (table, _, what) = target.table();
    let sql = format!("SELECT COUNT(*) FROM {table} WHERE {what} = $1");
    sqlx::query_scalar(super::dynamic(sql)).bind(target_id).fetch_one(ex).await
}

/// How many people a user follows (a profile's `followingCount`).
pub async fn following_total<'e, E: Executor<'e, Database = Any>>(ex: E, user_id: &str) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT COUNT(*) FROM follows WHERE follower_id = $1").bind(user_id).fetch_one(ex).await
}

/// A person in a follow list, with when the follow happened (the cursor key).
#[derive(Debug, FromRow)]
pub struct FollowRow {
    pub followed_at: i64,
    pub follow_id: String,
    #[sqlx(flatten)]
    pub user: UserRow,
}

/// Which side of the follow to list.
#[derive(Clone, Copy, Debug)]
pub enum Direction {
    /// People who follow the target (user, facility or team).
    Followers,
    /// People the user follows.
    Following,
}

/// Newest follows first, keyset-paged on `(created_at, id)` of the follow.
pub async fn list_people<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    target: Target,
    direction: Direction,
    target_id: &str,
    before: Option<&Cursor>,
    limit: i64,
) -> Result<Vec<FollowRow>, sqlx::Error> {
    let (table, who, what) = target.table();
    let (person_col, key_col) = match direction {
        Direction::Followers => (who, what),
        Direction::Following => (what, who),
    };
    let page_start = crate::db::keyset("fl.created_at", "fl.id", crate::db::Order::NewestFirst, 2);
    let sql = format!(
        "SELECT fl.created_at AS followed_at, fl.id AS follow_id, \
           u.id, u.clerk_id, u.email, u.username, u.first_name, u.last_name, u.profile_image, u.bio, \
           u.onboarding_complete, u.can_collect_event_payments, u.legal_accepted_at, u.legal_version, \
           u.created_at, u.updated_at, u.deleted_at, u.clerk_synced_at, \
           (SELECT COUNT(*) FROM follows f WHERE f.following_id = u.id) AS follower_count, \
           (SELECT COUNT(*) FROM follows f WHERE f.follower_id = u.id) AS following_count \
         FROM {table} fl JOIN users u ON u.id = fl.{person_col} \
         WHERE fl.{key_col} = $1 AND {page_start} \
         ORDER BY fl.created_at DESC, fl.id DESC LIMIT $5"
    );
    sqlx::query_as(super::dynamic(sql))
        .bind(target_id)
        .bind(flag(before.is_some()))
        .bind(before.map(|c| c.at).unwrap_or(0))
        .bind(before.map(|c| c.id.clone()).unwrap_or_default())
        .bind(limit + 1)
        .fetch_all(ex)
        .await
}

/// Ids of facilities or teams a user follows, newest first, keyset-paged.
pub async fn followed_ids<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    org: Org,
    user_id: &str,
    before: Option<&Cursor>,
    limit: i64,
) -> Result<Vec<(String, i64, String)>, sqlx::Error> {
    let (table, who, what) = Target::Org(org).table();
    let page_start = crate::db::keyset("created_at", "id", crate::db::Order::NewestFirst, 2);
    let sql = format!(
        "SELECT {what}, created_at, id FROM {table} \
         WHERE {who} = $1 AND {page_start} \
         ORDER BY created_at DESC, id DESC LIMIT $5"
    );
    sqlx::query_as(super::dynamic(sql))
        .bind(user_id)
        .bind(flag(before.is_some()))
        .bind(before.map(|c| c.at).unwrap_or(0))
        .bind(before.map(|c| c.id.clone()).unwrap_or_default())
        .bind(limit + 1)
        .fetch_all(ex)
        .await
}
