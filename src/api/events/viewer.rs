//! The viewer's own standing on an event (organiser, rink staff, their
//! answer, waitlist place and payment), so a page renders without another
//! call.

use crate::auth::AuthUser;
use crate::db::{self, events::EventRow};
use crate::domain::HockeyPosition;
use crate::error::AppResult;
use crate::permissions::{self, Action, Object};
use crate::state::AppState;
use serde::Serialize;

/// The viewer's own standing, so a page renders without another call.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Viewer {
    pub is_organiser: bool,
    /// May read who dropped late: the organisers and the linked teams'
    /// managers (docs/pickup-night.md › History and the record).
    pub can_read_history: bool,
    /// Staff of the event's facility, who may list or unlist it there.
    pub can_host: bool,
    /// Organiser who may mark payments.
    pub can_collect_payments: bool,
    /// ATTENDING, WAITLISTED, DECLINED, REMOVED or null.
    pub status: Option<String>,
    pub waitlist_rank: Option<i64>,
    pub position: Option<HockeyPosition>,
    /// Own payment state (null when not attending).
    pub is_paid: Option<bool>,
    /// The side the organiser put the viewer on: DARK, LIGHT or null.
    pub side: Option<String>,
    /// Owed for the ice once the organiser billed the players (null when
    /// nothing is owed, or paid).
    pub owes_cents: Option<i64>,
    /// What the viewer paid (null when not marked paid).
    pub paid_cents: Option<i64>,
    /// Paid beyond their part (0 when none).
    pub credit_cents: i64,
    /// The bill's currency (ISO 4217).
    pub currency: String,
    /// One of the event's regulars (its series' list or its teams' rosters).
    pub is_regular: bool,
}

pub(super) async fn of(state: &AppState, event: &EventRow, me: &AuthUser) -> AppResult<Viewer> {
    let (event_id, facility_id) = (event.id.as_str(), event.facility_id.as_deref());
    // The event's relations hold the viewer's standing at its facility too.
    let rel = permissions::relations(&state.db, Some(&me.id), Object::Event(event_id)).await?;
    let is_organiser = rel.permits(&Action::OrganiseEvent { event_id });
    let can_read_history = rel.permits(&Action::ReadEventHistory { event_id });
    let can_host = facility_id.is_some_and(|facility_id| rel.permits(&Action::HostEvent { facility_id }));
    let collects = db::users::get(&state.db.pool, &me.id).await?.is_some_and(|u| u.can_collect_event_payments != 0);
    let (_, doc) = crate::live::event::current(&state.db, &state.realtime.events, event_id).await?;
    let attending = doc["attending"].as_array().and_then(|a| a.iter().find(|e| e["userId"] == me.id.as_str()));
    let waiting = doc["waitlist"].as_array().and_then(|a| a.iter().find(|e| e["userId"] == me.id.as_str()));
    let payments = db::events::payments(&state.db.pool, event_id).await?;
    let (status, rank, position) = match (attending, waiting) {
        (Some(a), _) => {
            (Some("ATTENDING".to_string()), None, a["position"].as_str().and_then(|p| HockeyPosition::parse(p).ok()))
        }
        (None, Some(w)) => (
            Some("WAITLISTED".to_string()),
            w["rank"].as_i64(),
            w["position"].as_str().and_then(|p| HockeyPosition::parse(p).ok()),
        ),
        (None, None) => (db::events::rsvp_status(&state.db.pool, event_id, &me.id).await?, None, None),
    };
    let side = db::sides::side_of(&state.db.pool, event_id, &me.id).await?;
    let is_regular = db::rsvp_rules::regulars(&state.db.pool, event_id).await?.iter().any(|r| r.user_id == me.id);
    let bill = crate::ice_bill::for_event(&state.db, event).await?;
    let mine = bill.of(&me.id);
    let owes_cents = match mine {
        Some((stake, share)) if bill.closed_at.is_some() && stake.is_paid == 0 && share.amount_cents > 0 => {
            Some(share.amount_cents)
        }
        _ => None,
    };
    Ok(Viewer {
        is_regular,
        side,
        owes_cents,
        paid_cents: mine.filter(|(s, _)| s.is_paid == 1).map(|(_, b)| b.amount_cents),
        credit_cents: mine.map_or(0, |(_, b)| b.credit_cents),
        currency: bill.currency.clone(),
        is_organiser,
        can_read_history,
        can_host,
        can_collect_payments: is_organiser && collects,
        is_paid: attending.map(|_| payments.get(&me.id).copied().unwrap_or(false)),
        status,
        waitlist_rank: rank,
        position,
    })
}
