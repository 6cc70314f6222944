//! Clerk webhooks (`POST /api/v1/webhooks/clerk`), Svix-signed. Each message
//! is applied once (de-duplicated by `svix-id` in the same transaction as
//! its effect); `user.created` / `user.updated` older than what is stored
//! are ignored; `user.deleted` anonymises the user (see db::clerk_users::anonymise).

use crate::auth::webhook::{self, SignatureError};
use crate::db::{self, clerk_users::ClerkProfile};
use crate::error::{AppError, AppResult};
use crate::state::AppState;
use actix_web::{HttpRequest, post, web};
use serde::{Deserialize, Serialize};
use utoipa_actix_web::service_config::ServiceConfig;

pub fn config(cfg: &mut ServiceConfig) {
    cfg.service(clerk);
}

#[derive(Deserialize)]
struct ClerkEvent {
    #[serde(rename = "type")]
    kind: String,
    data: serde_json::Value,
}

#[derive(Deserialize)]
struct ClerkUserData {
    id: String,
    #[serde(default)]
    email_addresses: Vec<ClerkEmail>,
    primary_email_address_id: Option<String>,
    username: Option<String>,
    first_name: Option<String>,
    last_name: Option<String>,
    image_url: Option<String>,
    updated_at: Option<i64>,
}

#[derive(Deserialize)]
struct ClerkEmail {
    id: String,
    email_address: String,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct WebhookAck {
    /// `applied`, `duplicate`, `stale` or `ignored`.
    pub outcome: &'static str,
}

/// The body as documented: any JSON object Clerk sends (its fields are
/// Clerk's, read after the signature is checked), holding no text the door
/// refuses (`crate::http_input`).
pub struct ClerkWebhookBody;

impl utoipa::PartialSchema for ClerkWebhookBody {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, Type};
        ObjectBuilder::new()
            .schema_type(Type::Object)
            .property_names(Some(crate::domain::text::schema::body_text()))
            .additional_properties(Some(utoipa::openapi::Ref::from_schema_name(JsonValue::NAME)))
            .into()
    }
}

impl utoipa::ToSchema for ClerkWebhookBody {
    fn schemas(schemas: &mut Vec<(String, utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>)>) {
        schemas.push((JsonValue::NAME.into(), <JsonValue as utoipa::PartialSchema>::schema()));
    }
}

/// Any JSON value whose text (strings and keys) the door lets through.
struct JsonValue;

impl JsonValue {
    const NAME: &'static str = "JsonValue";
}

impl utoipa::PartialSchema for JsonValue {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, OneOfBuilder, Type};
        let any = || utoipa::openapi::Ref::from_schema_name(JsonValue::NAME);
        OneOfBuilder::new()
            .item(ObjectBuilder::new().schema_type(Type::Null))
            .item(ObjectBuilder::new().schema_type(Type::Boolean))
            .item(ObjectBuilder::new().schema_type(Type::Number))
            .item(crate::domain::text::schema::body_text())
            .item(ArrayBuilder::new().items(any()))
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::Object)
                    .property_names(Some(crate::domain::text::schema::body_text()))
                    .additional_properties(Some(any())),
            )
            .description(Some("Any JSON value; text holds no control characters but tabs and line breaks."))
            .into()
    }
}

fn header<'a>(req: &'a HttpRequest, name: &str) -> &'a str {
    req.headers().get(name).and_then(|v| v.to_str().ok()).unwrap_or("")
}

/// Receive a Clerk user webhook.
#[utoipa::path(
    params(
        ("svix-id" = String, Header, description = "The message id (Svix)"),
        ("svix-timestamp" = String, Header, description = "Seconds since the epoch (Svix)"),
        ("svix-signature" = String, Header, description = "`v1,<base64>` signatures, space-separated (Svix)"),
    ),
    request_body(content = ClerkWebhookBody, description = "Clerk webhook event"), responses((status = 200, body = WebhookAck), (status = 401, body = crate::error::ErrorEnvelope, description = "not signed by Clerk (Svix signature)"),
    (status = 404, body = crate::error::ErrorEnvelope, description = "no webhook secret is configured (`CLERK_WEBHOOK_SECRET`)")), tag = "auth")]
#[post("/webhooks/clerk")]
async fn clerk(state: web::Data<AppState>, req: HttpRequest, body: web::Bytes) -> AppResult<web::Json<WebhookAck>> {
    let secret = state.config.clerk_webhook_secret.as_deref().ok_or_else(|| AppError::not_found("route"))?;
    let svix_id = header(&req, "svix-id");
    let now_secs = (state.clock)() / 1000;
    webhook::verify(secret, svix_id, header(&req, "svix-timestamp"), header(&req, "svix-signature"), &body, now_secs)
        .map_err(|e| match e {
        SignatureError::BadSecret => AppError::internal(anyhow::anyhow!("CLERK_WEBHOOK_SECRET is not a whsec_ key")),
        other => AppError::unauthorized(other.to_string()),
    })?;
    let event: ClerkEvent =
        serde_json::from_slice(&body).map_err(|e| AppError::BadRequest(format!("not a Clerk event: {e}")))?;

    let mut tx = state.db.begin().await?;
    if !db::webhooks::record(&mut tx, svix_id, (state.clock)()).await? {
        return Ok(web::Json(WebhookAck { outcome: "duplicate" }));
    }
    let outcome = match event.kind.as_str() {
        "user.created" | "user.updated" => {
            let data: ClerkUserData = serde_json::from_value(event.data)
                .map_err(|e| AppError::BadRequest(format!("not a Clerk user: {e}")))?;
            if !crate::auth::valid_subject(&data.id) {
                return Err(AppError::BadRequest(
                    "a Clerk user's id must be 1-255 characters with no control characters".into(),
                ));
            }
            let email = data
                .primary_email_address_id
                .as_deref()
                .and_then(|primary| data.email_addresses.iter().find(|e| e.id == primary))
                .map(|e| e.email_address.clone());
            let profile = ClerkProfile {
                clerk_id: data.id,
                email,
                username: data.username,
                first_name: data.first_name,
                last_name: data.last_name,
                profile_image: data.image_url,
                updated_at: data.updated_at.unwrap_or_else(|| (state.clock)()),
            };
            // A deleted account stays deleted, whatever arrives late.
            match crate::auth::ensure_user(&mut tx, &profile.clerk_id).await? {
                Some(id) if db::clerk_users::update_from_clerk(&mut tx, &id, &profile).await? => "applied",
                _ => "stale",
            }
        }
        "user.deleted" => {
            let id = event
                .data
                .get("id")
                .and_then(|v| v.as_str())
                .filter(|id| !id.is_empty())
                .ok_or_else(|| AppError::BadRequest("user.deleted without data.id".into()))?;
            db::clerk_users::anonymise(&mut tx, id).await?;
            "applied"
        }
        _ => "ignored",
    };
    tx.commit().await?;
    Ok(web::Json(WebhookAck { outcome }))
}

#[cfg(test)]
mod fuzz {
    use super::*;
    use crate::fuzzing::{self, json_text};
    use proptest::prelude::*;

    const FIELDS: &[&str] = &[
        "type",
        "data",
        "id",
        "email_addresses",
        "primary_email_address_id",
        "username",
        "first_name",
        "last_name",
        "image_url",
        "updated_at",
        "email_address",
        "user.created",
        "user.updated",
        "user.deleted",
    ];

    proptest! {
        #![proptest_config(fuzzing::config(500))]

        /// A signed webhook body is still outside input (a leaked secret, a
        /// Clerk bug): the event and the user in it parse or are refused.
        #[test]
        fn any_webhook_body_parses_or_is_refused(raw in json_text(FIELDS)) {
            if let Ok(event) = serde_json::from_slice::<ClerkEvent>(&raw) {
                // A user parses only with its text `id`, and keeps it.
                let id = event.data.get("id").and_then(|v| v.as_str());
                if let Ok(user) = serde_json::from_value::<ClerkUserData>(event.data.clone()) {
                    prop_assert_eq!(Some(user.id.as_str()), id);
                }
            }
        }
    }
}
