//! Availability for league games (docs/availability.md): a roster's rules,
//! its games (native and imported, read alike), its players, their answers
//! (a native game's rows here; an imported game's RSVPs), and the captain's
//! last nudge.

use crate::domain::availability::AvailabilityRules;
use sqlx::{Any, Executor, FromRow};

/// A game's length when it does not say (native games never do).
const GAME_LENGTH_MS: i64 = 90 * 60 * 1000;

/// A roster and its rules.
#[derive(Debug, Clone, FromRow)]
pub struct RosterRules {
    pub team_id: String,
    pub season_id: String,
    #[sqlx(flatten)]
    pub rules: AvailabilityRules,
}

pub async fn rules<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    roster_id: &str,
) -> Result<Option<RosterRules>, sqlx::Error> {
    sqlx::query_as(
        "SELECT team_id, season_id, availability_lock_minutes, min_skaters, min_goalies FROM rosters WHERE id = $1",
    )
    .bind(roster_id)
    .fetch_optional(ex)
    .await
}

pub async fn set_rules<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    roster_id: &str,
    rules: &AvailabilityRules,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE rosters SET availability_lock_minutes = $2, min_skaters = $3, min_goalies = $4, updated_at = $5 \
         WHERE id = $1",
    )
    .bind(roster_id)
    .bind(rules.lock_minutes)
    .bind(rules.min_skaters)
    .bind(rules.min_goalies)
    .bind(super::now_ms())
    .execute(ex)
    .await?;
    Ok(())
}

/// One game of a roster, native (`GAME`) or imported (`EVENT`), as the
/// roster sees it.
#[derive(Debug, Clone, FromRow)]
pub struct RosterGame {
    pub id: String,
    pub kind: String,
    pub title: String,
    pub starts_at: i64,
    pub ends_at: i64,
    /// FINAL or CANCELLED (1), else 0.
    pub closed: i64,
    pub time_zone: Option<String>,
    pub place: Option<String>,
    pub side: String,
    pub opponent: Option<String>,
}

/// The roster's games, native and imported, as one relation (`$1` is the
/// roster).
fn games_sql() -> String {
    format!(
        "SELECT g.id, 'GAME' AS kind, hr.name || ' vs ' || ar.name AS title, g.scheduled_at AS starts_at, \
           g.scheduled_at + {GAME_LENGTH_MS} AS ends_at, \
           CASE WHEN g.status IN ('FINAL', 'CANCELLED') THEN 1 ELSE 0 END AS closed, \
           f.timezone AS time_zone, f.name AS place, \
           CASE WHEN g.home_roster_id = $1 THEN 'HOME' ELSE 'AWAY' END AS side, \
           CASE WHEN g.home_roster_id = $1 THEN ar.name ELSE hr.name END AS opponent \
         FROM games g JOIN seasons s ON s.id = g.season_id JOIN facilities f ON f.id = s.facility_id \
           JOIN rosters hr ON hr.id = g.home_roster_id JOIN rosters ar ON ar.id = g.away_roster_id \
         WHERE g.home_roster_id = $1 OR g.away_roster_id = $1 \
         UNION ALL \
         SELECT e.id, 'EVENT' AS kind, e.title, e.start_date AS starts_at, \
           COALESCE(e.end_date, e.start_date + {GAME_LENGTH_MS}) AS ends_at, \
           CASE WHEN e.cancelled_at IS NULL THEN 0 ELSE 1 END AS closed, \
           f.timezone AS time_zone, COALESCE(e.external_rink, f.name) AS place, t.role AS side, \
           CASE WHEN t.role = 'HOME' THEN e.external_away_team_name ELSE e.external_home_team_name END AS opponent \
         FROM external_games x JOIN events e ON e.id = x.event_id JOIN event_teams t ON t.event_id = e.id \
           JOIN rosters r ON r.team_id = t.team_id AND r.season_id = x.season_id \
           LEFT JOIN facilities f ON f.id = e.facility_id \
         WHERE r.id = $1"
    )
}

/// The roster's open games starting in `[from, to)`, soonest first, at
/// most `limit`.
pub async fn upcoming<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    roster_id: &str,
    from: i64,
    to: i64,
    limit: i64,
) -> Result<Vec<RosterGame>, sqlx::Error> {
    let sql = format!(
        "SELECT * FROM ({}) rg WHERE rg.closed = 0 AND rg.starts_at >= $2 AND rg.starts_at < $3 \
         ORDER BY rg.starts_at, rg.id LIMIT $4",
        games_sql()
    );
    sqlx::query_as(super::dynamic(sql)).bind(roster_id).bind(from).bind(to).bind(limit).fetch_all(ex).await
}

/// One game of the roster (any time, open or not).
pub async fn game<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    roster_id: &str,
    game_id: &str,
) -> Result<Option<RosterGame>, sqlx::Error> {
    let sql = format!("SELECT * FROM ({}) rg WHERE rg.id = $2", games_sql());
    sqlx::query_as(super::dynamic(sql)).bind(roster_id).bind(game_id).fetch_optional(ex).await
}

/// A player of the roster, with what the board shows of them.
#[derive(Debug, Clone, FromRow)]
pub struct PlayerRow {
    pub user_id: String,
    pub username: Option<String>,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub profile_image: Option<String>,
    pub position: Option<String>,
    pub jersey_number: Option<i64>,
    pub commitment_level: String,
}

pub async fn players<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    roster_id: &str,
) -> Result<Vec<PlayerRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT rp.user_id, u.username, u.first_name, u.last_name, u.profile_image, rp.position, rp.jersey_number, \
           rp.commitment_level \
         FROM roster_players rp JOIN users u ON u.id = rp.user_id WHERE rp.roster_id = $1",
    )
    .bind(roster_id)
    .fetch_all(ex)
    .await
}

/// One person's answer: `IN` / `OUT` for a native game; for an imported
/// game the RSVP's status (ATTENDING, WAITLISTED, DECLINED, REMOVED).
#[derive(Debug, Clone, FromRow)]
pub struct AnswerRow {
    pub user_id: String,
    pub answer: String,
    pub late: i64,
    pub answered_at: i64,
}

/// The answers to a native game by the roster's players.
pub async fn answers<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    roster_id: &str,
    game_id: &str,
) -> Result<Vec<AnswerRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT user_id, answer, late, answered_at FROM game_availability WHERE roster_id = $1 AND game_id = $2",
    )
    .bind(roster_id)
    .bind(game_id)
    .fetch_all(ex)
    .await
}

/// The RSVPs to an imported game's event by the roster's players.
pub async fn rsvps<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    roster_id: &str,
    event_id: &str,
) -> Result<Vec<AnswerRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT v.user_id, v.status AS answer, CAST(0 AS BIGINT) AS late, v.responded_at AS answered_at \
         FROM event_rsvps v JOIN roster_players rp ON rp.user_id = v.user_id AND rp.roster_id = $1 \
         WHERE v.event_id = $2",
    )
    .bind(roster_id)
    .bind(event_id)
    .fetch_all(ex)
    .await
}

/// Writes a native game's answer; answers whether anything changed (the
/// same answer again changes nothing).
#[allow(clippy::too_many_arguments)]
pub async fn answer<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    roster_id: &str,
    game_id: &str,
    user_id: &str,
    answer: &str,
    late: bool,
    by: &str,
    now: i64,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "INSERT INTO game_availability (roster_id, game_id, user_id, answer, late, answered_by_id, answered_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7) \
         ON CONFLICT (roster_id, game_id, user_id) DO UPDATE SET answer = excluded.answer, late = excluded.late, \
           answered_by_id = excluded.answered_by_id, answered_at = excluded.answered_at \
         WHERE game_availability.answer <> excluded.answer",
    )
    .bind(roster_id)
    .bind(game_id)
    .bind(user_id)
    .bind(answer)
    .bind(super::flag(late))
    .bind(by)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// When the roster's captain last nudged for the game.
pub async fn nudged_at<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    roster_id: &str,
    game_id: &str,
) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar("SELECT nudged_at FROM availability_nudges WHERE roster_id = $1 AND game_id = $2")
        .bind(roster_id)
        .bind(game_id)
        .fetch_optional(ex)
        .await
}

/// Marks a nudge at `now` unless one was marked after `not_since`: answers
/// whether this one may go (two nodes can never both take it).
pub async fn mark_nudge<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    roster_id: &str,
    game_id: &str,
    by: &str,
    now: i64,
    not_since: i64,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "INSERT INTO availability_nudges (roster_id, game_id, nudged_by_id, nudged_at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (roster_id, game_id) DO UPDATE SET nudged_by_id = excluded.nudged_by_id, \
           nudged_at = excluded.nudged_at \
         WHERE availability_nudges.nudged_at <= $5",
    )
    .bind(roster_id)
    .bind(game_id)
    .bind(by)
    .bind(now)
    .bind(not_since)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// The rosters (and their rules) whose lock applies to an imported game's
/// event: those of its HOME and AWAY teams in the game's season.
pub async fn rosters_of_imported<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    event_id: &str,
) -> Result<Vec<AvailabilityRules>, sqlx::Error> {
    sqlx::query_as(
        "SELECT r.availability_lock_minutes, r.min_skaters, r.min_goalies \
         FROM external_games x JOIN event_teams t ON t.event_id = x.event_id \
           JOIN rosters r ON r.team_id = t.team_id AND r.season_id = x.season_id \
         WHERE x.event_id = $1",
    )
    .bind(event_id)
    .fetch_all(ex)
    .await
}

/// A player who has not answered a game starting in the reminder horizon,
/// with their reminder offsets.
#[derive(Debug, Clone, FromRow)]
pub struct Unanswered {
    pub roster_id: String,
    pub game_id: String,
    pub kind: String,
    pub title: String,
    pub starts_at: i64,
    pub time_zone: Option<String>,
    pub place: Option<String>,
    pub opponent: Option<String>,
    pub user_id: String,
    /// The person's stored reminder offsets, or null for the defaults.
    pub reminder_minutes: Option<String>,
}

/// Every rostered player (rosters not archived) with no answer to an open game
/// of their roster starting after `now` and within their largest reminder
/// (`default_max` minutes without settings), as `reminder_candidates`.
pub async fn unanswered<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    now: i64,
    default_max: i64,
) -> Result<Vec<Unanswered>, sqlx::Error> {
    // The roster's games for every active roster: the same relation as
    // `games_sql`, with the roster as a column instead of `$1`.
    sqlx::query_as(
        "WITH horizon AS (SELECT $1 + 60000 * (SELECT CASE WHEN MAX(max_minutes) > $2 THEN MAX(max_minutes) ELSE $2 END \
                                               FROM notification_settings) AS until), \
         rg AS ( \
           SELECT ro.id AS roster_id, g.id AS game_id, 'GAME' AS kind, hr.name || ' vs ' || ar.name AS title, \
             g.scheduled_at AS starts_at, f.timezone AS time_zone, f.name AS place, \
             CASE WHEN g.home_roster_id = ro.id THEN ar.name ELSE hr.name END AS opponent \
           FROM rosters ro JOIN games g ON g.home_roster_id = ro.id OR g.away_roster_id = ro.id \
             JOIN seasons s ON s.id = g.season_id JOIN facilities f ON f.id = s.facility_id \
             JOIN rosters hr ON hr.id = g.home_roster_id JOIN rosters ar ON ar.id = g.away_roster_id \
           WHERE ro.status <> 'ARCHIVED' AND g.status NOT IN ('FINAL', 'CANCELLED') \
             AND g.scheduled_at > $1 AND g.scheduled_at <= (SELECT until FROM horizon) \
           UNION ALL \
           SELECT ro.id, e.id, 'EVENT', e.title, e.start_date, f.timezone, COALESCE(e.external_rink, f.name), \
             CASE WHEN t.role = 'HOME' THEN e.external_away_team_name ELSE e.external_home_team_name END \
           FROM external_games x JOIN events e ON e.id = x.event_id JOIN event_teams t ON t.event_id = e.id \
             JOIN rosters ro ON ro.team_id = t.team_id AND ro.season_id = x.season_id \
             LEFT JOIN facilities f ON f.id = e.facility_id \
           WHERE ro.status <> 'ARCHIVED' AND e.cancelled_at IS NULL AND e.start_date > $1 AND e.start_date <= (SELECT until FROM horizon)) \
         SELECT rg.roster_id, rg.game_id, rg.kind, rg.title, rg.starts_at, rg.time_zone, rg.place, rg.opponent, \
           rp.user_id, \
           ns.reminder_minutes \
         FROM rg JOIN roster_players rp ON rp.roster_id = rg.roster_id \
           LEFT JOIN notification_settings ns ON ns.user_id = rp.user_id \
         WHERE rg.starts_at <= $1 + 60000 * COALESCE(ns.max_minutes, $2) \
           AND NOT EXISTS (SELECT 1 FROM game_availability a \
                           WHERE a.roster_id = rg.roster_id AND a.game_id = rg.game_id AND a.user_id = rp.user_id) \
           AND NOT EXISTS (SELECT 1 FROM event_rsvps v WHERE v.event_id = rg.game_id AND v.user_id = rp.user_id) \
         ORDER BY rg.starts_at, rg.game_id, rp.user_id"
    )
    .bind(now)
    .bind(default_max)
    .fetch_all(ex)
    .await
}
