//! Rosters, their players and join requests.
//!
//! Every change to a roster, its players or its requests starts with
//! [`bump`]: it advances `rosters.updated_at` to `max(updated_at + 1, now)`
//! and so (a) takes the roster's write lock for the transaction on both
//! backends — concurrent writers of one roster queue up, and the capacity,
//! jersey and captain checks that follow see every earlier commit — and (b)
//! gives the roster a strictly increasing number that is the `seq` of its
//! `roster:ID` topic. No extra column: the seq is the roster's own update
//! time, nudged forward by one millisecond when two changes share a tick.

use super::users::{SUMMARY_COLUMNS, UserSummaryRow};
use super::{Cursor, flag, new_id, now_ms};
use sqlx::{Any, AnyConnection, Executor, FromRow};

/// A roster with the names of what it belongs to, for lists and pages.
#[derive(Debug, Clone, FromRow)]
pub struct RosterRow {
    pub id: String,
    pub name: String,
    pub description: Option<String>,
    pub team_id: String,
    pub team_name: String,
    pub season_id: String,
    pub season_name: String,
    pub season_start_date: i64,
    pub season_is_active: i64,
    pub facility_id: String,
    pub facility_name: String,
    pub status: String,
    pub division_mapping_id: Option<String>,
    pub division_name: Option<String>,
    pub division_scale: Option<String>,
    pub max_members: Option<i64>,
    pub member_count: i64,
    pub wins: i64,
    pub losses: i64,
    pub ties: i64,
    pub points: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

const SELECT: &str = "SELECT r.id, r.name, r.description, r.team_id, t.name AS team_name, r.season_id, s.name AS season_name, \
      s.start_date AS season_start_date, s.is_active AS season_is_active, s.facility_id, f.name AS facility_name, \
      r.status, r.division_mapping_id, dm.facility_division_name AS division_name, dm.universal_division_scale AS division_scale, \
      r.max_members, (SELECT COUNT(*) FROM roster_players rp WHERE rp.roster_id = r.id) AS member_count, \
      r.wins, r.losses, r.ties, r.points, r.created_at, r.updated_at \
    FROM rosters r JOIN teams t ON t.id = r.team_id JOIN seasons s ON s.id = r.season_id \
      JOIN facilities f ON f.id = s.facility_id LEFT JOIN division_mappings dm ON dm.id = r.division_mapping_id";

/// The editable fields of a roster (wins, losses, ties and points are the
/// games' business and never written here).
#[derive(Debug, Clone)]
pub struct RosterFields {
    pub name: String,
    pub description: Option<String>,
    pub status: String,
    pub division_mapping_id: Option<String>,
    pub max_members: Option<i64>,
}

pub async fn insert<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    team_id: &str,
    season_id: &str,
    f: &RosterFields,
) -> Result<String, sqlx::Error> {
    let id = new_id();
    sqlx::query(
        "INSERT INTO rosters (id, name, description, team_id, season_id, status, division_mapping_id, max_members, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)",
    )
    .bind(&id)
    .bind(&f.name)
    .bind(&f.description)
    .bind(team_id)
    .bind(season_id)
    .bind(&f.status)
    .bind(&f.division_mapping_id)
    .bind(f.max_members)
    .bind(now_ms())
    .execute(ex)
    .await?;
    Ok(id)
}

pub async fn get<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<Option<RosterRow>, sqlx::Error> {
    sqlx::query_as(super::dynamic(format!("{SELECT} WHERE r.id = $1"))).bind(id).fetch_optional(ex).await
}

/// The roster's current seq (its `updated_at`).
pub async fn seq<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar("SELECT updated_at FROM rosters WHERE id = $1").bind(id).fetch_optional(ex).await
}

/// Rosters of a team and/or a season, latest season first, keyset on
/// `(season start, roster id)`.
pub async fn list<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    team_id: Option<&str>,
    season_id: Option<&str>,
    before: Option<&Cursor>,
    limit: i64,
) -> Result<Vec<RosterRow>, sqlx::Error> {
    let sql = format!(
        "{SELECT} WHERE ($1 = 0 OR r.team_id = $2) AND ($3 = 0 OR r.season_id = $4) \
           AND ($5 = 0 OR s.start_date < $6 OR (s.start_date = $6 AND r.id < $7)) \
         ORDER BY s.start_date DESC, r.id DESC LIMIT $8"
    );
    sqlx::query_as(super::dynamic(sql))
        .bind(flag(team_id.is_some()))
        .bind(team_id.unwrap_or_default())
        .bind(flag(season_id.is_some()))
        .bind(season_id.unwrap_or_default())
        .bind(flag(before.is_some()))
        .bind(before.map(|c| c.at).unwrap_or(0))
        .bind(before.map(|c| c.id.clone()).unwrap_or_default())
        .bind(limit + 1)
        .fetch_all(ex)
        .await
}

/// The roster as locked by [`bump`].
#[derive(Debug, Clone, FromRow)]
pub struct Locked {
    pub team_id: String,
    pub season_id: String,
    pub status: String,
    pub max_members: Option<i64>,
    /// The new seq.
    pub updated_at: i64,
}

/// Locks the roster for this transaction and advances its seq; None when it
/// does not exist. Must be the transaction's first statement.
pub async fn bump(conn: &mut AnyConnection, id: &str) -> Result<Option<Locked>, sqlx::Error> {
    sqlx::query_as(
        "UPDATE rosters SET updated_at = CASE WHEN updated_at + 1 > $2 THEN updated_at + 1 ELSE $2 END WHERE id = $1 \
         RETURNING team_id, season_id, status, max_members, updated_at",
    )
    .bind(id)
    .bind(now_ms())
    .fetch_optional(&mut *conn)
    .await
}

/// Writes the editable fields (after [`bump`]; leaves `updated_at` alone).
pub async fn replace(conn: &mut AnyConnection, id: &str, f: &RosterFields) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE rosters SET name = $2, description = $3, status = $4, division_mapping_id = $5, max_members = $6 WHERE id = $1",
    )
    .bind(id)
    .bind(&f.name)
    .bind(&f.description)
    .bind(&f.status)
    .bind(&f.division_mapping_id)
    .bind(f.max_members)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Rosters placed in a division mapping (their page changes with it).
pub async fn using_mapping<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    mapping_id: &str,
) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT id FROM rosters WHERE division_mapping_id = $1 ORDER BY id")
        .bind(mapping_id)
        .fetch_all(ex)
        .await
}

// ---------------------------------------------------------------- players

#[derive(Debug, Clone, FromRow)]
pub struct PlayerRow {
    pub id: String,
    pub roster_id: String,
    pub user_id: String,
    pub jersey_number: Option<i64>,
    pub position: Option<String>,
    pub commitment_level: String,
    pub captain: i64,
    pub alternate_captain: i64,
    pub goals: i64,
    pub assists: i64,
    pub penalty_minutes: i64,
    pub games_played: i64,
    pub joined_at: i64,
    pub created_at: i64,
    pub updated_at: i64,
    #[sqlx(flatten)]
    pub user: UserSummaryRow,
}

fn select_players(where_clause: &str) -> String {
    format!(
        "SELECT p.id, p.roster_id, p.user_id, p.jersey_number, p.position, p.commitment_level, p.captain, p.alternate_captain, \
           p.goals, p.assists, p.penalty_minutes, p.games_played, p.joined_at, p.created_at, p.updated_at, {SUMMARY_COLUMNS} \
         FROM roster_players p JOIN users u ON u.id = p.user_id {where_clause}"
    )
}

/// A roster's players: by jersey number (none last), then by who joined first.
pub async fn players<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    roster_id: &str,
) -> Result<Vec<PlayerRow>, sqlx::Error> {
    let sql =
        select_players("WHERE p.roster_id = $1 ORDER BY (p.jersey_number IS NULL), p.jersey_number, p.joined_at, p.id");
    sqlx::query_as(super::dynamic(sql)).bind(roster_id).fetch_all(ex).await
}

pub async fn player<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    roster_id: &str,
    user_id: &str,
) -> Result<Option<PlayerRow>, sqlx::Error> {
    let sql = select_players("WHERE p.roster_id = $1 AND p.user_id = $2");
    sqlx::query_as(super::dynamic(sql)).bind(roster_id).bind(user_id).fetch_optional(ex).await
}

/// The fields a manager sets on a player (stats are the games' business).
#[derive(Debug, Clone)]
pub struct PlayerFields {
    pub jersey_number: Option<i64>,
    pub position: Option<String>,
    pub commitment_level: String,
    pub captain: bool,
    pub alternate_captain: bool,
}

/// What the roster's other players already hold, to check a change against.
#[derive(Debug, Clone, Default)]
pub struct Holders {
    pub members: i64,
    /// Jersey number → user id.
    pub jerseys: Vec<(i64, String)>,
    pub captain: Option<String>,
    pub alternates: Vec<String>,
}

pub async fn holders(conn: &mut AnyConnection, roster_id: &str) -> Result<Holders, sqlx::Error> {
    let rows: Vec<(String, Option<i64>, i64, i64)> = sqlx::query_as(
        "SELECT user_id, jersey_number, captain, alternate_captain FROM roster_players WHERE roster_id = $1",
    )
    .bind(roster_id)
    .fetch_all(&mut *conn)
    .await?;
    let mut h = Holders { members: i64::try_from(rows.len()).unwrap_or(i64::MAX), ..Holders::default() };
    for (user_id, jersey, captain, alternate) in rows {
        if let Some(n) = jersey {
            h.jerseys.push((n, user_id.clone()));
        }
        if captain != 0 {
            h.captain = Some(user_id.clone());
        }
        if alternate != 0 {
            h.alternates.push(user_id);
        }
    }
    Ok(h)
}

pub async fn insert_player(
    conn: &mut AnyConnection,
    roster_id: &str,
    user_id: &str,
    f: &PlayerFields,
) -> Result<String, sqlx::Error> {
    let id = new_id();
    let now = now_ms();
    sqlx::query(
        "INSERT INTO roster_players (id, roster_id, user_id, jersey_number, position, commitment_level, captain, alternate_captain, \
           joined_at, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, $9)",
    )
    .bind(&id)
    .bind(roster_id)
    .bind(user_id)
    .bind(f.jersey_number)
    .bind(&f.position)
    .bind(&f.commitment_level)
    .bind(flag(f.captain))
    .bind(flag(f.alternate_captain))
    .bind(now)
    .execute(&mut *conn)
    .await?;
    Ok(id)
}

pub async fn replace_player(
    conn: &mut AnyConnection,
    roster_id: &str,
    user_id: &str,
    f: &PlayerFields,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE roster_players SET jersey_number = $3, position = $4, commitment_level = $5, captain = $6, alternate_captain = $7, \
           updated_at = $8 WHERE roster_id = $1 AND user_id = $2",
    )
    .bind(roster_id)
    .bind(user_id)
    .bind(f.jersey_number)
    .bind(&f.position)
    .bind(&f.commitment_level)
    .bind(flag(f.captain))
    .bind(flag(f.alternate_captain))
    .bind(now_ms())
    .execute(&mut *conn)
    .await?;
    Ok(())
}

pub async fn delete_player(conn: &mut AnyConnection, roster_id: &str, user_id: &str) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("DELETE FROM roster_players WHERE roster_id = $1 AND user_id = $2")
        .bind(roster_id)
        .bind(user_id)
        .execute(&mut *conn)
        .await?;
    Ok(done.rows_affected() > 0)
}

// ---------------------------------------------------------------- join requests

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
    sqlx::query_as(super::dynamic(select_requests("WHERE q.id = $1"))).bind(id).fetch_optional(ex).await
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
    let sql = select_requests(&format!(
        "WHERE {column} = $1 AND ($2 = 0 OR q.status = $3) \
           AND ($4 = 0 OR q.created_at < $5 OR (q.created_at = $5 AND q.id < $6)) \
         ORDER BY q.created_at DESC, q.id DESC LIMIT $7"
    ));
    sqlx::query_as(super::dynamic(sql))
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

/// Locks and bumps several rosters (in id order, so two such writers never
/// wait on each other crosswise); returns the ones that exist.
pub async fn bump_all(conn: &mut AnyConnection, ids: &[String]) -> Result<Vec<String>, sqlx::Error> {
    let mut ids = ids.to_vec();
    ids.sort();
    let mut out = Vec::with_capacity(ids.len());
    for id in ids {
        if bump(&mut *conn, &id).await?.is_some() {
            out.push(id);
        }
    }
    Ok(out)
}
