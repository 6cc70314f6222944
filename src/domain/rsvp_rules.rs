//! An event's RSVP rules (docs/pickup-night.md): the late window, the
//! regulars' window, the lock and the game-day minimum, all in minutes
//! before puck drop so a series carries them to every week. Pure: the
//! limits, and the moments the rules make for one start.

use serde::{Deserialize, Serialize};

/// A minute in epoch milliseconds.
pub const MINUTE: i64 = 60_000;

/// A decline this close to the start is late when the event does not say.
pub const DEFAULT_LATE_WINDOW_MINUTES: i64 = 24 * 60;

/// The rules as stored (`null` = off; the late window: the default).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
#[serde(rename_all = "camelCase")]
pub struct RsvpRules {
    pub late_window_minutes: Option<i64>,
    pub regulars_first_minutes: Option<i64>,
    pub cutoff_minutes: Option<i64>,
    pub min_skaters: Option<i64>,
    pub min_goalies: Option<i64>,
    pub short_check_minutes: Option<i64>,
}

/// The moments the rules make for an event starting at `start` (epoch ms).
/// (Who dropped late is `super::attendance::is_late`.)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Moments {
    /// Places are the regulars' until then.
    pub open_to_all_at: Option<i64>,
    /// New requests are refused from then on.
    pub closes_at: Option<i64>,
    /// When the game-day check runs.
    pub short_check_at: Option<i64>,
}

impl RsvpRules {
    /// The field limits (field name, value, most), checked as a whole: every
    /// problem is reported, keyed by the wire's field names.
    pub fn problems(&self) -> Vec<(&'static str, String)> {
        let fields = [
            ("lateWindowMinutes", self.late_window_minutes, 20_160),
            ("regularsFirstMinutes", self.regulars_first_minutes, 20_160),
            ("cutoffMinutes", self.cutoff_minutes, 10_080),
            ("minSkaters", self.min_skaters, 500),
            ("minGoalies", self.min_goalies, 500),
            ("shortCheckMinutes", self.short_check_minutes, 10_080),
        ];
        let mut problems: Vec<(&'static str, String)> = fields
            .into_iter()
            .filter(|(_, value, most)| value.is_some_and(|v| !(0..=*most).contains(&v)))
            .map(|(field, _, most)| (field, format!("must be 0–{most}")))
            .collect();
        let has_minimum = self.min_skaters.is_some_and(|n| n > 0) || self.min_goalies.is_some_and(|n| n > 0);
        if self.short_check_minutes.is_some() && !has_minimum {
            problems.push(("shortCheckMinutes", "set a minimum of skaters or goalies to check against".into()));
        }
        problems
    }

    pub fn late_window_minutes(&self) -> i64 {
        super::attendance::late_window(self.late_window_minutes)
    }

    pub fn moments(&self, start: i64) -> Moments {
        let before = |minutes: Option<i64>| minutes.map(|m| start - m * MINUTE);
        Moments {
            open_to_all_at: before(self.regulars_first_minutes).filter(|_| self.regulars_first_minutes != Some(0)),
            closes_at: before(self.cutoff_minutes),
            short_check_at: before(self.short_check_minutes),
        }
    }
}

/// What is missing: (skaters, goalies) short of the minimums `min`, given
/// who plays (`have`: skaters, goalies).
pub fn shortfall(min: (Option<i64>, Option<i64>), have: (i64, i64)) -> (i64, i64) {
    let short = |min: Option<i64>, have: i64| min.map_or(0, |m| (m - have).max(0));
    (short(min.0, have.0), short(min.1, have.1))
}

/// What is missing, in words: "3 skaters and 1 goalie".
pub fn missing_in_words(missing: (i64, i64)) -> String {
    let part = |n: i64, one: &str, many: &str| match n {
        0 => None,
        1 => Some(format!("1 {one}")),
        n => Some(format!("{n} {many}")),
    };
    let parts: Vec<String> =
        [part(missing.0, "skater", "skaters"), part(missing.1, "goalie", "goalies")].into_iter().flatten().collect();
    parts.join(" and ")
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOUR: i64 = 60 * MINUTE;

    #[test]
    fn moments_count_back_from_the_start() {
        let start = 100 * HOUR;
        let rules = RsvpRules {
            regulars_first_minutes: Some(48 * 60),
            cutoff_minutes: Some(120),
            min_skaters: Some(10),
            short_check_minutes: Some(690),
            ..RsvpRules::default()
        };
        let m = rules.moments(start);
        assert_eq!(rules.late_window_minutes(), 24 * 60, "the default late window");
        assert_eq!(m.open_to_all_at, Some(start - 48 * HOUR));
        assert_eq!(m.closes_at, Some(start - 2 * HOUR));
        assert_eq!(m.short_check_at, Some(start - 690 * MINUTE));
        assert_eq!(RsvpRules::default().moments(start).open_to_all_at, None);
        let none_first = RsvpRules { regulars_first_minutes: Some(0), ..RsvpRules::default() };
        assert_eq!(none_first.moments(start).open_to_all_at, None, "0 minutes: open to all at once");
    }

    #[test]
    fn problems_name_every_field_out_of_range() {
        let rules = RsvpRules { late_window_minutes: Some(-1), cutoff_minutes: Some(20_000), ..RsvpRules::default() };
        let fields: Vec<&str> = rules.problems().into_iter().map(|(f, _)| f).collect();
        assert_eq!(fields, ["lateWindowMinutes", "cutoffMinutes"]);
        let check_without_minimum = RsvpRules { short_check_minutes: Some(600), ..RsvpRules::default() };
        assert_eq!(check_without_minimum.problems()[0].0, "shortCheckMinutes");
        let fine = RsvpRules { short_check_minutes: Some(600), min_goalies: Some(2), ..RsvpRules::default() };
        assert!(fine.problems().is_empty());
    }

    #[test]
    fn shortfall_counts_only_what_is_missing() {
        let rules = RsvpRules { min_skaters: Some(10), min_goalies: Some(2), ..RsvpRules::default() };
        assert_eq!(shortfall((rules.min_skaters, rules.min_goalies), (7, 2)), (3, 0));
        assert_eq!(shortfall((rules.min_skaters, rules.min_goalies), (12, 0)), (0, 2));
        assert_eq!(shortfall((None, None), (0, 0)), (0, 0));
        assert_eq!(missing_in_words((3, 1)), "3 skaters and 1 goalie");
        assert_eq!(missing_in_words((1, 0)), "1 skater");
        assert_eq!(missing_in_words((0, 2)), "2 goalies");
    }
}
