//! Lists of rosters: a team's (every season, latest first) and a season's,
//! paged by keyset on `(season start, roster id)`, and the team page's list.

use crate::api::{ClampedPageQuery, Page, PageQuery, query_whole};
use crate::db::{self, Cursor, finish_page, page_limit};
use crate::domain::text::schema;
use crate::error::{AppError, AppResult};
use crate::live::roster::RosterSummary;
use crate::state::AppState;
use actix_web::{get, web};
use serde::Deserialize;
use utoipa_actix_web::service_config::ServiceConfig;

pub(super) fn config(cfg: &mut ServiceConfig) {
    cfg.service(team_rosters).service(season_rosters);
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TeamRostersQuery {
    /// Only this season's rosters.
    #[param(schema_with = schema::query_text)]
    pub season_id: Option<String>,
    /// Default 20; taken as 1 below 1 and as 100 above 100.
    #[serde(default, deserialize_with = "query_whole")]
    pub limit: Option<i64>,
    /// `nextCursor` of the previous page.
    #[param(schema_with = schema::time_cursor)]
    pub cursor: Option<String>,
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
#[utoipa::path(params(TeamRostersQuery), responses((status = 200, body = Page<RosterSummary>), (status = 404, body = crate::error::ErrorEnvelope)), tag = "rosters")]
#[get("/teams/{id}/rosters")]
async fn team_rosters(
    state: web::Data<AppState>,
    id: web::Path<String>,
    query: web::Query<TeamRostersQuery>,
) -> AppResult<web::Json<Page<RosterSummary>>> {
    if !db::teams::exists(&state.db.pool, &id).await? {
        return Err(AppError::not_found("team"));
    }
    let query = query.into_inner();
    let page = PageQuery { limit: query.limit, cursor: query.cursor };
    Ok(web::Json(roster_page(&state, Some(&id), query.season_id.as_deref(), &page).await?))
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
