//! Whether an event at a facility is listed there under the rink's name.
//! Anyone may hold an event at any rink, but only the rink's owner and
//! managers put its name on one: an event they make or schedule in a season
//! is listed at once; anyone else's is a community event until they list it
//! (docs/permissions.md, "Who may attach to whom").

use super::{Event, load_event};
use crate::auth::AuthUser;
use crate::db::{self, events::EventFields};
use crate::error::{AppError, AppResult};
use crate::permissions::{self, Action, Object};
use crate::state::AppState;
use actix_web::{delete, put, web};

/// Whether an event with these fields, made or moved by `me`, is listed at
/// its facility: a season's schedule always is (only the facility's staff
/// schedule seasons); otherwise when `me` is the facility's staff.
pub(super) async fn hosted_by_facility(state: &AppState, me: &AuthUser, fields: &EventFields) -> AppResult<bool> {
    let Some(facility_id) = fields.facility_id.as_deref() else { return Ok(false) };
    if fields.season_id.is_some() {
        return Ok(true);
    }
    let rel = permissions::relations(&state.db, Some(&me.id), Object::Facility(facility_id)).await?;
    Ok(rel.permits(&Action::HostEvent { facility_id }))
}

/// List the event under the rink's name (the facility's owner and managers).
#[utoipa::path(responses((status = 200, body = Event), (status = 403, body = crate::error::ErrorEnvelope, description = "not the owner or a manager of the event's facility"), (status = 409, body = crate::error::ErrorEnvelope, description = "`no_facility`: the event is not at a facility")), tag = "events", security(("bearerAuth" = [])))]
#[put("/events/{id}/hosting")]
async fn host(state: web::Data<AppState>, me: AuthUser, id: web::Path<String>) -> AppResult<web::Json<Event>> {
    set_hosting(&state, &me, &id, true).await
}

/// Take the rink's name off the event: it stays, as a community event.
#[utoipa::path(responses((status = 200, body = Event), (status = 403, body = crate::error::ErrorEnvelope, description = "not the owner or a manager of the event's facility"), (status = 409, body = crate::error::ErrorEnvelope, description = "`no_facility`: the event is not at a facility; `season_event`: a season's schedule is always listed")), tag = "events", security(("bearerAuth" = [])))]
#[delete("/events/{id}/hosting")]
async fn unhost(state: web::Data<AppState>, me: AuthUser, id: web::Path<String>) -> AppResult<web::Json<Event>> {
    set_hosting(&state, &me, &id, false).await
}

async fn set_hosting(state: &AppState, me: &AuthUser, event_id: &str, hosted: bool) -> AppResult<web::Json<Event>> {
    let row = db::events::get(&state.db.pool, event_id).await?.ok_or_else(|| AppError::not_found("event"))?;
    let facility_id =
        row.facility_id.ok_or_else(|| AppError::conflict_code("no_facility", "the event is not at a facility"))?;
    permissions::check(&state.db, Some(&me.id), Action::HostEvent { facility_id: &facility_id }).await?;
    if row.season_id.is_some() && !hosted {
        return Err(AppError::conflict_code("season_event", "a season's schedule is always listed at its facility"));
    }
    db::events::set_hosted(&state.db.pool, event_id, hosted).await?;
    Ok(web::Json(load_event(state, event_id, Some(me)).await?))
}
