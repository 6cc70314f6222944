//! Availability for every league game (docs/availability.md): a roster's
//! board and rules, a player's answer, and the captain's nudge. A native
//! game's answers are stored here; an imported game's answer is the
//! player's RSVP, sent to the event's actor. Every change is pushed to the
//! roster's `availability:` topic.

use crate::auth::AuthUser;
use crate::commands::event::RsvpInput;
use crate::db::availability as rows;
use crate::domain::availability::{Answer, AvailabilityRules, GameTime, Verdict, decide};
use crate::domain::whole::optional_whole;
use crate::error::{AppError, AppResult, FieldErrors};
use crate::live::availability::{self as live, Board, GameAvailability};
use crate::notify::{Asked, GameAsked};
use crate::permissions::{self, Action};
use crate::state::AppState;
use crate::time::to_rfc3339;
use actix_web::{get, post, put, web};
use rinkside_actors::event::RsvpAnswer;
use serde::{Deserialize, Serialize};
use utoipa_actix_web::service_config::ServiceConfig;

/// One nudge per game per this long.
const NUDGE_EVERY_MS: i64 = 15 * 60 * 1000;

pub fn config(cfg: &mut ServiceConfig) {
    cfg.service(get_board).service(get_game).service(get_rules).service(put_rules).service(answer).service(nudge);
}

/// The body of `PUT /rosters/{id}/availability-rules`; absent or `null` =
/// off.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AvailabilityRulesInput {
    /// Answers of "in" close this long before puck drop.
    #[serde(default, deserialize_with = "optional_whole")]
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 10080)]
    pub lock_minutes: Option<i64>,
    #[serde(default, deserialize_with = "optional_whole")]
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 50)]
    pub min_skaters: Option<i64>,
    #[serde(default, deserialize_with = "optional_whole")]
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 10)]
    pub min_goalies: Option<i64>,
}

impl AvailabilityRulesInput {
    fn checked(self) -> AppResult<AvailabilityRules> {
        let rules = AvailabilityRules {
            lock_minutes: self.lock_minutes,
            min_skaters: self.min_skaters,
            min_goalies: self.min_goalies,
        };
        let mut errors = FieldErrors::new();
        for (field, message) in rules.problems() {
            errors.entry(field.to_string()).or_insert(message);
        }
        crate::api::finish(errors)?;
        Ok(rules)
    }
}

/// The body of `PUT …/players/{userId}`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AnswerInput {
    pub answer: Answer,
}

/// `POST …/nudge`.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Nudged {
    /// How many players were asked (those with no answer).
    pub nudged: i64,
    #[serde(with = "crate::time::rfc3339_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub nudged_at: Option<i64>,
}

/// A roster's board: its rules and next games with everyone's answers.
#[utoipa::path(responses((status = 200, body = Board), (status = 401, body = crate::error::ErrorEnvelope), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope)),
    tag = "availability", security(("bearerAuth" = [])))]
#[get("/rosters/{id}/availability")]
async fn get_board(state: web::Data<AppState>, me: AuthUser, id: web::Path<String>) -> AppResult<web::Json<Board>> {
    permissions::check(&state.db, Some(&me.id), Action::ReadAvailability { roster_id: &id }).await?;
    Ok(web::Json(live::board(&state.db, &id, (state.clock)()).await?))
}

/// One game of the roster (native game id or imported game's event id).
#[utoipa::path(responses((status = 200, body = GameAvailability), (status = 401, body = crate::error::ErrorEnvelope), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope)),
    tag = "availability", security(("bearerAuth" = [])))]
#[get("/rosters/{id}/availability/{game_id}")]
async fn get_game(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<(String, String)>,
) -> AppResult<web::Json<GameAvailability>> {
    let (id, game_id) = path.into_inner();
    permissions::check(&state.db, Some(&me.id), Action::ReadAvailability { roster_id: &id }).await?;
    Ok(web::Json(live::one(&state.db, &id, &game_id, (state.clock)()).await?))
}

/// The roster's lock and minimums (whoever may read its availability).
#[utoipa::path(responses((status = 200, body = AvailabilityRules), (status = 401, body = crate::error::ErrorEnvelope), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope)),
    tag = "availability", security(("bearerAuth" = [])))]
#[get("/rosters/{id}/availability-rules")]
async fn get_rules(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
) -> AppResult<web::Json<AvailabilityRules>> {
    permissions::check(&state.db, Some(&me.id), Action::ReadAvailability { roster_id: &id }).await?;
    let roster = rows::rules(&state.db.pool, &id).await?.ok_or_else(|| AppError::not_found("roster"))?;
    Ok(web::Json(roster.rules))
}

/// Set the roster's lock and minimums (its team's owner, managers, captain).
/// The imported games' events take the new lock at once.
#[utoipa::path(request_body = AvailabilityRulesInput, responses((status = 200, body = AvailabilityRules), (status = 401, body = crate::error::ErrorEnvelope), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)),
    tag = "availability", security(("bearerAuth" = [])))]
#[put("/rosters/{id}/availability-rules")]
async fn put_rules(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    body: web::Json<AvailabilityRulesInput>,
) -> AppResult<web::Json<AvailabilityRules>> {
    permissions::check(&state.db, Some(&me.id), Action::ManageAvailability { roster_id: &id }).await?;
    let rules = body.into_inner().checked()?;
    rows::set_rules(&state.db.pool, &id, &rules).await?;
    let now = (state.clock)();
    for game in rows::upcoming(&state.db.pool, &id, now, i64::MAX, i64::MAX).await? {
        if game.kind == "EVENT" {
            crate::commands::event::refresh_access(&state, &me.id, &game.id).await?;
        }
    }
    live::push_board(&state.db, &state.realtime.pusher, &id, now).await?;
    Ok(web::Json(rules))
}

/// A player's answer for one game: the player themself, or the team's
/// owner, managers or captain (native games only: an imported game's
/// answer is the player's own RSVP).
#[utoipa::path(request_body = AnswerInput, responses((status = 200, body = GameAvailability), (status = 401, body = crate::error::ErrorEnvelope), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)),
    tag = "availability", security(("bearerAuth" = [])))]
#[put("/rosters/{id}/availability/{game_id}/players/{user_id}")]
async fn answer(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<(String, String, String)>,
    body: web::Json<AnswerInput>,
) -> AppResult<web::Json<GameAvailability>> {
    let (id, game_id, user_id) = path.into_inner();
    let relations = permissions::relations(&state.db, Some(&me.id), permissions::Object::Roster(&id)).await?;
    if !relations.permits(&Action::AnswerAvailability { roster_id: &id, user_id: &user_id }) {
        return Err(AppError::forbidden(
            "only the player, their team's owner and managers, and the captain may answer",
        ));
    }
    let manager = relations.permits(&Action::ManageAvailability { roster_id: &id });
    let roster = rows::rules(&state.db.pool, &id).await?.ok_or_else(|| AppError::not_found("roster"))?;
    let game = rows::game(&state.db.pool, &id, &game_id).await?.ok_or_else(|| AppError::not_found("game"))?;
    let players = rows::players(&state.db.pool, &id).await?;
    let player = players.iter().find(|p| p.user_id == user_id).ok_or_else(|| AppError::not_found("player"))?;
    let answer = body.into_inner().answer;
    let now = (state.clock)();
    let time = GameTime { start: game.starts_at, end: game.ends_at, closed: game.closed > 0 };
    let late = match decide(answer, time, roster.rules.locks_at(game.starts_at), now, manager) {
        Verdict::Over => return Err(AppError::conflict("this game is over: answers are closed")),
        Verdict::Locked { at } => {
            return Err(AppError::conflict(format!(
                "answers locked at {} — you can still say you're out",
                to_rfc3339(at)
            )));
        }
        Verdict::Take { late } => late,
    };
    if game.kind == "GAME" {
        rows::answer(&state.db.pool, &id, &game_id, &user_id, answer.as_str(), late, &me.id, now).await?;
    } else if user_id != me.id {
        return Err(AppError::forbidden("an imported game's answer is the player's own RSVP"));
    } else {
        let action = if answer == Answer::In { RsvpAnswer::Attending } else { RsvpAnswer::Declined };
        let position = player.position.as_deref().and_then(|p| crate::domain::HockeyPosition::parse(p).ok());
        crate::commands::event::rsvp(&state, &me, &game_id, RsvpInput { action, position }, None).await?;
    }
    let view = live::game_view(&state.db, &id, &roster.rules, &players, game, now).await?;
    live::push_game(&state.realtime.pusher, &id, &view);
    Ok(web::Json(view))
}

/// Ask every player who has not answered the game (its team's owner,
/// managers, captain); once per game per 15 minutes.
#[utoipa::path(responses((status = 200, body = Nudged), (status = 401, body = crate::error::ErrorEnvelope), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope)),
    tag = "availability", security(("bearerAuth" = [])))]
#[post("/rosters/{id}/availability/{game_id}/nudge")]
async fn nudge(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<(String, String)>,
) -> AppResult<web::Json<Nudged>> {
    let (id, game_id) = path.into_inner();
    permissions::check(&state.db, Some(&me.id), Action::ManageAvailability { roster_id: &id }).await?;
    let now = (state.clock)();
    let view = live::one(&state.db, &id, &game_id, now).await?;
    if now >= view.starts_at {
        return Err(AppError::conflict("this game has started: nobody is nudged"));
    }
    let to: Vec<String> =
        view.players.iter().filter(|p| p.answer.is_none() && p.user_id != me.id).map(|p| p.user_id.clone()).collect();
    if to.is_empty() {
        return Ok(web::Json(Nudged { nudged: 0, nudged_at: view.nudged_at }));
    }
    let by_name = crate::db::users::display_name(&state.db.pool, &me.id).await?.unwrap_or_default();
    let batch = crate::notify::new_batch();
    let mut tx = state.db.begin().await?;
    if !rows::mark_nudge(&mut *tx, &id, &game_id, &me.id, now, now - NUDGE_EVERY_MS).await? {
        let next = view.nudged_at.map_or(now, |at| at + NUDGE_EVERY_MS);
        return Err(AppError::conflict(format!("already nudged; the next nudge may go at {}", to_rfc3339(next))));
    }
    let asked = GameAsked {
        roster_id: &id,
        game_id: &game_id,
        kind: &view.kind,
        title: &view.title,
        starts_at: view.starts_at,
        time_zone: view.time_zone.as_deref(),
        place: view.place.as_deref(),
        opponent: view.opponent.as_deref(),
    };
    let told =
        crate::notify::availability_asked(&mut tx, &asked, Asked::Nudge { by_name: &by_name, at: now }, &to, &batch)
            .await?;
    tx.commit().await?;
    state.realtime.push_notifications(batch);
    let view = live::one(&state.db, &id, &game_id, now).await?;
    live::push_game(&state.realtime.pusher, &id, &view);
    Ok(web::Json(Nudged { nudged: told as i64, nudged_at: Some(now) }))
}
