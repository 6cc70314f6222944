//! The rules of the text types as OpenAPI schemas, for the fields that take
//! them (`#[schema(schema_with = schema::name::<120>)]`), so the document
//! says what the server accepts: the same trimming, lengths in characters,
//! and refused characters, as `pattern`s. The tests below hold each pattern
//! to its type's `parse`.
//!
//! A pattern allows the white space around a value that the server trims,
//! and bounds the trimmed length itself (`maxLength` would count the white
//! space too). Patterns are written for both ECMA-262 (what OpenAPI names)
//! and Rust's `regex`: classes of `\uXXXX` escapes, no look-around.
//!
//! Where a rule is not a regular language in practice (an URL the `url`
//! crate parses, an email address of at most 254 characters), the pattern
//! is a plain subset of what the server accepts: every value it admits is
//! accepted, and it says so in the description.

use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{Object, ObjectBuilder, Schema, SchemaType, Type};

/// C0, DEL and C1.
const CONTROL: &str = r"\u0000-\u001F\u007F-\u009F";
/// What no JSON string may hold (`crate::http_input`): controls but tab,
/// line feed and carriage return.
const REFUSED: &str = r"\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F";
/// Unicode White_Space, what `str::trim` removes.
const WHITE_SPACE: &str = r"\t\n\u000B\u000C\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000";
/// The white space a JSON string may hold around a value (the rest of
/// [`WHITE_SPACE`] is [`REFUSED`]).
const TRIMMED: &str = r"\t\n\r \u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000";
/// The white space a query string may hold around a value (no controls at
/// all there).
const TRIMMED_IN_QUERY: &str = r" \u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000";
/// [`super::is_invisible_formatting`].
const INVISIBLE: &str = r"\u00AD\u061C\u180E\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF";

/// A trimmed value of 1 to `max` characters whose first and last characters
/// are `[^{edge}]` and the others `[^{inner}]`, with `around` white space on
/// either side; or only white space when `blank` (absent).
fn trimmed(max: usize, inner: &str, edge: &str, around: &str, blank: bool) -> String {
    let core = match max {
        0 => String::new(),
        1 => format!("[^{edge}]"),
        _ => format!("[^{edge}](?:[^{inner}]{{0,{}}}[^{edge}])?", max - 2),
    };
    let optional = if blank { "?" } else { "" };
    format!("^[{around}]*(?:{core}){optional}[{around}]*$")
}

/// [`super::Name`]: one line, no control or invisible formatting character.
pub fn name_pattern(max: usize, blank: bool) -> String {
    let inner = format!("{CONTROL}{INVISIBLE}");
    trimmed(max, &inner, &format!("{WHITE_SPACE}{inner}"), TRIMMED, blank)
}

/// [`super::PlainText`]: lines; tabs and line breaks are the only controls.
pub fn text_pattern(max: usize, blank: bool) -> String {
    trimmed(max, REFUSED, &format!("{WHITE_SPACE}{REFUSED}"), TRIMMED, blank)
}

/// [`super::SearchTerm`] in a query string: at most 100 characters, blank
/// is everything.
pub fn search_pattern() -> String {
    trimmed(super::SearchTerm::MAX, CONTROL, &format!("{WHITE_SPACE}{CONTROL}"), TRIMMED_IN_QUERY, true)
}

/// [`super::Username`]; or only white space when `blank` (absent).
pub fn username_pattern(blank: bool) -> String {
    let optional = if blank { "?" } else { "" };
    format!("^[{TRIMMED}]*(?:[A-Za-z0-9_.-]{{3,30}}){optional}[{TRIMMED}]*$")
}

/// Exactly `value`, with white space around it (trimmed).
pub fn exactly_pattern(value: &str) -> String {
    let escaped: String = value
        .chars()
        .flat_map(|c| if c.is_ascii_alphanumeric() || c == ' ' { vec![c] } else { vec!['\\', c] })
        .collect();
    format!("^[{TRIMMED}]*{escaped}[{TRIMMED}]*$")
}

/// The time cursor `crate::db::Cursor` gives out: a whole number of up to
/// 18 digits, `_`, and an id of ours (letters, digits, `-` and `.`).
pub fn time_cursor_pattern() -> String {
    "^[+-]?[0-9]{1,18}_[0-9A-Za-z.-]{1,80}$".to_string()
}

/// [`super::Email`], optional (blank is absent): a subset, `local@host` with
/// at most 64 characters before the `@` and 188 after, so at most 253.
pub fn email_pattern() -> String {
    let not = format!("{WHITE_SPACE}{CONTROL}{INVISIBLE}");
    format!("^[{TRIMMED}]*(?:[^@{not}]{{1,64}}@[^.{not}][^{not}]{{0,93}}\\.[^{not}]{{0,92}}[^.{not}])?[{TRIMMED}]*$")
}

/// [`super::HttpUrl`], optional (blank is absent): a subset, `http(s)://`,
/// a host name of up to four dot-separated letters-and-digits labels (the
/// last one starting with a letter, so it is never read as an IP address),
/// an optional port, then path, query and fragment in plain URL characters.
pub fn url_pattern() -> String {
    let label = "[A-Za-z0-9]{1,20}";
    let host = format!("(?:{label}\\.){{0,3}}[A-Za-z][A-Za-z0-9]{{0,19}}");
    let rest = r"(?:[/?#][A-Za-z0-9._~!$&'()*+,;=:@/?#-]{0,1900})?";
    format!("^[{TRIMMED}]*(?:https?://{host}(?::[0-9]{{1,4}})?{rest})?[{TRIMMED}]*$")
}

/// Text with something besides white space in it.
pub fn not_blank_pattern() -> String {
    format!("^[{TRIMMED}]*[^{WHITE_SPACE}{REFUSED}][^{REFUSED}]*$")
}

/// Any text a JSON string may hold (`crate::http_input`): ids and other
/// text a handler looks up rather than parses.
pub fn body_text_pattern() -> String {
    format!("^[^{REFUSED}]*$")
}

/// Any text a query string may hold.
pub fn query_text_pattern() -> String {
    format!("^[^{CONTROL}]*$")
}

fn string(pattern: String, nullable: bool, description: String) -> Object {
    let kind = if nullable { SchemaType::from_iter([Type::String, Type::Null]) } else { SchemaType::new(Type::String) };
    ObjectBuilder::new().schema_type(kind).pattern(Some(pattern)).description(Some(description)).build()
}

/// A required name of 1 to `MAX` characters.
pub fn name<const MAX: usize>() -> Object {
    string(name_pattern(MAX, false), false, format!("1–{MAX} characters after trimming, one line, {NAME_RULES}"))
}

/// A name that may be null, or blank for none.
pub fn optional_name<const MAX: usize>() -> Object {
    string(
        name_pattern(MAX, true),
        true,
        format!("Up to {MAX} characters after trimming, one line, {NAME_RULES}; null or blank for none."),
    )
}

/// A name that may be null (unchanged) but not blank.
pub fn nullable_name<const MAX: usize>() -> Object {
    string(
        name_pattern(MAX, false),
        true,
        format!("1–{MAX} characters after trimming, one line, {NAME_RULES}; null leaves it unchanged."),
    )
}

const NAME_RULES: &str = "without control or invisible formatting characters";

/// Required free text of 1 to `MAX` characters.
pub fn text<const MAX: usize>() -> Object {
    string(text_pattern(MAX, false), false, format!("1–{MAX} characters after trimming; {TEXT_RULES}."))
}

/// Free text that may be null, or blank for none.
pub fn optional_text<const MAX: usize>() -> Object {
    string(
        text_pattern(MAX, true),
        true,
        format!("Up to {MAX} characters after trimming; {TEXT_RULES}; null or blank for none."),
    )
}

const TEXT_RULES: &str = "tabs and line breaks are the only control characters allowed";

/// A username that may be null (unchanged).
pub fn nullable_username() -> Object {
    string(
        username_pattern(false),
        true,
        "3–30 ASCII letters, digits, `_`, `.` or `-`; null leaves it unchanged.".into(),
    )
}

/// A username that may be null or blank (none).
pub fn optional_username() -> Object {
    string(username_pattern(true), true, "3–30 ASCII letters, digits, `_`, `.` or `-`; null or blank for none.".into())
}

/// An email address that may be null or blank (none).
pub fn optional_email() -> Object {
    string(
        email_pattern(),
        true,
        "An email address (`local@host.tld`, at most 254 characters, nothing invisible); null or blank for none. \
         The pattern is a subset of what the server accepts: at most 64 characters before the `@`."
            .into(),
    )
}

/// An http(s) URL that may be null or blank (none).
pub fn optional_url() -> Object {
    string(
        url_pattern(),
        true,
        "An absolute http(s) URL with a host, at most 2,048 characters; null or blank for none. The pattern is a \
         subset of what the server accepts (any URL the WHATWG URL standard parses)."
            .into(),
    )
}

/// A phone number that may be null or blank (none).
pub fn optional_phone() -> Object {
    string(
        name_pattern(40, true),
        true,
        format!(
            "A phone number as people write it: up to 40 characters, one line, {NAME_RULES}; null or blank for none."
        ),
    )
}

/// Any text a JSON string may hold.
pub fn body_text() -> Object {
    string(body_text_pattern(), false, "Text without control characters but tabs and line breaks.".into())
}

/// Text with something besides white space in it.
pub fn not_blank() -> Object {
    string(not_blank_pattern(), false, "Not blank.".into())
}

/// An id or other text the handler looks up.
pub fn id() -> Object {
    string(body_text_pattern(), false, "An id.".into())
}

/// An id that may be null (or, where the handler trims it, blank) for none.
pub fn optional_id() -> Object {
    string(body_text_pattern(), true, "An id, or null for none.".into())
}

/// Exactly `value` (trimmed).
pub fn exactly(value: &str, description: &str) -> Object {
    string(exactly_pattern(value), false, description.into())
}

/// One of `values` exactly (trimmed), blank, or null (blank and null: none).
pub fn optional_one_of(values: &[&str], description: &str) -> Object {
    let alternatives: Vec<String> = values.iter().map(|v| exactly_pattern(v)).collect();
    let mut alternatives: Vec<&str> = alternatives.iter().map(|p| &p[1..p.len() - 1]).collect();
    let blank = format!("[{TRIMMED}]*");
    alternatives.push(&blank);
    string(format!("^({})$", alternatives.join("|")), true, description.into())
}

/// `?q=` of a search.
pub fn search() -> Object {
    string(search_pattern(), false, "Part of the name: up to 100 characters after trimming; blank lists all.".into())
}

/// Text in a query string that the handler looks up (an id).
pub fn query_text() -> Object {
    string(query_text_pattern(), false, "An id: any text without control characters.".into())
}

/// The cursor of a list in time order (`crate::db::Cursor`).
pub fn time_cursor() -> Object {
    string(time_cursor_pattern(), false, "`nextCursor` of the previous page.".into())
}

/// The cursor of a list in name order (`crate::api::orgs`): the name in
/// unpadded base64url, a dot, an id. Not every string of that shape is one
/// (the name must decode to text): pass back `nextCursor`.
pub fn name_cursor() -> Object {
    string(
        format!("^[A-Za-z0-9_-]*\\.[^{CONTROL}]*$"),
        false,
        "`nextCursor` of the previous page (the name in unpadded base64url, `.`, an id).".into(),
    )
}

/// [`super::TimeZoneName`] as the component `TimeZone`: every IANA name
/// `chrono-tz` knows. The server also trims white space around one.
impl utoipa::PartialSchema for super::TimeZoneName {
    fn schema() -> RefOr<Schema> {
        let names: Vec<&str> = chrono_tz::TZ_VARIANTS.iter().map(|tz| tz.name()).collect();
        ObjectBuilder::new()
            .schema_type(Type::String)
            .enum_values(Some(names))
            .description(Some("An IANA time zone name, e.g. `America/Toronto`."))
            .into()
    }
}

impl utoipa::ToSchema for super::TimeZoneName {
    fn name() -> std::borrow::Cow<'static, str> {
        "TimeZone".into()
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Email, HttpUrl, Name, PlainText, SearchTerm, TimeZoneName, Username};
    use super::*;
    use proptest::prelude::*;
    use regex::Regex;

    thread_local! {
        static COMPILED: std::cell::RefCell<std::collections::HashMap<String, Regex>> = Default::default();
    }

    fn matches(pattern: &str, value: &str) -> bool {
        COMPILED.with(|compiled| {
            let mut compiled = compiled.borrow_mut();
            compiled.entry(pattern.to_string()).or_insert_with(|| Regex::new(pattern).unwrap()).is_match(value)
        })
    }

    /// What a JSON string can carry past `crate::http_input`.
    fn passes_the_door(value: &str) -> bool {
        !value.chars().any(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
    }

    /// Characters that sit on the rules' edges, and any others.
    fn tricky() -> impl Strategy<Value = String> {
        let edge = prop::sample::select(vec![
            ' ', '\t', '\n', '\r', '\u{0}', '\u{7}', '\u{b}', '\u{7f}', '\u{85}', '\u{9f}', '\u{a0}', '\u{ad}',
            '\u{200b}', '\u{200d}', '\u{202e}', '\u{2028}', '\u{3000}', '\u{feff}', 'a', 'Z', '0', '.', '@', '-', '_',
            'é', '中', '😀',
        ]);
        prop::collection::vec(prop_oneof![3 => edge, 1 => any::<char>()], 0..12).prop_map(|cs| cs.into_iter().collect())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]

        #[test]
        fn a_name_matches_its_pattern_exactly_when_it_parses(value in tricky()) {
            // What the door refuses, the pattern refuses too.
            let door = passes_the_door(&value);
            prop_assert_eq!(matches(&name_pattern(6, false), &value), door && Name::<6>::parse(&value).is_ok(), "{:?}", value);
            prop_assert_eq!(matches(&name_pattern(1, false), &value), door && Name::<1>::parse(&value).is_ok(), "{:?}", value);
            let blank_or_name = value.trim().is_empty() || Name::<6>::parse(&value).is_ok();
            prop_assert_eq!(matches(&name_pattern(6, true), &value), door && blank_or_name, "{:?}", value);
        }

        #[test]
        fn text_matches_its_pattern_exactly_when_it_parses(value in tricky()) {
            let door = passes_the_door(&value);
            prop_assert_eq!(matches(&text_pattern(5, false), &value), door && PlainText::<5>::parse(&value).is_ok(), "{:?}", value);
            let blank_or_text = value.trim().is_empty() || PlainText::<5>::parse(&value).is_ok();
            prop_assert_eq!(matches(&text_pattern(5, true), &value), door && blank_or_text, "{:?}", value);
        }

        #[test]
        fn not_blank_is_what_it_says(value in tricky()) {
            let expected = passes_the_door(&value) && !value.trim().is_empty();
            prop_assert_eq!(matches(&not_blank_pattern(), &value), expected, "{:?}", value);
        }

        #[test]
        fn a_search_term_matches_its_pattern_exactly_when_it_parses(value in tricky()) {
            // A query string holds no control character at all.
            let value: String = value.chars().filter(|c| !c.is_control()).collect();
            prop_assert_eq!(matches(&search_pattern(), &value), SearchTerm::parse(&value).is_ok(), "{:?}", value);
        }

        #[test]
        fn a_username_matches_its_pattern_exactly_when_it_parses(value in "[ \t]{0,2}[a-z0-9_.@ -]{0,32}[ \n]{0,2}") {
            prop_assert_eq!(matches(&username_pattern(false), &value), Username::parse(&value).is_ok(), "{:?}", value);
            let blank_or_username = value.trim().is_empty() || Username::parse(&value).is_ok();
            prop_assert_eq!(matches(&username_pattern(true), &value), blank_or_username, "{:?}", value);
        }

        #[test]
        fn a_time_cursor_matches_its_pattern_only_when_it_parses(value in "[+-]?[0-9a]{0,20}_?[a-z_]{0,3}") {
            if matches(&time_cursor_pattern(), &value) {
                prop_assert!(crate::db::Cursor::parse(&value).is_some(), "{:?}", value);
            }
        }

        #[test]
        fn every_email_the_pattern_admits_parses(value in string_regex(&email_pattern())) {
            prop_assert!(value.trim().is_empty() || Email::parse(&value).is_ok(), "{:?}", value);
        }

        #[test]
        fn every_url_the_pattern_admits_parses(value in string_regex(&url_pattern())) {
            prop_assert!(value.trim().is_empty() || HttpUrl::parse(&value).is_ok(), "{:?}", value);
        }

        #[test]
        fn what_the_email_and_url_patterns_refuse_the_server_refuses_too(value in tricky()) {
            if !passes_the_door(&value) || value.trim().is_empty() {
                return Ok(());
            }
            if Email::parse(&value).is_err() {
                prop_assert!(!matches(&email_pattern(), &value), "{:?}", value);
            }
            if HttpUrl::parse(&value).is_err() {
                prop_assert!(!matches(&url_pattern(), &value), "{:?}", value);
            }
        }
    }

    /// Strings the pattern matches (the generator takes no anchors).
    fn string_regex(pattern: &str) -> impl Strategy<Value = String> {
        let unanchored = pattern.trim_start_matches('^').trim_end_matches('$');
        proptest::string::string_regex(unanchored).unwrap()
    }

    #[test]
    fn every_time_zone_listed_parses() {
        let schema = serde_json::to_value(<TimeZoneName as utoipa::PartialSchema>::schema()).unwrap();
        let names = schema["enum"].as_array().unwrap();
        assert!(names.len() > 300 && names.iter().any(|n| n == "America/Toronto"));
        for name in names {
            assert!(TimeZoneName::parse(name.as_str().unwrap()).is_ok(), "{name}");
        }
    }

    #[test]
    fn long_values_are_bounded_by_their_trimmed_length() {
        let name = name_pattern(120, false);
        assert!(matches(&name, &format!("  {}\n", "a".repeat(120))));
        assert!(!matches(&name, &"a".repeat(121)));
        let text = text_pattern(1000, true);
        assert!(matches(&text, &format!("{}\t", "a\nb".repeat(333))));
        assert!(!matches(&text, &"ab".repeat(501)));
        assert!(matches(&email_pattern(), &format!("{}@{}.org", "a".repeat(64), "b".repeat(90))));
        let legal = exactly_pattern("2026-11");
        assert!(matches(&legal, " 2026-11\n") && !matches(&legal, "2026-12") && !matches(&legal, "2026-11x"));
        assert!(matches(&exactly_pattern("a.b"), "a.b") && !matches(&exactly_pattern("a.b"), "axb"));
    }
}
