//! A season's read models built from its games: standings, schedules,
//! scoring leaders and a player's statistics.

use crate::db::events::DISPLAY_NAME;
use crate::db::rosters::players::{STAT_DETAIL_COLUMNS, StatDetails};
use crate::db::{dynamic, flag};
use serde::Serialize;
use sqlx::{Any, Executor, FromRow};

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
    after: Option<&crate::db::Cursor>,
    limit: i64,
) -> Result<Vec<ScheduleEntry>, sqlx::Error> {
    let page_start = crate::db::keyset("g.scheduled_at", "g.id", crate::db::Order::OldestFirst, 4);
    let sql = format!(
        "{SCHEDULE_SELECT} WHERE (hr.team_id = $1 OR ar.team_id = $1) AND ($2 = 0 OR g.season_id = $3) \
           AND {page_start} \
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

/// The season topic's seq: Σ (version + 1) over the season's games.
pub async fn season_seq<'e, E: Executor<'e, Database = Any>>(ex: E, season_id: &str) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT CAST(COALESCE(SUM(version + 1), 0) AS BIGINT) FROM games WHERE season_id = $1")
        .bind(season_id)
        .fetch_one(ex)
        .await
}

/// A season's first and last instants, or `None` when there is no such season.
pub async fn season_dates<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    season_id: &str,
) -> Result<Option<(i64, i64)>, sqlx::Error> {
    sqlx::query_as("SELECT start_date, end_date FROM seasons WHERE id = $1").bind(season_id).fetch_optional(ex).await
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
    #[sqlx(flatten)]
    #[serde(flatten)]
    pub details: StatDetails,
}

/// A player's lines on every roster they are on, latest season first.
pub async fn player_stats<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    user_id: &str,
) -> Result<Vec<RosterStats>, sqlx::Error> {
    sqlx::query_as(dynamic(format!(
        "SELECT p.roster_id, r.name AS roster_name, r.team_id, t.name AS team_name, r.season_id, s.name AS season_name, \
           p.jersey_number, p.position, p.goals, p.assists, p.goals + p.assists AS points, p.penalty_minutes, p.games_played, \
           {STAT_DETAIL_COLUMNS} \
         FROM roster_players p JOIN rosters r ON r.id = p.roster_id JOIN teams t ON t.id = r.team_id \
           JOIN seasons s ON s.id = r.season_id \
         WHERE p.user_id = $1 ORDER BY s.start_date DESC, r.name, r.id"
    )))
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
