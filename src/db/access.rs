//! The facts `crate::permissions` decides on: which facility, team and
//! roster an object belongs to, and how a user relates to them (owner,
//! manager, captain, member, an event's creator, a game's score keeper).
//! Read-only.

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
    /// Events and games only (absent from the other queries).
    #[sqlx(default)]
    pub event_creator: i64,
    #[sqlx(default)]
    pub scorekeeper: i64,
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

/// How one user relates to an event: its creator, and the owner or a
/// manager of its facility. `None` when the event does not exist.
pub async fn event_relations<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    event_id: &str,
    user_id: &str,
) -> Result<Option<RelationRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT \
           (SELECT COUNT(*) FROM facilities f WHERE f.id = e.facility_id AND f.owner_id = $2) AS facility_owner, \
           (SELECT COUNT(*) FROM facility_managers m WHERE m.facility_id = e.facility_id AND m.user_id = $2) \
             AS facility_manager, \
           (SELECT COUNT(*) FROM event_teams et JOIN teams t ON t.id = et.team_id \
              WHERE et.event_id = e.id AND t.owner_id = $2) AS team_owner, \
           (SELECT COUNT(*) FROM event_teams et JOIN team_managers m ON m.team_id = et.team_id \
              WHERE et.event_id = e.id AND m.user_id = $2) AS team_manager, \
           CAST(0 AS BIGINT) AS roster_captain, CAST(0 AS BIGINT) AS roster_member, \
           CAST(CASE WHEN e.creator_id = $2 THEN 1 ELSE 0 END AS BIGINT) AS event_creator, CAST(0 AS BIGINT) AS scorekeeper \
         FROM events e WHERE e.id = $1",
    )
    .bind(event_id)
    .bind(user_id)
    .fetch_optional(ex)
    .await
}

/// How the viewer relates to an organiser, for granting payment
/// collection (docs/sides-and-bill.md › Who may collect): the viewer's
/// staff roles at the rinks where the organiser organises — a rink they
/// made an event at, or staff. `None` when there is no such person.
pub async fn organiser_relations<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    organiser_id: &str,
    user_id: &str,
) -> Result<Option<RelationRow>, sqlx::Error> {
    sqlx::query_as(
        "WITH rinks AS ( \
           SELECT facility_id AS id FROM events WHERE creator_id = $1 AND facility_id IS NOT NULL \
           UNION SELECT id FROM facilities WHERE owner_id = $1 \
           UNION SELECT facility_id FROM facility_managers WHERE user_id = $1) \
         SELECT \
           (SELECT COUNT(*) FROM facilities f WHERE f.id IN (SELECT id FROM rinks) AND f.owner_id = $2) AS facility_owner, \
           (SELECT COUNT(*) FROM facility_managers m WHERE m.facility_id IN (SELECT id FROM rinks) AND m.user_id = $2) \
             AS facility_manager, \
           CAST(0 AS BIGINT) AS team_owner, CAST(0 AS BIGINT) AS team_manager, CAST(0 AS BIGINT) AS roster_captain, \
           CAST(0 AS BIGINT) AS roster_member, CAST(0 AS BIGINT) AS event_creator, CAST(0 AS BIGINT) AS scorekeeper \
         FROM users u WHERE u.id = $1 AND u.deleted_at IS NULL",
    )
    .bind(organiser_id)
    .bind(user_id)
    .fetch_optional(ex)
    .await
}

/// How one user relates to a game, in one round trip (every scoring action
/// asks it first): the season's facility, either playing roster's team,
/// and the game's score keepers. `None` when the game does not exist.
pub async fn game_relations<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    game_id: &str,
    user_id: &str,
) -> Result<Option<RelationRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT \
           (SELECT COUNT(*) FROM seasons s JOIN facilities f ON f.id = s.facility_id \
              WHERE s.id = g.season_id AND f.owner_id = $2) AS facility_owner, \
           (SELECT COUNT(*) FROM seasons s JOIN facility_managers m ON m.facility_id = s.facility_id \
              WHERE s.id = g.season_id AND m.user_id = $2) AS facility_manager, \
           (SELECT COUNT(*) FROM rosters r JOIN teams t ON t.id = r.team_id \
              WHERE r.id IN (g.home_roster_id, g.away_roster_id) AND t.owner_id = $2) AS team_owner, \
           (SELECT COUNT(*) FROM rosters r JOIN team_managers tm ON tm.team_id = r.team_id \
              WHERE r.id IN (g.home_roster_id, g.away_roster_id) AND tm.user_id = $2) AS team_manager, \
           CAST(0 AS BIGINT) AS roster_captain, CAST(0 AS BIGINT) AS roster_member, CAST(0 AS BIGINT) AS event_creator, \
           (SELECT COUNT(*) FROM game_scorekeepers k WHERE k.game_id = g.id AND k.user_id = $2) AS scorekeeper \
         FROM games g WHERE g.id = $1",
    )
    .bind(game_id)
    .bind(user_id)
    .fetch_optional(ex)
    .await
}

/// How one user relates to one side of a game: the season's facility, the
/// game's score keepers, and the team of `roster_id` when it plays in the
/// game (the other side's team gives no relation).
pub async fn game_side_relations<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    game_id: &str,
    roster_id: &str,
    user_id: &str,
) -> Result<Option<RelationRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT \
           (SELECT COUNT(*) FROM seasons s JOIN facilities f ON f.id = s.facility_id \
              WHERE s.id = g.season_id AND f.owner_id = $3) AS facility_owner, \
           (SELECT COUNT(*) FROM seasons s JOIN facility_managers m ON m.facility_id = s.facility_id \
              WHERE s.id = g.season_id AND m.user_id = $3) AS facility_manager, \
           (SELECT COUNT(*) FROM rosters r JOIN teams t ON t.id = r.team_id \
              WHERE r.id = $2 AND r.id IN (g.home_roster_id, g.away_roster_id) AND t.owner_id = $3) AS team_owner, \
           (SELECT COUNT(*) FROM rosters r JOIN team_managers tm ON tm.team_id = r.team_id \
              WHERE r.id = $2 AND r.id IN (g.home_roster_id, g.away_roster_id) AND tm.user_id = $3) AS team_manager, \
           CAST(0 AS BIGINT) AS roster_captain, CAST(0 AS BIGINT) AS roster_member, CAST(0 AS BIGINT) AS event_creator, \
           (SELECT COUNT(*) FROM game_scorekeepers k WHERE k.game_id = g.id AND k.user_id = $3) AS scorekeeper \
         FROM games g WHERE g.id = $1",
    )
    .bind(game_id)
    .bind(roster_id)
    .bind(user_id)
    .fetch_optional(ex)
    .await
}

/// How one user relates to a game not yet scheduled: the season's facility
/// and the teams of the two rosters that would play.
pub async fn fixture_relations<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    season_id: &str,
    roster_ids: [&str; 2],
    user_id: &str,
) -> Result<RelationRow, sqlx::Error> {
    sqlx::query_as(
        "SELECT \
           (SELECT COUNT(*) FROM seasons s JOIN facilities f ON f.id = s.facility_id \
              WHERE s.id = $1 AND f.owner_id = $4) AS facility_owner, \
           (SELECT COUNT(*) FROM seasons s JOIN facility_managers m ON m.facility_id = s.facility_id \
              WHERE s.id = $1 AND m.user_id = $4) AS facility_manager, \
           (SELECT COUNT(*) FROM rosters r JOIN teams t ON t.id = r.team_id \
              WHERE r.id IN ($2, $3) AND t.owner_id = $4) AS team_owner, \
           (SELECT COUNT(*) FROM rosters r JOIN team_managers tm ON tm.team_id = r.team_id \
              WHERE r.id IN ($2, $3) AND tm.user_id = $4) AS team_manager, \
           CAST(0 AS BIGINT) AS roster_captain, CAST(0 AS BIGINT) AS roster_member, CAST(0 AS BIGINT) AS event_creator, CAST(0 AS BIGINT) AS scorekeeper",
    )
    .bind(season_id)
    .bind(roster_ids[0])
    .bind(roster_ids[1])
    .bind(user_id)
    .fetch_one(ex)
    .await
}
