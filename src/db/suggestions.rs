//! Who and what to follow, near what a person already belongs to: the
//! rinks of their rosters' seasons and of the events they answered, the
//! teams based at those rinks, their teammates. Someone who belongs to
//! nothing yet gets the most-followed rinks, teams and people instead.

use super::dynamic;
use super::users::SUMMARY_COLUMNS;
use serde::Serialize;
use sqlx::{AnyConnection, FromRow};

/// How many of each kind are suggested.
const EACH: i64 = 5;

#[derive(Debug, Clone, Serialize, FromRow)]
#[serde(rename_all = "camelCase")]
pub struct OrgSuggestion {
    pub id: String,
    pub name: String,
}

#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Suggestions {
    pub facilities: Vec<OrgSuggestion>,
    pub teams: Vec<OrgSuggestion>,
    pub people: Vec<crate::summaries::UserSummary>,
}

/// The rinks a person plays at: their rosters' seasons' and their events'.
const MY_RINKS: &str = "SELECT s.facility_id FROM roster_players rp JOIN rosters r ON r.id = rp.roster_id \
       JOIN seasons s ON s.id = r.season_id WHERE rp.user_id = $1 \
     UNION SELECT e.facility_id FROM event_rsvps v JOIN events e ON e.id = v.event_id \
       WHERE v.user_id = $1 AND e.facility_id IS NOT NULL";

pub async fn for_person(conn: &mut AnyConnection, user_id: &str) -> Result<Suggestions, sqlx::Error> {
    let near_rinks = format!(
        "SELECT f.id, f.name FROM facilities f WHERE f.id IN ({MY_RINKS}) \
         ORDER BY (SELECT COUNT(*) FROM facility_follows x WHERE x.facility_id = f.id) DESC, f.id LIMIT {EACH}"
    );
    let popular_rinks = format!(
        "SELECT f.id, f.name FROM facilities f WHERE f.id <> $1 \
         ORDER BY (SELECT COUNT(*) FROM facility_follows x WHERE x.facility_id = f.id) DESC, f.id LIMIT {EACH}"
    );
    let near_teams = format!(
        "SELECT t.id, t.name FROM teams t WHERE t.facility_id IN ({MY_RINKS}) \
           AND t.id NOT IN (SELECT r.team_id FROM roster_players rp JOIN rosters r ON r.id = rp.roster_id WHERE rp.user_id = $1) \
         ORDER BY (SELECT COUNT(*) FROM team_follows x WHERE x.team_id = t.id) DESC, t.id LIMIT {EACH}"
    );
    let popular_teams = format!(
        "SELECT t.id, t.name FROM teams t WHERE t.id <> $1 \
         ORDER BY (SELECT COUNT(*) FROM team_follows x WHERE x.team_id = t.id) DESC, t.id LIMIT {EACH}"
    );
    let teammates = format!(
        "SELECT {SUMMARY_COLUMNS} FROM users u WHERE u.deleted_at IS NULL AND u.id <> $1 AND u.id IN ( \
           SELECT other.user_id FROM roster_players mine JOIN roster_players other ON other.roster_id = mine.roster_id \
           WHERE mine.user_id = $1) \
         ORDER BY (SELECT COUNT(*) FROM follows x WHERE x.following_id = u.id) DESC, u.id LIMIT {EACH}"
    );
    let popular_people = format!(
        "SELECT {SUMMARY_COLUMNS} FROM users u WHERE u.deleted_at IS NULL AND u.id <> $1 AND u.username IS NOT NULL \
         ORDER BY (SELECT COUNT(*) FROM follows x WHERE x.following_id = u.id) DESC, u.id LIMIT {EACH}"
    );
    let orgs = |sql: String| sqlx::query_as::<_, OrgSuggestion>(dynamic(sql)).bind(user_id.to_string());
    let mut facilities = orgs(near_rinks).fetch_all(&mut *conn).await?;
    if facilities.is_empty() {
        facilities = orgs(popular_rinks).fetch_all(&mut *conn).await?;
    }
    let mut teams = orgs(near_teams).fetch_all(&mut *conn).await?;
    if teams.is_empty() {
        teams = orgs(popular_teams).fetch_all(&mut *conn).await?;
    }
    let people_query =
        |sql: String| sqlx::query_as::<_, super::users::UserSummaryRow>(dynamic(sql)).bind(user_id.to_string());
    let mut people = people_query(teammates).fetch_all(&mut *conn).await?;
    if people.is_empty() {
        people = people_query(popular_people).fetch_all(&mut *conn).await?;
    }
    Ok(Suggestions { facilities, teams, people: people.into_iter().map(Into::into).collect() })
}
