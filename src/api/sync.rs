//! Season sync over HTTP (CONTRACT.md › Season sync, docs/sync.md › API):
//! sync now, the history, the season's external teams and games, matching
//! by hand and claims.

use crate::auth::AuthUser;
use crate::db::{self, sync::ExternalGameRow, sync::ExternalRosterRow};
use crate::error::{AppError, AppResult};
use crate::permissions::{self, Action, Object};
use crate::state::AppState;
use crate::sync::run::{self, Report};
use actix_web::{HttpResponse, delete, get, patch, post, web};
use serde::{Deserialize, Serialize};
use utoipa_actix_web::service_config::ServiceConfig;

pub fn config(cfg: &mut ServiceConfig) {
    cfg.service(sync_now)
        .service(history)
        .service(external_rosters)
        .service(external_games)
        .service(match_by_hand)
        .service(claim)
        .service(withdraw_claim);
}

/// A claim by a team's owner or manager, awaiting staff.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Claim {
    pub team_id: String,
    pub team_name: String,
    pub claimed_by: Option<String>,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub claimed_at: i64,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Suggestion {
    pub team_id: String,
    pub team_name: String,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExternalRoster {
    pub id: String,
    pub external_id: String,
    pub name: String,
    pub original_division: Option<String>,
    pub url: Option<String>,
    pub is_matched: bool,
    pub team_id: Option<String>,
    pub team_name: Option<String>,
    pub division_mapping_id: Option<String>,
    /// `AUTO` (a sync matched it), `MANUAL` (staff decided), or null.
    pub match_source: Option<String>,
    pub claim: Option<Claim>,
    /// For unmatched teams: our teams it may be, best first.
    pub suggestions: Vec<Suggestion>,
}

impl ExternalRoster {
    fn from_row(r: ExternalRosterRow, suggestions: Vec<Suggestion>) -> Self {
        let claimed = match (r.claimed_team_id, r.claimed_at) {
            (Some(team_id), Some(at)) => Some(Claim {
                team_id,
                team_name: r.claimed_team_name.unwrap_or_default(),
                claimed_by: r.claimed_by,
                claimed_at: at,
            }),
            _ => None,
        };
        ExternalRoster {
            id: r.id,
            external_id: r.external_id,
            name: r.name,
            original_division: r.original_division,
            url: r.url,
            is_matched: r.is_matched != 0,
            team_id: r.team_id,
            team_name: r.team_name,
            division_mapping_id: r.division_mapping_id,
            match_source: r.match_source,
            claim: claimed,
            suggestions,
        }
    }
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExternalGame {
    pub id: String,
    pub external_id: String,
    /// Puck drop, UTC.
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub date_time: i64,
    pub rink: Option<String>,
    pub home_goals: Option<i64>,
    pub away_goals: Option<i64>,
    pub game_type: Option<String>,
    pub home_roster_id: Option<String>,
    pub away_roster_id: Option<String>,
    pub event_id: Option<String>,
    pub home_name: String,
    pub away_name: String,
    /// Gone from the source (or cancelled there): its event is cancelled.
    pub removed: bool,
}

impl From<ExternalGameRow> for ExternalGame {
    fn from(g: ExternalGameRow) -> Self {
        ExternalGame {
            id: g.id,
            external_id: g.external_id,
            date_time: g.date_time,
            rink: g.rink,
            home_goals: g.home_goals,
            away_goals: g.away_goals,
            game_type: g.game_type,
            home_roster_id: g.home_roster_id,
            away_roster_id: g.away_roster_id,
            event_id: g.event_id,
            home_name: g.home_name,
            away_name: g.away_name,
            removed: g.removed_at.is_some(),
        }
    }
}

/// The season's sync history: reports, newest first.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Runs {
    #[schema(value_type = Vec<Report>)]
    pub items: Vec<serde_json::Value>,
}

/// Sync the season now from its `syncUrl` (the facility's owner or
/// managers); answers the report.
#[utoipa::path(responses((status = 200, body = Report), (status = 403, body = crate::error::ErrorEnvelope),
    (status = 404, body = crate::error::ErrorEnvelope),
    (status = 409, body = crate::error::ErrorEnvelope, description = "a sync of this season is running (`sync_running`)"),
    (status = 422, body = crate::error::ErrorEnvelope, description = "no syncUrl, or the source was refused or is not a schedule")),
    tag = "seasons", security(("bearerAuth" = [])))]
#[post("/seasons/{id}/sync")]
async fn sync_now(state: web::Data<AppState>, me: AuthUser, id: web::Path<String>) -> AppResult<web::Json<Report>> {
    permissions::check(&state.db, Some(&me.id), Action::EditSeason { season_id: &id }).await?;
    Ok(web::Json(run::sync_now(&state, &id, &me.id).await?))
}

/// The season's sync history, newest first (staff).
#[utoipa::path(responses((status = 200, body = Runs), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope)),
    tag = "seasons", security(("bearerAuth" = [])))]
#[get("/seasons/{id}/sync-runs")]
async fn history(state: web::Data<AppState>, me: AuthUser, id: web::Path<String>) -> AppResult<web::Json<Runs>> {
    permissions::check(&state.db, Some(&me.id), Action::EditSeason { season_id: &id }).await?;
    let rows = db::sync::runs(&state.db.pool, &id).await?;
    let items = rows.into_iter().filter_map(|r| serde_json::from_str(&r.report).ok()).collect();
    Ok(web::Json(Runs { items }))
}

/// The season's external teams, with suggestions for unmatched ones.
#[utoipa::path(responses((status = 200, body = Vec<ExternalRoster>), (status = 404, body = crate::error::ErrorEnvelope)), tag = "seasons")]
#[get("/seasons/{id}/external-rosters")]
async fn external_rosters(
    state: web::Data<AppState>,
    id: web::Path<String>,
) -> AppResult<web::Json<Vec<ExternalRoster>>> {
    let season = db::seasons::get(&state.db.pool, &id).await?.ok_or_else(|| AppError::not_found("season"))?;
    let rows = db::sync::rosters(&state.db.pool, &id).await?;
    let candidates = db::sync::candidates(&state.db.pool, &id, &season.facility_id).await?;
    let candidates = crate::sync::plan::candidates_from(candidates);
    let taken: Vec<String> =
        rows.iter().filter(|r| r.match_source.as_deref() == Some("MANUAL")).filter_map(|r| r.team_id.clone()).collect();
    let out = rows
        .into_iter()
        .map(|r| {
            let suggestions = if r.is_matched == 0 {
                crate::sync::matching::suggest(&r.name, r.original_division.as_deref(), &candidates, &taken)
                    .into_iter()
                    .filter_map(|team_id| {
                        let c = candidates.iter().find(|c| c.team_id == team_id)?;
                        Some(Suggestion { team_id, team_name: c.name.clone() })
                    })
                    .collect()
            } else {
                Vec::new()
            };
            ExternalRoster::from_row(r, suggestions)
        })
        .collect();
    Ok(web::Json(out))
}

/// The season's imported games, by puck drop.
#[utoipa::path(responses((status = 200, body = Vec<ExternalGame>), (status = 404, body = crate::error::ErrorEnvelope)), tag = "seasons")]
#[get("/seasons/{id}/external-games")]
async fn external_games(state: web::Data<AppState>, id: web::Path<String>) -> AppResult<web::Json<Vec<ExternalGame>>> {
    if db::seasons::get(&state.db.pool, &id).await?.is_none() {
        return Err(AppError::not_found("season"));
    }
    let rows = db::sync::games(&state.db.pool, &id).await?;
    Ok(web::Json(rows.into_iter().map(ExternalGame::from).collect()))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MatchInput {
    /// Our team; null unmatches.
    #[serde(default, deserialize_with = "super::nullable")]
    #[schema(schema_with = crate::domain::text::schema::optional_id)]
    pub team_id: Option<Option<String>>,
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ClaimInput {
    #[schema(schema_with = crate::domain::text::schema::id)]
    pub team_id: String,
}

/// The external roster and its season, or 404.
async fn external(state: &AppState, id: &str) -> AppResult<ExternalRosterRow> {
    db::sync::roster(&state.db.pool, id).await?.ok_or_else(|| AppError::not_found("external roster"))
}

/// Match an external team to one of ours, or unmatch it (the facility's
/// owner or managers). A sync never overrides it. The team's games get
/// their events at once.
#[utoipa::path(request_body = MatchInput, responses((status = 200, body = ExternalRoster), (status = 403, body = crate::error::ErrorEnvelope),
    (status = 404, body = crate::error::ErrorEnvelope),
    (status = 409, body = crate::error::ErrorEnvelope, description = "a sync of the season is running (`sync_running`)"), (status = 422, body = crate::error::ErrorEnvelope)), tag = "seasons", security(("bearerAuth" = [])))]
#[patch("/external-rosters/{id}")]
async fn match_by_hand(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    body: web::Json<MatchInput>,
) -> AppResult<web::Json<ExternalRoster>> {
    let row = external(&state, &id).await?;
    permissions::check(&state.db, Some(&me.id), Action::EditSeason { season_id: &row.season_id }).await?;
    let Some(team_id) = body.into_inner().team_id else {
        return Err(AppError::field("teamId", "give a team id, or null to unmatch"));
    };
    if let Some(team) = &team_id
        && !db::teams::exists(&state.db.pool, team).await?
    {
        return Err(AppError::field("teamId", "no such team"));
    }
    run::match_by_hand(&state, &row.season_id, &id, team_id.as_deref(), &me.id).await?;
    Ok(web::Json(ExternalRoster::from_row(external(&state, &id).await?, Vec::new())))
}

/// Ask the rink's staff to match an external team to your team (the team's
/// owner or managers).
#[utoipa::path(request_body = ClaimInput, responses((status = 200, body = ExternalRoster), (status = 403, body = crate::error::ErrorEnvelope),
    (status = 404, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope, description = "already matched (`already_matched`)"),
    (status = 422, body = crate::error::ErrorEnvelope)), tag = "seasons", security(("bearerAuth" = [])))]
#[post("/external-rosters/{id}/claim")]
async fn claim(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    body: web::Json<ClaimInput>,
) -> AppResult<web::Json<ExternalRoster>> {
    let row = external(&state, &id).await?;
    let team_id = body.into_inner().team_id;
    if !db::teams::exists(&state.db.pool, &team_id).await? {
        return Err(AppError::field("teamId", "no such team"));
    }
    permissions::check(&state.db, Some(&me.id), Action::EditTeam { team_id: &team_id }).await?;
    if row.is_matched != 0 {
        return Err(AppError::conflict_code("already_matched", "this team is already matched; ask the rink's staff"));
    }
    db::sync::set_claim(&state.db.pool, &id, Some((&team_id, &me.id)), (state.clock)()).await?;
    Ok(web::Json(ExternalRoster::from_row(external(&state, &id).await?, Vec::new())))
}

/// Withdraw a claim (its claimer) or decline it (the facility's staff).
#[utoipa::path(responses((status = 204), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope)),
    tag = "seasons", security(("bearerAuth" = [])))]
#[delete("/external-rosters/{id}/claim")]
async fn withdraw_claim(state: web::Data<AppState>, me: AuthUser, id: web::Path<String>) -> AppResult<HttpResponse> {
    let row = external(&state, &id).await?;
    let claimer = row.claimed_by.as_deref() == Some(me.id.as_str());
    if !claimer {
        let rel = permissions::relations(&state.db, Some(&me.id), Object::Season(&row.season_id)).await?;
        if !rel.permits(&Action::EditSeason { season_id: &row.season_id }) {
            return Err(AppError::forbidden("only the claimer or the rink's staff can take back a claim"));
        }
    }
    db::sync::set_claim(&state.db.pool, &id, None, (state.clock)()).await?;
    Ok(HttpResponse::NoContent().finish())
}
