//! The one error type the actors answer with, and its mapping onto the
//! contract's error codes.
//!
//! Domain rejections (a full-stop "no" decided from the aggregate's state)
//! and infrastructure failures share this enum because a caller treats them
//! the same way: render the envelope. The split that matters is
//! [`ActorError::is_decided`]: decided errors are stored under the command
//! id and replayed; the others are transient and a retry may succeed.

use serde_json::{Map, Value, json};

/// Why a command was not applied. `Display` is the human-readable message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ActorError {
    /// The aggregate (or the person a command names) does not exist.
    /// Contract code `not_found`.
    #[error("{0}")]
    NotFound(String),
    /// The command is malformed for this aggregate: a field is out of range
    /// or names something that is not there. Contract code
    /// `validation_failed`; `field` is the camelCase field name for the
    /// envelope's `details`.
    #[error("{message}")]
    Validation { field: String, message: String },
    /// The command does not fit the aggregate's current state (a cancelled
    /// event, a game that is not live), or concurrent writers kept moving
    /// the version until the retry budget ran out. Contract code `conflict`.
    #[error("{0}")]
    Conflict(String),
    /// The command id was used before for a different command (as payment
    /// APIs answer). Contract code `idempotency_key_reused`, 422.
    #[error("{0}")]
    KeyReused(String),
    /// The actor's queue is full; the caller should back off. Contract code
    /// `rate_limited`.
    #[error("{0}")]
    Overloaded(String),
    /// Storage failed or the actor stopped before answering. Contract code
    /// `internal`; the message is for logs, never for clients.
    #[error("{0}")]
    Internal(String),
}

impl ActorError {
    /// Shorthand for a validation failure on one field.
    pub fn validation(field: &str, message: impl Into<String>) -> Self {
        ActorError::Validation { field: field.to_owned(), message: message.into() }
    }

    /// The contract's snake_case error code.
    pub fn code(&self) -> &'static str {
        match self {
            ActorError::NotFound(_) => "not_found",
            ActorError::Validation { .. } => "validation_failed",
            ActorError::Conflict(_) => "conflict",
            ActorError::KeyReused(_) => "idempotency_key_reused",
            ActorError::Overloaded(_) => "rate_limited",
            ActorError::Internal(_) => "internal",
        }
    }

    /// True when the aggregate itself decided this answer, so repeating the
    /// same command id must give it again. Transient failures are not
    /// stored: a retry deserves a fresh attempt.
    pub fn is_decided(&self) -> bool {
        matches!(self, ActorError::NotFound(_) | ActorError::Validation { .. } | ActorError::Conflict(_))
    }

    /// The `error` object of the contract's envelope and of a WebSocket
    /// `reply` with `ok:false`: `{"code","message","details"?}`.
    pub fn to_json(&self) -> Value {
        match self {
            ActorError::Validation { field, message } => json!({
                "code": self.code(),
                "message": message,
                "details": { field.as_str(): message },
            }),
            other => json!({ "code": other.code(), "message": other.to_string() }),
        }
    }

    /// Reads back what [`ActorError::to_json`] wrote (for replayed command
    /// ids). Unknown codes become `Internal` so a corrupt row cannot
    /// masquerade as a decision.
    pub fn from_json(value: &Value) -> Self {
        let code = value.get("code").and_then(Value::as_str).unwrap_or("");
        let message = value.get("message").and_then(Value::as_str).unwrap_or("").to_owned();
        match code {
            "not_found" => ActorError::NotFound(message),
            "validation_failed" => {
                let field = value
                    .get("details")
                    .and_then(Value::as_object)
                    .and_then(|d: &Map<String, Value>| d.keys().next().cloned())
                    .unwrap_or_default();
                ActorError::Validation { field, message }
            }
            "conflict" => ActorError::Conflict(message),
            "idempotency_key_reused" => ActorError::KeyReused(message),
            "rate_limited" => ActorError::Overloaded(message),
            _ => ActorError::Internal(message),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_survives_a_round_trip_through_its_stored_json() {
        let all = [
            ActorError::NotFound("no such event".into()),
            ActorError::validation("maxSkaters", "must not be negative"),
            ActorError::Conflict("event is cancelled".into()),
            ActorError::Overloaded("busy".into()),
            ActorError::KeyReused("used for another command".into()),
            ActorError::Internal("db down".into()),
        ];
        for e in all {
            assert_eq!(ActorError::from_json(&e.to_json()), e);
        }
    }

    #[test]
    fn validation_errors_name_their_field_in_details() {
        let v = ActorError::validation("minutes", "between 1 and 60").to_json();
        assert_eq!(v["code"], "validation_failed");
        assert_eq!(v["details"]["minutes"], "between 1 and 60");
    }
}
