//! Facilities (rinks) and their manager links.

use super::{flag, new_id, now_ms};
use sqlx::{Any, Executor, FromRow};

#[derive(Debug, Clone, FromRow)]
pub struct FacilityRow {
    pub id: String,
    pub name: String,
    pub phone_number: Option<String>,
    pub email: Option<String>,
    pub website: Option<String>,
    pub image_url: Option<String>,
    pub description: Option<String>,
    pub timezone: String,
    pub creator_id: String,
    pub owner_id: String,
    pub created_at: i64,
    pub updated_at: i64,
    #[sqlx(default)]
    pub follower_count: i64,
}

pub const COLUMNS: &str = "f.id, f.name, f.phone_number, f.email, f.website, f.image_url, f.description, \
    f.timezone, f.creator_id, f.owner_id, f.created_at, f.updated_at, \
    (SELECT COUNT(*) FROM facility_follows ff WHERE ff.facility_id = f.id) AS follower_count";

/// The fields a facility is created or replaced with.
#[derive(Debug, Clone, Default)]
pub struct FacilityFields {
    pub name: String,
    pub phone_number: Option<String>,
    pub email: Option<String>,
    pub website: Option<String>,
    pub image_url: Option<String>,
    pub description: Option<String>,
    pub timezone: String,
}

pub async fn insert<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    creator_id: &str,
    f: &FacilityFields,
) -> Result<String, sqlx::Error> {
    let id = new_id();
    let now = now_ms();
    sqlx::query(
        "INSERT INTO facilities (id, name, phone_number, email, website, image_url, description, timezone, \
           creator_id, owner_id, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, $10, $10)",
    )
    .bind(&id)
    .bind(&f.name)
    .bind(&f.phone_number)
    .bind(&f.email)
    .bind(&f.website)
    .bind(&f.image_url)
    .bind(&f.description)
    .bind(&f.timezone)
    .bind(creator_id)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(id)
}

pub async fn get<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<Option<FacilityRow>, sqlx::Error> {
    sqlx::query_as(super::dynamic(format!("SELECT {COLUMNS} FROM facilities f WHERE f.id = $1")))
        .bind(id)
        .fetch_optional(ex)
        .await
}

pub async fn exists<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<bool, sqlx::Error> {
    let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM facilities WHERE id = $1").bind(id).fetch_one(ex).await?;
    Ok(n > 0)
}

/// Facilities by name (case-insensitive contains), alphabetical, keyset on `(lower(name), id)`.
pub async fn search<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    q: &str,
    after: Option<(&str, &str)>,
    limit: i64,
) -> Result<Vec<FacilityRow>, sqlx::Error> {
    let sql = format!(
        "SELECT {COLUMNS} FROM facilities f WHERE lower(f.name) LIKE $1 \
           AND ($2 = 0 OR lower(f.name) > $3 OR (lower(f.name) = $3 AND f.id > $4)) \
         ORDER BY lower(f.name), f.id LIMIT $5"
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

/// `%q%` for a case-insensitive contains, with LIKE's wildcards taken out of
/// the user's text so they match literally-ish (dropped) rather than as patterns.
pub fn like_pattern(q: &str) -> String {
    let cleaned: String = q.trim().to_lowercase().chars().filter(|c| !matches!(c, '%' | '_' | '\\')).collect();
    format!("%{cleaned}%")
}

/// Locks the facility for this transaction (first statement) and advances
/// `updated_at`; false when it does not exist.
pub async fn touch(conn: &mut sqlx::AnyConnection, id: &str) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("UPDATE facilities SET updated_at = $2 WHERE id = $1")
        .bind(id)
        .bind(now_ms())
        .execute(&mut *conn)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// Writes every editable field (after [`touch`], with the merged values).
pub async fn replace(conn: &mut sqlx::AnyConnection, id: &str, f: &FacilityFields) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE facilities SET name = $2, phone_number = $3, email = $4, website = $5, image_url = $6, description = $7, \
           timezone = $8 WHERE id = $1",
    )
    .bind(id)
    .bind(&f.name)
    .bind(&f.phone_number)
    .bind(&f.email)
    .bind(&f.website)
    .bind(&f.image_url)
    .bind(&f.description)
    .bind(&f.timezone)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Deletes a facility: its seasons (with their rosters and division
/// mappings) go with it, its teams stay without a facility (the schema's
/// ON DELETE rules; a refusal by one of them answers 409).
pub async fn delete<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("DELETE FROM facilities WHERE id = $1").bind(id).execute(ex).await?;
    Ok(done.rows_affected() > 0)
}
