use chrono_tz::America::Toronto;
use proptest::prelude::*;

use super::*;
use crate::sync::schedule::{assert_matches_expected, assert_well_formed, fixture, fuzz_config, mutated};

const JSON: &[u8] = b"{\"data\": []}";
const ICS: &[u8] = b"BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n";
const CSV: &[u8] = b"Date,Start,Home,Away\n2026-09-08,20:30,A,B\n";

#[test]
fn specific_content_types_pick_their_format() {
    assert_eq!(detect(Some("text/calendar; charset=utf-8"), b"x"), Ok(Format::ICalendar));
    assert_eq!(detect(Some("application/vnd.api+json"), b"x"), Ok(Format::DaySmart));
    assert_eq!(detect(Some("Application/JSON"), b"x"), Ok(Format::DaySmart));
    assert_eq!(detect(Some("text/csv;header=present"), b"x"), Ok(Format::Csv));
    assert_eq!(detect(Some("text/comma-separated-values"), b"x"), Ok(Format::Csv));
}

#[test]
fn generic_or_missing_content_types_leave_it_to_the_content() {
    for content_type in [None, Some("text/plain"), Some("application/octet-stream"), Some(""), Some("nonsense")] {
        assert_eq!(detect(content_type, JSON), Ok(Format::DaySmart));
        assert_eq!(detect(content_type, ICS), Ok(Format::ICalendar));
        assert_eq!(detect(content_type, CSV), Ok(Format::Csv));
    }
}

#[test]
fn unmistakable_content_beats_a_contradicting_content_type() {
    assert_eq!(detect(Some("application/json"), ICS), Ok(Format::ICalendar));
    assert_eq!(detect(Some("text/csv"), JSON), Ok(Format::DaySmart));
    assert_eq!(detect(Some("text/calendar"), JSON), Ok(Format::DaySmart));
}

#[test]
fn a_specific_content_type_beats_a_csv_looking_header() {
    assert_eq!(detect(Some("text/calendar"), CSV), Ok(Format::ICalendar));
}

#[test]
fn sniffing_skips_a_bom_and_whitespace_and_ignores_case() {
    assert_eq!(detect(None, b"\xEF\xBB\xBF \r\n\t{\"data\":[]}"), Ok(Format::DaySmart));
    assert_eq!(detect(None, b"\xEF\xBB\xBF\r\nbegin:vcalendar\r\n"), Ok(Format::ICalendar));
    assert_eq!(detect(None, b"\xEF\xBB\xBFGame ID;Date;Home Team;Away Team\r\n"), Ok(Format::Csv));
}

#[test]
fn anything_else_is_not_a_schedule() {
    let refused = Err(ScheduleError::NotASchedule("not a schedule: expected DaySmart JSON, iCalendar or CSV".into()));
    for body in [&b""[..], b"   ", b"<html><body>Login</body></html>", b"[1,2]", b"name,email\nx,y", b"\xFF\x00\xFE"] {
        assert_eq!(detect(Some("text/plain"), body), refused, "{body:?}");
    }
}

#[test]
fn every_fixture_is_detected_and_parses_to_the_expected_season() {
    let ics = fixture("league.ics");
    assert_eq!(detect(Some("text/plain"), &ics), Ok(Format::ICalendar));
    assert_matches_expected(&parse(Format::ICalendar, &ics, Toronto).unwrap(), false);
    let csv = fixture("league.csv");
    assert_eq!(detect(None, &csv), Ok(Format::Csv));
    assert_matches_expected(&parse(Format::Csv, &csv, Toronto).unwrap(), true);
    let page = fixture("daysmart-events-page-2.json");
    assert_eq!(detect(Some("application/vnd.api+json"), &page), Ok(Format::DaySmart));
    assert_eq!(parse(Format::DaySmart, &page, Toronto).unwrap().games.len(), 10);
}

const CONTENT_TYPES: &[&str] = &["text/csv", "text/calendar", "application/json", "text/plain", ";;", ""];

proptest! {
    #![proptest_config(fuzz_config(500))]

    #[test]
    fn fuzz_detect_then_parse_never_panics(
        body in proptest::collection::vec(any::<u8>(), 0..2048),
        content_type in prop::option::of(prop::sample::select(CONTENT_TYPES)),
    ) {
        if let Ok(format) = detect(content_type, &body)
            && let Ok(schedule) = parse(format, &body, Toronto)
        {
            assert_well_formed(&schedule);
        }
    }

    #[test]
    fn fuzz_mutated_fixtures_detect_and_parse_without_panicking(
        body in prop_oneof![
            mutated(fixture("league.ics"), &["BEGIN:", "\r\n ", ","]),
            mutated(fixture("league.csv"), &["\"", ";", "\n"]),
            mutated(fixture("daysmart-events-page-1.json"), &["{", "\"", "null"]),
        ],
    ) {
        if let Ok(format) = detect(None, &body)
            && let Ok(schedule) = parse(format, &body, Toronto)
        {
            assert_well_formed(&schedule);
        }
    }
}
