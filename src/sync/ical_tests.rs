use chrono_tz::America::Toronto;
use proptest::prelude::*;

use super::*;
use crate::sync::schedule::{assert_matches_expected, assert_well_formed, fixture, fuzz_config, mutated, our_fixture};

/// A calendar around `events` (VEVENT bodies, CRLF-joined by the caller or not).
fn calendar(events: &[&str]) -> Vec<u8> {
    let events: String = events.iter().map(|e| format!("BEGIN:VEVENT\r\n{e}\r\nEND:VEVENT\r\n")).collect();
    format!("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n{events}END:VCALENDAR\r\n").into_bytes()
}

fn games(events: &[&str]) -> Vec<Game> {
    parse(&calendar(events), Toronto).unwrap().games
}

fn only_game(event: &str) -> Game {
    let mut games = games(&[event]);
    assert_eq!(games.len(), 1);
    games.remove(0)
}

fn message(result: Result<Schedule, ScheduleError>) -> String {
    let ScheduleError::NotASchedule(message) = result.unwrap_err();
    message
}

const BASIC: &str =
    "UID:g1\r\nDTSTART;TZID=America/Toronto:20260908T203000\r\nDTEND;TZID=America/Toronto:20260908T214000";

#[test]
fn the_fixture_calendar_is_the_expected_season() {
    let schedule = parse(&fixture("league.ics"), Toronto).unwrap();
    assert_matches_expected(&schedule, false);
    assert!(schedule.teams.iter().all(|t| t.external_id == fallback_team_id(&t.name, t.division.as_deref())));
    for game in &schedule.games {
        let digits = game.external_id.trim_start_matches("game-").trim_end_matches("@scheduler.example");
        assert_eq!(game.external_id, format!("game-{digits}@scheduler.example"));
    }
}

#[test]
fn folded_lines_are_joined_even_inside_an_escape() {
    let game = only_game(&format!(
        "{BASIC}\r\nSUMMARY:Frozen Ass\r\n ets vs Blue\r\n\t Liners\r\nDESCRIPTION:Home: x\\\r\n nGame type: Play\n off"
    ));
    assert_eq!((game.home.as_str(), game.away.as_str()), ("Frozen Assets", "Blue Liners"));
    assert_eq!(game.game_type.as_deref(), Some("Playoff"));
}

#[test]
fn escapes_are_undone_and_the_rink_is_the_location_up_to_its_first_comma() {
    let game = only_game(&format!(
        "{BASIC}\r\nSUMMARY:Puck\\, Inc. vs Back\\\\slash\\; Co\r\n\
         LOCATION:Rink A\\, Example Ice Centre\r\nCATEGORIES:Adult\\, C1,Men"
    ));
    assert_eq!((game.home.as_str(), game.away.as_str()), ("Puck, Inc.", "Back\\slash; Co"));
    assert_eq!(game.rink.as_deref(), Some("Rink A"));
    assert_eq!(game.division.as_deref(), Some("Adult, C1"), "an escaped comma stays inside a category");

    let game =
        only_game(&format!("{BASIC}\r\nSUMMARY:A vs B\r\nLOCATION:Rink A,Example Ice Centre\r\nCATEGORIES:Adult D"));
    assert_eq!((game.rink.as_deref(), game.division.as_deref()), (Some("Rink A"), Some("Adult D")));
    assert_eq!(game.home_team_id, fallback_team_id("A", Some("Adult D")));
}

#[test]
fn status_cancelled_marks_the_game_cancelled() {
    assert!(only_game(&format!("{BASIC}\r\nSUMMARY:A vs B\r\nSTATUS:CANCELLED")).cancelled);
    assert!(!only_game(&format!("{BASIC}\r\nSUMMARY:A vs B\r\nSTATUS:CONFIRMED")).cancelled);
}

#[test]
fn utc_times_are_shown_on_the_rink_wall_clock() {
    let game = only_game("UID:g1\r\nDTSTART:20260909T003000Z\r\nDTEND:20260909T014000Z\r\nSUMMARY:A vs B");
    assert_eq!(game.start_local.to_string(), "2026-09-08 20:30:00");
    assert_eq!(game.start_utc_ms, 1_788_913_800_000);
    assert_eq!(game.end_local.map(|e| e.to_string()).as_deref(), Some("2026-09-08 21:40:00"));
}

#[test]
fn floating_other_zone_unknown_zone_and_date_only_starts() {
    let floating = only_game("DTSTART:20260908T203000\r\nSUMMARY:A vs B");
    assert_eq!(floating.start_utc_ms, 1_788_913_800_000);
    let vancouver = only_game("DTSTART;TZID=\"America/Vancouver\":20260908T173000\r\nSUMMARY:A vs B");
    assert_eq!(
        (vancouver.start_utc_ms, vancouver.start_local.to_string()),
        (1_788_913_800_000, "2026-09-08 20:30:00".into())
    );
    let vendor = only_game("DTSTART;TZID=/mozilla.org/20050126_1/America/Toronto:20260908T203000\r\nSUMMARY:A vs B");
    assert_eq!(vendor.start_utc_ms, 1_788_913_800_000);
    let unknown = only_game("DTSTART;TZID=Eastern Standard Time:20260908T203000\r\nSUMMARY:A vs B");
    assert_eq!(unknown.start_utc_ms, 1_788_913_800_000);
    let day = only_game("DTSTART;VALUE=DATE:20260908\r\nSUMMARY:A vs B");
    assert_eq!(day.start_local.to_string(), "2026-09-08 00:00:00");
}

#[test]
fn a_duration_gives_the_end_when_there_is_no_dtend() {
    let game = only_game("DTSTART:20260909T003000Z\r\nDURATION:PT1H10M\r\nSUMMARY:A vs B");
    assert_eq!(game.end_utc_ms, Some(1_788_913_800_000 + 70 * 60_000));
    assert_eq!(parse_duration("P1DT1S"), Some(TimeDelta::seconds(86_401)));
    assert_eq!(parse_duration("-PT1H"), None);
    assert_eq!(parse_duration("P30W"), None);
}

#[test]
fn a_valarm_inside_an_event_does_not_leak_into_the_game() {
    let game = only_game(&format!(
        "{BASIC}\r\nSUMMARY:A vs B\r\n\
         BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT30M\r\n\
         DESCRIPTION:Game type: Reminder\r\nSUMMARY:X vs Y\r\nEND:VALARM\r\n\
         DESCRIPTION:Game type: Regular Season"
    ));
    assert_eq!((game.home.as_str(), game.game_type.as_deref()), ("A", Some("Regular Season")));
}

#[test]
fn a_vtimezone_dtstart_is_not_taken_for_a_game() {
    let schedule = parse(&fixture("league.ics"), Toronto).unwrap();
    assert!(schedule.games.iter().all(|g| g.start_local.format("%Y").to_string() == "2026"));
}

#[test]
fn summaries_name_home_and_away_in_every_spelling() {
    let teams = |summary: &str| parse_summary(summary).map(|s| (s.home, s.away, s.goals));
    let pair = |home: &str, away: &str, goals| Some((home.to_string(), away.to_string(), goals));
    assert_eq!(teams("Blue Liners vs Top Shelf"), pair("Blue Liners", "Top Shelf", None));
    assert_eq!(teams("Blue Liners VS. Top Shelf"), pair("Blue Liners", "Top Shelf", None));
    assert_eq!(teams("Blue Liners  v  Top Shelf"), pair("Blue Liners", "Top Shelf", None));
    assert_eq!(teams("Blue Liners @ Top Shelf"), pair("Top Shelf", "Blue Liners", None));
    assert_eq!(teams("Blue Liners 4 - 3 Backcheckers"), pair("Blue Liners", "Backcheckers", Some((4, 3))));
    assert_eq!(teams("Team 7 10 - 0 Team 8"), pair("Team 7", "Team 8", Some((10, 0))));
    assert_eq!(teams("Team 7 vs Team 8"), pair("Team 7", "Team 8", None));
    assert_eq!(teams("Learn to Skate"), None);
    assert_eq!(teams(" vs Top Shelf"), None);
    assert_eq!(teams("A 100 - 2 B"), None);
}

#[test]
fn a_home_or_away_suffix_decides_the_home_side_and_is_not_part_of_a_name() {
    let teams = |summary: &str| parse_summary(summary).map(|s| (s.home, s.away, s.goals));
    let pair = |home: &str, away: &str, goals| Some((home.to_string(), away.to_string(), goals));
    assert_eq!(teams("Ice Owls vs. Blue Liners (Away)"), pair("Blue Liners", "Ice Owls", None));
    assert_eq!(teams("Ice Owls vs. Blue Liners (Home)"), pair("Ice Owls", "Blue Liners", None));
    assert_eq!(teams("Ice Owls vs Blue Liners [AWAY] "), pair("Blue Liners", "Ice Owls", None));
    assert_eq!(teams("Ice Owls vs Blue Liners(away)"), pair("Blue Liners", "Ice Owls", None));
    // Once played, the score follows its team.
    assert_eq!(teams("Ice Owls 4 - 1 Blue Liners (Away)"), pair("Blue Liners", "Ice Owls", Some((1, 4))));
    // With `@` the suffix still speaks of the first-named team.
    assert_eq!(teams("Ice Owls @ Blue Liners (Away)"), pair("Blue Liners", "Ice Owls", None));
    assert_eq!(teams("Ice Owls @ Blue Liners (Home)"), pair("Ice Owls", "Blue Liners", None));
    // A name that merely ends in the word keeps it.
    assert_eq!(teams("Road Warriors vs Far From Home"), pair("Road Warriors", "Far From Home", None));
    assert_eq!(teams("(Away)"), None);
}

#[test]
fn away_at_home_is_read_home_side_second() {
    let game = only_game(&format!("{BASIC}\r\nSUMMARY:Wolverines @ Polar Bears"));
    assert_eq!((game.home.as_str(), game.away.as_str()), ("Polar Bears", "Wolverines"));
}

#[test]
fn events_that_are_not_games_are_skipped_but_a_calendar_of_none_is_refused() {
    let schedule = parse(
        &calendar(&[&format!("{BASIC}\r\nSUMMARY:Skills clinic"), &format!("{BASIC}\r\nSUMMARY:A vs B")]),
        Toronto,
    );
    assert_eq!(schedule.unwrap().games.len(), 1);
    let none = parse(&calendar(&[&format!("{BASIC}\r\nSUMMARY:Skills clinic")]), Toronto);
    assert_eq!(message(none), "not a schedule: the calendar has 1 event but no game (a SUMMARY like `Home vs Away`)");
}

#[test]
fn a_calendar_without_events_is_an_empty_schedule() {
    assert_eq!(parse(&calendar(&[]), Toronto).unwrap(), Schedule::default());
    assert_eq!(parse(b"BEGIN:VCALENDAR\nEND:VCALENDAR", Toronto).unwrap(), Schedule::default());
}

#[test]
fn events_without_uid_get_fallback_ids_that_keep_a_doubleheader_apart() {
    let first = "DTSTART:20260908T190000\r\nSUMMARY:A vs B\r\nLOCATION:Rink A";
    let second = "DTSTART:20260908T210000\r\nSUMMARY:A vs B\r\nLOCATION:Rink A";
    let ids: Vec<String> = games(&[first, second]).into_iter().map(|g| g.external_id).collect();
    assert_eq!(ids, ["2026-09-08|rink a|a|b", "2026-09-08|rink a|a|b|2"]);
}

#[test]
fn broken_calendars_are_refused_with_the_line() {
    assert_eq!(message(parse(b"BEGIN:VEVENT\r\nEND:VEVENT", Toronto)), "line 1: expected BEGIN:VCALENDAR");
    assert_eq!(message(parse(b"hello", Toronto)), "not iCalendar: no BEGIN:VCALENDAR");
    assert_eq!(message(parse(b"VERSION:2.0\r\nBEGIN:VCALENDAR", Toronto)), "line 1: expected BEGIN:VCALENDAR");
    assert_eq!(message(parse(b"", Toronto)), "not iCalendar: no BEGIN:VCALENDAR");
    let cut = b"BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:A vs B\r\n";
    assert_eq!(message(parse(cut, Toronto)), "the calendar ends inside VEVENT (no END:VEVENT): it was cut short");
    let crossed = b"BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nBEGIN:VALARM\r\nEND:VEVENT\r\n";
    assert_eq!(message(parse(crossed, Toronto)), "line 4: END:VEVENT closes BEGIN:VALARM");
    let bad_start = parse(&calendar(&["DTSTART:20261301T203000\r\nSUMMARY:A vs B"]), Toronto);
    assert_eq!(message(bad_start), "line 4: DTSTART `20261301T203000` is not a date and time");
    let no_start = parse(&calendar(&["UID:g1\r\nSUMMARY:A vs B"]), Toronto);
    assert_eq!(message(no_start), "line 3: `g1` has no DTSTART");
}

#[test]
fn a_line_a_cache_appended_after_end_vcalendar_is_ignored() {
    let schedule = parse(&our_fixture("cache-appended.ics"), Toronto).unwrap();
    let ids: Vec<&str> = schedule.games.iter().map(|g| g.external_id.as_str()).collect();
    assert_eq!(ids, ["game-880001@scheduler.example", "game-880002@scheduler.example"]);
    let trailing = b"BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:20260909T003000Z\r\nSUMMARY:A vs B\r\nEND:VEVENT\r\n\
                     END:VCALENDAR\r\nX-Cache: HIT\r\nEND:VEVENT\r\nSUMMARY:C vs D\r\n";
    assert_eq!(parse(trailing, Toronto).unwrap().games.len(), 1, "whatever follows the calendar is not read");
}

#[test]
fn a_calendar_cut_short_is_still_refused_with_or_without_a_second_one() {
    let cut = b"BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:20260909T003000Z\r\nSUMMARY:A vs B\r\nEND:VEVENT\r\n";
    assert_eq!(message(parse(cut, Toronto)), "the calendar ends inside VCALENDAR (no END:VCALENDAR): it was cut short");
    let second_cut = b"BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\nBEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:A vs B\r\n";
    assert_eq!(
        message(parse(second_cut, Toronto)),
        "the calendar ends inside VEVENT (no END:VEVENT): it was cut short"
    );
    let two = b"BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\nBEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\n\
                DTSTART:20260909T003000Z\r\nSUMMARY:A vs B\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
    assert_eq!(parse(two, Toronto).unwrap().games.len(), 1, "a second calendar object is read");
}

#[test]
fn lf_only_line_breaks_and_lowercase_names_are_read() {
    let body = b"begin:vcalendar\nbegin:vevent\ndtstart:20260909T003000Z\nsummary:A vs B\nend:vevent\nend:vcalendar\n";
    assert_eq!(parse(body, Toronto).unwrap().games.len(), 1);
}

#[test]
fn quoted_parameters_may_hold_colons_and_semicolons() {
    let property = Property::parse(1, "DTSTART;X-NOTE=\"a:b;c\";TZID=America/Toronto:20260908T203000").unwrap();
    assert_eq!(property.param("X-NOTE"), Some("a:b;c"));
    assert_eq!(property.param("TZID"), Some("America/Toronto"));
    assert_eq!(property.value, "20260908T203000");
    assert!(Property::parse(1, "no colon here").is_none());
}

const ICAL_TOKENS: &[&str] = &[
    "\r\n",
    "\r\n ",
    "\n\t",
    "\\",
    "\\n",
    "\\,",
    ",",
    ";",
    ":",
    "\"",
    "BEGIN:VEVENT\r\n",
    "END:VEVENT\r\n",
    "BEGIN:VALARM\r\n",
    "END:VALARM\r\n",
    "END:VCALENDAR\r\n",
    "DTSTART:",
    "DTSTART;VALUE=DATE:20260908\r\n",
    ";TZID=",
    "Z",
    "T",
    "99991231T235959",
    "SUMMARY:A vs B\r\n",
    " @ ",
    " 3 - 2 ",
    "DURATION:P9999999W\r\n",
    "STATUS:CANCELLED\r\n",
];

proptest! {
    #![proptest_config(fuzz_config(500))]

    #[test]
    fn fuzz_arbitrary_bytes_never_panic(body in proptest::collection::vec(any::<u8>(), 0..2048)) {
        if let Ok(schedule) = parse(&body, Toronto) {
            assert_well_formed(&schedule);
        }
    }

    #[test]
    fn fuzz_calendar_like_bytes_never_panic(
        parts in proptest::collection::vec(prop::sample::select(ICAL_TOKENS), 0..40),
        junk in "[ -~]{0,20}",
    ) {
        let body = format!("BEGIN:VCALENDAR\r\n{}{junk}", parts.concat());
        if let Ok(schedule) = parse(body.as_bytes(), Toronto) {
            assert_well_formed(&schedule);
        }
    }

    #[test]
    fn fuzz_mutated_calendars_never_panic(body in mutated(fixture("league.ics"), ICAL_TOKENS)) {
        if let Ok(schedule) = parse(&body, Toronto) {
            assert_well_formed(&schedule);
        }
    }
}
