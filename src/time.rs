//! Times are stored as epoch milliseconds (portable across SQLite and
//! PostgreSQL) and travel as RFC 3339 strings in UTC. These helpers are the
//! one place that converts, including the serde adapters API types use.

use chrono::{DateTime, SecondsFormat, Utc};

pub fn to_rfc3339(ms: i64) -> String {
    DateTime::<Utc>::from_timestamp_millis(ms).unwrap_or_default().to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// Accepts any RFC 3339 offset and normalises to UTC milliseconds.
pub fn parse_rfc3339(s: &str) -> Option<i64> {
    DateTime::parse_from_rfc3339(s.trim()).ok().map(|t| t.with_timezone(&Utc).timestamp_millis())
}

/// `#[serde(with = "crate::time::rfc3339")]` on an `i64` of epoch ms.
pub mod rfc3339 {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(ms: &i64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&super::to_rfc3339(*ms))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
        let raw = String::deserialize(d)?;
        super::parse_rfc3339(&raw).ok_or_else(|| D::Error::custom("expected an RFC 3339 time"))
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
            Some(raw) => {
                super::parse_rfc3339(&raw).map(Some).ok_or_else(|| D::Error::custom("expected an RFC 3339 time"))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_through_utc() {
        let ms = parse_rfc3339("2026-11-22T19:30:00-05:00").unwrap();
        assert_eq!(to_rfc3339(ms), "2026-11-23T00:30:00.000Z");
        assert!(parse_rfc3339("tuesday").is_none());
    }
}
