//! Statuses and the sub market (CONTRACT.md › Statuses, docs/statuses.md):
//! post, edit and take down statuses; the board; a person's matches; taking
//! an open spot (an RSVP through the event's actor).

use super::{Page, page_rows, query_whole};
use crate::auth::AuthUser;
use crate::commands::event::RsvpInput;
use crate::db::{self, statuses::Filter};
use crate::domain::text::PlainText;
use crate::domain::{EntityType, HockeyPosition, StatusType, UniversalDivision};
use crate::error::{AppError, AppResult};
use crate::market::view::{self, Match, Status};
use crate::market::{matches, push, rules};
use crate::permissions::{self, Action};
use crate::state::AppState;
use actix_web::{HttpResponse, delete, get, patch, post, web};
use rinkside_actors::event::RsvpAnswer;
use serde::{Deserialize, Serialize};
use utoipa_actix_web::service_config::ServiceConfig;

/// The longest message on a status, in characters.
pub const MAX_MESSAGE_CHARS: usize = 500;

pub fn config(cfg: &mut ServiceConfig) {
    cfg.service(board)
        .service(my_matches)
        .service(create)
        .service(get_one)
        .service(edit)
        .service(remove)
        .service(mine)
        .service(take_spot);
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct StatusInput {
    #[serde(rename = "type")]
    pub kind: StatusType,
    pub entity_type: EntityType,
    /// Required for TEAM statuses.
    #[schema(schema_with = crate::domain::text::schema::optional_id)]
    pub team_id: Option<String>,
    /// A call for subs for one event (LOOKING_FOR_SUBS only).
    #[schema(schema_with = crate::domain::text::schema::optional_id)]
    pub event_id: Option<String>,
    #[schema(schema_with = crate::domain::text::schema::optional_text::<MAX_MESSAGE_CHARS>)]
    pub message: Option<String>,
    /// Empty or absent: any position (an event's call: its shortfall).
    pub positions: Option<Vec<HockeyPosition>>,
    /// In the future; see docs/statuses.md for defaults and limits.
    #[schema(schema_with = crate::time::schema::nullable_date_time)]
    pub expires_at: Option<String>,
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct StatusPatch {
    /// `null` clears it.
    #[serde(default, deserialize_with = "super::nullable")]
    #[schema(schema_with = crate::domain::text::schema::optional_text::<MAX_MESSAGE_CHARS>)]
    pub message: Option<Option<String>>,
    pub positions: Option<Vec<HockeyPosition>>,
    #[schema(schema_with = crate::time::schema::nullable_date_time)]
    pub expires_at: Option<String>,
}

/// A list that is not paged.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Items<T> {
    pub items: Vec<T>,
}

fn message(raw: Option<&str>) -> AppResult<Option<String>> {
    let Some(raw) = raw else { return Ok(None) };
    if raw.trim().is_empty() {
        return Ok(None);
    }
    PlainText::<MAX_MESSAGE_CHARS>::parse(raw).map(|t| Some(String::from(t))).map_err(|m| AppError::field("message", m))
}

fn positions(list: Option<Vec<HockeyPosition>>) -> AppResult<Option<Vec<HockeyPosition>>> {
    let Some(mut list) = list else { return Ok(None) };
    let n = list.len();
    list.sort();
    list.dedup();
    if list.len() != n {
        return Err(AppError::field("positions", "list each position once"));
    }
    Ok(Some(list))
}

/// Checks an asked expiry against `now` and the latest allowed.
fn expiry(raw: &str, now: i64, latest: i64, event: bool) -> AppResult<i64> {
    let at = crate::time::parse_rfc3339_checked(raw).map_err(|m| AppError::field("expiresAt", m))?;
    if at <= now {
        return Err(AppError::field("expiresAt", "must be in the future"));
    }
    if at > latest {
        let why = if event { "may not pass the event's start" } else { "is too far ahead (see the limits per type)" };
        return Err(AppError::field("expiresAt", why));
    }
    Ok(at)
}

async fn load(state: &AppState, id: &str) -> AppResult<Status> {
    view::status(&state.db, id).await?.ok_or_else(|| AppError::not_found("status"))
}

/// Who may post, edit and take down a status like this one.
async fn check_may(state: &AppState, me: &str, s: &Status) -> AppResult<()> {
    let action = match (s.entity_type, &s.team_id, &s.event_id) {
        (EntityType::Team, Some(team_id), _) => Action::ManageTeamStatus { team_id },
        (EntityType::User, _, Some(event_id)) => Action::OrganiseEvent { event_id },
        _ => Action::EditOwnStatus { user_id: s.user_id.as_deref().unwrap_or_default() },
    };
    permissions::check(&state.db, Some(me), action).await
}

/// Post a status: for yourself, for a team you own or manage, or a call for
/// subs for an event you organise or your team plays in.
#[utoipa::path(request_body = StatusInput, responses((status = 201, body = Status), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)), tag = "statuses", security(("bearerAuth" = [])))]
#[post("/statuses")]
async fn create(state: web::Data<AppState>, me: AuthUser, body: web::Json<StatusInput>) -> AppResult<HttpResponse> {
    let input = body.into_inner();
    let now = (state.clock)();
    rules::may_post(input.kind, input.entity_type, input.event_id.is_some()).map_err(|m| AppError::field("type", m))?;
    let team_id = match (input.entity_type, input.team_id.as_deref()) {
        (EntityType::Team, Some(t)) => Some(t),
        (EntityType::Team, None) => return Err(AppError::field("teamId", "a TEAM status names its team")),
        (EntityType::User, Some(_)) => return Err(AppError::field("teamId", "a USER status is the person's own")),
        (EntityType::User, None) => None,
    };
    let pool = &state.db.pool;
    if let Some(team_id) = team_id {
        permissions::check(&state.db, Some(&me.id), Action::ManageTeamStatus { team_id }).await?;
    }
    let event = match input.event_id.as_deref() {
        None => None,
        Some(event_id) => {
            let ids = [event_id.to_string()];
            let event = db::spots::events(pool, &ids).await?.remove(event_id);
            let event = view::EventSummary::from(event.ok_or_else(|| AppError::not_found("event"))?);
            match team_id {
                Some(team_id) if !db::spots::team_on_event(pool, team_id, event_id).await? => {
                    return Err(AppError::field("eventId", "the team is not on this event"));
                }
                Some(_) => {}
                None => permissions::check(&state.db, Some(&me.id), Action::OrganiseEvent { event_id }).await?,
            }
            if event.cancelled || event.start_date <= now {
                return Err(AppError::conflict("the event is cancelled or has started"));
            }
            Some(event)
        }
    };
    let message = message(input.message.as_deref())?;
    let asked = positions(input.positions)?;
    let positions = match (&event, asked) {
        (_, Some(list)) if !list.is_empty() => list,
        (Some(e), _) => rules::shortfall(e.open.into()).unwrap_or_default(),
        (None, _) => Vec::new(),
    };
    if let Some(e) = &event
        && rules::call_answered(&positions, e.open.into())
    {
        return Err(AppError::conflict("the event has no open place for those positions"));
    }
    let latest = rules::latest_expiry(input.kind, now, event.as_ref().map(|e| e.start_date));
    let expires_at = match (input.expires_at.as_deref(), &event) {
        (Some(raw), _) => expiry(raw, now, latest, event.is_some())?,
        (None, Some(e)) => e.start_date,
        (None, None) if rules::is_short_lived(input.kind) => {
            let zone = match team_id {
                Some(t) => db::status_owners::team_zone(pool, t).await?,
                None => db::status_owners::home_zone(pool, &me.id).await?,
            };
            crate::time::end_of_day(now, zone.as_deref())
        }
        (None, None) => now + rules::LONG_DEFAULT_MS,
    };
    let duplicate = db::statuses::active_duplicate(pool, input.kind, team_id, input.event_id.as_deref(), now).await?;
    if duplicate.is_some() {
        return Err(AppError::conflict("there is already an active status like this; edit it instead"));
    }
    let new = db::statuses::NewStatus {
        kind: input.kind,
        entity_type: input.entity_type.as_str(),
        user_id: &me.id,
        team_id,
        event_id: input.event_id.as_deref(),
        message: message.as_deref(),
        positions: &positions,
        expires_at,
        now,
    };
    let status = crate::market::post::post(&state.db, &state.realtime.pusher, &new).await?;
    Ok(HttpResponse::Created().json(status))
}

/// A status, also after it ended.
#[utoipa::path(responses((status = 200, body = Status), (status = 404, body = crate::error::ErrorEnvelope)), tag = "statuses", security(("bearerAuth" = [])))]
#[get("/statuses/{id}")]
async fn get_one(state: web::Data<AppState>, _me: AuthUser, id: web::Path<String>) -> AppResult<web::Json<Status>> {
    Ok(web::Json(load(&state, &id).await?))
}

/// Edit a status's message, positions or expiry (the people who may post it).
#[utoipa::path(request_body = StatusPatch, responses((status = 200, body = Status), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)), tag = "statuses", security(("bearerAuth" = [])))]
#[patch("/statuses/{id}")]
async fn edit(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    body: web::Json<StatusPatch>,
) -> AppResult<web::Json<Status>> {
    let before = load(&state, &id).await?;
    check_may(&state, &me.id, &before).await?;
    let now = (state.clock)();
    let patch = body.into_inner();
    if !before.is_active(now) {
        return Err(AppError::conflict("this status has ended; post a new one"));
    }
    let message = match &patch.message {
        Some(m) => Some(message(m.as_deref())?),
        None => None,
    };
    let positions = positions(patch.positions)?;
    let event_start = before.event.as_ref().map(|e| e.start_date);
    let latest = rules::latest_expiry(before.kind, before.created_at.max(now), event_start);
    let expires_at =
        patch.expires_at.as_deref().map(|raw| expiry(raw, now, latest, event_start.is_some())).transpose()?;
    let edit = db::statuses::Edit {
        message: message.as_ref().map(|m| m.as_deref()),
        positions: positions.as_deref(),
        expires_at,
        now,
    };
    let mut tx = state.db.begin().await?;
    db::statuses::update(&mut tx, &id, &edit).await?;
    tx.commit().await?;
    let after = load(&state, &id).await?;
    push::status_changed_soon(&state.db, &state.realtime.pusher, vec![(Some(before), Some(after.clone()))], now);
    Ok(web::Json(after))
}

/// Take a status down (the people who may post it).
#[utoipa::path(responses((status = 204), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope)), tag = "statuses", security(("bearerAuth" = [])))]
#[delete("/statuses/{id}")]
async fn remove(state: web::Data<AppState>, me: AuthUser, id: web::Path<String>) -> AppResult<HttpResponse> {
    let before = load(&state, &id).await?;
    check_may(&state, &me.id, &before).await?;
    db::statuses::delete(&state.db.pool, &id).await?;
    push::status_changed_soon(&state.db, &state.realtime.pusher, vec![(Some(before), None)], (state.clock)());
    Ok(HttpResponse::NoContent().finish())
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct BoardQuery {
    #[serde(rename = "type")]
    #[param(rename = "type")]
    pub kind: Option<StatusType>,
    /// Statuses asking for or offering it (an empty list is any position).
    pub position: Option<HockeyPosition>,
    /// The team's rink, the rinks a person plays at, an event's rink.
    #[param(schema_with = crate::domain::text::schema::query_text)]
    pub facility_id: Option<String>,
    /// Levels within one step of it.
    pub division: Option<UniversalDivision>,
    /// Active at some moment from `from`…
    #[param(schema_with = crate::time::schema::date_time)]
    pub from: Option<String>,
    /// …to `to`.
    #[param(schema_with = crate::time::schema::date_time)]
    pub to: Option<String>,
    /// 1–100, default 20.
    #[serde(default, deserialize_with = "query_whole")]
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
    /// `nextCursor` of the previous page.
    #[param(schema_with = crate::domain::text::schema::time_cursor)]
    pub cursor: Option<String>,
}

fn query_time(field: &'static str, raw: Option<&str>) -> AppResult<Option<i64>> {
    raw.map(|s| crate::time::parse_rfc3339_checked(s).map_err(|m| AppError::field(field, m))).transpose()
}

/// The board: active statuses, newest first, with filters.
#[utoipa::path(params(BoardQuery), responses((status = 200, body = Page<Status>), (status = 422, body = crate::error::ErrorEnvelope)), tag = "statuses", security(("bearerAuth" = [])))]
#[get("/statuses")]
async fn board(
    state: web::Data<AppState>,
    _me: AuthUser,
    q: web::Query<BoardQuery>,
) -> AppResult<web::Json<Page<Status>>> {
    let limit = page_rows(q.limit)?;
    let before = match q.cursor.as_deref() {
        None => None,
        Some(raw) => {
            Some(db::Cursor::parse(raw).ok_or_else(|| AppError::field("cursor", "not a cursor from this list"))?)
        }
    };
    let (from, to) = (query_time("from", q.from.as_deref())?, query_time("to", q.to.as_deref())?);
    if let (Some(f), Some(t)) = (from, to)
        && t < f
    {
        return Err(AppError::field("to", "must not be before from"));
    }
    let kinds: Vec<StatusType> = q.kind.into_iter().collect();
    let positions: Vec<HockeyPosition> = q.position.into_iter().collect();
    let filter = Filter {
        now: (state.clock)(),
        kinds: &kinds,
        positions: &positions,
        facility_id: q.facility_id.as_deref(),
        level_near: q.division.map(UniversalDivision::level),
        unknown_level_ok: false,
        active_after: from,
        posted_by: to,
        before: before.map(|c| (c.at, c.id)),
        limit: Some(limit + 1),
        ..Filter::default()
    };
    let rows = db::statuses::list(&state.db.pool, &filter).await?;
    let (rows, next_cursor) =
        db::finish_page(rows, limit, |r| db::Cursor { at: r.created_at, id: r.id.clone() }.encode());
    Ok(web::Json(Page { items: view::statuses(&state.db, rows).await?, next_cursor }))
}

/// The viewer's active statuses: their own, their teams', their calls.
#[utoipa::path(responses((status = 200, body = Items<Status>)), tag = "statuses", security(("bearerAuth" = [])))]
#[get("/me/statuses")]
async fn mine(state: web::Data<AppState>, me: AuthUser) -> AppResult<web::Json<Items<Status>>> {
    Ok(web::Json(Items { items: matches::mine(&state.db, &me.id, (state.clock)()).await? }))
}

/// The viewer's matches, soonest first (at most 50); live on `matches`.
#[utoipa::path(responses((status = 200, body = Items<Match>)), tag = "statuses", security(("bearerAuth" = [])))]
#[get("/me/matches")]
async fn my_matches(state: web::Data<AppState>, me: AuthUser) -> AppResult<web::Json<Items<Match>>> {
    Ok(web::Json(Items { items: matches::for_viewer(&state.db, &me.id, (state.clock)()).await? }))
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TakeSpotInput {
    /// Default: GOALIE when goalies are short and the person's status
    /// offers it, else their preferred skater position.
    pub position: Option<HockeyPosition>,
    /// Keep my AVAILABLE_TO_SUB after taking the spot (default: it ends).
    #[serde(default)]
    pub keep_available: bool,
}

/// What taking a spot answers: the RSVP's answer and the statuses it ended.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TakeSpotReply {
    #[serde(flatten)]
    #[schema(inline)]
    pub rsvp: rinkside_actors::event::RsvpReply,
    pub ended_status_ids: Vec<String>,
}

/// Take an open spot: an RSVP (ATTENDING) through the event's actor, so two
/// subs tapping at once for the last place get exactly one ATTENDING and
/// one WAITLISTED. Attending ends the sub's AVAILABLE_TO_SUB for that time.
#[utoipa::path(request_body = TakeSpotInput, responses((status = 200, body = TakeSpotReply), (status = 404, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)), tag = "statuses", security(("bearerAuth" = [])))]
#[post("/events/{id}/take-spot")]
async fn take_spot(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    body: web::Json<TakeSpotInput>,
) -> AppResult<web::Json<TakeSpotReply>> {
    let now = (state.clock)();
    let ids = [id.to_string()];
    let event = db::spots::events(&state.db.pool, &ids).await?.remove(id.as_str());
    let event = view::EventSummary::from(event.ok_or_else(|| AppError::not_found("event"))?);
    if event.cancelled || event.start_date <= now {
        return Err(AppError::conflict("the event is cancelled or has started"));
    }
    let subbing: Vec<Status> = matches::mine(&state.db, &me.id, now)
        .await?
        .into_iter()
        .filter(|s| s.kind == StatusType::AvailableToSub && s.expires_at >= event.start_date)
        .collect();
    let position = match body.position {
        Some(p) => p,
        None => {
            let offered: Vec<HockeyPosition> = subbing.iter().flat_map(|s| s.positions.iter().copied()).collect();
            let offered = if subbing.iter().any(|s| s.positions.is_empty()) { Vec::new() } else { offered };
            let preferred = db::status_owners::preferred_position(&state.db.pool, &me.id).await?;
            rules::position_for_spot(&offered, preferred, event.open.into())
        }
    };
    let input = RsvpInput { action: RsvpAnswer::Attending, position: Some(position) };
    let reply = crate::commands::event::rsvp(&state, &me, &id, input, None).await?;
    let rsvp: rinkside_actors::event::RsvpReply = serde_json::from_value(reply).map_err(AppError::internal)?;
    let attending = rsvp.status == rinkside_actors::event::RsvpStatus::Attending;
    let mut ended = Vec::new();
    if attending && !body.keep_available {
        let ids: Vec<String> = subbing.iter().map(|s| s.id.clone()).collect();
        ended = db::statuses::end(&state.db.pool, &ids, now).await?;
        let changes = subbing.into_iter().filter(|s| ended.contains(&s.id)).map(|s| (Some(s), None)).collect();
        push::status_changed_soon(&state.db, &state.realtime.pusher, changes, now);
    }
    Ok(web::Json(TakeSpotReply { rsvp, ended_status_ids: ended }))
}

/// After a write ended statuses (a roster join): tell whoever matched them.
pub async fn push_ended(state: &AppState, ids: Vec<String>) {
    let now = (state.clock)();
    let mut changes = Vec::new();
    for id in ids {
        match view::status(&state.db, &id).await {
            Ok(Some(s)) => changes.push((Some(s), None)),
            Ok(None) => {}
            Err(e) => tracing::warn!(status = %id, error = %e, "ended status not pushed"),
        }
    }
    push::status_changed_soon(&state.db, &state.realtime.pusher, changes, now);
}
