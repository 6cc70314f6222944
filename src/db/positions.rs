//! A player's positions: each with a skill level, one of them preferred.

use super::{flag, new_id, now_ms};
use sqlx::{Any, AnyConnection, Executor, FromRow};

#[derive(Debug, Clone, FromRow)]
pub struct PositionRow {
    pub id: String,
    pub user_id: String,
    pub position: String,
    pub skill_level: String,
    pub is_preferred: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

pub async fn positions<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    user_id: &str,
) -> Result<Vec<PositionRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, user_id, position, skill_level, is_preferred, created_at, updated_at \
         FROM player_positions WHERE user_id = $1 ORDER BY is_preferred DESC, created_at",
    )
    .bind(user_id)
    .fetch_all(ex)
    .await
}

pub async fn position<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    user_id: &str,
    id: &str,
) -> Result<Option<PositionRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, user_id, position, skill_level, is_preferred, created_at, updated_at \
         FROM player_positions WHERE user_id = $1 AND id = $2",
    )
    .bind(user_id)
    .bind(id)
    .fetch_optional(ex)
    .await
}

/// Only one preferred position: clear the others before setting one.
pub async fn clear_preferred(conn: &mut AnyConnection, user_id: &str) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE player_positions SET is_preferred = 0, updated_at = $2 WHERE user_id = $1 AND is_preferred = 1",
    )
    .bind(user_id)
    .bind(now_ms())
    .execute(&mut *conn)
    .await?;
    Ok(())
}

pub async fn insert_position(
    conn: &mut AnyConnection,
    user_id: &str,
    position: &str,
    skill_level: &str,
    preferred: bool,
) -> Result<String, sqlx::Error> {
    let id = new_id();
    let now = now_ms();
    sqlx::query(
        "INSERT INTO player_positions (id, user_id, position, skill_level, is_preferred, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $6)",
    )
    .bind(&id)
    .bind(user_id)
    .bind(position)
    .bind(skill_level)
    .bind(flag(preferred))
    .bind(now)
    .execute(&mut *conn)
    .await?;
    Ok(id)
}

pub async fn update_position(
    conn: &mut AnyConnection,
    id: &str,
    skill_level: Option<&str>,
    preferred: Option<bool>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE player_positions SET skill_level = COALESCE($2, skill_level), \
           is_preferred = COALESCE($3, is_preferred), updated_at = $4 WHERE id = $1",
    )
    .bind(id)
    .bind(skill_level)
    .bind(preferred.map(flag))
    .bind(now_ms())
    .execute(&mut *conn)
    .await?;
    Ok(())
}

pub async fn delete_position<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    user_id: &str,
    id: &str,
) -> Result<bool, sqlx::Error> {
    let r = sqlx::query("DELETE FROM player_positions WHERE user_id = $1 AND id = $2")
        .bind(user_id)
        .bind(id)
        .execute(ex)
        .await?;
    Ok(r.rows_affected() > 0)
}
