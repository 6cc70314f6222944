//! Property test: any sequence of actions (valid or not), clock actions
//! among them at moving instants, followed by UNDO until nothing is left
//! returns the game to where it started (score, clock, goalies, penalty
//! box), with every statistic delta summing to zero. Rejected actions must
//! change nothing.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use proptest::prelude::*;

use super::tests::{NOW, game};
use super::*;

const ROSTER_IDS: [&str; 2] = ["H", "A"];
const PLAYERS: [&str; 4] = ["1", "2", "3", "g"];

fn player_id(side: usize, i: usize) -> String {
    format!("{}{}", ["h", "a"][side], PLAYERS[i])
}

fn command() -> impl Strategy<Value = GameCommand> {
    let goal = (0..2usize, prop::option::of(0..4usize), prop::collection::vec(0..4usize, 0..3), 0..10u8).prop_map(
        |(side, scorer, assists, cross)| {
            // Now and then name a player of the other side, to be rejected.
            let assist_side = if cross == 0 { 1 - side } else { side };
            GameCommand::Action(GameAction::Goal {
                roster_id: ROSTER_IDS[side].into(),
                scorer_id: scorer.map(|i| player_id(side, i)),
                assist_ids: assists.into_iter().map(|i| player_id(assist_side, i)).collect(),
                clock_ms: None,
            })
        },
    );
    let kind = prop_oneof![
        Just(None),
        Just(Some(PenaltyKind::Minor)),
        Just(Some(PenaltyKind::DoubleMinor)),
        Just(Some(PenaltyKind::Major)),
        Just(Some(PenaltyKind::Misconduct)),
        Just(Some(PenaltyKind::GameMisconduct)),
    ];
    let penalty = (0..2usize, 0..4usize, prop::option::of(-1i64..=62), kind).prop_map(|(side, i, minutes, kind)| {
        GameCommand::Action(GameAction::Penalty {
            roster_id: ROSTER_IDS[side].into(),
            player_id: player_id(side, i),
            minutes,
            penalty: kind,
            clock_ms: None,
        })
    });
    let shot = (0..2usize)
        .prop_map(|side| GameCommand::Action(GameAction::Shot { roster_id: ROSTER_IDS[side].into(), clock_ms: None }));
    let goalie = (0..2usize, prop::option::of(0..4usize)).prop_map(|(side, i)| {
        GameCommand::Action(GameAction::Goalie {
            roster_id: ROSTER_IDS[side].into(),
            player_id: i.map(|i| player_id(side, i)),
            clock_ms: None,
        })
    });
    let clock = prop_oneof![
        Just(GameAction::ClockStart { at: None }),
        Just(GameAction::ClockStop { at: None }),
        (0i64..=1_300_000).prop_map(|remaining_ms| GameAction::ClockSet { remaining_ms, at: None }),
        (0i64..=3).prop_map(|minutes| GameAction::Intermission { minutes, at: None }),
    ]
    .prop_map(GameCommand::Action);
    let lineup =
        (0..2usize, prop::collection::vec(0..4usize, 0..5)).prop_map(|(side, players)| GameCommand::SetLineup {
            roster_id: ROSTER_IDS[side].into(),
            user_ids: players.into_iter().map(|i| player_id(side, i)).collect(),
        });
    prop_oneof![
        2 => Just(GameCommand::Action(GameAction::Start)),
        6 => goal,
        3 => penalty,
        2 => Just(GameCommand::Action(GameAction::EndPeriod)),
        1 => Just(GameCommand::Action(GameAction::Final)),
        3 => Just(GameCommand::Action(GameAction::Undo)),
        1 => lineup,
        3 => shot,
        1 => goalie,
        4 => clock,
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn undoing_everything_returns_the_game_to_its_start_with_zero_stat_deltas(
        commands in prop::collection::vec((command(), 0i64..90_000), 0..60),
    ) {
        let mut state = game();
        let initial = state.clone();
        let mut entries: Vec<LogEntry> = Vec::new();
        let mut now = NOW;

        for (command, step) in &commands {
            now += step;
            let before = state.clone();
            match decide(&mut state, command, "keeper", now) {
                Ok(outcome) => entries.extend(outcome.entry),
                Err(_) => prop_assert_eq!(&state, &before, "a rejection changed the state"),
            }
            state.seal();
            // Overtime and the shootout are only ever entered from a tie (issue 26).
            if matches!(command, GameCommand::Action(GameAction::EndPeriod)) && state.period() != before.period() {
                let into_tiebreak = matches!(state.period(), Some(Period::Overtime | Period::Shootout));
                prop_assert!(!into_tiebreak || before.home_score() == before.away_score(), "went to {:?} with a lead", state.period());
            }
            // The score is always what the standing log says.
            let standing = state.log().iter().filter(|e| e.kind == EntryKind::Goal && !e.undone);
            let (home, away) = standing.fold((0, 0), |(h, a), e| (h + e.effects.home_score, a + e.effects.away_score));
            prop_assert_eq!((state.home_score(), state.away_score()), (home, away));
        }

        while let Ok(outcome) = decide(&mut state, &GameCommand::Action(GameAction::Undo), "keeper", now) {
            entries.extend(outcome.entry);
            state.seal();
        }

        prop_assert_eq!(state.status(), initial.status());
        prop_assert_eq!(state.period(), initial.period());
        prop_assert_eq!((state.home_score(), state.away_score()), (0, 0));
        prop_assert!(state.public_document().log.is_empty());
        prop_assert_eq!(state.clock(), initial.clock());
        prop_assert_eq!(state.goalies(), initial.goalies());
        prop_assert!(state.public_document().penalties.is_empty());
        prop_assert!(state.log().iter().all(|e| e.kind == EntryKind::Undo || e.undone));
        let players = sum_player_deltas(entries.iter().flat_map(|e| &e.effects.players));
        let rosters = sum_roster_deltas(entries.iter().flat_map(|e| &e.effects.rosters));
        prop_assert!(players.is_empty(), "player deltas left: {:?}", players);
        prop_assert!(rosters.is_empty(), "roster deltas left: {:?}", rosters);
    }
}
