//! Input hygiene at the door of `/api`, before routing and before any
//! handler: a request whose percent-decoded path holds a control character
//! is answered 404 (no id has one), one whose decoded query string does 422
//! naming `query`, and one whose JSON body (up to the 64 KiB the JSON
//! extractor accepts) has a string with a control character other than tab,
//! line feed or carriage return 422 naming the top-level field; a JSON
//! body that is not an object (an array, a string, …) is a 422 naming
//! `body`: every body the API takes is an object, and serde would otherwise
//! read an array as a struct's fields in order (`[null, null]` as `{}`).
//!
//! Why here: PostgreSQL refuses a NUL in text outright (a 500 before this)
//! while SQLite stores anything, so one decision has to hold for both, on
//! every route, including those whose handlers do not parse their text into
//! the `domain::text` types yet. Those types refuse more (a name is one line
//! and has no invisible formatting); this only keeps out what no text field
//! accepts. A database that still refuses a character is answered 422 too
//! (`error.rs`), never 500. See docs/conventions.md.

use crate::error::AppError;
use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::error::PayloadError;
use actix_web::http::header::{CONTENT_LENGTH, CONTENT_TYPE};
use actix_web::middleware::Next;
use actix_web::{Error, HttpMessage, ResponseError, web::Bytes, web::BytesMut};
use futures_util::{Stream, StreamExt};
use serde_json::Value;
use std::pin::Pin;

/// Largest JSON body we accept; larger answers 413 `payload_too_large`.
pub const MAX_JSON_BYTES: usize = 64 * 1024;

/// The middleware (`App::wrap(from_fn(refuse_control_characters))`).
pub async fn refuse_control_characters(
    mut req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, Error> {
    if req.path().starts_with("/api/") {
        let refusal = if has_control(&String::from_utf8_lossy(&percent_decode(req.path()))) {
            Some(AppError::not_found("route"))
        } else if query_has_control(req.query_string()) {
            Some(AppError::field("query", "must not contain control characters"))
        } else if is_json(&req) {
            json_refusal(&mut req).await
        } else {
            None
        };
        if let Some(err) = refusal {
            return Ok(req.into_response(err.error_response()).map_into_right_body());
        }
    }
    Ok(next.call(req).await?.map_into_left_body())
}

/// Any control character (C0, DEL, C1).
fn has_control(s: &str) -> bool {
    s.chars().any(char::is_control)
}

/// What no text field accepts: control characters but tab and line breaks.
fn is_refused_in_text(c: char) -> bool {
    c.is_control() && !matches!(c, '\t' | '\n' | '\r')
}

/// `%XX` sequences decoded to bytes; anything else as it is.
fn percent_decode(s: &str) -> Vec<u8> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok());
        match (bytes[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    out
}

fn query_has_control(query: &str) -> bool {
    url::form_urlencoded::parse(query.as_bytes()).any(|(k, v)| has_control(&k) || has_control(&v))
}

fn is_json(req: &ServiceRequest) -> bool {
    req.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|ct| ct.contains("json"))
}

/// Reads the body (up to [`MAX_JSON_BYTES`]), puts it back for the handler,
/// and says what is wrong with it, if anything. A larger body is passed on
/// unread: the JSON extractor refuses it with 413.
async fn json_refusal(req: &mut ServiceRequest) -> Option<AppError> {
    let declared = req.headers().get(CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<usize>().ok());
    if declared.is_some_and(|n| n > MAX_JSON_BYTES) {
        return None;
    }
    let mut payload = req.take_payload();
    let mut body = BytesMut::new();
    while let Some(chunk) = payload.next().await {
        match chunk {
            Ok(chunk) => body.extend_from_slice(&chunk),
            Err(_) => return Some(AppError::BadRequest("could not read the body".into())),
        }
        if body.len() > MAX_JSON_BYTES {
            // Too large to be a JSON body we accept: hand on what was read
            // and the rest, unscanned.
            let read: Result<Bytes, PayloadError> = Ok(body.freeze());
            let stream: Pin<Box<dyn Stream<Item = Result<Bytes, PayloadError>>>> =
                Box::pin(futures_util::stream::once(async move { read }).chain(payload));
            req.set_payload(Payload::from(stream));
            return None;
        }
    }
    let body = body.freeze();
    let refusal = json_body_refusal(&body);
    req.set_payload(Payload::from(body));
    refusal
}

/// What is wrong with a JSON body, if anything: JSON that is not an object,
/// or the first string (or key) holding a control character other than tab
/// and line breaks, named by its top-level field. Bodies that are not JSON
/// pass: the extractor answers them.
fn json_body_refusal(body: &[u8]) -> Option<AppError> {
    let starts_an_object = body.iter().find(|b| !b.is_ascii_whitespace()).is_none_or(|b| *b == b'{');
    if !starts_an_object && serde_json::from_slice::<serde::de::IgnoredAny>(body).is_ok() {
        return Some(AppError::field("body", "must be a JSON object"));
    }
    // Such a character can only be in valid JSON as a `\u` escape, or raw as
    // DEL or a C1 control (UTF-8 C2 80–9F); most bodies have none of these.
    let maybe =
        body.windows(2).any(|w| w == b"\\u" || (w[0] == 0xC2 && (0x80..=0x9F).contains(&w[1]))) || body.contains(&0x7F);
    if !maybe {
        return None;
    }
    let value: Value = serde_json::from_slice(body).ok()?;
    let field = match &value {
        Value::Object(fields) => fields.iter().find_map(|(k, v)| {
            if k.chars().any(is_refused_in_text) {
                Some("body".to_string())
            } else {
                holds_refused(v).then(|| k.clone())
            }
        }),
        other => holds_refused(other).then(|| "body".to_string()),
    }?;
    Some(AppError::field(&field, "must not contain control characters other than tabs and line breaks"))
}

/// Whether any string in the value (keys included) has a refused character.
fn holds_refused(value: &Value) -> bool {
    match value {
        Value::String(s) => s.chars().any(is_refused_in_text),
        Value::Array(items) => items.iter().any(holds_refused),
        Value::Object(fields) => fields.iter().any(|(k, v)| k.chars().any(is_refused_in_text) || holds_refused(v)),
        Value::Null | Value::Bool(_) | Value::Number(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field_of(body: &str) -> Option<String> {
        match json_body_refusal(body.as_bytes()) {
            Some(AppError::Validation { fields, .. }) => fields.keys().next().cloned(),
            Some(other) => panic!("not a 422: {other:?}"),
            None => None,
        }
    }

    #[test]
    fn paths_are_percent_decoded_bytewise() {
        assert_eq!(percent_decode("/api/v1/events/%00"), b"/api/v1/events/\0");
        assert_eq!(percent_decode("/a%2fb%zz%4"), b"/a/b%zz%4");
        assert!(has_control(&String::from_utf8_lossy(&percent_decode("/x%C2%85y"))), "C1 NEL");
        assert!(
            !has_control(&String::from_utf8_lossy(&percent_decode("/users/%FF%FE/follow"))),
            "not UTF-8 is not control"
        );
        assert!(!has_control(&String::from_utf8_lossy(&percent_decode("/users/'%20OR%201=1--"))));
    }

    #[test]
    fn a_query_with_a_control_character_anywhere_is_refused() {
        assert!(query_has_control("q=%00"));
        assert!(query_has_control("q=a%0Ab&limit=2"));
        assert!(query_has_control("%01=x"));
        assert!(!query_has_control("q=100%25+_x_&cursor=abc.def"));
        assert!(!query_has_control(""));
    }

    #[test]
    fn a_json_string_with_a_control_character_names_its_top_level_field() {
        assert_eq!(field_of(r#"{"bio": "a\u0000b"}"#).as_deref(), Some("bio"));
        assert_eq!(
            field_of(r#"{"title": "ok", "groupConfig": {"groups": [{"name": "\u001b[31m"}]}}"#).as_deref(),
            Some("groupConfig")
        );
        assert_eq!(field_of("{\"name\": \"del\u{7f}\"}").as_deref(), Some("name"));
        assert_eq!(field_of("{\"name\": \"nel\u{85}\"}").as_deref(), Some("name"));
        assert_eq!(field_of(r#"{"a\u0000": 1}"#).as_deref(), Some("body"));
        assert_eq!(field_of(r#"["\u0000"]"#).as_deref(), Some("body"));
    }

    #[test]
    fn a_json_body_is_an_object() {
        for body in ["[null, null]", " []", "\"text\"", "12", "null", "true"] {
            assert_eq!(field_of(body).as_deref(), Some("body"), "{body}");
        }
        assert_eq!(field_of(" {}"), None);
        assert_eq!(field_of("[1, "), None, "the extractor answers malformed JSON");
        assert_eq!(field_of(""), None, "the extractor answers an empty body");
    }

    #[test]
    fn tabs_line_breaks_escaped_backslashes_and_unicode_escapes_pass() {
        assert_eq!(field_of(r#"{"bio": "one\ntwo\r\n\tthree"}"#), None);
        assert_eq!(field_of(r#"{"bio": "a literal \\u0000 is six characters"}"#), None);
        assert_eq!(field_of(r#"{"name": "Z\u00f6e \u0645"}"#), None);
        assert_eq!(field_of(r#"{"name": "not JSON"#), None, "the extractor answers malformed JSON");
        assert_eq!(field_of(r#"{"n": 1, "ok": true}"#), None);
    }
}

#[cfg(test)]
mod fuzz {
    use super::*;
    use crate::fuzzing::{self, json_text, text};
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(fuzzing::config(600))]

        /// Paths: decoding any byte soup never panics (a `%` at the very
        /// end, split UTF-8), and encoding then decoding gives the bytes.
        #[test]
        fn percent_decoding_takes_anything_and_inverts_encoding(raw in text(), bytes in fuzzing::bytes()) {
            let _ = has_control(&String::from_utf8_lossy(&percent_decode(&raw)));
            let encoded: String = bytes.iter().map(|b| format!("%{b:02X}")).collect();
            prop_assert_eq!(percent_decode(&encoded), bytes);
        }

        /// Query strings of any bytes are scanned without a panic.
        #[test]
        fn any_query_is_scanned(query in fuzzing::query_string(&["q", "cursor", "limit"])) {
            let _ = query_has_control(&query);
        }

        /// Any body is scanned; a refusal is a 422 naming a field.
        #[test]
        fn any_json_body_is_scanned(body in json_text(&["name", "bio", "title", "groupConfig"])) {
            if let Some(err) = json_body_refusal(&body) {
                prop_assert_eq!(err.code(), "validation_failed");
            }
        }
    }
}
