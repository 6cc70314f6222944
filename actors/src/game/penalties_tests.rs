//! The penalty rules, example by example and as properties over random
//! games.

#![allow(clippy::unwrap_used)]

use proptest::prelude::*;

use super::*;

const M: i64 = 60_000;

fn pen(seq: i64, side: Side, kind: PenaltyKind, at_ms: i64) -> Play {
    Play::Penalty { seq, side, kind, at_ms }
}

fn goal(seq: i64, side: Side, at_ms: i64) -> Play {
    Play::Goal { seq, side, at_ms }
}

fn served(sheet: &Sheet, seq: i64) -> Served {
    *sheet.penalties.iter().find(|p| p.seq == seq).unwrap()
}

#[test]
fn a_power_play_goal_ends_the_minor_and_the_side_is_back_to_five() {
    let sheet = run(&[pen(1, Side::Away, PenaltyKind::Minor, 60_000), goal(2, Side::Home, 90_000)]);
    let call = sheet.goal(2).unwrap();
    assert_eq!((call.strength, call.releases), (Strength::PowerPlay, Some(1)));
    assert_eq!(served(&sheet, 1).end_ms, 90_000);
    assert_eq!(sheet.skaters(Side::Away, 90_000), 5);
}

#[test]
fn a_major_is_not_released_and_a_shorthanded_goal_releases_nothing() {
    let sheet = run(&[pen(1, Side::Away, PenaltyKind::Major, 0), goal(2, Side::Home, M), goal(3, Side::Away, 2 * M)]);
    assert_eq!(sheet.goal(2).unwrap().strength, Strength::PowerPlay);
    assert_eq!(sheet.goal(2).unwrap().releases, None);
    assert_eq!(sheet.goal(3).unwrap().strength, Strength::ShortHanded);
    assert_eq!(served(&sheet, 1).end_ms, 5 * M);
}

#[test]
fn a_minor_runs_out_on_game_time_and_then_goals_are_even() {
    let sheet = run(&[pen(1, Side::Home, PenaltyKind::Minor, 0), goal(2, Side::Away, 2 * M)]);
    assert_eq!(sheet.goal(2).unwrap().strength, Strength::Even);
    assert_eq!(sheet.goal(2).unwrap().releases, None);
    assert_eq!(sheet.still_to_run(2 * M).count(), 0);
}

#[test]
fn five_on_three_then_a_goal_ends_the_minor_with_least_time_left_and_the_third_starts() {
    let sheet = run(&[
        pen(1, Side::Away, PenaltyKind::Minor, 0),
        pen(2, Side::Away, PenaltyKind::Minor, 30_000),
        pen(3, Side::Away, PenaltyKind::Minor, 40_000),
        goal(4, Side::Home, 60_000),
    ]);
    assert_eq!(sheet.goal(4).unwrap().releases, Some(1));
    assert_eq!(sheet.goal(4).unwrap().strength, Strength::PowerPlay);
    // The third waited for a place and takes the freed one at the goal.
    assert_eq!((served(&sheet, 3).start_ms, served(&sheet, 3).end_ms), (60_000, 60_000 + 2 * M));
    assert_eq!(sheet.skaters(Side::Away, 60_000), 3);
    assert_eq!(sheet.skaters(Side::Away, 50_000), 3);
}

#[test]
fn coincidental_minors_at_full_strength_play_four_on_four_and_release_nothing() {
    let sheet = run(&[
        pen(1, Side::Home, PenaltyKind::Minor, M),
        pen(2, Side::Away, PenaltyKind::Minor, M),
        goal(3, Side::Home, 2 * M),
    ]);
    assert_eq!((sheet.skaters(Side::Home, 2 * M), sheet.skaters(Side::Away, 2 * M)), (4, 4));
    assert_eq!(sheet.goal(3).unwrap().strength, Strength::Even);
    assert_eq!(sheet.goal(3).unwrap().releases, None);
    assert!(served(&sheet, 1).coincidental && served(&sheet, 2).coincidental);
}

#[test]
fn coincidental_minors_during_a_power_play_cancel_out() {
    let sheet = run(&[
        pen(1, Side::Away, PenaltyKind::Minor, 0),
        pen(2, Side::Home, PenaltyKind::Minor, M / 2),
        pen(3, Side::Away, PenaltyKind::Minor, M / 2),
        goal(4, Side::Home, M),
    ]);
    // 5 on 4 still: the pair does not change the strength.
    assert_eq!((sheet.skaters(Side::Home, M - 1), sheet.skaters(Side::Away, M - 1)), (5, 4));
    assert!(!served(&sheet, 2).short && !served(&sheet, 3).short);
    // The goal ends the first, non-coincidental, minor.
    assert_eq!(sheet.goal(4).unwrap().releases, Some(1));
}

#[test]
fn a_double_minor_loses_its_first_half_to_a_goal_and_its_second_to_another() {
    let sheet = run(&[pen(1, Side::Away, PenaltyKind::DoubleMinor, 0), goal(2, Side::Home, M)]);
    assert_eq!(sheet.goal(2).unwrap().releases, Some(1));
    assert_eq!(served(&sheet, 1).end_ms, M + 2 * M);
    let sheet =
        run(&[pen(1, Side::Away, PenaltyKind::DoubleMinor, 0), goal(2, Side::Home, M), goal(3, Side::Home, 2 * M)]);
    assert_eq!(sheet.goal(3).unwrap().releases, Some(1));
    assert_eq!(served(&sheet, 1).end_ms, 2 * M);
}

#[test]
fn misconducts_run_their_time_without_a_power_play() {
    let sheet = run(&[pen(1, Side::Home, PenaltyKind::Misconduct, 0), goal(2, Side::Away, M)]);
    assert_eq!(sheet.goal(2).unwrap().strength, Strength::Even);
    assert_eq!(served(&sheet, 1).end_ms, 10 * M);
    assert_eq!(sheet.still_to_run(M).count(), 1);
    let sheet = run(&[pen(1, Side::Home, PenaltyKind::GameMisconduct, 0)]);
    assert_eq!(sheet.still_to_run(0).count(), 0);
}

fn kind() -> impl Strategy<Value = PenaltyKind> {
    prop_oneof![
        6 => Just(PenaltyKind::Minor),
        2 => Just(PenaltyKind::DoubleMinor),
        2 => Just(PenaltyKind::Major),
        1 => Just(PenaltyKind::Misconduct),
        1 => Just(PenaltyKind::GameMisconduct),
    ]
}

/// Random plays in game-time order: gaps of 0 (same stoppage) to 3 min.
fn plays() -> impl Strategy<Value = Vec<Play>> {
    prop::collection::vec((0i64..180_000, any::<bool>(), prop::option::of(kind()), 0..4u8), 1..40).prop_map(|raw| {
        let mut at = 0;
        raw.into_iter()
            .enumerate()
            .map(|(i, (gap, home, kind, same))| {
                if same != 0 {
                    at += gap;
                }
                let seq = i as i64 + 1;
                let side = if home { Side::Home } else { Side::Away };
                match kind {
                    Some(kind) => pen(seq, side, kind, at),
                    None => goal(seq, side, at),
                }
            })
            .collect()
    })
}

/// The box just before play `upto` (every earlier play run).
fn before(plays: &[Play], upto: usize) -> Sheet {
    run(&plays[..upto])
}

fn at_of(play: &Play) -> i64 {
    match *play {
        Play::Penalty { at_ms, .. } | Play::Goal { at_ms, .. } => at_ms,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Never fewer than three skaters; never more than two short-handing
    /// penalties served at once per side.
    #[test]
    fn a_side_never_has_fewer_than_three_skaters(plays in plays()) {
        let sheet = run(&plays);
        let mut instants: Vec<i64> = sheet.penalties.iter().flat_map(|p| [p.start_ms, p.end_ms - 1]).collect();
        instants.extend(plays.iter().map(at_of));
        for side in [Side::Home, Side::Away] {
            for &t in &instants {
                let served = sheet.penalties.iter()
                    .filter(|p| p.side == side && p.short && p.start_ms <= t && t < p.end_ms)
                    .count();
                prop_assert!(served <= 2, "{served} served at {t}");
            }
        }
    }

    /// A power-play goal ends exactly the conceding side's non-coincidental
    /// minor with the least time left on its current minor; every other
    /// goal ends nothing; coincidental penalties are never released.
    #[test]
    fn a_power_play_goal_ends_exactly_the_right_minor(plays in plays()) {
        let sheet = run(&plays);
        for (i, play) in plays.iter().enumerate() {
            let Play::Goal { seq, side, at_ms } = *play else { continue };
            let call = sheet.goal(seq).unwrap();
            let box_before = before(&plays, i);
            let them = if side == Side::Home { Side::Away } else { Side::Home };
            let (ours, theirs) = (box_before.skaters(side, at_ms), box_before.skaters(them, at_ms));
            let expected = ours.cmp(&theirs);
            prop_assert_eq!(call.strength, match expected {
                std::cmp::Ordering::Greater => Strength::PowerPlay,
                std::cmp::Ordering::Less => Strength::ShortHanded,
                std::cmp::Ordering::Equal => Strength::Even,
            });
            let left = |p: &Served| {
                let left = p.end_ms - at_ms;
                if p.kind == PenaltyKind::DoubleMinor && left > 2 * M { left - 2 * M } else { left }
            };
            let candidate = box_before.penalties.iter()
                .filter(|p| p.side == them && p.short && !p.coincidental
                    && matches!(p.kind, PenaltyKind::Minor | PenaltyKind::DoubleMinor)
                    && p.start_ms <= at_ms && at_ms < p.end_ms)
                .min_by_key(|p| (left(p), p.seq))
                .map(|p| p.seq);
            if call.strength == Strength::PowerPlay {
                prop_assert_eq!(call.releases, candidate);
            } else {
                prop_assert_eq!(call.releases, None);
            }
            if let Some(released) = call.releases {
                prop_assert!(!served(&sheet, released).coincidental);
            }
        }
    }

    /// A penalty nothing released runs its full length once it starts.
    #[test]
    fn an_unreleased_penalty_runs_its_full_length(plays in plays()) {
        let sheet = run(&plays);
        for p in sheet.penalties.iter().filter(|p| p.released_by.is_none()) {
            let length = if p.kind.is_timed() { p.kind.minutes().unwrap() * M } else { 0 };
            prop_assert_eq!(p.end_ms - p.start_ms, length);
            prop_assert!(p.start_ms >= p.called_ms);
        }
    }
}
