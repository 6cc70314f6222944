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

use crate::domain::text::schema as text;
use actix_web::{HttpResponse, get, web};
use serde_json::{Map, Value, json};
use std::collections::HashMap;
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
    let mut doc = serde_json::to_value(doc)?;
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
    let envelope = json!({"application/json": {"schema": {"$ref": "#/components/schemas/ErrorEnvelope"}}});
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

/// Text whose schema says nothing about its characters.
fn plain_text(schema: &Value) -> bool {
    let is_string = match &schema["type"] {
        Value::String(t) => t == "string",
        Value::Array(types) => types.iter().any(|t| t == "string"),
        _ => false,
    };
    is_string && ["pattern", "enum", "const", "format"].iter().all(|k| schema.get(*k).is_none())
}

/// The schemas request bodies reach, inline or as components: plain text
/// gets the door's pattern, objects that list properties refuse others.
fn close_request_bodies(doc: &mut Value) {
    let mut pending: Vec<String> = Vec::new();
    for item in doc["paths"].as_object_mut().into_iter().flat_map(|p| p.values_mut()) {
        for (method, operation) in item.as_object_mut().into_iter().flatten() {
            if !METHODS.contains(&method.as_str()) {
                continue;
            }
            let contents =
                operation.get_mut("requestBody").and_then(|b| b.get_mut("content")).and_then(Value::as_object_mut);
            for content in contents.into_iter().flat_map(|c| c.values_mut()) {
                if let Some(schema) = content.get_mut("schema") {
                    close(schema, &mut pending);
                }
            }
        }
    }
    let mut done = std::collections::HashSet::new();
    while let Some(name) = pending.pop() {
        if done.insert(name.clone())
            && let Some(schema) = doc["components"]["schemas"].get_mut(&name)
        {
            close(schema, &mut pending);
        }
    }
}

fn close(schema: &mut Value, refs: &mut Vec<String>) {
    if let Some(name) = schema.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix("#/components/schemas/"))
    {
        refs.push(name.to_string());
    }
    if plain_text(schema) {
        schema["pattern"] = text::body_text_pattern().into();
    }
    let Some(object) = schema.as_object_mut() else { return };
    if object.get("properties").is_some_and(Value::is_object) {
        object.entry("additionalProperties").or_insert(Value::Bool(false));
    }
    for (key, value) in object.iter_mut() {
        match key.as_str() {
            "properties" => value.as_object_mut().into_iter().flat_map(|p| p.values_mut()).for_each(|v| close(v, refs)),
            "items" | "additionalProperties" | "not" => close(value, refs),
            "oneOf" | "anyOf" | "allOf" => value.as_array_mut().into_iter().flatten().for_each(|v| close(v, refs)),
            _ => {}
        }
    }
}

/// `{"type": ["string", "null"]}` → `{"type": "string"}`, and
/// `{"oneOf": [X, {"type": "null"}]}` → X.
pub fn never_null(schema: &mut Value) {
    if let Some(types) = schema.get("type").and_then(Value::as_array) {
        let kept: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
        schema["type"] = if kept.len() == 1 { kept[0].clone() } else { Value::Array(kept) };
    }
    let alternatives = schema.get("oneOf").and_then(Value::as_array).map(|alternatives| {
        alternatives.iter().filter(|a| a.get("type").is_none_or(|t| t != "null")).cloned().collect::<Vec<_>>()
    });
    if let Some(kept) = alternatives
        && kept.len() == 1
        && let Some(object) = schema.as_object_mut()
    {
        object.remove("oneOf");
        if let Some(only) = kept[0].as_object() {
            for (key, value) in only {
                object.entry(key.clone()).or_insert_with(|| value.clone());
            }
        }
    }
}

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
mod tests {
    use super::*;

    fn operations(doc: &Value) -> Vec<(String, String, Value)> {
        let mut out = Vec::new();
        for (path, item) in doc["paths"].as_object().unwrap() {
            for (method, operation) in item.as_object().unwrap() {
                if METHODS.contains(&method.as_str()) {
                    out.push((method.to_uppercase(), path.clone(), operation.clone()));
                }
            }
        }
        out
    }

    #[test]
    fn every_operation_has_a_unique_id_and_described_answers_with_the_envelope_for_errors() {
        let doc = document().unwrap();
        let mut ids = std::collections::HashSet::new();
        for (method, path, operation) in operations(&doc) {
            let id = operation["operationId"].as_str().unwrap().to_string();
            assert!(ids.insert(id.clone()), "{method} {path}: operation id {id} is used twice");
            if let Some(body) = operation.get("requestBody") {
                assert!(body["content"]["application/json"]["schema"].is_object(), "{method} {path}: {body}");
            }
            for (status, response) in operation["responses"].as_object().unwrap() {
                assert!(response["description"].as_str().is_some_and(|d| !d.is_empty()), "{method} {path} {status}");
                if status.as_str() >= "400" {
                    assert_eq!(
                        response["content"]["application/json"]["schema"]["$ref"], "#/components/schemas/ErrorEnvelope",
                        "{method} {path} {status}"
                    );
                }
            }
        }
    }

    #[test]
    fn no_parameter_may_be_null() {
        let doc = document().unwrap();
        for (method, path, operation) in operations(&doc) {
            for parameter in operation["parameters"].as_array().into_iter().flatten() {
                let text = parameter["schema"].to_string();
                assert!(!text.contains("\"null\""), "{method} {path} {}: {text}", parameter["name"]);
            }
        }
    }

    #[test]
    fn operations_that_read_a_bearer_token_say_it_can_be_refused() {
        let doc = document().unwrap();
        assert_eq!(doc["components"]["securitySchemes"][BEARER]["scheme"], "bearer");
        for (method, path, operation) in operations(&doc) {
            let responses = &operation["responses"];
            for status in ["422", "429", "500"] {
                assert!(responses.get(status).is_some(), "{method} {path} lacks {status}");
            }
            let bearer = operation["security"].as_array().is_some_and(|s| s.iter().any(|o| o.get(BEARER).is_some()));
            if bearer {
                assert!(responses.get("401").is_some(), "{method} {path} reads a token but lacks 401");
            }
            if path.contains('{') {
                assert!(responses.get("404").is_some(), "{method} {path} lacks 404");
            }
            if operation.get("requestBody").is_some() {
                assert!(responses.get("400").is_some() && responses.get("413").is_some(), "{method} {path}");
            }
        }
    }
}
