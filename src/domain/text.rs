//! Text people type into Rinkside, parsed once at the edge. Each type's
//! `parse` is the only way to make one and its error is the message a 422
//! shows for the field, so a value of the type is known good wherever it
//! travels (the `SubscriberEmail` pattern of zero-to-production).
//!
//! The rules, decided once for both databases (PostgreSQL cannot store a NUL
//! at all, SQLite stores anything):
//! - text is trimmed, and lengths count characters, not bytes;
//! - no text holds a control character (C0, DEL or C1), except that
//!   multi-line [`PlainText`] keeps tab, line feed and carriage return;
//! - names ([`Name`]) also refuse the invisible formatting characters that
//!   reorder or hide what a reader sees ([`is_invisible_formatting`]):
//!   bidi overrides, embeddings, isolates and marks, and zero-width spaces.
//!   Zero-width joiners stay: scripts and emoji need them. Free text keeps
//!   the bidi marks too: people writing right-to-left need them there.

pub mod schema;

use std::fmt;

/// The characters names refuse besides control characters: they reorder or
/// hide text, so a name could read as something it is not (`Evil`, U+202E,
/// `gnp.exe` shows as "Evilexe.png").
pub fn is_invisible_formatting(c: char) -> bool {
    matches!(c,
        '\u{00AD}'                 // soft hyphen
        | '\u{061C}'               // Arabic letter mark
        | '\u{180E}'               // Mongolian vowel separator
        | '\u{200B}'               // zero-width space
        | '\u{200E}' | '\u{200F}'  // left-to-right and right-to-left marks
        | '\u{202A}'..='\u{202E}'  // bidi embeddings and overrides
        | '\u{2060}'..='\u{2064}'  // word joiner, invisible operators
        | '\u{2066}'..='\u{2069}'  // bidi isolates
        | '\u{FEFF}' // zero-width no-break space
    )
}

const REQUIRED: &str = "is required";
const ONE_LINE: &str = "must be one line without control characters";
const NO_CONTROLS: &str = "must not contain control characters other than tabs and line breaks";
const VISIBLE: &str = "must not contain invisible formatting characters (such as right-to-left overrides)";

/// A text over `max` characters (Unicode scalar values, as the client's
/// counters count), refused saying how long it is — "201 characters; at
/// most 200" — where cutting it would lose words without the writer
/// seeing; `None` within the limit.
pub fn too_long(v: &str, max: usize) -> Option<String> {
    let n = v.chars().count();
    (n > max).then(|| format!("{n} characters; at most {max}"))
}

fn at_most(max: usize) -> String {
    format!("at most {max} characters")
}

/// The rules of [`Name`] with a maximum chosen at run time (for helpers
/// whose callers pass one): the trimmed name, or the message.
pub fn name(raw: &str, max: usize) -> Result<String, String> {
    let v = raw.trim();
    if v.is_empty() {
        return Err(REQUIRED.into());
    }
    if v.chars().count() > max {
        return Err(at_most(max));
    }
    if v.chars().any(char::is_control) {
        return Err(ONE_LINE.into());
    }
    if v.chars().any(is_invisible_formatting) {
        return Err(VISIBLE.into());
    }
    Ok(v.to_string())
}

/// The rules of [`PlainText`] with a maximum chosen at run time: the
/// trimmed text, or the message.
pub fn text(raw: &str, max: usize) -> Result<String, String> {
    let v = raw.trim();
    if v.is_empty() {
        return Err(REQUIRED.into());
    }
    if v.chars().count() > max {
        return Err(at_most(max));
    }
    if v.chars().any(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r')) {
        return Err(NO_CONTROLS.into());
    }
    Ok(v.to_string())
}

/// An optional text field: absent or blank is `None`, anything else must
/// parse.
pub fn optional<T>(raw: Option<&str>, parse: impl FnOnce(&str) -> Result<T, String>) -> Result<Option<T>, String> {
    match raw.map(str::trim).filter(|v| !v.is_empty()) {
        None => Ok(None),
        Some(v) => parse(v).map(Some),
    }
}

/// The string accessors every text type shares.
macro_rules! text_accessors {
    ($name:ident $(<const $max:ident: usize>)?) => {
        impl$(<const $max: usize>)? $name$(<$max>)? {
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl$(<const $max: usize>)? AsRef<str> for $name$(<$max>)? {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl$(<const $max: usize>)? From<$name$(<$max>)?> for String {
            fn from(v: $name$(<$max>)?) -> String {
                v.0
            }
        }

        impl$(<const $max: usize>)? fmt::Display for $name$(<$max>)? {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }
    };
}

/// A name a person reads: of a person (60), a facility, team, season,
/// division or roster (120). One line, 1 to `MAX` characters, no control or
/// invisible formatting characters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Name<const MAX: usize>(String);

impl<const MAX: usize> Name<MAX> {
    pub fn parse(raw: &str) -> Result<Self, String> {
        name(raw, MAX).map(Self)
    }
}
text_accessors!(Name<const MAX: usize>);

/// Free text (a description, a bio): 1 to `MAX` characters over as many
/// lines as wanted; tabs and line breaks are the only control characters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlainText<const MAX: usize>(String);

impl<const MAX: usize> PlainText<MAX> {
    pub fn parse(raw: &str) -> Result<Self, String> {
        text(raw, MAX).map(Self)
    }
}
text_accessors!(PlainText<const MAX: usize>);

/// A username: 3–30 ASCII letters, digits, `_`, `.` or `-` (so it reads the
/// same everywhere and needs no escaping in a URL).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Username(String);

impl Username {
    pub fn parse(raw: &str) -> Result<Self, String> {
        let v = raw.trim();
        let ok_chars = v.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'));
        if (3..=30).contains(&v.chars().count()) && ok_chars {
            Ok(Self(v.to_string()))
        } else {
            Err("3–30 letters, digits, '_', '.' or '-'".into())
        }
    }
}
text_accessors!(Username);

/// A plausible email address: `local@host.tld`, at most 254 characters, with
/// nothing invisible in it (no spaces, control or formatting characters).
/// Whether it receives mail is not ours to know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Email(String);

impl Email {
    pub fn parse(raw: &str) -> Result<Self, String> {
        let v = raw.trim();
        let visible = !v.chars().any(|c| c.is_whitespace() || c.is_control() || is_invisible_formatting(c));
        let shaped = v.split_once('@').is_some_and(|(local, host)| {
            !local.is_empty() && host.contains('.') && !host.starts_with('.') && !host.ends_with('.')
        });
        if v.chars().count() <= 254 && visible && shaped {
            Ok(Self(v.to_string()))
        } else {
            Err("must be an email address".into())
        }
    }
}
text_accessors!(Email);

/// An absolute http(s) URL with a host, at most 2,048 characters, kept as
/// typed (trimmed). Spaces and control characters are refused rather than
/// percent-encoded: the URL parser would quietly drop or encode them while
/// the raw text is what gets stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpUrl(String);

impl HttpUrl {
    pub const MAX: usize = 2048;

    pub fn parse(raw: &str) -> Result<Self, String> {
        let v = raw.trim();
        if v.chars().count() > Self::MAX {
            return Err(at_most(Self::MAX));
        }
        let visible = !v.chars().any(|c| c.is_whitespace() || c.is_control());
        match url::Url::parse(v) {
            Ok(u) if visible && matches!(u.scheme(), "http" | "https") && u.host().is_some() => Ok(Self(v.to_string())),
            _ => Err("must be an http(s) URL".into()),
        }
    }
}
text_accessors!(HttpUrl);

/// A phone number as people write it ("+1 555 0100", "555-0100 ext. 12"):
/// one line of at most 40 characters, no control or invisible characters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhoneNumber(String);

impl PhoneNumber {
    pub fn parse(raw: &str) -> Result<Self, String> {
        name(raw, 40).map(Self)
    }
}
text_accessors!(PhoneNumber);

/// An IANA time zone name, e.g. "America/Toronto".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeZoneName(String);

impl TimeZoneName {
    pub fn parse(raw: &str) -> Result<Self, String> {
        let v = raw.trim();
        match v.parse::<chrono_tz::Tz>() {
            Ok(_) => Ok(Self(v.to_string())),
            Err(_) => Err("must be an IANA time zone such as America/Toronto".into()),
        }
    }
}
text_accessors!(TimeZoneName);

/// What a person searches for (`?q=`): trimmed, at most 100 characters, no
/// control characters; empty means "everything". Wildcards are not special:
/// the query layer makes `%` and `_` match themselves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchTerm(String);

impl SearchTerm {
    pub const MAX: usize = 100;

    pub fn parse(raw: &str) -> Result<Self, String> {
        let v = raw.trim();
        if v.chars().count() > Self::MAX {
            return Err(at_most(Self::MAX));
        }
        if v.chars().any(char::is_control) {
            return Err(ONE_LINE.into());
        }
        Ok(Self(v.to_string()))
    }
}
text_accessors!(SearchTerm);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_trimmed_required_and_bounded_in_characters() {
        assert_eq!(Name::<5>::parse("  Élan ").unwrap().as_str(), "Élan");
        assert_eq!(Name::<5>::parse("   "), Err("is required".into()));
        assert_eq!(Name::<5>::parse("ÉÉÉÉÉ").unwrap().as_str(), "ÉÉÉÉÉ", "characters, not bytes");
        assert_eq!(Name::<5>::parse("ÉÉÉÉÉÉ"), Err("at most 5 characters".into()));
    }

    #[test]
    fn a_name_is_one_line_without_control_characters() {
        for bad in ["a\u{0}b", "a\tb", "a\nb", "a\rb", "a\u{7}b", "a\u{1b}[31m", "a\u{7f}b", "a\u{85}b", "a\u{9f}b"] {
            assert_eq!(Name::<60>::parse(bad), Err(ONE_LINE.into()), "{bad:?}");
        }
    }

    #[test]
    fn a_name_refuses_invisible_formatting_but_keeps_scripts_and_emoji() {
        for mark in ['\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}', '\u{2066}', '\u{2067}', '\u{2068}']
            .into_iter()
            .chain(['\u{2069}', '\u{200E}', '\u{200F}', '\u{200B}', '\u{FEFF}', '\u{061C}'])
        {
            assert_eq!(Name::<60>::parse(&format!("Evil{mark}gnp.exe")), Err(VISIBLE.into()), "U+{:04X}", mark as u32);
        }
        for good in ["مرحبا", "Zoë O'Neil-Søren", "Family 👨\u{200D}👩\u{200D}👧", "می\u{200C}خواهم", "Rink #2 (North)"]
        {
            assert_eq!(Name::<60>::parse(good).unwrap().as_str(), good);
        }
    }

    #[test]
    fn plain_text_keeps_tabs_and_line_breaks_only() {
        let text = "Line one\r\nLine two\n\tindented";
        assert_eq!(PlainText::<100>::parse(text).unwrap().as_str(), text);
        assert_eq!(
            PlainText::<100>::parse("right\u{200F}to-left marks stay").unwrap().as_str(),
            "right\u{200F}to-left marks stay"
        );
        for bad in ["a\u{0}b", "ding\u{7}", "\u{1b}[31mred", "a\u{7f}", "a\u{85}b"] {
            assert_eq!(PlainText::<100>::parse(bad), Err(NO_CONTROLS.into()), "{bad:?}");
        }
        assert_eq!(PlainText::<3>::parse("abcd"), Err("at most 3 characters".into()));
    }

    #[test]
    fn optional_text_treats_blank_as_absent() {
        assert_eq!(optional(None, PlainText::<10>::parse), Ok(None));
        assert_eq!(optional(Some("  "), PlainText::<10>::parse), Ok(None));
        assert_eq!(optional(Some(" x "), PlainText::<10>::parse).unwrap().unwrap().as_str(), "x");
        assert!(optional(Some("x\u{0}"), PlainText::<10>::parse).is_err());
    }

    #[test]
    fn usernames_are_3_to_30_plain_ascii_characters() {
        for good in ["sam_goalie", "al.ice", "bob-2", "abc", &"x".repeat(30)] {
            assert_eq!(Username::parse(good).unwrap().as_str(), good);
        }
        assert_eq!(Username::parse("  bob  ").unwrap().as_str(), "bob");
        for bad in ["al", "al ice", "ålice", "a\u{0}bc", "bob\u{202E}", &"x".repeat(31)] {
            assert!(Username::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn emails_have_a_local_part_and_a_dotted_host_and_nothing_invisible() {
        for good in ["alice@example.com", "a.b+c@mail.example.org", " bob@rink.ca "] {
            assert!(Email::parse(good).is_ok(), "{good}");
        }
        for bad in [
            "front-desk",
            "@example.com",
            "a@example",
            "a@.example.com",
            "a@example.com.",
            "a b@example.com",
            "a\u{0}@example.com",
            "a\u{202E}@example.com",
        ] {
            assert_eq!(Email::parse(bad), Err("must be an email address".into()), "{bad:?}");
        }
        assert!(Email::parse(&format!("{}@example.com", "a".repeat(250))).is_err());
    }

    #[test]
    fn urls_are_absolute_http_with_a_host_and_nothing_hidden() {
        for good in ["https://rink.example/logo.png", "http://10.0.0.1:8080/x?y=1"] {
            assert_eq!(HttpUrl::parse(good).unwrap().as_str(), good);
        }
        for bad in [
            "javascript:alert(1)",
            "/me.png",
            "ftp://rink",
            "rink",
            "https://rink.example/a\u{0}b",
            "https://rink.example/a b",
            "https://rink.example/\tx",
        ] {
            assert_eq!(HttpUrl::parse(bad), Err("must be an http(s) URL".into()), "{bad:?}");
        }
        let long = format!("https://rink.example/{}", "x".repeat(HttpUrl::MAX));
        assert_eq!(HttpUrl::parse(&long), Err("at most 2048 characters".into()));
    }

    #[test]
    fn phone_numbers_and_time_zones() {
        assert_eq!(PhoneNumber::parse("+1 555 0100").unwrap().as_str(), "+1 555 0100");
        assert!(PhoneNumber::parse("555\n0100").is_err());
        assert!(PhoneNumber::parse(&"5".repeat(41)).is_err());
        assert_eq!(TimeZoneName::parse(" America/Toronto ").unwrap().as_str(), "America/Toronto");
        assert!(TimeZoneName::parse("Mars/Olympus").is_err());
        assert!(TimeZoneName::parse("UTC\u{0}").is_err());
    }

    #[test]
    fn a_search_term_may_be_empty_but_not_long_or_controlled() {
        assert_eq!(SearchTerm::parse("  ").unwrap().as_str(), "");
        assert_eq!(SearchTerm::parse(" 100% _x_ ").unwrap().as_str(), "100% _x_");
        assert!(SearchTerm::parse("a\u{0}").is_err());
        assert!(SearchTerm::parse(&"x".repeat(101)).is_err());
    }
}

#[cfg(test)]
mod fuzz {
    use super::*;
    use crate::fuzzing::{self, text as hostile};
    use proptest::prelude::*;

    /// What every accepted text shares: trimmed, no control characters
    /// (but the line breaks and tabs plain text keeps).
    fn clean(v: &str, multi_line: bool) -> bool {
        v == v.trim() && !v.chars().any(|c| c.is_control() && !(multi_line && matches!(c, '\t' | '\n' | '\r')))
    }

    proptest! {
        #![proptest_config(fuzzing::config(2_000))]

        /// Every text type takes any string: accepted values keep the type's
        /// rules and parse again to themselves; refusals are a message.
        #[test]
        fn any_text_is_accepted_by_the_rules_or_refused(raw in hostile()) {
            if let Ok(v) = Name::<60>::parse(&raw) {
                prop_assert!(clean(v.as_str(), false) && !v.as_str().chars().any(is_invisible_formatting));
                prop_assert!((1..=60).contains(&v.as_str().chars().count()));
                prop_assert_eq!(Name::<60>::parse(v.as_str()), Ok(v.clone()));
            }
            if let Ok(v) = PlainText::<1000>::parse(&raw) {
                prop_assert!(clean(v.as_str(), true) && v.as_str().chars().count() <= 1000);
                prop_assert_eq!(PlainText::<1000>::parse(v.as_str()), Ok(v.clone()));
            }
            if let Ok(v) = Username::parse(&raw) {
                prop_assert!(v.as_str().is_ascii() && (3..=30).contains(&v.as_str().len()));
            }
            if let Ok(v) = Email::parse(&raw) {
                prop_assert!(clean(v.as_str(), false) && v.as_str().contains('@'));
            }
            if let Ok(v) = HttpUrl::parse(&raw) {
                prop_assert!(clean(v.as_str(), false) && v.as_str().chars().count() <= HttpUrl::MAX);
                prop_assert_eq!(HttpUrl::parse(v.as_str()), Ok(v.clone()));
            }
            if let Ok(v) = PhoneNumber::parse(&raw) {
                prop_assert!(clean(v.as_str(), false));
            }
            if let Ok(v) = TimeZoneName::parse(&raw) {
                prop_assert!(v.as_str().parse::<chrono_tz::Tz>().is_ok());
            }
            if let Ok(v) = SearchTerm::parse(&raw) {
                prop_assert!(clean(v.as_str(), false) && v.as_str().chars().count() <= SearchTerm::MAX);
            }
            let _ = optional(Some(&raw), Email::parse);
        }
    }
}
