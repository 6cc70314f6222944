//! Games, their log, score keepers and lineups; the season read models built
//! from them (standings, schedules, scoring leaders, a player's stats); and
//! the [`GameStore`] the per-game actors persist through: one transaction
//! per group-commit batch, opened by the optimistic version check.
//!
//! # The `season:ID` seq
//!
//! A season's document (standings + schedule) is a function of its games,
//! so its seq is derived from them: **the sum over the season's games of
//! `version + 1`**. Creating a game adds 1; every batch that changes a game
//! adds at least 1; versions never go down and games are never deleted
//! one by one (only with their season), so the number only grows.
//!
//! Strictly, not just weakly: every write that moves a game's version —
//! an actor commit, a reschedule, a new game — first takes the season row's
//! write lock ([`lock_season`], a no-op UPDATE) and computes the document
//! and its seq inside that transaction. Two such writes of one season are
//! therefore serialised, and the later one sees the earlier one's versions
//! plus its own increment. A snapshot read outside any transaction reads
//! the seq FIRST and the document after, so its content is never older than
//! its seq.
//!
//! Lock order in every game write: the game row, then the season row, then
//! the touched rosters in id order (roster writes elsewhere lock the roster
//! first and never a game or season after it), so nothing deadlocks.

use super::events::{DISPLAY_NAME, insert_results};
use super::{Db, dynamic, flag, now_ms, store_error as other};
use rinkside_actors::game::{
    EntryKind, GameEffects, GameState, GameStatus, LogEntry, Period, Player, RosterSide, StoredGame,
};
use rinkside_actors::{
    BoxFuture, CommitResult, GameCommit, GameStore, Position, Publication, ReplyStore, StoreError, StoredReply,
};
use serde::Serialize;
use sqlx::{Any, AnyConnection, Executor, FromRow};
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

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

/// Inserts a SCHEDULED game at version 0.
pub async fn insert(
    conn: &mut AnyConnection,
    id: &str,
    season_id: &str,
    home_roster_id: &str,
    away_roster_id: &str,
    scheduled_at: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO games (id, home_roster_id, away_roster_id, season_id, scheduled_at, home_score, away_score, status, \
           period, version, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, 0, 0, 'SCHEDULED', NULL, 0, $6, $6)",
    )
    .bind(id)
    .bind(home_roster_id)
    .bind(away_roster_id)
    .bind(season_id)
    .bind(scheduled_at)
    .bind(now_ms())
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Moves a game that has not started (SCHEDULED, POSTPONED or CANCELLED)
/// to a new time, bumping its version so the live actor (which does not
/// hold the time) reloads and pushes carry a new seq. Returns the season
/// and the new version; `None` when the game is missing or already LIVE or
/// FINAL (the caller tells them apart).
pub async fn reschedule(
    conn: &mut AnyConnection,
    id: &str,
    scheduled_at: i64,
) -> Result<Option<(String, i64)>, sqlx::Error> {
    sqlx::query_as(
        "UPDATE games SET scheduled_at = $2, version = version + 1, updated_at = $3 \
         WHERE id = $1 AND status IN ('SCHEDULED', 'POSTPONED', 'CANCELLED') RETURNING season_id, version",
    )
    .bind(id)
    .bind(scheduled_at)
    .bind(now_ms())
    .fetch_optional(&mut *conn)
    .await
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

/// Whether the user runs the league or one of the teams: owner or manager
/// of the season's facility, or of either roster's team.
pub async fn is_staff<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    season_id: &str,
    roster_ids: [&str; 2],
    user_id: &str,
) -> Result<bool, sqlx::Error> {
    let n: i64 = sqlx::query_scalar(
        "SELECT \
           (SELECT COUNT(*) FROM seasons s JOIN facilities f ON f.id = s.facility_id \
              WHERE s.id = $1 AND f.owner_id = $4) \
         + (SELECT COUNT(*) FROM seasons s JOIN facility_managers m ON m.facility_id = s.facility_id \
              WHERE s.id = $1 AND m.user_id = $4) \
         + (SELECT COUNT(*) FROM rosters r JOIN teams t ON t.id = r.team_id \
              WHERE r.id IN ($2, $3) AND t.owner_id = $4) \
         + (SELECT COUNT(*) FROM rosters r JOIN team_managers tm ON tm.team_id = r.team_id \
              WHERE r.id IN ($2, $3) AND tm.user_id = $4)",
    )
    .bind(season_id)
    .bind(roster_ids[0])
    .bind(roster_ids[1])
    .bind(user_id)
    .fetch_one(ex)
    .await?;
    Ok(n > 0)
}

/// How a user relates to a game, for its permission checks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GameRoles {
    /// Owner or manager of the season's facility or of either team.
    pub staff: bool,
    /// Assigned score keeper of this game.
    pub keeper: bool,
}

/// `None` when the game does not exist.
pub async fn roles<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    game_id: &str,
    user_id: &str,
) -> Result<Option<GameRoles>, sqlx::Error> {
    // One round trip: every scoring action asks this first.
    let row: Option<(i64, i64)> = sqlx::query_as(
        "SELECT \
           (SELECT COUNT(*) FROM seasons s JOIN facilities f ON f.id = s.facility_id \
              WHERE s.id = g.season_id AND f.owner_id = $2) \
         + (SELECT COUNT(*) FROM seasons s JOIN facility_managers m ON m.facility_id = s.facility_id \
              WHERE s.id = g.season_id AND m.user_id = $2) \
         + (SELECT COUNT(*) FROM rosters r JOIN teams t ON t.id = r.team_id \
              WHERE r.id IN (g.home_roster_id, g.away_roster_id) AND t.owner_id = $2) \
         + (SELECT COUNT(*) FROM rosters r JOIN team_managers tm ON tm.team_id = r.team_id \
              WHERE r.id IN (g.home_roster_id, g.away_roster_id) AND tm.user_id = $2) AS staff, \
           (SELECT COUNT(*) FROM game_scorekeepers k WHERE k.game_id = g.id AND k.user_id = $2) AS keeper \
         FROM games g WHERE g.id = $1",
    )
    .bind(game_id)
    .bind(user_id)
    .fetch_optional(ex)
    .await?;
    Ok(row.map(|(staff, keeper)| GameRoles { staff: staff > 0, keeper: keeper > 0 }))
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

/// Told the ids of rosters whose players' stats or standings columns a
/// commit changed (after it committed), so their `roster:ID` documents can
/// be pushed. Kept as a hook so this module needs nothing of the API layer.
pub type RostersChanged = Arc<dyn Fn(Vec<String>) + Send + Sync>;

/// The persistence of the per-game actors.
pub struct SqlGameStore {
    pub db: Db,
    pub rosters_changed: Option<RostersChanged>,
}

async fn commit_game(store: &SqlGameStore, c: GameCommit) -> Result<CommitResult, StoreError> {
    let now = now_ms();
    let mut tx = store.db.begin().await.map_err(other)?;
    let season_id: Option<String> = sqlx::query_scalar(
        "UPDATE games SET version = $3, status = $4, period = $5, home_score = $6, away_score = $7, updated_at = $8 \
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
    .fetch_optional(&mut *tx)
    .await
    .map_err(other)?;
    let Some(season_id) = season_id else {
        let exists = get(&mut *tx, &c.game_id).await.map_err(other)?.is_some();
        return Err(if exists { StoreError::Conflict } else { StoreError::NotFound });
    };
    let changed = c.new_version != c.expected_version;
    if changed {
        lock_season(&mut tx, &season_id).await.map_err(other)?;
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
        super::rosters::bump(&mut tx, roster_id).await.map_err(other)?;
    }
    for e in &c.entries {
        let effects = serde_json::to_string(&e.effects).map_err(other)?;
        sqlx::query(
            "INSERT INTO game_log (id, game_id, seq, type, period, roster_id, player_id, assist1_id, assist2_id, minutes, \
               undoes, effects, created_by_id, created_at, undone_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, NULL)",
        )
        .bind(super::new_id())
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
    insert_results(&mut tx, store.db.backend, &c.results.iter().collect::<Vec<_>>(), now).await?;
    let mut publications = Vec::new();
    if changed {
        let (seq, doc) = season_document(&mut tx, &season_id).await.map_err(other)?;
        publications.push(Publication {
            topic: format!("season:{season_id}"),
            seq,
            payload: serde_json::to_value(doc).map_err(other)?,
        });
    }
    tx.commit().await.map_err(other)?;
    if !touched.is_empty()
        && let Some(hook) = &store.rosters_changed
    {
        hook(touched.into_iter().collect());
    }
    Ok(CommitResult { publications })
}

impl ReplyStore for SqlGameStore {
    fn find_results(&self, keys: Vec<String>) -> BoxFuture<'_, Result<HashMap<String, StoredReply>, StoreError>> {
        Box::pin(super::events::find_results(&self.db, keys))
    }
}

impl GameStore for SqlGameStore {
    fn load(&self, game_id: String) -> BoxFuture<'_, Result<Option<GameState>, StoreError>> {
        Box::pin(async move { load_state(&self.db, &game_id).await })
    }

    fn commit(&self, commit: GameCommit) -> BoxFuture<'_, Result<CommitResult, StoreError>> {
        Box::pin(commit_game(self, commit))
    }
}

// ---------------------------------------------------------------- season read models

/// One line of a season's standings (CONTRACT.md).
#[derive(Debug, Clone, PartialEq, Eq, FromRow, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Standing {
    pub roster_id: String,
    pub name: String,
    /// Wins + losses + ties: FINAL games only.
    pub games_played: i64,
    pub wins: i64,
    pub losses: i64,
    pub ties: i64,
    pub points: i64,
    /// Over FINAL games.
    pub goals_for: i64,
    pub goals_against: i64,
}

/// Standings order (docs/standings.md): points, wins, goal difference,
/// goals for (all descending), then fewer games played, then name, then
/// roster id so the order is total.
pub fn sort_standings(rows: &mut [Standing]) {
    rows.sort_by(|a, b| {
        b.points
            .cmp(&a.points)
            .then(b.wins.cmp(&a.wins))
            .then((b.goals_for - b.goals_against).cmp(&(a.goals_for - a.goals_against)))
            .then(b.goals_for.cmp(&a.goals_for))
            .then(a.games_played.cmp(&b.games_played))
            .then(a.name.to_lowercase().cmp(&b.name.to_lowercase()))
            .then(a.roster_id.cmp(&b.roster_id))
    });
}

/// Every roster of the season with its record, in standings order.
pub async fn standings<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    season_id: &str,
) -> Result<Vec<Standing>, sqlx::Error> {
    let mut rows: Vec<Standing> = sqlx::query_as(
        "SELECT r.id AS roster_id, r.name, r.wins + r.losses + r.ties AS games_played, r.wins, r.losses, r.ties, r.points, \
           CAST(COALESCE((SELECT SUM(CASE WHEN g.home_roster_id = r.id THEN g.home_score ELSE g.away_score END) FROM games g \
             WHERE g.status = 'FINAL' AND (g.home_roster_id = r.id OR g.away_roster_id = r.id)), 0) AS BIGINT) AS goals_for, \
           CAST(COALESCE((SELECT SUM(CASE WHEN g.home_roster_id = r.id THEN g.away_score ELSE g.home_score END) FROM games g \
             WHERE g.status = 'FINAL' AND (g.home_roster_id = r.id OR g.away_roster_id = r.id)), 0) AS BIGINT) AS goals_against \
         FROM rosters r WHERE r.season_id = $1",
    )
    .bind(season_id)
    .fetch_all(ex)
    .await?;
    sort_standings(&mut rows);
    Ok(rows)
}

/// One game in a schedule.
#[derive(Debug, Clone, PartialEq, Eq, FromRow, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ScheduleEntry {
    pub id: String,
    pub season_id: String,
    pub season_name: String,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub scheduled_at: i64,
    /// SCHEDULED, LIVE, FINAL, POSTPONED or CANCELLED.
    pub status: String,
    /// "1", "2", "3", "OT", "SO" while live (and after), else null.
    pub period: Option<String>,
    pub home_roster_id: String,
    pub home_roster_name: String,
    pub home_team_id: String,
    pub away_roster_id: String,
    pub away_roster_name: String,
    pub away_team_id: String,
    pub home_score: i64,
    pub away_score: i64,
    /// The game's version (`game:ID` seq).
    pub version: i64,
}

const SCHEDULE_SELECT: &str = "SELECT g.id, g.season_id, s.name AS season_name, g.scheduled_at, g.status, g.period, \
      g.home_roster_id, hr.name AS home_roster_name, hr.team_id AS home_team_id, \
      g.away_roster_id, ar.name AS away_roster_name, ar.team_id AS away_team_id, g.home_score, g.away_score, g.version \
    FROM games g JOIN seasons s ON s.id = g.season_id JOIN rosters hr ON hr.id = g.home_roster_id \
      JOIN rosters ar ON ar.id = g.away_roster_id";

/// A season's games by time.
pub async fn season_schedule<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    season_id: &str,
) -> Result<Vec<ScheduleEntry>, sqlx::Error> {
    sqlx::query_as(dynamic(format!("{SCHEDULE_SELECT} WHERE g.season_id = $1 ORDER BY g.scheduled_at, g.id")))
        .bind(season_id)
        .fetch_all(ex)
        .await
}

/// A team's games (any of its rosters, home or away) by time, keyset-paged
/// after `(scheduled_at, id)`, optionally of one season.
pub async fn team_schedule<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    team_id: &str,
    season_id: Option<&str>,
    after: Option<&super::Cursor>,
    limit: i64,
) -> Result<Vec<ScheduleEntry>, sqlx::Error> {
    let sql = format!(
        "{SCHEDULE_SELECT} WHERE (hr.team_id = $1 OR ar.team_id = $1) AND ($2 = 0 OR g.season_id = $3) \
           AND ($4 = 0 OR g.scheduled_at > $5 OR (g.scheduled_at = $5 AND g.id > $6)) \
         ORDER BY g.scheduled_at, g.id LIMIT $7"
    );
    sqlx::query_as(dynamic(sql))
        .bind(team_id)
        .bind(flag(season_id.is_some()))
        .bind(season_id.unwrap_or_default())
        .bind(flag(after.is_some()))
        .bind(after.map(|c| c.at).unwrap_or(0))
        .bind(after.map(|c| c.id.clone()).unwrap_or_default())
        .bind(limit + 1)
        .fetch_all(ex)
        .await
}

/// The `season:ID` document: standings and schedule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SeasonDocument {
    pub season_id: String,
    /// The `season:ID` seq of this state (see the module docs).
    pub seq: i64,
    pub standings: Vec<Standing>,
    pub schedule: Vec<ScheduleEntry>,
}

/// The season topic's seq: Σ (version + 1) over the season's games.
pub async fn season_seq<'e, E: Executor<'e, Database = Any>>(ex: E, season_id: &str) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT CAST(COALESCE(SUM(version + 1), 0) AS BIGINT) FROM games WHERE season_id = $1")
        .bind(season_id)
        .fetch_one(ex)
        .await
}

/// The season document and its seq, read on one connection (inside a game
/// write's transaction, after [`lock_season`]).
pub async fn season_document(conn: &mut AnyConnection, season_id: &str) -> Result<(i64, SeasonDocument), sqlx::Error> {
    let seq = season_seq(&mut *conn, season_id).await?;
    let standings = standings(&mut *conn, season_id).await?;
    let schedule = season_schedule(&mut *conn, season_id).await?;
    Ok((seq, SeasonDocument { season_id: season_id.to_string(), seq, standings, schedule }))
}

/// The same for a snapshot, outside any transaction: the seq is read first,
/// so the content is never older than it.
pub async fn read_season_document(db: &Db, season_id: &str) -> Result<(i64, SeasonDocument), sqlx::Error> {
    let seq = season_seq(&db.pool, season_id).await?;
    let standings = standings(&db.pool, season_id).await?;
    let schedule = season_schedule(&db.pool, season_id).await?;
    Ok((seq, SeasonDocument { season_id: season_id.to_string(), seq, standings, schedule }))
}

pub async fn season_exists<'e, E: Executor<'e, Database = Any>>(ex: E, season_id: &str) -> Result<bool, sqlx::Error> {
    let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM seasons WHERE id = $1").bind(season_id).fetch_one(ex).await?;
    Ok(n > 0)
}

// ---------------------------------------------------------------- player statistics

/// One player's line in a season's scoring leaders.
#[derive(Debug, Clone, FromRow, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Leader {
    pub user_id: String,
    pub display_name: String,
    pub roster_id: String,
    pub roster_name: String,
    pub jersey_number: Option<i64>,
    pub goals: i64,
    pub assists: i64,
    /// Goals + assists.
    pub points: i64,
    pub penalty_minutes: i64,
    pub games_played: i64,
}

/// Scoring leaders: points, then goals, then fewer games played, then name.
pub async fn leaders<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    season_id: &str,
    limit: i64,
) -> Result<Vec<Leader>, sqlx::Error> {
    sqlx::query_as(dynamic(format!(
        "SELECT p.user_id, {DISPLAY_NAME} AS display_name, p.roster_id, r.name AS roster_name, p.jersey_number, p.goals, \
           p.assists, p.goals + p.assists AS points, p.penalty_minutes, p.games_played \
         FROM roster_players p JOIN rosters r ON r.id = p.roster_id JOIN users u ON u.id = p.user_id \
         WHERE r.season_id = $1 \
         ORDER BY points DESC, p.goals DESC, p.games_played, display_name, p.user_id LIMIT $2"
    )))
    .bind(season_id)
    .bind(limit)
    .fetch_all(ex)
    .await
}

/// A player's line on one roster.
#[derive(Debug, Clone, FromRow, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RosterStats {
    pub roster_id: String,
    pub roster_name: String,
    pub team_id: String,
    pub team_name: String,
    pub season_id: String,
    pub season_name: String,
    pub jersey_number: Option<i64>,
    pub position: Option<String>,
    pub goals: i64,
    pub assists: i64,
    pub points: i64,
    pub penalty_minutes: i64,
    pub games_played: i64,
}

/// A player's lines on every roster they are on, latest season first.
pub async fn player_stats<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    user_id: &str,
) -> Result<Vec<RosterStats>, sqlx::Error> {
    sqlx::query_as(
        "SELECT p.roster_id, r.name AS roster_name, r.team_id, t.name AS team_name, r.season_id, s.name AS season_name, \
           p.jersey_number, p.position, p.goals, p.assists, p.goals + p.assists AS points, p.penalty_minutes, p.games_played \
         FROM roster_players p JOIN rosters r ON r.id = p.roster_id JOIN teams t ON t.id = r.team_id \
           JOIN seasons s ON s.id = r.season_id \
         WHERE p.user_id = $1 ORDER BY s.start_date DESC, r.name, r.id",
    )
    .bind(user_id)
    .fetch_all(ex)
    .await
}

/// A user's display name (`None` when there is no such user).
pub async fn display_name<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    user_id: &str,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar(dynamic(format!("SELECT {DISPLAY_NAME} FROM users u WHERE u.id = $1")))
        .bind(user_id)
        .fetch_optional(ex)
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(name: &str, points: i64, wins: i64, gf: i64, ga: i64, gp: i64) -> Standing {
        Standing {
            roster_id: name.to_lowercase(),
            name: name.into(),
            games_played: gp,
            wins,
            losses: 0,
            ties: 0,
            points,
            goals_for: gf,
            goals_against: ga,
        }
    }

    #[test]
    fn standings_break_ties_by_wins_difference_goals_games_and_name() {
        let mut rows = vec![
            line("Zeta", 4, 2, 5, 5, 3),
            line("Alpha", 4, 2, 5, 5, 3),
            line("Fewer", 4, 2, 5, 5, 2),
            line("MoreGoals", 4, 2, 7, 7, 3),
            line("BetterDiff", 4, 2, 4, 1, 3),
            line("MoreWins", 4, 3, 1, 9, 5),
            line("Leader", 6, 1, 0, 0, 9),
        ];
        sort_standings(&mut rows);
        let order: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(order, ["Leader", "MoreWins", "BetterDiff", "MoreGoals", "Fewer", "Alpha", "Zeta"]);
    }
}
