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

/// utoipa writes a generic type's argument inline (`Page<Post>` is
/// `Page_Post` with `Post`'s whole schema as its items), which leaves the
/// argument's own component unused and a generated client with two
/// unrelated types for one thing. An inline copy of a component becomes a
/// reference to it.
fn refer_to_generic_arguments(doc: &mut Value) {
    let Some(schemas) = doc["components"]["schemas"].as_object_mut() else { return };
    let named: Vec<(String, Value)> = schemas.iter().map(|(n, s)| (n.clone(), s.clone())).collect();
    for (name, schema) in schemas.iter_mut() {
        // utoipa names an instance of a generic type `Type_Argument`.
        if name.contains('_') {
            refer(schema, &named, true);
        }
    }
}

fn refer(schema: &mut Value, named: &[(String, Value)], top: bool) {
    if !top && let Some((name, _)) = named.iter().find(|(_, s)| s == schema) {
        *schema = json!({"$ref": format!("{SCHEMAS}{name}")});
        return;
    }
    match schema {
        Value::Object(object) => object.values_mut().for_each(|v| refer(v, named, false)),
        Value::Array(items) => items.iter_mut().for_each(|v| refer(v, named, false)),
        _ => {}
    }
}

/// The server sends every field of an answer, as `null` when it has no
/// value, except the fields it leaves out when empty
/// (`#[serde(skip_serializing_if)]`). utoipa counts every `Option` as
/// optional, so in the schemas only answers reach, a property that may be
/// `null` is required. A field left out when empty must say
/// `#[schema(nullable = false)]` (it is never `null`), which keeps it
/// optional; `tests::every_field_left_out_when_empty_is_not_nullable`
/// holds the source to that. Schemas requests reach too (`GroupConfig`)
/// are left as they are: there a nullable field may be left out.
fn require_what_is_always_sent(doc: &mut Value) {
    let (requests, answers) = reached(doc);
    if let Some(schemas) = doc["components"]["schemas"].as_object_mut() {
        for (name, schema) in schemas.iter_mut() {
            if answers.contains(name) && !requests.contains(name) {
                require_nullable(schema);
            }
        }
    }
    for item in doc["paths"].as_object_mut().into_iter().flat_map(|p| p.values_mut()) {
        for (method, operation) in item.as_object_mut().into_iter().flatten() {
            if !METHODS.contains(&method.as_str()) {
                continue;
            }
            let responses = operation.get_mut("responses").and_then(Value::as_object_mut);
            for response in responses.into_iter().flat_map(|r| r.values_mut()) {
                let contents = response.get_mut("content").and_then(Value::as_object_mut);
                for content in contents.into_iter().flat_map(|c| c.values_mut()) {
                    if let Some(schema) = content.get_mut("schema") {
                        require_nullable(schema);
                    }
                }
            }
        }
    }
}

fn require_nullable(schema: &mut Value) {
    let Some(object) = schema.as_object_mut() else { return };
    if let Some(properties) = object.get("properties").and_then(Value::as_object) {
        let required: Vec<Value> = object.get("required").and_then(Value::as_array).cloned().unwrap_or_default();
        let mut all = required.clone();
        for (name, property) in properties {
            if nullable(property) && !required.iter().any(|r| r == name) {
                all.push(Value::String(name.clone()));
            }
        }
        if !all.is_empty() {
            object.insert("required".into(), Value::Array(all));
        }
    }
    for (key, value) in object.iter_mut() {
        match key.as_str() {
            "properties" => value.as_object_mut().into_iter().flat_map(|p| p.values_mut()).for_each(require_nullable),
            "items" | "additionalProperties" => require_nullable(value),
            "oneOf" | "anyOf" | "allOf" => value.as_array_mut().into_iter().flatten().for_each(require_nullable),
            _ => {}
        }
    }
}

/// Whether a schema allows `null`: `{"type": [T, "null"]}` or a `oneOf`
/// with `{"type": "null"}`.
fn nullable(schema: &Value) -> bool {
    let typed = schema.get("type").and_then(Value::as_array).is_some_and(|types| types.iter().any(|t| t == "null"));
    let alternative = ["oneOf", "anyOf"].iter().any(|k| {
        schema
            .get(*k)
            .and_then(Value::as_array)
            .is_some_and(|a| a.iter().any(|s| s.get("type").is_some_and(|t| t == "null")))
    });
    typed || alternative
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

    /// Every `#[utoipa::path]` of `dir` (recursively) with the handler's
    /// signature after it: `(file, annotation, signature)`.
    fn annotated_handlers(dir: &std::path::Path, out: &mut Vec<(String, String, String)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                annotated_handlers(&path, out);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let source = std::fs::read_to_string(&path).unwrap();
            let mut rest = source.as_str();
            while let Some(start) = rest.find("#[utoipa::path(") {
                rest = &rest[start..];
                let fn_at = rest.find("fn ").unwrap();
                let (annotation, after) = rest.split_at(fn_at);
                let signature = &after[..after.find('{').unwrap()];
                out.push((path.display().to_string(), annotation.to_string(), signature.to_string()));
                rest = &after[signature.len()..];
            }
        }
    }

    /// The document's `security` comes from the annotations; the
    /// extractors decide what the server does. They must agree: `AuthUser`
    /// is bearer only, `MaybeUser` is optional bearer, and a handler with
    /// neither reads no token and says nothing (the document then says
    /// `security: []`).
    #[test]
    fn every_annotation_says_the_security_its_handler_extracts() {
        let mut handlers = Vec::new();
        annotated_handlers(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut handlers);
        assert!(handlers.len() > 100, "found only {} handlers", handlers.len());
        let mut wrong = Vec::new();
        for (file, annotation, signature) in handlers {
            let annotation: String = annotation.split_whitespace().collect();
            let said = if annotation.contains(r#"security((),("bearerAuth"=[]))"#) {
                "MaybeUser"
            } else if annotation.contains(r#"security(("bearerAuth"=[]))"#) {
                "AuthUser"
            } else if annotation.contains("security(") {
                "something else"
            } else {
                "nothing"
            };
            let takes = if signature.contains("MaybeUser") {
                "MaybeUser"
            } else if signature.contains("AuthUser") {
                "AuthUser"
            } else {
                "nothing"
            };
            if said != takes {
                let name = signature.split_whitespace().nth(1).and_then(|n| n.split('(').next()).unwrap_or_default();
                wrong.push(format!("{file} {name}: takes {takes}, the annotation says {said}"));
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                rust_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }

    /// [`require_what_is_always_sent`] takes a nullable answer field for
    /// one the server always sends; one it leaves out when `None` must say
    /// it is never `null` instead, or the document would require it.
    #[test]
    fn every_field_left_out_when_empty_is_not_nullable() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        rust_files(&root.join("src"), &mut files);
        rust_files(&root.join("actors/src"), &mut files);
        let (mut checked, mut wrong) = (0, Vec::new());
        for file in files {
            let source = std::fs::read_to_string(&file).unwrap();
            let lines: Vec<&str> = source.lines().collect();
            let mut schema_struct = false;
            for (i, line) in lines.iter().enumerate() {
                let attributes = || {
                    lines[..i].iter().rev().take_while(|l| {
                        let l = l.trim_start();
                        l.starts_with("#[") || l.starts_with("//") || l.starts_with(')') || l.starts_with('"')
                    })
                };
                let trimmed = line.trim_start();
                if trimmed.starts_with("pub struct") || trimmed.starts_with("struct") || trimmed.starts_with("pub enum")
                {
                    schema_struct = attributes().any(|a| a.contains("ToSchema"));
                    continue;
                }
                let skipped = attributes().any(|a| a.contains(r#"skip_serializing_if = "Option::is_none""#));
                if schema_struct && skipped && trimmed.contains(": Option<") {
                    checked += 1;
                    if !attributes().any(|a| a.contains("nullable = false")) {
                        wrong.push(format!("{}:{}: {trimmed}", file.display(), i + 1));
                    }
                }
            }
        }
        assert!(checked > 10, "found only {checked} fields left out when empty");
        assert!(
            wrong.is_empty(),
            "left out when None, so never null: add #[schema(nullable = false)]\n{}",
            wrong.join("\n")
        );
    }

    #[test]
    fn answers_require_what_the_server_always_sends() {
        let doc = document().unwrap();
        let schemas = &doc["components"]["schemas"];
        // The object's own part, also where it extends another (`allOf`).
        let own = |name: &str| -> Value {
            let schema = &schemas[name];
            schema["allOf"].as_array().and_then(|parts| parts.last()).unwrap_or(schema).clone()
        };
        let required = |name: &str| -> Vec<String> {
            own(name)["required"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect()
        };
        // `Option` fields, sent as null: required and nullable.
        assert!(required("CheckIn").contains(&"checkedInAt".to_string()), "{:?}", required("CheckIn"));
        assert!(nullable(&own("CheckIn")["properties"]["checkedInAt"]));
        // Left out when empty: optional, never null.
        let game = required("GameView");
        assert!(!game.contains(&"viewer".to_string()), "{game:?}");
        assert!(!nullable(&own("GameView")["properties"]["viewer"]));
        // An input's optional fields stay optional.
        assert!(schemas["PostInput"]["required"].as_array().is_some());
        assert!(
            !schemas["EventInput"]["required"].as_array().into_iter().flatten().any(|r| r == "description"),
            "an edit requires nothing"
        );
        // The generic page refers to its item's own schema.
        assert_eq!(schemas["Page_Post"]["properties"]["items"]["items"]["$ref"], "#/components/schemas/Post");
    }

    #[test]
    fn every_operation_states_its_security() {
        let doc = document().unwrap();
        for (method, path, operation) in operations(&doc) {
            assert!(operation["security"].is_array(), "{method} {path}");
        }
        let public = &doc["paths"]["/api/v1/divisions/scale"]["get"]["security"];
        assert_eq!(public, &json!([]), "an operation that reads no token says so");
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
