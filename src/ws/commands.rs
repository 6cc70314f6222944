//! WebSocket commands: `{"type":"command","id","command":{"kind",…}}`. Each
//! kind goes to the same function as its REST call, with the command id as
//! the idempotency key; the reply's `data` is the body that REST call answers.

use crate::api::events::{RsvpInput, remove_command, rsvp_command};
use crate::api::games::{GameActionInput, action_command};
use crate::auth::AuthUser;
use crate::error::AppError;
use crate::startup::AppState;
use serde::Deserialize;
use serde_json::Value;

#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase", deny_unknown_fields)]
enum Command {
    #[serde(rename_all = "camelCase")]
    Rsvp { event_id: String, action: String, position: Option<crate::domain::HockeyPosition> },
    #[serde(rename_all = "camelCase")]
    RemoveAttendee { event_id: String, user_id: String },
}

/// `{"kind":"gameAction","gameId", …the body of POST /games/{id}/actions…}`:
/// the action body sits beside `gameId`, so it is split off by hand (serde
/// cannot flatten a tagged enum and still refuse unknown fields).
fn game_action(mut command: Value) -> Result<(String, GameActionInput), AppError> {
    let obj = command.as_object_mut().ok_or_else(|| AppError::field("command", "must be an object"))?;
    obj.remove("kind");
    let game_id = match obj.remove("gameId") {
        Some(Value::String(id)) => id,
        _ => return Err(AppError::field("gameId", "is required")),
    };
    let input = serde_json::from_value(command).map_err(|e| AppError::field("command", e.to_string()))?;
    Ok((game_id, input))
}

pub async fn dispatch(
    state: &AppState,
    user: Option<&AuthUser>,
    command_id: &str,
    command: Value,
) -> Result<Value, AppError> {
    if command.get("kind").and_then(Value::as_str) == Some("gameAction") {
        let (game_id, input) = game_action(command)?;
        let user = user.ok_or_else(|| AppError::unauthorized("send an auth frame first"))?;
        return action_command(state, user, &game_id, input, Some(command_id)).await;
    }
    let command: Command = serde_json::from_value(command).map_err(|e| AppError::field("command", e.to_string()))?;
    let user = user.ok_or_else(|| AppError::unauthorized("send an auth frame first"))?;
    match command {
        Command::Rsvp { event_id, action, position } => {
            rsvp_command(state, user, &event_id, RsvpInput { action, position }, Some(command_id)).await
        }
        Command::RemoveAttendee { event_id, user_id } => {
            remove_command(state, user, &event_id, &user_id, Some(command_id)).await
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_game_action_command_splits_into_game_and_body() {
        let (game, input) =
            game_action(json!({"kind": "gameAction", "gameId": "g1", "type": "GOAL", "rosterId": "r"})).unwrap();
        assert_eq!(game, "g1");
        assert!(matches!(input, GameActionInput::Goal { .. }));
        assert!(game_action(json!({"kind": "gameAction", "type": "START"})).is_err());
        assert!(game_action(json!({"kind": "gameAction", "gameId": "g", "type": "START", "extra": 1})).is_err());
    }
}
