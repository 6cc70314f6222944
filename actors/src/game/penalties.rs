//! Penalties by the rules (docs/game-night.md › Penalties by the rules):
//! who is in the box, until when, how many skaters each side has, and what
//! each goal was — all derived from the goals and penalties that stand, in
//! game-time order. Pure; no clock of its own (everything is game time).
//!
//! - A penalty puts its side a skater short while served, except
//!   misconducts, game misconducts and `OTHER`. At most two are served at
//!   once per side; a third waits for a place.
//! - Coincidental penalties (both sides, same game time, same kind) pair
//!   off: neither makes a power play, neither is released. One minor each
//!   with both sides at full strength plays 4 on 4 (NHL 19.1, USA Hockey
//!   409): both are served, neither released.
//! - A goal against a side with fewer skaters ends that side's
//!   non-coincidental minor with the least time left (USA Hockey 402(c));
//!   a double minor's first half ends and its second starts whole.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use super::model::Side;
use crate::hockey::text_enum;

const MINUTE_MS: i64 = 60_000;
/// Skaters a side dresses on the ice at full strength, and the fewest it
/// can be reduced to.
pub const FULL_STRENGTH: usize = 5;
pub const FEWEST_SKATERS: usize = 3;

/// What kind of penalty was called.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum PenaltyKind {
    Minor,
    DoubleMinor,
    Major,
    Misconduct,
    GameMisconduct,
    /// Minutes outside the standard lengths (league-specific): counted,
    /// never timed.
    Other,
}

text_enum!(PenaltyKind, "penalty", {
    Minor => "MINOR",
    DoubleMinor => "DOUBLE_MINOR",
    Major => "MAJOR",
    Misconduct => "MISCONDUCT",
    GameMisconduct => "GAME_MISCONDUCT",
    Other => "OTHER",
});

impl PenaltyKind {
    /// The minutes a kind stands for (`OTHER` has none of its own).
    pub fn minutes(self) -> Option<i64> {
        match self {
            PenaltyKind::Minor => Some(2),
            PenaltyKind::DoubleMinor => Some(4),
            PenaltyKind::Major => Some(5),
            PenaltyKind::Misconduct | PenaltyKind::GameMisconduct => Some(10),
            PenaltyKind::Other => None,
        }
    }

    /// The kind plain minutes name (the contract's older `minutes` field).
    pub fn from_minutes(minutes: i64) -> Self {
        match minutes {
            2 => PenaltyKind::Minor,
            4 => PenaltyKind::DoubleMinor,
            5 => PenaltyKind::Major,
            10 => PenaltyKind::Misconduct,
            _ => PenaltyKind::Other,
        }
    }

    /// Whether it puts its side a skater short.
    pub fn shorthands(self) -> bool {
        matches!(self, PenaltyKind::Minor | PenaltyKind::DoubleMinor | PenaltyKind::Major)
    }

    /// Whether the penalty box clock times it.
    fn is_timed(self) -> bool {
        self.shorthands() || self == PenaltyKind::Misconduct
    }

    fn is_minor(self) -> bool {
        matches!(self, PenaltyKind::Minor | PenaltyKind::DoubleMinor)
    }

    fn duration_ms(self) -> i64 {
        if self.is_timed() { self.minutes().unwrap_or(0) * MINUTE_MS } else { 0 }
    }
}

/// A goal's strength, from the scorers' side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum Strength {
    #[default]
    #[serde(rename = "EV")]
    Even,
    #[serde(rename = "PP")]
    PowerPlay,
    #[serde(rename = "SH")]
    ShortHanded,
}

text_enum!(Strength, "strength", {
    Even => "EV",
    PowerPlay => "PP",
    ShortHanded => "SH",
});

/// A goal or a penalty, at its game time. Given in `(at_ms, seq)` order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Play {
    Penalty { seq: i64, side: Side, kind: PenaltyKind, at_ms: i64 },
    Goal { seq: i64, side: Side, at_ms: i64 },
}

/// One penalty as the box clock runs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Served {
    /// The PENALTY entry that called it.
    pub seq: i64,
    pub side: Side,
    pub kind: PenaltyKind,
    /// Game time it was called.
    pub called_ms: i64,
    /// Game time it starts and ends (projected for one still waiting;
    /// equal for one never timed).
    pub start_ms: i64,
    pub end_ms: i64,
    /// Whether it puts its side a skater short while served.
    pub short: bool,
    pub coincidental: bool,
    /// The goal that ended it early.
    pub released_by: Option<i64>,
}

/// What a goal was, decided from the box at its game time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GoalCall {
    pub seq: i64,
    pub strength: Strength,
    /// The penalty it ended (or shortened to its second half).
    pub releases: Option<i64>,
}

/// The box after every play, with each goal's call.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sheet {
    /// In the order they were called.
    pub penalties: Vec<Served>,
    pub goals: Vec<GoalCall>,
}

impl Sheet {
    /// Penalties not over at game time `now_ms` (served or waiting), in the
    /// order they were called.
    pub fn still_to_run(&self, now_ms: i64) -> impl Iterator<Item = &Served> {
        self.penalties.iter().filter(move |p| p.end_ms > now_ms)
    }

    /// Skaters on the ice for `side` at game time `now_ms`.
    pub fn skaters(&self, side: Side, now_ms: i64) -> usize {
        let short = self
            .penalties
            .iter()
            .filter(|p| p.side == side && p.short && p.start_ms <= now_ms && now_ms < p.end_ms)
            .count();
        FULL_STRENGTH.saturating_sub(short).max(FEWEST_SKATERS)
    }

    pub fn goal(&self, seq: i64) -> Option<&GoalCall> {
        self.goals.iter().find(|g| g.seq == seq)
    }
}

/// Runs the box over `plays`, given in `(at_ms, seq)` order.
pub fn run(plays: &[Play]) -> Sheet {
    let mut rink = Rink::default();
    for play in plays {
        match *play {
            Play::Penalty { seq, side, kind, at_ms } => {
                rink.advance(at_ms);
                rink.call(seq, side, kind, at_ms);
            }
            Play::Goal { seq, side, at_ms } => {
                rink.advance(at_ms);
                let call = rink.goal(seq, side, at_ms);
                rink.sheet.goals.push(call);
            }
        }
    }
    // Project the ones still waiting: when each gets its place if nothing
    // else happens.
    rink.advance(i64::MAX);
    rink.sheet
}

/// [`run`] over plays in any order: they are put in `(at_ms, seq)` order.
pub fn run_unordered(mut plays: Vec<Play>) -> Sheet {
    plays.sort_by_key(|p| match *p {
        Play::Penalty { seq, at_ms, .. } | Play::Goal { seq, at_ms, .. } => (at_ms, seq),
    });
    run(&plays)
}

fn index(side: Side) -> usize {
    match side {
        Side::Home => 0,
        Side::Away => 1,
    }
}

fn other(side: Side) -> Side {
    match side {
        Side::Home => Side::Away,
        Side::Away => Side::Home,
    }
}

/// The box while plays are run: indexes into `sheet.penalties`.
#[derive(Default)]
struct Rink {
    sheet: Sheet,
    /// Short-handing penalties being served, per side (at most two).
    serving: [Vec<usize>; 2],
    /// Short-handing penalties waiting for a place, per side, in order.
    waiting: [VecDeque<usize>; 2],
}

/// Penalties served at once per side.
const PLACES: usize = FULL_STRENGTH - FEWEST_SKATERS;

impl Rink {
    /// Ends every served penalty whose time is up by `to_ms`, earliest
    /// first, starting the next in line in each place that frees.
    fn advance(&mut self, to_ms: i64) {
        loop {
            let due = (0..2)
                .flat_map(|s| self.serving[s].iter().map(move |&i| (s, i)))
                .map(|(s, i)| (self.sheet.penalties[i].end_ms, s, i))
                .filter(|&(end, ..)| end <= to_ms)
                .min();
            let Some((end, s, i)) = due else { break };
            self.serving[s].retain(|&j| j != i);
            self.seat_next(s, end);
        }
    }

    /// The next waiting penalty of side `s` starts at `at_ms`.
    fn seat_next(&mut self, s: usize, at_ms: i64) {
        if self.serving[s].len() < PLACES
            && let Some(next) = self.waiting[s].pop_front()
        {
            let p = &mut self.sheet.penalties[next];
            p.start_ms = at_ms;
            p.end_ms = at_ms + p.kind.duration_ms();
            self.serving[s].push(next);
        }
    }

    fn skaters(&self, side: Side) -> usize {
        FULL_STRENGTH.saturating_sub(self.serving[index(side)].len()).max(FEWEST_SKATERS)
    }

    fn at_full_strength(&self, s: usize, besides: usize) -> bool {
        !self.serving[s].iter().chain(&self.waiting[s]).any(|&i| i != besides)
    }

    /// Penalty `me` leaves side `s` a skater short: it queues for a place in
    /// the box, and takes one if there is room.
    fn serve_short(&mut self, me: usize, s: usize, at_ms: i64) {
        self.sheet.penalties[me].short = true;
        self.waiting[s].push_back(me);
        self.seat_next(s, at_ms);
    }

    fn call(&mut self, seq: i64, side: Side, kind: PenaltyKind, at_ms: i64) {
        let me = self.sheet.penalties.len();
        self.sheet.penalties.push(Served {
            seq,
            side,
            kind,
            called_ms: at_ms,
            start_ms: at_ms,
            end_ms: at_ms + kind.duration_ms(),
            short: false,
            coincidental: false,
            released_by: None,
        });
        if !kind.shorthands() {
            return;
        }
        let (s, o) = (index(side), index(other(side)));
        let partner = self.sheet.penalties.iter().position(|p| {
            p.side != side
                && p.kind == kind
                && p.called_ms == at_ms
                && !p.coincidental
                && p.released_by.is_none()
                && p.seq != seq
        });
        let Some(partner) = partner else {
            self.serve_short(me, s, at_ms);
            return;
        };
        self.sheet.penalties[partner].coincidental = true;
        self.sheet.penalties[me].coincidental = true;
        let four_on_four =
            kind == PenaltyKind::Minor && self.at_full_strength(o, partner) && self.at_full_strength(s, usize::MAX);
        if four_on_four {
            // Both served: the partner already is; this one takes a place.
            self.serve_short(me, s, at_ms);
            return;
        }
        // Paired off: both run their time in the box, neither shorthands.
        let p = &mut self.sheet.penalties[partner];
        p.short = false;
        p.start_ms = at_ms;
        p.end_ms = at_ms + kind.duration_ms();
        let was_serving = self.serving[o].contains(&partner);
        self.serving[o].retain(|&j| j != partner);
        self.waiting[o].retain(|&j| j != partner);
        if was_serving {
            self.seat_next(o, at_ms);
        }
    }

    fn goal(&mut self, seq: i64, side: Side, at_ms: i64) -> GoalCall {
        let (ours, theirs) = (self.skaters(side), self.skaters(other(side)));
        let strength = match ours.cmp(&theirs) {
            std::cmp::Ordering::Greater => Strength::PowerPlay,
            std::cmp::Ordering::Less => Strength::ShortHanded,
            std::cmp::Ordering::Equal => Strength::Even,
        };
        let releases = if strength == Strength::PowerPlay { self.release(other(side), seq, at_ms) } else { None };
        GoalCall { seq, strength, releases }
    }

    /// Ends the shorthanded side's minor with the least time left.
    fn release(&mut self, side: Side, goal: i64, at_ms: i64) -> Option<i64> {
        let s = index(side);
        let two_minutes = 2 * MINUTE_MS;
        // The time left on the minor being served now (a double minor's
        // current half).
        let current = |p: &Served| {
            let left = p.end_ms - at_ms;
            if p.kind == PenaltyKind::DoubleMinor && left > two_minutes { left - two_minutes } else { left }
        };
        let (_, _, i) = self.serving[s]
            .iter()
            .map(|&i| (i, &self.sheet.penalties[i]))
            .filter(|(_, p)| p.kind.is_minor() && !p.coincidental)
            .map(|(i, p)| (current(p), p.seq, i))
            .min()?;
        let p = &mut self.sheet.penalties[i];
        let left = p.end_ms - at_ms;
        p.released_by = Some(goal);
        let seq = p.seq;
        if p.kind == PenaltyKind::DoubleMinor && left > two_minutes {
            // The second minor starts whole now; the place stays taken.
            p.end_ms = at_ms + two_minutes;
        } else {
            p.end_ms = at_ms;
            self.serving[s].retain(|&j| j != i);
            self.seat_next(s, at_ms);
        }
        Some(seq)
    }
}

#[cfg(test)]
#[path = "penalties_tests.rs"]
mod tests;
