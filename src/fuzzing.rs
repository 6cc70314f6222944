//! Test-only: what the fuzz targets share. Every parser of outside input
//! (WebSocket frames and commands, JSON bodies and their custom
//! deserialisers, cursors, topics, times, text fields, headers, bus
//! messages) has a `mod fuzz` beside it that feeds it arbitrary bytes and
//! strings, and hostile JSON built from the field names it expects, with
//! proptest. Each asserts that the parser never panics and refuses with an
//! error value, and where a parser has an encoder, that decoding an
//! encoding gives the value back.
//!
//! There is no nightly toolchain here for cargo-fuzz, so these are
//! property tests over random input rather than coverage-guided fuzzing;
//! the hostile pieces below (number edges, control and bidi characters,
//! near-miss grammar) stand in for the guidance. Case counts keep the whole
//! set within a few seconds of `make test`; run longer with
//! `FUZZ_CASES=100000 cargo test --lib fuzz`.

use proptest::prelude::*;
use serde_json::{Map, Number, Value};

/// The proptest configuration of a fuzz target: `cases` unless `FUZZ_CASES`
/// says otherwise.
pub fn config(cases: u32) -> ProptestConfig {
    let cases = std::env::var("FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(cases);
    ProptestConfig { cases, ..ProptestConfig::default() }
}

/// Arbitrary bytes (not necessarily UTF-8).
pub fn bytes() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(any::<u8>(), 0..300)
}

/// Strings that have broken parsers before: number edges, control, bidi
/// and zero-width characters, escapes, separators our formats use, times
/// at and past the edges chrono and we accept.
const NASTY: &[&str] = &[
    "",
    " ",
    "\t",
    "\n",
    "\r\n",
    "\u{0}",
    "\u{7}",
    "\u{1b}[31m",
    "\u{7f}",
    "\u{85}",
    "\u{9f}",
    "\u{200B}",
    "\u{202E}",
    "\u{2066}",
    "\u{FEFF}",
    "\u{FFFD}",
    "é",
    "👨\u{200D}👩\u{200D}👧",
    "\\u0000",
    "%00",
    "%zz",
    "%",
    "_",
    ".",
    ":",
    "#",
    "@",
    "=",
    "&",
    "\"",
    "`",
    "0",
    "-0",
    "-1",
    "1e309",
    "NaN",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "-9223372036854775809",
    "18446744073709551616",
    "2026-11-22T19:30:00Z",
    "2026-11-22T19:30:00-05:00",
    "1900-01-01T00:00:00+14:00",
    "2200-12-31T23:59:59-14:00",
    "0000-01-01T00:00:00Z",
    "9999-12-31T23:59:59.999999999Z",
    "+275760-09-13T00:00:00Z",
    "2026-02-30T25:61:61Z",
    "event:",
    "game:0190-abc",
    "feed",
    "whsec_",
    "v1,",
    "Bearer ",
    "ATTENDING",
    "GOALIE",
    "GOAL",
    "http://",
    "https://rink.example/x",
    "javascript:alert(1)",
    "America/Toronto",
];

/// One hostile string: a nasty piece, arbitrary Unicode, or a few of both
/// run together (which is how near-misses of a grammar come about).
pub fn text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        3 => prop::sample::select(NASTY).prop_map(str::to_string),
        2 => any::<String>(),
        1 => "[a-z0-9_.:-]{0,12}",
        1 => prop::char::any().prop_map(String::from),
    ];
    prop_oneof![
        2 => piece.clone(),
        1 => prop::collection::vec(piece, 1..5).prop_map(|parts| parts.concat()),
        // Long enough to cross the length limits (names 60–200, URLs 2,048).
        1 => ("[a-zé ]{1,3}", 50usize..2_200).prop_map(|(s, n)| s.repeat(n / s.len().max(1))),
    ]
}

/// Integers at the edges of the ranges the API checks (limits, minutes,
/// scores, jersey numbers) and of `i64`.
const EDGE_INTEGERS: &[i64] = &[0, 1, -1, 2, 59, 60, 61, 99, 100, 101, 499, 500, 501, 999, 1000, i64::MIN, i64::MAX];

/// A JSON number at and around the edges.
fn number() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        prop::sample::select(EDGE_INTEGERS).prop_map(Value::from),
        any::<f64>().prop_map(|f| Number::from_f64(f).map_or(Value::Null, Value::Number)),
    ]
}

/// A JSON value of any shape, leaves biased toward strings and numbers,
/// object keys drawn from `keys` (the fields a type expects) or anything.
pub fn json_with_keys(keys: &'static [&'static str]) -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        4 => text().prop_map(Value::String),
        2 => number(),
        1 => any::<bool>().prop_map(Value::Bool),
        1 => Just(Value::Null),
    ];
    leaf.prop_recursive(4, 48, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((key(keys), inner), 0..6).prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

/// A key: one a type expects (mostly), or any string.
fn key(keys: &'static [&'static str]) -> BoxedStrategy<String> {
    if keys.is_empty() {
        text().boxed()
    } else {
        prop_oneof![6 => prop::sample::select(keys).prop_map(str::to_string), 1 => text()].boxed()
    }
}

/// An object with some of `keys` (the fields a body expects), each holding
/// any value, now and then with a key it does not expect: what a client
/// that knows the shape but not the rules sends.
pub fn object_with(keys: &'static [&'static str]) -> impl Strategy<Value = Value> {
    prop::collection::vec((key(keys), json_with_keys(keys)), 0..8)
        .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<String, Value>>()))
}

/// Any JSON document, as text: a serialised hostile value, arbitrary
/// bytes that are mostly not JSON, or a valid document cut short.
pub fn json_text(keys: &'static [&'static str]) -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        3 => object_with(keys).prop_map(|v| v.to_string().into_bytes()),
        1 => json_with_keys(keys).prop_map(|v| v.to_string().into_bytes()),
        1 => bytes(),
        1 => (object_with(keys), any::<prop::sample::Index>()).prop_map(|(v, cut)| {
            let mut text = v.to_string().into_bytes();
            let at = cut.index(text.len() + 1);
            text.truncate(at);
            text
        }),
    ]
}

/// The words a request type understands, from its OpenAPI schema: every
/// property name and every enum value, at any depth the schema spells out.
/// Hostile JSON built from them gets past `deny_unknown_fields` and the
/// enum tags into the fields' own parsing. Leaked: tests only, a few
/// hundred bytes per type.
pub fn vocabulary<T: utoipa::PartialSchema>() -> &'static [&'static str] {
    fn walk(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Object(map) => {
                if let Some(Value::Object(props)) = map.get("properties") {
                    out.extend(props.keys().cloned());
                }
                if let Some(Value::Array(values)) = map.get("enum") {
                    out.extend(values.iter().filter_map(Value::as_str).map(str::to_string));
                }
                map.values().for_each(|v| walk(v, out));
            }
            Value::Array(items) => items.iter().for_each(|v| walk(v, out)),
            _ => {}
        }
    }
    let mut words = Vec::new();
    walk(&serde_json::to_value(T::schema()).unwrap_or_default(), &mut words);
    words.sort();
    words.dedup();
    Box::leak(
        words.into_iter().map(|w| &*Box::leak(w.into_boxed_str())).collect::<Vec<&'static str>>().into_boxed_slice(),
    )
}

/// One fuzz target per JSON body type: arbitrary documents built from the
/// type's vocabulary are parsed as the JSON extractor would; a refusal
/// must become the contract's 400/422 envelope through the extractor's
/// error handler (`api::json_error`), and an accepted body goes on to the
/// type's own checks, whose refusal must be a 422:
///
/// ```ignore
/// json_bodies! {
///     new_team: NewTeam => |body| body.parse().map(drop);
/// }
/// ```
macro_rules! json_bodies {
    ($($name:ident: $ty:ty $(=> $check:expr)?;)+) => {
        proptest::proptest! {
            #![proptest_config($crate::fuzzing::config(300))]
            $(
                #[test]
                fn $name(raw in $crate::fuzzing::json_text($crate::fuzzing::vocabulary::<$ty>())) {
                    match serde_json::from_slice::<$ty>(&raw) {
                        Ok(_body) => {
                            $(
                                let check: fn($ty) -> $crate::error::AppResult<()> = $check;
                                if let Err(e) = check(_body) {
                                    proptest::prop_assert_eq!(e.code(), "validation_failed", "{:?}", e);
                                }
                            )?
                        }
                        Err(e) => {
                            let status = $crate::api::json_refusal_status(e);
                            proptest::prop_assert!(status == 400 || status == 422, "answered {}", status);
                        }
                    }
                }
            )+
        }
    };
}
pub(crate) use json_bodies;

/// A query string with some of `keys` (and now and then another), values
/// hostile, percent-encoded or raw.
pub fn query_string(keys: &'static [&'static str]) -> impl Strategy<Value = String> {
    let pair = (key(keys), text(), any::<bool>()).prop_map(|(k, v, encode)| {
        if encode {
            let enc = |s: &str| url::form_urlencoded::byte_serialize(s.as_bytes()).collect::<String>();
            format!("{}={}", enc(&k), enc(&v))
        } else {
            format!("{k}={v}")
        }
    });
    prop_oneof![
        4 => prop::collection::vec(pair, 0..6).prop_map(|pairs| pairs.join("&")),
        1 => text(),
    ]
}
