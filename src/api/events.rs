//! Events and RSVPs. Reads come from the database (attendees from the live
//! actor when there is one); every RSVP, removal, limit change and
//! cancellation goes to the event's actor through the registry, which
//! decides, commits, and only then answers — the same path for REST and the
//! WebSocket `rsvp` / `removeAttendee` commands.

use super::{Page, check_len, check_url, clean, finish, idempotency_header};
use crate::auth::AuthUser;
use crate::commands::{self, event::RsvpInput};
use crate::db::{
    self, Db,
    events::{EventFields, EventFilter, EventRow},
};
use crate::domain::{EventType, HockeyPosition, TeamRole};
use crate::error::{AppError, AppResult, FieldErrors};
use crate::permissions::{self, Action, Object};
use crate::startup::AppState;
use actix_web::{HttpRequest, HttpResponse, delete, get, patch, post, put, web};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa_actix_web::service_config::ServiceConfig;

pub fn config(cfg: &mut ServiceConfig) {
    cfg.service(create)
        .service(list)
        .service(get_one)
        .service(edit)
        .service(cancel)
        .service(remove_event)
        .service(rsvp)
        .service(remove_attendee)
        .service(attendees)
        .service(mark_payment)
        .service(list_payments)
        .service(set_team)
        .service(unset_team);
}

/// Most places an event may have; a rink holds no more.
const MAX_LIMIT: i64 = 500;

/// How attendees are split into groups on the event page, e.g. two jersey
/// colours balanced by position. Validated here; the client assigns people.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct GroupConfig {
    /// 2–4 groups, in display order.
    pub groups: Vec<Group>,
    /// `POSITION`: spread goalies, then defence, then forwards evenly;
    /// `ORDER`: alternate in order of acceptance.
    pub balance_by: GroupBalance,
}

#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Group {
    pub name: String,
    /// `#rrggbb`.
    pub color: String,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum GroupBalance {
    Position,
    Order,
}

impl GroupConfig {
    fn check(&self, errors: &mut FieldErrors) {
        let hex = |c: &str| c.len() == 7 && c.starts_with('#') && c[1..].chars().all(|ch| ch.is_ascii_hexdigit());
        if !(2..=4).contains(&self.groups.len()) {
            errors.insert("groupConfig".into(), "2 to 4 groups".into());
        } else if self.groups.iter().any(|g| g.name.trim().is_empty() || g.name.chars().count() > 30 || !hex(&g.color))
        {
            errors
                .insert("groupConfig".into(), "each group needs a name (≤ 30 characters) and a #rrggbb colour".into());
        }
    }
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EventTeam {
    pub team_id: String,
    pub team_name: String,
    pub role: TeamRole,
}

/// The viewer's own standing, so a page renders without another call.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Viewer {
    pub is_organiser: bool,
    /// Organiser who may mark payments.
    pub can_collect_payments: bool,
    /// ATTENDING, WAITLISTED, DECLINED, REMOVED or null.
    pub status: Option<String>,
    pub waitlist_rank: Option<i64>,
    pub position: Option<HockeyPosition>,
    /// Own payment state (null when not attending).
    pub is_paid: Option<bool>,
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
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: i64,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub updated_at: i64,
    pub teams: Vec<EventTeam>,
    /// Only on single reads by a signed-in viewer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub viewer: Option<Viewer>,
}

fn event_from(row: EventRow, teams: Vec<EventTeam>, viewer: Option<Viewer>) -> Event {
    Event {
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
        created_at: row.created_at,
        updated_at: row.updated_at,
        teams,
        viewer,
    }
}

async fn load_event(state: &AppState, id: &str, viewer: Option<&AuthUser>) -> AppResult<Event> {
    let row = db::events::get(&state.db.pool, id).await?.ok_or_else(|| AppError::not_found("event"))?;
    let teams = event_teams(state, id).await?;
    let viewer = match viewer {
        None => None,
        Some(me) => Some(viewer_of(state, id, me).await?),
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

async fn viewer_of(state: &AppState, event_id: &str, me: &AuthUser) -> AppResult<Viewer> {
    let rel = permissions::relations(&state.db, Some(&me.id), Object::Event(event_id)).await?;
    let is_organiser = rel.permits(&Action::OrganiseEvent { event_id });
    let collects = db::users::get(&state.db.pool, &me.id).await?.is_some_and(|u| u.can_collect_event_payments != 0);
    let (_, doc) = crate::live::event::current(&state.db, &state.realtime.events, event_id).await?;
    let attending = doc["attending"].as_array().and_then(|a| a.iter().find(|e| e["userId"] == me.id.as_str()));
    let waiting = doc["waitlist"].as_array().and_then(|a| a.iter().find(|e| e["userId"] == me.id.as_str()));
    let payments = db::events::payments(&state.db.pool, event_id).await?;
    let (status, rank, position) = match (attending, waiting) {
        (Some(a), _) => (Some("ATTENDING".to_string()), None, a["position"].as_str().and_then(HockeyPosition::parse)),
        (None, Some(w)) => {
            (Some("WAITLISTED".to_string()), w["rank"].as_i64(), w["position"].as_str().and_then(HockeyPosition::parse))
        }
        (None, None) => (db::events::rsvp_status(&state.db.pool, event_id, &me.id).await?, None, None),
    };
    Ok(Viewer {
        is_organiser,
        can_collect_payments: is_organiser && collects,
        is_paid: attending.map(|_| payments.get(&me.id).copied().unwrap_or(false)),
        status,
        waitlist_rank: rank,
        position,
    })
}

/// Body of create and edit. On edit every field is optional; `null` clears.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct EventInput {
    pub title: Option<String>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>)]
    pub description: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>)]
    pub location: Option<Option<String>>,
    /// RFC 3339.
    pub start_date: Option<String>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>)]
    pub end_date: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>)]
    pub image_url: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>)]
    pub facility_id: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>)]
    pub season_id: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>)]
    pub external_home_team_name: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>)]
    pub external_away_team_name: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>)]
    pub external_rink: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<i64>)]
    pub home_score: Option<Option<i64>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<i64>)]
    pub away_score: Option<Option<i64>>,
    pub event_type: Option<EventType>,
    /// Null = unlimited.
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<i64>)]
    pub max_skaters: Option<Option<i64>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<i64>)]
    pub max_goalies: Option<Option<i64>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<GroupConfig>)]
    pub group_config: Option<Option<GroupConfig>>,
}

/// Tells "absent" (outer None) from "null" (Some(None)).
fn nullable<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(d).map(Some)
}

/// Applies the input over `base` (an existing event, or defaults) and
/// validates the result as a whole.
async fn merge(
    db: &Db,
    me: &AuthUser,
    input: EventInput,
    base: EventFields,
    limits: (Option<i64>, Option<i64>),
) -> AppResult<(EventFields, (Option<i64>, Option<i64>))> {
    let mut errors = FieldErrors::new();
    let text = |v: Option<Option<String>>, old: Option<String>| match v {
        None => old,
        Some(v) => clean(v),
    };
    let mut f = base;
    if let Some(t) = input.title {
        f.title = t.trim().to_string();
    }
    if f.title.is_empty() || f.title.chars().count() > 200 {
        errors.insert("title".into(), "is required (at most 200 characters)".into());
    }
    f.description = text(input.description, f.description);
    f.location = text(input.location, f.location);
    f.image_url = text(input.image_url, f.image_url);
    f.facility_id = text(input.facility_id, f.facility_id);
    f.season_id = text(input.season_id, f.season_id);
    f.external_home_team_name = text(input.external_home_team_name, f.external_home_team_name);
    f.external_away_team_name = text(input.external_away_team_name, f.external_away_team_name);
    f.external_rink = text(input.external_rink, f.external_rink);
    if let Some(s) = input.start_date {
        match crate::time::parse_rfc3339(&s) {
            Some(ms) => f.start_date = ms,
            None => {
                errors.insert("startDate".into(), "must be an RFC 3339 time".into());
            }
        }
    }
    if f.start_date == 0 && !errors.contains_key("startDate") {
        errors.insert("startDate".into(), "is required".into());
    }
    match input.end_date {
        None => {}
        Some(None) => f.end_date = None,
        Some(Some(s)) => match crate::time::parse_rfc3339(&s) {
            Some(ms) => f.end_date = Some(ms),
            None => {
                errors.insert("endDate".into(), "must be an RFC 3339 time".into());
            }
        },
    }
    if f.end_date.is_some_and(|end| end < f.start_date) {
        errors.insert("endDate".into(), "must not be before startDate".into());
    }
    if let Some(score) = input.home_score {
        f.home_score = score;
    }
    if let Some(score) = input.away_score {
        f.away_score = score;
    }
    for (field, score) in [("homeScore", f.home_score), ("awayScore", f.away_score)] {
        if score.is_some_and(|s| !(0..=999).contains(&s)) {
            errors.insert(field.into(), "must be 0–999".into());
        }
    }
    if let Some(t) = input.event_type {
        f.event_type = t.as_str().to_string();
    }
    if f.event_type.is_empty() {
        errors.insert("eventType".into(), "is required".into());
    }
    let max_skaters = input.max_skaters.unwrap_or(limits.0);
    let max_goalies = input.max_goalies.unwrap_or(limits.1);
    for (field, limit) in [("maxSkaters", max_skaters), ("maxGoalies", max_goalies)] {
        if limit.is_some_and(|l| !(0..=MAX_LIMIT).contains(&l)) {
            errors.insert(field.into(), format!("must be 0–{MAX_LIMIT}, or null for unlimited"));
        }
    }
    match input.group_config {
        None => {}
        Some(None) => f.group_config = None,
        Some(Some(g)) => {
            g.check(&mut errors);
            f.group_config = serde_json::to_string(&g).ok();
        }
    }
    check_len(&mut errors, "description", f.description.as_deref(), 4000);
    check_len(&mut errors, "location", f.location.as_deref(), 200);
    check_url(&mut errors, "imageUrl", f.image_url.as_deref());
    for (field, v) in [
        ("externalHomeTeamName", &f.external_home_team_name),
        ("externalAwayTeamName", &f.external_away_team_name),
        ("externalRink", &f.external_rink),
    ] {
        check_len(&mut errors, field, v.as_deref(), 120);
    }
    if let Some(facility_id) = &f.facility_id
        && !db::facilities::exists(&db.pool, facility_id).await?
    {
        errors.insert("facilityId".into(), "no such facility".into());
    }
    finish(errors)?;
    if let Some(season_id) = &f.season_id {
        let season_facility = db::access::season_facility(&db.pool, season_id)
            .await?
            .ok_or_else(|| AppError::field("seasonId", "no such season"))?;
        if f.facility_id.as_deref().is_some_and(|fac| fac != season_facility) {
            return Err(AppError::field("seasonId", "the season belongs to another facility"));
        }
        // A season's schedule is the facility's business.
        permissions::check(db, Some(&me.id), Action::ScheduleSeasonEvent { season_id }).await?;
        f.facility_id = Some(season_facility);
    }
    Ok((f, (max_skaters, max_goalies)))
}

/// Create an event; the creator organises it.
#[utoipa::path(request_body = EventInput, responses((status = 201, body = Event), (status = 422, body = crate::error::ErrorEnvelope)), tag = "events")]
#[post("/events")]
async fn create(state: web::Data<AppState>, me: AuthUser, body: web::Json<EventInput>) -> AppResult<HttpResponse> {
    let base = EventFields::default();
    let (fields, (max_skaters, max_goalies)) = merge(&state.db, &me, body.into_inner(), base, (None, None)).await?;
    let id = db::events::insert(&state.db.pool, &me.id, &fields, max_skaters, max_goalies).await?;
    Ok(HttpResponse::Created().json(load_event(&state, &id, Some(&me)).await?))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct EventQuery {
    pub facility_id: Option<String>,
    pub season_id: Option<String>,
    pub event_type: Option<EventType>,
    /// RFC 3339: events starting at or after.
    pub from: Option<String>,
    /// RFC 3339: events starting before.
    pub to: Option<String>,
    /// `me`: events I created.
    pub created_by: Option<String>,
    /// `me`: events I'm attending or waitlisted for.
    pub attending: Option<String>,
    pub include_cancelled: Option<bool>,
    pub limit: Option<i64>,
    pub cursor: Option<String>,
}

/// Events by start time (soonest first), with filters.
#[utoipa::path(params(EventQuery), responses((status = 200, body = Page<Event>)), tag = "events")]
#[get("/events")]
async fn list(
    state: web::Data<AppState>,
    me: AuthUser,
    query: web::Query<EventQuery>,
) -> AppResult<web::Json<Page<Event>>> {
    let q = query.into_inner();
    let time = |field: &str, v: Option<String>| -> AppResult<Option<i64>> {
        v.map(|s| crate::time::parse_rfc3339(&s).ok_or_else(|| AppError::field(field, "must be an RFC 3339 time")))
            .transpose()
    };
    let me_only = |field: &str, v: Option<String>| -> AppResult<Option<String>> {
        match v.as_deref() {
            None => Ok(None),
            Some("me") => Ok(Some(me.id.clone())),
            Some(_) => Err(AppError::field(field, "only `me` is supported")),
        }
    };
    let filter = EventFilter {
        facility_id: q.facility_id,
        season_id: q.season_id,
        event_type: q.event_type.map(|t| t.as_str().to_string()),
        from: time("from", q.from)?,
        to: time("to", q.to)?,
        created_by: me_only("createdBy", q.created_by)?,
        attending: me_only("attending", q.attending)?,
        include_cancelled: q.include_cancelled.unwrap_or(false),
    };
    let after = match q.cursor.as_deref() {
        None => None,
        Some(raw) => {
            let c = db::Cursor::parse(raw).ok_or_else(|| AppError::field("cursor", "not a cursor we gave out"))?;
            Some((c.at, c.id))
        }
    };
    let limit = db::page_limit(q.limit);
    let rows = db::events::list(&state.db.pool, &filter, after, limit).await?;
    let (rows, next_cursor) =
        db::finish_page(rows, limit, |r| db::Cursor { at: r.start_date, id: r.id.clone() }.encode());
    let mut items = Vec::with_capacity(rows.len());
    for row in rows {
        let teams = event_teams(&state, &row.id).await?;
        items.push(event_from(row, teams, None));
    }
    Ok(web::Json(Page { items, next_cursor }))
}

/// An event, with the viewer's own standing.
#[utoipa::path(responses((status = 200, body = Event), (status = 404, body = crate::error::ErrorEnvelope)), tag = "events")]
#[get("/events/{id}")]
async fn get_one(state: web::Data<AppState>, me: AuthUser, id: web::Path<String>) -> AppResult<web::Json<Event>> {
    Ok(web::Json(load_event(&state, &id, Some(&me)).await?))
}

/// The event, after checking the viewer organises it (404 before 403).
async fn require_organiser(state: &AppState, event_id: &str, me: &AuthUser) -> AppResult<EventRow> {
    permissions::check(&state.db, Some(&me.id), Action::OrganiseEvent { event_id }).await?;
    db::events::get(&state.db.pool, event_id).await?.ok_or_else(|| AppError::not_found("event"))
}

/// Edit an event (its creator and its facility's owner and managers).
/// Changing `maxSkaters` / `maxGoalies` goes through the RSVP actor: a
/// raised limit promotes from the waitlist at once.
#[utoipa::path(request_body = EventInput, responses((status = 200, body = Event), (status = 403, body = crate::error::ErrorEnvelope)), tag = "events")]
#[patch("/events/{id}")]
async fn edit(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    body: web::Json<EventInput>,
) -> AppResult<web::Json<Event>> {
    let row = require_organiser(&state, &id, &me).await?;
    if row.cancelled_at.is_some() {
        return Err(AppError::conflict_code("event_cancelled", "a cancelled event cannot be edited"));
    }
    let input = body.into_inner();
    let limits_changed = input.max_skaters.is_some() || input.max_goalies.is_some();
    let base = EventFields {
        title: row.title.clone(),
        description: row.description.clone(),
        location: row.location.clone(),
        start_date: row.start_date,
        end_date: row.end_date,
        image_url: row.image_url.clone(),
        facility_id: row.facility_id.clone(),
        season_id: row.season_id.clone(),
        external_home_team_name: row.external_home_team_name.clone(),
        external_away_team_name: row.external_away_team_name.clone(),
        external_rink: row.external_rink.clone(),
        home_score: row.home_score,
        away_score: row.away_score,
        event_type: row.event_type.clone(),
        group_config: row.group_config.clone(),
    };
    let (fields, (max_skaters, max_goalies)) =
        merge(&state.db, &me, input, base, (row.max_skaters, row.max_goalies)).await?;
    db::events::update(&state.db.pool, &id, &fields).await?;
    if limits_changed {
        commands::event::set_limits(&state, &me, &id, max_skaters, max_goalies).await?;
    }
    Ok(web::Json(load_event(&state, &id, Some(&me)).await?))
}

/// Cancel an event: everyone watching it sees it at once; RSVPs are kept.
#[utoipa::path(responses((status = 200, body = Event), (status = 403, body = crate::error::ErrorEnvelope)), tag = "events")]
#[post("/events/{id}/cancel")]
async fn cancel(state: web::Data<AppState>, me: AuthUser, id: web::Path<String>) -> AppResult<web::Json<Event>> {
    commands::event::cancel(&state, &me, &id).await?;
    Ok(web::Json(load_event(&state, &id, Some(&me)).await?))
}

/// Delete an event and its RSVPs (organisers). Prefer cancelling an event
/// people answered: deleting erases the record.
#[utoipa::path(responses((status = 204), (status = 403, body = crate::error::ErrorEnvelope)), tag = "events")]
#[delete("/events/{id}")]
async fn remove_event(state: web::Data<AppState>, me: AuthUser, id: web::Path<String>) -> AppResult<HttpResponse> {
    permissions::check(&state.db, Some(&me.id), Action::OrganiseEvent { event_id: &id }).await?;
    db::events::delete(&state.db.pool, &id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Answer for yourself: attending (or waitlisted when full) or declined.
/// Retries with the same `Idempotency-Key` answer the first reply.
#[utoipa::path(request_body = RsvpInput, params(("Idempotency-Key" = Option<String>, Header, description = "retry-safe command id")),
    responses((status = 200, body = Object, description = "{status, waitlistRank, version}"), (status = 404, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope)), tag = "events")]
#[put("/events/{id}/rsvp")]
async fn rsvp(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    req: HttpRequest,
    body: web::Json<RsvpInput>,
) -> AppResult<web::Json<Value>> {
    let key = idempotency_header(&req)?;
    Ok(web::Json(commands::event::rsvp(&state, &me, &id, body.into_inner(), key.as_deref()).await?))
}

/// Remove a person from attending or the waitlist (organisers); the head
/// of the waitlist is promoted.
#[utoipa::path(params(("Idempotency-Key" = Option<String>, Header, description = "retry-safe command id")),
    responses((status = 200, body = Object), (status = 403, body = crate::error::ErrorEnvelope)), tag = "events")]
#[delete("/events/{id}/attendees/{user_id}")]
async fn remove_attendee(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<(String, String)>,
    req: HttpRequest,
) -> AppResult<web::Json<Value>> {
    let (event_id, user_id) = path.into_inner();
    let key = idempotency_header(&req)?;
    Ok(web::Json(commands::event::remove_attendee(&state, &me, &event_id, &user_id, key.as_deref()).await?))
}

/// Who is attending and who waits, in order. `isPaid` is filled for the
/// organisers (everyone) and for yourself (your own entry) only.
#[utoipa::path(responses((status = 200, body = Object, description = "the attendees document")), tag = "events")]
#[get("/events/{id}/attendees")]
async fn attendees(state: web::Data<AppState>, me: AuthUser, id: web::Path<String>) -> AppResult<web::Json<Value>> {
    let (_, mut doc) = crate::live::event::current(&state.db, &state.realtime.events, &id).await?;
    let rel = permissions::relations(&state.db, Some(&me.id), Object::Event(&id)).await?;
    let organiser = rel.permits(&Action::OrganiseEvent { event_id: &id });
    let payments = db::events::payments(&state.db.pool, &id).await?;
    if let Some(entries) = doc["attending"].as_array_mut() {
        for entry in entries {
            let user = entry["userId"].as_str().unwrap_or_default().to_string();
            if organiser || user == me.id {
                entry["isPaid"] = Value::Bool(payments.get(&user).copied().unwrap_or(false));
            }
        }
    }
    Ok(web::Json(doc))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PaymentInput {
    pub is_paid: bool,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EventPayment {
    pub id: String,
    pub event_id: String,
    pub user_id: String,
    pub is_paid: bool,
    #[serde(with = "crate::time::rfc3339_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub marked_paid_at: Option<i64>,
    pub marked_paid_by_id: Option<String>,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: i64,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub updated_at: i64,
}

impl From<db::events::PaymentRow> for EventPayment {
    fn from(row: db::events::PaymentRow) -> Self {
        EventPayment {
            is_paid: row.is_paid != 0,
            id: row.id,
            event_id: row.event_id,
            user_id: row.user_id,
            marked_paid_at: row.marked_paid_at,
            marked_paid_by_id: row.marked_paid_by_id,
            created_at: row.created_at,
            updated_at: row.updated_at,
        }
    }
}

async fn require_collector(state: &AppState, event_id: &str, me: &AuthUser) -> AppResult<()> {
    permissions::check(&state.db, Some(&me.id), Action::CollectPayments { event_id }).await?;
    permissions::check_payment_collector(&state.db, &me.id).await
}

/// Mark an attendee paid or unpaid (organisers who collect payments).
#[utoipa::path(request_body = PaymentInput, responses((status = 200, body = EventPayment), (status = 403, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope)), tag = "events")]
#[put("/events/{id}/payments/{user_id}")]
async fn mark_payment(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<(String, String)>,
    body: web::Json<PaymentInput>,
) -> AppResult<web::Json<EventPayment>> {
    let (event_id, user_id) = path.into_inner();
    require_collector(&state, &event_id, &me).await?;
    let mut conn = state.db.pool.acquire().await?;
    let row = db::events::mark_paid(&mut conn, &event_id, &user_id, body.is_paid, &me.id)
        .await?
        .ok_or_else(|| AppError::conflict_code("not_attending", "only attendees have a payment to mark"))?;
    Ok(web::Json(EventPayment::from(row)))
}

/// Every attendee's payment (organisers who collect payments).
#[utoipa::path(responses((status = 200, body = Vec<EventPayment>), (status = 403, body = crate::error::ErrorEnvelope)), tag = "events")]
#[get("/events/{id}/payments")]
async fn list_payments(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
) -> AppResult<web::Json<Vec<EventPayment>>> {
    require_collector(&state, &id, &me).await?;
    let rows = db::events::payment_rows(&state.db.pool, &id).await?;
    Ok(web::Json(rows.into_iter().map(EventPayment::from).collect()))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct EventTeamInput {
    pub role: TeamRole,
}

/// Link a team as HOME or AWAY (organisers).
#[utoipa::path(request_body = EventTeamInput, responses((status = 200, body = Event)), tag = "events")]
#[put("/events/{id}/teams/{team_id}")]
async fn set_team(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<(String, String)>,
    body: web::Json<EventTeamInput>,
) -> AppResult<web::Json<Event>> {
    let (event_id, team_id) = path.into_inner();
    permissions::check(&state.db, Some(&me.id), Action::OrganiseEvent { event_id: &event_id }).await?;
    if !db::teams::exists(&state.db.pool, &team_id).await? {
        return Err(AppError::not_found("team"));
    }
    let mut tx = state.db.begin().await?;
    db::events::set_team(&mut tx, &event_id, &team_id, body.role.as_str()).await?;
    tx.commit().await?;
    Ok(web::Json(load_event(&state, &event_id, Some(&me)).await?))
}

/// Unlink a team (organisers).
#[utoipa::path(responses((status = 204)), tag = "events")]
#[delete("/events/{id}/teams/{team_id}")]
async fn unset_team(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<(String, String)>,
) -> AppResult<HttpResponse> {
    let (event_id, team_id) = path.into_inner();
    permissions::check(&state.db, Some(&me.id), Action::OrganiseEvent { event_id: &event_id }).await?;
    db::events::remove_team(&state.db.pool, &event_id, &team_id).await?;
    Ok(HttpResponse::NoContent().finish())
}
