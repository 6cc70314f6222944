//! Schedules (docs/schedule.md): my next games and skates with my standing
//! on each, what anyone may see of a person's (their teams' events and
//! games), a team's upcoming events and games, and the rosters I play on.
//! The calendar feed that carries the same items is [`super::calendar`].

use crate::auth::AuthUser;
use crate::db::{
    self,
    schedule::{ScheduleEventRow, ScheduleGameRow, Whose},
};
use crate::domain::availability::Answer;
use crate::domain::{EventType, ScheduleKind, ScheduleState, TeamRole};
use crate::error::{AppError, AppResult};
use crate::state::AppState;
use actix_web::{get, web};
use serde::{Deserialize, Serialize};
use utoipa_actix_web::service_config::ServiceConfig;

pub fn config(cfg: &mut ServiceConfig) {
    cfg.service(my_schedule).service(user_schedule).service(team_upcoming).service(my_rosters);
}

/// The longest window one request may ask for.
pub const MAX_WINDOW_DAYS: i64 = 92;
/// Without `to`: four weeks after `from`.
const DEFAULT_WINDOW_DAYS: i64 = 28;
/// Without `from`: from a little before now, so a game under way still
/// shows as "now".
const DEFAULT_LOOKBACK_MS: i64 = 3 * HOUR_MS;
const HOUR_MS: i64 = 60 * 60 * 1000;
const DAY_MS: i64 = 24 * HOUR_MS;
/// How long a league game (which has no end time) is taken to last.
pub const GAME_LENGTH_MS: i64 = 90 * 60 * 1000;
/// How long an event without an end time is taken to last.
pub const EVENT_LENGTH_MS: i64 = HOUR_MS;

/// One game or event in a schedule.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ScheduleItem {
    pub kind: ScheduleKind,
    /// The event's or the game's id (`/events/ID`, `/games/ID`).
    pub id: String,
    /// The event's title, or "Home vs Away" for a league game.
    pub title: String,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub starts_at: i64,
    /// The event's end; for a game (and an event without one), the start
    /// plus its usual length.
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub ends_at: i64,
    /// The rink's IANA time zone, to show the time as the rink does; null
    /// for an event away from any facility.
    pub time_zone: Option<String>,
    /// Where: the event's location, the imported game's rink, or the rink.
    pub place: Option<String>,
    /// The pieces `place` chose from, for the calendar feed, which writes
    /// them all, once each (`sync::place::merge`): the event's location
    /// and the imported game's rink.
    #[serde(skip)]
    pub location: Option<String>,
    #[serde(skip)]
    pub rink: Option<String>,
    /// The event's description, for the calendar feed (not in the JSON:
    /// the event page reads it from the event).
    #[serde(skip)]
    pub description: Option<String>,
    pub facility_id: Option<String>,
    pub facility_name: Option<String>,
    /// Events only.
    pub event_type: Option<EventType>,
    /// Games: SCHEDULED, LIVE, FINAL, POSTPONED or CANCELLED; events:
    /// SCHEDULED or CANCELLED.
    pub status: String,
    pub home_name: Option<String>,
    pub away_name: Option<String>,
    pub home_score: Option<i64>,
    pub away_score: Option<i64>,
    /// The team it comes through (mine, or the team whose schedule this is).
    pub team_name: Option<String>,
    /// Games: the side the person (or team) plays.
    pub side: Option<TeamRole>,
    /// The season of a league game.
    pub season_name: Option<String>,
    /// Games: the roster of that side (whose availability board the answer
    /// belongs to; docs/availability.md).
    pub roster_id: Option<String>,
    /// My standing (a game's: my availability); only in my own schedule
    /// (null elsewhere).
    pub my_state: Option<ScheduleState>,
    /// When `myState` is WAITLISTED: 1 = next to be promoted, counted in my
    /// role (skater or goalie).
    pub waitlist_rank: Option<i64>,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: i64,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub updated_at: i64,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Schedule {
    /// The window, as asked or defaulted.
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub from: i64,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub to: i64,
    /// Soonest first.
    pub items: Vec<ScheduleItem>,
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct WindowQuery {
    /// Items starting at or after (default: three hours ago).
    #[param(schema_with = crate::time::schema::date_time)]
    pub from: Option<String>,
    /// Items starting before (default: four weeks after `from`; at most 92
    /// days after it).
    #[param(schema_with = crate::time::schema::date_time)]
    pub to: Option<String>,
}

impl WindowQuery {
    /// `[from, to)` in epoch ms, defaulted and checked.
    pub fn window(&self, now: i64) -> AppResult<(i64, i64)> {
        let read = |field: &str, v: &Option<String>| -> AppResult<Option<i64>> {
            v.as_deref()
                .map(|s| crate::time::parse_rfc3339_checked(s).map_err(|m| AppError::field(field, m)))
                .transpose()
        };
        let from = read("from", &self.from)?.unwrap_or(now - DEFAULT_LOOKBACK_MS);
        let to = read("to", &self.to)?.unwrap_or(from + DEFAULT_WINDOW_DAYS * DAY_MS);
        if to <= from {
            return Err(AppError::field("to", "must be after `from`"));
        }
        if to - from > MAX_WINDOW_DAYS * DAY_MS {
            return Err(AppError::field("to", format!("must be at most {MAX_WINDOW_DAYS} days after `from`")));
        }
        Ok((from, to))
    }
}

/// The state an event row carries, in an own schedule.
fn event_state(row: &ScheduleEventRow, own: bool) -> Option<ScheduleState> {
    if !own {
        return None;
    }
    Some(match row.my_status.as_deref() {
        Some("ATTENDING") => ScheduleState::Attending,
        Some("WAITLISTED") => ScheduleState::Waitlisted,
        Some("DECLINED") => ScheduleState::Declined,
        _ => ScheduleState::NotAnswered,
    })
}

pub fn from_event(row: ScheduleEventRow, own: bool) -> ScheduleItem {
    let my_state = event_state(&row, own);
    ScheduleItem {
        kind: ScheduleKind::Event,
        event_type: EventType::parse(&row.event_type),
        ends_at: row.end_date.unwrap_or(row.start_date + EVENT_LENGTH_MS),
        place: row.location.clone().or_else(|| row.external_rink.clone()).or_else(|| row.facility_name.clone()),
        location: row.location,
        rink: row.external_rink,
        description: row.description,
        status: if row.cancelled_at.is_some() { "CANCELLED" } else { "SCHEDULED" }.into(),
        waitlist_rank: if my_state == Some(ScheduleState::Waitlisted) { row.waitlist_rank } else { None },
        my_state,
        id: row.id,
        title: row.title,
        starts_at: row.start_date,
        time_zone: row.timezone,
        facility_id: row.facility_id,
        facility_name: row.facility_name,
        home_name: row.home_name,
        away_name: row.away_name,
        home_score: row.home_score,
        away_score: row.away_score,
        team_name: row.team_name,
        side: None,
        season_name: None,
        roster_id: None,
        created_at: row.created_at,
        updated_at: row.updated_at,
    }
}

fn from_game(row: ScheduleGameRow, own: bool) -> ScheduleItem {
    let side = TeamRole::parse(&row.side);
    let team_name = match side {
        Some(TeamRole::Away) => row.away_roster_name.clone(),
        _ => row.home_roster_name.clone(),
    };
    ScheduleItem {
        kind: ScheduleKind::Game,
        title: format!("{} vs {}", row.home_roster_name, row.away_roster_name),
        starts_at: row.scheduled_at,
        ends_at: row.scheduled_at + GAME_LENGTH_MS,
        time_zone: Some(row.timezone),
        place: Some(row.facility_name.clone()),
        location: None,
        rink: None,
        description: None,
        facility_id: Some(row.facility_id),
        facility_name: Some(row.facility_name),
        event_type: None,
        status: row.status,
        home_name: Some(row.home_roster_name),
        away_name: Some(row.away_roster_name),
        home_score: Some(row.home_score),
        away_score: Some(row.away_score),
        team_name: Some(team_name),
        side,
        season_name: Some(row.season_name),
        my_state: own.then(|| match row.my_answer.as_deref().and_then(Answer::parse) {
            Some(Answer::In) => ScheduleState::Attending,
            Some(Answer::Out) => ScheduleState::Declined,
            None => ScheduleState::NotAnswered,
        }),
        roster_id: Some(row.roster_id),
        waitlist_rank: None,
        id: row.id,
        created_at: row.created_at,
        updated_at: row.updated_at,
    }
}

/// A schedule's items in `[from, to)`: two queries (events, games),
/// merged soonest first.
pub async fn items(state: &AppState, whose: Whose<'_>, from: i64, to: i64) -> AppResult<Vec<ScheduleItem>> {
    let own = matches!(whose, Whose::Own(_));
    let events = db::schedule::events(&state.db.pool, whose, from, to).await?;
    let games = db::schedule::games(&state.db.pool, whose, from, to).await?;
    let mut items: Vec<ScheduleItem> =
        events.into_iter().map(|e| from_event(e, own)).chain(games.into_iter().map(|g| from_game(g, own))).collect();
    items.sort_by(|a, b| a.starts_at.cmp(&b.starts_at).then_with(|| a.id.cmp(&b.id)));
    Ok(items)
}

/// My schedule: the events I am in or waitlisted for, my teams' events
/// (answered or not; declined ones too, to change my mind), and my
/// rosters' league games, each with my standing and the rink's time zone.
#[utoipa::path(params(WindowQuery), responses((status = 200, body = Schedule), (status = 422, body = crate::error::ErrorEnvelope)), tag = "schedule", security(("bearerAuth" = [])))]
#[get("/me/schedule")]
async fn my_schedule(
    state: web::Data<AppState>,
    me: AuthUser,
    query: web::Query<WindowQuery>,
) -> AppResult<web::Json<Schedule>> {
    let (from, to) = query.window((state.clock)())?;
    let items = items(&state, Whose::Own(&me.id), from, to).await?;
    Ok(web::Json(Schedule { from, to, items }))
}

/// A person's public schedule: their teams' events and their rosters'
/// games, without anyone's answers (which events a person answered is
/// theirs alone).
#[utoipa::path(params(WindowQuery), responses((status = 200, body = Schedule), (status = 404, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)), tag = "schedule", security(("bearerAuth" = [])))]
#[get("/users/{id}/schedule")]
async fn user_schedule(
    state: web::Data<AppState>,
    _me: AuthUser,
    id: web::Path<String>,
    query: web::Query<WindowQuery>,
) -> AppResult<web::Json<Schedule>> {
    let (from, to) = query.window((state.clock)())?;
    if db::users::get(&state.db.pool, &id).await?.is_none_or(|u| u.deleted_at.is_some()) {
        return Err(AppError::not_found("user"));
    }
    let items = items(&state, Whose::Public(&id), from, to).await?;
    Ok(web::Json(Schedule { from, to, items }))
}

/// A team's upcoming events (those it is linked to HOME or AWAY) and its
/// rosters' games.
#[utoipa::path(params(WindowQuery), responses((status = 200, body = Schedule), (status = 404, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)), tag = "schedule", security(("bearerAuth" = [])))]
#[get("/teams/{id}/upcoming")]
async fn team_upcoming(
    state: web::Data<AppState>,
    _me: AuthUser,
    id: web::Path<String>,
    query: web::Query<WindowQuery>,
) -> AppResult<web::Json<Schedule>> {
    let (from, to) = query.window((state.clock)())?;
    if !db::teams::exists(&state.db.pool, &id).await? {
        return Err(AppError::not_found("team"));
    }
    let items = items(&state, Whose::Team(&id), from, to).await?;
    Ok(web::Json(Schedule { from, to, items }))
}

/// A roster I play on.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MyRoster {
    pub roster_id: String,
    pub roster_name: String,
    pub team_id: String,
    pub team_name: String,
    pub logo_url: Option<String>,
    pub season_id: String,
    pub season_name: String,
    /// DRAFT, ACTIVE or ARCHIVED.
    pub status: String,
}

/// The rosters I play on (up to 100), current ones first, latest season
/// first: "Your teams".
#[utoipa::path(responses((status = 200, body = Vec<MyRoster>)), tag = "schedule", security(("bearerAuth" = [])))]
#[get("/me/rosters")]
async fn my_rosters(state: web::Data<AppState>, me: AuthUser) -> AppResult<web::Json<Vec<MyRoster>>> {
    let rows = db::schedule::rosters_of(&state.db.pool, &me.id).await?;
    Ok(web::Json(
        rows.into_iter()
            .map(|r| MyRoster {
                roster_id: r.roster_id,
                roster_name: r.roster_name,
                team_id: r.team_id,
                team_name: r.team_name,
                logo_url: r.logo_url,
                season_id: r.season_id,
                season_name: r.season_name,
                status: r.status,
            })
            .collect(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Any `from` and `to` make a window or a 422 naming one of them;
        /// an accepted window runs forwards and spans at most 92 days.
        #[test]
        fn any_window_is_taken_or_refused_naming_its_field(
            from in proptest::option::of(crate::fuzzing::text()),
            to in proptest::option::of(crate::fuzzing::text()),
            now in -2_208_988_800_000_i64..7_258_118_400_000,
        ) {
            match (WindowQuery { from, to }).window(now) {
                Ok((a, b)) => prop_assert!(a < b && b - a <= MAX_WINDOW_DAYS * DAY_MS),
                Err(AppError::Validation { fields, .. }) => {
                    prop_assert!(fields.keys().all(|k| k == "from" || k == "to"));
                }
                Err(other) => prop_assert!(false, "{other:?}"),
            }
        }
    }

    fn q(from: Option<&str>, to: Option<&str>) -> WindowQuery {
        WindowQuery { from: from.map(String::from), to: to.map(String::from) }
    }

    #[test]
    fn a_window_defaults_to_four_weeks_from_a_little_before_now() {
        let now = 1_800_000_000_000;
        assert_eq!(q(None, None).window(now).unwrap(), (now - 3 * HOUR_MS, now - 3 * HOUR_MS + 28 * DAY_MS));
    }

    #[test]
    fn a_window_must_run_forwards_and_at_most_92_days() {
        let refused = |from, to| match q(from, to).window(0) {
            Err(AppError::Validation { fields, .. }) => fields.into_keys().collect::<Vec<_>>(),
            other => panic!("{other:?}"),
        };
        assert_eq!(refused(Some("2026-09-01T00:00:00Z"), Some("2026-09-01T00:00:00Z")), ["to"]);
        assert_eq!(refused(Some("2026-09-01T00:00:00Z"), Some("2026-12-03T00:00:00Z")), ["to"]);
        assert_eq!(refused(Some("9999-12-31T00:00:00Z"), None), ["from"]);
        assert_eq!(refused(Some("tuesday"), None), ["from"]);
        assert!(q(Some("2026-09-01T00:00:00Z"), Some("2026-12-02T00:00:00Z")).window(0).is_ok());
    }
}
