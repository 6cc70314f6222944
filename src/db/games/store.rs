//! The rows of the per-game actors' store (`crate::store::games`): loading
//! a game's aggregate and writing a batch, opened by the optimistic version
//! check, in the lock order of the module docs.

use super::{get, lock_season};
use crate::db::command_results::insert_results;
use crate::db::events::DISPLAY_NAME;
use crate::db::{Backend, Db, dynamic, store_error as other};
use rinkside_actors::game::{
    EntryKind, GameEffects, GameState, GameStatus, LogEntry, Period, Player, RosterSide, StoredGame,
};
use rinkside_actors::{GameCommit, Position, StoreError};
use sqlx::{AnyConnection, FromRow};
use std::collections::BTreeSet;

// ---------------------------------------------------------------- loading the aggregate

#[derive(FromRow)]
struct PlayerLoadRow {
    roster_id: String,
    user_id: String,
    display_name: String,
    jersey_number: Option<i64>,
    position: Option<String>,
}

#[derive(FromRow)]
struct LogRow {
    seq: i64,
    #[sqlx(rename = "type")]
    kind: String,
    period: Option<String>,
    roster_id: Option<String>,
    player_id: Option<String>,
    assist1_id: Option<String>,
    assist2_id: Option<String>,
    minutes: Option<i64>,
    undoes: Option<i64>,
    effects: String,
    created_by_id: Option<String>,
    created_at: i64,
    undone_at: Option<i64>,
}

fn period_of(text: Option<&str>) -> Result<Option<Period>, StoreError> {
    text.map(Period::parse).transpose().map_err(other)
}

/// A game's aggregate state: the row (read FIRST, so the rest is never
/// older than the version), both rosters with their players and lineups,
/// and the whole log. Also what snapshots use when no actor is live here.
pub async fn load_state(db: &Db, game_id: &str) -> Result<Option<GameState>, StoreError> {
    let Some(row) = get(&db.pool, game_id).await.map_err(other)? else {
        return Ok(None);
    };
    let names: Vec<(String, String)> = sqlx::query_as("SELECT id, name FROM rosters WHERE id IN ($1, $2)")
        .bind(&row.home_roster_id)
        .bind(&row.away_roster_id)
        .fetch_all(&db.pool)
        .await
        .map_err(other)?;
    let players: Vec<PlayerLoadRow> = sqlx::query_as(dynamic(format!(
        "SELECT p.roster_id, p.user_id, {DISPLAY_NAME} AS display_name, p.jersey_number, p.position \
         FROM roster_players p JOIN users u ON u.id = p.user_id WHERE p.roster_id IN ($1, $2) \
         ORDER BY (p.jersey_number IS NULL), p.jersey_number, p.joined_at, p.id"
    )))
    .bind(&row.home_roster_id)
    .bind(&row.away_roster_id)
    .fetch_all(&db.pool)
    .await
    .map_err(other)?;
    let lineups: Vec<(String, String)> =
        sqlx::query_as("SELECT roster_id, user_id FROM game_lineups WHERE game_id = $1 ORDER BY roster_id, user_id")
            .bind(game_id)
            .fetch_all(&db.pool)
            .await
            .map_err(other)?;
    let log: Vec<LogRow> = sqlx::query_as(
        "SELECT seq, type, period, roster_id, player_id, assist1_id, assist2_id, minutes, undoes, effects, created_by_id, \
           created_at, undone_at FROM game_log WHERE game_id = $1 ORDER BY seq",
    )
    .bind(game_id)
    .fetch_all(&db.pool)
    .await
    .map_err(other)?;

    let side = |roster_id: &str| -> Result<RosterSide, StoreError> {
        let mut roster_players = Vec::new();
        for p in players.iter().filter(|p| p.roster_id == roster_id) {
            roster_players.push(Player {
                user_id: p.user_id.clone(),
                display_name: p.display_name.clone(),
                jersey_number: p.jersey_number,
                position: p.position.as_deref().map(Position::parse).transpose().map_err(other)?,
            });
        }
        let dressed: Vec<String> = lineups.iter().filter(|(r, _)| r == roster_id).map(|(_, u)| u.clone()).collect();
        Ok(RosterSide {
            roster_id: roster_id.to_string(),
            name: names.iter().find(|(id, _)| id == roster_id).map(|(_, n)| n.clone()).unwrap_or_default(),
            players: roster_players,
            // No rows: nobody set a lineup, so every roster player dressed.
            lineup: if dressed.is_empty() { None } else { Some(dressed) },
        })
    };
    let mut entries = Vec::with_capacity(log.len());
    for e in log {
        let effects: GameEffects = serde_json::from_str(&e.effects).map_err(other)?;
        entries.push(LogEntry {
            seq: e.seq,
            kind: EntryKind::parse(&e.kind).map_err(other)?,
            period: period_of(e.period.as_deref())?,
            roster_id: e.roster_id,
            player_id: e.player_id,
            assist_ids: e.assist1_id.into_iter().chain(e.assist2_id).collect(),
            minutes: e.minutes,
            undoes: e.undoes,
            undone: e.undone_at.is_some(),
            created_by: e.created_by_id.unwrap_or_default(),
            created_at: e.created_at,
            effects,
        });
    }
    Ok(Some(GameState::new(StoredGame {
        game_id: row.id.clone(),
        season_id: Some(row.season_id.clone()),
        version: row.version,
        status: GameStatus::parse(&row.status).map_err(other)?,
        period: period_of(row.period.as_deref())?,
        home_score: row.home_score,
        away_score: row.away_score,
        home: side(&row.home_roster_id)?,
        away: side(&row.away_roster_id)?,
        log: entries,
    })))
}

// ---------------------------------------------------------------- committing a batch

/// What a game batch's rows touched, for the store above `db/` to tell
/// (`crate::store::games`).
pub struct GameWritten {
    /// The status before the batch, read when the batch may have started
    /// or ended the game.
    pub status_before: Option<String>,
    pub season_id: String,
    /// The version moved (the season's standings and schedule follow).
    pub changed: bool,
    /// Rosters whose players' or standings' rows changed.
    pub rosters: BTreeSet<String>,
}

/// Writes a game batch in `tx`, opened by the optimistic version check, in
/// the lock order of the module docs.
pub async fn write(
    tx: &mut AnyConnection,
    backend: Backend,
    c: &GameCommit,
    now: i64,
) -> Result<GameWritten, StoreError> {
    let before: Option<String> = if matches!(c.status, GameStatus::Live | GameStatus::Final) {
        sqlx::query_scalar("SELECT status FROM games WHERE id = $1")
            .bind(&c.game_id)
            .fetch_optional(&mut *tx)
            .await
            .map_err(other)?
    } else {
        None
    };
    let season_id: Option<String> = sqlx::query_scalar(
        "UPDATE games SET version = $3, status = $4, period = $5, home_score = $6, away_score = $7, updated_at = $8, \
           scheduled_at = COALESCE($9, scheduled_at) \
         WHERE id = $1 AND version = $2 RETURNING season_id",
    )
    .bind(&c.game_id)
    .bind(c.expected_version)
    .bind(c.new_version)
    .bind(c.status.as_str())
    .bind(c.period.map(Period::as_str))
    .bind(c.home_score)
    .bind(c.away_score)
    .bind(now)
    .bind(c.scheduled_at)
    .fetch_optional(&mut *tx)
    .await
    .map_err(other)?;
    let Some(season_id) = season_id else {
        let exists = get(&mut *tx, &c.game_id).await.map_err(other)?.is_some();
        return Err(if exists { StoreError::Conflict } else { StoreError::NotFound });
    };
    let changed = c.new_version != c.expected_version;
    if changed {
        lock_season(&mut *tx, &season_id).await.map_err(other)?;
    }
    // Rosters whose rows change: lock (and advance their `roster:ID` seq)
    // in id order before touching their players.
    let touched: BTreeSet<String> = c
        .player_deltas
        .iter()
        .map(|d| d.roster_id.clone())
        .chain(c.roster_deltas.iter().map(|d| d.roster_id.clone()))
        .collect();
    for roster_id in &touched {
        crate::db::rosters::bump(&mut *tx, roster_id).await.map_err(other)?;
    }
    for e in &c.entries {
        let effects = serde_json::to_string(&e.effects).map_err(other)?;
        sqlx::query(
            "INSERT INTO game_log (id, game_id, seq, type, period, roster_id, player_id, assist1_id, assist2_id, minutes, \
               undoes, effects, created_by_id, created_at, undone_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, NULL)",
        )
        .bind(crate::db::new_id())
        .bind(&c.game_id)
        .bind(e.seq)
        .bind(e.kind.as_str())
        .bind(e.period.map(Period::as_str))
        .bind(&e.roster_id)
        .bind(&e.player_id)
        .bind(e.assist_ids.first().map(String::as_str))
        .bind(e.assist_ids.get(1).map(String::as_str))
        .bind(e.minutes)
        .bind(e.undoes)
        .bind(effects)
        .bind(Some(e.created_by.as_str()).filter(|s| !s.is_empty()))
        .bind(e.created_at)
        .execute(&mut *tx)
        .await
        .map_err(other)?;
    }
    for seq in &c.undone {
        sqlx::query("UPDATE game_log SET undone_at = $3 WHERE game_id = $1 AND seq = $2 AND undone_at IS NULL")
            .bind(&c.game_id)
            .bind(seq)
            .bind(now)
            .execute(&mut *tx)
            .await
            .map_err(other)?;
    }
    // Counters never go below zero: a player removed from the roster and
    // added back starts again at zero, and an UNDO of an older entry must
    // not then break the CHECK and wedge the game.
    for d in &c.player_deltas {
        sqlx::query(
            "UPDATE roster_players SET \
               goals = CASE WHEN goals + $3 < 0 THEN 0 ELSE goals + $3 END, \
               assists = CASE WHEN assists + $4 < 0 THEN 0 ELSE assists + $4 END, \
               penalty_minutes = CASE WHEN penalty_minutes + $5 < 0 THEN 0 ELSE penalty_minutes + $5 END, \
               games_played = CASE WHEN games_played + $6 < 0 THEN 0 ELSE games_played + $6 END, \
               updated_at = $7 \
             WHERE roster_id = $1 AND user_id = $2",
        )
        .bind(&d.roster_id)
        .bind(&d.user_id)
        .bind(d.goals)
        .bind(d.assists)
        .bind(d.penalty_minutes)
        .bind(d.games_played)
        .bind(now)
        .execute(&mut *tx)
        .await
        .map_err(other)?;
    }
    for d in &c.roster_deltas {
        sqlx::query(
            "UPDATE rosters SET \
               wins = CASE WHEN wins + $2 < 0 THEN 0 ELSE wins + $2 END, \
               losses = CASE WHEN losses + $3 < 0 THEN 0 ELSE losses + $3 END, \
               ties = CASE WHEN ties + $4 < 0 THEN 0 ELSE ties + $4 END, \
               points = CASE WHEN points + $5 < 0 THEN 0 ELSE points + $5 END \
             WHERE id = $1",
        )
        .bind(&d.roster_id)
        .bind(d.wins)
        .bind(d.losses)
        .bind(d.ties)
        .bind(d.points)
        .execute(&mut *tx)
        .await
        .map_err(other)?;
    }
    for lineup in &c.lineups {
        sqlx::query("DELETE FROM game_lineups WHERE game_id = $1 AND roster_id = $2")
            .bind(&c.game_id)
            .bind(&lineup.roster_id)
            .execute(&mut *tx)
            .await
            .map_err(other)?;
        for user_id in &lineup.user_ids {
            // (game, user) is the key: someone on both rosters dresses for
            // the side whose lineup was set first.
            sqlx::query(
                "INSERT INTO game_lineups (game_id, roster_id, user_id) VALUES ($1, $2, $3) ON CONFLICT (game_id, user_id) DO NOTHING",
            )
            .bind(&c.game_id)
            .bind(&lineup.roster_id)
            .bind(user_id)
            .execute(&mut *tx)
            .await
            .map_err(other)?;
        }
    }
    insert_results(&mut *tx, backend, &c.results.iter().collect::<Vec<_>>(), now).await?;
    Ok(GameWritten { status_before: before, season_id, changed, rosters: touched })
}
