//! The signed-in user's own profile, legal acceptance and player positions.

use super::form::Form;
use super::users::{PlayerPosition, User, load_me};
use super::{nullable, patch_text};
use crate::auth::AuthUser;
use crate::db::{self, users::ProfilePatch};
use crate::domain::text::{HttpUrl, Name, PlainText, Username};
use crate::domain::{HockeyPosition, ProfileType, SkillLevel};
use crate::error::{AppError, AppResult, FieldErrors};
use crate::state::AppState;
use actix_web::{HttpResponse, delete, get, patch, post, web};
use serde::Deserialize;
use utoipa_actix_web::service_config::ServiceConfig;

pub fn config(cfg: &mut ServiceConfig) {
    cfg.service(get_me)
        .service(patch_me)
        .service(accept_legal)
        .service(list_positions)
        .service(add_position)
        .service(patch_position)
        .service(delete_position);
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PatchMe {
    #[schema(schema_with = crate::domain::text::schema::nullable_username)]
    pub username: Option<String>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(schema_with = crate::domain::text::schema::optional_name::<60>)]
    pub first_name: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(schema_with = crate::domain::text::schema::optional_name::<60>)]
    pub last_name: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(schema_with = crate::domain::text::schema::optional_text::<1000>)]
    pub bio: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(schema_with = crate::domain::text::schema::optional_url)]
    pub profile_image: Option<Option<String>>,
    /// At least one.
    #[schema(min_items = 1)]
    pub profile_types: Option<Vec<ProfileType>>,
    pub onboarding_complete: Option<bool>,
    /// Only `false`: a rink's staff turn it on (403 for `true` unless it is
    /// on already; docs/sides-and-bill.md › Who may collect).
    pub can_collect_event_payments: Option<bool>,
}

/// A person's first or last name.
type PersonName = Name<60>;

/// A parsed PATCH text field as `ProfilePatch` stores it.
fn stored<T: Into<String>>(field: Option<Option<T>>) -> Option<Option<String>> {
    field.map(|v| v.map(Into::into))
}

/// Kept for `api::dev`, which has not moved to [`Username`] yet.
pub fn check_username(errors: &mut FieldErrors, username: &str) {
    if let Err(message) = Username::parse(username) {
        errors.insert("username".into(), message);
    }
}

impl PatchMe {
    fn into_patch(self) -> AppResult<(ProfilePatch, Option<Vec<ProfileType>>)> {
        let mut form = Form::default();
        let username = form.field("username", self.username.as_deref().map(Username::parse).transpose());
        let first_name = form.field("firstName", patch_text(self.first_name, PersonName::parse));
        let last_name = form.field("lastName", patch_text(self.last_name, PersonName::parse));
        let bio = form.field("bio", patch_text(self.bio, PlainText::<1000>::parse));
        let profile_image = form.field("profileImage", patch_text(self.profile_image, HttpUrl::parse));
        if self.profile_types.as_ref().is_some_and(Vec::is_empty) {
            form.error("profileTypes", "choose at least one");
        }
        form.finish()?;
        let types = self.profile_types.map(|mut t| {
            t.sort();
            t.dedup();
            t
        });
        Ok((
            ProfilePatch {
                username: username?.map(String::from),
                first_name: stored(first_name?),
                last_name: stored(last_name?),
                bio: stored(bio?),
                profile_image: stored(profile_image?),
                onboarding_complete: self.onboarding_complete,
                can_collect_event_payments: self.can_collect_event_payments,
                email: None,
            },
            types,
        ))
    }
}

/// The signed-in user.
#[utoipa::path(responses((status = 200, body = User), (status = 401, body = crate::error::ErrorEnvelope)), tag = "me", security(("bearerAuth" = [])))]
#[get("/me")]
async fn get_me(state: web::Data<AppState>, me: AuthUser) -> AppResult<web::Json<User>> {
    Ok(web::Json(load_me(&state, &me.id).await?))
}

/// Edit the profile and profile types.
#[utoipa::path(request_body = PatchMe, responses((status = 200, body = User), (status = 403, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)), tag = "me", security(("bearerAuth" = [])))]
#[patch("/me")]
async fn patch_me(state: web::Data<AppState>, me: AuthUser, body: web::Json<PatchMe>) -> AppResult<web::Json<User>> {
    // `/me` can only ever name the caller; asked anyway so the rule lives in one place.
    crate::permissions::check(&state.db, Some(&me.id), crate::permissions::Action::EditProfile { user_id: &me.id })
        .await?;
    let (patch, types) = body.into_inner().into_patch()?;
    if patch.can_collect_event_payments == Some(true) {
        crate::permissions::check_payment_collector(&state.db, &me.id).await.map_err(|_| {
            AppError::forbidden(
                "payment collection is granted by the staff of a rink where you organise; you may only turn it off",
            )
        })?;
    }
    if patch.onboarding_complete == Some(true) {
        // Onboarding is complete only with at least one profile type and
        // the current terms accepted.
        if types.is_none() {
            let current = db::users::profile_types(&state.db.pool, std::slice::from_ref(&me.id)).await?;
            if current.is_empty() {
                return Err(AppError::field("profileTypes", "choose at least one before finishing onboarding"));
            }
        }
        let user = db::users::get(&state.db.pool, &me.id).await?;
        if user.and_then(|u| u.legal_version).as_deref() != Some(LEGAL_VERSION) {
            return Err(AppError::field(
                "legalVersion",
                format!("accept the terms (version {LEGAL_VERSION}) before finishing onboarding"),
            ));
        }
    }
    let mut tx = state.db.begin().await?;
    let was_onboarded = db::users::get(&mut *tx, &me.id).await?.is_some_and(|u| u.onboarding_complete != 0);
    db::users::update_profile(&mut tx, &me.id, &patch).await.map_err(username_taken)?;
    if let Some(types) = types {
        let names: Vec<&str> = types.iter().map(|t| t.as_str()).collect();
        db::users::set_profile_types(&mut tx, &me.id, &names).await?;
    }
    // Just finished onboarding and follows nobody: suggestions in the feed.
    let mut told = Vec::new();
    if patch.onboarding_complete == Some(true) && !was_onboarded {
        told.extend(crate::feed::first_follow(&mut tx, &me.id).await?);
    }
    tx.commit().await?;
    crate::live::feed::spawn_push(&state.db, &state.realtime.pusher, told);
    Ok(web::Json(load_me(&state, &me.id).await?))
}

/// A unique violation on PATCH /me can only be the username.
fn username_taken(err: sqlx::Error) -> AppError {
    match AppError::from(err) {
        AppError::Conflict { .. } => AppError::conflict_code("username_taken", "that username is taken"),
        other => other,
    }
}

/// The version of the terms of use and privacy policy users accept now.
pub const LEGAL_VERSION: &str = "2026-11";

/// `legalVersion`: [`LEGAL_VERSION`] and nothing else.
fn legal_version() -> utoipa::openapi::schema::Object {
    crate::domain::text::schema::exactly(LEGAL_VERSION, "The version of the terms accepted: the current one.")
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AcceptLegal {
    /// The version of the terms accepted: the current one.
    #[schema(schema_with = legal_version)]
    pub legal_version: String,
}

/// Record acceptance of the legal terms (now, at this version).
#[utoipa::path(request_body = AcceptLegal, responses((status = 200, body = User)), tag = "me", security(("bearerAuth" = [])))]
#[post("/me/legal")]
async fn accept_legal(
    state: web::Data<AppState>,
    me: AuthUser,
    body: web::Json<AcceptLegal>,
) -> AppResult<web::Json<User>> {
    let version = body.legal_version.trim();
    if version != LEGAL_VERSION {
        return Err(AppError::field("legalVersion", format!("the current terms are version {LEGAL_VERSION}")));
    }
    db::users::accept_legal(&state.db.pool, &me.id, version).await?;
    Ok(web::Json(load_me(&state, &me.id).await?))
}

/// My player positions, preferred first.
#[utoipa::path(responses((status = 200, body = Vec<PlayerPosition>)), tag = "me", security(("bearerAuth" = [])))]
#[get("/me/positions")]
async fn list_positions(state: web::Data<AppState>, me: AuthUser) -> AppResult<web::Json<Vec<PlayerPosition>>> {
    let rows = db::positions::positions(&state.db.pool, &me.id).await?;
    Ok(web::Json(rows.into_iter().map(PlayerPosition::from).collect()))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct NewPosition {
    pub position: HockeyPosition,
    pub skill_level: SkillLevel,
    /// Making this one preferred un-prefers the others.
    pub is_preferred: Option<bool>,
}

/// Add a position I play (one row per position).
#[utoipa::path(request_body = NewPosition, responses((status = 201, body = PlayerPosition), (status = 409, body = crate::error::ErrorEnvelope)), tag = "me", security(("bearerAuth" = [])))]
#[post("/me/positions")]
async fn add_position(
    state: web::Data<AppState>,
    me: AuthUser,
    body: web::Json<NewPosition>,
) -> AppResult<HttpResponse> {
    let preferred = body.is_preferred.unwrap_or(false);
    let mut tx = state.db.begin().await?;
    if preferred {
        db::positions::clear_preferred(&mut tx, &me.id).await?;
    }
    let id =
        db::positions::insert_position(&mut tx, &me.id, body.position.as_str(), body.skill_level.as_str(), preferred)
            .await
            .map_err(|e| match AppError::from(e) {
                AppError::Conflict { .. } => AppError::conflict("you already have that position; edit it instead"),
                other => other,
            })?;
    tx.commit().await?;
    let row =
        db::positions::position(&state.db.pool, &me.id, &id).await?.ok_or_else(|| AppError::not_found("position"))?;
    Ok(HttpResponse::Created().json(PlayerPosition::from(row)))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PatchPosition {
    pub skill_level: Option<SkillLevel>,
    pub is_preferred: Option<bool>,
}

/// Change a position's skill level or make it preferred.
#[utoipa::path(request_body = PatchPosition, responses((status = 200, body = PlayerPosition), (status = 404, body = crate::error::ErrorEnvelope)), tag = "me", security(("bearerAuth" = [])))]
#[patch("/me/positions/{id}")]
async fn patch_position(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    body: web::Json<PatchPosition>,
) -> AppResult<web::Json<PlayerPosition>> {
    let mut tx = state.db.begin().await?;
    if db::positions::position(&mut *tx, &me.id, &id).await?.is_none() {
        return Err(AppError::not_found("position"));
    }
    if body.is_preferred == Some(true) {
        db::positions::clear_preferred(&mut tx, &me.id).await?;
    }
    db::positions::update_position(&mut tx, &id, body.skill_level.map(|s| s.as_str()), body.is_preferred).await?;
    tx.commit().await?;
    let row =
        db::positions::position(&state.db.pool, &me.id, &id).await?.ok_or_else(|| AppError::not_found("position"))?;
    Ok(web::Json(PlayerPosition::from(row)))
}

/// Remove a position.
#[utoipa::path(responses((status = 204), (status = 404, body = crate::error::ErrorEnvelope)), tag = "me", security(("bearerAuth" = [])))]
#[delete("/me/positions/{id}")]
async fn delete_position(state: web::Data<AppState>, me: AuthUser, id: web::Path<String>) -> AppResult<HttpResponse> {
    if !db::positions::delete_position(&state.db.pool, &me.id, &id).await? {
        return Err(AppError::not_found("position"));
    }
    Ok(HttpResponse::NoContent().finish())
}

#[cfg(test)]
mod fuzz {
    use crate::fuzzing::json_bodies;

    json_bodies! {
        patch_me: super::PatchMe => |body| body.into_patch().map(drop);
    }
}
