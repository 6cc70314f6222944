//! Join requests: asking to join a roster, listing a roster's or my own
//! requests, approving (the requester joins), rejecting and withdrawing.
//!
//! One pending request per person and roster (409 `request_pending`), none
//! from a player already on it (409 `already_on_roster`); only pending
//! requests are decided or withdrawn (409 `not_pending`). An approval obeys
//! `maxMembers` like an add (409 `roster_full`, `super::rules`).

use super::lock_writable;
use crate::api::{Page, PageQuery, check_len, clean, finish};
use crate::auth::AuthUser;
use crate::db::rosters::players::PlayerFields;
use crate::db::rosters::requests::{RequestFields, RequestRow, RequestsOf};
use crate::db::{self, Cursor, finish_page, page_limit};
use crate::domain::{HockeyPosition, RequestStatus, RosterCommitment};
use crate::error::{AppError, AppResult, FieldErrors};
use crate::permissions::{self, Action};
use crate::realtime::topics::Topic;
use crate::roster_rules::check_room;
use crate::state::AppState;
use crate::summaries::UserSummary;
use actix_web::{HttpResponse, delete, get, post, web};
use serde::{Deserialize, Serialize};
use utoipa_actix_web::service_config::ServiceConfig;

pub(super) fn config(cfg: &mut ServiceConfig) {
    cfg.service(request_to_join)
        .service(roster_requests)
        .service(my_requests)
        .service(get_request)
        .service(approve_request)
        .service(reject_request)
        .service(cancel_request);
}

const MAX_MESSAGE: usize = 1000;

/// A join request with its message, for the requester and the deciders.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct JoinRequest {
    pub id: String,
    pub roster_id: String,
    pub roster_name: String,
    pub team_id: String,
    pub team_name: String,
    pub season_id: String,
    pub season_name: String,
    pub user_id: String,
    pub user: UserSummary,
    pub status: RequestStatus,
    pub message: Option<String>,
    pub preferred_position: Option<HockeyPosition>,
    pub commitment_level: RosterCommitment,
    pub decided_by_id: Option<String>,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: i64,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub updated_at: i64,
}

impl From<RequestRow> for JoinRequest {
    fn from(q: RequestRow) -> Self {
        JoinRequest {
            id: q.id,
            roster_id: q.roster_id,
            roster_name: q.roster_name,
            team_id: q.team_id,
            team_name: q.team_name,
            season_id: q.season_id,
            season_name: q.season_name,
            user_id: q.user_id,
            user: UserSummary::from(q.user),
            status: RequestStatus::parse(&q.status).unwrap_or(RequestStatus::Pending),
            message: q.message,
            preferred_position: q.preferred_position.as_deref().and_then(|p| HockeyPosition::parse(p).ok()),
            commitment_level: RosterCommitment::parse(&q.commitment_level).unwrap_or(RosterCommitment::FullTime),
            decided_by_id: q.decided_by_id,
            created_at: q.created_at,
            updated_at: q.updated_at,
        }
    }
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct NewJoinRequest {
    /// Seen by the deciders only.
    #[schema(schema_with = crate::domain::text::schema::optional_text::<1000>)]
    pub message: Option<String>,
    pub preferred_position: Option<HockeyPosition>,
    /// FULL_TIME (default) or SUBSTITUTE.
    pub commitment_level: Option<RosterCommitment>,
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RequestsQuery {
    pub status: Option<RequestStatus>,
    /// Default 20; taken as 1 below 1 and as 100 above 100.
    #[serde(default, deserialize_with = "crate::api::query_whole")]
    pub limit: Option<i64>,
    /// `nextCursor` of the previous page.
    #[param(schema_with = crate::domain::text::schema::time_cursor)]
    pub cursor: Option<String>,
}

async fn request_page(state: &AppState, of: RequestsOf<'_>, query: RequestsQuery) -> AppResult<Page<JoinRequest>> {
    let page = PageQuery { limit: query.limit, cursor: query.cursor };
    let limit = page_limit(page.limit);
    let status = query.status.map(|s| s.as_str());
    let rows = db::rosters::requests::requests(&state.db.pool, of, status, page.cursor()?.as_ref(), limit).await?;
    let (rows, next_cursor) = finish_page(rows, limit, |r| Cursor { at: r.created_at, id: r.id.clone() }.encode());
    Ok(Page { items: rows.into_iter().map(JoinRequest::from).collect(), next_cursor })
}

async fn load_request(state: &AppState, id: &str) -> AppResult<JoinRequest> {
    let row =
        db::rosters::requests::request(&state.db.pool, id).await?.ok_or_else(|| AppError::not_found("join request"))?;
    Ok(JoinRequest::from(row))
}

fn already_on_roster() -> AppError {
    AppError::conflict_code("already_on_roster", "you are already on this roster")
}

fn not_pending() -> AppError {
    AppError::conflict_code("not_pending", "the request has already been decided or withdrawn")
}

/// Ask to join a roster (any signed-in person not on it).
#[utoipa::path(request_body = NewJoinRequest, responses((status = 201, body = JoinRequest), (status = 409, body = crate::error::ErrorEnvelope)), tag = "rosters", security(("bearerAuth" = [])))]
#[post("/rosters/{id}/join-requests")]
async fn request_to_join(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    body: web::Json<NewJoinRequest>,
) -> AppResult<HttpResponse> {
    permissions::check(&state.db, Some(&me.id), Action::RequestToJoin { roster_id: &id }).await?;
    let body = body.into_inner();
    let fields = RequestFields {
        message: clean(body.message),
        preferred_position: body.preferred_position.map(|p| p.as_str().to_string()),
        commitment_level: body.commitment_level.unwrap_or(RosterCommitment::FullTime).as_str().to_string(),
    };
    let mut errors = FieldErrors::new();
    check_len(&mut errors, "message", fields.message.as_deref(), MAX_MESSAGE);
    finish(errors)?;
    Ok(HttpResponse::Created().json(ask_to_join(&state, &me.id, &id, &fields).await?))
}

/// Files a person's request to join (not on the roster, none pending),
/// then pushes the roster. For the request and an invite that needs the
/// captain's approval (docs/invites.md).
pub(crate) async fn ask_to_join(
    state: &AppState,
    user_id: &str,
    id: &str,
    fields: &RequestFields,
) -> AppResult<JoinRequest> {
    let mut tx = state.db.begin().await?;
    lock_writable(&mut tx, id).await?;
    if db::rosters::players::player(&mut *tx, id, user_id).await?.is_some() {
        return Err(already_on_roster());
    }
    if db::rosters::requests::pending_of(&mut tx, id, user_id).await?.is_some() {
        return Err(AppError::conflict_code("request_pending", "you already asked to join this roster"));
    }
    let request_id = db::rosters::requests::insert_request(&mut tx, id, user_id, fields).await?;
    tx.commit().await?;
    state.realtime.push(&[Topic::roster(id)]).await;
    load_request(state, &request_id).await
}

/// A roster's join requests with messages, newest first (team owner,
/// managers, roster captains).
#[utoipa::path(params(RequestsQuery), responses((status = 200, body = Page<JoinRequest>), (status = 403, body = crate::error::ErrorEnvelope)), tag = "rosters", security(("bearerAuth" = [])))]
#[get("/rosters/{id}/join-requests")]
async fn roster_requests(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    query: web::Query<RequestsQuery>,
) -> AppResult<web::Json<Page<JoinRequest>>> {
    permissions::check(&state.db, Some(&me.id), Action::DecideJoinRequests { roster_id: &id }).await?;
    Ok(web::Json(request_page(&state, RequestsOf::Roster(&id), query.into_inner()).await?))
}

/// My join requests, newest first.
#[utoipa::path(params(RequestsQuery), responses((status = 200, body = Page<JoinRequest>)), tag = "rosters", security(("bearerAuth" = [])))]
#[get("/me/join-requests")]
async fn my_requests(
    state: web::Data<AppState>,
    me: AuthUser,
    query: web::Query<RequestsQuery>,
) -> AppResult<web::Json<Page<JoinRequest>>> {
    Ok(web::Json(request_page(&state, RequestsOf::User(&me.id), query.into_inner()).await?))
}

/// The request's roster and requester, or 404.
async fn request_owner(state: &AppState, id: &str) -> AppResult<(String, String)> {
    db::rosters::requests::request_owner(&state.db.pool, id).await?.ok_or_else(|| AppError::not_found("join request"))
}

/// One join request (its requester and its deciders).
#[utoipa::path(responses((status = 200, body = JoinRequest), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope)), tag = "rosters", security(("bearerAuth" = [])))]
#[get("/join-requests/{id}")]
async fn get_request(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
) -> AppResult<web::Json<JoinRequest>> {
    let (roster_id, requester_id) = request_owner(&state, &id).await?;
    permissions::check(
        &state.db,
        Some(&me.id),
        Action::ViewJoinRequest { roster_id: &roster_id, requester_id: &requester_id },
    )
    .await?;
    Ok(web::Json(load_request(&state, &id).await?))
}

/// Approve or reject, in one transaction with the roster locked.
async fn decide(state: &AppState, me: &AuthUser, id: &str, approve: bool) -> AppResult<JoinRequest> {
    let (roster_id, requester_id) = request_owner(state, id).await?;
    permissions::check(&state.db, Some(&me.id), Action::DecideJoinRequests { roster_id: &roster_id }).await?;
    let mut tx = state.db.begin().await?;
    let locked = lock_writable(&mut tx, &roster_id).await?;
    let mut told = Vec::new();
    let mut found_a_team = Vec::new();
    let request =
        db::rosters::requests::request(&mut *tx, id).await?.ok_or_else(|| AppError::not_found("join request"))?;
    if request.status != RequestStatus::Pending.as_str() {
        return Err(not_pending());
    }
    if approve {
        if db::rosters::players::player(&mut *tx, &roster_id, &requester_id).await?.is_some() {
            return Err(AppError::conflict_code("already_on_roster", "they are already on this roster"));
        }
        let holders = db::rosters::players::holders(&mut tx, &roster_id).await?;
        check_room(locked.max_members, holders.members)?;
        if !db::rosters::requests::decide(&mut tx, id, RequestStatus::Approved.as_str(), &me.id).await? {
            return Err(not_pending());
        }
        let fields = PlayerFields {
            jersey_number: None,
            position: request.preferred_position.clone(),
            commitment_level: request.commitment_level.clone(),
            captain: false,
            alternate_captain: false,
        };
        db::rosters::players::insert_player(&mut tx, &roster_id, &requester_id, &fields).await?;
        told.push(crate::feed::joined_roster(&mut tx, &requester_id, &locked.team_id, &roster_id).await?);
        found_a_team = db::statuses::end_looking_for_team(&mut *tx, &requester_id, &roster_id, (state.clock)()).await?;
    } else if !db::rosters::requests::decide(&mut tx, id, RequestStatus::Rejected.as_str(), &me.id).await? {
        return Err(not_pending());
    }
    let decided = crate::notify::join_request_decided(&mut tx, &requester_id, &roster_id, approve).await?;
    tx.commit().await?;
    state.realtime.push_notification_batches([decided]);
    super::roster_changed(state, &me.id, &roster_id).await?;
    crate::live::feed::spawn_push(&state.db, &state.realtime.pusher, told);
    crate::api::statuses::push_ended(state, found_a_team).await;
    load_request(state, id).await
}

/// Approve a pending request: the requester joins the roster (team owner,
/// managers, roster captains). A full roster answers 409 `roster_full`.
#[utoipa::path(responses((status = 200, body = JoinRequest), (status = 403, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope)), tag = "rosters", security(("bearerAuth" = [])))]
#[post("/join-requests/{id}/approve")]
async fn approve_request(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
) -> AppResult<web::Json<JoinRequest>> {
    Ok(web::Json(decide(&state, &me, &id, true).await?))
}

/// Reject a pending request (team owner, managers, roster captains).
#[utoipa::path(responses((status = 200, body = JoinRequest), (status = 403, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope)), tag = "rosters", security(("bearerAuth" = [])))]
#[post("/join-requests/{id}/reject")]
async fn reject_request(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
) -> AppResult<web::Json<JoinRequest>> {
    Ok(web::Json(decide(&state, &me, &id, false).await?))
}

/// Withdraw your own pending request.
#[utoipa::path(responses((status = 204), (status = 403, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope)), tag = "rosters", security(("bearerAuth" = [])))]
#[delete("/join-requests/{id}")]
async fn cancel_request(state: web::Data<AppState>, me: AuthUser, id: web::Path<String>) -> AppResult<HttpResponse> {
    let (roster_id, requester_id) = request_owner(&state, &id).await?;
    permissions::check(&state.db, Some(&me.id), Action::CancelJoinRequest { requester_id: &requester_id }).await?;
    let mut tx = state.db.begin().await?;
    db::rosters::bump(&mut tx, &roster_id).await?.ok_or_else(|| AppError::not_found("roster"))?;
    if !db::rosters::requests::delete_pending(&mut tx, &id).await? {
        return Err(not_pending());
    }
    tx.commit().await?;
    state.realtime.push(&[Topic::roster(roster_id.as_str())]).await;
    Ok(HttpResponse::NoContent().finish())
}
