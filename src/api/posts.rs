//! Posts (CONTRACT.md › Feed and posts): a person writes 1–5,000 characters
//! of plain text; their followers get POST_CREATED in their feeds. Only the
//! author edits or deletes a post; anyone may read posts of a live account.

use super::{Page, PageQuery};
use crate::auth::{AuthUser, MaybeUser};
use crate::db::{self, feed::Resource, posts::PostRow};
use crate::domain::text::PlainText;
use crate::error::{AppError, AppResult};
use crate::permissions::{self, Action};
use crate::state::AppState;
use actix_web::{HttpResponse, delete, get, patch, post, web};
use serde::{Deserialize, Serialize};
use utoipa_actix_web::service_config::ServiceConfig;

/// The longest post, in characters (after trimming).
pub const MAX_POST_CHARS: usize = 5_000;

pub fn config(cfg: &mut ServiceConfig) {
    cfg.service(create).service(get_one).service(edit).service(remove).service(by_user);
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Post {
    pub id: String,
    pub content: String,
    pub author_id: String,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: i64,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub updated_at: i64,
}

impl From<PostRow> for Post {
    fn from(r: PostRow) -> Self {
        Post {
            id: r.id,
            content: r.content,
            author_id: r.author_id,
            created_at: r.created_at,
            updated_at: r.updated_at,
        }
    }
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PostInput {
    /// 1–5,000 characters after trimming; plain text (links become
    /// clickable in the client, nothing else is markup).
    #[schema(schema_with = crate::domain::text::schema::text::<MAX_POST_CHARS>)]
    pub content: String,
}

fn content(input: &PostInput) -> AppResult<String> {
    PlainText::<MAX_POST_CHARS>::parse(&input.content)
        .map(String::from)
        .map_err(|message| AppError::field("content", message))
}

async fn load(state: &AppState, id: &str) -> AppResult<PostRow> {
    db::posts::get(&state.db.pool, id).await?.ok_or_else(|| AppError::not_found("post"))
}

/// Write a post; it goes into every follower's feed.
#[utoipa::path(request_body = PostInput, responses((status = 201, body = Post), (status = 422, body = crate::error::ErrorEnvelope)), tag = "posts", security(("bearerAuth" = [])))]
#[post("/posts")]
async fn create(state: web::Data<AppState>, me: AuthUser, body: web::Json<PostInput>) -> AppResult<HttpResponse> {
    let text = content(&body)?;
    let mut tx = state.db.begin().await?;
    let id = db::posts::insert(&mut *tx, &me.id, &text).await?;
    let told = crate::feed::post_created(&mut tx, &me.id, &id).await?;
    tx.commit().await?;
    crate::live::feed::spawn_push(&state.db, &state.realtime.pusher, vec![told]);
    Ok(HttpResponse::Created().json(Post::from(load(&state, &id).await?)))
}

/// A post (public).
#[utoipa::path(responses((status = 200, body = Post), (status = 404, body = crate::error::ErrorEnvelope)), tag = "posts", security((), ("bearerAuth" = [])))]
#[get("/posts/{id}")]
async fn get_one(state: web::Data<AppState>, _me: MaybeUser, id: web::Path<String>) -> AppResult<web::Json<Post>> {
    Ok(web::Json(load(&state, &id).await?.into()))
}

/// Edit a post (its author); open feeds show the new text in place.
#[utoipa::path(request_body = PostInput, responses((status = 200, body = Post), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)), tag = "posts", security(("bearerAuth" = [])))]
#[patch("/posts/{id}")]
async fn edit(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    body: web::Json<PostInput>,
) -> AppResult<web::Json<Post>> {
    let post = load(&state, &id).await?;
    permissions::check(&state.db, Some(&me.id), Action::EditPost { author_id: &post.author_id }).await?;
    let text = content(&body)?;
    db::posts::update(&state.db.pool, &id, &text).await?;
    crate::live::feed::spawn_push_edited(&state.db, &state.realtime.pusher, Resource::Post, &id, (state.clock)());
    Ok(web::Json(load(&state, &id).await?.into()))
}

/// Delete a post (its author); it leaves every feed with it, open ones too.
#[utoipa::path(responses((status = 204), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope)), tag = "posts", security(("bearerAuth" = [])))]
#[delete("/posts/{id}")]
async fn remove(state: web::Data<AppState>, me: AuthUser, id: web::Path<String>) -> AppResult<HttpResponse> {
    let post = load(&state, &id).await?;
    permissions::check(&state.db, Some(&me.id), Action::EditPost { author_id: &post.author_id }).await?;
    let mut tx = state.db.begin().await?;
    let open = crate::live::feed::watched_about(&mut tx, &state.realtime.pusher, Resource::Post, &id).await?;
    db::feed::forget(&mut *tx, Resource::Post, &id).await?;
    db::posts::delete(&mut *tx, &id).await?;
    tx.commit().await?;
    crate::live::feed::spawn_push_removed(&state.realtime.pusher, open, (state.clock)());
    Ok(HttpResponse::NoContent().finish())
}

/// A person's posts, newest first (public).
#[utoipa::path(params(PageQuery), responses((status = 200, body = Page<Post>), (status = 404, body = crate::error::ErrorEnvelope)), tag = "posts", security((), ("bearerAuth" = [])))]
#[get("/users/{id}/posts")]
async fn by_user(
    state: web::Data<AppState>,
    _me: MaybeUser,
    id: web::Path<String>,
    page: web::Query<PageQuery>,
) -> AppResult<web::Json<Page<Post>>> {
    let limit = page.rows()?;
    let before = page.cursor()?.map(|c| (c.at, c.id));
    if db::users::get(&state.db.pool, &id).await?.is_none_or(|u| u.deleted_at.is_some()) {
        return Err(AppError::not_found("user"));
    }
    let rows = db::posts::by_author(&state.db.pool, &id, before, limit).await?;
    let (rows, next_cursor) =
        db::finish_page(rows, limit, |r| db::Cursor { at: r.created_at, id: r.id.clone() }.encode());
    Ok(web::Json(Page { items: rows.into_iter().map(Post::from).collect(), next_cursor }))
}
