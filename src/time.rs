//! Times are stored as epoch milliseconds (portable across SQLite and
//! PostgreSQL) and travel as RFC 3339 strings in UTC. These helpers are the
//! one place that converts, including the serde adapters API types use.

use chrono::{DateTime, Datelike, SecondsFormat, Utc};
use std::sync::Arc;

/// Epoch milliseconds; injectable so tests can pin time (webhook signatures).
pub type Clock = Arc<dyn Fn() -> i64 + Send + Sync>;

pub fn to_rfc3339(ms: i64) -> String {
    DateTime::<Utc>::from_timestamp_millis(ms).unwrap_or_default().to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// The first year a time the API reads may fall in: hockey records and
/// schedules start after it, and the year 0000 is a typing slip.
pub const FIRST_YEAR: i32 = 1900;
/// The last year a time the API reads may fall in.
pub const LAST_YEAR: i32 = 2200;

/// What the person is told when a time is outside [`FIRST_YEAR`]–[`LAST_YEAR`].
pub const OUT_OF_RANGE: &str = "must be a date between 1900 and 2200";
/// What the person is told when a time is not RFC 3339.
pub const NOT_RFC3339: &str = "must be a date and time, written like 2026-09-01T19:30:00Z";

/// Accepts any RFC 3339 offset, normalises to UTC milliseconds, and keeps to
/// the years 1900–2200 (in UTC); the error is the message for the field.
pub fn parse_rfc3339_checked(s: &str) -> Result<i64, &'static str> {
    let t = DateTime::parse_from_rfc3339(s.trim()).map_err(|_| NOT_RFC3339)?.with_timezone(&Utc);
    if (FIRST_YEAR..=LAST_YEAR).contains(&t.year()) { Ok(t.timestamp_millis()) } else { Err(OUT_OF_RANGE) }
}

/// [`parse_rfc3339_checked`] without saying what is wrong.
pub fn parse_rfc3339(s: &str) -> Option<i64> {
    parse_rfc3339_checked(s).ok()
}

/// The times the API reads, as OpenAPI schemas: `format: date-time` and a
/// pattern for the years. The pattern is a subset of what
/// [`parse_rfc3339_checked`] takes: years 1901–2199 (1900 and 2200 are
/// accepted too unless an offset carries them past the range in UTC),
/// upper-case `T` and `Z`, whole seconds 00–59 and up to nine digits of
/// fraction; white space around the time is trimmed but not described.
pub mod schema {
    use utoipa::openapi::schema::{KnownFormat, Object, ObjectBuilder, SchemaFormat, SchemaType, Type};

    pub const PATTERN: &str = concat!(
        "^(?:190[1-9]|19[1-9][0-9]|2[01][0-9][0-9])-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])",
        "T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]{1,9})?(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])$"
    );

    fn time(nullable: bool, description: &str) -> Object {
        let kind =
            if nullable { SchemaType::from_iter([Type::String, Type::Null]) } else { SchemaType::new(Type::String) };
        ObjectBuilder::new()
            .schema_type(kind)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::DateTime)))
            .pattern(Some(PATTERN))
            .description(Some(description))
            .build()
    }

    /// A required time.
    pub fn date_time() -> Object {
        time(false, "RFC 3339 with an offset, between the years 1900 and 2200 (UTC).")
    }

    /// A time that may be null: unchanged, or none, as the field says.
    pub fn nullable_date_time() -> Object {
        time(true, "RFC 3339 with an offset, between the years 1900 and 2200 (UTC); or null.")
    }
}

/// `#[serde(with = "crate::time::rfc3339")]` on an `i64` of epoch ms.
pub mod rfc3339 {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(ms: &i64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&super::to_rfc3339(*ms))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
        let raw = String::deserialize(d)?;
        super::parse_rfc3339_checked(&raw).map_err(D::Error::custom)
    }
}

/// The same for `Option<i64>`.
pub mod rfc3339_opt {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(ms: &Option<i64>, s: S) -> Result<S::Ok, S::Error> {
        match ms {
            Some(ms) => s.serialize_str(&super::to_rfc3339(*ms)),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
        match Option::<String>::deserialize(d)? {
            None => Ok(None),
            Some(raw) => super::parse_rfc3339_checked(&raw).map(Some).map_err(D::Error::custom),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn every_time_the_schema_admits_is_read(value in proptest::string::string_regex(
            schema::PATTERN.trim_start_matches('^').trim_end_matches('$')).unwrap()
        ) {
            // `format: date-time` also holds: a real day of its month.
            let day = chrono::NaiveDate::parse_from_str(&value[..10], "%Y-%m-%d");
            prop_assume!(day.is_ok());
            prop_assert!(parse_rfc3339_checked(&value).is_ok(), "{:?}", value);
        }
    }

    #[test]
    fn round_trips_through_utc() {
        let ms = parse_rfc3339("2026-11-22T19:30:00-05:00").unwrap();
        assert_eq!(to_rfc3339(ms), "2026-11-23T00:30:00.000Z");
        assert!(parse_rfc3339("tuesday").is_none());
    }

    #[test]
    fn times_keep_to_the_years_1900_to_2200_and_say_so() {
        assert_eq!(parse_rfc3339_checked("tuesday"), Err(NOT_RFC3339));
        for out in ["0000-01-01T00:00:00Z", "1899-12-31T23:59:59Z", "1900-01-01T00:30:00+01:00", "2201-01-01T00:00:00Z"]
        {
            assert_eq!(parse_rfc3339_checked(out), Err(OUT_OF_RANGE), "{out}");
            assert_eq!(parse_rfc3339(out), None, "{out}");
        }
        for inside in ["1900-01-01T00:00:00Z", "2200-12-31T23:59:59Z", "2026-11-22T19:30:00-05:00"] {
            assert!(parse_rfc3339_checked(inside).is_ok(), "{inside}");
        }
        assert!(OUT_OF_RANGE.contains(&FIRST_YEAR.to_string()) && OUT_OF_RANGE.contains(&LAST_YEAR.to_string()));
    }
}

#[cfg(test)]
mod fuzz {
    use super::*;
    use crate::fuzzing::{self, text};
    use proptest::prelude::*;

    /// RFC 3339-shaped strings with any field out of range.
    fn time_like() -> impl Strategy<Value = String> {
        (
            "[+-]?[0-9]{1,6}",
            "[0-9]{1,2}",
            "[0-9]{1,2}",
            prop::sample::select(&["T", "t", " ", "_"][..]),
            "[0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(\\.[0-9]{0,12})?",
            prop::sample::select(&["Z", "z", "+00:00", "-05:00", "+23:59", "+24:00", "-99:99", ""][..]),
        )
            .prop_map(|(y, m, d, t, hms, zone)| format!("{y}-{m}-{d}{t}{hms}{zone}"))
    }

    proptest! {
        #![proptest_config(fuzzing::config(1_000))]

        /// Every time field of every body goes through here: a time within
        /// 1900–2200 or one of the two messages, never a panic.
        #[test]
        fn any_time_parses_within_the_years_or_is_refused(raw in prop_oneof![time_like(), text()]) {
            match parse_rfc3339_checked(&raw) {
                Ok(ms) => {
                    let year = DateTime::<Utc>::from_timestamp_millis(ms).map(|t| t.year());
                    prop_assert!(year.is_some_and(|y| (FIRST_YEAR..=LAST_YEAR).contains(&y)));
                }
                Err(message) => prop_assert!(message == NOT_RFC3339 || message == OUT_OF_RANGE),
            }
        }

        /// Every time we write parses back to the same millisecond.
        #[test]
        fn times_we_write_parse_back(ms in -2_208_988_800_000i64..7_258_118_400_000) {
            prop_assert_eq!(parse_rfc3339(&to_rfc3339(ms)), Some(ms));
        }

        /// Writing any stored number never panics (out-of-range ones come
        /// out as the epoch).
        #[test]
        fn any_stored_time_can_be_written(ms in any::<i64>()) {
            prop_assert!(!to_rfc3339(ms).is_empty());
        }

        /// The serde adapters over any JSON value: a time or an error.
        #[test]
        fn the_serde_adapters_take_any_value(value in fuzzing::json_with_keys(&[])) {
            // A time exactly when the value is text that parses as one;
            // `null` is no time for the optional form.
            let parsed = value.as_str().map(parse_rfc3339_checked);
            match (rfc3339::deserialize(&value), &parsed) {
                (Ok(ms), Some(Ok(expected))) => prop_assert_eq!(ms, *expected),
                (Err(_), Some(Err(_)) | None) => {}
                (got, _) => prop_assert!(false, "{:?} read as {:?}", value, got),
            }
            match (rfc3339_opt::deserialize(&value), &parsed) {
                (Ok(Some(ms)), Some(Ok(expected))) => prop_assert_eq!(ms, *expected),
                (Ok(None), None) => prop_assert!(value.is_null()),
                (Err(_), Some(Err(_))) => {}
                (Err(_), None) => prop_assert!(!value.is_null()),
                (got, _) => prop_assert!(false, "{:?} read as {:?}", value, got),
            }
        }
    }
}

/// The last millisecond of the day `ms` falls in, in the zone named (UTC
/// when the name is unknown or absent).
pub fn end_of_day(ms: i64, zone: Option<&str>) -> i64 {
    use chrono::{Days, TimeZone};
    let tz: chrono_tz::Tz = zone.and_then(|z| z.parse().ok()).unwrap_or(chrono_tz::UTC);
    let Some(now) = DateTime::<Utc>::from_timestamp_millis(ms) else { return ms };
    let local = now.with_timezone(&tz).date_naive();
    let next = local.checked_add_days(Days::new(1)).and_then(|d| d.and_hms_opt(0, 0, 0));
    match next.map(|n| tz.from_local_datetime(&n).earliest()) {
        Some(Some(midnight)) => midnight.timestamp_millis() - 1,
        // A zone that skips midnight: an hour later is still that night.
        _ => ms + 24 * 60 * 60 * 1000,
    }
}

#[cfg(test)]
mod end_of_day_tests {
    use super::*;

    #[test]
    fn the_day_ends_at_local_midnight() {
        // 2026-11-24 18:00 in Toronto is 23:00 UTC; the day ends at 05:00 UTC.
        let six_pm = DateTime::parse_from_rfc3339("2026-11-24T23:00:00Z").unwrap().timestamp_millis();
        let end = end_of_day(six_pm, Some("America/Toronto"));
        assert_eq!(to_rfc3339(end), "2026-11-25T04:59:59.999Z");
        assert_eq!(to_rfc3339(end_of_day(six_pm, None)), "2026-11-24T23:59:59.999Z");
    }
}
