//! Check-in at the rink (docs/pickup-night.md): who was checked in, by
//! whom, and the event's code a player scans to check themselves in.

use super::now_ms;
use sqlx::{Any, Executor, FromRow};

#[derive(Debug, Clone, FromRow)]
pub struct CheckInRow {
    pub user_id: String,
    pub checked_in_by_id: Option<String>,
    pub created_at: i64,
}

/// Every check-in of an event.
pub async fn of_event<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    event_id: &str,
) -> Result<Vec<CheckInRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT user_id, checked_in_by_id, created_at FROM event_check_ins WHERE event_id = $1 ORDER BY created_at",
    )
    .bind(event_id)
    .fetch_all(ex)
    .await
}

/// Checks a person in; a second check-in keeps the first. Answers whether
/// the row is new.
pub async fn insert<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    event_id: &str,
    user_id: &str,
    by: &str,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "INSERT INTO event_check_ins (event_id, user_id, checked_in_by_id, created_at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (event_id, user_id) DO NOTHING",
    )
    .bind(event_id)
    .bind(user_id)
    .bind(by)
    .bind(now_ms())
    .execute(ex)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Undoes a check-in; answers whether there was one.
pub async fn delete<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    event_id: &str,
    user_id: &str,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("DELETE FROM event_check_ins WHERE event_id = $1 AND user_id = $2")
        .bind(event_id)
        .bind(user_id)
        .execute(ex)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// The event's check-in code, if made.
pub async fn code<'e, E: Executor<'e, Database = Any>>(ex: E, event_id: &str) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar::<_, Option<String>>("SELECT check_in_code FROM events WHERE id = $1")
        .bind(event_id)
        .fetch_optional(ex)
        .await
        .map(Option::flatten)
}

/// Stores `code` unless the event already has one; answers the code the
/// event has after (so two first reads agree on one code).
pub async fn make_code(ex: &mut sqlx::AnyConnection, event_id: &str, code: &str) -> Result<String, sqlx::Error> {
    sqlx::query("UPDATE events SET check_in_code = $2 WHERE id = $1 AND check_in_code IS NULL")
        .bind(event_id)
        .bind(code)
        .execute(&mut *ex)
        .await?;
    Ok(self::code(&mut *ex, event_id).await?.unwrap_or_default())
}
