//! Facilities (rinks): create, read, search, follow.

use super::nullable;
use super::seasons::Season;
use super::staff::{self, StaffRole, TransferOwnership};
use super::users::{PublicUser, people_page};
use super::{Page, PageQuery, check_len, check_name, check_url, clean, finish};
use crate::auth::{AuthUser, MaybeUser};
use crate::db::follows::{Direction, Target};
use crate::db::staff::Org;
use crate::db::{self, facilities::FacilityFields, finish_page, page_limit};
use crate::error::{AppError, AppResult, FieldErrors};
use crate::permissions::{self, Action, Object};
use crate::startup::AppState;
use crate::summaries::UserSummary;
use actix_web::{HttpResponse, delete, get, patch, post, put, web};
use serde::{Deserialize, Serialize};
use utoipa_actix_web::service_config::ServiceConfig;

pub fn config(cfg: &mut ServiceConfig) {
    cfg.service(create)
        .service(list)
        .service(get_one)
        .service(edit)
        .service(remove)
        .service(put_manager)
        .service(delete_manager)
        .service(transfer_ownership)
        .service(follow)
        .service(unfollow)
        .service(followers);
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Facility {
    pub id: String,
    pub name: String,
    pub phone_number: Option<String>,
    pub email: Option<String>,
    pub website: Option<String>,
    pub image_url: Option<String>,
    pub description: Option<String>,
    /// IANA time zone name, e.g. "America/Toronto".
    pub timezone: String,
    pub creator_id: String,
    pub owner_id: String,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: i64,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub updated_at: i64,
    pub follower_count: i64,
    pub is_following: bool,
}

/// A facility as the viewer sees it.
pub async fn load(state: &AppState, viewer: Option<&str>, id: &str) -> AppResult<Facility> {
    let row = db::facilities::get(&state.db.pool, id).await?.ok_or_else(|| AppError::not_found("facility"))?;
    let is_following = match viewer {
        Some(v) => db::follows::is_following(&state.db.pool, Target::Facility, v, id).await?,
        None => false,
    };
    Ok(Facility {
        id: row.id,
        name: row.name,
        phone_number: row.phone_number,
        email: row.email,
        website: row.website,
        image_url: row.image_url,
        description: row.description,
        timezone: row.timezone,
        creator_id: row.creator_id,
        owner_id: row.owner_id,
        created_at: row.created_at,
        updated_at: row.updated_at,
        follower_count: row.follower_count,
        is_following,
    })
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct NewFacility {
    pub name: String,
    pub timezone: String,
    pub phone_number: Option<String>,
    pub email: Option<String>,
    pub website: Option<String>,
    pub image_url: Option<String>,
    pub description: Option<String>,
}

/// An IANA time zone name.
pub fn check_timezone(errors: &mut FieldErrors, tz: &str) {
    if tz.parse::<chrono_tz::Tz>().is_err() {
        errors.insert("timezone".into(), "must be an IANA time zone such as America/Toronto".into());
    }
}

/// A plausible email address: something@host.tld, no spaces.
pub fn check_email(errors: &mut FieldErrors, field: &str, email: Option<&str>) {
    if let Some(e) = email {
        let ok = e.len() <= 254
            && !e.contains(char::is_whitespace)
            && e.split_once('@').is_some_and(|(local, host)| {
                !local.is_empty() && host.contains('.') && !host.starts_with('.') && !host.ends_with('.')
            });
        if !ok {
            errors.insert(field.into(), "must be an email address".into());
        }
    }
}

impl NewFacility {
    pub fn parse(self) -> AppResult<FacilityFields> {
        let mut errors = FieldErrors::new();
        let name = check_name(&mut errors, "name", &self.name, 120);
        let timezone = self.timezone.trim().to_string();
        check_timezone(&mut errors, &timezone);
        let fields = FacilityFields {
            name,
            timezone,
            phone_number: clean(self.phone_number),
            email: clean(self.email),
            website: clean(self.website),
            image_url: clean(self.image_url),
            description: clean(self.description),
        };
        check_len(&mut errors, "phoneNumber", fields.phone_number.as_deref(), 40);
        check_email(&mut errors, "email", fields.email.as_deref());
        check_url(&mut errors, "website", fields.website.as_deref());
        check_url(&mut errors, "imageUrl", fields.image_url.as_deref());
        check_len(&mut errors, "description", fields.description.as_deref(), 4000);
        finish(errors)?;
        Ok(fields)
    }
}

/// Create a facility; the creator is its creator and owner.
#[utoipa::path(request_body = NewFacility, responses((status = 201, body = Facility), (status = 422, body = crate::error::ErrorEnvelope)), tag = "facilities")]
#[post("/facilities")]
async fn create(state: web::Data<AppState>, me: AuthUser, body: web::Json<NewFacility>) -> AppResult<HttpResponse> {
    let fields = body.into_inner().parse()?;
    let id = db::facilities::insert(&state.db.pool, &me.id, &fields).await?;
    Ok(HttpResponse::Created().json(load(&state, Some(&me.id), &id).await?))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
pub struct NameQuery {
    /// Part of the name; empty lists all.
    pub q: Option<String>,
    pub limit: Option<i64>,
    pub cursor: Option<String>,
}

/// The alphabetical keyset cursor `(lower(name), id)`, encoded as `name\u{1f}id`.
pub fn name_cursor(raw: Option<&str>) -> AppResult<Option<(String, String)>> {
    match raw {
        None => Ok(None),
        Some(raw) => raw
            .split_once('\u{1f}')
            .map(|(n, i)| Some((n.to_string(), i.to_string())))
            .ok_or_else(|| AppError::field("cursor", "not a cursor we gave out")),
    }
}

/// Facilities by name.
#[utoipa::path(params(NameQuery), responses((status = 200, body = Page<Facility>)), tag = "facilities")]
#[get("/facilities")]
async fn list(
    state: web::Data<AppState>,
    me: MaybeUser,
    query: web::Query<NameQuery>,
) -> AppResult<web::Json<Page<Facility>>> {
    let limit = page_limit(query.limit);
    let after = name_cursor(query.cursor.as_deref())?;
    let rows = db::facilities::search(
        &state.db.pool,
        query.q.as_deref().unwrap_or(""),
        after.as_ref().map(|(n, i)| (n.as_str(), i.as_str())),
        limit,
    )
    .await?;
    let (rows, next_cursor) = finish_page(rows, limit, |r| format!("{}\u{1f}{}", r.name.to_lowercase(), r.id));
    let mut items = Vec::with_capacity(rows.len());
    for r in rows {
        items.push(load(&state, me.id(), &r.id).await?);
    }
    Ok(web::Json(Page { items, next_cursor }))
}

/// A facility's page: the facility, its managers, its latest seasons and
/// the viewer's role (public).
#[utoipa::path(responses((status = 200, body = FacilityPage), (status = 404, body = crate::error::ErrorEnvelope)), tag = "facilities")]
#[get("/facilities/{id}")]
async fn get_one(
    state: web::Data<AppState>,
    me: MaybeUser,
    id: web::Path<String>,
) -> AppResult<web::Json<FacilityPage>> {
    Ok(web::Json(load_page(&state, me.id(), &id).await?))
}

/// Follow a facility (idempotent).
#[utoipa::path(responses((status = 204), (status = 404, body = crate::error::ErrorEnvelope)), tag = "facilities")]
#[put("/facilities/{id}/follow")]
async fn follow(state: web::Data<AppState>, me: AuthUser, id: web::Path<String>) -> AppResult<HttpResponse> {
    permissions::check(&state.db, Some(&me.id), Action::Follow).await?;
    if !db::facilities::exists(&state.db.pool, &id).await? {
        return Err(AppError::not_found("facility"));
    }
    db::follows::follow(&state.db.pool, Target::Facility, &me.id, &id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Stop following a facility (idempotent).
#[utoipa::path(responses((status = 204)), tag = "facilities")]
#[delete("/facilities/{id}/follow")]
async fn unfollow(state: web::Data<AppState>, me: AuthUser, id: web::Path<String>) -> AppResult<HttpResponse> {
    permissions::check(&state.db, Some(&me.id), Action::Follow).await?;
    db::follows::unfollow(&state.db.pool, Target::Facility, &me.id, &id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// People following a facility, newest first.
#[utoipa::path(params(PageQuery), responses((status = 200, body = Page<PublicUser>), (status = 404, body = crate::error::ErrorEnvelope)), tag = "facilities")]
#[get("/facilities/{id}/followers")]
async fn followers(
    state: web::Data<AppState>,
    me: MaybeUser,
    id: web::Path<String>,
    page: web::Query<PageQuery>,
) -> AppResult<web::Json<Page<PublicUser>>> {
    Ok(web::Json(people_page(&state, me.id(), Target::Facility, Direction::Followers, &id, &page).await?))
}

// ---------------------------------------------------------------- page, edits, staff

/// `GET /facilities/{id}`: the facility and what its page shows.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FacilityPage {
    #[serde(flatten)]
    pub facility: Facility,
    /// Managers besides the owner, earliest first.
    pub managers: Vec<UserSummary>,
    /// The latest 20 seasons, latest start first (all: `GET /facilities/{id}/seasons`).
    pub seasons: Vec<Season>,
    /// OWNER, MANAGER, or null (signed out or neither).
    pub viewer_role: Option<StaffRole>,
}

pub async fn load_page(state: &AppState, viewer: Option<&str>, id: &str) -> AppResult<FacilityPage> {
    let facility = load(state, viewer, id).await?;
    let rel = permissions::relations(&state.db, viewer, Object::Facility(id)).await?;
    let seasons =
        super::seasons::facility_seasons(state, viewer, id, &PageQuery { limit: Some(20), cursor: None }).await?;
    Ok(FacilityPage {
        facility,
        managers: staff::managers(state, Org::Facility, id).await?,
        seasons: seasons.items,
        viewer_role: staff::role(&rel, Org::Facility),
    })
}

/// Only the fields given change; `null` clears an optional field.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct FacilityPatch {
    pub name: Option<String>,
    /// IANA time zone name.
    pub timezone: Option<String>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>)]
    pub phone_number: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>)]
    pub email: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>)]
    pub website: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>)]
    pub image_url: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>)]
    pub description: Option<Option<String>>,
}

/// Edit a facility (owner or managers); answers the page.
#[utoipa::path(request_body = FacilityPatch, responses((status = 200, body = FacilityPage), (status = 403, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)), tag = "facilities")]
#[patch("/facilities/{id}")]
async fn edit(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    body: web::Json<FacilityPatch>,
) -> AppResult<web::Json<FacilityPage>> {
    permissions::check(&state.db, Some(&me.id), Action::EditFacility { facility_id: &id }).await?;
    let p = body.into_inner();
    let mut tx = state.db.begin().await?;
    if !db::facilities::touch(&mut tx, &id).await? {
        return Err(AppError::not_found("facility"));
    }
    let row = db::facilities::get(&mut *tx, &id).await?.ok_or_else(|| AppError::not_found("facility"))?;
    // Merge, then validate the whole as a creation would.
    let fields = NewFacility {
        name: p.name.unwrap_or(row.name),
        timezone: p.timezone.unwrap_or(row.timezone),
        phone_number: p.phone_number.unwrap_or(row.phone_number),
        email: p.email.unwrap_or(row.email),
        website: p.website.unwrap_or(row.website),
        image_url: p.image_url.unwrap_or(row.image_url),
        description: p.description.unwrap_or(row.description),
    }
    .parse()?;
    db::facilities::replace(&mut tx, &id, &fields).await?;
    tx.commit().await?;
    Ok(web::Json(load_page(&state, Some(&me.id), &id).await?))
}

/// Delete a facility (owner only). Its seasons, their division mappings and
/// rosters go with it; its teams stay, without a facility.
#[utoipa::path(responses((status = 204), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope)), tag = "facilities")]
#[delete("/facilities/{id}")]
async fn remove(state: web::Data<AppState>, me: AuthUser, id: web::Path<String>) -> AppResult<HttpResponse> {
    permissions::check(&state.db, Some(&me.id), Action::DeleteFacility { facility_id: &id }).await?;
    if !db::facilities::delete(&state.db.pool, &id).await? {
        return Err(AppError::not_found("facility"));
    }
    Ok(HttpResponse::NoContent().finish())
}

/// Make someone a manager (owner only; idempotent).
#[utoipa::path(responses((status = 204), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope)), tag = "facilities")]
#[put("/facilities/{id}/managers/{user_id}")]
async fn put_manager(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<(String, String)>,
) -> AppResult<HttpResponse> {
    let (id, user_id) = path.into_inner();
    staff::add_manager(&state, &me, Org::Facility, &id, &user_id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Remove a manager (owner; or a manager stepping down; idempotent).
#[utoipa::path(responses((status = 204), (status = 403, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)), tag = "facilities")]
#[delete("/facilities/{id}/managers/{user_id}")]
async fn delete_manager(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<(String, String)>,
) -> AppResult<HttpResponse> {
    let (id, user_id) = path.into_inner();
    staff::remove_manager(&state, &me, Org::Facility, &id, &user_id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Hand the facility to someone else (owner only); the old owner stays on
/// as a manager. Answers the page.
#[utoipa::path(request_body = TransferOwnership, responses((status = 200, body = FacilityPage), (status = 403, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)), tag = "facilities")]
#[post("/facilities/{id}/transfer-ownership")]
async fn transfer_ownership(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    body: web::Json<TransferOwnership>,
) -> AppResult<web::Json<FacilityPage>> {
    staff::transfer(&state, &me, Org::Facility, &id, body.into_inner()).await?;
    Ok(web::Json(load_page(&state, Some(&me.id), &id).await?))
}
