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
            if trimmed.starts_with("pub struct") || trimmed.starts_with("struct") || trimmed.starts_with("pub enum") {
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
