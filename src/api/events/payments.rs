//! Who paid: organisers who collect payments mark attendees paid.

use crate::auth::AuthUser;
use crate::db;
use crate::error::{AppError, AppResult};
use crate::permissions::{self, Action};
use crate::state::AppState;
use actix_web::{get, put, web};
use serde::{Deserialize, Serialize};

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
    /// What they paid, recorded when marked paid (their share then).
    pub paid_cents: Option<i64>,
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
            paid_cents: row.paid_cents,
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

pub(super) async fn require_collector(state: &AppState, event_id: &str, me: &AuthUser) -> AppResult<()> {
    permissions::check(&state.db, Some(&me.id), Action::CollectPayments { event_id }).await?;
    permissions::check_payment_collector(&state.db, &me.id).await
}

/// Mark an attendee paid or unpaid (organisers who collect payments).
#[utoipa::path(request_body = PaymentInput, responses((status = 200, body = EventPayment), (status = 403, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope)), tag = "events", security(("bearerAuth" = [])))]
#[put("/events/{id}/payments/{user_id}")]
async fn mark_payment(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<(String, String)>,
    body: web::Json<PaymentInput>,
) -> AppResult<web::Json<EventPayment>> {
    let (event_id, user_id) = path.into_inner();
    require_collector(&state, &event_id, &me).await?;
    // Paid records the share as it stands now, so a recompute never moves
    // it; without a cost set there is no share yet: paid in full, whatever
    // the cost turns out to be.
    let paid_cents = if body.is_paid {
        let event = db::events::get(&state.db.pool, &event_id).await?.ok_or_else(|| AppError::not_found("event"))?;
        let bill = crate::ice_bill::for_event(&state.db, &event).await?;
        bill.applied.as_ref().and(bill.of(&user_id)).map(|(_, share)| share.amount_cents)
    } else {
        None
    };
    let mut conn = state.db.pool.acquire().await?;
    let row = db::events::mark_paid(&mut conn, &event_id, &user_id, body.is_paid, paid_cents, &me.id)
        .await?
        .ok_or_else(|| AppError::conflict_code("not_attending", "only attendees have a payment to mark"))?;
    drop(conn);
    // The player's page shows their own payment: a new event version tells
    // every open page to re-read it (docs/walkthrough.md › Live).
    if let Err(e) = crate::commands::event::touch(&state, &me.id, &event_id).await {
        tracing::warn!(event_id, error = %e.message(), "the payment is saved; pushing it live failed");
    }
    Ok(web::Json(EventPayment::from(row)))
}

/// Every attendee's payment (organisers who collect payments).
#[utoipa::path(responses((status = 200, body = Vec<EventPayment>), (status = 403, body = crate::error::ErrorEnvelope)), tag = "events", security(("bearerAuth" = [])))]
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

/// `PUT /users/{id}/payment-collection`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CollectionInput {
    pub enabled: bool,
}

/// Whether a person may collect payments, as it now stands.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Collection {
    pub user_id: String,
    pub enabled: bool,
}

/// Let an organiser collect payments, or stop them (the staff of a rink
/// where they organise); anyone may turn their own off.
#[utoipa::path(request_body = CollectionInput, responses((status = 200, body = Collection), (status = 401, body = crate::error::ErrorEnvelope), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope)),
    tag = "users", security(("bearerAuth" = [])))]
#[put("/users/{id}/payment-collection")]
async fn grant_collection(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    body: web::Json<CollectionInput>,
) -> AppResult<web::Json<Collection>> {
    let own_off = *id == me.id && !body.enabled;
    if !own_off {
        permissions::check(&state.db, Some(&me.id), Action::GrantPaymentCollection { user_id: &id }).await?;
    }
    db::users::set_payment_collection(&state.db.pool, &id, body.enabled).await?;
    Ok(web::Json(Collection { user_id: id.into_inner(), enabled: body.enabled }))
}
