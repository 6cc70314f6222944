//! The game clock (docs/game-night.md › The clock): state of the game
//! actor, never ticked. It says what was left at a server instant and
//! whether it runs since; every screen works out the time from that.
//!
//! Game time — what penalties run on — is the time played since the
//! opening face-off: the full lengths of the periods before this one
//! (`offset_ms`) plus what has run of this one.

use serde::{Deserialize, Serialize};

use super::model::Period;
use crate::hockey::text_enum;

/// Stop time (the clock stops at every whistle) or running time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum ClockMode {
    #[default]
    Stop,
    Running,
}

text_enum!(ClockMode, "clock mode", {
    Stop => "STOP",
    Running => "RUNNING",
});

/// Whether the clock counts down play or a break.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum ClockPhase {
    #[default]
    Play,
    Intermission,
}

text_enum!(ClockPhase, "clock phase", {
    Play => "PLAY",
    Intermission => "INTERMISSION",
});

/// How long periods are, from the game or its season.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClockSettings {
    pub period_minutes: i64,
    pub overtime_minutes: i64,
    pub clock_mode: ClockMode,
}

/// Limits of the settings (docs/game-night.md › Settings).
pub const PERIOD_MINUTES: std::ops::RangeInclusive<i64> = 1..=30;
pub const OVERTIME_MINUTES: std::ops::RangeInclusive<i64> = 0..=20;
pub const INTERMISSION_MINUTES: std::ops::RangeInclusive<i64> = 1..=30;
const MINUTE_MS: i64 = 60_000;

/// A game's own settings; `None` takes its season's.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GameSettings {
    pub period_minutes: Option<i64>,
    pub overtime_minutes: Option<i64>,
    pub clock_mode: Option<ClockMode>,
}

impl GameSettings {
    /// These settings over the season's.
    pub fn over(&self, season: ClockSettings) -> ClockSettings {
        ClockSettings {
            period_minutes: self.period_minutes.unwrap_or(season.period_minutes),
            overtime_minutes: self.overtime_minutes.unwrap_or(season.overtime_minutes),
            clock_mode: self.clock_mode.unwrap_or(season.clock_mode),
        }
    }

    /// The first field out of range, as `(field, message)`.
    pub fn invalid(&self) -> Option<(&'static str, String)> {
        if let Some(m) = self.period_minutes
            && !PERIOD_MINUTES.contains(&m)
        {
            return Some(("periodMinutes", "a period is 1 to 30 minutes".into()));
        }
        if let Some(m) = self.overtime_minutes
            && !OVERTIME_MINUTES.contains(&m)
        {
            return Some(("overtimeMinutes", "overtime is 0 to 20 minutes".into()));
        }
        None
    }
}

/// A change to a game's own settings: `None` leaves a field as it is,
/// `Some(None)` gives it back to the season.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SettingsPatch {
    pub period_minutes: Option<Option<i64>>,
    pub overtime_minutes: Option<Option<i64>>,
    pub clock_mode: Option<Option<ClockMode>>,
}

impl SettingsPatch {
    pub fn is_empty(&self) -> bool {
        *self == SettingsPatch::default()
    }

    pub fn applied_to(&self, own: GameSettings) -> GameSettings {
        GameSettings {
            period_minutes: self.period_minutes.unwrap_or(own.period_minutes),
            overtime_minutes: self.overtime_minutes.unwrap_or(own.overtime_minutes),
            clock_mode: self.clock_mode.unwrap_or(own.clock_mode),
        }
    }
}

impl Default for ClockSettings {
    fn default() -> Self {
        ClockSettings { period_minutes: 20, overtime_minutes: 5, clock_mode: ClockMode::Stop }
    }
}

impl ClockSettings {
    /// The length of `period` in ms (a shootout has no clock).
    pub fn period_ms(&self, period: Period) -> i64 {
        match period {
            Period::First | Period::Second | Period::Third => self.period_minutes * MINUTE_MS,
            Period::Overtime => self.overtime_minutes * MINUTE_MS,
            Period::Shootout => 0,
        }
    }

    /// Game time at the start of `period`: the full lengths before it.
    pub fn offset_ms(&self, period: Period) -> i64 {
        let regulation = self.period_minutes * MINUTE_MS;
        match period {
            Period::First => 0,
            Period::Second => regulation,
            Period::Third => 2 * regulation,
            Period::Overtime => 3 * regulation,
            Period::Shootout => 3 * regulation + self.overtime_minutes * MINUTE_MS,
        }
    }

    /// A clock at `period`'s full length, stopped.
    pub fn fresh(&self, period: Period, at_ms: i64) -> Clock {
        let length = self.period_ms(period);
        Clock {
            phase: ClockPhase::Play,
            running: false,
            remaining_ms: length,
            at: at_ms,
            period_ms: length,
            offset_ms: self.offset_ms(period),
        }
    }
}

/// The clock as every screen gets it: what was left at server instant
/// `at`, and whether it runs since.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Clock {
    pub phase: ClockPhase,
    pub running: bool,
    pub remaining_ms: i64,
    /// A server instant, epoch ms.
    pub at: i64,
    /// The length of this period (or of the intermission).
    pub period_ms: i64,
    /// Game time at the start of this period.
    pub offset_ms: i64,
}

impl Default for Clock {
    /// Before the game: a first period of the default length, stopped.
    fn default() -> Self {
        ClockSettings::default().fresh(Period::First, 0)
    }
}

impl Clock {
    /// What changes only between periods: the phase, the length, the offset.
    pub fn shape(&self) -> (ClockPhase, i64, i64) {
        (self.phase, self.period_ms, self.offset_ms)
    }

    /// Time left at `now_ms`, never below zero nor above what was left.
    pub fn remaining_at(&self, now_ms: i64) -> i64 {
        if self.running { (self.remaining_ms - (now_ms - self.at).max(0)).max(0) } else { self.remaining_ms }
    }

    /// Game time at `now_ms` (during an intermission, the end of the period
    /// before it).
    pub fn game_ms_at(&self, now_ms: i64) -> i64 {
        match self.phase {
            ClockPhase::Play => self.game_ms_with(self.remaining_at(now_ms)),
            ClockPhase::Intermission => self.offset_ms,
        }
    }

    /// Game time when `remaining_ms` is left in this period.
    pub fn game_ms_with(&self, remaining_ms: i64) -> i64 {
        self.offset_ms + self.period_ms - remaining_ms
    }

    /// The clock running from `now_ms` on.
    pub fn started(&self, now_ms: i64) -> Clock {
        Clock { running: true, remaining_ms: self.remaining_at(now_ms), at: now_ms, ..*self }
    }

    /// The clock stopped at `now_ms`.
    pub fn stopped(&self, now_ms: i64) -> Clock {
        Clock { running: false, remaining_ms: self.remaining_at(now_ms), at: now_ms, ..*self }
    }

    /// The clock set to `remaining_ms` at `now_ms`, running or not as it was.
    pub fn set(&self, remaining_ms: i64, now_ms: i64) -> Clock {
        Clock { remaining_ms, at: now_ms, ..*self }
    }

    /// A break of `minutes` before this (fresh) period, counting down from
    /// `now_ms`. Game time stays at the start of the period to come.
    pub fn intermission(&self, minutes: i64, now_ms: i64) -> Clock {
        let length = minutes * MINUTE_MS;
        Clock {
            phase: ClockPhase::Intermission,
            running: true,
            remaining_ms: length,
            at: now_ms,
            period_ms: length,
            offset_ms: self.offset_ms,
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use proptest::prelude::*;

    use super::*;

    #[test]
    fn a_running_clock_counts_down_from_its_instant_and_stops_at_zero() {
        let clock = ClockSettings::default().fresh(Period::Second, 1_000).started(1_000);
        assert_eq!(clock.remaining_at(1_000), 1_200_000);
        assert_eq!(clock.remaining_at(61_000), 1_140_000);
        assert_eq!(clock.game_ms_at(61_000), 1_200_000 + 60_000);
        assert_eq!(clock.remaining_at(10_000_000), 0);
        // An instant before `at` (another node's clock a little behind)
        // never adds time.
        assert_eq!(clock.remaining_at(500), 1_200_000);
    }

    #[test]
    fn periods_count_at_their_full_length() {
        let settings = ClockSettings { period_minutes: 15, overtime_minutes: 3, clock_mode: ClockMode::Running };
        assert_eq!(settings.offset_ms(Period::Third), 2 * 15 * 60_000);
        assert_eq!(settings.offset_ms(Period::Shootout), 45 * 60_000 + 3 * 60_000);
        assert_eq!(settings.period_ms(Period::Overtime), 3 * 60_000);
        assert_eq!(settings.period_ms(Period::Shootout), 0);
    }

    #[test]
    fn an_intermission_holds_game_time_at_the_start_of_the_period_to_come() {
        let settings = ClockSettings::default();
        let clock = settings.fresh(Period::Second, 0).intermission(15, 5_000);
        assert_eq!(clock.game_ms_at(100_000), 1_200_000);
        assert_eq!(clock.remaining_at(65_000), 15 * 60_000 - 60_000);
    }

    proptest! {
        /// Stopping and starting at any instants never loses or gains time:
        /// what is left equals the length minus the time it ran.
        #[test]
        fn start_stop_sequences_account_for_every_running_millisecond(
            gaps in prop::collection::vec(0i64..120_000, 1..40),
        ) {
            let mut clock = ClockSettings::default().fresh(Period::First, 0);
            let mut now = 0;
            let mut ran = 0;
            for (i, gap) in gaps.iter().enumerate() {
                if clock.running {
                    ran += *gap;
                }
                now += gap;
                clock = if i % 2 == 0 { clock.started(now) } else { clock.stopped(now) };
            }
            prop_assert_eq!(clock.remaining_at(now), (1_200_000 - ran).max(0));
            prop_assert_eq!(clock.game_ms_at(now), 1_200_000 - (1_200_000 - ran).max(0));
        }
    }
}
