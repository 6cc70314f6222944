//! The signed-in person's feed (CONTRACT.md › Feed and posts): newest first
//! by `updatedAt`, keyset-paged, each item with its resource summarised.
//! Who hears about what is `crate::feed`; the items and the live `feed`
//! topic are `crate::live::feed`.

use super::{Page, PageQuery};
use crate::auth::AuthUser;
use crate::error::AppResult;
use crate::live::feed::{self, FeedItem};
use crate::state::AppState;
use actix_web::{get, web};
use utoipa_actix_web::service_config::ServiceConfig;

pub fn config(cfg: &mut ServiceConfig) {
    cfg.service(list);
}

/// My feed, newest first.
#[utoipa::path(params(PageQuery), responses((status = 200, body = Page<FeedItem>), (status = 401, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)), tag = "feed", security(("bearerAuth" = [])))]
#[get("/feed")]
async fn list(
    state: web::Data<AppState>,
    me: AuthUser,
    page: web::Query<PageQuery>,
) -> AppResult<web::Json<Page<FeedItem>>> {
    let limit = page.rows()?;
    let before = page.cursor()?.map(|c| (c.at, c.id));
    let (items, next_cursor) = feed::page(&state.db, &me.id, before, limit).await?;
    Ok(web::Json(Page { items, next_cursor }))
}
