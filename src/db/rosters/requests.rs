//! Join requests to rosters: reading them (with messages for the requester
//! and the deciders; without, for the public roster document), asking,
//! deciding and withdrawing. Every write runs after [`super::bump`] locked
//! the request's roster.

use crate::db::users::{SUMMARY_COLUMNS, UserSummaryRow};
use crate::db::{Cursor, dynamic, flag, new_id, now_ms};
use sqlx::{Any, AnyConnection, Executor, FromRow};

#[derive(Debug, Clone, FromRow)]
pub struct RequestRow {
    pub id: String,
    pub user_id: String,
    pub roster_id: String,
    pub roster_name: String,
    pub team_id: String,
    pub team_name: String,
    pub season_id: String,
    pub season_name: String,
    pub status: String,
    pub message: Option<String>,
    pub preferred_position: Option<String>,
    pub commitment_level: String,
    pub decided_by_id: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
    #[sqlx(flatten)]
    pub user: UserSummaryRow,
}

fn select_requests(where_clause: &str) -> String {
    format!(
        "SELECT q.id, q.user_id, q.roster_id, r.name AS roster_name, r.team_id, t.name AS team_name, r.season_id, \
           s.name AS season_name, q.status, q.message, q.preferred_position, q.commitment_level, q.decided_by_id, \
           q.created_at, q.updated_at, {SUMMARY_COLUMNS} \
         FROM roster_join_requests q JOIN users u ON u.id = q.user_id JOIN rosters r ON r.id = q.roster_id \
           JOIN teams t ON t.id = r.team_id JOIN seasons s ON s.id = r.season_id {where_clause}"
    )
}

pub async fn request<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<Option<RequestRow>, sqlx::Error> {
    sqlx::query_as(dynamic(select_requests("WHERE q.id = $1"))).bind(id).fetch_optional(ex).await
}

/// The request's roster and requester (to authorise and lock before acting).
pub async fn request_owner<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    id: &str,
) -> Result<Option<(String, String)>, sqlx::Error> {
    sqlx::query_as("SELECT roster_id, user_id FROM roster_join_requests WHERE id = $1")
        .bind(id)
        .fetch_optional(ex)
        .await
}

/// Whose requests to list.
#[derive(Clone, Copy, Debug)]
pub enum RequestsOf<'a> {
    Roster(&'a str),
    User(&'a str),
}

/// Requests, newest first, keyset on `(created_at, id)`.
pub async fn requests<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    of: RequestsOf<'_>,
    status: Option<&str>,
    before: Option<&Cursor>,
    limit: i64,
) -> Result<Vec<RequestRow>, sqlx::Error> {
    let (column, id) = match of {
        RequestsOf::Roster(id) => ("q.roster_id", id),
        RequestsOf::User(id) => ("q.user_id", id),
    };
    let page_start = crate::db::keyset("q.created_at", "q.id", crate::db::Order::NewestFirst, 4);
    let sql = select_requests(&format!(
        "WHERE {column} = $1 AND ($2 = 0 OR q.status = $3) \
           AND {page_start} \
         ORDER BY q.created_at DESC, q.id DESC LIMIT $7"
    ));
    sqlx::query_as(dynamic(sql))
        .bind(id)
        .bind(flag(status.is_some()))
        .bind(status.unwrap_or_default())
        .bind(flag(before.is_some()))
        .bind(before.map(|c| c.at).unwrap_or(0))
        .bind(before.map(|c| c.id.clone()).unwrap_or_default())
        .bind(limit + 1)
        .fetch_all(ex)
        .await
}

/// The public view of a roster's requests for its live document: newest
/// first, at most `limit` (no messages).
pub async fn request_states<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    roster_id: &str,
    limit: i64,
) -> Result<Vec<(String, String, String, i64)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, user_id, status, updated_at FROM roster_join_requests WHERE roster_id = $1 \
         ORDER BY created_at DESC, id DESC LIMIT $2",
    )
    .bind(roster_id)
    .bind(limit)
    .fetch_all(ex)
    .await
}

/// The user's pending request for this roster, if any.
pub async fn pending_of(
    conn: &mut AnyConnection,
    roster_id: &str,
    user_id: &str,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT id FROM roster_join_requests WHERE roster_id = $1 AND user_id = $2 AND status = 'PENDING'",
    )
    .bind(roster_id)
    .bind(user_id)
    .fetch_optional(&mut *conn)
    .await
}

#[derive(Debug, Clone)]
pub struct RequestFields {
    pub message: Option<String>,
    pub preferred_position: Option<String>,
    pub commitment_level: String,
}

pub async fn insert_request(
    conn: &mut AnyConnection,
    roster_id: &str,
    user_id: &str,
    f: &RequestFields,
) -> Result<String, sqlx::Error> {
    let id = new_id();
    sqlx::query(
        "INSERT INTO roster_join_requests (id, user_id, roster_id, status, message, preferred_position, commitment_level, created_at, updated_at) \
         VALUES ($1, $2, $3, 'PENDING', $4, $5, $6, $7, $7)",
    )
    .bind(&id)
    .bind(user_id)
    .bind(roster_id)
    .bind(&f.message)
    .bind(&f.preferred_position)
    .bind(&f.commitment_level)
    .bind(now_ms())
    .execute(&mut *conn)
    .await?;
    Ok(id)
}

/// Decides a pending request; false when it is not pending (any more).
pub async fn decide(conn: &mut AnyConnection, id: &str, status: &str, by: &str) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE roster_join_requests SET status = $2, decided_by_id = $3, updated_at = $4 WHERE id = $1 AND status = 'PENDING'",
    )
    .bind(id)
    .bind(status)
    .bind(by)
    .bind(now_ms())
    .execute(&mut *conn)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Withdraws a pending request; false when it is not pending (any more).
pub async fn delete_pending(conn: &mut AnyConnection, id: &str) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("DELETE FROM roster_join_requests WHERE id = $1 AND status = 'PENDING'")
        .bind(id)
        .execute(&mut *conn)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// Rejects every pending request of a roster (when it is archived).
pub async fn reject_pending(conn: &mut AnyConnection, roster_id: &str, by: &str) -> Result<u64, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE roster_join_requests SET status = 'REJECTED', decided_by_id = $2, updated_at = $3 \
         WHERE roster_id = $1 AND status = 'PENDING'",
    )
    .bind(roster_id)
    .bind(by)
    .bind(now_ms())
    .execute(&mut *conn)
    .await?;
    Ok(done.rows_affected())
}
