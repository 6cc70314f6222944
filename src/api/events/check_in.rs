//! Check-in at the rink (docs/pickup-night.md › Check-in): the organiser
//! taps people in from the list, or a player checks in with the event's
//! code (scanned from the organiser's screen). Each check-in moves the
//! event's version, so every open organiser screen re-reads.

use crate::auth::AuthUser;
use crate::db;
use crate::domain::{HockeyPosition, codes};
use crate::error::{AppError, AppResult};
use crate::permissions::{self, Action};
use crate::state::AppState;
use actix_web::{delete, get, post, put, web};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// 8 of 31 letters: 8.5e11 codes. A guess can only check in someone who is
/// attending (themselves), and the per-person limit (50/s) leaves a
/// guesser centuries per account.
const CODE_LEN: usize = 8;

/// Someone attending, and whether they are checked in.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CheckIn {
    pub user_id: String,
    pub display_name: String,
    pub position: Option<HockeyPosition>,
    #[serde(with = "crate::time::rfc3339_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub checked_in_at: Option<i64>,
    /// Who checked them in (themselves, with the code, or an organiser).
    pub checked_in_by_id: Option<String>,
}

/// `GET /events/{id}/check-ins`.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CheckIns {
    /// Everyone attending, in attending order.
    pub items: Vec<CheckIn>,
    /// What a player scans or types to check in.
    pub code: String,
    pub checked_in: i64,
    pub expected: i64,
}

/// `POST /events/{id}/check-in`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CodeInput {
    #[schema(max_length = 32)]
    pub code: String,
}

/// The event's attending people, in order, from its live document.
async fn attending(state: &AppState, event_id: &str) -> AppResult<Vec<(String, String, Option<HockeyPosition>)>> {
    let (_, doc) = crate::live::event::current(&state.db, &state.realtime.events, event_id).await?;
    Ok(doc["attending"]
        .as_array()
        .map(|list| {
            list.iter()
                .map(|a| {
                    (
                        a["userId"].as_str().unwrap_or_default().to_string(),
                        a["displayName"].as_str().unwrap_or_default().to_string(),
                        a["position"].as_str().and_then(|p| HockeyPosition::parse(p).ok()),
                    )
                })
                .collect()
        })
        .unwrap_or_default())
}

async fn list(state: &AppState, event_id: &str) -> AppResult<CheckIns> {
    let code = match db::check_ins::code(&state.db.pool, event_id).await? {
        Some(code) => code,
        None => {
            db::check_ins::make_code(&mut *state.db.pool.acquire().await?, event_id, &codes::random(CODE_LEN)).await?
        }
    };
    let done: HashMap<String, db::check_ins::CheckInRow> =
        db::check_ins::of_event(&state.db.pool, event_id).await?.into_iter().map(|r| (r.user_id.clone(), r)).collect();
    let items: Vec<CheckIn> = attending(state, event_id)
        .await?
        .into_iter()
        .map(|(user_id, display_name, position)| {
            let row = done.get(&user_id);
            CheckIn {
                checked_in_at: row.map(|r| r.created_at),
                checked_in_by_id: row.and_then(|r| r.checked_in_by_id.clone()),
                user_id,
                display_name,
                position,
            }
        })
        .collect();
    let checked_in = items.iter().filter(|i| i.checked_in_at.is_some()).count();
    Ok(CheckIns {
        expected: i64::try_from(items.len()).unwrap_or(i64::MAX),
        checked_in: i64::try_from(checked_in).unwrap_or(i64::MAX),
        items,
        code,
    })
}

async fn require_event(state: &AppState, event_id: &str) -> AppResult<db::events::EventRow> {
    let row = db::events::get(&state.db.pool, event_id).await?.ok_or_else(|| AppError::not_found("event"))?;
    if row.cancelled_at.is_some() {
        return Err(AppError::conflict_code("event_cancelled", "the event is cancelled"));
    }
    Ok(row)
}

/// Checks `user_id` in (they must be attending), pushes the new version and
/// answers their row.
async fn check_in(state: &AppState, event_id: &str, user_id: &str, by: &str) -> AppResult<CheckIn> {
    let Some((user_id, display_name, position)) =
        attending(state, event_id).await?.into_iter().find(|(id, _, _)| id == user_id)
    else {
        return Err(AppError::field("userId", "only someone attending can be checked in"));
    };
    if db::check_ins::insert(&state.db.pool, event_id, &user_id, by).await? {
        touch(state, by, event_id).await;
    }
    let row = db::check_ins::of_event(&state.db.pool, event_id).await?.into_iter().find(|r| r.user_id == user_id);
    Ok(CheckIn {
        checked_in_at: row.as_ref().map(|r| r.created_at),
        checked_in_by_id: row.and_then(|r| r.checked_in_by_id),
        user_id,
        display_name,
        position,
    })
}

async fn touch(state: &AppState, by: &str, event_id: &str) {
    if let Err(e) = crate::commands::event::touch(state, by, event_id).await {
        tracing::warn!(event_id, error = %e.message(), "the check-in is saved; pushing it live failed");
    }
}

/// Everyone attending and who is checked in, with the event's code
/// (organisers).
#[utoipa::path(responses((status = 200, body = CheckIns), (status = 401, body = crate::error::ErrorEnvelope), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope)),
    tag = "events", security(("bearerAuth" = [])))]
#[get("/events/{id}/check-ins")]
pub(super) async fn get_check_ins(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
) -> AppResult<web::Json<CheckIns>> {
    permissions::check(&state.db, Some(&me.id), Action::OrganiseEvent { event_id: &id }).await?;
    Ok(web::Json(list(&state, &id).await?))
}

/// Check a person in (organisers); checking in twice keeps the first.
#[utoipa::path(responses((status = 200, body = CheckIn), (status = 401, body = crate::error::ErrorEnvelope), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)),
    tag = "events", security(("bearerAuth" = [])))]
#[put("/events/{id}/check-ins/{user_id}")]
pub(super) async fn put_check_in(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<(String, String)>,
) -> AppResult<web::Json<CheckIn>> {
    let (id, user_id) = path.into_inner();
    permissions::check(&state.db, Some(&me.id), Action::OrganiseEvent { event_id: &id }).await?;
    require_event(&state, &id).await?;
    Ok(web::Json(check_in(&state, &id, &user_id, &me.id).await?))
}

/// Undo a check-in (organisers); no change when there was none.
#[utoipa::path(responses((status = 200, body = CheckIns), (status = 401, body = crate::error::ErrorEnvelope), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope)),
    tag = "events", security(("bearerAuth" = [])))]
#[delete("/events/{id}/check-ins/{user_id}")]
pub(super) async fn delete_check_in(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<(String, String)>,
) -> AppResult<web::Json<CheckIns>> {
    let (id, user_id) = path.into_inner();
    permissions::check(&state.db, Some(&me.id), Action::OrganiseEvent { event_id: &id }).await?;
    if db::check_ins::delete(&state.db.pool, &id, &user_id).await? {
        touch(&state, &me.id, &id).await;
    }
    Ok(web::Json(list(&state, &id).await?))
}

/// Check yourself in with the code on the organiser's screen (someone
/// attending).
#[utoipa::path(request_body = CodeInput, responses((status = 200, body = CheckIn), (status = 401, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)),
    tag = "events", security(("bearerAuth" = [])))]
#[post("/events/{id}/check-in")]
pub(super) async fn self_check_in(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    body: web::Json<CodeInput>,
) -> AppResult<web::Json<CheckIn>> {
    require_event(&state, &id).await?;
    let code = db::check_ins::code(&state.db.pool, &id).await?;
    if code.is_none_or(|code| code != codes::normalise(&body.code)) {
        return Err(AppError::field("code", "that is not this event's check-in code"));
    }
    Ok(web::Json(check_in(&state, &id, &me.id, &me.id).await?))
}
