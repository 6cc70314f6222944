//! Commands to the live aggregates, apart from the transports that carry
//! them (in the manner of mini-redis's `cmd/`). Each command is parsed,
//! authorised (`crate::permissions`), given its idempotency key and sent to
//! its aggregate's actor here; the REST handlers and the WebSocket gateway
//! both call these functions and neither reaches into the other.
//!
//! - [`event`]: answering an event, an organiser's removal of an attendee,
//!   a change of limits, cancellation.
//! - [`game`]: scoring actions, lineups, rescheduling and status changes.
//!
//! The reply of a command is the body its REST call answers; on the socket
//! it is the `data` of the `reply` frame.

pub mod event;
pub mod game;

use crate::auth::AuthUser;
use crate::error::AppError;
use crate::startup::AppState;
use serde::Deserialize;
use serde_json::Value;

/// The idempotency key of a command, scoped by kind and user so that ids
/// chosen by different clients never collide.
pub fn command_key(kind: &str, user_id: &str, client_id: Option<&str>) -> Option<String> {
    client_id.map(|id| format!("{kind}:{user_id}:{id}"))
}

/// A short digest of what a command says, stored with its reply: the same
/// idempotency key sent again with a different command is refused with 422
/// `idempotency_key_reused` (as payment APIs answer) instead of silently
/// replaying the first reply.
pub fn fingerprint(command: &impl std::fmt::Debug) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(format!("{command:?}").as_bytes());
    digest.iter().take(12).map(|b| format!("{b:02x}")).collect()
}

/// A socket command: `{"kind", …}` (CONTRACT.md › WebSocket › commands).
#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase", deny_unknown_fields)]
enum SocketCommand {
    #[serde(rename_all = "camelCase")]
    Rsvp { event_id: String, action: String, position: Option<crate::domain::HockeyPosition> },
    #[serde(rename_all = "camelCase")]
    RemoveAttendee { event_id: String, user_id: String },
}

/// `{"kind":"gameAction","gameId", …the body of POST /games/{id}/actions…}`:
/// the action body sits beside `gameId`, so it is split off by hand (serde
/// cannot flatten a tagged enum and still refuse unknown fields).
fn game_action(mut command: Value) -> Result<(String, game::GameActionInput), AppError> {
    let obj = command.as_object_mut().ok_or_else(|| AppError::field("command", "must be an object"))?;
    obj.remove("kind");
    let game_id = match obj.remove("gameId") {
        Some(Value::String(id)) => id,
        _ => return Err(AppError::field("gameId", "is required")),
    };
    let input = serde_json::from_value(command).map_err(|e| AppError::field("command", e.to_string()))?;
    Ok((game_id, input))
}

/// Runs a command that came over the socket; `command_id` is its
/// idempotency key.
pub async fn dispatch(
    state: &AppState,
    user: Option<&AuthUser>,
    command_id: &str,
    command: Value,
) -> Result<Value, AppError> {
    if command.get("kind").and_then(Value::as_str) == Some("gameAction") {
        let (game_id, input) = game_action(command)?;
        let user = user.ok_or_else(|| AppError::unauthorized("send an auth frame first"))?;
        return game::action(state, user, &game_id, input, Some(command_id)).await;
    }
    let command: SocketCommand =
        serde_json::from_value(command).map_err(|e| AppError::field("command", e.to_string()))?;
    let user = user.ok_or_else(|| AppError::unauthorized("send an auth frame first"))?;
    match command {
        SocketCommand::Rsvp { event_id, action, position } => {
            let action = event::RsvpAction::parse(&action)?;
            event::rsvp(state, user, &event_id, event::RsvpInput { action, position }, Some(command_id)).await
        }
        SocketCommand::RemoveAttendee { event_id, user_id } => {
            event::remove_attendee(state, user, &event_id, &user_id, Some(command_id)).await
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
        assert!(matches!(input, game::GameActionInput::Goal { .. }));
        assert!(game_action(json!({"kind": "gameAction", "type": "START"})).is_err());
        assert!(game_action(json!({"kind": "gameAction", "gameId": "g", "type": "START", "extra": 1})).is_err());
    }

    #[test]
    fn command_keys_are_scoped_by_kind_and_user() {
        assert_eq!(command_key("rsvp", "u1", Some("c1")).as_deref(), Some("rsvp:u1:c1"));
        assert_ne!(command_key("rsvp", "u1", Some("c1")), command_key("rsvp", "u2", Some("c1")));
        assert_eq!(command_key("rsvp", "u1", None), None);
    }
}
