//! When things may be: the date rules the walkthrough asked for
//! (docs/walkthrough.md › Dates), as pure functions whose error is the
//! sentence a person reads.

use chrono::{DateTime, Utc};

const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// A game may fall this many days before its season's first day or after
/// its last (pre-season games, playoffs that run late).
pub const SEASON_MARGIN_DAYS: i64 = 30;

/// An event may start at most this many days after now (two years: a
/// weekly skate planned for next season fits; a year typed as 2062 does not).
pub const EVENT_HORIZON_DAYS: i64 = 2 * 365 + 1;

/// "Sep 1, 2026" (UTC).
pub fn day_in_words(ms: i64) -> String {
    DateTime::<Utc>::from_timestamp_millis(ms).map(|t| t.format("%b %-d, %Y").to_string()).unwrap_or_default()
}

/// A game's time against its season's dates, give or take
/// [`SEASON_MARGIN_DAYS`].
pub fn game_in_season(at: i64, season_start: i64, season_end: i64) -> Result<(), String> {
    let margin = SEASON_MARGIN_DAYS * DAY_MS;
    if at < season_start.saturating_sub(margin) || at > season_end.saturating_add(margin) {
        return Err(format!(
            "must be during the season ({} – {}), or within {SEASON_MARGIN_DAYS} days of it",
            day_in_words(season_start),
            day_in_words(season_end)
        ));
    }
    Ok(())
}

/// An event's start against now: not more than [`EVENT_HORIZON_DAYS`] ahead.
/// (A start in the past is allowed, for skates written down afterwards; the
/// client asks the organiser to confirm one.)
pub fn event_start_in_reach(start: i64, now: i64) -> Result<(), String> {
    let last = now.saturating_add(EVENT_HORIZON_DAYS * DAY_MS);
    if start > last {
        return Err(format!("must be within two years from today (by {})", day_in_words(last)));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::parse_rfc3339;
    use proptest::prelude::*;

    fn at(s: &str) -> i64 {
        parse_rfc3339(s).unwrap()
    }

    #[test]
    fn a_game_falls_within_its_season_give_or_take_thirty_days() {
        let (start, end) = (at("2026-09-01T00:00:00Z"), at("2027-03-31T00:00:00Z"));
        for ok in ["2026-09-01T00:00:00Z", "2026-08-02T00:00:00Z", "2027-04-30T00:00:00Z", "2026-12-01T19:30:00Z"] {
            assert_eq!(game_in_season(at(ok), start, end), Ok(()), "{ok}");
        }
        for out in ["2026-08-01T23:59:59Z", "2027-04-30T00:00:01Z", "2031-01-01T00:00:00Z", "1990-01-01T00:00:00Z"] {
            let message = game_in_season(at(out), start, end).unwrap_err();
            assert_eq!(message, "must be during the season (Sep 1, 2026 – Mar 31, 2027), or within 30 days of it");
        }
    }

    #[test]
    fn an_event_starts_within_two_years() {
        let now = at("2026-11-24T12:00:00Z");
        assert_eq!(
            event_start_in_reach(at("2020-01-01T00:00:00Z"), now),
            Ok(()),
            "the past is the client's to confirm"
        );
        assert_eq!(event_start_in_reach(at("2028-11-24T12:00:00Z"), now), Ok(()));
        let message = event_start_in_reach(at("2046-11-24T12:00:00Z"), now).unwrap_err();
        assert_eq!(message, "must be within two years from today (by Nov 24, 2028)");
    }

    proptest! {
        #[test]
        fn the_rules_never_panic_and_a_refusal_is_words(a in any::<i64>(), b in any::<i64>(), c in any::<i64>()) {
            if let Err(m) = game_in_season(a, b, c) { prop_assert!(m.starts_with("must be during the season")); }
            if let Err(m) = event_start_in_reach(a, b.clamp(-4_000_000_000_000, 7_000_000_000_000)) {
                prop_assert!(m.starts_with("must be within two years"));
            }
        }
    }
}
