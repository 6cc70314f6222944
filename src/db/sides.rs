//! Dark and Light (docs/sides-and-bill.md › Fair sides): the side each
//! player of an event was put on, the version of those sides, and what a
//! split reads — who is in with their role and level, and who played on
//! the same side in the series' recent weeks.

use super::events::DISPLAY_NAME;
use super::{dynamic, levels, now_ms};
use sqlx::{Any, AnyConnection, Executor, FromRow};

/// Someone a sides document shows: a player in, or someone on a side who
/// no longer is (a hole).
#[derive(Debug, Clone, FromRow)]
pub struct SidePlayerRow {
    pub user_id: String,
    pub display_name: String,
    /// Their RSVP's position (a hole keeps the one they had).
    pub position: Option<String>,
    /// 1 when ATTENDING now.
    pub attending: i64,
    /// DARK, LIGHT, or NULL when on no side yet.
    pub side: Option<String>,
    /// On the universal division scale (1–8), when known.
    pub level: Option<i64>,
}

/// The players in and everyone on a side, in the order they got their
/// place (holes last, by name).
pub async fn players<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    event_id: &str,
) -> Result<Vec<SidePlayerRow>, sqlx::Error> {
    sqlx::query_as(dynamic(format!(
        "SELECT u.id AS user_id, {DISPLAY_NAME} AS display_name, r.position, \
                CASE WHEN r.status = 'ATTENDING' THEN 1 ELSE 0 END AS attending, s.side, \
                {} AS level \
         FROM users u \
         LEFT JOIN event_rsvps r ON r.event_id = $1 AND r.user_id = u.id \
         LEFT JOIN event_sides s ON s.event_id = $1 AND s.user_id = u.id \
         WHERE u.id IN (SELECT user_id FROM event_rsvps WHERE event_id = $1 AND status = 'ATTENDING' \
                        UNION SELECT user_id FROM event_sides WHERE event_id = $1) \
         ORDER BY CASE WHEN r.status = 'ATTENDING' THEN 0 ELSE 1 END, r.accepted_seq, display_name, u.id",
        levels::person_level("u.id")
    )))
    .bind(event_id)
    .fetch_all(ex)
    .await
}

/// How often the sides changed and the last split's seed.
#[derive(Debug, Clone, FromRow)]
pub struct SideSetRow {
    pub version: i64,
    pub seed: i64,
    pub made_at: i64,
}

pub async fn side_set<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    event_id: &str,
) -> Result<Option<SideSetRow>, sqlx::Error> {
    sqlx::query_as("SELECT version, seed, made_at FROM event_side_sets WHERE event_id = $1")
        .bind(event_id)
        .fetch_optional(ex)
        .await
}

/// Replaces an event's sides with a new split (in a transaction the
/// caller commits); the new version.
pub async fn replace(
    conn: &mut AnyConnection,
    event_id: &str,
    sides: &[(String, &'static str)],
    seed: i64,
) -> Result<i64, sqlx::Error> {
    let now = now_ms();
    sqlx::query("DELETE FROM event_sides WHERE event_id = $1").bind(event_id).execute(&mut *conn).await?;
    for (user_id, side) in sides {
        sqlx::query("INSERT INTO event_sides (event_id, user_id, side, assigned_at) VALUES ($1, $2, $3, $4)")
            .bind(event_id)
            .bind(user_id)
            .bind(*side)
            .bind(now)
            .execute(&mut *conn)
            .await?;
    }
    sqlx::query(
        "INSERT INTO event_side_sets (event_id, version, seed, made_at, updated_at) VALUES ($1, 1, $2, $3, $3) \
         ON CONFLICT (event_id) DO UPDATE SET version = event_side_sets.version + 1, seed = $2, made_at = $3, updated_at = $3",
    )
    .bind(event_id)
    .bind(seed)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    bumped_version(conn, event_id).await
}

/// Puts people on sides (a swap or a move), keeping the rest; the new
/// version. The sides must have been made (the caller checked).
pub async fn set(
    conn: &mut AnyConnection,
    event_id: &str,
    sides: &[(String, &'static str)],
) -> Result<i64, sqlx::Error> {
    let now = now_ms();
    for (user_id, side) in sides {
        sqlx::query(
            "INSERT INTO event_sides (event_id, user_id, side, assigned_at) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (event_id, user_id) DO UPDATE SET side = $3, assigned_at = $4",
        )
        .bind(event_id)
        .bind(user_id)
        .bind(*side)
        .bind(now)
        .execute(&mut *conn)
        .await?;
    }
    sqlx::query("UPDATE event_side_sets SET version = version + 1, updated_at = $2 WHERE event_id = $1")
        .bind(event_id)
        .bind(now)
        .execute(&mut *conn)
        .await?;
    bumped_version(conn, event_id).await
}

async fn bumped_version(conn: &mut AnyConnection, event_id: &str) -> Result<i64, sqlx::Error> {
    let (version,): (i64,) = sqlx::query_as("SELECT version FROM event_side_sets WHERE event_id = $1")
        .bind(event_id)
        .fetch_one(&mut *conn)
        .await?;
    Ok(version)
}

/// Pairs of people who were on the same side in the series' last four
/// weeks before this event, with how many of those weeks (`a < b`).
pub async fn recent_teammates<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    series_id: &str,
    before: i64,
) -> Result<Vec<(String, String, i64)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT a.user_id, b.user_id, COUNT(*) FROM event_sides a \
         JOIN event_sides b ON b.event_id = a.event_id AND b.side = a.side AND a.user_id < b.user_id \
         WHERE a.event_id IN (SELECT id FROM events WHERE series_id = $1 AND start_date < $2 AND cancelled_at IS NULL \
                              ORDER BY start_date DESC LIMIT 4) \
         GROUP BY a.user_id, b.user_id",
    )
    .bind(series_id)
    .bind(before)
    .fetch_all(ex)
    .await
}

/// The side one person is on, if any.
pub async fn side_of<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    event_id: &str,
    user_id: &str,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT side FROM event_sides WHERE event_id = $1 AND user_id = $2")
        .bind(event_id)
        .bind(user_id)
        .fetch_optional(ex)
        .await
}
