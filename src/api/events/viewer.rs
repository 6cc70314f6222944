//! The viewer's own standing on an event (organiser, rink staff, their
//! answer, waitlist place and payment), so a page renders without another
//! call.

use crate::auth::AuthUser;
use crate::db;
use crate::domain::HockeyPosition;
use crate::error::AppResult;
use crate::permissions::{self, Action, Object};
use crate::startup::AppState;
use serde::Serialize;

/// The viewer's own standing, so a page renders without another call.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Viewer {
    pub is_organiser: bool,
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
}

pub(super) async fn of(
    state: &AppState,
    event_id: &str,
    facility_id: Option<&str>,
    me: &AuthUser,
) -> AppResult<Viewer> {
    // The event's relations hold the viewer's standing at its facility too.
    let rel = permissions::relations(&state.db, Some(&me.id), Object::Event(event_id)).await?;
    let is_organiser = rel.permits(&Action::OrganiseEvent { event_id });
    let can_host = facility_id.is_some_and(|facility_id| rel.permits(&Action::HostEvent { facility_id }));
    let collects = db::users::get(&state.db.pool, &me.id).await?.is_some_and(|u| u.can_collect_event_payments != 0);
    let (_, doc) = crate::live::event::current(&state.db, &state.realtime.events, event_id).await?;
    let attending = doc["attending"].as_array().and_then(|a| a.iter().find(|e| e["userId"] == me.id.as_str()));
    let waiting = doc["waitlist"].as_array().and_then(|a| a.iter().find(|e| e["userId"] == me.id.as_str()));
    let payments = db::events::payments(&state.db.pool, event_id).await?;
    let (status, rank, position) = match (attending, waiting) {
        (Some(a), _) => (Some("ATTENDING".to_string()), None, a["position"].as_str().and_then(HockeyPosition::parse)),
        (None, Some(w)) => {
            (Some("WAITLISTED".to_string()), w["rank"].as_i64(), w["position"].as_str().and_then(HockeyPosition::parse))
        }
        (None, None) => (db::events::rsvp_status(&state.db.pool, event_id, &me.id).await?, None, None),
    };
    Ok(Viewer {
        is_organiser,
        can_host,
        can_collect_payments: is_organiser && collects,
        is_paid: attending.map(|_| payments.get(&me.id).copied().unwrap_or(false)),
        status,
        waitlist_rank: rank,
        position,
    })
}
