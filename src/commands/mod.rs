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
use crate::state::AppState;
use rinkside_actors::event::RsvpAnswer;
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

/// A socket command, parsed.
enum Parsed {
    GameAction { game_id: String, input: game::GameActionInput },
    Other(SocketCommand),
}

/// Parses the `command` of a command frame (pure: the fuzz target).
fn parse(command: Value) -> Result<Parsed, AppError> {
    if command.get("kind").and_then(Value::as_str) == Some("gameAction") {
        let (game_id, input) = game_action(command)?;
        return Ok(Parsed::GameAction { game_id, input });
    }
    serde_json::from_value(command).map(Parsed::Other).map_err(|e| AppError::field("command", e.to_string()))
}

/// Runs a command that came over the socket; `command_id` is its
/// idempotency key.
pub async fn dispatch(
    state: &AppState,
    user: Option<&AuthUser>,
    command_id: &str,
    command: Value,
) -> Result<Value, AppError> {
    let command = parse(command)?;
    let user = user.ok_or_else(|| AppError::unauthorized("send an auth frame first"))?;
    match command {
        Parsed::GameAction { game_id, input } => game::action(state, user, &game_id, input, Some(command_id)).await,
        Parsed::Other(SocketCommand::Rsvp { event_id, action, position }) => {
            let action = RsvpAnswer::parse(&action).map_err(|_| AppError::field("action", event::RSVP_ACTIONS))?;
            event::rsvp(state, user, &event_id, event::RsvpInput { action, position }, Some(command_id)).await
        }
        Parsed::Other(SocketCommand::RemoveAttendee { event_id, user_id }) => {
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

#[cfg(test)]
mod fuzz {
    use super::*;
    use crate::fuzzing::{self, object_with};
    use proptest::prelude::*;

    /// Every field of every socket command, and of the action bodies.
    const FIELDS: &[&str] = &[
        "kind",
        "eventId",
        "action",
        "position",
        "userId",
        "gameId",
        "type",
        "rosterId",
        "scorerId",
        "assistIds",
        "playerId",
        "minutes",
    ];
    const KINDS: &[&str] = &["rsvp", "removeAttendee", "gameAction", "GAMEACTION", "nope"];
    const ACTIONS: &[&str] = &["START", "GOAL", "PENALTY", "END_PERIOD", "FINAL", "UNDO", "goal", ""];

    /// A command naming a real kind (and, for game actions, a real type),
    /// with hostile fields.
    fn command() -> impl Strategy<Value = Value> {
        (prop::sample::select(KINDS), prop::sample::select(ACTIONS), object_with(FIELDS), any::<bool>()).prop_map(
            |(kind, action, mut obj, typed)| {
                obj["kind"] = Value::from(kind);
                if typed {
                    obj["type"] = Value::from(action);
                }
                obj
            },
        )
    }

    proptest! {
        #![proptest_config(fuzzing::config(1_000))]

        /// A command frame's `command` parses or is refused with a 422 value,
        /// whatever its shape; a parsed game action keeps the game id given.
        #[test]
        fn any_socket_command_parses_or_is_refused(
            command in prop_oneof![command(), fuzzing::json_with_keys(FIELDS)],
        ) {
            let given_game = command.get("gameId").cloned();
            match parse(command) {
                Ok(Parsed::GameAction { game_id, input }) => {
                    prop_assert_eq!(given_game, Some(Value::String(game_id)));
                    let _ = input.into_action(0);
                }
                Ok(Parsed::Other(_)) => {}
                Err(e) => prop_assert_eq!(e.code(), "validation_failed"),
            }
        }
    }
}
