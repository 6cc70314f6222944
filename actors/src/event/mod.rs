//! The per-event RSVP aggregate: its state ([`model`]), the pure rules
//! ([`mod@decide`], with who gets which place in `places`), the public
//! document ([`document`]) and the actor that drives them through storage
//! ([`actor`]).

pub mod actor;
pub mod decide;
pub mod document;
pub mod model;
mod places;

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;

pub use actor::{EventActor, EventAggregate};
pub use decide::{
    Effects, EventCommand, EventReply, Outcome, Person, Rejection, RsvpAction, RsvpAnswer, RsvpHistory, RsvpReply,
    WaitlistAction, WaitlistHistory, decide,
};
pub use document::{AttendeesDocument, AttendingEntry, Counts, WaitlistEntry};
pub use model::{Access, EventState, Rsvp, RsvpStatus, StoredEvent};
