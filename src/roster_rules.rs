//! The roster's invariants, as pure functions over plain data: no database,
//! no app state. The handlers load what a rule needs (under the roster lock,
//! so the answer still holds at commit), ask the rule, and pass its error on
//! unchanged; the errors are the API's (codes and messages in CONTRACT.md).
//!
//! - status DRAFT → ACTIVE → ARCHIVED (DRAFT → ARCHIVED too); nothing leaves
//!   ARCHIVED, and an archived roster is read-only (409 `roster_archived`);
//! - jersey numbers 0–99 (422), unique per roster (409 `jersey_taken`); one
//!   captain (409 `captain_taken`); at most two alternate captains (409
//!   `alternate_captains_full`); never captain and alternate at once (422);
//! - `maxMembers` is 1–100 or absent (422), never exceeded by adds or
//!   approvals (409 `roster_full`) and never lowered below the players
//!   already on the roster (409 `max_members_below_roster`).

use crate::db::rosters::players::{Holders, PlayerFields};
use crate::domain::RosterStatus;
use crate::error::{AppError, AppResult, FieldErrors, finish};
use std::ops::RangeInclusive;

/// Largest `maxMembers` we accept: a hockey roster, with room for subs.
pub const MAX_ROSTER_SIZE: i64 = 100;
/// Alternate captains per roster ("A" letters).
pub const MAX_ALTERNATES: usize = 2;
/// Jersey numbers a player may wear.
pub const JERSEY_NUMBERS: RangeInclusive<i64> = 0..=99;

// ---------------------------------------------------------------- status

/// May a roster go from `from` to `to`? Staying put is always allowed, so a
/// PATCH that repeats the status is no transition.
pub fn transition_allowed(from: RosterStatus, to: RosterStatus) -> bool {
    use RosterStatus::*;
    from == to || matches!((from, to), (Draft, Active) | (Active, Archived) | (Draft, Archived))
}

/// 409 `invalid_status_transition` unless [`transition_allowed`].
pub fn check_transition(from: RosterStatus, to: RosterStatus) -> AppResult<()> {
    if transition_allowed(from, to) {
        return Ok(());
    }
    Err(AppError::conflict_code(
        "invalid_status_transition",
        format!("a roster goes DRAFT → ACTIVE → ARCHIVED; {from} → {to} is not allowed"),
    ))
}

/// Does this change archive the roster (and so close its pending requests)?
pub fn archives(from: RosterStatus, to: RosterStatus) -> bool {
    to == RosterStatus::Archived && from != to
}

/// A new roster starts DRAFT or ACTIVE: archiving is a transition.
pub fn check_new_status(errors: &mut FieldErrors, status: Option<RosterStatus>) {
    if status == Some(RosterStatus::Archived) {
        errors.insert("status".into(), "a new roster is DRAFT or ACTIVE".into());
    }
}

/// 409 `roster_archived` when the roster (its stored status) is archived:
/// an archived roster is read-only.
pub fn check_writable(status: &str) -> AppResult<()> {
    if status == RosterStatus::Archived.as_str() {
        return Err(AppError::conflict_code("roster_archived", "the roster is archived and can no longer change"));
    }
    Ok(())
}

// ---------------------------------------------------------------- size

/// `maxMembers` is 1–[`MAX_ROSTER_SIZE`], or absent for no limit.
pub fn check_max_members(errors: &mut FieldErrors, max: Option<i64>) {
    if max.is_some_and(|m| !(1..=MAX_ROSTER_SIZE).contains(&m)) {
        errors.insert("maxMembers".into(), format!("must be 1–{MAX_ROSTER_SIZE}, or absent for no limit"));
    }
}

/// A new `maxMembers` may not leave players over the limit.
pub fn check_max_not_below(max: Option<i64>, members: i64) -> AppResult<()> {
    if let Some(max) = max
        && max < members
    {
        return Err(AppError::conflict_code(
            "max_members_below_roster",
            format!("{members} players are on the roster; take some off before lowering maxMembers to {max}"),
        ));
    }
    Ok(())
}

/// 409 `roster_full` when one more player would exceed `max`.
pub fn check_room(max: Option<i64>, members: i64) -> AppResult<()> {
    match max.filter(|m| members >= *m) {
        Some(max) => Err(AppError::conflict_code("roster_full", format!("the roster is full ({max} players)"))),
        None => Ok(()),
    }
}

// ---------------------------------------------------------------- players

/// Field rules of a player's complete (merged) fields: they need nobody
/// else, so they answer 422 before the roster is locked.
pub fn check_player_fields(f: &PlayerFields) -> AppResult<()> {
    let mut errors = FieldErrors::new();
    if f.jersey_number.is_some_and(|n| !JERSEY_NUMBERS.contains(&n)) {
        errors.insert("jerseyNumber".into(), "must be 0–99".into());
    }
    if f.captain && f.alternate_captain {
        errors.insert("alternateCaptain".into(), "a captain cannot also be an alternate captain".into());
    }
    finish(errors)
}

/// Rules against the roster's other players: `user_id`'s own number and
/// letters never count against them, so keeping them is no conflict.
pub fn check_against_roster(h: &Holders, user_id: &str, f: &PlayerFields) -> AppResult<()> {
    if let Some(n) = f.jersey_number
        && h.jerseys.iter().any(|(j, u)| *j == n && u != user_id)
    {
        return Err(AppError::conflict_code("jersey_taken", format!("#{n} is already worn on this roster")));
    }
    if f.captain && h.captain.as_deref().is_some_and(|c| c != user_id) {
        return Err(AppError::conflict_code("captain_taken", "the roster already has a captain"));
    }
    if f.alternate_captain && !h.alternates.iter().any(|a| a == user_id) && h.alternates.len() >= MAX_ALTERNATES {
        return Err(AppError::conflict_code(
            "alternate_captains_full",
            format!("the roster already has {MAX_ALTERNATES} alternate captains"),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::rosters::players::Holding;
    use RosterStatus::*;
    use proptest::prelude::*;
    use std::collections::{BTreeMap, BTreeSet};

    fn fields(jersey: Option<i64>, captain: bool, alternate: bool) -> PlayerFields {
        PlayerFields {
            jersey_number: jersey,
            position: None,
            commitment_level: "FULL_TIME".into(),
            captain,
            alternate_captain: alternate,
        }
    }

    fn holding(user: &str, jersey: Option<i64>, captain: bool, alternate: bool) -> Holding {
        Holding { user_id: user.into(), jersey_number: jersey, captain, alternate_captain: alternate }
    }

    /// A roster of `cap` (#9, C), `alt1` (#10, A), `alt2` (A) and `plain` (#11).
    fn full_letters() -> Holders {
        Holders::tally(vec![
            holding("cap", Some(9), true, false),
            holding("alt1", Some(10), false, true),
            holding("alt2", None, false, true),
            holding("plain", Some(11), false, false),
        ])
    }

    /// `(code, message)` of an error.
    fn said(r: AppResult<()>) -> (&'static str, String) {
        let e = r.expect_err("the rule should refuse");
        (e.code(), e.message())
    }

    /// The fields a 422 names, with their messages.
    fn field_errors(r: AppResult<()>) -> Vec<(String, String)> {
        match r {
            Err(AppError::Validation { fields, .. }) => fields.into_iter().collect(),
            other => panic!("expected validation_failed, got {other:?}"),
        }
    }

    #[test]
    fn a_roster_moves_draft_active_archived_and_never_leaves_archived() {
        let allowed = [
            (Draft, Draft),
            (Draft, Active),
            (Draft, Archived),
            (Active, Active),
            (Active, Archived),
            (Archived, Archived),
        ];
        for from in [Draft, Active, Archived] {
            for to in [Draft, Active, Archived] {
                assert_eq!(transition_allowed(from, to), allowed.contains(&(from, to)), "{from} → {to}");
                assert_eq!(check_transition(from, to).is_ok(), allowed.contains(&(from, to)), "{from} → {to}");
            }
        }
    }

    #[test]
    fn a_refused_transition_names_both_ends() {
        assert_eq!(
            said(check_transition(Active, Draft)),
            (
                "invalid_status_transition",
                "A roster goes DRAFT → ACTIVE → ARCHIVED; ACTIVE → DRAFT is not allowed".to_string()
            )
        );
        assert_eq!(said(check_transition(Archived, Active)).0, "invalid_status_transition");
    }

    #[test]
    fn only_a_move_into_archived_archives() {
        assert!(archives(Draft, Archived));
        assert!(archives(Active, Archived));
        assert!(!archives(Archived, Archived), "repeating the status closes nothing again");
        assert!(!archives(Draft, Active));
    }

    #[test]
    fn a_new_roster_is_draft_or_active() {
        for ok in [None, Some(Draft), Some(Active)] {
            let mut errors = FieldErrors::new();
            check_new_status(&mut errors, ok);
            assert!(errors.is_empty(), "{ok:?}");
        }
        let mut errors = FieldErrors::new();
        check_new_status(&mut errors, Some(Archived));
        assert_eq!(errors.get("status").map(String::as_str), Some("a new roster is DRAFT or ACTIVE"));
    }

    #[test]
    fn an_archived_roster_is_read_only() {
        assert!(check_writable("DRAFT").is_ok());
        assert!(check_writable("ACTIVE").is_ok());
        assert_eq!(
            said(check_writable("ARCHIVED")),
            ("roster_archived", "The roster is archived and can no longer change".to_string())
        );
    }

    #[test]
    fn max_members_is_one_to_a_hundred_or_absent() {
        for ok in [None, Some(1), Some(MAX_ROSTER_SIZE)] {
            let mut errors = FieldErrors::new();
            check_max_members(&mut errors, ok);
            assert!(errors.is_empty(), "{ok:?}");
        }
        for bad in [0, -1, MAX_ROSTER_SIZE + 1] {
            let mut errors = FieldErrors::new();
            check_max_members(&mut errors, Some(bad));
            assert_eq!(
                errors.get("maxMembers").map(String::as_str),
                Some("must be 1–100, or absent for no limit"),
                "{bad}"
            );
        }
    }

    #[test]
    fn max_members_never_drops_below_the_players_on_the_roster() {
        assert!(check_max_not_below(None, 30).is_ok());
        assert!(check_max_not_below(Some(3), 3).is_ok());
        assert!(check_max_not_below(Some(4), 3).is_ok());
        assert_eq!(
            said(check_max_not_below(Some(1), 2)),
            (
                "max_members_below_roster",
                "2 players are on the roster; take some off before lowering maxMembers to 1".to_string()
            )
        );
    }

    #[test]
    fn a_full_roster_takes_nobody_more() {
        assert!(check_room(None, 1000).is_ok());
        assert!(check_room(Some(3), 2).is_ok());
        assert_eq!(said(check_room(Some(3), 3)), ("roster_full", "The roster is full (3 players)".to_string()));
        // Over the limit already (it was lowered by hand in the database):
        // still full, never "room for one more".
        assert_eq!(said(check_room(Some(3), 5)).0, "roster_full");
    }

    #[test]
    fn jersey_numbers_run_from_0_to_99() {
        for n in [0, 42, 99] {
            assert!(check_player_fields(&fields(Some(n), false, false)).is_ok(), "#{n}");
        }
        assert!(check_player_fields(&fields(None, false, false)).is_ok(), "no number is fine");
        for n in [-1, 100, i64::MAX] {
            assert_eq!(
                field_errors(check_player_fields(&fields(Some(n), false, false))),
                [("jerseyNumber".to_string(), "must be 0–99".to_string())],
                "#{n}"
            );
        }
    }

    #[test]
    fn nobody_is_captain_and_alternate_at_once() {
        assert!(check_player_fields(&fields(None, true, false)).is_ok());
        assert!(check_player_fields(&fields(None, false, true)).is_ok());
        assert_eq!(
            field_errors(check_player_fields(&fields(None, true, true))),
            [("alternateCaptain".to_string(), "a captain cannot also be an alternate captain".to_string())]
        );
        // Both field errors come back together.
        assert_eq!(field_errors(check_player_fields(&fields(Some(100), true, true))).len(), 2);
    }

    #[test]
    fn a_number_worn_by_someone_else_is_taken() {
        let h = full_letters();
        assert_eq!(
            said(check_against_roster(&h, "newbie", &fields(Some(10), false, false))),
            ("jersey_taken", "#10 is already worn on this roster".to_string())
        );
        assert!(check_against_roster(&h, "alt1", &fields(Some(10), false, true)).is_ok(), "keeping your own");
        assert!(check_against_roster(&h, "newbie", &fields(Some(12), false, false)).is_ok(), "a free one");
        assert!(check_against_roster(&h, "newbie", &fields(None, false, false)).is_ok(), "none at all");
    }

    #[test]
    fn a_roster_has_one_captain() {
        let h = full_letters();
        assert_eq!(
            said(check_against_roster(&h, "plain", &fields(Some(11), true, false))),
            ("captain_taken", "The roster already has a captain".to_string())
        );
        assert!(check_against_roster(&h, "cap", &fields(Some(9), true, false)).is_ok(), "the captain stays captain");
        let no_captain = Holders::tally(vec![holding("plain", None, false, false)]);
        assert!(check_against_roster(&no_captain, "plain", &fields(None, true, false)).is_ok());
    }

    #[test]
    fn a_roster_has_at_most_two_alternates() {
        let h = full_letters();
        assert_eq!(
            said(check_against_roster(&h, "plain", &fields(Some(11), false, true))),
            ("alternate_captains_full", "The roster already has 2 alternate captains".to_string())
        );
        assert!(check_against_roster(&h, "alt2", &fields(Some(12), false, true)).is_ok(), "an alternate keeps the A");
        let one_alternate = Holders::tally(vec![holding("alt1", None, false, true)]);
        assert!(check_against_roster(&one_alternate, "plain", &fields(None, false, true)).is_ok());
    }

    #[test]
    fn the_tally_sees_every_number_and_letter() {
        let h = full_letters();
        assert_eq!(h.members, 4);
        assert_eq!(h.jerseys, [(9, "cap".to_string()), (10, "alt1".to_string()), (11, "plain".to_string())]);
        assert_eq!(h.captain.as_deref(), Some("cap"));
        assert_eq!(h.alternates, ["alt1", "alt2"]);
    }

    // ------------------------------------------------------------ property

    /// People a generated history picks from: more than the largest
    /// generated `maxMembers`, so full rosters happen.
    const PEOPLE: usize = 7;

    /// What a manager tries, as the handlers receive it.
    #[derive(Debug, Clone)]
    enum Change {
        Add { who: usize, jersey: Option<i64>, captain: bool, alternate: bool },
        Edit { who: usize, jersey: Option<Option<i64>>, captain: Option<bool>, alternate: Option<bool> },
        Remove { who: usize },
    }

    fn jersey() -> impl Strategy<Value = i64> {
        // Mostly a few numbers, so they collide; now and then one out of range.
        prop_oneof![8 => 0i64..4, 1 => Just(99), 1 => Just(-1), 1 => Just(100)]
    }

    fn change() -> impl Strategy<Value = Change> {
        let add = (0..PEOPLE, prop::option::of(jersey()), any::<bool>(), any::<bool>())
            .prop_map(|(who, jersey, captain, alternate)| Change::Add { who, jersey, captain, alternate });
        let edit = (
            0..PEOPLE,
            prop::option::of(prop::option::of(jersey())),
            prop::option::of(any::<bool>()),
            prop::option::of(any::<bool>()),
        )
            .prop_map(|(who, jersey, captain, alternate)| Change::Edit { who, jersey, captain, alternate });
        prop_oneof![4 => add, 4 => edit, 1 => (0..PEOPLE).prop_map(|who| Change::Remove { who })]
    }

    /// User id → fields.
    type Roster = BTreeMap<String, PlayerFields>;

    fn tally(roster: &Roster) -> Holders {
        Holders::tally(
            roster.iter().map(|(u, f)| holding(u, f.jersey_number, f.captain, f.alternate_captain)).collect(),
        )
    }

    /// The roster invariants; the error names the first one broken.
    fn invariants(roster: &Roster, max: Option<i64>) -> Result<(), String> {
        let mut worn = BTreeSet::new();
        for (u, f) in roster {
            if let Some(n) = f.jersey_number {
                if !JERSEY_NUMBERS.contains(&n) {
                    return Err(format!("{u} wears #{n}"));
                }
                if !worn.insert(n) {
                    return Err(format!("#{n} is worn twice"));
                }
            }
            if f.captain && f.alternate_captain {
                return Err(format!("{u} is captain and alternate"));
            }
        }
        let captains = roster.values().filter(|f| f.captain).count();
        let alternates = roster.values().filter(|f| f.alternate_captain).count();
        let members = i64::try_from(roster.len()).unwrap_or(i64::MAX);
        match () {
            _ if captains > 1 => Err(format!("{captains} captains")),
            _ if alternates > MAX_ALTERNATES => Err(format!("{alternates} alternates")),
            _ if max.is_some_and(|m| members > m) => Err(format!("{members} players, max {max:?}")),
            _ => Ok(()),
        }
    }

    /// Asks the rules in the handlers' order and says what the roster would
    /// become if the change went through; None when the handler refuses
    /// before any rule (already on the roster, no such player).
    fn attempt(roster: &Roster, max: Option<i64>, change: &Change) -> Option<(AppResult<()>, Roster)> {
        let mut after = roster.clone();
        let verdict = match change {
            Change::Add { who, jersey, captain, alternate } => {
                let user = format!("u{who}");
                if roster.contains_key(&user) {
                    return None;
                }
                let f = fields(*jersey, *captain, *alternate);
                let h = tally(roster);
                let verdict = check_player_fields(&f)
                    .and_then(|()| check_room(max, h.members))
                    .and_then(|()| check_against_roster(&h, &user, &f));
                after.insert(user, f);
                verdict
            }
            Change::Edit { who, jersey, captain, alternate } => {
                let user = format!("u{who}");
                let current = roster.get(&user)?;
                let f = fields(
                    jersey.unwrap_or(current.jersey_number),
                    captain.unwrap_or(current.captain),
                    alternate.unwrap_or(current.alternate_captain),
                );
                let verdict = check_player_fields(&f).and_then(|()| check_against_roster(&tally(roster), &user, &f));
                after.insert(user, f);
                verdict
            }
            Change::Remove { who } => {
                after.remove(&format!("u{who}"))?;
                Ok(())
            }
        };
        Some((verdict, after))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// Whatever a manager tries, the accepted changes keep every number
        /// 0–99 and unique, one captain at most, two alternates at most,
        /// nobody with both letters and no more players than `maxMembers`;
        /// and a refused change would have broken one of those (the rules
        /// are no stricter than the invariants).
        #[test]
        fn the_rules_accept_exactly_the_changes_that_keep_a_roster_valid(
            max in prop::option::of(1i64..=6),
            changes in prop::collection::vec(change(), 0..40),
        ) {
            let mut roster = Roster::new();
            for change in &changes {
                let Some((verdict, after)) = attempt(&roster, max, change) else { continue };
                match verdict {
                    Ok(()) => {
                        prop_assert_eq!(invariants(&after, max), Ok(()), "{:?} was accepted", change);
                        roster = after;
                    }
                    Err(e) => {
                        prop_assert!(invariants(&after, max).is_err(), "{:?} was refused ({}) but breaks nothing", change, e.code());
                    }
                }
            }
        }
    }
}
