//! The OpenAPI 3.1 document at `/api/openapi.json`: collected from the route
//! and schema annotations of every `/api/v1` handler when the server starts,
//! then completed with what holds for every operation alike, so that a
//! client generated from it works against the server as it is (issue 13,
//! docs/openapi.md):
//!
//! - the `bearerAuth` scheme (a Clerk or dev JWT). Each handler's annotation
//!   says whether it needs a signed-in user (`AuthUser`:
//!   `security(("bearerAuth" = []))`) or reads one when there is one
//!   (`MaybeUser`: `security((), ("bearerAuth" = []))`);
//! - the error answers the layers in front of every handler can give, with
//!   the error envelope as body ([`STANDARD_ERRORS`]); what only one handler
//!   answers (403, 409, …) stays in its annotation;
//! - a description on every answer, which OpenAPI requires;
//! - unique operation ids (handlers of different modules share names such
//!   as `create`), which generated clients need;
//! - parameters (query, path, header) that are never `null`: utoipa
//!   documents an `Option` field as "value or null", but a parameter is
//!   either absent or text, and a client that sends `?status=null` is
//!   refused;
//! - what the door (`crate::http_input`) refuses before any handler, on
//!   every text that does not say more itself: a control character in a
//!   parameter, and one other than tab and line breaks in a JSON string;
//! - `additionalProperties: false` on every object a request body holds
//!   that lists its properties: input types refuse unknown fields
//!   (`#[serde(deny_unknown_fields)]`, STYLE.md), but utoipa says so only
//!   for structs, not for the variants of a tagged enum
//!   (`GameActionInput`);
//! - the `Idempotency-Key` header's rules (`super::idempotency_header`).
//!
//! `scripts/schemathesis.sh` checks the result against the running server.

mod schemas;

pub use schemas::never_null;
use schemas::*;

use crate::domain::text::schema as text;
use actix_web::{HttpResponse, get, web};
use serde_json::{Map, Value, json};
use std::collections::{HashMap, HashSet};
use utoipa_actix_web::AppExt;

/// The document, built once at start and shared.
pub struct OpenApiDoc(pub String);

#[get("/api/openapi.json")]
pub async fn serve(doc: web::Data<OpenApiDoc>) -> HttpResponse {
    HttpResponse::Ok().content_type("application/json").body(doc.0.clone())
}

/// The name operations use for the bearer token in `security`.
pub const BEARER: &str = "bearerAuth";

/// The document of every `/api/v1` route and schema, completed.
pub fn document() -> anyhow::Result<Value> {
    let (_, mut doc) = actix_web::App::new()
        .into_utoipa_app()
        .service(utoipa_actix_web::scope("/api/v1").configure(super::config))
        .split_for_parts();
    doc.info.title = "Rinkside API".into();
    doc.info.contact = None;
    doc.info.license = None;
    doc.info.description = Some(
        "Realtime hockey community platform. See CONTRACT.md for the WebSocket protocol and \
         docs/openapi.md for what this document guarantees."
            .into(),
    );
    doc.merge(<crate::ws::schema::Frames as utoipa::OpenApi>::openapi());
    let mut doc = serde_json::to_value(doc)?;
    crate::ws::schema::add_to(&mut doc);
    complete(&mut doc);
    Ok(doc)
}

/// [`document`] as the JSON served.
pub fn json() -> anyhow::Result<String> {
    Ok(serde_json::to_string_pretty(&document()?)?)
}

/// When the layers in front of a handler answer with an error, whatever the
/// handler: `(status, when it applies, description)`.
const STANDARD_ERRORS: &[(&str, Applies, &str)] = &[
    (
        "400",
        Applies::WithBody,
        "The body is not JSON, or not sent as `Content-Type: application/json` (`bad_request`).",
    ),
    (
        "401",
        Applies::WithBearer,
        "No bearer token where one is needed, or one that is invalid or expired (`unauthorized`).",
    ),
    ("404", Applies::WithPathParameters, "Nothing has that id, or the route does not exist (`not_found`)."),
    ("413", Applies::WithBody, "The body is larger than 64 KiB (`payload_too_large`)."),
    (
        "422",
        Applies::Always,
        "Validation failed (`validation_failed`, `details` maps each refused field to why): a field, a query \
         parameter or a header the operation refuses, or a control character in the query string or in a \
         JSON string (docs/conventions.md).",
    ),
    (
        "429",
        Applies::Always,
        "Too many requests from this address or token, or a live aggregate is overloaded (`rate_limited`); \
         see docs/limits.md.",
    ),
    ("500", Applies::Always, "Something failed inside the server (`internal`; nothing internal is shown)."),
    (
        "503",
        Applies::WithBearer,
        "The session cannot be verified right now: Clerk's signing keys are unreachable (`unavailable`).",
    ),
];

#[derive(Clone, Copy)]
enum Applies {
    Always,
    WithBody,
    WithBearer,
    WithPathParameters,
}

/// The keys of an OpenAPI path item that are operations.
const METHODS: [&str; 8] = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

fn complete(doc: &mut Value) {
    doc["components"]["securitySchemes"] = json!({
        BEARER: {
            "type": "http",
            "scheme": "bearer",
            "bearerFormat": "JWT",
            "description": "A Clerk session token, or with dev auth one from `POST /api/v1/dev/token` (docs/auth.md).",
        }
    });
    doc["servers"] = json!([{"url": "/", "description": "The server that serves this document."}]);
    let envelope = json!({"application/json": {"schema": {"$ref": "#/components/schemas/ErrorEnvelope"}}});
    refer_to_generic_arguments(doc);
    require_what_is_always_sent(doc);
    close_request_bodies(doc);
    let shared_ids = shared_operation_ids(doc);
    let Some(paths) = doc["paths"].as_object_mut() else { return };
    for item in paths.values_mut() {
        let Some(item) = item.as_object_mut() else { continue };
        for (method, operation) in item.iter_mut() {
            if !METHODS.contains(&method.as_str()) {
                continue;
            }
            let Some(operation) = operation.as_object_mut() else { continue };
            unique_operation_id(operation, &shared_ids);
            // An operation that reads no token says so: `[]`, no requirement.
            operation.entry("security").or_insert_with(|| json!([]));
            for parameter in operation.get_mut("parameters").and_then(Value::as_array_mut).into_iter().flatten() {
                if parameter["name"] == "Idempotency-Key" {
                    parameter["schema"] = serde_json::to_value(super::idempotency_key_schema()).unwrap_or_default();
                }
                if let Some(schema) = parameter.get_mut("schema") {
                    never_null(schema);
                    if plain_text(schema) {
                        schema["pattern"] = text::query_text_pattern().into();
                    }
                }
            }
            let facts = Facts::of(operation);
            let responses = operation.entry("responses").or_insert_with(|| json!({}));
            let Some(responses) = responses.as_object_mut() else { continue };
            for (status, applies, description) in STANDARD_ERRORS {
                if facts.apply(*applies) && !responses.contains_key(*status) {
                    responses.insert(status.to_string(), json!({"description": description}));
                }
            }
            for (status, response) in responses.iter_mut() {
                let Some(response) = response.as_object_mut() else { continue };
                let described = response.get("description").and_then(Value::as_str).is_some_and(|d| !d.is_empty());
                if !described {
                    let standard = STANDARD_ERRORS.iter().find(|(s, ..)| s == status).map(|(.., d)| d.to_string());
                    response.insert("description".into(), Value::String(standard.unwrap_or_else(|| reason(status))));
                }
                if status.starts_with('4') || status.starts_with('5') {
                    response.entry("content").or_insert_with(|| envelope.clone());
                }
                if status == "429" {
                    response.entry("headers").or_insert_with(|| {
                        json!({"Retry-After": {
                            "description": "Seconds until a request may succeed (sent by the request rate limits).",
                            "schema": {"type": "integer", "minimum": 1},
                        }})
                    });
                }
            }
        }
    }
}

/// The component schemas a request (body or parameter) or an answer
/// reaches, directly or through other components.
fn reached(doc: &Value) -> (HashSet<String>, HashSet<String>) {
    let (mut requests, mut answers) = (Vec::new(), Vec::new());
    for item in doc["paths"].as_object().into_iter().flat_map(|p| p.values()) {
        for (method, operation) in item.as_object().into_iter().flatten() {
            if !METHODS.contains(&method.as_str()) {
                continue;
            }
            references(&operation["requestBody"], &mut requests);
            references(&operation["parameters"], &mut requests);
            references(&operation["responses"], &mut answers);
            // The socket's frames (`crate::ws::schema`).
            references(&operation["x-websocket"]["clientFrame"], &mut requests);
            references(&operation["x-websocket"]["serverFrame"], &mut answers);
        }
    }
    let schemas = &doc["components"]["schemas"];
    let closure = |mut pending: Vec<String>| {
        let mut seen = HashSet::new();
        while let Some(name) = pending.pop() {
            if let Some(schema) = schemas.get(&name)
                && seen.insert(name)
            {
                references(schema, &mut pending);
            }
        }
        seen
    };
    (closure(requests), closure(answers))
}

/// The component names `schema` refers to, anywhere in it.
fn references(schema: &Value, out: &mut Vec<String>) {
    match schema {
        Value::Object(object) => {
            if let Some(name) = object.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix(SCHEMAS)) {
                out.push(name.to_string());
            }
            object.values().for_each(|v| references(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| references(v, out)),
        _ => {}
    }
}

const SCHEMAS: &str = "#/components/schemas/";

/// What an operation's answers depend on.
struct Facts {
    body: bool,
    bearer: bool,
    path_parameters: bool,
}

impl Facts {
    fn of(operation: &Map<String, Value>) -> Self {
        let parameters = operation.get("parameters").and_then(Value::as_array);
        Facts {
            body: operation.contains_key("requestBody"),
            bearer: operation
                .get("security")
                .and_then(Value::as_array)
                .is_some_and(|options| options.iter().any(|o| o.get(BEARER).is_some())),
            path_parameters: parameters.is_some_and(|ps| ps.iter().any(|p| p["in"] == "path")),
        }
    }

    fn apply(&self, applies: Applies) -> bool {
        match applies {
            Applies::Always => true,
            Applies::WithBody => self.body,
            Applies::WithBearer => self.bearer,
            Applies::WithPathParameters => self.path_parameters,
        }
    }
}

/// Operation ids that more than one operation has.
fn shared_operation_ids(doc: &Value) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    for item in doc["paths"].as_object().into_iter().flat_map(|p| p.values()) {
        for (method, operation) in item.as_object().into_iter().flatten() {
            if let (true, Some(id)) = (METHODS.contains(&method.as_str()), operation["operationId"].as_str()) {
                *seen.entry(id.to_string()).or_default() += 1;
            }
        }
    }
    seen.into_iter().filter(|(_, n)| *n > 1).map(|(id, _)| id).collect()
}

/// A shared id gets the operation's tag in front (`create` of events:
/// `events_create`).
fn unique_operation_id(operation: &mut Map<String, Value>, shared: &[String]) {
    let id = operation.get("operationId").and_then(Value::as_str).unwrap_or_default().to_string();
    if !shared.contains(&id) {
        return;
    }
    if let Some(tag) = operation.get("tags").and_then(|t| t[0].as_str()) {
        let unique = format!("{}_{id}", tag.replace('-', "_"));
        operation.insert("operationId".into(), Value::String(unique));
    }
}

/// The reason phrase of a status, for an answer described by nothing else.
fn reason(status: &str) -> String {
    status
        .parse::<u16>()
        .ok()
        .and_then(|s| actix_web::http::StatusCode::from_u16(s).ok())
        .and_then(|s| s.canonical_reason())
        .unwrap_or("Answer")
        .to_string()
}

#[cfg(test)]
mod tests;
