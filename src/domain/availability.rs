//! Availability for league games (docs/availability.md), the pure part:
//! a roster's rules and the lock they make, which group a player counts in,
//! the counts a captain reads, what is short, and whether an answer is
//! taken at a given moment.

use super::rsvp_rules::{MINUTE, shortfall};
use super::{HockeyPosition, RosterCommitment};
use serde::Serialize;

string_enum!(
    /// A player's answer for a game; no answer yet is `None`.
    Answer { In => "IN", Out => "OUT" }
);

string_enum!(
    /// Where a player counts on the captain's board.
    PlayerGroup { Skaters => "SKATERS", Defence => "DEFENCE", Goalies => "GOALIES", Subs => "SUBS" }
);

/// A roster's rules (`null` = off), as stored and on the wire.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, sqlx::FromRow, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AvailabilityRules {
    /// Answers of "in" close this many minutes before puck drop (0–10080).
    #[sqlx(rename = "availability_lock_minutes")]
    pub lock_minutes: Option<i64>,
    /// Skaters (forwards and defence) wanted (0–50).
    pub min_skaters: Option<i64>,
    /// Goalies wanted (0–10).
    pub min_goalies: Option<i64>,
}

impl AvailabilityRules {
    /// Every field out of range, keyed by the wire's field names.
    pub fn problems(&self) -> Vec<(&'static str, String)> {
        [
            ("lockMinutes", self.lock_minutes, 10_080),
            ("minSkaters", self.min_skaters, 50),
            ("minGoalies", self.min_goalies, 10),
        ]
        .into_iter()
        .filter(|(_, value, most)| value.is_some_and(|v| !(0..=*most).contains(&v)))
        .map(|(field, _, most)| (field, format!("must be 0–{most}")))
        .collect()
    }

    /// When answers of "in" close for a game starting at `start`.
    pub fn locks_at(&self, start: i64) -> Option<i64> {
        self.lock_minutes.map(|m| start - m * MINUTE)
    }

    /// Who is missing against the minimums: (skaters, goalies).
    pub fn short(&self, players: &[Counted]) -> (i64, i64) {
        let playing = |goalie: bool| {
            players.iter().filter(|p| p.answer == Some(Answer::In) && is_goalie(p.position) == goalie).count() as i64
        };
        shortfall((self.min_skaters, self.min_goalies), (playing(false), playing(true)))
    }
}

fn is_goalie(position: Option<HockeyPosition>) -> bool {
    position == Some(HockeyPosition::Goalie)
}

/// One player as the counts see them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counted {
    pub position: Option<HockeyPosition>,
    pub commitment: RosterCommitment,
    pub answer: Option<Answer>,
}

/// The group a player counts in: subs apart, whatever they play.
pub fn group(position: Option<HockeyPosition>, commitment: RosterCommitment) -> PlayerGroup {
    use HockeyPosition::*;
    match (commitment, position) {
        (RosterCommitment::Substitute, _) => PlayerGroup::Subs,
        (_, Some(Goalie)) => PlayerGroup::Goalies,
        (_, Some(LeftDefense | RightDefense)) => PlayerGroup::Defence,
        _ => PlayerGroup::Skaters,
    }
}

/// In, out and not yet answered, in one group.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GroupTally {
    #[serde(rename = "in")]
    pub yes: i64,
    pub out: i64,
    pub no_answer: i64,
}

/// The captain's counts, per group.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GroupCounts {
    pub skaters: GroupTally,
    pub defence: GroupTally,
    pub goalies: GroupTally,
    pub subs: GroupTally,
}

impl GroupCounts {
    pub fn of(players: &[Counted]) -> GroupCounts {
        let mut counts = GroupCounts::default();
        for p in players {
            let tally = match group(p.position, p.commitment) {
                PlayerGroup::Skaters => &mut counts.skaters,
                PlayerGroup::Defence => &mut counts.defence,
                PlayerGroup::Goalies => &mut counts.goalies,
                PlayerGroup::Subs => &mut counts.subs,
            };
            match p.answer {
                Some(Answer::In) => tally.yes += 1,
                Some(Answer::Out) => tally.out += 1,
                None => tally.no_answer += 1,
            }
        }
        counts
    }
}

/// Whether an answer is taken now, and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Taken; `late` when given after the lock.
    Take { late: bool },
    /// "In" after the lock, from a player.
    Locked { at: i64 },
    /// The game is over (or called off): nothing is taken.
    Over,
}

/// The moment of a game answers are about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameTime {
    pub start: i64,
    pub end: i64,
    /// FINAL or CANCELLED.
    pub closed: bool,
}

/// May `answer` be given `now`? The team's managers are never locked out;
/// a player's "out" is always taken before the end (late after the lock).
pub fn decide(answer: Answer, game: GameTime, locks_at: Option<i64>, now: i64, manager: bool) -> Verdict {
    if game.closed || now >= game.end {
        return Verdict::Over;
    }
    let locked = locks_at.filter(|at| now >= *at);
    match (locked, answer, manager) {
        (Some(at), Answer::In, false) => Verdict::Locked { at },
        (locked, _, _) => Verdict::Take { late: locked.is_some() && answer == Answer::Out },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const HOUR: i64 = 60 * MINUTE;

    fn player(position: Option<HockeyPosition>, sub: bool, answer: Option<Answer>) -> Counted {
        let commitment = if sub { RosterCommitment::Substitute } else { RosterCommitment::FullTime };
        Counted { position, commitment, answer }
    }

    #[test]
    fn players_count_by_position_and_subs_apart() {
        use HockeyPosition::*;
        let players = [
            player(Some(Center), false, Some(Answer::In)),
            player(None, false, None),
            player(Some(LeftDefense), false, Some(Answer::Out)),
            player(Some(Goalie), false, None),
            player(Some(Goalie), true, Some(Answer::In)),
        ];
        let counts = GroupCounts::of(&players);
        assert_eq!(counts.skaters, GroupTally { yes: 1, out: 0, no_answer: 1 });
        assert_eq!(counts.defence, GroupTally { yes: 0, out: 1, no_answer: 0 });
        assert_eq!(counts.goalies, GroupTally { yes: 0, out: 0, no_answer: 1 });
        assert_eq!(counts.subs, GroupTally { yes: 1, out: 0, no_answer: 0 });
        // The sub goalie who is in is the goalie the minimum wants.
        let rules = AvailabilityRules { min_skaters: Some(3), min_goalies: Some(1), ..Default::default() };
        assert_eq!(rules.short(&players), (2, 0));
        assert_eq!(AvailabilityRules::default().short(&players), (0, 0));
    }

    #[test]
    fn the_lock_closes_in_but_never_out_and_never_managers() {
        let game = GameTime { start: 10 * HOUR, end: 13 * HOUR, closed: false };
        let lock = AvailabilityRules { lock_minutes: Some(120), ..Default::default() }.locks_at(game.start);
        assert_eq!(lock, Some(8 * HOUR));
        assert_eq!(decide(Answer::In, game, lock, 7 * HOUR, false), Verdict::Take { late: false });
        assert_eq!(decide(Answer::In, game, lock, 8 * HOUR, false), Verdict::Locked { at: 8 * HOUR });
        assert_eq!(decide(Answer::Out, game, lock, 9 * HOUR, false), Verdict::Take { late: true });
        assert_eq!(decide(Answer::In, game, lock, 9 * HOUR, true), Verdict::Take { late: false });
        assert_eq!(decide(Answer::Out, game, lock, 13 * HOUR, true), Verdict::Over);
        let called_off = GameTime { closed: true, ..game };
        assert_eq!(decide(Answer::Out, called_off, None, 0, true), Verdict::Over);
    }

    #[test]
    fn rules_out_of_range_are_each_named() {
        let rules = AvailabilityRules { lock_minutes: Some(-1), min_skaters: Some(51), min_goalies: Some(3) };
        let fields: Vec<&str> = rules.problems().into_iter().map(|(f, _)| f).collect();
        assert_eq!(fields, ["lockMinutes", "minSkaters"]);
    }

    fn any_player() -> impl Strategy<Value = Counted> {
        let position = prop::option::of(prop::sample::select(HockeyPosition::ALL.to_vec()));
        let answer = prop::option::of(prop::sample::select(vec![Answer::In, Answer::Out]));
        (position, any::<bool>(), answer).prop_map(|(p, sub, a)| player(p, sub, a))
    }

    proptest! {
        /// Every player is counted exactly once, in their group, and what is
        /// short never exceeds the minimum nor goes below zero.
        #[test]
        fn every_player_counts_once(players in prop::collection::vec(any_player(), 0..40), min_s in 0i64..50, min_g in 0i64..10) {
            let c = GroupCounts::of(&players);
            let total: i64 = [c.skaters, c.defence, c.goalies, c.subs].iter().map(|t| t.yes + t.out + t.no_answer).sum();
            prop_assert_eq!(total, players.len() as i64);
            let answered_in = players.iter().filter(|p| p.answer == Some(Answer::In)).count() as i64;
            prop_assert_eq!(c.skaters.yes + c.defence.yes + c.goalies.yes + c.subs.yes, answered_in);
            let rules = AvailabilityRules { min_skaters: Some(min_s), min_goalies: Some(min_g), ..Default::default() };
            let (s, g) = rules.short(&players);
            prop_assert!((0..=min_s).contains(&s) && (0..=min_g).contains(&g));
            prop_assert!(s + g >= (min_s + min_g - answered_in).max(0));
        }
    }
}
