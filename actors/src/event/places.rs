//! Who holds which place in which line: a person answering ATTENDING or
//! DECLINED, the organiser's removal, new limits, and the promotion from
//! a role's waitlist that every freed place sets off (regulars first while
//! their window is open). The rules are [`super::decide`]'s tour; these
//! steps run only after every check has passed.

use super::decide::{Effects, Person, Rejection, RsvpAction, WaitlistAction};
use super::model::{EventState, Rsvp, RsvpStatus};
use crate::hockey::{Position, Role};

pub(super) fn answerer<'a>(
    user_id: &'a str,
    person: &'a Person,
    position: Option<Position>,
    now_ms: i64,
) -> Answerer<'a> {
    Answerer {
        user_id,
        display_name: &person.display_name,
        position,
        default_position: person.preferred_position.unwrap_or(Position::Center),
        now_ms,
    }
}

/// The rules of the moment: when the regulars' window has closed since the
/// last decision, the waitlists go back to request order (a new version:
/// ranks moved) and free places are filled. Done before every decision, so
/// no command is decided under a window that has passed.
pub(super) fn follow_clock(state: &mut EventState, fx: &mut Effects, now_ms: i64) {
    let priority = state.access().in_priority(now_ms);
    if priority == state.priority || state.cancelled {
        return;
    }
    state.priority = priority;
    if state.waitlist_count(Role::Skater) + state.waitlist_count(Role::Goalie) > 0 {
        fx.touched = true;
    }
    fill(state, fx, now_ms);
}

/// Fills free places of both roles from their waitlists.
pub(super) fn fill(state: &mut EventState, fx: &mut Effects, now_ms: i64) {
    promote(state, fx, Role::Skater, now_ms);
    promote(state, fx, Role::Goalie, now_ms);
}

/// After the lock only someone already in (or waiting) for the role may
/// answer ATTENDING (a repeat, or another position in the same role).
pub(super) fn check_open(state: &EventState, who: &Answerer<'_>) -> Result<(), Rejection> {
    if !state.access().is_closed(who.now_ms) {
        return Ok(());
    }
    let current = state.rsvp(who.user_id);
    let role = who.position(current).role();
    match current {
        Some(r) if is_placed(r.status) && r.role() == role => Ok(()),
        _ => Err(Rejection::Closed),
    }
}

/// The person answering, with what is needed to write their row.
pub(super) struct Answerer<'a> {
    user_id: &'a str,
    display_name: &'a str,
    position: Option<Position>,
    default_position: Position,
    now_ms: i64,
}

impl Answerer<'_> {
    /// Explicit position, else the one already on their RSVP, else default.
    fn position(&self, current: Option<&Rsvp>) -> Position {
        self.position.or(current.map(|r| r.position)).unwrap_or(self.default_position)
    }
}

/// A new request for a role whose limit is 0 is refused (see the rules).
pub(super) fn check_places(state: &EventState, who: &Answerer<'_>) -> Result<(), Rejection> {
    let current = state.rsvp(who.user_id);
    let role = who.position(current).role();
    let already_in_role = current.is_some_and(|r| is_placed(r.status) && r.role() == role);
    if state.limit(role) == Some(0) && !already_in_role {
        return Err(Rejection::NoPlaces { role });
    }
    Ok(())
}

pub(super) fn attend(state: &mut EventState, fx: &mut Effects, who: &Answerer<'_>) {
    let current = state.rsvp(who.user_id).cloned();
    let position = who.position(current.as_ref());
    let Some(current) = current.filter(|r| is_placed(r.status)) else {
        request_place(state, fx, who, position);
        return;
    };
    if current.position == position {
        // The same answer again: nothing changes, the reply is the same.
        return;
    }
    if current.role() == position.role() {
        // Same line, different position: the place is kept.
        let row = state.update(who.user_id, |r| {
            r.position = position;
            r.display_name = who.display_name.to_owned();
        });
        fx.row(row);
        fx.rsvp(who.user_id, RsvpAction::Attending, position, who.now_ms);
        return;
    }
    // Switching role: a new request for the new role; the old place goes to
    // the old role's waitlist.
    if current.status == RsvpStatus::Waitlisted {
        fx.waitlist(who.user_id, WaitlistAction::Removed, current.position, who.now_ms);
    }
    request_place(state, fx, who, position);
    if current.status == RsvpStatus::Attending {
        promote(state, fx, current.role(), who.now_ms);
    }
}

/// A new ATTENDING request: a fresh acceptance number, then a place if the
/// role has room and nobody is queued ahead, else the back of the waitlist.
fn request_place(state: &mut EventState, fx: &mut Effects, who: &Answerer<'_>, position: Position) {
    let role = position.role();
    let lines = state.lines(role);
    let first_in_line = if !state.priority {
        lines.waitlist.is_empty()
    } else if state.access().is_regular(who.user_id) {
        lines.regulars_waiting.is_empty()
    } else {
        // Not a regular while the window is open: only an unlimited role
        // has nothing to keep for the regulars.
        state.limit(role).is_none()
    };
    let status = if state.has_room(role) && first_in_line { RsvpStatus::Attending } else { RsvpStatus::Waitlisted };
    let row = Rsvp {
        user_id: who.user_id.to_owned(),
        display_name: who.display_name.to_owned(),
        position,
        status,
        accepted_seq: state.take_seq(),
        responded_at: who.now_ms,
    };
    write_row(state, fx, row);
    fx.rsvp(who.user_id, RsvpAction::Attending, position, who.now_ms);
    if status == RsvpStatus::Waitlisted {
        fx.waitlist(who.user_id, WaitlistAction::Added, position, who.now_ms);
    }
}

pub(super) fn decline(state: &mut EventState, fx: &mut Effects, who: &Answerer<'_>) {
    let Some(current) = state.rsvp(who.user_id).cloned() else {
        let row = Rsvp {
            user_id: who.user_id.to_owned(),
            display_name: who.display_name.to_owned(),
            position: who.position(None),
            status: RsvpStatus::Declined,
            accepted_seq: 0,
            responded_at: who.now_ms,
        };
        fx.rsvp(who.user_id, RsvpAction::Declined, row.position, who.now_ms);
        write_row(state, fx, row);
        return;
    };
    if current.status == RsvpStatus::Declined {
        return;
    }
    let row = state.update(who.user_id, |r| {
        r.status = RsvpStatus::Declined;
        r.display_name = who.display_name.to_owned();
        r.responded_at = who.now_ms;
    });
    leave_line(state, fx, &current, row, RsvpAction::Declined, who.now_ms);
}

/// Takes a person's place away (their RSVP exists: checked by `super::decide`'s `refusal`).
pub(super) fn remove(state: &mut EventState, fx: &mut Effects, user_id: &str, now_ms: i64) {
    let Some(current) = state.rsvp(user_id).cloned() else { return };
    if !is_placed(current.status) {
        // Declined or already removed: there is no place to take away.
        return;
    }
    let row = state.update(user_id, |r| r.status = RsvpStatus::Removed);
    leave_line(state, fx, &current, row, RsvpAction::Removed, now_ms);
}

/// Records a person leaving their line as `action` (their row already
/// updated to `row`): off the waitlist if they were on it, and a freed
/// place goes to the next in line.
fn leave_line(
    state: &mut EventState,
    fx: &mut Effects,
    was: &Rsvp,
    row: Option<Rsvp>,
    action: RsvpAction,
    now_ms: i64,
) {
    fx.row(row);
    if was.status == RsvpStatus::Waitlisted {
        fx.waitlist(&was.user_id, WaitlistAction::Removed, was.position, now_ms);
    }
    fx.rsvp(&was.user_id, action, was.position, now_ms);
    if was.status == RsvpStatus::Attending {
        promote(state, fx, was.role(), now_ms);
    }
}

/// New limits (not negative: checked by `super::decide`'s `refusal`).
pub(super) fn set_limits(
    state: &mut EventState,
    fx: &mut Effects,
    max_skaters: Option<i64>,
    max_goalies: Option<i64>,
    now_ms: i64,
) {
    if (state.max_skaters, state.max_goalies) == (max_skaters, max_goalies) {
        return;
    }
    state.max_skaters = max_skaters;
    state.max_goalies = max_goalies;
    fx.limits_changed = true;
    fill(state, fx, now_ms);
}

/// Fills free places of `role` from its waitlist, next in line first
/// (the first regular while their window is open).
fn promote(state: &mut EventState, fx: &mut Effects, role: Role, now_ms: i64) {
    while state.has_room(role) {
        let Some(head) = state.next_in_line(role).map(str::to_owned) else {
            break;
        };
        let row = state.update(&head, |r| r.status = RsvpStatus::Attending);
        if let Some(row) = &row {
            fx.waitlist(&head, WaitlistAction::Promoted, row.position, now_ms);
        }
        fx.row(row);
    }
}

/// Inserts or replaces a person's row and records it for persisting.
fn write_row(state: &mut EventState, fx: &mut Effects, row: Rsvp) {
    if state.rsvp(&row.user_id).is_some() {
        let replacement = row.clone();
        fx.row(state.update(&row.user_id, move |r| *r = replacement));
    } else {
        state.insert(row.clone());
        fx.row(Some(row));
    }
}

/// Holding a place in a line (attending or waitlisted).
fn is_placed(status: RsvpStatus) -> bool {
    matches!(status, RsvpStatus::Attending | RsvpStatus::Waitlisted)
}
