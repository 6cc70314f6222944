//! The plan's rules on small schedules: what is written, counted, removed,
//! and what happens to events.

use super::*;
use crate::sync::schedule::{Game, Team};
use chrono::NaiveDate;

fn season() -> (String, String, Vec<(String, String)>) {
    ("s1".into(), "f1".into(), vec![("m1".into(), "Adult C1".into())])
}

fn team(id: &str, name: &str) -> Team {
    Team { external_id: id.into(), name: name.into(), division: Some("Adult C1".into()) }
}

fn game(id: &str, day: u32, home: &str, away: &str, goals: Option<(i64, i64)>) -> Game {
    let start = NaiveDate::from_ymd_opt(2026, 9, day).unwrap().and_hms_opt(20, 30, 0).unwrap();
    Game {
        external_id: id.into(),
        start_local: start,
        end_local: None,
        start_utc_ms: start.and_utc().timestamp_millis(),
        end_utc_ms: None,
        rink: Some("Rink A".into()),
        division: Some("Adult C1".into()),
        home: format!("Team {home}"),
        away: format!("Team {away}"),
        home_team_id: home.into(),
        away_team_id: away.into(),
        home_goals: goals.map(|g| g.0),
        away_goals: goals.map(|g| g.1),
        game_type: None,
        cancelled: false,
    }
}

fn schedule(games: Vec<Game>) -> Schedule {
    Schedule { teams: vec![team("a", "Team a"), team("b", "Team b")], games }
}

fn ids() -> impl FnMut() -> String {
    let mut n = 0;
    move || {
        n += 1;
        format!("id{n}")
    }
}

fn run(stored: &Plan, schedule: &Schedule, candidates: &[Candidate]) -> Plan {
    let (id, facility, mappings) = season();
    let scope = Season { id: &id, facility_id: &facility, facility_name: "Example Ice Centre", mappings: &mappings };
    let mut next = ids();
    let mut fresh = move || format!("new-{}", next());
    plan(&scope, &stored.rosters, &stored.games, schedule, candidates, 1_000, &mut fresh)
}

#[test]
fn a_first_import_creates_every_roster_and_game_in_its_division() {
    let p = run(&Plan::default(), &schedule(vec![game("g1", 8, "a", "b", None)]), &[]);
    assert_eq!(p.roster_counts, RosterCounts { created: 2, updated: 0, matched: 0, unmatched: 2 });
    assert_eq!(p.game_counts, GameCounts { created: 1, updated: 0, unchanged: 0, removed: 0 });
    assert!(p.rosters.iter().all(|r| r.division_mapping_id.as_deref() == Some("m1")));
    let g = &p.games[0];
    assert_eq!((g.home_roster_id.is_some(), g.away_roster_id.is_some()), (true, true));
}

#[test]
fn the_same_schedule_again_writes_nothing() {
    let s = schedule(vec![game("g1", 8, "a", "b", None), game("g2", 9, "b", "a", Some((1, 2)))]);
    let first = run(&Plan::default(), &s, &[]);
    let second = run(&first, &s, &[]);
    assert!(second.rosters_to_write.is_empty() && second.games_to_write.is_empty());
    assert_eq!(second.game_counts, GameCounts { created: 0, updated: 0, unchanged: 2, removed: 0 });
}

#[test]
fn a_moved_game_is_updated_a_missing_one_removed_and_a_cancelled_one_removed_once() {
    let first = run(
        &Plan::default(),
        &schedule(vec![game("g1", 8, "a", "b", None), game("g2", 9, "b", "a", None), game("g3", 10, "a", "b", None)]),
        &[],
    );
    let mut cancelled = game("g3", 10, "a", "b", None);
    cancelled.cancelled = true;
    let second = run(&first, &schedule(vec![game("g1", 12, "a", "b", Some((3, 1))), cancelled.clone()]), &[]);
    assert_eq!(second.game_counts, GameCounts { created: 0, updated: 1, unchanged: 0, removed: 2 });
    assert!(second.games.iter().filter(|g| g.external_id != "g1").all(|g| g.removed_at == Some(1_000)));
    let third = run(&second, &schedule(vec![game("g1", 12, "a", "b", Some((3, 1))), cancelled]), &[]);
    assert_eq!(third.game_counts.removed, 0, "removed once");
    assert!(third.games_to_write.is_empty());
}

#[test]
fn a_game_with_a_matched_team_gets_an_event_and_a_removed_ones_event_is_cancelled() {
    let ours = [Candidate { team_id: "t-a".into(), name: "Team a".into(), divisions: vec![] }];
    let p = run(&Plan::default(), &schedule(vec![game("g1", 8, "a", "b", None)]), &ours);
    assert_eq!(p.roster_counts.matched, 1);
    let steps = event_steps(&p.games, &p.rosters, &HashMap::new());
    let [EventStep::Create { wanted, .. }] = steps.as_slice() else { panic!("{steps:?}") };
    assert_eq!(wanted.title, "Team a vs Team b");
    assert_eq!((wanted.home_team_id.as_deref(), wanted.away_team_id.as_deref()), (Some("t-a"), None));

    let mut games = p.games.clone();
    games[0].event_id = Some("e1".into());
    let now = EventNow {
        id: "e1".into(),
        title: wanted.title.clone(),
        start_date: wanted.start_date,
        end_date: None,
        external_rink: wanted.external_rink.clone(),
        external_home_team_name: wanted.external_home_team_name.clone(),
        external_away_team_name: wanted.external_away_team_name.clone(),
        home_score: None,
        away_score: None,
        cancelled_at: None,
        home_team_id: Some("t-a".into()),
        away_team_id: None,
    };
    let events = HashMap::from([("e1".to_string(), now)]);
    assert!(event_steps(&games, &p.rosters, &events).is_empty(), "in step: nothing to do");
    games[0].home_goals = Some(2);
    assert!(matches!(event_steps(&games, &p.rosters, &events).as_slice(), [EventStep::Update { .. }]));
    games[0].removed_at = Some(5);
    assert_eq!(event_steps(&games, &p.rosters, &events), vec![EventStep::Cancel { event_id: "e1".into() }]);
}

#[test]
fn a_game_without_a_matched_team_gets_no_event() {
    let p = run(&Plan::default(), &schedule(vec![game("g1", 8, "a", "b", None)]), &[]);
    assert!(event_steps(&p.games, &p.rosters, &HashMap::new()).is_empty());
}

#[test]
fn a_place_that_repeats_the_seasons_rink_keeps_only_the_rest_as_the_games_rink() {
    let place = |rink: &str| {
        let mut g = game("g1", 8, "a", "b", None);
        g.rink = Some(rink.into());
        let p = run(&Plan::default(), &schedule(vec![g]), &[]);
        p.games[0].rink.clone()
    };
    assert_eq!(place("Example Ice Centre - Rink 2").as_deref(), Some("Rink 2"));
    assert_eq!(place("Rink 2, Example Ice Centre - Rink 2").as_deref(), Some("Rink 2"));
    assert_eq!(place("Example Ice Centre"), None, "the event is at the season's rink already");
    assert_eq!(place("Northside Arena - Rink 1").as_deref(), Some("Northside Arena - Rink 1"));
}
