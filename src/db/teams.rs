//! Teams: the columns only a team has. What teams share with facilities
//! (the common columns, search, follows, managers, writes, deletion) is in
//! `db::orgs` and `db::staff`.

use super::orgs::{self, Org, OrgColumns, OrgFields, OrgRow, text};
use crate::domain::text::{HttpUrl, Name, PlainText};
use sqlx::{Any, Executor, FromRow};

/// A team's own columns.
#[derive(Debug, Clone, FromRow)]
pub struct TeamColumns {
    pub logo_url: Option<String>,
    pub description: Option<String>,
    pub facility_id: Option<String>,
}

impl OrgColumns for TeamColumns {
    const ORG: Org = Org::Team;
    const COLUMNS: &'static str = "o.logo_url, o.description, o.facility_id";
}

pub type TeamRow = OrgRow<TeamColumns>;

/// The fields a team is created or replaced with, parsed by the API (which
/// also checks that the facility exists).
#[derive(Debug, Clone)]
pub struct TeamFields {
    pub name: Name<120>,
    pub logo_url: Option<HttpUrl>,
    pub description: Option<PlainText<4000>>,
    pub facility_id: Option<String>,
}

impl OrgFields for TeamFields {
    const ORG: Org = Org::Team;

    fn columns(&self) -> Vec<(&'static str, Option<String>)> {
        vec![
            ("name", text(Some(&self.name))),
            ("logo_url", text(self.logo_url.as_ref())),
            ("description", text(self.description.as_ref())),
            ("facility_id", self.facility_id.clone()),
        ]
    }
}

pub async fn get<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<Option<TeamRow>, sqlx::Error> {
    orgs::get(ex, id).await
}

/// Whether a team exists (for the routes that only refer to one).
pub async fn exists<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<bool, sqlx::Error> {
    orgs::exists(ex, Org::Team, id).await
}

/// Whether any roster of the team plays in a game.
pub async fn has_games<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<bool, sqlx::Error> {
    let n: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM games g JOIN rosters r ON r.id IN (g.home_roster_id, g.away_roster_id) WHERE r.team_id = $1",
    )
    .bind(id)
    .fetch_one(ex)
    .await?;
    Ok(n > 0)
}
