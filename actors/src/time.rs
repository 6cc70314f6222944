//! Time as the project stores it (epoch milliseconds, UTC) and as the wire
//! shows it (RFC 3339).
//!
//! The pure cores take `now_ms` as an argument so tests control the clock;
//! only the actors read the system clock, through [`now_ms`].

use chrono::{DateTime, SecondsFormat, Utc};

/// Milliseconds since the Unix epoch, UTC.
pub fn now_ms() -> i64 {
    Utc::now().timestamp_millis()
}

/// Renders epoch milliseconds as RFC 3339 UTC with millisecond precision,
/// e.g. `2026-11-03T19:30:00.000Z`.
///
/// Out-of-range values (beyond ±262,000 years) render as the epoch rather
/// than failing: a document with one odd timestamp is better than no
/// document, and such values cannot come from `now_ms`.
pub fn rfc3339_from_ms(ms: i64) -> String {
    DateTime::<Utc>::from_timestamp_millis(ms)
        .unwrap_or(DateTime::<Utc>::UNIX_EPOCH)
        .to_rfc3339_opts(SecondsFormat::Millis, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epoch_milliseconds_render_as_utc_rfc3339() {
        assert_eq!(rfc3339_from_ms(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(rfc3339_from_ms(1_793_734_200_123), "2026-11-03T19:30:00.123Z");
    }

    #[test]
    fn out_of_range_times_render_as_the_epoch() {
        assert_eq!(rfc3339_from_ms(i64::MAX), "1970-01-01T00:00:00.000Z");
    }
}
