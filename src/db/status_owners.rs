//! Who statuses belong to, as the market needs them: a person's or a
//! team's time zone (for "end of today"), a team's summary and staff, a
//! person's preferred position.

use super::{dynamic, placeholder_list};
use crate::domain::HockeyPosition;
use sqlx::{Any, Executor, FromRow};
use std::collections::HashMap;

/// The time zone a person's "end of today" is in: the rink of their most
/// recent event answer, else of their newest roster; `None` for UTC.
pub async fn home_zone<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    user_id: &str,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT tz FROM ( \
           SELECT f.timezone AS tz, v.responded_at AS at FROM event_rsvps v JOIN events e ON e.id = v.event_id \
             JOIN facilities f ON f.id = e.facility_id WHERE v.user_id = $1 \
           UNION ALL \
           SELECT f.timezone AS tz, p.joined_at AS at FROM roster_players p JOIN rosters r ON r.id = p.roster_id \
             JOIN seasons s ON s.id = r.season_id JOIN facilities f ON f.id = s.facility_id WHERE p.user_id = $1 \
         ) z ORDER BY at DESC LIMIT 1",
    )
    .bind(user_id)
    .fetch_optional(ex)
    .await
}

/// A team's rink's time zone, if it has a rink.
pub async fn team_zone<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    team_id: &str,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT f.timezone FROM teams t JOIN facilities f ON f.id = t.facility_id WHERE t.id = $1")
        .bind(team_id)
        .fetch_optional(ex)
        .await
}

/// A team as a status shows it.
#[derive(Debug, Clone, FromRow)]
pub struct TeamSummaryRow {
    pub id: String,
    pub name: String,
    pub logo_url: Option<String>,
    pub facility_id: Option<String>,
    pub facility_name: Option<String>,
}

pub async fn teams<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    ids: &[String],
) -> Result<HashMap<String, TeamSummaryRow>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let sql = format!(
        "SELECT t.id, t.name, t.logo_url, t.facility_id, f.name AS facility_name \
         FROM teams t LEFT JOIN facilities f ON f.id = t.facility_id WHERE t.id IN ({})",
        placeholder_list(1, ids.len())
    );
    let mut q = sqlx::query_as::<_, TeamSummaryRow>(dynamic(sql));
    for id in ids {
        q = q.bind(id);
    }
    Ok(q.fetch_all(ex).await?.into_iter().map(|t| (t.id.clone(), t)).collect())
}

/// The people who may edit a TEAM status: the team's owner and managers.
pub async fn team_staff<'e, E: Executor<'e, Database = Any>>(ex: E, team_id: &str) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT owner_id FROM teams WHERE id = $1 UNION SELECT user_id FROM team_managers WHERE team_id = $1",
    )
    .bind(team_id)
    .fetch_all(ex)
    .await
}

/// A person's preferred position, if they named one.
pub async fn preferred_position<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    user_id: &str,
) -> Result<Option<HockeyPosition>, sqlx::Error> {
    let p: Option<String> =
        sqlx::query_scalar("SELECT position FROM player_positions WHERE user_id = $1 AND is_preferred = 1")
            .bind(user_id)
            .fetch_optional(ex)
            .await?;
    Ok(p.as_deref().and_then(|p| HockeyPosition::parse(p).ok()))
}
