//! Lists of rosters: a team's (every season, latest first) and a season's,
//! paged by keyset on `(season start, roster id)`, and the team page's list.

use crate::api::{ClampedPageQuery, Page, PageQuery, SeasonPageQuery};
use crate::db::{self, Cursor, finish_page, page_limit};
use crate::error::{AppError, AppResult};
use crate::live::roster::RosterSummary;
use crate::state::AppState;
use actix_web::{get, web};
use utoipa_actix_web::service_config::ServiceConfig;

pub(super) fn config(cfg: &mut ServiceConfig) {
    cfg.service(team_rosters).service(season_rosters);
}

async fn roster_page(
    state: &AppState,
    team: Option<&str>,
    season: Option<&str>,
    page: &PageQuery,
) -> AppResult<Page<RosterSummary>> {
    let limit = page_limit(page.limit);
    let rows = db::rosters::list(&state.db.pool, team, season, page.cursor()?.as_ref(), limit).await?;
    let (rows, next_cursor) =
        finish_page(rows, limit, |r| Cursor { at: r.season_start_date, id: r.id.clone() }.encode());
    Ok(Page { items: rows.into_iter().map(RosterSummary::from).collect(), next_cursor })
}

/// A team's rosters, latest season first (public).
#[utoipa::path(params(SeasonPageQuery), responses((status = 200, body = Page<RosterSummary>), (status = 404, body = crate::error::ErrorEnvelope)), tag = "rosters")]
#[get("/teams/{id}/rosters")]
async fn team_rosters(
    state: web::Data<AppState>,
    id: web::Path<String>,
    query: web::Query<SeasonPageQuery>,
) -> AppResult<web::Json<Page<RosterSummary>>> {
    if !db::teams::exists(&state.db.pool, &id).await? {
        return Err(AppError::not_found("team"));
    }
    let (season, page) = query.into_inner().split();
    Ok(web::Json(roster_page(&state, Some(&id), season.as_deref(), &page).await?))
}

/// A team's rosters of every season, latest first, for the team page.
pub async fn team_rosters_all(state: &AppState, team_id: &str) -> AppResult<Vec<RosterSummary>> {
    let page = PageQuery { limit: Some(100), cursor: None };
    Ok(roster_page(state, Some(team_id), None, &page).await?.items)
}

/// A season's rosters (public).
#[utoipa::path(params(ClampedPageQuery), responses((status = 200, body = Page<RosterSummary>), (status = 404, body = crate::error::ErrorEnvelope)), tag = "rosters")]
#[get("/seasons/{id}/rosters")]
async fn season_rosters(
    state: web::Data<AppState>,
    id: web::Path<String>,
    page: web::Query<ClampedPageQuery>,
) -> AppResult<web::Json<Page<RosterSummary>>> {
    if db::access::season_facility(&state.db.pool, &id).await?.is_none() {
        return Err(AppError::not_found("season"));
    }
    Ok(web::Json(roster_page(&state, None, Some(&id), &page.into_inner().into()).await?))
}
