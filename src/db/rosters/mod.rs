//! Rosters: their rows, lists and the roster lock. A roster's players are in
//! [`players`], its join requests in [`requests`].
//!
//! Every change to a roster, its players or its requests starts with
//! [`bump`]: it advances `rosters.updated_at` to `max(updated_at + 1, now)`
//! and so (a) takes the roster's write lock for the transaction on both
//! backends — concurrent writers of one roster queue up, and the capacity,
//! jersey and captain checks that follow see every earlier commit — and (b)
//! gives the roster a strictly increasing number that is the `seq` of its
//! `roster:ID` topic. No extra column: the seq is the roster's own update
//! time, nudged forward by one millisecond when two changes share a tick.

use super::{Cursor, flag, new_id, now_ms};
use sqlx::{Any, AnyConnection, Executor, FromRow};

pub mod players;
pub mod requests;

// The roster document (`crate::live::roster`) reads a roster's players and
// request states through these paths; the module and the function share the
// name `players` (a module and a function live in different namespaces).
pub use players::{PlayerRow, players};
pub use requests::request_states;

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
    let page_start = crate::db::keyset("s.start_date", "r.id", crate::db::Order::NewestFirst, 5);
    let sql = format!(
        "{SELECT} WHERE ($1 = 0 OR r.team_id = $2) AND ($3 = 0 OR r.season_id = $4) \
           AND {page_start} \
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
