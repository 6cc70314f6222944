//! People: profiles, search, follows and follow lists. The lists of the
//! facilities and teams a person follows are shared org routes
//! (`api::orgs`), mounted with those resources.

use super::{Page, PageQuery, SearchQuery, page_rows};
use crate::auth::{AuthUser, MaybeUser};
use crate::db::follows::{Direction, Target};
use crate::db::positions::PositionRow;
use crate::db::users::UserRow;
use crate::db::{self, Cursor, finish_page};
use crate::domain::{HockeyPosition, ProfileType, SkillLevel};
use crate::error::{AppError, AppResult};
use crate::realtime::topics::Topic;
use crate::state::AppState;
use actix_web::{HttpResponse, delete, get, put, web};
use serde::Serialize;
use utoipa_actix_web::service_config::ServiceConfig;

pub fn config(cfg: &mut ServiceConfig) {
    cfg.service(search).service(get_user).service(follow).service(unfollow).service(followers).service(following);
}

/// The signed-in user's own view of themselves (`GET /me`).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct User {
    pub id: String,
    pub clerk_id: String,
    pub email: Option<String>,
    pub username: Option<String>,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub profile_image: Option<String>,
    pub bio: Option<String>,
    pub onboarding_complete: bool,
    pub can_collect_event_payments: bool,
    #[serde(with = "crate::time::rfc3339_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub legal_accepted_at: Option<i64>,
    pub legal_version: Option<String>,
    pub profile_types: Vec<ProfileType>,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: i64,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub updated_at: i64,
    pub follower_count: i64,
    pub following_count: i64,
}

/// Anyone's public profile.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublicUser {
    pub id: String,
    pub username: Option<String>,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub profile_image: Option<String>,
    pub bio: Option<String>,
    pub profile_types: Vec<ProfileType>,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: i64,
    pub follower_count: i64,
    pub following_count: i64,
    /// Whether the caller follows this person (false when signed out).
    pub is_following: bool,
    /// Set on follow lists: when the follow happened.
    #[serde(skip_serializing_if = "Option::is_none", with = "crate::time::rfc3339_opt")]
    #[schema(nullable = false, value_type = Option<String>, format = DateTime)]
    pub followed_at: Option<i64>,
    /// Player positions; only on the single-profile read.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub positions: Option<Vec<PlayerPosition>>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlayerPosition {
    pub id: String,
    pub position: HockeyPosition,
    pub skill_level: SkillLevel,
    pub is_preferred: bool,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: i64,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub updated_at: i64,
}

impl From<PositionRow> for PlayerPosition {
    fn from(r: PositionRow) -> Self {
        PlayerPosition {
            id: r.id,
            position: HockeyPosition::parse(&r.position).unwrap_or(HockeyPosition::Center),
            skill_level: SkillLevel::parse(&r.skill_level).unwrap_or(SkillLevel::Beginner),
            is_preferred: r.is_preferred != 0,
            created_at: r.created_at,
            updated_at: r.updated_at,
        }
    }
}

/// A user's profile types, in the seed's order.
fn types_of(all: &[(String, String)], user_id: &str) -> Vec<ProfileType> {
    let mut types: Vec<ProfileType> =
        all.iter().filter(|(u, _)| u == user_id).filter_map(|(_, t)| ProfileType::parse(t)).collect();
    types.sort();
    types
}

/// Builds the owner's view of a user.
pub async fn load_me(state: &AppState, user_id: &str) -> AppResult<User> {
    let row = db::users::get(&state.db.pool, user_id).await?.ok_or_else(|| AppError::not_found("user"))?;
    let types = db::users::profile_types(&state.db.pool, std::slice::from_ref(&row.id)).await?;
    Ok(User {
        profile_types: types_of(&types, &row.id),
        id: row.id,
        clerk_id: row.clerk_id,
        email: row.email,
        username: row.username,
        first_name: row.first_name,
        last_name: row.last_name,
        profile_image: row.profile_image,
        bio: row.bio,
        onboarding_complete: row.onboarding_complete != 0,
        can_collect_event_payments: row.can_collect_event_payments != 0,
        legal_accepted_at: row.legal_accepted_at,
        legal_version: row.legal_version,
        created_at: row.created_at,
        updated_at: row.updated_at,
        follower_count: row.follower_count,
        following_count: row.following_count,
    })
}

/// Public profiles for rows, with the caller's follow state, in two queries.
async fn public_users(
    state: &AppState,
    viewer: Option<&str>,
    rows: Vec<(UserRow, Option<i64>)>,
) -> AppResult<Vec<PublicUser>> {
    let ids: Vec<String> = rows.iter().map(|(r, _)| r.id.clone()).collect();
    let types = db::users::profile_types(&state.db.pool, &ids).await?;
    let mut out = Vec::with_capacity(rows.len());
    for (row, followed_at) in rows {
        let is_following = match viewer {
            Some(v) => db::follows::is_following(&state.db.pool, Target::User, v, &row.id).await?,
            None => false,
        };
        out.push(PublicUser {
            profile_types: types_of(&types, &row.id),
            id: row.id,
            username: row.username,
            first_name: row.first_name,
            last_name: row.last_name,
            profile_image: row.profile_image,
            bio: row.bio,
            created_at: row.created_at,
            follower_count: row.follower_count,
            following_count: row.following_count,
            is_following,
            followed_at,
            positions: None,
        });
    }
    Ok(out)
}

/// Search people by name or username (`@name`: usernames only), position
/// and skill level.
#[utoipa::path(params(SearchQuery), responses((status = 200, body = Page<PublicUser>)), tag = "users", security((), ("bearerAuth" = [])))]
#[get("/users")]
async fn search(
    state: web::Data<AppState>,
    me: MaybeUser,
    query: web::Query<SearchQuery>,
) -> AppResult<web::Json<Page<PublicUser>>> {
    let query = query.into_inner();
    let limit = page_rows(query.limit)?;
    let term = query.term()?;
    let page = PageQuery { limit: query.limit, cursor: query.cursor };
    let (text, username_only) = super::people_term(term.as_str());
    let filter = db::users::PeopleFilter {
        term: text,
        username_only,
        position: query.position.map(|p| p.as_str()),
        skill_level: query.skill_level.map(|l| l.as_str()),
    };
    let rows = db::users::search(&state.db.pool, &filter, page.cursor()?.as_ref(), limit).await?;
    let (rows, next_cursor) = finish_page(rows, limit, |r| Cursor { at: r.created_at, id: r.id.clone() }.encode());
    let items = public_users(&state, me.id(), rows.into_iter().map(|r| (r, None)).collect()).await?;
    Ok(web::Json(Page { items, next_cursor }))
}

/// A person's public profile with follower and following counts.
#[utoipa::path(responses((status = 200, body = PublicUser), (status = 404, body = crate::error::ErrorEnvelope)), tag = "users", security((), ("bearerAuth" = [])))]
#[get("/users/{id}")]
async fn get_user(
    state: web::Data<AppState>,
    me: MaybeUser,
    id: web::Path<String>,
) -> AppResult<web::Json<PublicUser>> {
    let row = db::users::get(&state.db.pool, &id)
        .await?
        .filter(|r| r.deleted_at.is_none())
        .ok_or_else(|| AppError::not_found("user"))?;
    let positions = db::positions::positions(&state.db.pool, &row.id).await?;
    let mut user =
        public_users(&state, me.id(), vec![(row, None)]).await?.pop().ok_or_else(|| AppError::not_found("user"))?;
    user.positions = Some(positions.into_iter().map(PlayerPosition::from).collect());
    Ok(web::Json(user))
}

/// Follow a person (idempotent; not yourself).
#[utoipa::path(responses((status = 204), (status = 404, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)), tag = "users", security(("bearerAuth" = [])))]
#[put("/users/{id}/follow")]
async fn follow(state: web::Data<AppState>, me: AuthUser, id: web::Path<String>) -> AppResult<HttpResponse> {
    crate::permissions::check(&state.db, Some(&me.id), crate::permissions::Action::Follow).await?;
    if *id == me.id {
        return Err(AppError::field("id", "you cannot follow yourself"));
    }
    if !db::users::exists(&state.db.pool, &id).await? {
        return Err(AppError::not_found("user"));
    }
    db::follows::follow(&state.db.pool, Target::User, &me.id, &id).await?;
    state.realtime.pusher.push_soon(vec![Topic::follows(id.as_str()), Topic::follows(me.id.as_str())]);
    Ok(HttpResponse::NoContent().finish())
}

/// Stop following a person (idempotent).
#[utoipa::path(responses((status = 204)), tag = "users", security(("bearerAuth" = [])))]
#[delete("/users/{id}/follow")]
async fn unfollow(state: web::Data<AppState>, me: AuthUser, id: web::Path<String>) -> AppResult<HttpResponse> {
    crate::permissions::check(&state.db, Some(&me.id), crate::permissions::Action::Follow).await?;
    db::follows::unfollow(&state.db.pool, Target::User, &me.id, &id).await?;
    state.realtime.pusher.push_soon(vec![Topic::follows(id.as_str()), Topic::follows(me.id.as_str())]);
    Ok(HttpResponse::NoContent().finish())
}

/// One page of people following a user, facility or team, or followed by a
/// user; 404 when that user (or facility, or team) does not exist, rather
/// than an empty list that looks like "nobody".
pub async fn people_page(
    state: &AppState,
    viewer: Option<&str>,
    target: Target,
    direction: Direction,
    id: &str,
    page: &PageQuery,
) -> AppResult<Page<PublicUser>> {
    let (exists, what) = match target {
        Target::User => (db::users::exists(&state.db.pool, id).await?, "user"),
        Target::Org(org) => (db::orgs::exists(&state.db.pool, org, id).await?, org.noun()),
    };
    if !exists {
        return Err(AppError::not_found(what));
    }
    let limit = page.rows()?;
    let rows = db::follows::list_people(&state.db.pool, target, direction, id, page.cursor()?.as_ref(), limit).await?;
    let (rows, next_cursor) =
        finish_page(rows, limit, |r| Cursor { at: r.followed_at, id: r.follow_id.clone() }.encode());
    let items = public_users(state, viewer, rows.into_iter().map(|r| (r.user, Some(r.followed_at))).collect()).await?;
    Ok(Page { items, next_cursor })
}

/// People following this user, newest first.
#[utoipa::path(params(PageQuery), responses((status = 200, body = Page<PublicUser>), (status = 404, body = crate::error::ErrorEnvelope)), tag = "users", security((), ("bearerAuth" = [])))]
#[get("/users/{id}/followers")]
async fn followers(
    state: web::Data<AppState>,
    me: MaybeUser,
    id: web::Path<String>,
    page: web::Query<PageQuery>,
) -> AppResult<web::Json<Page<PublicUser>>> {
    Ok(web::Json(people_page(&state, me.id(), Target::User, Direction::Followers, &id, &page).await?))
}

/// People this user follows, newest first.
#[utoipa::path(params(PageQuery), responses((status = 200, body = Page<PublicUser>), (status = 404, body = crate::error::ErrorEnvelope)), tag = "users", security((), ("bearerAuth" = [])))]
#[get("/users/{id}/following")]
async fn following(
    state: web::Data<AppState>,
    me: MaybeUser,
    id: web::Path<String>,
    page: web::Query<PageQuery>,
) -> AppResult<web::Json<Page<PublicUser>>> {
    Ok(web::Json(people_page(&state, me.id(), Target::User, Direction::Following, &id, &page).await?))
}
