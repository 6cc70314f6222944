use super::game::{Dice, Step, play, timeline};
use super::*;

/// A game document's side as the server lists it after a restart: the
/// goalie first (the document's order is not the seed's), one side
/// seeded with positions, the other (an older seed) without.
fn restarted_world() -> World {
    let doc = |r: &str, positions: bool| {
        let mut players = vec![json!({"userId": format!("{r}-goalie"), "jerseyNumber": 30,
                                      "position": if positions { json!("GOALIE") } else { Value::Null }})];
        players.extend((1..PLAYERS).map(|n| {
            json!({"userId": format!("{r}-s{n}"), "jerseyNumber": 7 + 3 * (n - 1),
                                                     "position": if positions { json!("CENTER") } else { Value::Null }})
        }));
        json!({"rosterId": r, "players": players})
    };
    World { season_id: "s".into(), home: side_of_game(&doc("h", true)), away: side_of_game(&doc("a", false)) }
}

#[test]
fn goalies_never_score_assist_or_take_the_demos_penalties() {
    let w = restarted_world();
    assert_eq!((w.home.skaters.len(), w.away.skaters.len()), (PLAYERS - 1, PLAYERS - 1));
    let mut dice = Dice::seeded(42);
    for n in 0..500 {
        let p = play(&mut dice, &w, n % 4 == 0);
        let side = if p["rosterId"] == "h" { &w.home } else { &w.away };
        let named: Vec<&str> = [&p["scorerId"], &p["playerId"]]
            .into_iter()
            .filter_map(Value::as_str)
            .chain(p["assistIds"].as_array().into_iter().flatten().filter_map(Value::as_str))
            .collect();
        assert!(!named.is_empty(), "{p}");
        for who in &named {
            assert!(!who.ends_with("goalie"), "a goalie was credited: {p}");
            assert!(side.skaters.iter().any(|s| s == who), "{who} is not a skater of the side");
        }
        if p["type"] == "GOAL" {
            assert!(p["assistIds"].as_array().unwrap().iter().all(|a| *a != p["scorerId"]));
        }
    }
}

#[test]
fn a_demo_game_lasts_its_length_with_a_handful_of_plays_inside_the_periods() {
    let length = Duration::from_secs(crate::config::DEMO_GAME_SECONDS);
    assert!((600..=720).contains(&crate::config::DEMO_GAME_SECONDS), "ten to twelve minutes by default");
    for seed in 1..200 {
        let beats = timeline(length, &mut Dice::seeded(seed));
        let steps: Vec<Step> = beats.iter().map(|b| b.step).collect();
        assert_eq!((steps.first(), steps.last()), (Some(&Step::Start), Some(&Step::Final)));
        assert_eq!((beats[0].at, beats.last().unwrap().at), (Duration::ZERO, length));
        assert!(beats.windows(2).all(|w| w[0].at <= w[1].at), "in order");
        assert_eq!(steps.iter().filter(|s| **s == Step::EndPeriod).count(), 2);
        let count = |step: Step| steps.iter().filter(|s| **s == step).count();
        let (goals, penalties) = (count(Step::Goal), count(Step::Penalty));
        assert!((3..=7).contains(&goals) && (1..=4).contains(&penalties), "{goals} goals, {penalties} penalties");
        assert!((12..=27).contains(&count(Step::Shot)));
        // The clock runs through each period and stops at its end.
        assert_eq!((count(Step::ClockStart), count(Step::ClockStop), count(Step::Intermission)), (3, 3, 2));
        let running: Vec<bool> = steps
            .iter()
            .filter(|s| matches!(s, Step::ClockStart | Step::ClockStop))
            .map(|s| *s == Step::ClockStart)
            .collect();
        assert_eq!(running, [true, false, true, false, true, false], "start, stop, in turn");
        // Every play falls inside a period, never in an intermission.
        let (period, break_) = (length * 3 / 11, length * 3 / 11 / 3);
        let periods =
            [(Duration::ZERO, period), (period + break_, period * 2 + break_), ((period + break_) * 2, length)];
        for b in beats.iter().filter(|b| matches!(b.step, Step::Goal | Step::Penalty | Step::Shot)) {
            assert!(
                periods.iter().any(|(from, to)| *from < b.at && b.at < *to),
                "a play in an intermission at {:?}",
                b.at
            );
        }
    }
}

#[test]
fn league_games_are_on_league_evenings_on_the_rinks_clock() {
    // Monday 30 November 2026.
    let monday = NaiveDate::from_ymd_opt(2026, 11, 30).unwrap();
    let slots = league_slots(monday, PAIRINGS.len());
    let read: Vec<String> = slots.iter().map(|s| s.format("%a %H:%M").to_string()).collect();
    assert_eq!(
        read,
        [
            "Tue 19:00",
            "Tue 20:30",
            "Thu 19:00",
            "Thu 20:30",
            "Sun 13:00",
            "Sun 14:30",
            "Tue 19:00",
            "Tue 20:30",
            "Thu 19:00",
            "Thu 20:30",
            "Sun 13:00",
            "Sun 14:30"
        ]
    );
    assert!(slots.windows(2).all(|w| w[0] < w[1]) && slots[0].date() > monday);
    // 7:00 PM in Toronto in winter is midnight UTC.
    assert_eq!(rink_time(slots[0]), "2026-12-02T00:00:00Z");
    // Each team plays once a night, and every pair meets home and away.
    for night in PAIRINGS.chunks(2) {
        let mut teams: Vec<usize> = night.iter().flat_map(|(h, a)| [*h, *a]).collect();
        teams.sort_unstable();
        assert_eq!(teams, [0, 1, 2, 3]);
    }
    let pairs: std::collections::HashSet<_> = PAIRINGS.iter().collect();
    assert_eq!(pairs.len(), 12);
}

#[test]
fn every_demo_person_has_a_name_of_their_own() {
    let handles = demo_handles();
    let names: std::collections::HashSet<_> = handles.iter().map(|h| demo_name(h)).collect();
    assert_eq!(names.len(), handles.len());
    assert_eq!(demo_name("ice_owls_skater1"), demo_name("ice_owls_skater1"));
}

#[test]
fn roster_positions_are_hockey_positions_and_only_the_goalie_is_a_goalie() {
    for n in 0..PLAYERS {
        let goalie = n + 1 == PLAYERS;
        let position = rinkside_actors::hockey::Position::parse(roster_position(n, goalie)).unwrap();
        assert_eq!(position == rinkside_actors::hockey::Position::Goalie, goalie, "player {n}");
    }
}

#[test]
fn handles_are_lowercase_with_underscores() {
    assert_eq!(handle("Ice Owls", "goalie"), "ice_owls_goalie");
}

#[test]
fn the_pickup_is_a_tuesday_evening_in_the_rinks_zone() {
    let when = chrono::DateTime::parse_from_rfc3339(&next_tuesday_evening()).unwrap();
    let local = when.with_timezone(&chrono_tz::America::Toronto);
    assert_eq!(local.weekday(), Weekday::Tue);
    assert_eq!((local.format("%H:%M").to_string()), "21:30");
    assert!(when > Utc::now());
    let last = chrono::NaiveDate::parse_from_str(&tenth_tuesday(), "%Y-%m-%d").unwrap();
    assert_eq!((last.weekday(), last - local.date_naive()), (Weekday::Tue, chrono::Duration::weeks(9)));
}
