//! WebSocket commands: `{"type":"command","id","command":{"kind",…}}`. Each
//! kind goes to the same function as its REST call, with the command id as
//! the idempotency key; the reply's `data` is the body that REST call answers.

use crate::api::events::{RsvpInput, remove_command, rsvp_command};
use crate::auth::AuthUser;
use crate::error::AppError;
use crate::startup::AppState;
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase", deny_unknown_fields)]
enum Command {
    #[serde(rename_all = "camelCase")]
    Rsvp { event_id: String, action: String, position: Option<crate::domain::HockeyPosition> },
    #[serde(rename_all = "camelCase")]
    RemoveAttendee { event_id: String, user_id: String },
}

pub async fn dispatch(
    state: &AppState,
    user: Option<&AuthUser>,
    command_id: &str,
    command: serde_json::Value,
) -> Result<serde_json::Value, AppError> {
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
