//! Games, score keepers and who may do what to a game; the season read
//! models built from games are in [`season`], the rows the per-game
//! actors' store (`crate::store::games`) reads and writes in [`store`].
//!
//! The `season:ID` seq is derived from the season's games (see
//! `crate::live::season`). Every write that moves a game's version (an
//! actor commit, a new game) first takes the season row's write lock
//! ([`lock_season`], a no-op UPDATE), so two writes of one season are
//! serialised and each adds to the seq.
//!
//! Lock order in every game write: the game row, then the season row, then
//! the touched rosters in id order (roster writes elsewhere lock the roster
//! first and never a game or season after it), so nothing deadlocks.

use super::events::DISPLAY_NAME;
use super::{dynamic, now_ms};
use rinkside_actors::game::{ClockMode, GameSettings};
use serde::Serialize;
use sqlx::{Any, AnyConnection, Executor, FromRow};

pub mod season;
pub mod store;

pub use store::load_state;

// ---------------------------------------------------------------- games

#[derive(Debug, Clone, FromRow)]
pub struct GameRow {
    pub id: String,
    pub home_roster_id: String,
    pub away_roster_id: String,
    pub season_id: String,
    pub scheduled_at: i64,
    pub home_score: i64,
    pub away_score: i64,
    pub status: String,
    pub period: Option<String>,
    pub version: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

const GAME_COLUMNS: &str = "id, home_roster_id, away_roster_id, season_id, scheduled_at, home_score, away_score, status, \
    period, version, created_at, updated_at";

pub async fn get<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<Option<GameRow>, sqlx::Error> {
    sqlx::query_as(dynamic(format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1"))).bind(id).fetch_optional(ex).await
}

/// The committed version of a game (`None`: no such game).
pub async fn version<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar("SELECT version FROM games WHERE id = $1").bind(id).fetch_optional(ex).await
}

/// Inserts a SCHEDULED game at version 0, `[home, away]`, with its own
/// clock settings (`None`s: the season's).
pub async fn insert(
    conn: &mut AnyConnection,
    id: &str,
    season_id: &str,
    [home_roster_id, away_roster_id]: [&str; 2],
    scheduled_at: i64,
    own: GameSettings,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO games (id, home_roster_id, away_roster_id, season_id, scheduled_at, home_score, away_score, status, \
           period, version, created_at, updated_at, period_minutes, overtime_minutes, clock_mode) \
         VALUES ($1, $2, $3, $4, $5, 0, 0, 'SCHEDULED', NULL, 0, $6, $6, $7, $8, $9)",
    )
    .bind(id)
    .bind(home_roster_id)
    .bind(away_roster_id)
    .bind(season_id)
    .bind(scheduled_at)
    .bind(now_ms())
    .bind(own.period_minutes)
    .bind(own.overtime_minutes)
    .bind(own.clock_mode.map(ClockMode::as_str))
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Takes the season row's write lock for the rest of the transaction (a
/// no-op UPDATE: nothing changes, but concurrent game writes of the same
/// season queue here). False when the season does not exist.
pub async fn lock_season(conn: &mut AnyConnection, season_id: &str) -> Result<bool, sqlx::Error> {
    let r = sqlx::query("UPDATE seasons SET updated_at = updated_at WHERE id = $1")
        .bind(season_id)
        .execute(&mut *conn)
        .await?;
    Ok(r.rows_affected() > 0)
}

/// Where a roster plays: its season and team, and its name.
#[derive(Debug, Clone, FromRow)]
pub struct RosterPlace {
    pub id: String,
    pub name: String,
    pub season_id: String,
    pub team_id: String,
}

pub async fn roster_place<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    roster_id: &str,
) -> Result<Option<RosterPlace>, sqlx::Error> {
    sqlx::query_as("SELECT id, name, season_id, team_id FROM rosters WHERE id = $1")
        .bind(roster_id)
        .fetch_optional(ex)
        .await
}

// ---------------------------------------------------------------- score keepers

pub async fn add_scorekeeper<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    game_id: &str,
    user_id: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO game_scorekeepers (game_id, user_id, created_at) VALUES ($1, $2, $3) ON CONFLICT (game_id, user_id) DO NOTHING",
    )
    .bind(game_id)
    .bind(user_id)
    .bind(now_ms())
    .execute(ex)
    .await?;
    Ok(())
}

pub async fn remove_scorekeeper<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    game_id: &str,
    user_id: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM game_scorekeepers WHERE game_id = $1 AND user_id = $2")
        .bind(game_id)
        .bind(user_id)
        .execute(ex)
        .await?;
    Ok(())
}

#[derive(Debug, Clone, FromRow, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Scorekeeper {
    pub user_id: String,
    pub display_name: String,
}

pub async fn scorekeepers<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    game_id: &str,
) -> Result<Vec<Scorekeeper>, sqlx::Error> {
    sqlx::query_as(dynamic(format!(
        "SELECT k.user_id, {DISPLAY_NAME} AS display_name FROM game_scorekeepers k JOIN users u ON u.id = k.user_id \
         WHERE k.game_id = $1 ORDER BY k.created_at, k.user_id"
    )))
    .bind(game_id)
    .fetch_all(ex)
    .await
}
