//! The document's schemas completed as the server speaks: generics refer
//! to their arguments' schemas, answers require what the server always
//! sends, request bodies refuse unknown properties.

use super::*;

/// utoipa writes a generic type's argument inline (`Page<Post>` is
/// `Page_Post` with `Post`'s whole schema as its items), which leaves the
/// argument's own component unused and a generated client with two
/// unrelated types for one thing. An inline copy of a component becomes a
/// reference to it.
pub(super) fn refer_to_generic_arguments(doc: &mut Value) {
    let Some(schemas) = doc["components"]["schemas"].as_object_mut() else { return };
    let named: Vec<(String, Value)> = schemas.iter().map(|(n, s)| (n.clone(), s.clone())).collect();
    for (name, schema) in schemas.iter_mut() {
        // utoipa names an instance of a generic type `Type_Argument`.
        if name.contains('_') {
            refer(schema, &named, true);
        }
    }
}

pub(super) fn refer(schema: &mut Value, named: &[(String, Value)], top: bool) {
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
pub(super) fn require_what_is_always_sent(doc: &mut Value) {
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

pub(super) fn require_nullable(schema: &mut Value) {
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
pub(super) fn nullable(schema: &Value) -> bool {
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
pub(super) fn plain_text(schema: &Value) -> bool {
    let is_string = match &schema["type"] {
        Value::String(t) => t == "string",
        Value::Array(types) => types.iter().any(|t| t == "string"),
        _ => false,
    };
    is_string && ["pattern", "enum", "const", "format"].iter().all(|k| schema.get(*k).is_none())
}

/// The schemas request bodies reach, inline or as components: plain text
/// gets the door's pattern, objects that list properties refuse others.
pub(super) fn close_request_bodies(doc: &mut Value) {
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

pub(super) fn close(schema: &mut Value, refs: &mut Vec<String>) {
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
