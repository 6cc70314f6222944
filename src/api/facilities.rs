//! Facilities (rinks): create, read, search, follow.

use super::users::{PublicUser, people_page};
use super::{Page, PageQuery, check_len, check_name, check_url, clean, finish};
use crate::auth::{AuthUser, MaybeUser};
use crate::db::follows::{Direction, Target};
use crate::db::{self, facilities::FacilityFields, finish_page, page_limit};
use crate::error::{AppError, AppResult, FieldErrors};
use crate::startup::AppState;
use actix_web::{HttpResponse, delete, get, post, put, web};
use serde::{Deserialize, Serialize};
use utoipa_actix_web::service_config::ServiceConfig;

pub fn config(cfg: &mut ServiceConfig) {
    cfg.service(create).service(list).service(get_one).service(follow).service(unfollow).service(followers);
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
            && e.split_once('@').is_some_and(|(local, host)| !local.is_empty() && host.contains('.') && !host.starts_with('.') && !host.ends_with('.'));
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
async fn list(state: web::Data<AppState>, me: MaybeUser, query: web::Query<NameQuery>) -> AppResult<web::Json<Page<Facility>>> {
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

/// A facility (public).
#[utoipa::path(responses((status = 200, body = Facility), (status = 404, body = crate::error::ErrorEnvelope)), tag = "facilities")]
#[get("/facilities/{id}")]
async fn get_one(state: web::Data<AppState>, me: MaybeUser, id: web::Path<String>) -> AppResult<web::Json<Facility>> {
    Ok(web::Json(load(&state, me.id(), &id).await?))
}

/// Follow a facility (idempotent).
#[utoipa::path(responses((status = 204), (status = 404, body = crate::error::ErrorEnvelope)), tag = "facilities")]
#[put("/facilities/{id}/follow")]
async fn follow(state: web::Data<AppState>, me: AuthUser, id: web::Path<String>) -> AppResult<HttpResponse> {
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
    db::follows::unfollow(&state.db.pool, Target::Facility, &me.id, &id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// People following a facility, newest first.
#[utoipa::path(params(PageQuery), responses((status = 200, body = Page<PublicUser>)), tag = "facilities")]
#[get("/facilities/{id}/followers")]
async fn followers(state: web::Data<AppState>, me: MaybeUser, id: web::Path<String>, page: web::Query<PageQuery>) -> AppResult<web::Json<Page<PublicUser>>> {
    Ok(web::Json(people_page(&state, me.id(), Target::Facility, Direction::Followers, &id, &page).await?))
}
