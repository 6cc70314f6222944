//! The pure RSVP decision core: `(state, command, now) → (new state,
//! reply, rows and history to persist)`. No I/O, no clock, no randomness,
//! so the rules are tested exhaustively without a database.
//!
//! Rules (DESIGN.md "Correctness rules", decided details marked "(decided)"):
//! - A limit of `None` is unlimited. A full role puts new ATTENDING
//!   requests on that role's waitlist, FIFO by acceptance order.
//! - A freed place (decline, removal, raised limit, a person switching
//!   role) promotes the head of that role's waitlist at once, recorded as
//!   waitlist PROMOTED. The promoted person keeps their `accepted_seq`.
//! - A lowered limit evicts nobody and admits nobody until the count is
//!   below it.
//! - Declining from the waitlist leaves it (waitlist REMOVED).
//! - Repeating an answer changes nothing and answers the same.
//! - (decided) Without an explicit position, an answer keeps the position already on
//!   the person's RSVP, else uses the caller's default (the user's
//!   preferred position, else CENTER: the server knows preferences).
//! - (decided) Changing position within a role keeps the person's place. Changing
//!   role is a new request for the new role: the old place is given up (and
//!   promoted into), and the new role admits or waitlists exactly as it
//!   would for anyone else. Keeping a skater place "in reserve" while
//!   queueing as a goalie would let one person block two lines.
//! - (decided) A role with a limit of 0 has no places: a new request for it
//!   (joining, or switching role into it) is refused with `NoPlaces` rather
//!   than queued on a waitlist nobody can leave ("no goalie places"). Who is
//!   already in or queued for it when the limit drops to 0 keeps their row.
//! - (decided) Removal by the organiser is not a ban: the person may answer again
//!   and is treated as a new request.
//! - (decided) Removing someone who declined (or was removed) changes nothing;
//!   removing someone who never answered is `NoRsvp` (not_found).
//! - (decided) A cancelled event rejects every command except a repeated Cancel.
//! - Regulars first (docs/pickup-night.md): while the regulars' window is
//!   open, a regular takes a place when the role has room and no regular is
//!   waiting ahead; anyone else waits behind every regular (unless the role
//!   is unlimited); a freed place goes to the first regular waiting. When
//!   the window closes (checked against the clock before every decision)
//!   the waitlists go back to request order and free places are filled.
//! - The lock: from `closes_at` a new request to join is refused
//!   (`Closed`), unless an organiser answers (`unlocked`). Declining,
//!   removal and promotion go on as before.
//! - (decided) Versions: the first change of a batch bumps the version by one; the
//!   rest of the batch shares it ([`EventState::seal`] closes a batch). Wire
//!   `seq` is this version, so it increases by exactly one per published
//!   document and a gap really means a missed message.

//!
//! Where the rules live: this module holds the commands, replies, effects
//! and refusals, [`decide`] and every check made before a change; who gets
//! which place in which line (answering, declining, removal, promotion) is
//! `places`.

use serde::{Deserialize, Serialize};

use super::model::{Access, EventState, Rsvp, RsvpStatus};
use super::places::{answerer, attend, check_open, check_places, decline, fill, follow_clock, remove, set_limits};
use crate::error::ActorError;
use crate::hockey::{Position, Role, text_enum};

/// What a person answers to an event (an RSVP command's answer; an RSVP's
/// `action` on the wire).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = RsvpAction))]
pub enum RsvpAnswer {
    /// Attending, or on the waitlist when the event is full.
    Attending,
    Declined,
}

text_enum!(RsvpAnswer, "RSVP action", {
    Attending => "ATTENDING",
    Declined => "DECLINED",
});

/// Commands the event aggregate accepts. Authorisation (who may remove,
/// who may change limits) is the server's job before it sends one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EventCommand {
    /// A person answers for themselves.
    Rsvp {
        user_id: String,
        answer: RsvpAnswer,
        /// The position the client asked for, if any.
        position: Option<Position>,
        /// Who they are. The server sends `None` and the actor fills it in
        /// for the whole batch with one read (`EventStore::people`); still
        /// `None` when deciding means there is no such person.
        person: Option<Person>,
        /// An organiser answering: the lock does not apply to them.
        unlocked: bool,
    },
    /// The organiser removes a person from attending or the waitlist.
    Remove { user_id: String },
    /// New limits (`None` = unlimited). Raising promotes at once.
    SetLimits { max_skaters: Option<i64>, max_goalies: Option<i64> },
    /// The event will not take place; RSVPs are kept for the record.
    /// `reason`: why, as the organiser put it (checked by the server: at
    /// most 500 characters); kept with the first cancellation only.
    Cancel { reason: Option<String> },
    /// New regulars, regulars' window or lock (the server stored the rules
    /// first). The waitlists are re-tiered and free places filled.
    SetAccess { access: Access },
    /// Fill free places by the rules of the moment (sent when the regulars'
    /// window closes; changes nothing when there is nothing to fill).
    Refill,
    /// Something its readers see changed beside the RSVPs (an attendee
    /// marked paid): a new version, published, so open pages re-read the
    /// event. Allowed on a cancelled event too (refunds are marked there).
    Touch,
}

/// A person as the attendee list shows them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Person {
    pub display_name: String,
    /// Used when neither the command nor an existing RSVP names a position
    /// (CENTER when they have no preferred one).
    pub preferred_position: Option<Position>,
}

/// The seed's RSVPAction, as written to EventRSVPHistory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum RsvpAction {
    Attending,
    Declined,
    Removed,
}

text_enum!(RsvpAction, "RSVPAction", {
    Attending => "ATTENDING",
    Declined => "DECLINED",
    Removed => "REMOVED",
});

/// The seed's WaitlistAction, as written to EventWaitlistHistory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum WaitlistAction {
    Added,
    Removed,
    Promoted,
}

text_enum!(WaitlistAction, "WaitlistAction", {
    Added => "ADDED",
    Removed => "REMOVED",
    Promoted => "PROMOTED",
});

/// One EventRSVPHistory row (the event id is the commit's).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RsvpHistory {
    pub user_id: String,
    pub action: RsvpAction,
    pub position: Position,
    pub created_at: i64,
}

/// One EventWaitlistHistory row (the event id is the commit's).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WaitlistHistory {
    pub user_id: String,
    pub action: WaitlistAction,
    pub position: Position,
    pub created_at: i64,
}

/// What a decision changed, for the store to persist.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Effects {
    /// RSVP rows to upsert, in the order they changed (a row may appear
    /// more than once across a batch; the last copy wins).
    pub rsvps: Vec<Rsvp>,
    pub rsvp_history: Vec<RsvpHistory>,
    pub waitlist_history: Vec<WaitlistHistory>,
    /// The limits changed; write the state's current limits.
    pub limits_changed: bool,
    /// The event became cancelled.
    pub cancelled: bool,
    /// Why, when it became cancelled and the command said.
    pub cancel_reason: Option<String>,
    /// [`EventCommand::Touch`]: only the version moves.
    pub touched: bool,
}

impl Effects {
    pub fn is_empty(&self) -> bool {
        self.rsvps.is_empty()
            && self.rsvp_history.is_empty()
            && self.waitlist_history.is_empty()
            && !self.limits_changed
            && !self.cancelled
            && !self.touched
    }

    /// Appends a later decision's effects (group commit).
    pub fn absorb(&mut self, later: Effects) {
        self.rsvps.extend(later.rsvps);
        self.rsvp_history.extend(later.rsvp_history);
        self.waitlist_history.extend(later.waitlist_history);
        self.limits_changed |= later.limits_changed;
        self.cancelled |= later.cancelled;
        // Only the cancellation that took effect says why (a later Cancel
        // of a cancelled event decides nothing).
        if self.cancel_reason.is_none() {
            self.cancel_reason = later.cancel_reason;
        }
        self.touched |= later.touched;
    }

    pub(super) fn row(&mut self, row: Option<Rsvp>) {
        self.rsvps.extend(row);
    }

    pub(super) fn rsvp(&mut self, user_id: &str, action: RsvpAction, position: Position, at: i64) {
        self.rsvp_history.push(RsvpHistory { user_id: user_id.to_owned(), action, position, created_at: at });
    }

    pub(super) fn waitlist(&mut self, user_id: &str, action: WaitlistAction, position: Position, at: i64) {
        self.waitlist_history.push(WaitlistHistory { user_id: user_id.to_owned(), action, position, created_at: at });
    }
}

/// The body of `PUT /events/{id}/rsvp` (and of removal):
/// `{"status","waitlistRank","version"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RsvpReply {
    pub status: RsvpStatus,
    /// 1 = next; per role. `null` unless WAITLISTED.
    pub waitlist_rank: Option<i64>,
    pub version: i64,
}

/// What a command answers. Untagged so each variant's JSON is exactly the
/// REST body: RSVP and removal answer an [`RsvpReply`]; limit changes and
/// cancellation answer `{"version"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum EventReply {
    Rsvp(RsvpReply),
    Event { version: i64 },
}

impl EventReply {
    pub fn version(&self) -> i64 {
        match self {
            EventReply::Rsvp(r) => r.version,
            EventReply::Event { version } => *version,
        }
    }
}

/// A decision: the reply as of this state, and what to persist.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub reply: EventReply,
    pub effects: Effects,
}

/// Why a command was refused. Nothing in the state changed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Rejection {
    #[error("the event is cancelled")]
    Cancelled,
    #[error("user {user_id} has no RSVP for this event")]
    NoRsvp { user_id: String },
    #[error("{field} must not be negative")]
    NegativeLimit { field: &'static str },
    #[error("user {user_id} not found")]
    UnknownPerson { user_id: String },
    #[error("{}", no_places_message(*role))]
    NoPlaces { role: Role },
    #[error("RSVPs for this event are closed; you can still drop out, or ask the organiser")]
    Closed,
}

fn no_places_message(role: Role) -> &'static str {
    match role {
        Role::Goalie => "this event has no goalie places; answer as a skater",
        Role::Skater => "this event has no skater places; it is for goalies only",
    }
}

impl From<Rejection> for ActorError {
    fn from(r: Rejection) -> Self {
        match &r {
            Rejection::Cancelled | Rejection::NoPlaces { .. } | Rejection::Closed => {
                ActorError::Conflict(r.to_string())
            }
            Rejection::NoRsvp { .. } | Rejection::UnknownPerson { .. } => ActorError::NotFound(r.to_string()),
            Rejection::NegativeLimit { field } => ActorError::validation(field, r.to_string()),
        }
    }
}

impl EventState {
    /// A person's current standing as a reply, at this state's version.
    pub fn reply_for(&self, user_id: &str) -> Option<RsvpReply> {
        let rsvp = self.rsvp(user_id)?;
        Some(RsvpReply { status: rsvp.status, waitlist_rank: self.waitlist_rank(user_id), version: self.version })
    }
}

/// Decides one command against `state`, mutating it. On `Err` the state is
/// untouched (every check happens before the first change).
pub fn decide(state: &mut EventState, command: &EventCommand, now_ms: i64) -> Result<Outcome, Rejection> {
    refusal(state, command, now_ms)?;
    let mut fx = Effects::default();
    follow_clock(state, &mut fx, now_ms);
    let subject = match command {
        EventCommand::Rsvp { user_id, answer, position, person: Some(person), .. } => {
            let who = answerer(user_id, person, *position, now_ms);
            match answer {
                RsvpAnswer::Attending => attend(state, &mut fx, &who),
                RsvpAnswer::Declined => decline(state, &mut fx, &who),
            }
            Some(user_id.as_str())
        }
        // Refused above: there is no such person.
        EventCommand::Rsvp { person: None, .. } => None,
        EventCommand::Remove { user_id } => {
            remove(state, &mut fx, user_id, now_ms);
            Some(user_id.as_str())
        }
        EventCommand::SetLimits { max_skaters, max_goalies } => {
            set_limits(state, &mut fx, *max_skaters, *max_goalies, now_ms);
            None
        }
        EventCommand::SetAccess { access } => {
            if state.access() != access {
                state.set_access(access.clone());
                state.priority = state.access().in_priority(now_ms);
                fx.touched = true;
                fill(state, &mut fx, now_ms);
            }
            None
        }
        EventCommand::Refill => None,
        EventCommand::Touch => {
            fx.touched = true;
            None
        }
        EventCommand::Cancel { reason } => {
            if !state.cancelled {
                state.cancelled = true;
                fx.cancelled = true;
                fx.cancel_reason = reason.clone();
            }
            None
        }
    };
    if !fx.is_empty() {
        state.touch();
    }
    let reply = match subject.and_then(|user| state.reply_for(user)) {
        Some(reply) => EventReply::Rsvp(reply),
        None => EventReply::Event { version: state.version },
    };
    Ok(Outcome { reply, effects: fx })
}

/// Why `command` is refused, if it is: every check, before any change (so
/// a refusal leaves the state as it was, the clock's consequences
/// included).
fn refusal(state: &EventState, command: &EventCommand, now_ms: i64) -> Result<(), Rejection> {
    if state.cancelled && !matches!(command, EventCommand::Cancel { .. } | EventCommand::Touch) {
        return Err(Rejection::Cancelled);
    }
    match command {
        EventCommand::Rsvp { user_id, person: None, .. } => Err(Rejection::UnknownPerson { user_id: user_id.clone() }),
        EventCommand::Rsvp { user_id, answer: RsvpAnswer::Attending, position, person: Some(person), unlocked } => {
            let who = answerer(user_id, person, *position, now_ms);
            check_places(state, &who)?;
            if !unlocked {
                check_open(state, &who)?;
            }
            Ok(())
        }
        EventCommand::Remove { user_id } if state.rsvp(user_id).is_none() => {
            Err(Rejection::NoRsvp { user_id: user_id.clone() })
        }
        EventCommand::SetLimits { max_skaters, .. } if max_skaters.is_some_and(|n| n < 0) => {
            Err(Rejection::NegativeLimit { field: "maxSkaters" })
        }
        EventCommand::SetLimits { max_goalies, .. } if max_goalies.is_some_and(|n| n < 0) => {
            Err(Rejection::NegativeLimit { field: "maxGoalies" })
        }
        _ => Ok(()),
    }
}
