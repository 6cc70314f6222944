//! Commands to an event's actor: answering (attending or declined), an
//! organiser's removal of an attendee, a change of limits, cancellation.

use super::command_key;
use crate::auth::AuthUser;
use crate::domain::HockeyPosition;
use crate::error::{AppError, AppResult};
use crate::permissions::{self, Action};
use crate::state::AppState;
use rinkside_actors::Envelope;
use rinkside_actors::event::{EventCommand, RsvpAnswer};
use serde::Deserialize;
use serde_json::Value;

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RsvpInput {
    #[serde(deserialize_with = "rsvp_action")]
    pub action: RsvpAnswer,
    /// Defaults to the position already on the RSVP, else the user's
    /// preferred position, else CENTER.
    pub position: Option<HockeyPosition>,
}

/// What an RSVP's `action` must be, said the same on REST and the socket.
pub const RSVP_ACTIONS: &str = "ATTENDING or DECLINED";

/// `action`, refused with the same message on REST and on the socket.
fn rsvp_action<'de, D: serde::Deserializer<'de>>(d: D) -> Result<RsvpAnswer, D::Error> {
    let raw = String::deserialize(d)?;
    RsvpAnswer::parse(&raw).map_err(|_| serde::de::Error::custom(format!("field `action`: {RSVP_ACTIONS}")))
}

/// Answer for yourself. Anyone signed in may; the actor decides between
/// attending and the waitlist.
#[tracing::instrument(skip(state, me, input), fields(user = %me.id))]
pub async fn rsvp(
    state: &AppState,
    me: &AuthUser,
    event_id: &str,
    input: RsvpInput,
    client_id: Option<&str>,
) -> AppResult<Value> {
    let answer = input.action;
    let position = input.position;
    // Who is answering is read by the event's actor, once for its whole batch.
    let command = EventCommand::Rsvp { user_id: me.id.clone(), answer, position, person: None, unlocked: false };
    let key = command_key("rsvp", &me.id, client_id);
    match send(state, me, event_id, command, key.clone()).await {
        // Refused (the lock, or no places): an organiser is not locked out,
        // so their answer is asked again past the lock. Only this cold path
        // reads permissions; the race for places never does.
        Err(refused @ AppError::Conflict { .. }) if answer == RsvpAnswer::Attending => {
            if !permissions::allows(&state.db, Some(&me.id), &Action::OrganiseEvent { event_id }).await? {
                return Err(refused);
            }
            let command = EventCommand::Rsvp { user_id: me.id.clone(), answer, position, person: None, unlocked: true };
            send(state, me, event_id, command, key.map(|k| format!("{k}|unlocked"))).await
        }
        other => other,
    }
}

/// Tells the event's actor its regulars, regulars' window and lock as now
/// stored (after the rules, the series' list, a roster or the start
/// changed).
pub async fn refresh_access(state: &AppState, by: &str, event_id: &str) -> AppResult<()> {
    let Some(row) = crate::db::events::get(&state.db.pool, event_id).await? else { return Ok(()) };
    if row.cancelled_at.is_some() {
        return Ok(());
    }
    let access = crate::db::event_store::access(&state.db, &row).await?;
    send_as(state, by, event_id, EventCommand::SetAccess { access }, None).await.map(drop)
}

/// Fills free places by the rules of the moment (the regulars' window has
/// closed); nothing changes when there is nothing to fill.
pub async fn refill(state: &AppState, by: &str, event_id: &str) -> AppResult<()> {
    send_as(state, by, event_id, EventCommand::Refill, None).await.map(drop)
}

/// An organiser takes a person off the attending list or the waitlist; the
/// head of the waitlist is promoted.
#[tracing::instrument(skip(state, me), fields(user = %me.id))]
pub async fn remove_attendee(
    state: &AppState,
    me: &AuthUser,
    event_id: &str,
    user_id: &str,
    client_id: Option<&str>,
) -> AppResult<Value> {
    permissions::check(&state.db, Some(&me.id), Action::OrganiseEvent { event_id }).await?;
    let command = EventCommand::Remove { user_id: user_id.to_string() };
    send(state, me, event_id, command, command_key("remove", &me.id, client_id)).await
}

/// New limits (`None` = unlimited): a raised limit promotes from the
/// waitlist at once. The caller has checked [`Action::OrganiseEvent`] and
/// validated the numbers with the rest of the edit.
pub async fn set_limits(
    state: &AppState,
    me: &AuthUser,
    event_id: &str,
    max_skaters: Option<i64>,
    max_goalies: Option<i64>,
) -> AppResult<()> {
    send(state, me, event_id, EventCommand::SetLimits { max_skaters, max_goalies }, None).await?;
    Ok(())
}

/// Cancels the event (organisers), saying why if they did (checked by the
/// caller); RSVPs are kept.
pub async fn cancel(state: &AppState, me: &AuthUser, event_id: &str, reason: Option<String>) -> AppResult<()> {
    permissions::check(&state.db, Some(&me.id), Action::OrganiseEvent { event_id }).await?;
    send(state, me, event_id, EventCommand::Cancel { reason }, None).await?;
    Ok(())
}

/// A new version of the event with nothing else changed, published on
/// `event:ID`, so that pages showing what the attendee document does not
/// carry (a payment marked paid, on the player's own page) re-read the
/// event. `by` has already been checked by the caller.
pub async fn touch(state: &AppState, by: &str, event_id: &str) -> AppResult<()> {
    send_as(state, by, event_id, EventCommand::Touch, None).await.map(drop)
}

/// Why the sync cancels an imported game's event.
pub const SYNC_CANCEL_REASON: &str = "No longer on the league's schedule.";

/// Cancels an imported game's event because the game left the league's
/// schedule (season sync decided; no permission check), saying so
/// ([`SYNC_CANCEL_REASON`]). `by` is who the sync acts for. An event
/// already cancelled stays so, with its reason.
pub async fn cancel_for_sync(state: &AppState, by: &str, event_id: &str) -> AppResult<()> {
    let command = EventCommand::Cancel { reason: Some(SYNC_CANCEL_REASON.to_string()) };
    match send_as(state, by, event_id, command, None).await {
        Ok(_) => {}
        Err(AppError::Conflict { .. }) => return Ok(()),
        Err(e) => return Err(e),
    }
    Ok(())
}

async fn send(
    state: &AppState,
    me: &AuthUser,
    event_id: &str,
    command: EventCommand,
    key: Option<String>,
) -> AppResult<Value> {
    send_as(state, &me.id, event_id, command, key).await
}

async fn send_as(
    state: &AppState,
    actor_id: &str,
    event_id: &str,
    command: EventCommand,
    key: Option<String>,
) -> AppResult<Value> {
    // Only a command with a key is ever replayed, so only it needs a digest.
    let fingerprint = key.as_ref().map(|_| super::fingerprint(&(event_id, &command)));
    let mut envelope = Envelope::new(actor_id.to_string(), command);
    if let (Some(key), Some(fingerprint)) = (key, fingerprint) {
        envelope = envelope.with_command_id(key).with_fingerprint(fingerprint);
    }
    let reply = state.realtime.events.send(event_id, envelope).await?;
    serde_json::to_value(reply).map_err(AppError::internal)
}
