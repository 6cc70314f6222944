//! Weekly skates (docs/series.md): where each event of a series falls, and
//! where it goes when the series is moved, as pure functions of instants and
//! a time zone. A series keeps its wall-clock time in its zone: 21:30 on a
//! Tuesday stays 21:30 when the clocks change.

use chrono::{DateTime, Duration, NaiveDate, NaiveDateTime, TimeZone, Utc};
use chrono_tz::Tz;

/// Most events one series makes: a year of Tuesdays.
pub const MAX_EVENTS: usize = 52;

/// The wall-clock time of `at` in `zone`.
fn local(at: i64, zone: Tz) -> Option<NaiveDateTime> {
    DateTime::<Utc>::from_timestamp_millis(at).map(|t| t.with_timezone(&zone).naive_local())
}

/// The instant of a wall-clock time in `zone`: the earlier of two when the
/// clocks go back, an hour later when it falls in the gap of clocks going
/// forward.
fn instant(wall: NaiveDateTime, zone: Tz) -> Option<i64> {
    zone.from_local_datetime(&wall)
        .earliest()
        .or_else(|| zone.from_local_datetime(&(wall + Duration::hours(1))).earliest())
        .map(|t| t.timestamp_millis())
}

/// The starts of a weekly series whose first event starts at `first`: the
/// same wall-clock time in `zone` every seven days, up to and including the
/// day `until` (a day in `zone`). The error is the sentence a person reads
/// beside `until`.
pub fn weekly_starts(first: i64, zone: Tz, until: NaiveDate) -> Result<Vec<i64>, String> {
    let Some(wall) = local(first, zone) else { return Err("the start is not a time we can place".into()) };
    if until < wall.date() {
        return Err(format!("must not be before the first event ({})", wall.date().format("%b %-d, %Y")));
    }
    let mut starts = Vec::new();
    let mut next = wall;
    while next.date() <= until {
        if starts.len() == MAX_EVENTS {
            let last = wall + Duration::weeks(MAX_EVENTS as i64 - 1);
            return Err(format!(
                "a weekly series has at most {MAX_EVENTS} events (until {})",
                last.date().format("%b %-d, %Y")
            ));
        }
        // The first keeps its exact instant (an ambiguous hour stays the
        // one the organiser picked); the rest are placed in the zone.
        let at = if starts.is_empty() { Some(first) } else { instant(next, zone) };
        starts.push(at.ok_or("the series runs past the times we can place")?);
        next += Duration::weeks(1);
    }
    Ok(starts)
}

/// Moves `at` by the wall-clock shift that took `from` to `to` in `zone`:
/// the shift a series edit applies to every following event (this Tuesday
/// 21:30 → 22:00 moves next Tuesday 21:30 → 22:00, whatever the clocks
/// did in between). `at` itself when a time cannot be placed.
pub fn shifted(at: i64, from: i64, to: i64, zone: Tz) -> i64 {
    match (local(at, zone), local(from, zone), local(to, zone)) {
        (Some(at_wall), Some(from_wall), Some(to_wall)) => instant(at_wall + (to_wall - from_wall), zone).unwrap_or(at),
        _ => at,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::parse_rfc3339;
    use chrono::{Datelike, Timelike};
    use chrono_tz::America::Toronto;
    use proptest::prelude::*;

    fn at(s: &str) -> i64 {
        parse_rfc3339(s).unwrap()
    }

    fn day(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    #[test]
    fn tuesday_nine_thirty_until_march_keeps_its_wall_clock_across_the_change() {
        // Tue Dec 1, 2026 21:30 in Toronto is 02:30 UTC on Wednesday.
        let starts = weekly_starts(at("2026-12-02T02:30:00Z"), Toronto, day("2027-03-30")).unwrap();
        assert_eq!(starts.len(), 18, "Dec 1 … Mar 30, every Tuesday");
        assert_eq!(starts[1], at("2026-12-09T02:30:00Z"));
        // Clocks go forward on Mar 14, 2027: 21:30 EDT is 01:30 UTC.
        assert_eq!(starts[17], at("2027-03-31T01:30:00Z"));
        for s in starts {
            let wall = local(s, Toronto).unwrap();
            assert_eq!((wall.weekday(), wall.hour(), wall.minute()), (chrono::Weekday::Tue, 21, 30));
        }
    }

    #[test]
    fn until_is_inclusive_and_not_before_the_first_day() {
        let first = at("2026-12-02T02:30:00Z"); // Tue Dec 1 in Toronto
        assert_eq!(weekly_starts(first, Toronto, day("2026-12-01")).unwrap().len(), 1);
        assert_eq!(weekly_starts(first, Toronto, day("2026-12-08")).unwrap().len(), 2);
        assert_eq!(weekly_starts(first, Toronto, day("2026-12-07")).unwrap().len(), 1);
        assert_eq!(
            weekly_starts(first, Toronto, day("2026-11-30")).unwrap_err(),
            "must not be before the first event (Dec 1, 2026)"
        );
    }

    #[test]
    fn a_series_has_at_most_fifty_two_events() {
        let first = at("2026-12-02T02:30:00Z");
        assert_eq!(weekly_starts(first, Toronto, day("2027-11-23")).unwrap().len(), 52);
        assert_eq!(
            weekly_starts(first, Toronto, day("2027-11-30")).unwrap_err(),
            "a weekly series has at most 52 events (until Nov 23, 2027)"
        );
    }

    #[test]
    fn a_time_in_the_spring_gap_is_taken_an_hour_later() {
        // Sundays 02:30 in Toronto; Mar 14, 2027 has no 02:30.
        let starts = weekly_starts(at("2027-03-07T07:30:00Z"), Toronto, day("2027-03-21")).unwrap();
        let walls: Vec<_> = starts.iter().map(|s| local(*s, Toronto).unwrap().hour()).collect();
        assert_eq!(walls, [2, 3, 2]);
    }

    #[test]
    fn a_shift_moves_each_event_by_the_same_wall_clock_change() {
        let (from, to) = (at("2026-12-02T02:30:00Z"), at("2026-12-02T03:00:00Z")); // 21:30 → 22:00
        // After the clocks change, 21:30 EDT → 22:00 EDT.
        assert_eq!(shifted(at("2027-03-24T01:30:00Z"), from, to, Toronto), at("2027-03-24T02:00:00Z"));
        // To the next day, every week.
        let wednesday = at("2026-12-03T02:30:00Z");
        assert_eq!(shifted(at("2027-03-24T01:30:00Z"), from, wednesday, Toronto), at("2027-03-25T01:30:00Z"));
    }

    proptest! {
        /// Every series: consecutive starts a week apart on the wall clock,
        /// all on or before `until`, never more than the cap, and the first
        /// exactly the organiser's.
        #[test]
        fn weekly_starts_are_a_week_apart_on_the_wall_clock(
            first in 1_767_225_600_000i64..1_830_297_600_000,
            weeks in 0i64..60,
            extra_days in 0i64..7,
            zone in prop::sample::select(vec![Toronto, chrono_tz::Europe::Helsinki, chrono_tz::Australia::Sydney, chrono_tz::UTC]),
        ) {
            let wall = local(first, zone).unwrap();
            let until = wall.date() + Duration::days(weeks * 7 + extra_days);
            match weekly_starts(first, zone, until) {
                Ok(starts) => {
                    prop_assert_eq!(starts.len() as i64, weeks + 1);
                    prop_assert_eq!(starts[0], first);
                    for pair in starts.windows(2) {
                        let (a, b) = (local(pair[0], zone).unwrap(), local(pair[1], zone).unwrap());
                        prop_assert_eq!(b.date() - a.date(), Duration::weeks(1));
                        prop_assert!(pair[1] > pair[0]);
                    }
                    prop_assert!(local(*starts.last().unwrap(), zone).unwrap().date() <= until);
                }
                Err(message) => {
                    prop_assert!(weeks + 1 > MAX_EVENTS as i64);
                    prop_assert!(message.starts_with("a weekly series has at most 52 events"));
                }
            }
        }

        /// Shifting by no change changes nothing; shifting there and back
        /// returns to the start (away from the hours the clocks skip).
        #[test]
        fn a_shift_there_and_back_is_no_shift(
            at_ms in 1_767_225_600_000i64..1_830_297_600_000,
            from in 1_767_225_600_000i64..1_830_297_600_000,
            minutes in -3000i64..3000,
        ) {
            let to = from + minutes * 60_000;
            prop_assert_eq!(shifted(at_ms, from, from, Toronto), at_ms);
            let wall = local(at_ms, Toronto).unwrap();
            let near_change = |w: NaiveDateTime| (1..=3).contains(&w.hour());
            let moved = shifted(at_ms, from, to, Toronto);
            if !near_change(wall) && !near_change(local(moved, Toronto).unwrap())
                && !near_change(local(from, Toronto).unwrap()) && !near_change(local(to, Toronto).unwrap()) {
                prop_assert_eq!(shifted(moved, to, from, Toronto), at_ms);
            }
        }
    }
}
