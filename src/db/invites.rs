//! Invites (docs/invites.md): made, listed, revoked, found by code, and
//! used — a use taken atomically against the invite's limit, once per
//! person.

use super::{flag, new_id};
use sqlx::{Any, AnyConnection, Executor, FromRow};

#[derive(Debug, Clone, FromRow)]
pub struct InviteRow {
    pub id: String,
    pub code: String,
    pub roster_id: Option<String>,
    pub event_id: Option<String>,
    pub email: Option<String>,
    pub require_approval: i64,
    pub max_uses: i64,
    pub uses: i64,
    pub created_by_id: Option<String>,
    pub created_at: i64,
    pub expires_at: i64,
    pub revoked_at: Option<i64>,
}

const COLUMNS: &str = "id, code, roster_id, event_id, email, require_approval, max_uses, uses, created_by_id, \
                       created_at, expires_at, revoked_at";

/// What a new invite is for, and its terms.
pub struct NewInvite<'a> {
    pub code: &'a str,
    pub roster_id: Option<&'a str>,
    pub event_id: Option<&'a str>,
    pub email: Option<&'a str>,
    pub require_approval: bool,
    pub max_uses: i64,
    pub created_by_id: &'a str,
    pub now: i64,
    pub expires_at: i64,
}

pub async fn insert<'e, E: Executor<'e, Database = Any>>(ex: E, new: &NewInvite<'_>) -> Result<String, sqlx::Error> {
    let id = new_id();
    sqlx::query(
        "INSERT INTO invites (id, code, roster_id, event_id, email, require_approval, max_uses, created_by_id, \
           created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
    )
    .bind(&id)
    .bind(new.code)
    .bind(new.roster_id)
    .bind(new.event_id)
    .bind(new.email)
    .bind(flag(new.require_approval))
    .bind(new.max_uses)
    .bind(new.created_by_id)
    .bind(new.now)
    .bind(new.expires_at)
    .execute(ex)
    .await?;
    Ok(id)
}

pub async fn get<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<Option<InviteRow>, sqlx::Error> {
    let sql = format!("SELECT {COLUMNS} FROM invites WHERE id = $1");
    sqlx::query_as(super::dynamic(sql)).bind(id).fetch_optional(ex).await
}

pub async fn by_code<'e, E: Executor<'e, Database = Any>>(ex: E, code: &str) -> Result<Option<InviteRow>, sqlx::Error> {
    let sql = format!("SELECT {COLUMNS} FROM invites WHERE code = $1");
    sqlx::query_as(super::dynamic(sql)).bind(code).fetch_optional(ex).await
}

/// A roster's or an event's invites, newest first (at most 100).
pub async fn of<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    roster_id: Option<&str>,
    event_id: Option<&str>,
) -> Result<Vec<InviteRow>, sqlx::Error> {
    let sql = format!(
        "SELECT {COLUMNS} FROM invites WHERE (roster_id = $1 OR event_id = $2) ORDER BY created_at DESC, id LIMIT 100"
    );
    sqlx::query_as(super::dynamic(sql)).bind(roster_id).bind(event_id).fetch_all(ex).await
}

/// Revokes an invite (again: no change); answers whether it exists.
pub async fn revoke<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE invites SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1")
        .bind(id)
        .bind(now)
        .execute(ex)
        .await?;
    Ok(())
}

/// Whether the person already used the invite.
pub async fn used_by(conn: &mut AnyConnection, invite_id: &str, user_id: &str) -> Result<bool, sqlx::Error> {
    let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM invite_uses WHERE invite_id = $1 AND user_id = $2")
        .bind(invite_id)
        .bind(user_id)
        .fetch_one(&mut *conn)
        .await?;
    Ok(n > 0)
}

/// Takes one use of a live invite for the person, in the caller's
/// transaction: false when it is used up, revoked or expired (two people
/// racing for the last use: one gets it).
pub async fn take_use(conn: &mut AnyConnection, invite_id: &str, user_id: &str, now: i64) -> Result<bool, sqlx::Error> {
    let taken = sqlx::query(
        "UPDATE invites SET uses = uses + 1 \
         WHERE id = $1 AND uses < max_uses AND revoked_at IS NULL AND expires_at > $2",
    )
    .bind(invite_id)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    if taken.rows_affected() == 0 {
        return Ok(false);
    }
    sqlx::query("INSERT INTO invite_uses (invite_id, user_id, used_at) VALUES ($1, $2, $3)")
        .bind(invite_id)
        .bind(user_id)
        .bind(now)
        .execute(&mut *conn)
        .await?;
    Ok(true)
}

/// Gives a use back when joining failed after it was taken (the roster
/// full, the event closed): the invite is as it was for the next person.
pub async fn give_back<'e, E: Executor<'e, Database = Any> + Copy>(
    ex: E,
    invite_id: &str,
    user_id: &str,
) -> Result<(), sqlx::Error> {
    let gone = sqlx::query("DELETE FROM invite_uses WHERE invite_id = $1 AND user_id = $2")
        .bind(invite_id)
        .bind(user_id)
        .execute(ex)
        .await?;
    if gone.rows_affected() > 0 {
        sqlx::query("UPDATE invites SET uses = uses - 1 WHERE id = $1 AND uses > 0")
            .bind(invite_id)
            .execute(ex)
            .await?;
    }
    Ok(())
}
