//! A roster's players: putting someone on (which approves their pending
//! join request), editing their number, position, commitment and letters,
//! and taking them off (or leaving). The jersey and letter rules are
//! `super::rules`'; stats are the games' business and not editable here.

use super::{lock_writable, nullable};
use crate::auth::AuthUser;
use crate::db::{self, rosters::players::PlayerFields};
use crate::domain::{HockeyPosition, RequestStatus, RosterCommitment};
use crate::error::{AppError, AppResult};
use crate::live::roster::RosterPlayer;
use crate::permissions::{self, Action};
use crate::roster_rules::{check_against_roster, check_player_fields, check_room};
use crate::state::AppState;
use actix_web::{HttpResponse, delete, patch, post, web};
use serde::Deserialize;
use utoipa_actix_web::service_config::ServiceConfig;

pub(super) fn config(cfg: &mut ServiceConfig) {
    cfg.service(add_player).service(edit_player).service(remove_player);
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct NewPlayer {
    #[schema(schema_with = crate::domain::text::schema::id)]
    pub user_id: String,
    /// 0–99, unique on the roster.
    #[serde(default, deserialize_with = "crate::api::optional_whole")]
    #[schema(minimum = 0, maximum = 99)]
    pub jersey_number: Option<i64>,
    pub position: Option<HockeyPosition>,
    /// FULL_TIME (default) or SUBSTITUTE.
    pub commitment_level: Option<RosterCommitment>,
    pub captain: Option<bool>,
    pub alternate_captain: Option<bool>,
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PlayerPatch {
    /// 0–99, unique on the roster; null takes the number off.
    #[serde(default, deserialize_with = "crate::api::nullable_whole")]
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 99)]
    pub jersey_number: Option<Option<i64>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<HockeyPosition>)]
    pub position: Option<Option<HockeyPosition>>,
    pub commitment_level: Option<RosterCommitment>,
    pub captain: Option<bool>,
    pub alternate_captain: Option<bool>,
}

async fn load_player(state: &AppState, roster_id: &str, user_id: &str) -> AppResult<RosterPlayer> {
    let row = db::rosters::players::player(&state.db.pool, roster_id, user_id)
        .await?
        .ok_or_else(|| AppError::not_found("player"))?;
    Ok(RosterPlayer::from(row))
}

/// Put someone on the roster (team owner or managers). A pending join
/// request of theirs is approved by it.
#[utoipa::path(request_body = NewPlayer, responses((status = 201, body = RosterPlayer), (status = 403, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)), tag = "rosters", security(("bearerAuth" = [])))]
#[post("/rosters/{id}/players")]
async fn add_player(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    body: web::Json<NewPlayer>,
) -> AppResult<HttpResponse> {
    permissions::check(&state.db, Some(&me.id), Action::ManagePlayers { roster_id: &id }).await?;
    let body = body.into_inner();
    let fields = PlayerFields {
        jersey_number: body.jersey_number,
        position: body.position.map(|p| p.as_str().to_string()),
        commitment_level: body.commitment_level.unwrap_or(RosterCommitment::FullTime).as_str().to_string(),
        captain: body.captain.unwrap_or(false),
        alternate_captain: body.alternate_captain.unwrap_or(false),
    };
    check_player_fields(&fields)?;
    if !db::users::exists(&state.db.pool, &body.user_id).await? {
        return Err(AppError::field("userId", "no such user"));
    }
    let player = put_on_roster(&state, &me.id, &id, &body.user_id, &fields).await?;
    Ok(HttpResponse::Created().json(player))
}

/// Puts a person on the roster in one transaction — room, numbers and
/// letters checked, a pending request of theirs approved, their feed,
/// their LOOKING_FOR_TEAM ended, their notification (unless `by` is
/// themselves) — then pushes the roster. For a manager's add and an
/// accepted invite (docs/invites.md).
pub(crate) async fn put_on_roster(
    state: &AppState,
    by: &str,
    id: &str,
    user_id: &str,
    fields: &PlayerFields,
) -> AppResult<RosterPlayer> {
    let mut tx = state.db.begin().await?;
    let locked = lock_writable(&mut tx, id).await?;
    if db::rosters::players::player(&mut *tx, id, user_id).await?.is_some() {
        return Err(AppError::conflict_code("already_on_roster", "they are already on this roster"));
    }
    let holders = db::rosters::players::holders(&mut tx, id).await?;
    check_room(locked.max_members, holders.members)?;
    check_against_roster(&holders, user_id, fields)?;
    db::rosters::players::insert_player(&mut tx, id, user_id, fields).await?;
    if let Some(request_id) = db::rosters::requests::pending_of(&mut tx, id, user_id).await? {
        db::rosters::requests::decide(&mut tx, &request_id, RequestStatus::Approved.as_str(), by).await?;
    }
    let told = crate::feed::joined_roster(&mut tx, user_id, &locked.team_id, id).await?;
    let found_a_team = db::statuses::end_looking_for_team(&mut *tx, user_id, id, (state.clock)()).await?;
    let added = crate::notify::added_to_roster(&mut tx, by, user_id, id).await?;
    tx.commit().await?;
    state.realtime.push_notification_batches([added]);
    super::roster_changed(state, by, id).await?;
    crate::live::feed::spawn_push(&state.db, &state.realtime.pusher, vec![told]);
    crate::api::statuses::push_ended(state, found_a_team).await;
    load_player(state, id, user_id).await
}

/// Edit a player's number, position, commitment or letters (team owner or
/// managers). Stats are not editable here.
#[utoipa::path(request_body = PlayerPatch, responses((status = 200, body = RosterPlayer), (status = 403, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)), tag = "rosters", security(("bearerAuth" = [])))]
#[patch("/rosters/{id}/players/{user_id}")]
async fn edit_player(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<(String, String)>,
    body: web::Json<PlayerPatch>,
) -> AppResult<web::Json<RosterPlayer>> {
    let (id, user_id) = path.into_inner();
    permissions::check(&state.db, Some(&me.id), Action::ManagePlayers { roster_id: &id }).await?;
    let patch = body.into_inner();
    let mut tx = state.db.begin().await?;
    lock_writable(&mut tx, &id).await?;
    let current =
        db::rosters::players::player(&mut *tx, &id, &user_id).await?.ok_or_else(|| AppError::not_found("player"))?;
    let fields = PlayerFields {
        jersey_number: patch.jersey_number.unwrap_or(current.jersey_number),
        position: match patch.position {
            Some(p) => p.map(|p| p.as_str().to_string()),
            None => current.position,
        },
        commitment_level: patch.commitment_level.map(|c| c.as_str().to_string()).unwrap_or(current.commitment_level),
        captain: patch.captain.unwrap_or(current.captain != 0),
        alternate_captain: patch.alternate_captain.unwrap_or(current.alternate_captain != 0),
    };
    check_player_fields(&fields)?;
    let holders = db::rosters::players::holders(&mut tx, &id).await?;
    check_against_roster(&holders, &user_id, &fields)?;
    db::rosters::players::replace_player(&mut tx, &id, &user_id, &fields).await?;
    tx.commit().await?;
    super::roster_changed(&state, &me.id, &id).await?;
    Ok(web::Json(load_player(&state, &id, &user_id).await?))
}

/// Take a player off the roster (team owner or managers), or leave it
/// yourself.
#[utoipa::path(responses((status = 204), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope)), tag = "rosters", security(("bearerAuth" = [])))]
#[delete("/rosters/{id}/players/{user_id}")]
async fn remove_player(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<(String, String)>,
) -> AppResult<HttpResponse> {
    let (id, user_id) = path.into_inner();
    permissions::check(&state.db, Some(&me.id), Action::RemovePlayer { roster_id: &id, user_id: &user_id }).await?;
    let mut tx = state.db.begin().await?;
    let locked = lock_writable(&mut tx, &id).await?;
    if !db::rosters::players::delete_player(&mut tx, &id, &user_id).await? {
        return Err(AppError::not_found("player"));
    }
    let told = crate::feed::roster_changed(&mut tx, &me.id, &locked.team_id, &id).await?;
    tx.commit().await?;
    super::roster_changed(&state, &me.id, &id).await?;
    crate::live::feed::spawn_push(&state.db, &state.realtime.pusher, vec![told]);
    Ok(HttpResponse::NoContent().finish())
}
