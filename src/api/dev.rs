//! Dev sign-in: `POST /api/v1/dev/token` issues a token for any `clerkId`
//! and creates or updates that user. Answers 404 when Clerk is configured.

use super::users::{User, load_me};
use super::{check_len, clean, finish};
use crate::db::{self, users::ProfilePatch};
use crate::error::{AppError, AppResult, FieldErrors};
use crate::state::AppState;
use actix_web::{post, web};
use serde::{Deserialize, Serialize};
use utoipa_actix_web::service_config::ServiceConfig;

pub fn config(cfg: &mut ServiceConfig) {
    cfg.service(token);
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DevTokenRequest {
    /// Not starting with `deleted:` (a deleted account's mark).
    #[schema(schema_with = crate::domain::text::schema::text::<100>)]
    pub clerk_id: String,
    #[schema(schema_with = crate::domain::text::schema::optional_username)]
    pub username: Option<String>,
    #[schema(schema_with = crate::domain::text::schema::optional_email)]
    pub email: Option<String>,
    #[schema(schema_with = crate::domain::text::schema::optional_text::<60>)]
    pub first_name: Option<String>,
    #[schema(schema_with = crate::domain::text::schema::optional_text::<60>)]
    pub last_name: Option<String>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct DevTokenResponse {
    pub token: String,
    pub user: User,
}

/// Sign in as anyone (dev auth only).
#[utoipa::path(request_body = DevTokenRequest, responses((status = 200, body = DevTokenResponse),
    (status = 404, body = crate::error::ErrorEnvelope, description = "dev auth is off (Clerk is configured)"),
    (status = 409, body = crate::error::ErrorEnvelope, description = "the username or email is someone else's (`username_taken`), or the account was deleted (`account_deleted`)")), tag = "auth")]
#[post("/dev/token")]
async fn token(state: web::Data<AppState>, body: web::Json<DevTokenRequest>) -> AppResult<web::Json<DevTokenResponse>> {
    let dev = state.auth.dev().ok_or_else(|| AppError::not_found("route"))?;
    let body = body.into_inner();
    let mut errors = FieldErrors::new();
    let clerk_id = body.clerk_id.trim().to_string();
    if clerk_id.is_empty() || clerk_id.chars().count() > 100 || clerk_id.starts_with("deleted:") {
        errors.insert("clerkId".into(), "is required (at most 100 characters)".into());
    }
    let username = clean(body.username);
    if let Some(u) = &username {
        super::me::check_username(&mut errors, u);
    }
    let email = clean(body.email);
    super::facilities::check_email(&mut errors, "email", email.as_deref());
    let first_name = clean(body.first_name);
    let last_name = clean(body.last_name);
    check_len(&mut errors, "firstName", first_name.as_deref(), 60);
    check_len(&mut errors, "lastName", last_name.as_deref(), 60);
    finish(errors)?;

    let mut tx = state.db.begin().await?;
    let id = crate::auth::ensure_user(&mut tx, &clerk_id)
        .await?
        .ok_or_else(|| AppError::conflict_code("account_deleted", "that account was deleted"))?;
    // Only the fields given are set, so signing in again keeps edits.
    let patch = ProfilePatch {
        username,
        first_name: first_name.map(Some),
        last_name: last_name.map(Some),
        email: email.map(Some),
        ..ProfilePatch::default()
    };
    db::users::update_profile(&mut tx, &id, &patch).await.map_err(|e| match AppError::from(e) {
        AppError::Conflict { .. } => AppError::conflict_code("username_taken", "that username or email is taken"),
        other => other,
    })?;
    tx.commit().await?;
    Ok(web::Json(DevTokenResponse { token: dev.issue(&clerk_id)?, user: load_me(&state, &id).await? }))
}
