//! The rows of the per-game actors' store (`crate::store::games`): loading
//! a game's aggregate and writing a batch, opened by the optimistic version
//! check, in the lock order of the module docs.

use super::{get, lock_season};
use crate::db::command_results::insert_results;
use crate::db::events::DISPLAY_NAME;
use crate::db::{Backend, Db, dynamic, store_error as other};
use rinkside_actors::game::{
    Clock, ClockMode, ClockSettings, EntryKind, GameEffects, GameSettings, GameState, GameStatus, LogEntry,
    PenaltyKind, Period, Player, RosterSide, StoredGame, Strength,
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
    clock_ms: Option<i64>,
    penalty: Option<String>,
    strength: Option<String>,
    empty_net: i64,
    releases: Option<i64>,
}

/// A game's settings and clock, beside its season's settings.
#[derive(FromRow)]
struct ClockRow {
    period_minutes: Option<i64>,
    overtime_minutes: Option<i64>,
    clock_mode: Option<String>,
    clock: Option<String>,
    season_period_minutes: i64,
    season_overtime_minutes: i64,
    season_clock_mode: String,
}

impl ClockRow {
    fn season(&self) -> Result<ClockSettings, StoreError> {
        Ok(ClockSettings {
            period_minutes: self.season_period_minutes,
            overtime_minutes: self.season_overtime_minutes,
            clock_mode: ClockMode::parse(&self.season_clock_mode).map_err(other)?,
        })
    }

    fn own(&self) -> Result<GameSettings, StoreError> {
        Ok(GameSettings {
            period_minutes: self.period_minutes,
            overtime_minutes: self.overtime_minutes,
            clock_mode: self.clock_mode.as_deref().map(ClockMode::parse).transpose().map_err(other)?,
        })
    }
}

/// The RosterPlayer counters a `PlayerDelta` adds to, in
/// `PlayerDelta::counters` order.
const PLAYER_COUNTERS: [&str; 12] = [
    "goals",
    "assists",
    "penalty_minutes",
    "games_played",
    "pp_goals",
    "sh_goals",
    "minor_pim",
    "major_pim",
    "misconduct_pim",
    "shots_against",
    "goals_against",
    "goalie_ms",
];

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
    let clock: ClockRow = sqlx::query_as(
        "SELECT g.period_minutes, g.overtime_minutes, g.clock_mode, g.clock, s.period_minutes AS season_period_minutes, \
           s.overtime_minutes AS season_overtime_minutes, s.clock_mode AS season_clock_mode \
         FROM games g JOIN seasons s ON s.id = g.season_id WHERE g.id = $1",
    )
    .bind(game_id)
    .fetch_one(&db.pool)
    .await
    .map_err(other)?;
    let log: Vec<LogRow> = sqlx::query_as(
        "SELECT seq, type, period, roster_id, player_id, assist1_id, assist2_id, minutes, undoes, effects, created_by_id, \
           created_at, undone_at, clock_ms, penalty, strength, empty_net, releases \
         FROM game_log WHERE game_id = $1 ORDER BY seq",
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
    let entries = log.into_iter().map(LogRow::entry).collect::<Result<Vec<_>, _>>()?;
    let (season_settings, own_settings) = (clock.season()?, clock.own()?);
    let clock = match clock.clock.as_deref() {
        Some(json) => serde_json::from_str(json).map_err(other)?,
        // Not started: the first period, stopped.
        None => own_settings.over(season_settings).fresh(Period::First, 0),
    };
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
        season_settings,
        own_settings,
        clock,
    })))
}

impl LogRow {
    /// The log entry a stored row is (a value the actors do not know is an
    /// error: the game is not loaded rather than loaded wrong).
    fn entry(self) -> Result<LogEntry, StoreError> {
        let e = self;
        let effects: GameEffects = serde_json::from_str(&e.effects).map_err(other)?;
        Ok(LogEntry {
            seq: e.seq,
            kind: EntryKind::parse(&e.kind).map_err(other)?,
            period: period_of(e.period.as_deref())?,
            roster_id: e.roster_id,
            player_id: e.player_id,
            assist_ids: e.assist1_id.into_iter().chain(e.assist2_id).collect(),
            minutes: e.minutes,
            clock_ms: e.clock_ms,
            penalty: e.penalty.as_deref().map(PenaltyKind::parse).transpose().map_err(other)?,
            strength: e.strength.as_deref().map(Strength::parse).transpose().map_err(other)?,
            empty_net: e.empty_net != 0,
            releases: e.releases,
            undoes: e.undoes,
            undone: e.undone_at.is_some(),
            created_by: e.created_by_id.unwrap_or_default(),
            created_at: e.created_at,
            effects,
            version: 0,
        })
    }
}

// ---------------------------------------------------------------- committing a batch

/// The clock as stored: NULL until the game has started.
fn clock_json(clock: &Clock, status: GameStatus) -> Result<Option<String>, StoreError> {
    match status {
        GameStatus::Scheduled | GameStatus::Postponed | GameStatus::Cancelled => Ok(None),
        GameStatus::Live | GameStatus::Final => serde_json::to_string(clock).map(Some).map_err(other),
    }
}

/// Adds a `PlayerDelta`'s counters (`$4…`) to one roster player
/// (`$1`, `$2`; `$3` the time). Counters never go below zero: a player
/// removed from the roster and added back starts again at zero, and an
/// UNDO of an older entry must not then break the CHECK and wedge the game.
fn player_counters_update() -> String {
    let sets: Vec<String> = PLAYER_COUNTERS
        .iter()
        .enumerate()
        .map(|(i, c)| format!("{c} = CASE WHEN {c} + ${n} < 0 THEN 0 ELSE {c} + ${n} END", n = i + 4))
        .collect();
    format!("UPDATE roster_players SET {}, updated_at = $3 WHERE roster_id = $1 AND user_id = $2", sets.join(", "))
}

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
    let season_id = update_game_row(&mut *tx, c, now).await?;
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
    insert_entries(&mut *tx, c, now).await?;
    add_stats(&mut *tx, c, now).await?;
    replace_lineups(&mut *tx, c).await?;
    insert_results(&mut *tx, backend, &c.results.iter().collect::<Vec<_>>(), now).await?;
    Ok(GameWritten { status_before: before, season_id, changed, rosters: touched })
}

/// The version check: the game's row moves to the batch's state only from
/// the version the batch was decided on (a conflict when another node
/// moved it first, not found when it is gone); the batch's own settings
/// with it. The game's season.
async fn update_game_row(tx: &mut AnyConnection, c: &GameCommit, now: i64) -> Result<String, StoreError> {
    let season_id: Option<String> = sqlx::query_scalar(
        "UPDATE games SET version = $3, status = $4, period = $5, home_score = $6, away_score = $7, updated_at = $8, \
           scheduled_at = COALESCE($9, scheduled_at), clock = $10 \
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
    .bind(clock_json(&c.clock, c.status)?)
    .fetch_optional(&mut *tx)
    .await
    .map_err(other)?;
    let Some(season_id) = season_id else {
        let exists = get(&mut *tx, &c.game_id).await.map_err(other)?.is_some();
        return Err(if exists { StoreError::Conflict } else { StoreError::NotFound });
    };
    if let Some(settings) = &c.settings {
        sqlx::query("UPDATE games SET period_minutes = $2, overtime_minutes = $3, clock_mode = $4 WHERE id = $1")
            .bind(&c.game_id)
            .bind(settings.period_minutes)
            .bind(settings.overtime_minutes)
            .bind(settings.clock_mode.map(ClockMode::as_str))
            .execute(&mut *tx)
            .await
            .map_err(other)?;
    }
    Ok(season_id)
}

/// The batch's new log entries, and the entries it undid.
async fn insert_entries(tx: &mut AnyConnection, c: &GameCommit, now: i64) -> Result<(), StoreError> {
    for e in &c.entries {
        let effects = serde_json::to_string(&e.effects).map_err(other)?;
        sqlx::query(
            "INSERT INTO game_log (id, game_id, seq, type, period, roster_id, player_id, assist1_id, assist2_id, minutes, \
               undoes, effects, created_by_id, created_at, undone_at, clock_ms, penalty, strength, empty_net, releases) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, NULL, $15, $16, $17, $18, $19)",
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
        .bind(e.clock_ms)
        .bind(e.penalty.map(PenaltyKind::as_str))
        .bind(e.strength.map(Strength::as_str))
        .bind(crate::db::flag(e.empty_net))
        .bind(e.releases)
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
    Ok(())
}

/// The players' and rosters' stats, moved by the batch's deltas.
async fn add_stats(tx: &mut AnyConnection, c: &GameCommit, now: i64) -> Result<(), StoreError> {
    // Counters never go below zero: a player removed from the roster and
    // added back starts again at zero, and an UNDO of an older entry must
    // not then break the CHECK and wedge the game.
    let add_counters = player_counters_update();
    for d in &c.player_deltas {
        let mut query = sqlx::query(dynamic(add_counters.clone())).bind(&d.roster_id).bind(&d.user_id).bind(now);
        for n in d.counters() {
            query = query.bind(n);
        }
        query.execute(&mut *tx).await.map_err(other)?;
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
    Ok(())
}

/// The dressed lists the batch replaced.
async fn replace_lineups(tx: &mut AnyConnection, c: &GameCommit) -> Result<(), StoreError> {
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
    Ok(())
}
