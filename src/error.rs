//! The one error type of the HTTP and WebSocket API. Every failure a client
//! can see is an `AppError`, rendered as CONTRACT.md's envelope
//! `{"error":{"code","message","details"?}}`. Internal causes are logged with
//! their chain and never sent.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;
use std::collections::BTreeMap;

/// Field name → message, for `validation_failed`.
pub type FieldErrors = BTreeMap<String, String>;

/// Turns collected field errors into a 422, or carries on.
pub fn finish(errors: FieldErrors) -> Result<(), AppError> {
    if errors.is_empty() { Ok(()) } else { Err(AppError::validation(errors)) }
}

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("authentication required")]
    Unauthorized(String),
    #[error("forbidden")]
    Forbidden(String),
    #[error("not found")]
    NotFound(String),
    /// A 404 whose message is already a whole phrase ("event not found"),
    /// as the actors word theirs: `NotFound` would add " not found" again.
    #[error("not found")]
    NotFoundMessage(String),
    /// A state conflict with a specific code (e.g. `roster_full`, `conflict`).
    #[error("conflict")]
    Conflict { code: &'static str, message: String },
    /// Well-formed input the server cannot act on, with a specific code
    /// (e.g. a schedule URL that is `not_a_schedule`).
    #[error("unprocessable")]
    Unprocessable { code: &'static str, message: String },
    #[error("validation failed")]
    Validation { message: String, fields: FieldErrors },
    #[error("bad request")]
    BadRequest(String),
    #[error("payload too large")]
    PayloadTooLarge(String),
    #[error("rate limited")]
    RateLimited(String),
    /// An idempotency key sent again with a different command (422).
    #[error("idempotency key reused")]
    KeyReused(String),
    #[error("method not allowed")]
    MethodNotAllowed,
    /// The command may or may not have been applied (e.g. a timeout waiting
    /// for an actor); clients retry with the same command id.
    #[error("unavailable")]
    Unavailable(String),
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

/// The JSON body of every error answer.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ErrorEnvelope {
    pub error: ErrorBody,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct ErrorBody {
    pub code: String,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false, value_type = Option<Object>)]
    pub details: Option<serde_json::Value>,
}

impl AppError {
    pub fn unauthorized(msg: impl Into<String>) -> Self {
        Self::Unauthorized(msg.into())
    }
    pub fn forbidden(msg: impl Into<String>) -> Self {
        Self::Forbidden(msg.into())
    }
    pub fn not_found(what: impl Into<String>) -> Self {
        Self::NotFound(what.into())
    }
    pub fn conflict(msg: impl Into<String>) -> Self {
        Self::Conflict { code: "conflict", message: msg.into() }
    }
    pub fn conflict_code(code: &'static str, msg: impl Into<String>) -> Self {
        Self::Conflict { code, message: msg.into() }
    }
    /// One field is wrong.
    pub fn unprocessable(code: &'static str, msg: impl Into<String>) -> Self {
        Self::Unprocessable { code, message: msg.into() }
    }
    pub fn field(field: &str, msg: impl Into<String>) -> Self {
        let mut fields = FieldErrors::new();
        fields.insert(field.to_string(), msg.into());
        let message = format!("{}: {}", field_in_words(field), fields[field]);
        Self::Validation { message, fields }
    }
    pub fn validation(fields: FieldErrors) -> Self {
        let message = match fields.iter().next() {
            Some((field, message)) if fields.len() == 1 => format!("{}: {message}", field_in_words(field)),
            _ => {
                let names: Vec<String> = fields.keys().map(|f| field_in_words(f)).collect();
                format!("check these fields: {}", names.join(", "))
            }
        };
        Self::Validation { message, fields }
    }
    pub fn internal(err: impl Into<anyhow::Error>) -> Self {
        Self::Internal(err.into())
    }

    pub fn code(&self) -> &'static str {
        match self {
            Self::Unauthorized(_) => "unauthorized",
            Self::Forbidden(_) => "forbidden",
            Self::NotFound(_) | Self::NotFoundMessage(_) => "not_found",
            Self::Conflict { code, .. } | Self::Unprocessable { code, .. } => code,
            Self::Validation { .. } => "validation_failed",
            Self::BadRequest(_) => "bad_request",
            Self::PayloadTooLarge(_) => "payload_too_large",
            Self::RateLimited(_) => "rate_limited",
            Self::KeyReused(_) => "idempotency_key_reused",
            Self::MethodNotAllowed => "method_not_allowed",
            Self::Unavailable(_) => "unavailable",
            Self::Internal(_) => "internal",
        }
    }

    /// What a person reads: the message with its first letter capitalised
    /// (handlers write them in lower case mid-sentence style; the envelope
    /// always starts with a capital, docs/walkthrough.md).
    pub fn message(&self) -> String {
        capitalised(&self.raw_message())
    }

    fn raw_message(&self) -> String {
        match self {
            Self::Unauthorized(m)
            | Self::Forbidden(m)
            | Self::BadRequest(m)
            | Self::PayloadTooLarge(m)
            | Self::RateLimited(m)
            | Self::KeyReused(m)
            | Self::Unavailable(m)
            | Self::NotFoundMessage(m) => m.clone(),
            Self::NotFound(what) => format!("{what} not found"),
            Self::Conflict { message, .. } | Self::Unprocessable { message, .. } | Self::Validation { message, .. } => {
                message.clone()
            }
            Self::MethodNotAllowed => "method not allowed on this route".into(),
            Self::Internal(_) => "internal error".into(),
        }
    }

    pub fn envelope(&self) -> ErrorEnvelope {
        let details = match self {
            Self::Validation { fields, .. } => {
                serde_json::to_value(fields.iter().map(|(k, v)| (k.clone(), capitalised(v))).collect::<FieldErrors>())
                    .ok()
            }
            _ => None,
        };
        ErrorEnvelope { error: ErrorBody { code: self.code().into(), message: self.message(), details } }
    }
}

impl ResponseError for AppError {
    fn status_code(&self) -> StatusCode {
        match self {
            Self::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            Self::Forbidden(_) => StatusCode::FORBIDDEN,
            Self::NotFound(_) | Self::NotFoundMessage(_) => StatusCode::NOT_FOUND,
            Self::Conflict { .. } => StatusCode::CONFLICT,
            Self::Validation { .. } | Self::Unprocessable { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            Self::BadRequest(_) => StatusCode::BAD_REQUEST,
            Self::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            Self::RateLimited(_) => StatusCode::TOO_MANY_REQUESTS,
            Self::KeyReused(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Self::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            Self::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        if let Self::Internal(err) = self {
            tracing::error!(error = ?err, "internal error");
        }
        HttpResponse::build(self.status_code()).json(self.envelope())
    }
}

/// `text` with its first character in upper case ("user not found" →
/// "User not found").
pub fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) if first.is_lowercase() => first.to_uppercase().chain(chars).collect(),
        _ => text.to_string(),
    }
}

/// A wire field name in words: `scheduledAt` → "scheduled at",
/// `groupConfig.0.name` → "group config 0 name".
pub fn field_in_words(field: &str) -> String {
    let mut out = String::with_capacity(field.len() + 4);
    for c in field.chars() {
        if c.is_uppercase() {
            if !out.is_empty() && !out.ends_with(' ') {
                out.push(' ');
            }
            out.extend(c.to_lowercase());
        } else if matches!(c, '.' | '_' | '[' | ']') {
            if !out.is_empty() && !out.ends_with(' ') {
                out.push(' ');
            }
        } else {
            out.push(c);
        }
    }
    out.trim_end().to_string()
}

/// SQLSTATEs of PostgreSQL refusing a character in text it was given: 22021
/// "invalid byte sequence" (a NUL, which SQLite would store) and 22P05
/// "untranslatable character".
const REFUSED_CHARACTER: [&str; 2] = ["22021", "22P05"];

/// Database errors: constraint violations and text the database cannot
/// store are the client's mistake (409 or 422), everything else is internal.
impl From<sqlx::Error> for AppError {
    fn from(err: sqlx::Error) -> Self {
        use sqlx::error::ErrorKind;
        if let sqlx::Error::Database(db) = &err {
            let code = db.code();
            if code.as_deref().is_some_and(|c| REFUSED_CHARACTER.contains(&c))
                || db.message().contains("invalid byte sequence")
            {
                // A safety net behind `http_input` and the text types: the
                // client sent it, so it is neither a 500 nor logged as an
                // error with a backtrace.
                tracing::info!(code = code.as_deref(), message = db.message(), "the database refused a character");
                return AppError::Validation {
                    message: "a text value holds a character that cannot be stored (such as NUL)".into(),
                    fields: FieldErrors::new(),
                };
            }
            match db.kind() {
                ErrorKind::UniqueViolation => return AppError::conflict("that already exists"),
                ErrorKind::ForeignKeyViolation => {
                    return AppError::conflict("it is still referenced, or refers to something that does not exist");
                }
                ErrorKind::CheckViolation | ErrorKind::NotNullViolation => {
                    return AppError::Validation {
                        message: "a value is out of range".into(),
                        fields: FieldErrors::new(),
                    };
                }
                _ => {}
            }
        }
        if matches!(err, sqlx::Error::RowNotFound) {
            return AppError::not_found("record");
        }
        AppError::Internal(err.into())
    }
}

pub type AppResult<T> = Result<T, AppError>;

/// Actor outcomes map onto the same codes: decided rejections keep their
/// code and message; internal failures are logged, not shown.
impl From<rinkside_actors::ActorError> for AppError {
    fn from(err: rinkside_actors::ActorError) -> Self {
        use rinkside_actors::ActorError as A;
        match err {
            A::NotFound(message) => AppError::NotFoundMessage(message),
            A::Validation { field, message } => AppError::field(&field, message),
            A::Conflict(message) => AppError::conflict(message),
            A::Overloaded(message) => AppError::RateLimited(message),
            A::KeyReused(message) => AppError::KeyReused(message),
            A::Internal(message) => AppError::Internal(anyhow::anyhow!(message)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlx::error::{DatabaseError, ErrorKind};
    use std::borrow::Cow;

    /// A database error as a driver reports it.
    #[derive(Debug)]
    struct Refusal {
        code: &'static str,
        message: &'static str,
    }

    impl std::fmt::Display for Refusal {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(self.message)
        }
    }

    impl std::error::Error for Refusal {}

    impl DatabaseError for Refusal {
        fn message(&self) -> &str {
            self.message
        }
        fn code(&self) -> Option<Cow<'_, str>> {
            Some(Cow::Borrowed(self.code))
        }
        fn as_error(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
            self
        }
        fn as_error_mut(&mut self) -> &mut (dyn std::error::Error + Send + Sync + 'static) {
            self
        }
        fn into_error(self: Box<Self>) -> Box<dyn std::error::Error + Send + Sync + 'static> {
            self
        }
        fn kind(&self) -> ErrorKind {
            ErrorKind::Other
        }
    }

    fn from_database(code: &'static str, message: &'static str) -> AppError {
        AppError::from(sqlx::Error::Database(Box::new(Refusal { code, message })))
    }

    #[test]
    fn postgres_refusing_a_character_is_the_clients_422_not_a_500() {
        for (code, message) in [
            ("22021", "invalid byte sequence for encoding \"UTF8\": 0x00"),
            ("22P05", "unsupported Unicode escape sequence"),
        ] {
            let err = from_database(code, message);
            assert_eq!(err.status_code(), StatusCode::UNPROCESSABLE_ENTITY, "{code}");
            assert_eq!(err.code(), "validation_failed");
            assert!(!err.message().contains("UTF8"), "no database text in {}", err.message());
        }
    }

    #[test]
    fn every_message_a_person_reads_starts_with_a_capital() {
        assert_eq!(AppError::not_found("user").message(), "User not found");
        // An actor's message is a whole phrase: said once, without the id.
        let gone = AppError::from(rinkside_actors::ActorError::NotFound("event not found".into()));
        assert_eq!(gone.message(), "Event not found");
        assert_eq!(gone.status_code(), StatusCode::NOT_FOUND);
        assert_eq!(gone.code(), "not_found");
        assert_eq!(AppError::conflict("that already exists").message(), "That already exists");
        let err = AppError::field("id", "you cannot follow yourself");
        assert_eq!(err.message(), "Id: you cannot follow yourself");
        assert_eq!(err.envelope().error.details.unwrap()["id"], "You cannot follow yourself");
        let err = AppError::field("scheduledAt", "must be a date");
        assert_eq!(err.message(), "Scheduled at: must be a date");
        let mut fields = FieldErrors::new();
        fields.insert("endDate".into(), "x".into());
        fields.insert("maxSkaters".into(), "y".into());
        assert_eq!(AppError::validation(fields).message(), "Check these fields: end date, max skaters");
        assert_eq!(AppError::Internal(anyhow::anyhow!("boom")).message(), "Internal error");
        assert_eq!(field_in_words("groupConfig.0.name"), "group config 0 name");
        assert_eq!(capitalised("Élan"), "Élan");
        assert_eq!(capitalised("élan"), "Élan");
        assert_eq!(capitalised(""), "");
    }

    #[test]
    fn other_database_errors_stay_internal() {
        let err = from_database("57014", "canceling statement due to statement timeout");
        assert_eq!(err.status_code(), StatusCode::INTERNAL_SERVER_ERROR);
    }
}
