//! Who came, who dropped late, who did not show (docs/pickup-night.md ›
//! History and the record): the rules over an event's RSVP and waitlist
//! history, pure. `db::history` reads the rows; `api::events::history`
//! serves what these rules make of them.
//!
//! Two facts come from the rows as the event's actor wrote them:
//! - a batch's RSVP rows are written before its waitlist rows, so within one
//!   millisecond a person's `JOINED` comes before their `WAITLISTED`, and
//!   their `DECLINED` before their `LEFT_WAITLIST` ([`Replay`] reads them in
//!   that order);
//! - whether a `DECLINED` or `REMOVED` gave up a *place* (the person was
//!   attending, not waiting, not already out) is read with the row
//!   (`db::history`'s `held`): only giving up a place is a drop-out.

use std::collections::HashMap;

const MINUTE_MS: i64 = 60_000;

/// What a history entry says happened. `JOINED`, `DECLINED` and `REMOVED`
/// are RSVP history; `WAITLISTED`, `PROMOTED` and `LEFT_WAITLIST` waitlist
/// history.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum HistoryKind {
    Joined,
    Declined,
    Removed,
    Waitlisted,
    Promoted,
    LeftWaitlist,
}

/// Which history table a row comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Table {
    Rsvp,
    Waitlist,
}

impl HistoryKind {
    /// The kind of a stored row: the seed's RSVPAction (`ATTENDING`,
    /// `DECLINED`, `REMOVED`) or WaitlistAction (`ADDED`, `PROMOTED`,
    /// `REMOVED`). `None` for anything the schema's CHECKs would refuse.
    pub fn of_row(table: Table, action: &str) -> Option<Self> {
        match (table, action) {
            (Table::Rsvp, "ATTENDING") => Some(HistoryKind::Joined),
            (Table::Rsvp, "DECLINED") => Some(HistoryKind::Declined),
            (Table::Rsvp, "REMOVED") => Some(HistoryKind::Removed),
            (Table::Waitlist, "ADDED") => Some(HistoryKind::Waitlisted),
            (Table::Waitlist, "PROMOTED") => Some(HistoryKind::Promoted),
            (Table::Waitlist, "REMOVED") => Some(HistoryKind::LeftWaitlist),
            _ => None,
        }
    }

    /// A person giving up their answer: the only kinds that can be late.
    pub fn is_drop(self) -> bool {
        matches!(self, HistoryKind::Declined | HistoryKind::Removed)
    }
}

/// Whole minutes from `at` to puck drop at `start`, rounded down: 0 to 59
/// seconds before is 0, the first minute after the start is -1, so the
/// number is negative exactly when the action came after the start.
pub fn minutes_before(at: i64, start: i64) -> i64 {
    (start - at).div_euclid(MINUTE_MS)
}

/// The event's late window in minutes (`NULL` = the default, 24 h).
pub fn late_window(minutes: Option<i64>) -> i64 {
    minutes.unwrap_or(super::rsvp_rules::DEFAULT_LATE_WINDOW_MINUTES)
}

/// A late drop-out: a `DECLINED` or `REMOVED` that gave up a place
/// (`held`), before the start and at most the late window before it. After
/// the start the record's attended and no-show rules take over (someone
/// attending at the start has come or not shown; a decline afterwards does
/// not make them late as well). A window of 0 makes nothing late.
pub fn is_late(kind: HistoryKind, held: bool, at: i64, start: i64, window_minutes: Option<i64>) -> bool {
    kind.is_drop() && held && at < start && start - at <= late_window(window_minutes).saturating_mul(MINUTE_MS)
}

/// Where a person stands in one event, as the history tells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    Attending,
    Waitlisted,
    Out,
}

/// One event's history replayed in its stored order (time, then id), to
/// know where each person stood at a moment (the start).
#[derive(Debug, Default)]
pub struct Replay {
    standing: HashMap<String, Standing>,
}

impl Replay {
    /// Applies one row. Within a millisecond a batch's RSVP rows come
    /// before its waitlist rows, so a `LEFT_WAITLIST` may follow the
    /// `JOINED` of the same decision (a waiting person switching to a role
    /// with room): it only takes someone off who is still waiting.
    pub fn apply(&mut self, user_id: &str, kind: HistoryKind) {
        let now = self.standing(user_id);
        let next = match kind {
            HistoryKind::Joined | HistoryKind::Promoted => Standing::Attending,
            HistoryKind::Waitlisted => Standing::Waitlisted,
            HistoryKind::LeftWaitlist if now == Standing::Waitlisted => Standing::Out,
            HistoryKind::LeftWaitlist => now,
            HistoryKind::Declined | HistoryKind::Removed => Standing::Out,
        };
        self.standing.insert(user_id.to_owned(), next);
    }

    pub fn standing(&self, user_id: &str) -> Standing {
        self.standing.get(user_id).copied().unwrap_or(Standing::Out)
    }
}

/// One event of a series, as the record counts it.
#[derive(Clone, Debug)]
pub struct RecordEvent {
    pub start: i64,
    /// Its end (or the start plus the length an event without one is
    /// taken to last).
    pub end: i64,
    pub cancelled: bool,
    pub late_window_minutes: Option<i64>,
    /// Its history in stored order.
    pub rows: Vec<RecordRow>,
    /// Who was checked in at the rink.
    pub checked_in: Vec<String>,
}

/// One history row of an event, for the record.
#[derive(Clone, Debug)]
pub struct RecordRow {
    pub user_id: String,
    pub kind: HistoryKind,
    pub at: i64,
    /// A drop that gave up a place (see the module's notes).
    pub held: bool,
}

/// One person's line of a series' record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub attended: i64,
    pub late_drop_outs: i64,
    pub no_shows: i64,
}

/// Everyone who ever answered any event of the series, with their tally:
///
/// - *attended*: attending when an event that is not cancelled started,
///   and not a no-show there;
/// - *late drop-outs*: [`is_late`] drops, at any event of the series;
/// - *no-shows*: attending at the start of an event that has ended, used
///   check-in (someone was checked in) and did not check them in.
pub fn record(events: &[RecordEvent], now: i64) -> HashMap<String, Tally> {
    let mut tallies: HashMap<String, Tally> = HashMap::new();
    for event in events {
        // Where everyone stood at the start: the rows before it, in order.
        let mut at_start = Replay::default();
        for row in &event.rows {
            let tally = tallies.entry(row.user_id.clone()).or_default();
            if is_late(row.kind, row.held, row.at, event.start, event.late_window_minutes) {
                tally.late_drop_outs += 1;
            }
            if row.at < event.start {
                at_start.apply(&row.user_id, row.kind);
            }
        }
        if event.cancelled || event.start > now {
            continue;
        }
        let used_check_in = !event.checked_in.is_empty();
        let ended = event.end <= now;
        for (user_id, tally) in tallies.iter_mut() {
            if at_start.standing(user_id) != Standing::Attending {
                continue;
            }
            if used_check_in && ended && !event.checked_in.contains(user_id) {
                tally.no_shows += 1;
            } else {
                tally.attended += 1;
            }
        }
    }
    tallies
}

#[cfg(test)]
mod tests {
    use super::*;
    use HistoryKind::*;

    const MIN: i64 = MINUTE_MS;
    const START: i64 = 1_000_000 * MIN;

    #[test]
    fn minutes_before_count_whole_minutes_and_turn_negative_after_the_start() {
        assert_eq!(minutes_before(START - 180 * MIN, START), 180);
        assert_eq!(minutes_before(START - 59_000, START), 0);
        assert_eq!(minutes_before(START, START), 0);
        assert_eq!(minutes_before(START + 1, START), -1);
        assert_eq!(minutes_before(START + 90 * MIN, START), -90);
    }

    #[test]
    fn only_a_place_given_up_within_the_window_before_the_start_is_late() {
        let at = START - 3 * 60 * MIN;
        assert!(is_late(Declined, true, at, START, None), "3 h before, 24 h window");
        assert!(is_late(Removed, true, at, START, None));
        assert!(!is_late(Declined, false, at, START, None), "waiting or already out: no place given up");
        assert!(!is_late(LeftWaitlist, true, at, START, None));
        assert!(!is_late(Joined, true, at, START, None));
        assert!(!is_late(Declined, true, at, START, Some(120)), "a 2 h window");
        assert!(is_late(Declined, true, START - 120 * MIN, START, Some(120)), "the window's edge is in it");
        assert!(!is_late(Declined, true, START - 25 * 60 * MIN, START, None));
        assert!(!is_late(Declined, true, START + MIN, START, None), "after the start");
        assert!(!is_late(Declined, true, START - 1, START, Some(0)), "a window of 0");
    }

    #[test]
    fn rows_map_to_kinds_and_unknown_actions_to_none() {
        assert_eq!(HistoryKind::of_row(Table::Rsvp, "ATTENDING"), Some(Joined));
        assert_eq!(HistoryKind::of_row(Table::Waitlist, "REMOVED"), Some(LeftWaitlist));
        assert_eq!(HistoryKind::of_row(Table::Rsvp, "REMOVED"), Some(Removed));
        assert_eq!(HistoryKind::of_row(Table::Waitlist, "ATTENDING"), None);
    }

    #[test]
    fn a_replay_reads_a_batch_s_rsvp_rows_before_its_waitlist_rows() {
        let mut r = Replay::default();
        r.apply("a", Joined);
        r.apply("a", Waitlisted);
        assert_eq!(r.standing("a"), Standing::Waitlisted);
        // Switching to a role with room: JOINED, then LEFT_WAITLIST of the old role.
        r.apply("a", Joined);
        r.apply("a", LeftWaitlist);
        assert_eq!(r.standing("a"), Standing::Attending);
        r.apply("b", Joined);
        r.apply("b", Waitlisted);
        // Declining from the waitlist: DECLINED, then LEFT_WAITLIST.
        r.apply("b", Declined);
        r.apply("b", LeftWaitlist);
        assert_eq!(r.standing("b"), Standing::Out);
        r.apply("c", Joined);
        r.apply("c", Waitlisted);
        r.apply("c", Promoted);
        assert_eq!(r.standing("c"), Standing::Attending);
        assert_eq!(r.standing("nobody"), Standing::Out);
    }

    fn row(user: &str, kind: HistoryKind, minutes_before: i64, held: bool) -> RecordRow {
        RecordRow { user_id: user.into(), kind, at: START - minutes_before * MIN, held }
    }

    fn event(week: i64, rows: Vec<RecordRow>, checked_in: &[&str]) -> RecordEvent {
        let shift = week * 7 * 24 * 60 * MIN;
        RecordEvent {
            start: START + shift,
            end: START + shift + 60 * MIN,
            cancelled: false,
            late_window_minutes: None,
            rows: rows.into_iter().map(|r| RecordRow { at: r.at + shift, ..r }).collect(),
            checked_in: checked_in.iter().map(|s| s.to_string()).collect(),
        }
    }

    fn tally(attended: i64, late_drop_outs: i64, no_shows: i64) -> Tally {
        Tally { attended, late_drop_outs, no_shows }
    }

    #[test]
    fn the_record_counts_attended_late_drop_outs_and_no_shows_per_person() {
        let weeks = vec![
            // Week 0: ann and bob in, cat drops 2 h before, dan waits then leaves late
            // (no place given up); check-in used, bob not checked in.
            event(
                0,
                vec![
                    row("ann", Joined, 2000, false),
                    row("bob", Joined, 1900, false),
                    row("cat", Joined, 1800, false),
                    row("dan", Joined, 1700, false),
                    row("dan", Waitlisted, 1700, false),
                    row("cat", Declined, 120, true),
                    row("dan", Declined, 60, false),
                    row("dan", LeftWaitlist, 60, false),
                ],
                &["ann"],
            ),
            // Week 1: nobody checked in (no no-shows); bob declines after the start.
            event(
                1,
                vec![row("ann", Joined, 3000, false), row("bob", Joined, 3000, false), row("bob", Declined, -30, true)],
                &[],
            ),
            // Week 2: not started yet: only the late drop counts.
            event(2, vec![row("ann", Joined, 3000, false), row("ann", Removed, 10, true)], &[]),
        ];
        let now = START + 7 * 24 * 60 * MIN + 120 * MIN;
        let r = record(&weeks, now);
        assert_eq!(r["ann"], tally(2, 1, 0));
        assert_eq!(r["bob"], tally(1, 0, 1), "a no-show in week 0, attending at week 1's start");
        assert_eq!(r["cat"], tally(0, 1, 0));
        assert_eq!(r["dan"], tally(0, 0, 0), "leaving the waitlist is not a drop-out");
        assert_eq!(r.len(), 4);
    }

    #[test]
    fn a_cancelled_or_unfinished_event_counts_no_attendance_and_no_no_shows() {
        let mut cancelled = event(0, vec![row("ann", Joined, 100, false)], &[]);
        cancelled.cancelled = true;
        let running = event(1, vec![row("ann", Joined, 100, false), row("bob", Joined, 100, false)], &["ann"]);
        let during = running.start + 10 * MIN;
        let r = record(&[cancelled, running], during);
        assert_eq!(r["ann"], tally(1, 0, 0));
        assert_eq!(r["bob"], tally(1, 0, 0), "not a no-show until the event has ended");
    }
}
