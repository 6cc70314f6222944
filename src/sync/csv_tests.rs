use chrono_tz::America::Toronto;
use proptest::prelude::*;

use super::*;
use crate::sync::schedule::{assert_matches_expected, assert_well_formed, fixture, fuzz_config, mutated};

const HEADER: &str =
    "Game ID,Date,Start Time,End Time,Rink,Division,Home Team,Away Team,Home Goals,Away Goals,Game Type";

fn games(body: &str) -> Vec<Game> {
    parse(body.as_bytes(), Toronto).unwrap().games
}

fn only_game(body: &str) -> Game {
    let mut games = games(body);
    assert_eq!(games.len(), 1);
    games.remove(0)
}

fn message(body: &str) -> String {
    let ScheduleError::NotASchedule(message) = parse(body.as_bytes(), Toronto).unwrap_err();
    message
}

#[test]
fn the_fixture_csv_is_the_expected_season() {
    let schedule = parse(&fixture("league.csv"), Toronto).unwrap();
    assert_matches_expected(&schedule, true);
    assert!(schedule.teams.iter().all(|t| t.external_id == fallback_team_id(&t.name, t.division.as_deref())));
}

#[test]
fn a_bom_is_skipped() {
    let body = format!("\u{FEFF}{HEADER}\r\n1,2026-09-08,20:30,21:40,Rink A,Adult C1,A,B,,,\r\n");
    assert_eq!(only_game(&body).external_id, "1");
}

#[test]
fn quoted_fields_hold_delimiters_doubled_quotes_and_line_breaks() {
    let body = format!(
        "{HEADER}\n\
         1,2026-09-08,20:30,21:40,\"Rink A, North\",Adult C1,\"The \"\"Real\"\" Deal\",\"Blue\nLiners\",,,\n\
         2,2026-09-09,20:30,,, , \"Z\" ,Y,,,\n"
    );
    let games = games(&body);
    assert_eq!(games[0].rink.as_deref(), Some("Rink A, North"));
    assert_eq!((games[0].home.as_str(), games[0].away.as_str()), ("The \"Real\" Deal", "Blue\nLiners"));
    assert_eq!(
        (games[1].home.as_str(), games[1].rink.as_deref()),
        ("Z", None),
        "spaces around a quoted field are dropped"
    );
}

#[test]
fn header_names_are_matched_loosely() {
    let body = "GAME #;game_date;Time;END-TIME;Arena;League;HOME;Visitors;HG;AG;type\n\
                7;2026-09-08;20:30;21:40;Rink A;Adult D;A;B;3;1;Playoff\n";
    let game = only_game(body);
    assert_eq!(
        (game.external_id.as_str(), game.rink.as_deref(), game.division.as_deref()),
        ("7", Some("Rink A"), Some("Adult D"))
    );
    assert_eq!((game.home_goals, game.away_goals, game.game_type.as_deref()), (Some(3), Some(1), Some("Playoff")));
}

#[test]
fn an_end_before_the_start_is_the_next_day() {
    let game = only_game(&format!("{HEADER}\n1,2026-09-08,23:00,00:10,Rink A,Adult D,A,B,,,\n"));
    assert_eq!(game.end_local.map(|e| e.to_string()).as_deref(), Some("2026-09-09 00:10:00"));
    assert_eq!(game.end_utc_ms, Some(game.start_utc_ms + 70 * 60_000));
}

#[test]
fn a_semicolon_or_tab_delimiter_is_taken_from_the_header() {
    let semicolon = "Date;Start;Home;Away;Rink\n2026-09-08;20:30;Montréal, Les;Ottawa;Rink A\n";
    assert_eq!(only_game(semicolon).home, "Montréal, Les");
    let tab = "Date\tStart\tHome\tAway\n2026-09-08\t20:30\tA, B\tC\n";
    assert_eq!(only_game(tab).home, "A, B");
}

#[test]
fn us_dates_and_am_pm_times_are_read() {
    let game = only_game("Date,Start,End,Home,Away\n9/8/2026,8:30 PM,9:40 p.m.,A,B\n");
    assert_eq!(game.start_local.to_string(), "2026-09-08 20:30:00");
    assert_eq!(game.end_local.map(|e| e.to_string()).as_deref(), Some("2026-09-08 21:40:00"));
    assert_eq!(parse_time("12:15 AM"), NaiveTime::from_hms_opt(0, 15, 0));
    assert_eq!(parse_time("12:15pm"), NaiveTime::from_hms_opt(12, 15, 0));
    assert_eq!(parse_time("8 PM"), NaiveTime::from_hms_opt(20, 0, 0));
    assert_eq!(parse_time("20:30:15"), NaiveTime::from_hms_opt(20, 30, 15));
    for bad in ["13:00 PM", "0:30 AM", "24:00", "8", "8:5", "-1:30", "8:30:"] {
        assert_eq!(parse_time(bad), None, "{bad}");
    }
    assert_eq!(parse_date("2026/09/08"), NaiveDate::from_ymd_opt(2026, 9, 8));
    for bad in ["2026-13-01", "08-09-26", "+2026-09-08", "20260908", "9/8/99999"] {
        assert_eq!(parse_date(bad), None, "{bad}");
    }
}

#[test]
fn a_missing_required_column_is_named() {
    assert_eq!(
        message("Date,Start,Home,Rink\n2026-09-08,20:30,A,Rink A\n"),
        "line 1: the header has no away team column (away, away team, visitor, visiting team, visitors)"
    );
    let both = message("\n\nGame,Time,Home,Away\n");
    assert_eq!(both, "line 3: the header has no date column (date, game date)");
}

#[test]
fn bad_cells_are_refused_with_their_line() {
    let bad_date = format!("{HEADER}\n1,2026-09-08,20:30,,,,A,B,,,\n\n2,2026-13-01,20:30,,,,A,B,,,\n");
    assert_eq!(message(&bad_date), "line 4: the date `2026-13-01` is not a date");
    assert_eq!(
        message(&format!("{HEADER}\n1,2026-09-08,25:00,,,,A,B,,,\n")),
        "line 2: the start time `25:00` is not a time"
    );
    assert_eq!(
        message(&format!("{HEADER}\n1,2026-09-08,20:30,late,,,A,B,,,\n")),
        "line 2: the end time `late` is not a time"
    );
    assert_eq!(
        message(&format!("{HEADER}\n1,2026-09-08,20:30,,,,A,B,-1,0,\n")),
        "line 2: home goals `-1` is not a score"
    );
    assert_eq!(message(&format!("{HEADER}\n1,2026-09-08,,,,,A,B,,,\n")), "line 2: no start time");
    assert_eq!(message(&format!("{HEADER}\n1,,20:30,,,,A,B,,,\n")), "line 2: no date");
    let multi_line = format!("{HEADER}\n1,2026-09-08,20:30,,\"Rink\nA\",,A,B,,,\n2,soon,20:30,,,,A,B,,,\n");
    assert_eq!(message(&multi_line), "line 4: the date `soon` is not a date", "a line break inside quotes counts");
    assert_eq!(
        message(&format!("{HEADER}\n1,2026-09-08,20:30,,\"Rink A,,A,B,,,\n")),
        "line 2: a quoted field is not closed"
    );
}

#[test]
fn blank_lines_empty_rows_and_rows_without_both_teams_are_skipped() {
    let body = format!("\n{HEADER}\n\n,,,,,,,,,,\r\n1,2026-09-08,20:30,,,,A,B,,,\n2,2026-09-08,21:30,,,,A,,,,\n\n");
    let ids: Vec<String> = games(&body).into_iter().map(|g| g.external_id).collect();
    assert_eq!(ids, ["1"]);
}

#[test]
fn empty_goals_mean_not_played_and_short_rows_are_padded() {
    let game = only_game(&format!("{HEADER}\n1,2026-09-08,20:30,21:40,Rink A,Adult C1,A,B\n"));
    assert_eq!((game.home_goals, game.away_goals, game.game_type), (None, None, None));
}

#[test]
fn without_an_id_column_games_get_fallback_ids_and_teams_get_name_keys() {
    let body = "Date,Start,Rink,Division,Home,Away\n\
                2026-09-08,19:00,Rink A,Adult D,Polar Bears,Wolverines\n\
                2026-09-08,21:00,Rink A,Adult D,Polar Bears,Wolverines\n";
    let schedule = parse(body.as_bytes(), Toronto).unwrap();
    let ids: Vec<&str> = schedule.games.iter().map(|g| g.external_id.as_str()).collect();
    assert_eq!(ids, ["2026-09-08|rink a|polar bears|wolverines", "2026-09-08|rink a|polar bears|wolverines|2"]);
    let teams: Vec<&str> = schedule.teams.iter().map(|t| t.external_id.as_str()).collect();
    assert_eq!(teams, ["polar bears|adult d", "wolverines|adult d"]);
}

#[test]
fn a_status_column_can_cancel_a_game() {
    let body = "Date,Start,Home,Away,Status\n2026-09-08,19:00,A,B,Cancelled\n2026-09-08,21:00,C,D,Scheduled\n";
    let cancelled: Vec<bool> = games(body).into_iter().map(|g| g.cancelled).collect();
    assert_eq!(cancelled, [true, false]);
}

#[test]
fn empty_or_headerless_bodies_are_refused() {
    assert_eq!(message(""), "not a schedule: the CSV is empty");
    assert_eq!(message("\r\n \n"), "not a schedule: the CSV is empty");
    assert!(message("hello world").starts_with("line 1: the header has no date column"));
}

#[test]
fn a_header_line_is_recognised_by_two_known_columns() {
    assert!(looks_like_header(HEADER));
    assert!(looks_like_header("\"Date\";\"Home\""));
    assert!(!looks_like_header("Date Home Away"));
    assert!(!looks_like_header("name,email"));
    assert!(!looks_like_header(""));
}

const CSV_TOKENS: &[&str] =
    &["\"", "\"\"", ",", ";", "\t", "\r\n", "\n", "\r", "\u{FEFF}", "12:00 PM", "2/30/2026", "99", "-1", "é"];

/// A cell: a piece of CSV grammar or a few arbitrary characters.
fn cell() -> impl Strategy<Value = String> {
    prop_oneof![prop::sample::select(CSV_TOKENS).prop_map(str::to_string), ".{0,8}"]
}

proptest! {
    #![proptest_config(fuzz_config(500))]

    #[test]
    fn fuzz_arbitrary_bytes_never_panic(body in proptest::collection::vec(any::<u8>(), 0..2048)) {
        if let Ok(schedule) = parse(&body, Toronto) {
            assert_well_formed(&schedule);
        }
    }

    #[test]
    fn fuzz_rows_of_hostile_cells_never_panic(
        rows in proptest::collection::vec(proptest::collection::vec(cell(), 0..12), 0..8),
    ) {
        let rows: Vec<String> = rows.iter().map(|row| row.join(",")).collect();
        let body = format!("{HEADER}\n{}", rows.join("\n"));
        if let Ok(schedule) = parse(body.as_bytes(), Toronto) {
            assert_well_formed(&schedule);
        }
    }

    #[test]
    fn fuzz_mutated_csv_never_panics(body in mutated(fixture("league.csv"), CSV_TOKENS)) {
        if let Ok(schedule) = parse(&body, Toronto) {
            assert_well_formed(&schedule);
        }
    }

    #[test]
    fn fuzz_header_sniffing_never_panics(line in ".{0,80}") {
        looks_like_header(&line);
    }
}
