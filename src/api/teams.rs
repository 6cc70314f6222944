//! Teams: create, read, search, follow.

use super::facilities::{NameQuery, name_cursor};
use super::users::{PublicUser, people_page};
use super::{Page, PageQuery, check_len, check_name, check_url, clean, finish};
use crate::auth::{AuthUser, MaybeUser};
use crate::db::follows::{Direction, Target};
use crate::db::{self, finish_page, page_limit, teams::TeamFields};
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
pub struct Team {
    pub id: String,
    pub name: String,
    pub logo_url: Option<String>,
    pub description: Option<String>,
    pub facility_id: Option<String>,
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

/// A team as the viewer sees it.
pub async fn load(state: &AppState, viewer: Option<&str>, id: &str) -> AppResult<Team> {
    let row = db::teams::get(&state.db.pool, id).await?.ok_or_else(|| AppError::not_found("team"))?;
    let is_following = match viewer {
        Some(v) => db::follows::is_following(&state.db.pool, Target::Team, v, id).await?,
        None => false,
    };
    Ok(Team {
        id: row.id,
        name: row.name,
        logo_url: row.logo_url,
        description: row.description,
        facility_id: row.facility_id,
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
pub struct NewTeam {
    pub name: String,
    pub facility_id: Option<String>,
    pub logo_url: Option<String>,
    pub description: Option<String>,
}

impl NewTeam {
    pub fn parse(self) -> AppResult<TeamFields> {
        let mut errors = FieldErrors::new();
        let name = check_name(&mut errors, "name", &self.name, 120);
        let fields = TeamFields {
            name,
            facility_id: clean(self.facility_id),
            logo_url: clean(self.logo_url),
            description: clean(self.description),
        };
        check_url(&mut errors, "logoUrl", fields.logo_url.as_deref());
        check_len(&mut errors, "description", fields.description.as_deref(), 4000);
        finish(errors)?;
        Ok(fields)
    }
}

/// Create a team; the creator is its creator and owner.
#[utoipa::path(request_body = NewTeam, responses((status = 201, body = Team), (status = 422, body = crate::error::ErrorEnvelope)), tag = "teams")]
#[post("/teams")]
async fn create(state: web::Data<AppState>, me: AuthUser, body: web::Json<NewTeam>) -> AppResult<HttpResponse> {
    let fields = body.into_inner().parse()?;
    if let Some(facility_id) = &fields.facility_id {
        if !db::facilities::exists(&state.db.pool, facility_id).await? {
            return Err(AppError::field("facilityId", "no such facility"));
        }
    }
    let id = db::teams::insert(&state.db.pool, &me.id, &fields).await?;
    Ok(HttpResponse::Created().json(load(&state, Some(&me.id), &id).await?))
}

/// Teams by name.
#[utoipa::path(params(NameQuery), responses((status = 200, body = Page<Team>)), tag = "teams")]
#[get("/teams")]
async fn list(state: web::Data<AppState>, me: MaybeUser, query: web::Query<NameQuery>) -> AppResult<web::Json<Page<Team>>> {
    let limit = page_limit(query.limit);
    let after = name_cursor(query.cursor.as_deref())?;
    let rows = db::teams::search(
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

/// A team (public).
#[utoipa::path(responses((status = 200, body = Team), (status = 404, body = crate::error::ErrorEnvelope)), tag = "teams")]
#[get("/teams/{id}")]
async fn get_one(state: web::Data<AppState>, me: MaybeUser, id: web::Path<String>) -> AppResult<web::Json<Team>> {
    Ok(web::Json(load(&state, me.id(), &id).await?))
}

/// Follow a team (idempotent).
#[utoipa::path(responses((status = 204), (status = 404, body = crate::error::ErrorEnvelope)), tag = "teams")]
#[put("/teams/{id}/follow")]
async fn follow(state: web::Data<AppState>, me: AuthUser, id: web::Path<String>) -> AppResult<HttpResponse> {
    if !db::teams::exists(&state.db.pool, &id).await? {
        return Err(AppError::not_found("team"));
    }
    db::follows::follow(&state.db.pool, Target::Team, &me.id, &id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Stop following a team (idempotent).
#[utoipa::path(responses((status = 204)), tag = "teams")]
#[delete("/teams/{id}/follow")]
async fn unfollow(state: web::Data<AppState>, me: AuthUser, id: web::Path<String>) -> AppResult<HttpResponse> {
    db::follows::unfollow(&state.db.pool, Target::Team, &me.id, &id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// People following a team, newest first.
#[utoipa::path(params(PageQuery), responses((status = 200, body = Page<PublicUser>)), tag = "teams")]
#[get("/teams/{id}/followers")]
async fn followers(state: web::Data<AppState>, me: MaybeUser, id: web::Path<String>, page: web::Query<PageQuery>) -> AppResult<web::Json<Page<PublicUser>>> {
    Ok(web::Json(people_page(&state, me.id(), Target::Team, Direction::Followers, &id, &page).await?))
}
