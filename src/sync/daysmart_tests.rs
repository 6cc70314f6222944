use chrono_tz::America::Toronto;
use proptest::prelude::*;
use serde_json::{Value, json};

use super::*;
use crate::sync::schedule::{assert_matches_expected, assert_well_formed, fixture, fuzz_config, mutated};

/// A page with one game event whose attributes are `attributes` over a
/// played game's defaults, and the teams 1 and 2 of league 300.
fn page_with(attributes: Value) -> Value {
    let mut event = json!({
        "start": "2026-09-08T20:30:00", "end": "2026-09-08T21:40:00",
        "start_gmt": "2026-09-09T00:30:00", "end_gmt": "2026-09-09T01:40:00",
        "hteam_id": "1", "vteam_id": "2", "resource_id": "10", "event_type_id": "g", "desc": "Playoff",
    });
    for (key, value) in attributes.as_object().unwrap() {
        event[key] = value.clone();
    }
    json!({
        "data": [{"type": "events", "id": "770001", "attributes": event}],
        "included": [
            {"type": "teams", "id": "1", "attributes": {"name": "Frozen Assets", "league_id": "300"}},
            {"type": "teams", "id": "2", "attributes": {"name": "Blue Liners", "league_id": "300"}},
            {"type": "leagues", "id": "300", "attributes": {"name": "Adult C1"}},
            {"type": "resources", "id": "10", "attributes": {"name": "Rink A"}},
        ],
    })
}

fn parse_json(value: &Value) -> Result<Page, ScheduleError> {
    parse_page(value.to_string().as_bytes(), Toronto)
}

fn only_game(value: Value) -> Game {
    let page = parse_json(&value).unwrap();
    assert_eq!(page.schedule.games.len(), 1);
    page.schedule.games.into_iter().next().unwrap()
}

fn message(result: Result<Page, ScheduleError>) -> String {
    let ScheduleError::NotASchedule(message) = result.unwrap_err();
    message
}

#[test]
fn both_fixture_pages_merged_are_the_expected_season() {
    let first = parse_page(&fixture("daysmart-events-page-1.json"), Toronto).unwrap();
    let second = parse_page(&fixture("daysmart-events-page-2.json"), Toronto).unwrap();
    assert_eq!((first.last_page, second.last_page), (2, 2));
    assert_eq!((first.schedule.games.len(), second.schedule.games.len()), (30, 10));
    let merged = merge(vec![first.schedule, second.schedule]);
    assert_matches_expected(&merged, true);
    let ids: Vec<(&str, &str)> = merged.teams.iter().map(|t| (t.name.as_str(), t.external_id.as_str())).collect();
    assert_eq!(
        ids,
        [
            ("Backcheckers", "2204"),
            ("Blue Liners", "2202"),
            ("Frozen Assets", "2201"),
            ("Polar Bears", "2207"),
            ("Sin Bin Saints", "2206"),
            ("Top Shelf", "2203"),
            ("Wolverines", "2208"),
            ("Zamboni Drivers", "2205"),
        ]
    );
}

#[test]
fn merging_pages_twice_over_changes_nothing() {
    let first = parse_page(&fixture("daysmart-events-page-1.json"), Toronto).unwrap().schedule;
    let second = parse_page(&fixture("daysmart-events-page-2.json"), Toronto).unwrap().schedule;
    let once = merge(vec![first.clone(), second.clone()]);
    assert_eq!(merge(vec![first, second.clone(), second]), once);
}

#[test]
fn a_later_page_wins_for_the_same_game() {
    let first = only_game(page_with(json!({"home_score": null, "visiting_score": null})));
    let second = only_game(page_with(json!({"home_score": 3, "visiting_score": 2})));
    let merged = merge(vec![
        Schedule { teams: Vec::new(), games: vec![first] },
        Schedule { teams: Vec::new(), games: vec![second] },
    ]);
    assert_eq!((merged.games[0].home_goals, merged.games[0].away_goals), (Some(3), Some(2)));
}

#[test]
fn a_game_reads_teams_division_rink_type_and_both_clocks() {
    let game = only_game(page_with(json!({"home_score": 4, "visiting_score": 1})));
    assert_eq!((game.home.as_str(), game.away.as_str()), ("Frozen Assets", "Blue Liners"));
    assert_eq!((game.home_team_id.as_str(), game.away_team_id.as_str()), ("1", "2"));
    assert_eq!((game.division.as_deref(), game.rink.as_deref()), (Some("Adult C1"), Some("Rink A")));
    assert_eq!(game.game_type.as_deref(), Some("Playoff"));
    assert_eq!((game.home_goals, game.away_goals), (Some(4), Some(1)));
    assert_eq!(game.start_local.to_string(), "2026-09-08 20:30:00");
    assert_eq!(game.start_utc_ms, 1_788_913_800_000);
    assert_eq!(game.end_utc_ms, Some(1_788_913_800_000 + 70 * 60_000));
}

#[test]
fn hscore_and_vscore_are_read_as_numbers_or_numeric_strings() {
    let game = only_game(page_with(json!({"hscore": "5", "vscore": 0})));
    assert_eq!((game.home_goals, game.away_goals), (Some(5), Some(0)));
}

#[test]
fn null_or_empty_scores_mean_not_played() {
    let game = only_game(page_with(json!({"home_score": null, "visiting_score": "", "hscore": null})));
    assert_eq!((game.home_goals, game.away_goals), (None, None));
}

#[test]
fn negative_or_absurd_goals_are_refused_with_the_game_id() {
    let negative = parse_json(&page_with(json!({"home_score": -1, "visiting_score": 2})));
    assert_eq!(message(negative), "game 770001: home goals -1 is not a score");
    let absurd = parse_json(&page_with(json!({"home_score": 1, "vscore": "100"})));
    assert_eq!(message(absurd), "game 770001: away goals `100` is not a score");
    let words = parse_json(&page_with(json!({"home_score": "three"})));
    assert_eq!(message(words), "game 770001: home goals `three` is not a score");
}

#[test]
fn numeric_ids_are_read_like_string_ids() {
    let mut page = page_with(json!({"hteam_id": 1, "vteam_id": 2.0, "resource_id": 10}));
    page["data"][0]["id"] = json!(770001);
    page["included"][0]["id"] = json!(1);
    page["included"][0]["attributes"]["league_id"] = json!(300);
    let game = only_game(page);
    assert_eq!(game.external_id, "770001");
    assert_eq!((game.home_team_id.as_str(), game.away_team_id.as_str()), ("1", "2"));
    assert_eq!(
        (game.home.as_str(), game.rink.as_deref(), game.division.as_deref()),
        ("Frozen Assets", Some("Rink A"), Some("Adult C1"))
    );
}

#[test]
fn events_that_are_not_games_are_skipped() {
    let mut page = page_with(json!({}));
    let practice =
        json!({"type": "events", "id": "9", "attributes": {"event_type_id": "p", "start": "2026-09-08T18:00:00"}});
    let untyped = json!({"type": "events", "id": "8", "attributes": {"start": "2026-09-08T18:00:00"}});
    let unset_teams =
        json!({"type": "events", "id": "7", "attributes": {"event_type_id": "g", "start": "2026-09-08T18:00:00"}});
    let other = json!({"type": "notes", "id": "6"});
    page["data"].as_array_mut().unwrap().extend([practice, untyped, unset_teams, other]);
    let page = parse_json(&page).unwrap();
    let ids: Vec<&str> = page.schedule.games.iter().map(|g| g.external_id.as_str()).collect();
    assert_eq!(ids, ["770001"]);
}

#[test]
fn a_team_missing_from_included_is_named_by_its_id_until_a_page_names_it() {
    let first = parse_json(&page_with(json!({"vteam_id": "2299"}))).unwrap().schedule;
    let game = &first.games[0];
    assert_eq!((game.away.as_str(), game.away_team_id.as_str()), ("Team 2299", "2299"));
    assert!(first.teams.iter().any(|t| t.external_id == "2299" && t.name == "Team 2299"));

    let mut named = page_with(json!({}));
    named["included"]
        .as_array_mut()
        .unwrap()
        .push(json!({"type": "teams", "id": "2299", "attributes": {"name": "Wolverines"}}));
    let second = parse_json(&named).unwrap().schedule;
    for pages in [vec![first.clone(), second.clone()], vec![second, first]] {
        let merged = merge(pages);
        let team = merged.teams.iter().find(|t| t.external_id == "2299").unwrap();
        assert_eq!(team.name, "Wolverines");
        let game = merged.games.iter().find(|g| g.away_team_id == "2299");
        assert!(game.is_none_or(|g| g.away == "Wolverines"));
    }
}

#[test]
fn a_local_start_alone_is_read_in_the_rink_zone_and_a_gmt_start_alone_gives_the_wall_clock() {
    let local = only_game(page_with(json!({"start_gmt": null, "end_gmt": ""})));
    assert_eq!(local.start_utc_ms, 1_788_913_800_000);
    assert_eq!(local.end_utc_ms, Some(1_788_913_800_000 + 70 * 60_000));
    let gmt = only_game(page_with(json!({"start": null, "end": null})));
    assert_eq!((gmt.start_local.to_string(), gmt.start_utc_ms), ("2026-09-08 20:30:00".to_string(), 1_788_913_800_000));
}

#[test]
fn a_game_without_any_start_or_with_a_bad_one_is_refused() {
    let none = parse_json(&page_with(json!({"start": null, "start_gmt": null})));
    assert_eq!(message(none), "game 770001: no start time (`start` or `start_gmt`)");
    let bad = parse_json(&page_with(json!({"start_gmt": "2026-13-01T00:00:00"})));
    assert_eq!(message(bad), "game 770001: start_gmt \"2026-13-01T00:00:00\" is not a date and time");
}

#[test]
fn last_page_defaults_to_one_and_reads_numbers_or_strings() {
    let mut page = page_with(json!({}));
    assert_eq!(parse_json(&page).unwrap().last_page, 1);
    page["meta"] = json!({"page": {"last-page": "4"}});
    assert_eq!(parse_json(&page).unwrap().last_page, 4);
    page["meta"] = json!({"page": {"last-page": 0}});
    assert_eq!(parse_json(&page).unwrap().last_page, 1);
}

#[test]
fn bodies_that_are_not_daysmart_json_are_refused_saying_why() {
    assert!(message(parse_page(b"{\"data\": [", Toronto)).starts_with("not DaySmart JSON: "));
    assert_eq!(message(parse_page(b"[]", Toronto)), "not a DaySmart schedule: the JSON is not an object");
    assert_eq!(message(parse_page(b"{\"errors\": []}", Toronto)), "not a DaySmart schedule: no `data` array of events");
    assert_eq!(message(parse_page(b"{\"data\": [1]}", Toronto)), "event #1: not a JSON object");
}

#[test]
fn an_empty_page_is_an_empty_schedule() {
    let page = parse_page(b"\xEF\xBB\xBF{\"data\": []}", Toronto).unwrap();
    assert_eq!(page, Page { schedule: Schedule::default(), last_page: 1 });
}

#[test]
fn page_url_adds_the_page_number_keeping_the_query_and_fragment() {
    assert_eq!(page_url("https://x.example/events", 2), "https://x.example/events?page[number]=2");
    assert_eq!(page_url("https://x.example/events?", 2), "https://x.example/events?page[number]=2");
    assert_eq!(
        page_url("https://x.example/events?filter[season]=5&include=teams#top", 3),
        "https://x.example/events?filter[season]=5&include=teams&page[number]=3#top"
    );
}

#[test]
fn page_url_replaces_the_page_number_in_any_spelling() {
    assert_eq!(
        page_url("https://x.example/e?page[number]=1&page[size]=30", 2),
        "https://x.example/e?page[number]=2&page[size]=30"
    );
    assert_eq!(
        page_url("https://x.example/e?a=1&page%5Bnumber%5D=1&b=%5B", 7),
        "https://x.example/e?a=1&page%5Bnumber%5D=7&b=%5B"
    );
    assert_eq!(
        page_url("https://x.example/e?page%5bnumber%5d=1&page[number]=9", 2),
        "https://x.example/e?page%5bnumber%5d=2"
    );
    assert_eq!(page_url("https://x.example/e?page[number]", 2), "https://x.example/e?page[number]=2");
}

const JSON_TOKENS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\"",
    "null",
    "-1",
    "1e999",
    "\"g\"",
    "\"\"",
    "\"hscore\":",
    "\"id\":",
    "\\u0000",
    "\u{FEFF}",
];

proptest! {
    #![proptest_config(fuzz_config(500))]

    #[test]
    fn fuzz_arbitrary_bytes_never_panic(body in proptest::collection::vec(any::<u8>(), 0..2048)) {
        if let Ok(page) = parse_page(&body, Toronto) {
            assert_well_formed(&page.schedule);
        }
    }

    #[test]
    fn fuzz_mutated_pages_never_panic(body in mutated(fixture("daysmart-events-page-1.json"), JSON_TOKENS)) {
        if let Ok(page) = parse_page(&body, Toronto) {
            assert_well_formed(&page.schedule);
            prop_assert!(page.last_page >= 1);
        }
    }

    #[test]
    fn fuzz_page_url_always_names_exactly_one_page(url in "[a-z:/.?&=%5BbDd\\[\\]#]{0,60}", n in any::<u32>()) {
        let paged = page_url(&url, n);
        let query = paged.split('#').next().unwrap().split_once('?').unwrap().1;
        let key = |param: &str| percent_decode(param.split('=').next().unwrap());
        let pages = query.split('&').filter(|param| key(param) == PAGE_NUMBER_KEY).count();
        prop_assert_eq!(pages, 1, "{}", paged);
        prop_assert_eq!(page_url(&paged, n), paged.clone());
    }
}
