//! The public season views built from the games: a season's schedule, a
//! team's schedule across seasons, standings, scoring leaders and a
//! player's stats. Everyone may read them, signed out too.

use super::{Page, SeasonPageQuery, query_whole};
use crate::db::{
    self,
    games::season::{Leader, RosterStats, ScheduleEntry, Standing},
};
use crate::error::{AppError, AppResult};
use crate::state::AppState;
use actix_web::{get, web};
use serde::{Deserialize, Serialize};
use utoipa_actix_web::service_config::ServiceConfig;

pub fn config(cfg: &mut ServiceConfig) {
    cfg.service(season_schedule).service(team_schedule).service(standings).service(leaders).service(user_stats);
}

/// Default and largest page of scoring leaders.
const LEADERS_DEFAULT: i64 = 20;
const LEADERS_MAX: i64 = 100;

async fn require_season(state: &AppState, season_id: &str) -> AppResult<()> {
    if db::games::season::season_exists(&state.db.pool, season_id).await? {
        Ok(())
    } else {
        Err(AppError::not_found("season"))
    }
}

/// A season's games by time (public): the `schedule` of the `season:ID`
/// document.
#[utoipa::path(responses((status = 200, body = Vec<ScheduleEntry>), (status = 404, body = crate::error::ErrorEnvelope)), tag = "games")]
#[get("/seasons/{id}/schedule")]
async fn season_schedule(
    state: web::Data<AppState>,
    id: web::Path<String>,
) -> AppResult<web::Json<Vec<ScheduleEntry>>> {
    require_season(&state, &id).await?;
    Ok(web::Json(db::games::season::season_schedule(&state.db.pool, &id).await?))
}

/// A team's games, every roster of it, home or away, earliest first
/// (public), keyset-paged.
#[utoipa::path(params(SeasonPageQuery), responses((status = 200, body = Page<ScheduleEntry>), (status = 404, body = crate::error::ErrorEnvelope)), tag = "games")]
#[get("/teams/{id}/schedule")]
async fn team_schedule(
    state: web::Data<AppState>,
    id: web::Path<String>,
    query: web::Query<SeasonPageQuery>,
) -> AppResult<web::Json<Page<ScheduleEntry>>> {
    if !db::teams::exists(&state.db.pool, &id).await? {
        return Err(AppError::not_found("team"));
    }
    let (season, page) = query.into_inner().split();
    let limit = db::page_limit(page.limit);
    let rows = db::games::season::team_schedule(&state.db.pool, &id, season.as_deref(), page.cursor()?.as_ref(), limit)
        .await?;
    let (items, next_cursor) =
        db::finish_page(rows, limit, |g| db::Cursor { at: g.scheduled_at, id: g.id.clone() }.encode());
    Ok(web::Json(Page { items, next_cursor }))
}

/// A season's standings (public), in standings order: points, wins, goal
/// difference, goals for, fewer games played, name (docs/standings.md).
#[utoipa::path(responses((status = 200, body = Vec<Standing>), (status = 404, body = crate::error::ErrorEnvelope)), tag = "games")]
#[get("/seasons/{id}/standings")]
async fn standings(state: web::Data<AppState>, id: web::Path<String>) -> AppResult<web::Json<Vec<Standing>>> {
    require_season(&state, &id).await?;
    Ok(web::Json(db::games::season::standings(&state.db.pool, &id).await?))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
pub struct LeadersQuery {
    /// Default 20; taken as 1 below 1 and as 100 above 100.
    #[serde(default, deserialize_with = "query_whole")]
    pub limit: Option<i64>,
}

/// A season's scoring leaders (public): points (goals + assists), then
/// goals, then fewer games played, then name.
#[utoipa::path(params(LeadersQuery), responses((status = 200, body = Vec<Leader>), (status = 404, body = crate::error::ErrorEnvelope)), tag = "games")]
#[get("/seasons/{id}/leaders")]
async fn leaders(
    state: web::Data<AppState>,
    id: web::Path<String>,
    query: web::Query<LeadersQuery>,
) -> AppResult<web::Json<Vec<Leader>>> {
    require_season(&state, &id).await?;
    let limit = query.limit.unwrap_or(LEADERS_DEFAULT).clamp(1, LEADERS_MAX);
    Ok(web::Json(db::games::season::leaders(&state.db.pool, &id, limit).await?))
}

#[derive(Debug, Default, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StatTotals {
    pub goals: i64,
    pub assists: i64,
    pub points: i64,
    pub penalty_minutes: i64,
    pub games_played: i64,
    #[serde(flatten)]
    pub details: db::rosters::players::StatDetails,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlayerStats {
    pub user_id: String,
    pub display_name: String,
    /// One line per roster, latest season first.
    pub rosters: Vec<RosterStats>,
    pub totals: StatTotals,
}

/// A player's statistics per roster (with team and season names) and their
/// career totals (public).
#[utoipa::path(responses((status = 200, body = PlayerStats), (status = 404, body = crate::error::ErrorEnvelope)), tag = "games")]
#[get("/users/{id}/stats")]
async fn user_stats(state: web::Data<AppState>, id: web::Path<String>) -> AppResult<web::Json<PlayerStats>> {
    let display_name =
        db::games::season::display_name(&state.db.pool, &id).await?.ok_or_else(|| AppError::not_found("user"))?;
    let rosters = db::games::season::player_stats(&state.db.pool, &id).await?;
    let totals = rosters.iter().fold(StatTotals::default(), |mut t, r| {
        t.goals += r.goals;
        t.assists += r.assists;
        t.points += r.points;
        t.penalty_minutes += r.penalty_minutes;
        t.games_played += r.games_played;
        t.details.add(&r.details);
        t
    });
    Ok(web::Json(PlayerStats { user_id: id.into_inner(), display_name, rosters, totals }))
}
