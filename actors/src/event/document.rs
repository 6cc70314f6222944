//! The public attendees document (CONTRACT.md "Events and RSVP"): the body
//! of `GET /events/{id}/attendees` and the `data` of every `event:ID` push.
//!
//! Typed rather than `json!` so the server can fill `isPaid` per viewer by
//! editing a field, and so the shape is checked by the compiler.

use serde::{Deserialize, Serialize};

use super::model::{EventState, Rsvp};
use crate::hockey::{Position, Role};
use crate::time::rfc3339_from_ms;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AttendeesDocument {
    pub version: i64,
    /// Extension of the contract's document: watchers learn of a
    /// cancellation from the push itself.
    pub cancelled: bool,
    /// In acceptance order, both roles together.
    pub attending: Vec<AttendingEntry>,
    /// In promotion order, both roles together (regulars first while their
    /// window is open, then by request); `rank` counts per role.
    pub waitlist: Vec<WaitlistEntry>,
    pub counts: Counts,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AttendingEntry {
    pub user_id: String,
    pub display_name: String,
    pub position: Position,
    /// RFC 3339.
    pub responded_at: String,
    /// Always `null` here: payments are private to the organiser, so the
    /// server fills this per viewer.
    pub is_paid: Option<bool>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WaitlistEntry {
    pub user_id: String,
    pub display_name: String,
    pub position: Position,
    pub rank: i64,
    /// RFC 3339: when the request that put them on the waitlist was made.
    pub added_at: String,
    /// One of the event's regulars (docs/pickup-night.md).
    pub regular: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Counts {
    pub skaters: i64,
    pub goalies: i64,
    pub max_skaters: Option<i64>,
    pub max_goalies: Option<i64>,
    pub waitlist_skaters: i64,
    pub waitlist_goalies: i64,
}

impl EventState {
    /// The public document at this state's version.
    pub fn attendees_document(&self) -> AttendeesDocument {
        let mut attending: Vec<&Rsvp> = self.attending(Role::Skater).chain(self.attending(Role::Goalie)).collect();
        attending.sort_by_key(|r| r.accepted_seq);

        let mut waitlist: Vec<(i64, &Rsvp)> = Vec::new();
        for role in [Role::Skater, Role::Goalie] {
            waitlist.extend((1..).zip(self.waitlist(role)));
        }
        // Regulars first only while their window is open: the order of promotion.
        let tier = |r: &Rsvp| self.in_priority() && !self.access().is_regular(&r.user_id);
        waitlist.sort_by_key(|(_, r)| (tier(r), r.accepted_seq));

        AttendeesDocument {
            version: self.version(),
            cancelled: self.is_cancelled(),
            attending: attending
                .into_iter()
                .map(|r| AttendingEntry {
                    user_id: r.user_id.clone(),
                    display_name: r.display_name.clone(),
                    position: r.position,
                    responded_at: rfc3339_from_ms(r.responded_at),
                    is_paid: None,
                })
                .collect(),
            waitlist: waitlist
                .into_iter()
                .map(|(rank, r)| WaitlistEntry {
                    user_id: r.user_id.clone(),
                    display_name: r.display_name.clone(),
                    position: r.position,
                    rank,
                    added_at: rfc3339_from_ms(r.responded_at),
                    regular: self.access().is_regular(&r.user_id),
                })
                .collect(),
            counts: Counts {
                skaters: self.attending_count(Role::Skater),
                goalies: self.attending_count(Role::Goalie),
                max_skaters: self.max_skaters(),
                max_goalies: self.max_goalies(),
                waitlist_skaters: self.waitlist_count(Role::Skater),
                waitlist_goalies: self.waitlist_count(Role::Goalie),
            },
        }
    }
}
