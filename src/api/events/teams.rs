//! Teams linked to an event as HOME or AWAY. A link needs both sides: the
//! event's organiser and the team's owner or a manager (one person who is
//! both, e.g. a team manager organising their team's game). Either side may
//! take the link off (docs/permissions.md, "Who may attach to whom").

use super::{Event, load_event};
use crate::auth::AuthUser;
use crate::db;
use crate::domain::TeamRole;
use crate::error::AppResult;
use crate::permissions::{self, Action, Object};
use crate::state::AppState;
use actix_web::{HttpResponse, delete, put, web};
use serde::Deserialize;

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct EventTeamInput {
    pub role: TeamRole,
}

/// Link a team as HOME or AWAY (an organiser who is also the team's owner
/// or manager).
#[utoipa::path(request_body = EventTeamInput, responses((status = 200, body = Event), (status = 403, body = crate::error::ErrorEnvelope, description = "not an organiser of the event, or not the team's owner or a manager")), tag = "events", security(("bearerAuth" = [])))]
#[put("/events/{id}/teams/{team_id}")]
async fn set_team(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<(String, String)>,
    body: web::Json<EventTeamInput>,
) -> AppResult<web::Json<Event>> {
    let (event_id, team_id) = path.into_inner();
    permissions::check(&state.db, Some(&me.id), Action::OrganiseEvent { event_id: &event_id }).await?;
    permissions::check(&state.db, Some(&me.id), Action::CommitTeam { team_id: &team_id }).await?;
    let mut tx = state.db.begin().await?;
    db::events::set_team(&mut tx, &event_id, &team_id, body.role.as_str()).await?;
    let told = crate::feed::event_reached_team(&mut tx, &me.id, &event_id, &team_id).await?;
    tx.commit().await?;
    crate::live::feed::spawn_push(&state.db, &state.realtime.pusher, vec![told]);
    Ok(web::Json(load_event(&state, &event_id, Some(&me)).await?))
}

/// Unlink a team (the event's organisers, or the team's owner and managers).
#[utoipa::path(responses((status = 204), (status = 403, body = crate::error::ErrorEnvelope, description = "neither an organiser of the event nor the team's owner or a manager")), tag = "events", security(("bearerAuth" = [])))]
#[delete("/events/{id}/teams/{team_id}")]
async fn unset_team(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<(String, String)>,
) -> AppResult<HttpResponse> {
    let (event_id, team_id) = path.into_inner();
    let organises = permissions::relations(&state.db, Some(&me.id), Object::Event(&event_id))
        .await?
        .permits(&Action::OrganiseEvent { event_id: &event_id });
    if !organises {
        permissions::check(&state.db, Some(&me.id), Action::CommitTeam { team_id: &team_id }).await?;
    }
    db::events::remove_team(&state.db.pool, &event_id, &team_id).await?;
    Ok(HttpResponse::NoContent().finish())
}
