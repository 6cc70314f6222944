//! The HTTP API under `/api/v1`. Each resource module owns its routes,
//! request and response types and handlers (`pub fn config`); this module
//! wires them together with the request limits and the error envelope for
//! malformed input, unknown routes and wrong methods.

pub mod dev;
pub mod events;
pub mod facilities;
pub mod feed;
pub mod form;
pub mod games;
pub mod health;
pub mod me;
pub mod openapi;
pub mod orgs;
pub mod posts;
pub mod rosters;
pub mod seasons;
pub mod staff;
pub mod teams;
pub mod users;
pub mod webhooks;

#[cfg(test)]
mod fuzz;

use crate::db::Cursor;
use crate::domain::text::{self, SearchTerm};
use crate::error::AppError;
use actix_web::{HttpRequest, HttpResponse, error::JsonPayloadError, web};
use serde::{Deserialize, Serialize};
use utoipa_actix_web::service_config::ServiceConfig;

/// Largest JSON body we accept; larger answers 413 `payload_too_large`.
pub const MAX_JSON_BYTES: usize = 64 * 1024;

/// Every `/api/v1` route.
pub fn config(cfg: &mut ServiceConfig) {
    cfg.configure(me::config)
        .configure(users::config)
        .configure(facilities::config)
        .configure(teams::config)
        .configure(seasons::config)
        .configure(rosters::config)
        .configure(events::config)
        .configure(games::config)
        .configure(feed::config)
        .configure(posts::config)
        .configure(dev::config)
        .configure(webhooks::config)
        .configure(crate::ws::config);
}

/// Body, path and query extractor settings that turn every malformed input
/// into the contract's envelope.
pub fn extractor_config(cfg: &mut web::ServiceConfig) {
    cfg.app_data(web::JsonConfig::default().limit(MAX_JSON_BYTES).error_handler(json_error))
        .app_data(
            web::PathConfig::default()
                .error_handler(|err, _| AppError::BadRequest(format!("bad path parameter: {err}")).into()),
        )
        .app_data(
            web::QueryConfig::default()
                .error_handler(|err, _| AppError::field("query", format!("bad query string: {err}")).into()),
        );
}

fn json_error(err: JsonPayloadError, _req: &HttpRequest) -> actix_web::Error {
    let app = match &err {
        JsonPayloadError::OverflowKnownLength { .. } | JsonPayloadError::Overflow { .. } => {
            AppError::PayloadTooLarge(format!("the body is larger than {MAX_JSON_BYTES} bytes"))
        }
        JsonPayloadError::ContentType => AppError::BadRequest("expected Content-Type: application/json".into()),
        JsonPayloadError::Deserialize(e) if e.is_data() => {
            // Unknown fields, wrong types and missing fields: name the field
            // when serde tells us which one.
            let msg = e.to_string();
            let field = field_in_serde_message(&msg).unwrap_or_else(|| "body".into());
            AppError::field(&field, msg)
        }
        JsonPayloadError::Deserialize(e) => AppError::BadRequest(format!("malformed JSON: {e}")),
        _ => AppError::BadRequest("could not read the body".into()),
    };
    app.into()
}

/// Test-only: the status the JSON extractor answers for a body serde
/// refused (the fuzz targets of the body types check it is a 400 or 422).
#[cfg(test)]
pub(crate) fn json_refusal_status(e: serde_json::Error) -> u16 {
    let req = actix_web::test::TestRequest::default().to_http_request();
    json_error(JsonPayloadError::Deserialize(e), &req).as_response_error().status_code().as_u16()
}

/// serde says "unknown field `x`" or "missing field `x`": pull out the `x`.
fn field_in_serde_message(msg: &str) -> Option<String> {
    let start = msg.find('`')? + 1;
    let end = start + msg[start..].find('`')?;
    let field = &msg[start..end];
    (msg.contains("field") && !field.is_empty()).then(|| field.to_string())
}

/// Unknown `/api` routes.
pub async fn not_found() -> HttpResponse {
    use actix_web::ResponseError;
    AppError::not_found("route").error_response()
}

/// `?limit=&cursor=` of every list.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
pub struct PageQuery {
    /// 1–100, default 20.
    pub limit: Option<i64>,
    /// `nextCursor` of the previous page.
    pub cursor: Option<String>,
}

/// The page size a list was asked for: 1–100, 20 when not given; anything
/// else is a 422 naming `limit`.
pub fn page_rows(limit: Option<i64>) -> Result<i64, AppError> {
    crate::db::checked_page_limit(limit).map_err(|message| AppError::field("limit", message))
}

impl PageQuery {
    /// The page size (see [`page_rows`]).
    pub fn rows(&self) -> Result<i64, AppError> {
        page_rows(self.limit)
    }

    pub fn cursor(&self) -> Result<Option<Cursor>, AppError> {
        match &self.cursor {
            None => Ok(None),
            Some(raw) => {
                Cursor::parse(raw).map(Some).ok_or_else(|| AppError::field("cursor", "not a cursor we gave out"))
            }
        }
    }
}

/// `?q=&limit=&cursor=` of a search by name.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
pub struct SearchQuery {
    /// Part of the name (of a person: or username); empty lists all.
    pub q: Option<String>,
    /// 1–100, default 20.
    pub limit: Option<i64>,
    /// `nextCursor` of the previous page.
    pub cursor: Option<String>,
}

impl SearchQuery {
    /// What to search for; a 422 naming `q` when it cannot be.
    pub fn term(&self) -> Result<SearchTerm, AppError> {
        SearchTerm::parse(self.q.as_deref().unwrap_or("")).map_err(|message| AppError::field("q", message))
    }
}

/// One page of a list.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Page<T> {
    pub items: Vec<T>,
    pub next_cursor: Option<String>,
}

/// Trims a text field; empty means absent.
pub fn clean(s: Option<String>) -> Option<String> {
    s.map(|v| v.trim().to_string()).filter(|v| !v.is_empty())
}

/// Checks an optional free-text field: at most `max` characters, no control
/// characters but tabs and line breaks (`domain::text::PlainText`'s rules).
/// For callers not yet parsing into the text types.
pub fn check_len(errors: &mut crate::error::FieldErrors, field: &str, value: Option<&str>, max: usize) {
    if let Some(Err(message)) = value.map(|v| text::text(v, max)) {
        errors.insert(field.to_string(), message);
    }
}

/// An optional URL must be absolute http(s) (`domain::text::HttpUrl`).
pub fn check_url(errors: &mut crate::error::FieldErrors, field: &str, value: Option<&str>) {
    if let Some(Err(message)) = value.map(text::HttpUrl::parse) {
        errors.insert(field.to_string(), message);
    }
}

/// A required name: trimmed, 1 to `max` characters, one line, no control or
/// invisible formatting characters (`domain::text::Name`'s rules). Returns
/// the trimmed name (whatever it is when refused: the 422 follows).
pub fn check_name(errors: &mut crate::error::FieldErrors, field: &str, value: &str, max: usize) -> String {
    if let Err(message) = text::name(value, max) {
        errors.insert(field.to_string(), message);
    }
    value.trim().to_string()
}

/// For PATCH bodies: tells "field absent" (`None`) from "field: null"
/// (`Some(None)`). Use with `#[serde(default, deserialize_with = "nullable")]`.
pub fn nullable<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(d).map(Some)
}

/// A parsed PATCH text field (see [`patch_text`]) applied over the current
/// value: absent keeps it, null or blank clears it.
pub fn merged<T: Into<String>>(patch: Option<Option<T>>, current: Option<String>) -> Option<String> {
    match patch {
        None => current,
        Some(given) => given.map(Into::into),
    }
}

/// For `#[serde(deserialize_with = …)]` on fields serde parses (domain
/// enums): a refused value's message names the field ("field `x`: unknown
/// variant …"), which serde_json does not do by itself, so the 422's
/// `details` can say which field it was (see `json_error`).
pub fn named_field<'de, D: serde::Deserializer<'de>, T: serde::de::DeserializeOwned>(
    field: &str,
    d: D,
) -> Result<T, D::Error> {
    use serde::de::Error;
    let value = serde_json::Value::deserialize(d)?;
    T::deserialize(value).map_err(|e| D::Error::custom(format!("field `{field}`: {e}")))
}

/// Parses an optional text field of a PATCH body (see [`nullable`]):
/// absent stays absent (`None`), null or blank clears it (`Some(None)`),
/// anything else must parse.
pub fn patch_text<T>(
    field: Option<Option<String>>,
    parse: impl FnOnce(&str) -> Result<T, String>,
) -> Result<Option<Option<T>>, String> {
    field.map(|v| text::optional(v.as_deref(), parse)).transpose()
}

/// The `Idempotency-Key` header of a command (see `crate::commands`).
pub fn idempotency_header(req: &HttpRequest) -> Result<Option<String>, AppError> {
    match req.headers().get("idempotency-key") {
        None => Ok(None),
        Some(v) => {
            let key = v.to_str().map_err(|_| AppError::field("Idempotency-Key", "must be visible ASCII"))?.trim();
            if key.is_empty() || key.len() > 128 {
                return Err(AppError::field("Idempotency-Key", "1–128 characters"));
            }
            Ok(Some(key.to_string()))
        }
    }
}

/// Turns collected field errors into a 422, or carries on.
pub fn finish(errors: crate::error::FieldErrors) -> Result<(), AppError> {
    if errors.is_empty() { Ok(()) } else { Err(AppError::validation(errors)) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_names_come_out_of_serde_messages() {
        assert_eq!(field_in_serde_message("unknown field `nope`, expected one of `a`").as_deref(), Some("nope"));
        assert_eq!(field_in_serde_message("missing field `name` at line 1").as_deref(), Some("name"));
        assert_eq!(field_in_serde_message("invalid type: string"), None);
    }
}
