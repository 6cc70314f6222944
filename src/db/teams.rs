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
    sqlx::query_as(super::dynamic(format!("SELECT {COLUMNS} FROM teams t WHERE t.id = $1")))
        .bind(id)
        .fetch_optional(ex)
        .await
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

/// Locks the team for this transaction (first statement) and advances
/// `updated_at` to `max(updated_at + 1, now)`: it is the `team:ID` topic's
/// seq, so it must grow even for two edits in one millisecond. None when the
/// team does not exist.
pub async fn touch(conn: &mut sqlx::AnyConnection, id: &str) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "UPDATE teams SET updated_at = CASE WHEN updated_at + 1 > $2 THEN updated_at + 1 ELSE $2 END WHERE id = $1 RETURNING updated_at",
    )
    .bind(id)
    .bind(now_ms())
    .fetch_optional(&mut *conn)
    .await
}

/// Writes every editable field (after [`touch`], with the merged values).
pub async fn replace(conn: &mut sqlx::AnyConnection, id: &str, t: &TeamFields) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE teams SET name = $2, logo_url = $3, description = $4, facility_id = $5 WHERE id = $1")
        .bind(id)
        .bind(&t.name)
        .bind(&t.logo_url)
        .bind(&t.description)
        .bind(&t.facility_id)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Deletes a team with its rosters (the schema's ON DELETE rules; games
/// refer to rosters with RESTRICT, so a refusal answers 409).
/// Whether any roster of the team plays in a game.
pub async fn has_games<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<bool, sqlx::Error> {
    let n: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM games g JOIN rosters r ON r.id IN (g.home_roster_id, g.away_roster_id) WHERE r.team_id = $1",
    )
    .bind(id)
    .fetch_one(ex)
    .await?;
    Ok(n > 0)
}

pub async fn delete<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("DELETE FROM teams WHERE id = $1").bind(id).execute(ex).await?;
    Ok(done.rows_affected() > 0)
}

/// Teams based at a facility, alphabetical, keyset on `(lower(name), id)`.
pub async fn at_facility<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    facility_id: &str,
    after: Option<(&str, &str)>,
    limit: i64,
) -> Result<Vec<TeamRow>, sqlx::Error> {
    let sql = format!(
        "SELECT {COLUMNS} FROM teams t WHERE t.facility_id = $1 \
           AND ($2 = 0 OR lower(t.name) > $3 OR (lower(t.name) = $3 AND t.id > $4)) \
         ORDER BY lower(t.name), t.id LIMIT $5"
    );
    sqlx::query_as(super::dynamic(sql))
        .bind(facility_id)
        .bind(flag(after.is_some()))
        .bind(after.map(|a| a.0.to_string()).unwrap_or_default())
        .bind(after.map(|a| a.1.to_string()).unwrap_or_default())
        .bind(limit + 1)
        .fetch_all(ex)
        .await
}
