use chrono::{NaiveDate, NaiveDateTime};
use chrono_tz::America::Toronto;

use super::*;

fn at(s: &str) -> NaiveDateTime {
    NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M").unwrap()
}

fn utc_ms(s: &str) -> i64 {
    DateTime::parse_from_rfc3339(s).unwrap().timestamp_millis()
}

fn game(id: &str, start_utc_ms: i64) -> Game {
    Game {
        external_id: id.to_string(),
        start_local: at("2026-09-08T20:30"),
        end_local: None,
        start_utc_ms,
        end_utc_ms: None,
        rink: None,
        division: None,
        home: "A".into(),
        away: "B".into(),
        home_team_id: "a".into(),
        away_team_id: "b".into(),
        home_goals: None,
        away_goals: None,
        game_type: None,
        cancelled: false,
    }
}

#[test]
fn normalise_name_folds_accents_case_punctuation_and_spacing() {
    assert_eq!(normalise_name("  Les Canadiens   de Montréal!"), "les canadiens de montreal");
    assert_eq!(normalise_name("ÅSE ØSTBY Æble Œuvre Straße"), "ase ostby aeble oeuvre strasse");
    assert_eq!(normalise_name("Łódź Żubry"), "lodz zubry");
    assert_eq!(normalise_name("St. Mary's"), "st marys");
    assert_eq!(normalise_name("Sin-Bin Saints"), "sin bin saints");
    assert_eq!(normalise_name("Zamboni\tDrivers\r\n"), "zamboni drivers");
    assert_eq!(normalise_name("Monte\u{301}al"), "monteal", "decomposed accents are dropped too");
    assert_eq!(normalise_name("Team 7"), "team 7");
    assert_eq!(normalise_name("!!!"), "");
}

#[test]
fn fallback_ids_are_normalised_date_rink_and_teams() {
    let start = at("2026-09-08T20:30");
    assert_eq!(
        fallback_game_id(start, Some("Rink A"), "Back-checkers", "Blue Liners"),
        "2026-09-08|rink a|back checkers|blue liners"
    );
    assert_eq!(fallback_game_id(start, None, "A", "B"), "2026-09-08||a|b");
    assert_eq!(fallback_team_id("Polar  Bears", Some("Adult D")), "polar bears|adult d");
    assert_eq!(fallback_team_id("Polar Bears", None), "polar bears|");
}

#[test]
fn a_repeated_fallback_key_gets_a_numbered_suffix() {
    let mut ids = FallbackIds::default();
    assert_eq!(ids.next("k".into()), "k");
    assert_eq!(ids.next("k".into()), "k|2");
    assert_eq!(ids.next("other".into()), "other");
    assert_eq!(ids.next("k".into()), "k|3");
}

#[test]
fn local_times_convert_with_the_zone_offset_of_their_date() {
    assert_eq!(local_to_utc_ms(at("2026-09-08T20:30"), Toronto), utc_ms("2026-09-09T00:30:00Z"));
    assert_eq!(local_to_utc_ms(at("2026-11-03T20:30"), Toronto), utc_ms("2026-11-04T01:30:00Z"));
}

#[test]
fn a_time_in_the_fall_back_overlap_is_the_earlier_instant() {
    assert_eq!(local_to_utc_ms(at("2026-11-01T01:30"), Toronto), utc_ms("2026-11-01T05:30:00Z"));
}

#[test]
fn a_time_in_the_spring_forward_gap_moves_forward_by_the_gap() {
    // 02:30 does not exist on 2026-03-08 in Toronto; read as EST it is 03:30 EDT.
    assert_eq!(local_to_utc_ms(at("2026-03-08T02:30"), Toronto), utc_ms("2026-03-08T07:30:00Z"));
    assert_eq!(utc_ms_to_local(utc_ms("2026-03-08T07:30:00Z"), Toronto), Some(at("2026-03-08T03:30")));
}

#[test]
fn decoding_strips_boms_and_reads_utf16_and_latin1() {
    assert_eq!(decode_text(b"\xEF\xBB\xBFDate,Home"), "Date,Home");
    assert_eq!(decode_text(b"\xFF\xFEh\x00\xE9\x00"), "hé");
    assert_eq!(decode_text(b"\xFE\xFF\x00h\x00\xE9"), "hé");
    assert_eq!(decode_text(b"Montr\xE9al"), "Montréal");
    assert_eq!(decode_text("Montréal".as_bytes()), "Montréal");
}

#[test]
fn assembling_keeps_the_last_game_per_id_and_sorts_by_time_then_id() {
    let mut later = game("1", 300);
    later.home_goals = Some(2);
    let schedule = Schedule::assemble(Vec::new(), vec![game("1", 100), game("3", 200), game("2", 200), later]);
    let order: Vec<(&str, i64)> = schedule.games.iter().map(|g| (g.external_id.as_str(), g.start_utc_ms)).collect();
    assert_eq!(order, [("2", 200), ("3", 200), ("1", 300)]);
    assert_eq!(schedule.games[2].home_goals, Some(2));
}

#[test]
fn assembling_dedups_teams_by_id_and_sorts_by_name_then_division() {
    let team = |id: &str, name: &str, division: Option<&str>| Team {
        external_id: id.into(),
        name: name.into(),
        division: division.map(str::to_string),
    };
    let teams = vec![
        team("3", "Bears", Some("D")),
        team("1", "Wolves", None),
        team("2", "Bears", Some("C")),
        team("1", "Wolves", Some("C")),
    ];
    let schedule = Schedule::assemble(teams, Vec::new());
    let order: Vec<(&str, Option<&str>)> =
        schedule.teams.iter().map(|t| (t.name.as_str(), t.division.as_deref())).collect();
    assert_eq!(order, [("Bears", Some("C")), ("Bears", Some("D")), ("Wolves", Some("C"))]);
}

#[test]
fn a_schedule_over_the_game_limit_is_refused() {
    let games: Vec<Game> = (0..=MAX_GAMES).map(|i| game(&i.to_string(), 0)).collect();
    let err = Schedule::finish(Vec::new(), games).unwrap_err();
    assert_eq!(err, ScheduleError::NotASchedule("more than 20000 games".into()));
    let games: Vec<Game> = (0..MAX_GAMES).map(|i| game(&i.to_string(), 0)).collect();
    assert_eq!(Schedule::finish(Vec::new(), games).unwrap().games.len(), MAX_GAMES);
}

#[test]
fn formats_have_stable_names_in_code_and_json() {
    for (format, name) in [(Format::DaySmart, "DAYSMART"), (Format::ICalendar, "ICALENDAR"), (Format::Csv, "CSV")] {
        assert_eq!(format.as_str(), name);
        assert_eq!(serde_json::to_value(format).unwrap(), serde_json::json!(name));
    }
}

#[test]
fn only_dates_within_the_plausible_years_pass() {
    assert!(plausible(at("2026-09-08T20:30")));
    assert!(!plausible(NaiveDate::from_ymd_opt(9999, 1, 1).unwrap().and_hms_opt(0, 0, 0).unwrap()));
}
