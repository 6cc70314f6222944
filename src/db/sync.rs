//! What season sync stores: external rosters and games, the history of sync
//! runs, and each season's scheduling lease (docs/sync.md).
//!
//! Bulk writes go out in multi-row statements, chunked to the backend's
//! placeholder limit; every function that writes says how many statements
//! it ran, so a sync can report what it cost. (`INSERT … SELECT … FROM
//! (VALUES …) WHERE 1 = 1 ON CONFLICT`: SQLite needs the WHERE to tell the
//! upsert's ON from a join's.)

use super::{Backend, dynamic, flag, value_tuples};
use sqlx::{Any, AnyConnection, Executor, FromRow};

#[derive(Debug, Clone, PartialEq, Eq, FromRow)]
pub struct ExternalRosterRow {
    pub id: String,
    pub external_id: String,
    pub name: String,
    pub original_division: Option<String>,
    pub url: Option<String>,
    pub is_matched: i64,
    pub team_id: Option<String>,
    pub team_name: Option<String>,
    pub division_mapping_id: Option<String>,
    pub match_source: Option<String>,
    pub claimed_team_id: Option<String>,
    pub claimed_team_name: Option<String>,
    pub claimed_by: Option<String>,
    pub claimed_at: Option<i64>,
    pub facility_id: String,
    pub season_id: String,
}

const ROSTER_COLUMNS: &str = "r.id, r.external_id, r.name, r.original_division, r.url, r.is_matched, r.team_id, \
    t.name AS team_name, r.division_mapping_id, r.match_source, r.claimed_team_id, c.name AS claimed_team_name, \
    r.claimed_by, r.claimed_at, r.facility_id, r.season_id";
const ROSTER_FROM: &str =
    "external_rosters r LEFT JOIN teams t ON t.id = r.team_id LEFT JOIN teams c ON c.id = r.claimed_team_id";

#[derive(Debug, Clone, PartialEq, Eq, FromRow)]
pub struct ExternalGameRow {
    pub id: String,
    pub external_id: String,
    pub date_time: i64,
    pub end_time: Option<i64>,
    pub rink: Option<String>,
    pub division: Option<String>,
    pub home_goals: Option<i64>,
    pub away_goals: Option<i64>,
    pub game_type: Option<String>,
    pub home_roster_id: Option<String>,
    pub away_roster_id: Option<String>,
    pub home_name: String,
    pub away_name: String,
    pub event_id: Option<String>,
    pub removed_at: Option<i64>,
}

const GAME_COLUMNS: &str = "id, external_id, date_time, end_time, rink, division, home_goals, away_goals, game_type, \
    home_roster_id, away_roster_id, home_name, away_name, event_id, removed_at";

pub async fn rosters<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    season_id: &str,
) -> Result<Vec<ExternalRosterRow>, sqlx::Error> {
    let sql = format!("SELECT {ROSTER_COLUMNS} FROM {ROSTER_FROM} WHERE r.season_id = $1 ORDER BY r.name, r.id");
    sqlx::query_as(dynamic(sql)).bind(season_id).fetch_all(ex).await
}

pub async fn roster<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    id: &str,
) -> Result<Option<ExternalRosterRow>, sqlx::Error> {
    let sql = format!("SELECT {ROSTER_COLUMNS} FROM {ROSTER_FROM} WHERE r.id = $1");
    sqlx::query_as(dynamic(sql)).bind(id).fetch_optional(ex).await
}

pub async fn games<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    season_id: &str,
) -> Result<Vec<ExternalGameRow>, sqlx::Error> {
    let sql = format!("SELECT {GAME_COLUMNS} FROM external_games WHERE season_id = $1 ORDER BY date_time, id");
    sqlx::query_as(dynamic(sql)).bind(season_id).fetch_all(ex).await
}

/// Inserts or rewrites rosters (by id); returns the statements run.
pub async fn upsert_rosters(
    conn: &mut AnyConnection,
    backend: Backend,
    rows: &[ExternalRosterRow],
    now: i64,
) -> Result<u32, sqlx::Error> {
    const COLUMNS: usize = 11;
    let mut statements = 0;
    for chunk in rows.chunks(backend.rows_per_statement(COLUMNS + 1)) {
        let sql = format!(
            "INSERT INTO external_rosters (id, external_id, name, original_division, url, is_matched, team_id, \
               division_mapping_id, match_source, facility_id, season_id, created_at, updated_at) \
             SELECT v.column1, v.column2, v.column3, v.column4, v.column5, v.column6, v.column7, v.column8, \
               v.column9, v.column10, v.column11, ${now_at}, ${now_at} FROM (VALUES {}) AS v WHERE 1 = 1 \
             ON CONFLICT (id) DO UPDATE SET name = excluded.name, original_division = excluded.original_division, \
               url = excluded.url, is_matched = excluded.is_matched, team_id = excluded.team_id, \
               division_mapping_id = excluded.division_mapping_id, match_source = excluded.match_source, \
               updated_at = excluded.updated_at",
            value_tuples(chunk.len(), COLUMNS),
            now_at = chunk.len() * COLUMNS + 1,
        );
        let mut q = sqlx::query(dynamic(sql));
        for r in chunk {
            q = q
                .bind(&r.id)
                .bind(&r.external_id)
                .bind(&r.name)
                .bind(&r.original_division)
                .bind(&r.url)
                .bind(r.is_matched)
                .bind(&r.team_id)
                .bind(&r.division_mapping_id)
                .bind(&r.match_source)
                .bind(&r.facility_id)
                .bind(&r.season_id);
        }
        q.bind(now).execute(&mut *conn).await?;
        statements += 1;
    }
    Ok(statements)
}

/// Inserts or rewrites games (by id); returns the statements run.
pub async fn upsert_games(
    conn: &mut AnyConnection,
    backend: Backend,
    season_id: &str,
    rows: &[ExternalGameRow],
    now: i64,
) -> Result<u32, sqlx::Error> {
    const COLUMNS: usize = 15;
    let mut statements = 0;
    for chunk in rows.chunks(backend.rows_per_statement(COLUMNS + 2)) {
        let n = chunk.len() * COLUMNS;
        let sql = format!(
            "INSERT INTO external_games (id, external_id, date_time, end_time, rink, division, home_goals, \
               away_goals, game_type, home_roster_id, away_roster_id, home_name, away_name, event_id, removed_at, \
               season_id, created_at, updated_at) \
             SELECT v.column1, v.column2, v.column3, v.column4, v.column5, v.column6, v.column7, v.column8, \
               v.column9, v.column10, v.column11, v.column12, v.column13, v.column14, v.column15, ${season_at}, \
               ${now_at}, ${now_at} FROM (VALUES {}) AS v WHERE 1 = 1 \
             ON CONFLICT (id) DO UPDATE SET date_time = excluded.date_time, end_time = excluded.end_time, \
               rink = excluded.rink, division = excluded.division, home_goals = excluded.home_goals, \
               away_goals = excluded.away_goals, game_type = excluded.game_type, \
               home_roster_id = excluded.home_roster_id, away_roster_id = excluded.away_roster_id, \
               home_name = excluded.home_name, away_name = excluded.away_name, event_id = excluded.event_id, \
               removed_at = excluded.removed_at, updated_at = excluded.updated_at",
            value_tuples(chunk.len(), COLUMNS),
            season_at = n + 1,
            now_at = n + 2,
        );
        let mut q = sqlx::query(dynamic(sql));
        for g in chunk {
            q = q
                .bind(&g.id)
                .bind(&g.external_id)
                .bind(g.date_time)
                .bind(g.end_time)
                .bind(&g.rink)
                .bind(&g.division)
                .bind(g.home_goals)
                .bind(g.away_goals)
                .bind(&g.game_type)
                .bind(&g.home_roster_id)
                .bind(&g.away_roster_id)
                .bind(&g.home_name)
                .bind(&g.away_name)
                .bind(&g.event_id)
                .bind(g.removed_at);
        }
        q.bind(season_id).bind(now).execute(&mut *conn).await?;
        statements += 1;
    }
    Ok(statements)
}

/// A team that an external team of the season may be: one row per roster
/// of the team in the season (with its division's facility name), and the
/// teams based at the season's rink (division NULL).
#[derive(Debug, Clone, FromRow)]
pub struct CandidateRow {
    pub team_id: String,
    pub name: String,
    pub division: Option<String>,
}

pub async fn candidates<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    season_id: &str,
    facility_id: &str,
) -> Result<Vec<CandidateRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT t.id AS team_id, t.name, m.facility_division_name AS division \
         FROM rosters r JOIN teams t ON t.id = r.team_id \
         LEFT JOIN division_mappings m ON m.id = r.division_mapping_id \
         WHERE r.season_id = $1 \
         UNION \
         SELECT t.id AS team_id, t.name, NULL AS division FROM teams t WHERE t.facility_id = $2 \
         ORDER BY 2, 1",
    )
    .bind(season_id)
    .bind(facility_id)
    .fetch_all(ex)
    .await
}

/// A match made or undone by staff (`team_id` None unmatches); clears any
/// claim.
pub async fn set_match_by_hand(
    conn: &mut AnyConnection,
    id: &str,
    team_id: Option<&str>,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE external_rosters SET team_id = $2, is_matched = $3, match_source = 'MANUAL', \
           claimed_team_id = NULL, claimed_by = NULL, claimed_at = NULL, updated_at = $4 WHERE id = $1",
    )
    .bind(id)
    .bind(team_id)
    .bind(flag(team_id.is_some()))
    .bind(now)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// A team's owner or manager says this external team is theirs; `None`
/// withdraws or declines the claim.
pub async fn set_claim<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    id: &str,
    claim: Option<(&str, &str)>,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE external_rosters SET claimed_team_id = $2, claimed_by = $3, claimed_at = $4, updated_at = $5 \
         WHERE id = $1",
    )
    .bind(id)
    .bind(claim.map(|c| c.0))
    .bind(claim.map(|c| c.1))
    .bind(claim.map(|_| now))
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// One finished sync, kept as the season's history.
#[derive(Debug, Clone, FromRow)]
pub struct RunRow {
    pub id: String,
    pub season_id: String,
    pub trigger_kind: String,
    pub ok: i64,
    pub report: String,
    pub started_at: i64,
    pub finished_at: i64,
}

/// Runs kept per season; older ones are pruned when a run is recorded.
pub const RUNS_KEPT: i64 = 50;

pub async fn record_run(conn: &mut AnyConnection, run: &RunRow) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO sync_runs (id, season_id, trigger_kind, ok, report, started_at, finished_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(&run.id)
    .bind(&run.season_id)
    .bind(&run.trigger_kind)
    .bind(run.ok)
    .bind(&run.report)
    .bind(run.started_at)
    .bind(run.finished_at)
    .execute(&mut *conn)
    .await?;
    sqlx::query(
        "DELETE FROM sync_runs WHERE season_id = $1 AND id NOT IN \
           (SELECT id FROM sync_runs WHERE season_id = $1 ORDER BY started_at DESC, id DESC LIMIT $2)",
    )
    .bind(&run.season_id)
    .bind(RUNS_KEPT)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

pub async fn runs<'e, E: Executor<'e, Database = Any>>(ex: E, season_id: &str) -> Result<Vec<RunRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, season_id, trigger_kind, ok, report, started_at, finished_at FROM sync_runs \
         WHERE season_id = $1 ORDER BY started_at DESC, id DESC",
    )
    .bind(season_id)
    .fetch_all(ex)
    .await
}

/// Takes the season's sync lease for `owner` until `until`, if nobody holds
/// it (or theirs ran out). Only the caller whose UPDATE changed the row
/// runs the sync: one node at a time, on both backends. `due` also requires
/// the season to be enabled and due (the scheduler); a manual sync passes
/// false.
pub async fn take_lease<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    season_id: &str,
    owner: &str,
    now: i64,
    until: i64,
    due: bool,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE seasons SET sync_lease_until = $3, sync_lease_owner = $4 \
         WHERE id = $1 AND (sync_lease_until IS NULL OR sync_lease_until < $2) \
           AND ($5 = 0 OR (sync_enabled = 1 AND sync_url IS NOT NULL \
             AND (sync_next_at IS NULL OR sync_next_at <= $2)))",
    )
    .bind(season_id)
    .bind(now)
    .bind(until)
    .bind(owner)
    .bind(flag(due))
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Gives the lease back without touching the schedule (a rematch by hand).
pub async fn release_lease<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    season_id: &str,
    owner: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE seasons SET sync_lease_until = NULL, sync_lease_owner = NULL WHERE id = $1 AND sync_lease_owner = $2",
    )
    .bind(season_id)
    .bind(owner)
    .execute(ex)
    .await?;
    Ok(())
}

/// Seasons whose scheduled sync is due (the scheduler then races for each
/// one's lease).
pub async fn due<'e, E: Executor<'e, Database = Any>>(ex: E, now: i64, limit: i64) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT id FROM seasons WHERE sync_enabled = 1 AND sync_url IS NOT NULL \
           AND (sync_next_at IS NULL OR sync_next_at <= $1) \
           AND (sync_lease_until IS NULL OR sync_lease_until < $1) \
         ORDER BY sync_next_at LIMIT $2",
    )
    .bind(now)
    .bind(limit)
    .fetch_all(ex)
    .await
}

/// Ends a sync: releases the lease (if still ours) and sets when the next
/// scheduled one is due. A successful run also sets `last_sync_at`.
pub async fn finish<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    season_id: &str,
    owner: &str,
    outcome: Outcome,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE seasons SET sync_lease_until = NULL, sync_lease_owner = NULL, sync_next_at = $3, \
           sync_failures = $4, last_sync_at = COALESCE($5, last_sync_at) \
         WHERE id = $1 AND sync_lease_owner = $2",
    )
    .bind(season_id)
    .bind(owner)
    .bind(outcome.next_at)
    .bind(outcome.failures)
    .bind(outcome.synced_at)
    .execute(ex)
    .await?;
    Ok(())
}

/// What a finished sync leaves on its season.
#[derive(Debug, Clone, Copy)]
pub struct Outcome {
    pub next_at: Option<i64>,
    pub failures: i64,
    /// Set when the run succeeded.
    pub synced_at: Option<i64>,
}

/// The season's failures in a row (for the backoff).
pub async fn failures<'e, E: Executor<'e, Database = Any>>(ex: E, season_id: &str) -> Result<i64, sqlx::Error> {
    let n: Option<i64> = sqlx::query_scalar("SELECT sync_failures FROM seasons WHERE id = $1")
        .bind(season_id)
        .fetch_optional(ex)
        .await?;
    Ok(n.unwrap_or(0))
}

/// What a sync needs of the season's rink.
#[derive(Debug, Clone, FromRow)]
pub struct Facility {
    pub timezone: String,
    pub owner_id: String,
}

pub async fn facility<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<Option<Facility>, sqlx::Error> {
    sqlx::query_as("SELECT timezone, owner_id FROM facilities WHERE id = $1").bind(id).fetch_optional(ex).await
}

/// (id, facility division name) of the season's division mappings.
pub async fn mappings<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    season_id: &str,
) -> Result<Vec<(String, String)>, sqlx::Error> {
    sqlx::query_as("SELECT id, facility_division_name FROM division_mappings WHERE season_id = $1 ORDER BY id")
        .bind(season_id)
        .fetch_all(ex)
        .await
}
