//! The facts `crate::permissions` decides on: which facility, team and
//! roster an object belongs to, and how a user relates to them (owner,
//! manager, captain, member). Read-only.

use sqlx::{Any, Executor, FromRow};

/// Where a roster sits: its team, its season and the season's facility.
#[derive(Debug, Clone, FromRow)]
pub struct RosterScope {
    pub team_id: String,
    pub season_id: String,
    pub facility_id: String,
}

pub async fn roster_scope<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    roster_id: &str,
) -> Result<Option<RosterScope>, sqlx::Error> {
    sqlx::query_as(
        "SELECT r.team_id, r.season_id, s.facility_id FROM rosters r JOIN seasons s ON s.id = r.season_id WHERE r.id = $1",
    )
    .bind(roster_id)
    .fetch_optional(ex)
    .await
}

/// The facility a season belongs to.
pub async fn season_facility<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    season_id: &str,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT facility_id FROM seasons WHERE id = $1").bind(season_id).fetch_optional(ex).await
}

/// The season a division mapping belongs to.
pub async fn mapping_season<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    mapping_id: &str,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT season_id FROM division_mappings WHERE id = $1")
        .bind(mapping_id)
        .fetch_optional(ex)
        .await
}

/// How one user relates to a facility, a team and a roster (each optional:
/// an absent id counts as no relation). Counts, so both backends decode the
/// same BIGINT.
#[derive(Debug, Clone, Default, FromRow)]
pub struct RelationRow {
    pub facility_owner: i64,
    pub facility_manager: i64,
    pub team_owner: i64,
    pub team_manager: i64,
    pub roster_captain: i64,
    pub roster_member: i64,
}

pub async fn relations<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    user_id: &str,
    facility_id: Option<&str>,
    team_id: Option<&str>,
    roster_id: Option<&str>,
) -> Result<RelationRow, sqlx::Error> {
    sqlx::query_as(
        "SELECT \
           (SELECT COUNT(*) FROM facilities WHERE id = $2 AND owner_id = $1) AS facility_owner, \
           (SELECT COUNT(*) FROM facility_managers WHERE facility_id = $2 AND user_id = $1) AS facility_manager, \
           (SELECT COUNT(*) FROM teams WHERE id = $3 AND owner_id = $1) AS team_owner, \
           (SELECT COUNT(*) FROM team_managers WHERE team_id = $3 AND user_id = $1) AS team_manager, \
           (SELECT COUNT(*) FROM roster_players WHERE roster_id = $4 AND user_id = $1 AND captain = 1) AS roster_captain, \
           (SELECT COUNT(*) FROM roster_players WHERE roster_id = $4 AND user_id = $1) AS roster_member",
    )
    .bind(user_id)
    .bind(facility_id.unwrap_or(""))
    .bind(team_id.unwrap_or(""))
    .bind(roster_id.unwrap_or(""))
    .fetch_one(ex)
    .await
}
