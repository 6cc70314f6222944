//! RSVP rules (docs/pickup-night.md): the late window, regulars first, the
//! lock and the game-day minimum, for one event or for a series' weeks; and
//! a series' list of regulars. A change is stored, then told to each
//! event's actor (`SetAccess`), which re-tiers its waitlists at once.

use crate::auth::AuthUser;
use crate::commands;
use crate::db::{self, events::EventRow, rsvp_rules::Regular};
use crate::domain::rsvp_rules::RsvpRules;
use crate::domain::whole::optional_whole;
use crate::error::{AppError, AppResult, FieldErrors};
use crate::permissions::{self, Action};
use crate::state::AppState;
use actix_web::{delete, get, put, web};
use serde::{Deserialize, Serialize};

/// The body of `PUT …/rsvp-rules`: every field in minutes before puck drop
/// or a count; absent or `null` = off (the late window: 24 h).
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RsvpRulesInput {
    /// A decline or removal this close to the start is a late drop-out.
    #[serde(default, deserialize_with = "optional_whole")]
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 20160)]
    pub late_window_minutes: Option<i64>,
    /// Places are the regulars' until this long before the start.
    #[serde(default, deserialize_with = "optional_whole")]
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 20160)]
    pub regulars_first_minutes: Option<i64>,
    /// RSVPs lock this long before the start.
    #[serde(default, deserialize_with = "optional_whole")]
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 10080)]
    pub cutoff_minutes: Option<i64>,
    #[serde(default, deserialize_with = "optional_whole")]
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 500)]
    pub min_skaters: Option<i64>,
    #[serde(default, deserialize_with = "optional_whole")]
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 500)]
    pub min_goalies: Option<i64>,
    /// When the game-day check runs; needs a minimum.
    #[serde(default, deserialize_with = "optional_whole")]
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 10080)]
    pub short_check_minutes: Option<i64>,
}

impl RsvpRulesInput {
    fn checked(self) -> AppResult<RsvpRules> {
        let rules = RsvpRules {
            late_window_minutes: self.late_window_minutes,
            regulars_first_minutes: self.regulars_first_minutes,
            cutoff_minutes: self.cutoff_minutes,
            min_skaters: self.min_skaters,
            min_goalies: self.min_goalies,
            short_check_minutes: self.short_check_minutes,
        };
        let mut errors = FieldErrors::new();
        for (field, message) in rules.problems() {
            errors.entry(field.to_string()).or_insert(message);
        }
        crate::api::finish(errors)?;
        Ok(rules)
    }
}

/// A regular, and where they come from.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RegularView {
    pub user_id: String,
    pub display_name: String,
    /// SERIES (the series' own list) or ROSTER (a linked team's roster).
    #[schema(pattern = "^(SERIES|ROSTER)$")]
    pub source: String,
}

impl From<Regular> for RegularView {
    fn from(r: Regular) -> Self {
        RegularView { source: r.source().as_str().to_string(), user_id: r.user_id, display_name: r.display_name }
    }
}

/// The rules, and the moments they make for this event.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RsvpRulesView {
    pub late_window_minutes: Option<i64>,
    pub regulars_first_minutes: Option<i64>,
    pub cutoff_minutes: Option<i64>,
    pub min_skaters: Option<i64>,
    pub min_goalies: Option<i64>,
    pub short_check_minutes: Option<i64>,
    /// Places are the regulars' until then (null: open to all).
    #[serde(with = "crate::time::rfc3339_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub open_to_all_at: Option<i64>,
    /// RSVPs lock then (null: no lock).
    #[serde(with = "crate::time::rfc3339_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub closes_at: Option<i64>,
    /// The game-day check runs then (null: no check).
    #[serde(with = "crate::time::rfc3339_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub short_check_at: Option<i64>,
    /// The event's regulars (to its organisers only; empty for anyone else).
    pub regulars: Vec<RegularView>,
}

/// What the event page shows of the rules (on every Event).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EventRules {
    /// The late window in force (the default when the event sets none).
    pub late_window_minutes: i64,
    #[serde(with = "crate::time::rfc3339_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub open_to_all_at: Option<i64>,
    #[serde(with = "crate::time::rfc3339_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub closes_at: Option<i64>,
    pub min_skaters: Option<i64>,
    pub min_goalies: Option<i64>,
    #[serde(with = "crate::time::rfc3339_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub short_check_at: Option<i64>,
}

impl EventRules {
    pub fn of(row: &EventRow) -> Self {
        let m = row.rules.moments(row.start_date);
        EventRules {
            late_window_minutes: row.rules.late_window_minutes(),
            open_to_all_at: m.open_to_all_at,
            closes_at: m.closes_at,
            min_skaters: row.rules.min_skaters,
            min_goalies: row.rules.min_goalies,
            short_check_at: m.short_check_at,
        }
    }
}

fn view(rules: RsvpRules, start: Option<i64>, regulars: Vec<Regular>) -> RsvpRulesView {
    let m = start.map(|s| rules.moments(s));
    RsvpRulesView {
        late_window_minutes: rules.late_window_minutes,
        regulars_first_minutes: rules.regulars_first_minutes,
        cutoff_minutes: rules.cutoff_minutes,
        min_skaters: rules.min_skaters,
        min_goalies: rules.min_goalies,
        short_check_minutes: rules.short_check_minutes,
        open_to_all_at: m.and_then(|m| m.open_to_all_at),
        closes_at: m.and_then(|m| m.closes_at),
        short_check_at: m.and_then(|m| m.short_check_at),
        regulars: regulars.into_iter().map(RegularView::from).collect(),
    }
}

async fn event(state: &AppState, id: &str) -> AppResult<EventRow> {
    db::events::get(&state.db.pool, id).await?.ok_or_else(|| AppError::not_found("event"))
}

async fn event_view(state: &AppState, row: &EventRow, me: &AuthUser) -> AppResult<RsvpRulesView> {
    let organiser = permissions::allows(&state.db, Some(&me.id), &Action::OrganiseEvent { event_id: &row.id }).await?;
    let regulars = if organiser { db::rsvp_rules::regulars(&state.db.pool, &row.id).await? } else { Vec::new() };
    Ok(view(row.rules, Some(row.start_date), regulars))
}

/// An event's RSVP rules and the moments they make.
#[utoipa::path(responses((status = 200, body = RsvpRulesView), (status = 401, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope)),
    tag = "events", security(("bearerAuth" = [])))]
#[get("/events/{id}/rsvp-rules")]
pub(super) async fn get_rules(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
) -> AppResult<web::Json<RsvpRulesView>> {
    let row = event(&state, &id).await?;
    Ok(web::Json(event_view(&state, &row, &me).await?))
}

/// Set an event's RSVP rules (organisers); the event's actor takes the new
/// regulars' window and lock at once.
#[utoipa::path(request_body = RsvpRulesInput, responses((status = 200, body = RsvpRulesView), (status = 401, body = crate::error::ErrorEnvelope), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)),
    tag = "events", security(("bearerAuth" = [])))]
#[put("/events/{id}/rsvp-rules")]
pub(super) async fn put_rules(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    body: web::Json<RsvpRulesInput>,
) -> AppResult<web::Json<RsvpRulesView>> {
    permissions::check(&state.db, Some(&me.id), Action::OrganiseEvent { event_id: &id }).await?;
    let rules = body.into_inner().checked()?;
    event(&state, &id).await?;
    db::rsvp_rules::set_event(&state.db.pool, &id, &rules).await?;
    commands::event::refresh_access(&state, &me.id, &id).await?;
    let row = event(&state, &id).await?;
    Ok(web::Json(event_view(&state, &row, &me).await?))
}

// ---------------------------------------------------------------- series

/// The series (404 when none) and its organisers' check: those of its
/// first week not cancelled, as for the series' bill.
async fn series_organiser(state: &AppState, series_id: &str, me: &AuthUser) -> AppResult<()> {
    db::series::get(&state.db.pool, series_id).await?.ok_or_else(|| AppError::not_found("series"))?;
    let weeks = db::series::events(&state.db.pool, series_id).await?;
    let first = weeks
        .iter()
        .find(|w| w.cancelled_at.is_none())
        .ok_or_else(|| AppError::conflict_code("no_weeks", "every week of this series is cancelled"))?;
    permissions::check(&state.db, Some(&me.id), Action::OrganiseEvent { event_id: &first.id }).await
}

/// Tells each upcoming week's actor its regulars and times as now stored.
async fn refresh_weeks(state: &AppState, series_id: &str, me: &AuthUser) -> AppResult<()> {
    let now = (state.clock)();
    for event_id in db::rsvp_rules::upcoming_of_series(&state.db.pool, series_id, now).await? {
        commands::event::refresh_access(state, &me.id, &event_id).await?;
    }
    Ok(())
}

async fn series_rules(state: &AppState, series_id: &str) -> AppResult<RsvpRules> {
    db::rsvp_rules::of_series(&state.db.pool, series_id).await?.ok_or_else(|| AppError::not_found("series"))
}

/// A series' RSVP rules (its organisers).
#[utoipa::path(responses((status = 200, body = RsvpRulesView), (status = 401, body = crate::error::ErrorEnvelope), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope)),
    tag = "events", security(("bearerAuth" = [])))]
#[get("/event-series/{id}/rsvp-rules")]
pub(super) async fn get_series_rules(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
) -> AppResult<web::Json<RsvpRulesView>> {
    series_organiser(&state, &id, &me).await?;
    let list = db::rsvp_rules::series_list(&state.db.pool, &id).await?;
    Ok(web::Json(view(series_rules(&state, &id).await?, None, list)))
}

/// Set a series' RSVP rules: every week not started yet takes them.
#[utoipa::path(request_body = RsvpRulesInput, responses((status = 200, body = RsvpRulesView), (status = 401, body = crate::error::ErrorEnvelope), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)),
    tag = "events", security(("bearerAuth" = [])))]
#[put("/event-series/{id}/rsvp-rules")]
pub(super) async fn put_series_rules(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    body: web::Json<RsvpRulesInput>,
) -> AppResult<web::Json<RsvpRulesView>> {
    series_organiser(&state, &id, &me).await?;
    let rules = body.into_inner().checked()?;
    let now = (state.clock)();
    let mut tx = state.db.begin().await?;
    db::rsvp_rules::set_series(&mut *tx, &id, &rules).await?;
    for event_id in db::rsvp_rules::upcoming_of_series(&mut *tx, &id, now).await? {
        db::rsvp_rules::set_event(&mut *tx, &event_id, &rules).await?;
    }
    tx.commit().await?;
    refresh_weeks(&state, &id, &me).await?;
    let list = db::rsvp_rules::series_list(&state.db.pool, &id).await?;
    Ok(web::Json(view(rules, None, list)))
}

/// A series' regulars, and who came and is not one yet.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SeriesRegulars {
    pub items: Vec<RegularView>,
    /// Past attendees not on the list, most weeks first (at most 50).
    pub suggestions: Vec<Suggestion>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Suggestion {
    pub user_id: String,
    pub display_name: String,
    /// Weeks they were in.
    pub attended: i64,
}

async fn regulars_view(state: &AppState, series_id: &str) -> AppResult<SeriesRegulars> {
    let items = db::rsvp_rules::series_list(&state.db.pool, series_id).await?;
    let suggestions = db::rsvp_rules::suggestions(&state.db.pool, series_id, (state.clock)()).await?;
    Ok(SeriesRegulars {
        items: items.into_iter().map(RegularView::from).collect(),
        suggestions: suggestions
            .into_iter()
            .map(|s| Suggestion { user_id: s.user_id, display_name: s.display_name, attended: s.attended })
            .collect(),
    })
}

/// A series' own list of regulars (its organisers).
#[utoipa::path(responses((status = 200, body = SeriesRegulars), (status = 401, body = crate::error::ErrorEnvelope), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope)),
    tag = "events", security(("bearerAuth" = [])))]
#[get("/event-series/{id}/regulars")]
pub(super) async fn get_regulars(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
) -> AppResult<web::Json<SeriesRegulars>> {
    series_organiser(&state, &id, &me).await?;
    Ok(web::Json(regulars_view(&state, &id).await?))
}

/// Put a person on a series' list of regulars (no change when there).
#[utoipa::path(responses((status = 200, body = SeriesRegulars), (status = 401, body = crate::error::ErrorEnvelope), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope)),
    tag = "events", security(("bearerAuth" = [])))]
#[put("/event-series/{id}/regulars/{user_id}")]
pub(super) async fn add_regular(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<(String, String)>,
) -> AppResult<web::Json<SeriesRegulars>> {
    let (id, user_id) = path.into_inner();
    series_organiser(&state, &id, &me).await?;
    db::users::get(&state.db.pool, &user_id).await?.ok_or_else(|| AppError::not_found("user"))?;
    db::rsvp_rules::add(&state.db.pool, &id, &user_id, &me.id).await?;
    refresh_weeks(&state, &id, &me).await?;
    Ok(web::Json(regulars_view(&state, &id).await?))
}

/// Take a person off a series' list of regulars (no change when not there).
#[utoipa::path(responses((status = 200, body = SeriesRegulars), (status = 401, body = crate::error::ErrorEnvelope), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope)),
    tag = "events", security(("bearerAuth" = [])))]
#[delete("/event-series/{id}/regulars/{user_id}")]
pub(super) async fn remove_regular(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<(String, String)>,
) -> AppResult<web::Json<SeriesRegulars>> {
    let (id, user_id) = path.into_inner();
    series_organiser(&state, &id, &me).await?;
    db::rsvp_rules::remove(&state.db.pool, &id, &user_id).await?;
    refresh_weeks(&state, &id, &me).await?;
    Ok(web::Json(regulars_view(&state, &id).await?))
}
