//! Teams linked to an event as HOME or AWAY.

use super::{Event, load_event};
use crate::auth::AuthUser;
use crate::db;
use crate::domain::TeamRole;
use crate::error::{AppError, AppResult};
use crate::permissions::{self, Action};
use crate::startup::AppState;
use actix_web::{HttpResponse, delete, put, web};
use serde::Deserialize;

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct EventTeamInput {
    pub role: TeamRole,
}

/// Link a team as HOME or AWAY (organisers).
#[utoipa::path(request_body = EventTeamInput, responses((status = 200, body = Event), (status = 403, body = crate::error::ErrorEnvelope, description = "not an organiser of the event")), tag = "events", security(("bearerAuth" = [])))]
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
#[utoipa::path(responses((status = 204), (status = 403, body = crate::error::ErrorEnvelope, description = "not an organiser of the event")), tag = "events", security(("bearerAuth" = [])))]
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
