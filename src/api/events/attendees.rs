//! Answering an event and who is attending: the REST side of the RSVP and
//! removal commands (`crate::commands::event`) and the attendees list.

use crate::api::idempotency_header;
use crate::auth::AuthUser;
use crate::commands::{self, event::RsvpInput};
use crate::db;
use crate::error::AppResult;
use crate::permissions::{self, Action, Object};
use crate::state::AppState;
use actix_web::{HttpRequest, delete, get, put, web};
use rinkside_actors::event::{AttendeesDocument, RsvpReply};
use serde_json::Value;

/// Answer for yourself: attending (or waitlisted when full) or declined.
/// Retries with the same `Idempotency-Key` answer the first reply.
#[utoipa::path(request_body = RsvpInput, params(("Idempotency-Key" = Option<String>, Header, description = "retry-safe command id")),
    responses((status = 200, body = RsvpReply, description = "where you stand now"), (status = 404, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope)), tag = "events", security(("bearerAuth" = [])))]
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
    responses((status = 200, body = RsvpReply, description = "where the person stands now (REMOVED)"), (status = 403, body = crate::error::ErrorEnvelope),
    (status = 409, body = crate::error::ErrorEnvelope, description = "the event is cancelled")), tag = "events", security(("bearerAuth" = [])))]
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
#[utoipa::path(responses((status = 200, body = AttendeesDocument, description = "the attendees document")), tag = "events", security(("bearerAuth" = [])))]
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
