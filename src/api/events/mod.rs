//! Events and RSVPs. Reads come from the database (attendees from the live
//! actor when there is one); every RSVP, removal, limit change and
//! cancellation goes to the event's actor through the registry, which
//! decides, commits, and only then answers — the same path for REST and the
//! WebSocket `rsvp` / `removeAttendee` commands (`crate::commands::event`).
//!
//! This module holds the event resource itself; [`edit`] changes one event
//! or all that follow it, [`input`] validates create and edit bodies, [`attendees`] answers and lists, [`payments`] who paid,
//! [`teams`] the teams linked HOME or AWAY, [`hosting`] whether the rink
//! lists the event under its name, [`viewer`] the viewer's own standing,
//! [`sides`] Dark and Light, [`bill`] the ice bill (docs/sides-and-bill.md),
//! [`rules`] the RSVP rules and regulars, [`check_in`] check-in at the rink
//! (docs/pickup-night.md).

mod attendees;
mod bill;
mod check_in;
mod edit;
mod groups;
mod history;
mod hosting;
mod input;
pub(crate) mod listing;
mod payments;
mod rules;
mod series;
mod sides;
mod teams;
mod viewer;

pub use groups::{Group, GroupConfig};
pub use viewer::Viewer;

use input::{EventInput, NewEvent, merge};
use series::{Scope, ScopeQuery};

use super::Page;
use crate::auth::AuthUser;
use crate::commands;
use crate::db::{
    self,
    events::{EventFields, EventFilter, EventRow},
};
use crate::domain::{EventType, TeamRole};
use crate::error::{AppError, AppResult, FieldErrors};
use crate::permissions::{self, Action};
use crate::state::AppState;
use actix_web::{HttpResponse, delete, get, post, web};
use serde::{Deserialize, Serialize};
use utoipa_actix_web::service_config::ServiceConfig;

pub fn config(cfg: &mut ServiceConfig) {
    cfg.service(create)
        .service(listing::list)
        .service(get_one)
        .service(edit::edit)
        .service(cancel)
        .service(remove_event)
        .service(attendees::rsvp)
        .service(attendees::remove_attendee)
        .service(attendees::attendees)
        .service(payments::mark_payment)
        .service(payments::list_payments)
        .service(payments::grant_collection)
        .service(sides::get_sides)
        .service(sides::change_sides)
        .service(sides::swap_sides)
        .service(bill::get_bill)
        .service(bill::put_bill)
        .service(bill::close_bill)
        .service(bill::get_series_bill)
        .service(bill::put_series_bill)
        .service(teams::set_team)
        .service(teams::unset_team)
        .service(hosting::host)
        .service(hosting::unhost)
        .service(series::get_series)
        .service(rules::get_rules)
        .service(rules::put_rules)
        .service(rules::get_series_rules)
        .service(rules::put_series_rules)
        .service(rules::get_regulars)
        .service(rules::add_regular)
        .service(rules::remove_regular)
        .service(check_in::get_check_ins)
        .service(check_in::put_check_in)
        .service(check_in::delete_check_in)
        .service(check_in::self_check_in)
        .service(history::get_history)
        .service(history::get_series_record);
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EventTeam {
    pub team_id: String,
    pub team_name: String,
    pub role: TeamRole,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Event {
    pub id: String,
    pub title: String,
    pub description: Option<String>,
    pub location: Option<String>,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub start_date: i64,
    #[serde(with = "crate::time::rfc3339_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub end_date: Option<i64>,
    pub image_url: Option<String>,
    pub creator_id: String,
    pub facility_id: Option<String>,
    /// Listed at its facility under the rink's name (made, scheduled or
    /// listed by the facility's staff). False for a community event at the
    /// rink, and for an event without a facility.
    pub hosted_by_facility: bool,
    pub season_id: Option<String>,
    pub external_home_team_name: Option<String>,
    pub external_away_team_name: Option<String>,
    pub external_rink: Option<String>,
    pub home_score: Option<i64>,
    pub away_score: Option<i64>,
    pub event_type: EventType,
    pub max_skaters: Option<i64>,
    pub max_goalies: Option<i64>,
    pub group_config: Option<GroupConfig>,
    /// The attendees document's version (`seq` of `event:ID`).
    pub version: i64,
    #[serde(with = "crate::time::rfc3339_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub cancelled_at: Option<i64>,
    /// Why it was cancelled, as the organiser put it; null when they did
    /// not say, and while it is not cancelled.
    pub cancel_reason: Option<String>,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: i64,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub updated_at: i64,
    /// The weekly series it is part of (`GET /event-series/{id}`).
    pub series_id: Option<String>,
    pub teams: Vec<EventTeam>,
    /// Its RSVP rules as moments (docs/pickup-night.md).
    pub rsvp_rules: rules::EventRules,
    /// Only on single reads by a signed-in viewer.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub viewer: Option<Viewer>,
}

fn event_from(row: EventRow, teams: Vec<EventTeam>, viewer: Option<Viewer>) -> Event {
    let rsvp_rules = rules::EventRules::of(&row);
    Event {
        rsvp_rules,
        event_type: EventType::parse(&row.event_type).unwrap_or(EventType::Other),
        group_config: row.group_config.as_deref().and_then(|g| serde_json::from_str(g).ok()),
        id: row.id,
        title: row.title,
        description: row.description,
        location: row.location,
        start_date: row.start_date,
        end_date: row.end_date,
        image_url: row.image_url,
        creator_id: row.creator_id,
        facility_id: row.facility_id,
        hosted_by_facility: row.hosted_by_facility != 0,
        season_id: row.season_id,
        external_home_team_name: row.external_home_team_name,
        external_away_team_name: row.external_away_team_name,
        external_rink: row.external_rink,
        home_score: row.home_score,
        away_score: row.away_score,
        max_skaters: row.max_skaters,
        max_goalies: row.max_goalies,
        version: row.version,
        cancelled_at: row.cancelled_at,
        cancel_reason: row.cancel_reason,
        created_at: row.created_at,
        updated_at: row.updated_at,
        series_id: row.series_id,
        teams,
        viewer,
    }
}

async fn load_event(state: &AppState, id: &str, viewer: Option<&AuthUser>) -> AppResult<Event> {
    let row = db::events::get(&state.db.pool, id).await?.ok_or_else(|| AppError::not_found("event"))?;
    let teams = event_teams(state, id).await?;
    let viewer = match viewer {
        None => None,
        Some(me) => Some(viewer::of(state, &row, me).await?),
    };
    Ok(event_from(row, teams, viewer))
}

async fn event_teams(state: &AppState, event_id: &str) -> AppResult<Vec<EventTeam>> {
    Ok(db::events::teams(&state.db.pool, event_id)
        .await?
        .into_iter()
        .map(|t| EventTeam {
            role: TeamRole::parse(&t.role).unwrap_or(TeamRole::Home),
            team_id: t.team_id,
            team_name: t.team_name,
        })
        .collect())
}

/// Create an event; the creator organises it. With `repeat`, the first of
/// a weekly series, its other events made with it (docs/series.md).
#[utoipa::path(request_body = NewEvent, responses((status = 201, body = Event),
    (status = 403, body = crate::error::ErrorEnvelope, description = "a season's events are its facility's owner's and managers' to schedule"),
    (status = 422, body = crate::error::ErrorEnvelope)), tag = "events", security(("bearerAuth" = [])))]
#[post("/events")]
async fn create(state: web::Data<AppState>, me: AuthUser, body: web::Json<EventInput>) -> AppResult<HttpResponse> {
    let mut input = body.into_inner();
    let repeat = input.repeat.take();
    let now = (state.clock)();
    let (fields, (max_skaters, max_goalies)) =
        merge(&state.db, &me, input, EventFields::default(), (None, None), now).await?;
    let series = match repeat {
        Some(repeat) => Some(series::plan(&state, &fields, repeat, now).await?),
        None => None,
    };
    let hosted = hosting::hosted_by_facility(&state, &me, &fields).await?;
    let mut tx = state.db.begin().await?;
    let series_id = match &series {
        Some(s) => Some(db::series::insert(&mut *tx, &me.id, s.frequency.as_str(), &s.time_zone, &s.until).await?),
        None => None,
    };
    let series_id = series_id.as_deref();
    let id = db::events::insert(&mut *tx, &me.id, &fields, max_skaters, max_goalies, hosted, series_id).await?;
    let mut made = vec![id.clone()];
    for &start in series.iter().flat_map(|s| s.starts.iter().skip(1)) {
        let week = series::at(&fields, start);
        made.push(db::events::insert(&mut *tx, &me.id, &week, max_skaters, max_goalies, hosted, series_id).await?);
    }
    // The feed hears of a series once, on its first event.
    let told = crate::feed::event_created(&mut tx, &me.id, &id).await?;
    tx.commit().await?;
    crate::live::feed::spawn_push(&state.db, &state.realtime.pusher, vec![told]);
    // Open places are news to the subs they match, live and as SUB_MATCH
    // (`market::push`; a week of a series beyond the market's 7-day horizon
    // is no open spot yet and is skipped there).
    for event_id in &made {
        crate::market::push::event_changed_soon(&state.db, &state.realtime.pusher, event_id, now);
    }
    Ok(HttpResponse::Created().json(load_event(&state, &id, Some(&me)).await?))
}

/// An event, with the viewer's own standing.
#[utoipa::path(responses((status = 200, body = Event), (status = 404, body = crate::error::ErrorEnvelope)), tag = "events", security(("bearerAuth" = [])))]
#[get("/events/{id}")]
async fn get_one(state: web::Data<AppState>, me: AuthUser, id: web::Path<String>) -> AppResult<web::Json<Event>> {
    Ok(web::Json(load_event(&state, &id, Some(&me)).await?))
}

/// The event, after checking the viewer organises it (404 before 403).
async fn require_organiser(state: &AppState, event_id: &str, me: &AuthUser) -> AppResult<EventRow> {
    permissions::check(&state.db, Some(&me.id), Action::OrganiseEvent { event_id }).await?;
    db::events::get(&state.db.pool, event_id).await?.ok_or_else(|| AppError::not_found("event"))
}

/// The longest cancellation reason, in characters after trimming.
pub const MAX_CANCEL_REASON_CHARS: usize = 500;

/// The body of cancelling, optional as a whole (no body: no reason).
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CancelInput {
    /// Why, shown on the event (`cancelReason`) and in the cancellation
    /// notification: at most 500 characters after trimming; blank or null
    /// is no reason.
    #[schema(schema_with = crate::domain::text::schema::optional_text::<MAX_CANCEL_REASON_CHARS>)]
    pub reason: Option<String>,
}

/// The reason of a cancel body: none for an empty body, blank or null;
/// a 422 beyond [`MAX_CANCEL_REASON_CHARS`]. The body is read by hand
/// because it is optional: a client that sends none (as before reasons
/// existed) still cancels.
fn cancel_reason(body: &[u8]) -> AppResult<Option<String>> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    let input: CancelInput = serde_json::from_slice(body).map_err(|e| {
        if e.is_data() {
            AppError::field("reason", e.to_string())
        } else {
            AppError::BadRequest(format!("malformed JSON: {e}"))
        }
    })?;
    let reason = input.reason.as_deref().map(str::trim).filter(|r| !r.is_empty());
    match reason {
        None => Ok(None),
        Some(r) => {
            if let Some(m) = crate::domain::text::too_long(r, MAX_CANCEL_REASON_CHARS) {
                return Err(AppError::field("reason", m));
            }
            crate::domain::text::text(r, MAX_CANCEL_REASON_CHARS).map(Some).map_err(|m| AppError::field("reason", m))
        }
    }
}

/// Cancel an event: everyone watching it sees it at once; RSVPs are kept.
/// With `scope=following`, it and every later event of its series (each
/// with the same reason).
#[utoipa::path(params(ScopeQuery), request_body(content = Option<CancelInput>, description = "Optional: why."),
    responses((status = 200, body = Event), (status = 403, body = crate::error::ErrorEnvelope),
    (status = 409, body = crate::error::ErrorEnvelope, description = "already cancelled"),
    (status = 422, body = crate::error::ErrorEnvelope, description = "a reason over 500 characters")), tag = "events", security(("bearerAuth" = [])))]
#[post("/events/{id}/cancel")]
async fn cancel(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    query: web::Query<ScopeQuery>,
    body: web::Bytes,
) -> AppResult<web::Json<Event>> {
    let reason = cancel_reason(&body)?;
    match query.scope.unwrap_or_default() {
        Scope::This => commands::event::cancel(&state, &me, &id, reason).await?,
        Scope::Following => series::cancel_following(&state, &me, &id, reason).await?,
    }
    let event = load_event(&state, &id, Some(&me)).await?;
    series::changed(&state, event.series_id.as_deref());
    Ok(web::Json(event))
}

/// Delete an event and its RSVPs (organisers). Prefer cancelling an event
/// people answered: deleting erases the record.
#[utoipa::path(responses((status = 204), (status = 403, body = crate::error::ErrorEnvelope)), tag = "events", security(("bearerAuth" = [])))]
#[delete("/events/{id}")]
async fn remove_event(state: web::Data<AppState>, me: AuthUser, id: web::Path<String>) -> AppResult<HttpResponse> {
    permissions::check(&state.db, Some(&me.id), Action::OrganiseEvent { event_id: &id }).await?;
    let series_id = db::events::get(&state.db.pool, &id).await?.and_then(|e| e.series_id);
    let mut tx = state.db.begin().await?;
    db::feed::forget(&mut *tx, db::feed::Resource::Event, &id).await?;
    db::notifications::forget(&mut *tx, db::notifications::About::Event, &id).await?;
    db::events::delete(&mut *tx, &id).await?;
    tx.commit().await?;
    series::changed(&state, series_id.as_deref());
    Ok(HttpResponse::NoContent().finish())
}

#[cfg(test)]
mod fuzz {
    use super::groups::GroupBalance;
    use super::*;
    use crate::fuzzing::{self, json_bodies};
    use proptest::prelude::*;

    json_bodies! {
        event_input: input::EventInput => |body| {
            // The parts of `input::merge` that need no database.
            let mut errors = FieldErrors::new();
            if let Some(Some(g)) = body.group_config {
                g.check(&mut errors);
            }
            for time in [body.start_date, body.end_date.flatten()].into_iter().flatten() {
                if crate::time::parse_rfc3339(&time).is_none() {
                    errors.insert("startDate".into(), crate::time::NOT_RFC3339.into());
                }
            }
            crate::api::finish(errors)
        };
        payment: payments::PaymentInput;
        event_team: teams::EventTeamInput;
    }

    proptest! {
        #![proptest_config(fuzzing::config(1_000))]

        /// Group colours are checked byte-wise after a `#`: any name and
        /// colour is accepted or a 422 message, never a slice panic.
        #[test]
        fn any_group_config_is_checked(groups in prop::collection::vec((fuzzing::text(), fuzzing::text()), 0..6)) {
            let config = GroupConfig {
                groups: groups.into_iter().map(|(name, color)| Group { name, color }).collect(),
                balance_by: GroupBalance::Order,
            };
            let mut errors = FieldErrors::new();
            config.check(&mut errors);
            prop_assert!(errors.keys().all(|k| k == "groupConfig"));
        }
    }
}
