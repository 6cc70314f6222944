//! Commands to a game's actor: scoring actions, lineups, rescheduling and
//! status changes. The actor is the one writer of its game row and version.

use super::command_key;
use crate::auth::AuthUser;
use crate::error::{AppError, AppResult};
use crate::permissions::{self, Action};
use crate::realtime::topics::Topic;
use crate::startup::AppState;
use rinkside_actors::Envelope;
use rinkside_actors::game::{GameAction, GameCommand, GameStatus};
use serde::Deserialize;
use serde_json::Value;

/// Most players one side may dress.
pub const MAX_LINEUP: usize = 60;

/// The body of `POST /games/{id}/actions` (CONTRACT.md), tagged by `type`.
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
#[serde(tag = "type", rename_all = "SCREAMING_SNAKE_CASE", deny_unknown_fields)]
pub enum GameActionInput {
    /// SCHEDULED → LIVE, period 1. (Field-less variants are written as
    /// empty structs so that unknown fields are refused for them too.)
    Start {},
    /// A goal for `rosterId`; the scorer is optional (an own goal or an
    /// unknown scorer), at most two distinct assists, which need a scorer.
    #[serde(rename_all = "camelCase")]
    Goal {
        roster_id: String,
        #[serde(default)]
        scorer_id: Option<String>,
        /// At most two different players, not the scorer.
        #[serde(default)]
        #[schema(schema_with = assist_ids)]
        assist_ids: Vec<String>,
    },
    /// 1–60 minutes for a dressed player of `rosterId`.
    #[serde(rename_all = "camelCase")]
    Penalty {
        roster_id: String,
        player_id: String,
        #[serde(deserialize_with = "crate::api::whole")]
        #[schema(minimum = 1, maximum = 60)]
        minutes: i64,
    },
    /// 1 → 2 → 3 → OT → SO.
    EndPeriod {},
    /// LIVE → FINAL: games played to every dressed player, the result to
    /// both rosters (win 2 points, tie 1, loss 0).
    Final {},
    /// Reverts the last entry that is not an UNDO and not undone.
    Undo {},
}

/// `assistIds`: at most [`rinkside_actors::game::MAX_ASSISTS`] different
/// players (the actor also refuses the scorer among them).
fn assist_ids() -> utoipa::openapi::schema::Array {
    utoipa::openapi::schema::ArrayBuilder::new()
        .items(utoipa::openapi::schema::ObjectBuilder::new().schema_type(utoipa::openapi::schema::Type::String))
        .max_items(Some(rinkside_actors::game::MAX_ASSISTS))
        .unique_items(true)
        .description(Some("At most two different players, not the scorer."))
        .build()
}

impl From<GameActionInput> for GameAction {
    fn from(input: GameActionInput) -> Self {
        match input {
            GameActionInput::Start {} => GameAction::Start,
            GameActionInput::Goal { roster_id, scorer_id, assist_ids } => {
                GameAction::Goal { roster_id, scorer_id, assist_ids }
            }
            GameActionInput::Penalty { roster_id, player_id, minutes } => {
                GameAction::Penalty { roster_id, player_id, minutes }
            }
            GameActionInput::EndPeriod {} => GameAction::EndPeriod,
            GameActionInput::Final {} => GameAction::Final,
            GameActionInput::Undo {} => GameAction::Undo,
        }
    }
}

/// One scoring action: scorers only; `client_id` (Idempotency-Key /
/// command id) makes a retry answer the first reply instead of applying
/// twice.
#[tracing::instrument(skip(state, me, input), fields(user = %me.id))]
pub async fn action(
    state: &AppState,
    me: &AuthUser,
    game_id: &str,
    input: GameActionInput,
    client_id: Option<&str>,
) -> AppResult<Value> {
    permissions::check(&state.db, Some(&me.id), Action::ScoreGame { game_id }).await?;
    // Scoring keys are scoped by game as well as by user (one score keeper
    // may run two games from one device).
    let key = command_key(&Topic::game(game_id).bus_name(), &me.id, client_id);
    send(state, me, game_id, GameCommand::Action(input.into()), key).await
}

/// The players who dressed for one side (scorers).
#[tracing::instrument(skip(state, me, user_ids), fields(user = %me.id))]
pub async fn set_lineup(
    state: &AppState,
    me: &AuthUser,
    game_id: &str,
    roster_id: String,
    user_ids: Vec<String>,
) -> AppResult<Value> {
    permissions::check(&state.db, Some(&me.id), Action::SetLineup { game_id, roster_id: &roster_id }).await?;
    if user_ids.is_empty() || user_ids.len() > MAX_LINEUP {
        return Err(AppError::field("userIds", format!("1 to {MAX_LINEUP} players")));
    }
    send(state, me, game_id, GameCommand::SetLineup { roster_id, user_ids }, None).await
}

/// A new time and/or status before the game goes live (staff). A refused
/// status change leaves the time alone: it is checked first.
#[tracing::instrument(skip(state, me), fields(user = %me.id))]
pub async fn reschedule(
    state: &AppState,
    me: &AuthUser,
    game_id: &str,
    scheduled_at: Option<&str>,
    status: Option<GameStatus>,
) -> AppResult<()> {
    permissions::check(&state.db, Some(&me.id), Action::ManageGame { game_id }).await?;
    let scheduled_at = scheduled_at
        .map(|s| crate::time::parse_rfc3339_checked(s).map_err(|m| AppError::field("scheduledAt", m)))
        .transpose()?;
    let row = crate::db::games::get(&state.db.pool, game_id).await?.ok_or_else(|| AppError::not_found("game"))?;
    if let Some(at) = scheduled_at
        && let Some((start, end)) = crate::db::games::season::season_dates(&state.db.pool, &row.season_id).await?
    {
        crate::domain::dates::game_in_season(at, start, end).map_err(|m| AppError::field("scheduledAt", m))?;
    }
    let current = GameStatus::parse(&row.status).map_err(AppError::internal)?;
    match current {
        GameStatus::Live | GameStatus::Final => {
            return Err(AppError::conflict(format!(
                "the game is {current}; only a game that has not started can be changed"
            )));
        }
        GameStatus::Cancelled if status.is_some_and(|s| s != GameStatus::Cancelled) => {
            return Err(AppError::conflict("the game is CANCELLED; schedule a new one"));
        }
        _ => {}
    }
    if let Some(scheduled_at) = scheduled_at {
        send(state, me, game_id, GameCommand::Reschedule { scheduled_at }, None).await?;
    }
    if let Some(status) = status {
        send(state, me, game_id, GameCommand::SetStatus { status }, None).await?;
    }
    Ok(())
}

async fn send(
    state: &AppState,
    me: &AuthUser,
    game_id: &str,
    command: GameCommand,
    key: Option<String>,
) -> AppResult<Value> {
    // Only a command with a key is ever replayed, so only it needs a digest.
    let fingerprint = key.as_ref().map(|_| super::fingerprint(&command));
    let mut envelope = Envelope::new(me.id.clone(), command);
    if let (Some(key), Some(fingerprint)) = (key, fingerprint) {
        envelope = envelope.with_command_id(key).with_fingerprint(fingerprint);
    }
    let reply = state.realtime.games.send(game_id, envelope).await?;
    serde_json::to_value(reply).map_err(AppError::internal)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn action_bodies_parse_strictly() {
        let goal: GameActionInput =
            serde_json::from_value(json!({"type": "GOAL", "rosterId": "r", "scorerId": "s", "assistIds": ["a", "b"]}))
                .unwrap();
        assert!(matches!(GameAction::from(goal), GameAction::Goal { assist_ids, .. } if assist_ids.len() == 2));
        let start: GameActionInput = serde_json::from_value(json!({"type": "START"})).unwrap();
        assert!(matches!(GameAction::from(start), GameAction::Start));
        let end: GameActionInput = serde_json::from_value(json!({"type": "END_PERIOD"})).unwrap();
        assert!(matches!(GameAction::from(end), GameAction::EndPeriod));
        assert!(
            serde_json::from_value::<GameActionInput>(json!({"type": "GOAL", "rosterId": "r", "bogus": 1})).is_err()
        );
        assert!(
            serde_json::from_value::<GameActionInput>(json!({"type": "PENALTY", "rosterId": "r", "playerId": "p"}))
                .is_err()
        );
        assert!(serde_json::from_value::<GameActionInput>(json!({"type": "FIGHT"})).is_err());
        assert!(serde_json::from_value::<GameActionInput>(json!({"type": "UNDO", "seq": 3})).is_err());
    }
}
