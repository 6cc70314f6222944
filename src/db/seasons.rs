//! Seasons of a facility and their division mappings.
//!
//! Edits follow one pattern: the first statement of the transaction touches
//! the row (`touch`), which takes its write lock on both backends (a row lock
//! on PostgreSQL, the database write lock on SQLite); the caller then reads,
//! merges and writes the whole row without racing another editor.

use super::{Cursor, flag, new_id, now_ms};
use rinkside_actors::game::{ClockMode, ClockSettings};
use sqlx::{Any, AnyConnection, Executor, FromRow};

#[derive(Debug, Clone, FromRow)]
pub struct SeasonRow {
    pub id: String,
    pub name: String,
    pub start_date: i64,
    pub end_date: i64,
    pub is_active: i64,
    pub facility_id: String,
    pub facility_name: String,
    pub sync_url: Option<String>,
    pub sync_enabled: i64,
    pub last_sync_at: Option<i64>,
    pub sync_next_at: Option<i64>,
    /// The newest sync run's report (JSON), if any.
    pub last_run: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
    pub period_minutes: i64,
    pub overtime_minutes: i64,
    pub clock_mode: String,
}

impl SeasonRow {
    /// The period lengths and clock mode its games play by.
    pub fn clock(&self) -> ClockSettings {
        ClockSettings {
            period_minutes: self.period_minutes,
            overtime_minutes: self.overtime_minutes,
            clock_mode: ClockMode::parse(&self.clock_mode).unwrap_or_default(),
        }
    }
}

const COLUMNS: &str = "s.id, s.name, s.start_date, s.end_date, s.is_active, s.facility_id, f.name AS facility_name, \
    s.sync_url, s.sync_enabled, s.last_sync_at, s.sync_next_at, \
    (SELECT r.report FROM sync_runs r WHERE r.season_id = s.id ORDER BY r.started_at DESC, r.id DESC LIMIT 1) \
      AS last_run, s.created_at, s.updated_at, s.period_minutes, s.overtime_minutes, s.clock_mode";

/// Turning sync on (or pointing it elsewhere) schedules the first sync a
/// minute later; the scheduler takes it from there (docs/sync.md).
pub const FIRST_SYNC_AFTER_MS: i64 = 60_000;

/// What a season is created with or replaced by (`is_active` has its own
/// guarded statements, because turning it on is a feed fact).
#[derive(Debug, Clone)]
pub struct SeasonFields {
    pub name: String,
    pub start_date: i64,
    pub end_date: i64,
    pub sync_url: Option<String>,
    pub sync_enabled: bool,
    pub clock: ClockSettings,
}

pub async fn insert(conn: &mut AnyConnection, facility_id: &str, f: &SeasonFields) -> Result<String, sqlx::Error> {
    let id = new_id();
    let now = now_ms();
    sqlx::query(
        "INSERT INTO seasons (id, name, start_date, end_date, is_active, facility_id, sync_url, sync_enabled, \
           sync_next_at, created_at, updated_at, period_minutes, overtime_minutes, clock_mode) \
         VALUES ($1, $2, $3, $4, 0, $5, $6, $7, CASE WHEN $7 = 1 AND $6 IS NOT NULL THEN $8 + $9 END, $8, $8, $10, $11, $12)",
    )
    .bind(&id)
    .bind(&f.name)
    .bind(f.start_date)
    .bind(f.end_date)
    .bind(facility_id)
    .bind(&f.sync_url)
    .bind(flag(f.sync_enabled))
    .bind(now)
    .bind(FIRST_SYNC_AFTER_MS)
    .bind(f.clock.period_minutes)
    .bind(f.clock.overtime_minutes)
    .bind(f.clock.clock_mode.as_str())
    .execute(&mut *conn)
    .await?;
    Ok(id)
}

pub async fn get<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<Option<SeasonRow>, sqlx::Error> {
    let sql = format!("SELECT {COLUMNS} FROM seasons s JOIN facilities f ON f.id = s.facility_id WHERE s.id = $1");
    sqlx::query_as(super::dynamic(sql)).bind(id).fetch_optional(ex).await
}

/// Locks the season for this transaction; false when it does not exist.
pub async fn touch(conn: &mut AnyConnection, id: &str) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("UPDATE seasons SET updated_at = $2 WHERE id = $1")
        .bind(id)
        .bind(now_ms())
        .execute(&mut *conn)
        .await?;
    Ok(done.rows_affected() > 0)
}

pub async fn replace(conn: &mut AnyConnection, id: &str, f: &SeasonFields) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE seasons SET name = $2, start_date = $3, end_date = $4, sync_url = $5, sync_enabled = $6, updated_at = $7, \
           sync_next_at = CASE WHEN $6 = 0 OR $5 IS NULL THEN NULL \
             WHEN sync_enabled = 1 AND sync_url = $5 AND sync_next_at IS NOT NULL THEN sync_next_at \
             ELSE $7 + $8 END, \
           period_minutes = $9, overtime_minutes = $10, clock_mode = $11 \
         WHERE id = $1",
    )
    .bind(id)
    .bind(&f.name)
    .bind(f.start_date)
    .bind(f.end_date)
    .bind(&f.sync_url)
    .bind(flag(f.sync_enabled))
    .bind(now_ms())
    .bind(FIRST_SYNC_AFTER_MS)
    .bind(f.clock.period_minutes)
    .bind(f.clock.overtime_minutes)
    .bind(f.clock.clock_mode.as_str())
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Turns the season on; true only for the statement that actually flipped
/// it (so concurrent activations record SEASON_STARTED once).
pub async fn activate(conn: &mut AnyConnection, id: &str) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("UPDATE seasons SET is_active = 1, updated_at = $2 WHERE id = $1 AND is_active = 0")
        .bind(id)
        .bind(now_ms())
        .execute(&mut *conn)
        .await?;
    Ok(done.rows_affected() > 0)
}

pub async fn deactivate(conn: &mut AnyConnection, id: &str) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE seasons SET is_active = 0, updated_at = $2 WHERE id = $1")
        .bind(id)
        .bind(now_ms())
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// A facility's seasons, latest start first, keyset on `(start_date, id)`.
pub async fn for_facility<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    facility_id: &str,
    before: Option<&Cursor>,
    limit: i64,
) -> Result<Vec<SeasonRow>, sqlx::Error> {
    let page_start = crate::db::keyset("s.start_date", "s.id", crate::db::Order::NewestFirst, 2);
    let sql = format!(
        "SELECT {COLUMNS} FROM seasons s JOIN facilities f ON f.id = s.facility_id \
         WHERE s.facility_id = $1 AND {page_start} \
         ORDER BY s.start_date DESC, s.id DESC LIMIT $5"
    );
    sqlx::query_as(super::dynamic(sql))
        .bind(facility_id)
        .bind(flag(before.is_some()))
        .bind(before.map(|c| c.at).unwrap_or(0))
        .bind(before.map(|c| c.id.clone()).unwrap_or_default())
        .bind(limit + 1)
        .fetch_all(ex)
        .await
}

// ---------------------------------------------------------------- division mappings

#[derive(Debug, Clone, FromRow)]
pub struct MappingRow {
    pub id: String,
    pub facility_division_name: String,
    pub universal_division_scale: String,
    pub description: Option<String>,
    pub season_id: String,
    pub created_at: i64,
    pub updated_at: i64,
}

const MAPPING_COLUMNS: &str =
    "id, facility_division_name, universal_division_scale, description, season_id, created_at, updated_at";

#[derive(Debug, Clone)]
pub struct MappingFields {
    pub facility_division_name: String,
    pub universal_division_scale: String,
    pub description: Option<String>,
}

pub async fn insert_mapping<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    season_id: &str,
    m: &MappingFields,
) -> Result<String, sqlx::Error> {
    let id = new_id();
    sqlx::query(
        "INSERT INTO division_mappings (id, facility_division_name, universal_division_scale, description, season_id, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $6)",
    )
    .bind(&id)
    .bind(&m.facility_division_name)
    .bind(&m.universal_division_scale)
    .bind(&m.description)
    .bind(season_id)
    .bind(now_ms())
    .execute(ex)
    .await?;
    Ok(id)
}

pub async fn get_mapping<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    id: &str,
) -> Result<Option<MappingRow>, sqlx::Error> {
    let sql = format!("SELECT {MAPPING_COLUMNS} FROM division_mappings WHERE id = $1");
    sqlx::query_as(super::dynamic(sql)).bind(id).fetch_optional(ex).await
}

/// A season's mappings, by name.
pub async fn mappings<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    season_id: &str,
) -> Result<Vec<MappingRow>, sqlx::Error> {
    let sql = format!(
        "SELECT {MAPPING_COLUMNS} FROM division_mappings WHERE season_id = $1 ORDER BY lower(facility_division_name), id"
    );
    sqlx::query_as(super::dynamic(sql)).bind(season_id).fetch_all(ex).await
}

/// Locks the mapping for this transaction; false when it does not exist.
pub async fn touch_mapping(conn: &mut AnyConnection, id: &str) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("UPDATE division_mappings SET updated_at = $2 WHERE id = $1")
        .bind(id)
        .bind(now_ms())
        .execute(&mut *conn)
        .await?;
    Ok(done.rows_affected() > 0)
}

pub async fn replace_mapping(conn: &mut AnyConnection, id: &str, m: &MappingFields) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE division_mappings SET facility_division_name = $2, universal_division_scale = $3, description = $4, updated_at = $5 \
         WHERE id = $1",
    )
    .bind(id)
    .bind(&m.facility_division_name)
    .bind(&m.universal_division_scale)
    .bind(&m.description)
    .bind(now_ms())
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Deletes a mapping; rosters that used it lose their division (the
/// schema's ON DELETE SET NULL). True when one was deleted.
pub async fn delete_mapping<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("DELETE FROM division_mappings WHERE id = $1").bind(id).execute(ex).await?;
    Ok(done.rows_affected() > 0)
}
