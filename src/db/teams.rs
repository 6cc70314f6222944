//! Teams and their manager links.

use super::facilities::like_pattern;
use super::{flag, new_id, now_ms};
use sqlx::{Any, Executor, FromRow};

#[derive(Debug, Clone, FromRow)]
pub struct TeamRow {
    pub id: String,
    pub name: String,
    pub logo_url: Option<String>,
    pub description: Option<String>,
    pub facility_id: Option<String>,
    pub creator_id: String,
    pub owner_id: String,
    pub created_at: i64,
    pub updated_at: i64,
    #[sqlx(default)]
    pub follower_count: i64,
}

pub const COLUMNS: &str = "t.id, t.name, t.logo_url, t.description, t.facility_id, t.creator_id, t.owner_id, \
    t.created_at, t.updated_at, (SELECT COUNT(*) FROM team_follows tf WHERE tf.team_id = t.id) AS follower_count";

#[derive(Debug, Clone, Default)]
pub struct TeamFields {
    pub name: String,
    pub logo_url: Option<String>,
    pub description: Option<String>,
    pub facility_id: Option<String>,
}

pub async fn insert<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    creator_id: &str,
    t: &TeamFields,
) -> Result<String, sqlx::Error> {
    let id = new_id();
    let now = now_ms();
    sqlx::query(
        "INSERT INTO teams (id, name, logo_url, description, facility_id, creator_id, owner_id, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $6, $7, $7)",
    )
    .bind(&id)
    .bind(&t.name)
    .bind(&t.logo_url)
    .bind(&t.description)
    .bind(&t.facility_id)
    .bind(creator_id)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(id)
}

pub async fn get<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<Option<TeamRow>, sqlx::Error> {
    sqlx::query_as(super::dynamic(format!("SELECT {COLUMNS} FROM teams t WHERE t.id = $1"))).bind(id).fetch_optional(ex).await
}

pub async fn exists<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<bool, sqlx::Error> {
    let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM teams WHERE id = $1").bind(id).fetch_one(ex).await?;
    Ok(n > 0)
}

pub async fn search<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    q: &str,
    after: Option<(&str, &str)>,
    limit: i64,
) -> Result<Vec<TeamRow>, sqlx::Error> {
    let sql = format!(
        "SELECT {COLUMNS} FROM teams t WHERE lower(t.name) LIKE $1 \
           AND ($2 = 0 OR lower(t.name) > $3 OR (lower(t.name) = $3 AND t.id > $4)) \
         ORDER BY lower(t.name), t.id LIMIT $5"
    );
    sqlx::query_as(super::dynamic(sql))
        .bind(like_pattern(q))
        .bind(flag(after.is_some()))
        .bind(after.map(|a| a.0.to_string()).unwrap_or_default())
        .bind(after.map(|a| a.1.to_string()).unwrap_or_default())
        .bind(limit + 1)
        .fetch_all(ex)
        .await
}
