//! What the market shows: a Status with its person, team and event
//! summaries, an event's open places, and a Match — built here for the
//! REST answers, the `matches` topic and the lobby display alike.

use crate::db::spots::SpotRow;
use crate::db::statuses::StatusRow;
use crate::db::{self, Db};
use crate::domain::{EntityType, HockeyPosition, StatusType, UniversalDivision};
use crate::error::AppError;
use crate::market::rules::{Side, Spot};
use crate::summaries::UserSummary;
use rinkside_actors::OpenPlaces;
use serde::Serialize;
use std::collections::HashMap;

/// Places left per role; null for unlimited.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Open {
    pub skaters: Option<i64>,
    pub goalies: Option<i64>,
}

impl From<Open> for OpenPlaces {
    fn from(o: Open) -> Self {
        OpenPlaces { skaters: o.skaters, goalies: o.goalies }
    }
}

/// An event as the market shows it.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EventSummary {
    pub id: String,
    pub title: String,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub start_date: i64,
    pub facility_id: Option<String>,
    pub facility_name: Option<String>,
    /// The rink's zone (IANA), for showing times as the rink does.
    pub timezone: Option<String>,
    pub open: Open,
    pub max_skaters: Option<i64>,
    pub max_goalies: Option<i64>,
    pub cancelled: bool,
    pub level: Option<UniversalDivision>,
}

impl EventSummary {
    pub fn spot(&self) -> Spot {
        let open = if self.cancelled { OpenPlaces { skaters: Some(0), goalies: Some(0) } } else { self.open.into() };
        Spot { start: self.start_date, open, level: self.level.map(UniversalDivision::level) }
    }
}

/// The scale's value at a level, if any.
pub fn division(level: Option<i64>) -> Option<UniversalDivision> {
    let level = level?;
    UniversalDivision::ALL.iter().copied().find(|d| d.level() == level)
}

impl From<SpotRow> for EventSummary {
    fn from(r: SpotRow) -> Self {
        EventSummary {
            id: r.id,
            title: r.title,
            start_date: r.start_date,
            facility_id: r.facility_id,
            facility_name: r.facility_name,
            timezone: r.timezone,
            open: Open { skaters: r.open_skaters, goalies: r.open_goalies },
            max_skaters: r.max_skaters,
            max_goalies: r.max_goalies,
            cancelled: r.cancelled_at.is_some(),
            level: division(r.level),
        }
    }
}

/// A team as a status shows it.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TeamSummary {
    pub id: String,
    pub name: String,
    pub logo_url: Option<String>,
    pub facility_id: Option<String>,
    pub facility_name: Option<String>,
}

/// A status (CONTRACT.md › Statuses, with the summaries of docs/statuses.md).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Status {
    pub id: String,
    #[serde(rename = "type")]
    pub kind: StatusType,
    pub entity_type: EntityType,
    /// The person (USER), or who posted it (TEAM).
    pub user_id: Option<String>,
    pub team_id: Option<String>,
    /// The event a call for subs is for.
    pub event_id: Option<String>,
    pub message: Option<String>,
    /// Empty means any position.
    pub positions: Vec<HockeyPosition>,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub expires_at: i64,
    /// Where the person or team sits on the universal scale; null when
    /// unknown.
    pub level: Option<UniversalDivision>,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: i64,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub updated_at: i64,
    pub user: Option<UserSummary>,
    pub team: Option<TeamSummary>,
    pub event: Option<EventSummary>,
}

impl Status {
    /// The facts the matching rules read.
    pub fn side(&self) -> Side {
        Side {
            kind: self.kind,
            positions: self.positions.clone(),
            level: self.level.map(UniversalDivision::level),
            expires_at: self.expires_at,
            event_start: self.event.as_ref().map(|e| e.start_date),
        }
    }

    /// Whether it is still active at `now`.
    pub fn is_active(&self, now: i64) -> bool {
        now < self.expires_at
    }
}

/// Builds the statuses of these rows, with positions and summaries read
/// once per batch. Rows whose person or team is gone are left out.
pub async fn statuses(db: &Db, rows: Vec<StatusRow>) -> Result<Vec<Status>, AppError> {
    let pool = &db.pool;
    let ids: Vec<String> = rows.iter().map(|r| r.id.clone()).collect();
    let mut positions = db::statuses::positions(pool, &ids).await?;
    let mut people: Vec<String> = rows.iter().filter_map(|r| r.user_id.clone()).collect();
    people.sort();
    people.dedup();
    let people = db::feed_summaries::people(pool, &people).await?;
    let mut team_ids: Vec<String> = rows.iter().filter_map(|r| r.team_id.clone()).collect();
    team_ids.sort();
    team_ids.dedup();
    let teams = db::status_owners::teams(pool, &team_ids).await?;
    let mut event_ids: Vec<String> = rows.iter().filter_map(|r| r.event_id.clone()).collect();
    event_ids.sort();
    event_ids.dedup();
    let events = db::spots::events(pool, &event_ids).await?;
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        let (Some(kind), Some(entity_type)) = (StatusType::parse(&r.kind), EntityType::parse(&r.entity_type)) else {
            continue;
        };
        let user = r.user_id.as_ref().and_then(|u| people.get(u).cloned());
        let team = r.team_id.as_ref().and_then(|t| teams.get(t)).map(|t| TeamSummary {
            id: t.id.clone(),
            name: t.name.clone(),
            logo_url: t.logo_url.clone(),
            facility_id: t.facility_id.clone(),
            facility_name: t.facility_name.clone(),
        });
        let missing = match entity_type {
            EntityType::User => user.is_none(),
            EntityType::Team => team.is_none(),
        };
        if missing {
            continue;
        }
        out.push(Status {
            positions: positions.remove(&r.id).unwrap_or_default(),
            event: r.event_id.as_ref().and_then(|e| events.get(e).cloned()).map(EventSummary::from),
            id: r.id,
            kind,
            entity_type,
            user_id: r.user_id,
            team_id: r.team_id,
            event_id: r.event_id,
            message: r.message,
            expires_at: r.expires_at,
            level: division(r.level),
            created_at: r.created_at,
            updated_at: r.updated_at,
            user,
            team,
        });
    }
    Ok(out)
}

/// One status by id, built; `None` when there is no such status.
pub async fn status(db: &Db, id: &str) -> Result<Option<Status>, AppError> {
    let Some(row) = db::statuses::get(&db.pool, id).await? else { return Ok(None) };
    Ok(statuses(db, vec![row]).await?.pop())
}

/// An event's match for a sub: the event, and its calls for subs that
/// match them.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SpotEvent {
    #[serde(flatten)]
    pub summary: EventSummary,
    pub asks: Vec<Status>,
}

/// One match, from its viewer's side (docs/statuses.md › Matches).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Match {
    /// `<mine.id>:event:<eventId>` or `<mine.id>:status:<theirs.id>`.
    pub id: String,
    pub mine: Status,
    pub theirs: Option<Status>,
    pub event: Option<SpotEvent>,
}

impl Match {
    /// An open spot (and the event's calls that match `mine`).
    pub fn event(mine: &Status, summary: EventSummary, asks: Vec<Status>) -> Match {
        Match {
            id: format!("{}:event:{}", mine.id, summary.id),
            mine: mine.clone(),
            theirs: None,
            event: Some(SpotEvent { summary, asks }),
        }
    }

    /// A match with another status (and its event, for an event's call).
    pub fn status(mine: &Status, theirs: &Status) -> Match {
        let event = theirs.event.clone().or_else(|| mine.event.clone());
        Match {
            id: format!("{}:status:{}", mine.id, theirs.id),
            mine: mine.clone(),
            theirs: Some(theirs.clone()),
            event: event.map(|summary| SpotEvent { summary, asks: Vec::new() }),
        }
    }

    /// What the list is ordered by: puck drop, else when theirs ends.
    pub fn when(&self) -> i64 {
        self.event
            .as_ref()
            .map(|e| e.summary.start_date)
            .or_else(|| self.theirs.as_ref().map(|t| t.expires_at))
            .unwrap_or(i64::MAX)
    }
}

/// The people who own a status: its person, or its team's owner and
/// managers (and who posted it).
pub async fn owners(db: &Db, status: &Status) -> Result<Vec<String>, AppError> {
    let mut people: Vec<String> = status.user_id.iter().cloned().collect();
    if let Some(team) = &status.team_id {
        people.extend(db::status_owners::team_staff(&db.pool, team).await?);
    }
    people.sort();
    people.dedup();
    Ok(people)
}

/// Group statuses by id (for lookups while matching).
pub fn by_id(list: &[Status]) -> HashMap<&str, &Status> {
    list.iter().map(|s| (s.id.as_str(), s)).collect()
}
