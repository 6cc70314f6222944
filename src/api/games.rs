//! Games and live scoreboards: scheduling games between two rosters of a
//! season, scoring them through the per-game actor (REST and the WebSocket
//! `gameAction` command share `crate::commands::game`), score keepers and
//! lineups (the public season views built from the games are
//! `api::season_views`).
//!
//! Who may do what (`crate::permissions`, docs/permissions.md):
//! - **staff** of a game: the owner and managers of the season's facility
//!   and the owners and managers of either roster's team. They schedule,
//!   reschedule, postpone and cancel games, and assign score keepers.
//! - **scorers**: the staff plus the score keepers assigned to the game.
//!   They post actions and set lineups.
//! - Everyone, signed out too: every read here, and the `game:` and
//!   `season:` topics.

use super::{finish, idempotency_header};
use crate::auth::{AuthUser, MaybeUser};
use crate::commands::{self, game::GameActionInput};
use crate::db::{self, games::Scorekeeper};
use crate::error::{AppError, AppResult, FieldErrors};
use crate::permissions::{self, Action, Object};
use crate::realtime::topics::Topic;
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, delete, get, patch, post, put, web};
use rinkside_actors::game::{ClockMode, GameDocument, GameSettings, GameStatus, SettingsPatch};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa_actix_web::service_config::ServiceConfig;

pub fn config(cfg: &mut ServiceConfig) {
    cfg.service(create)
        .service(get_one)
        .service(edit)
        .service(act)
        .service(set_lineup)
        .service(list_scorekeepers)
        .service(add_scorekeeper)
        .service(remove_scorekeeper);
}

// ---------------------------------------------------------------- inputs

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct NewGame {
    /// A roster of the season.
    pub home_roster_id: String,
    /// Another roster of the season.
    pub away_roster_id: String,
    pub season_id: String,
    #[schema(schema_with = crate::time::schema::date_time)]
    pub scheduled_at: String,
    /// 1–30; absent or null: the season's.
    #[serde(default, deserialize_with = "crate::api::optional_whole")]
    #[schema(minimum = 1, maximum = 30)]
    pub period_minutes: Option<i64>,
    /// 0–20; absent or null: the season's.
    #[serde(default, deserialize_with = "crate::api::optional_whole")]
    #[schema(minimum = 0, maximum = 20)]
    pub overtime_minutes: Option<i64>,
    /// Absent or null: the season's.
    pub clock_mode: Option<ClockMode>,
}

/// The statuses a game may be set to before it goes live (START and FINAL
/// are actions).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ScheduleStatus {
    Scheduled,
    Postponed,
    Cancelled,
}

impl ScheduleStatus {
    fn game_status(self) -> GameStatus {
        match self {
            ScheduleStatus::Scheduled => GameStatus::Scheduled,
            ScheduleStatus::Postponed => GameStatus::Postponed,
            ScheduleStatus::Cancelled => GameStatus::Cancelled,
        }
    }
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct GamePatch {
    /// Only before the game goes LIVE; null leaves it unchanged.
    #[schema(schema_with = crate::time::schema::nullable_date_time)]
    pub scheduled_at: Option<String>,
    /// SCHEDULED, POSTPONED or CANCELLED; only before the game goes LIVE.
    /// CANCELLED is final.
    pub status: Option<ScheduleStatus>,
    /// 1–30, only before the game goes LIVE; null: back to the season's.
    #[serde(default, deserialize_with = "crate::api::nullable_whole")]
    #[schema(minimum = 1, maximum = 30, nullable)]
    pub period_minutes: Option<Option<i64>>,
    /// 0–20, only before the game goes LIVE; null: back to the season's.
    #[serde(default, deserialize_with = "crate::api::nullable_whole")]
    #[schema(minimum = 0, maximum = 20, nullable)]
    pub overtime_minutes: Option<Option<i64>>,
    /// Only before the game goes LIVE; null: back to the season's.
    #[serde(default, deserialize_with = "super::nullable")]
    #[schema(nullable)]
    pub clock_mode: Option<Option<ClockMode>>,
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct LineupInput {
    #[schema(schema_with = lineup_user_ids)]
    pub user_ids: Vec<String>,
}

/// `userIds`: 1 to [`commands::game::MAX_LINEUP`] different players.
fn lineup_user_ids() -> utoipa::openapi::schema::Array {
    utoipa::openapi::schema::ArrayBuilder::new()
        .items(utoipa::openapi::schema::ObjectBuilder::new().schema_type(utoipa::openapi::schema::Type::String))
        .min_items(Some(1))
        .max_items(Some(commands::game::MAX_LINEUP))
        .unique_items(true)
        .description(Some("The roster's players who dressed: each once."))
        .build()
}

// ---------------------------------------------------------------- reading a game

/// The public game state plus what the schedule knows about the game, and
/// (signed in) what the viewer may do. Pushes on `game:ID` carry the state
/// without `seasonId`, `scheduledAt` and `viewer`.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GameView {
    #[serde(flatten)]
    pub game: GameDocument,
    pub season_id: String,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub scheduled_at: i64,
    /// Only signed in.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub viewer: Option<GameViewer>,
}

/// What the signed-in viewer may do with a game.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GameViewer {
    pub can_score: bool,
    pub can_manage: bool,
    /// The sides (roster ids) whose lineup the viewer may set: a team's own
    /// staff set their side's, the rink's staff and the game's score
    /// keepers both.
    pub lineup_roster_ids: Vec<String>,
}

async fn game_view(state: &AppState, id: &str, viewer: Option<&str>) -> AppResult<GameView> {
    let row = db::games::get(&state.db.pool, id).await?.ok_or_else(|| AppError::not_found("game"))?;
    let (_, doc) = crate::live::game::current(&state.db, &state.realtime.games, id).await?;
    let viewer = match viewer {
        None => None,
        Some(user) => {
            let rel = permissions::relations(&state.db, Some(user), Object::Game(id)).await?;
            let mut lineup_roster_ids = Vec::new();
            for roster_id in [&row.home_roster_id, &row.away_roster_id] {
                let side = Object::GameSide { game_id: id, roster_id };
                let action = Action::SetLineup { game_id: id, roster_id };
                if permissions::relations(&state.db, Some(user), side).await?.permits(&action) {
                    lineup_roster_ids.push(roster_id.clone());
                }
            }
            Some(GameViewer {
                can_score: rel.permits(&Action::ScoreGame { game_id: id }),
                can_manage: rel.permits(&Action::ManageGame { game_id: id }),
                lineup_roster_ids,
            })
        }
    };
    Ok(GameView {
        game: serde_json::from_value(doc).map_err(AppError::internal)?,
        season_id: row.season_id,
        scheduled_at: row.scheduled_at,
        viewer,
    })
}

// ---------------------------------------------------------------- games

/// Schedule a game between two rosters of a season. Allowed to the
/// season's facility owner and managers and to the owners and managers of
/// either roster's team.
#[utoipa::path(request_body = NewGame, responses((status = 201, body = GameView, description = "the game (as GET /games/{id})"),
    (status = 403, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)), tag = "games", security(("bearerAuth" = [])))]
#[post("/games")]
#[tracing::instrument(skip_all, fields(user = %me.id))]
async fn create(state: web::Data<AppState>, me: AuthUser, body: web::Json<NewGame>) -> AppResult<HttpResponse> {
    let input = body.into_inner();
    let mut errors = FieldErrors::new();
    let scheduled_at = match crate::time::parse_rfc3339_checked(&input.scheduled_at) {
        Ok(at) => Some(at),
        Err(message) => {
            errors.insert("scheduledAt".into(), message.into());
            None
        }
    };
    match db::games::season::season_dates(&state.db.pool, &input.season_id).await? {
        None => {
            errors.insert("seasonId".into(), "no such season".into());
        }
        Some((start, end)) => {
            if let Some(Err(message)) = scheduled_at.map(|at| crate::domain::dates::game_in_season(at, start, end)) {
                errors.insert("scheduledAt".into(), message);
            }
        }
    }
    for (field, roster_id) in [("homeRosterId", &input.home_roster_id), ("awayRosterId", &input.away_roster_id)] {
        match db::games::roster_place(&state.db.pool, roster_id).await? {
            None => {
                errors.insert(field.into(), "no such roster".into());
            }
            Some(r) if r.season_id != input.season_id => {
                errors.insert(field.into(), "the roster plays in another season".into());
            }
            Some(_) => {}
        }
    }
    if input.home_roster_id == input.away_roster_id {
        errors.insert("awayRosterId".into(), "a roster cannot play itself".into());
    }
    let own = GameSettings {
        period_minutes: input.period_minutes,
        overtime_minutes: input.overtime_minutes,
        clock_mode: input.clock_mode,
    };
    if let Some((field, message)) = own.invalid() {
        errors.insert(field.into(), message);
    }
    finish(errors)?;
    let scheduled_at = scheduled_at.ok_or_else(|| AppError::field("scheduledAt", crate::time::NOT_RFC3339))?;
    let roster_ids = [input.home_roster_id.as_str(), input.away_roster_id.as_str()];
    permissions::check(&state.db, Some(&me.id), Action::ScheduleGame { season_id: &input.season_id, roster_ids })
        .await?;
    let id = db::new_id();
    let mut tx = state.db.begin().await?;
    if !db::games::lock_season(&mut tx, &input.season_id).await? {
        return Err(AppError::field("seasonId", "no such season"));
    }
    let sides = [input.home_roster_id.as_str(), input.away_roster_id.as_str()];
    db::games::insert(&mut tx, &id, &input.season_id, sides, scheduled_at, own).await?;
    tx.commit().await?;
    state.realtime.push(&[Topic::season(input.season_id.as_str())]).await;
    Ok(HttpResponse::Created().json(game_view(&state, &id, Some(&me.id)).await?))
}

/// The game state (public): `{id, status, period, homeScore, awayScore,
/// homeRosterId, awayRosterId, version, log, home, away}` plus `seasonId`,
/// `scheduledAt` and, signed in, `viewer: {canScore, canManage}`.
#[utoipa::path(responses((status = 200, body = GameView, description = "the game state"), (status = 404, body = crate::error::ErrorEnvelope)), tag = "games", security((), ("bearerAuth" = [])))]
#[get("/games/{id}")]
async fn get_one(
    state: web::Data<AppState>,
    viewer: MaybeUser,
    id: web::Path<String>,
) -> AppResult<web::Json<GameView>> {
    Ok(web::Json(game_view(&state, &id, viewer.id()).await?))
}

/// Reschedule, postpone, cancel or reinstate a game before it goes LIVE
/// (staff). A cancelled game stays cancelled.
#[utoipa::path(request_body = GamePatch, responses((status = 200, body = GameView, description = "the game (as GET /games/{id})"),
    (status = 403, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)), tag = "games", security(("bearerAuth" = [])))]
#[patch("/games/{id}")]
#[tracing::instrument(skip_all, fields(user = %me.id, game = %id))]
async fn edit(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    body: web::Json<GamePatch>,
) -> AppResult<web::Json<GameView>> {
    let input = body.into_inner();
    let status = input.status.map(ScheduleStatus::game_status);
    let settings = SettingsPatch {
        period_minutes: input.period_minutes,
        overtime_minutes: input.overtime_minutes,
        clock_mode: input.clock_mode,
    };
    commands::game::reschedule(&state, &me, &id, input.scheduled_at.as_deref(), status, settings).await?;
    Ok(web::Json(game_view(&state, &id, Some(&me.id)).await?))
}

/// Post a scoring action (score keepers, and the league's and teams'
/// owners and managers). Answers the game state after the commit; every
/// subscriber of `game:ID` gets the same state pushed.
#[utoipa::path(request_body = GameActionInput, params(("Idempotency-Key" = Option<String>, Header, description = "retry-safe command id")),
    responses((status = 200, body = GameDocument, description = "the game state"), (status = 401, body = crate::error::ErrorEnvelope),
    (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope),
    (status = 409, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)), tag = "games", security(("bearerAuth" = [])))]
#[post("/games/{id}/actions")]
async fn act(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    req: HttpRequest,
    body: web::Json<GameActionInput>,
) -> AppResult<web::Json<Value>> {
    let key = idempotency_header(&req)?;
    Ok(web::Json(commands::game::action(&state, &me, &id, body.into_inner(), key.as_deref()).await?))
}

/// Set who dressed for one side (scorers, before FINAL). Only dressed
/// players may be credited, and FINAL counts a game played for each.
/// Until set, every player on the roster counts as dressed.
#[utoipa::path(request_body = LineupInput, responses((status = 200, body = GameDocument, description = "the game state"),
    (status = 403, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)), tag = "games", security(("bearerAuth" = [])))]
#[put("/games/{id}/lineups/{roster_id}")]
#[tracing::instrument(skip_all, fields(user = %me.id))]
async fn set_lineup(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<(String, String)>,
    body: web::Json<LineupInput>,
) -> AppResult<web::Json<Value>> {
    let (game_id, roster_id) = path.into_inner();
    let reply = commands::game::set_lineup(&state, &me, &game_id, roster_id, body.into_inner().user_ids).await?;
    Ok(web::Json(reply))
}

/// The game's score keepers (signed in).
#[utoipa::path(responses((status = 200, body = Vec<Scorekeeper>), (status = 404, body = crate::error::ErrorEnvelope)), tag = "games", security(("bearerAuth" = [])))]
#[get("/games/{id}/scorekeepers")]
async fn list_scorekeepers(
    state: web::Data<AppState>,
    _me: AuthUser,
    id: web::Path<String>,
) -> AppResult<web::Json<Vec<Scorekeeper>>> {
    if db::games::get(&state.db.pool, &id).await?.is_none() {
        return Err(AppError::not_found("game"));
    }
    Ok(web::Json(db::games::scorekeepers(&state.db.pool, &id).await?))
}

/// Assign a score keeper (staff; score keepers cannot assign others).
/// Idempotent.
#[utoipa::path(responses((status = 204), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope)), tag = "games", security(("bearerAuth" = [])))]
#[put("/games/{id}/scorekeepers/{user_id}")]
async fn add_scorekeeper(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<(String, String)>,
) -> AppResult<HttpResponse> {
    let (game_id, user_id) = path.into_inner();
    permissions::check(&state.db, Some(&me.id), Action::ManageGame { game_id: &game_id }).await?;
    if !db::users::exists(&state.db.pool, &user_id).await? {
        return Err(AppError::not_found("user"));
    }
    db::games::add_scorekeeper(&state.db.pool, &game_id, &user_id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Unassign a score keeper (staff). Idempotent.
#[utoipa::path(responses((status = 204), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope)), tag = "games", security(("bearerAuth" = [])))]
#[delete("/games/{id}/scorekeepers/{user_id}")]
async fn remove_scorekeeper(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<(String, String)>,
) -> AppResult<HttpResponse> {
    let (game_id, user_id) = path.into_inner();
    permissions::check(&state.db, Some(&me.id), Action::ManageGame { game_id: &game_id }).await?;
    db::games::remove_scorekeeper(&state.db.pool, &game_id, &user_id).await?;
    Ok(HttpResponse::NoContent().finish())
}
