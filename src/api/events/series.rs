//! Weekly skates (docs/series.md): making a series when its first event is
//! created, reading it, and what "this and all following" reaches when an
//! event of it is edited or cancelled. Each event stays an ordinary event;
//! the edit and cancel paths in `super` do the writing.

use super::input::EventInput;
use crate::auth::AuthUser;
use crate::commands;
use crate::db::{self, events::EventFields, events::EventRow};
use crate::domain::series::{shifted, weekly_starts};
use crate::domain::text::TimeZoneName;
use crate::domain::{EventType, Frequency};
use crate::error::{AppError, AppResult};
use crate::live::series::EventSeries;
use crate::permissions::{self, Action};
use crate::state::AppState;
use actix_web::{get, web};
use chrono::NaiveDate;
use chrono_tz::Tz;
use serde::Deserialize;

/// `repeat` of a new event: make it the first of a weekly series.
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Repeat {
    pub frequency: Frequency,
    /// The last day an event may fall on (`YYYY-MM-DD`, inclusive, in the
    /// series' zone); at most 52 events.
    #[schema(value_type = String, format = Date)]
    pub until: String,
    /// The zone whose wall clock the series keeps when the event has no
    /// rink (the rink's zone wins); UTC when absent.
    #[schema(value_type = Option<TimeZoneName>)]
    pub time_zone: Option<String>,
}

/// How far an edit or a cancellation reaches.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// This event only.
    #[default]
    This,
    /// This event and every later one of its series not cancelled.
    Following,
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
pub struct ScopeQuery {
    /// `this` (default) or `following` (docs/series.md).
    #[param(inline)]
    pub scope: Option<Scope>,
}

/// A new series, checked: where its events fall.
pub(super) struct NewSeries {
    pub frequency: Frequency,
    pub time_zone: String,
    pub until: String,
    /// The first is the event's own start.
    pub starts: Vec<i64>,
}

/// Checks `repeat` against the new event's fields.
pub(super) async fn plan(state: &AppState, fields: &EventFields, repeat: Repeat, now: i64) -> AppResult<NewSeries> {
    if matches!(EventType::parse(&fields.event_type), Some(EventType::Game | EventType::ExternalGame)) {
        return Err(AppError::field(
            "repeat",
            "games are scheduled one by one (a league's come from its season); practices, skates and pickups repeat",
        ));
    }
    let zone_name = match &fields.facility_id {
        Some(facility) => db::series::facility_zone(&state.db.pool, facility).await?,
        None => None,
    };
    let zone_name = match (zone_name, repeat.time_zone) {
        (Some(rink), _) => rink,
        (None, Some(given)) => {
            TimeZoneName::parse(&given).map_err(|m| AppError::field("repeat.timeZone", m))?.as_str().to_string()
        }
        (None, None) => "UTC".to_string(),
    };
    let zone: Tz = zone_name.parse().map_err(|_| AppError::field("repeat.timeZone", "not a time zone we know"))?;
    let until = NaiveDate::parse_from_str(repeat.until.trim(), "%Y-%m-%d")
        .map_err(|_| AppError::field("repeat.until", "must be a day, like 2027-03-30"))?;
    let starts = weekly_starts(fields.start_date, zone, until).map_err(|m| AppError::field("repeat.until", m))?;
    if let Some(&last) = starts.last() {
        crate::domain::dates::event_start_in_reach(last, now).map_err(|m| AppError::field("repeat.until", m))?;
    }
    Ok(NewSeries { frequency: repeat.frequency, time_zone: zone_name, until: until.to_string(), starts })
}

/// The fields of the series' event starting at `start`: the first's, moved.
pub(super) fn at(first: &EventFields, start: i64) -> EventFields {
    EventFields {
        start_date: start,
        end_date: first.end_date.map(|end| start + (end - first.start_date)),
        ..first.clone()
    }
}

/// What an edit of `row` with `input` reaches for "this and all following":
/// each event with the input it gets (a new start moved by the same
/// wall-clock shift in the series' zone; an end keeping each one's length,
/// or the length the input gives this one). The editor must organise each.
pub(super) async fn following_edits(
    state: &AppState,
    me: &AuthUser,
    row: EventRow,
    input: EventInput,
) -> AppResult<Vec<(EventRow, EventInput)>> {
    let (series, events) = following(state, &row).await?;
    let zone: Tz = series.time_zone.parse().unwrap_or(chrono_tz::UTC);
    let new_start = match &input.start_date {
        None => None,
        Some(s) => Some(crate::time::parse_rfc3339_checked(s).map_err(|m| AppError::field("startDate", m))?),
    };
    let new_length = match &input.end_date {
        Some(Some(end)) => {
            let end = crate::time::parse_rfc3339_checked(end).map_err(|m| AppError::field("endDate", m))?;
            Some(Some(end - new_start.unwrap_or(row.start_date)))
        }
        Some(None) => Some(None),
        None => None,
    };
    let mut edits = Vec::with_capacity(events.len());
    for event in events {
        if event.id != row.id {
            permissions::check(&state.db, Some(&me.id), Action::OrganiseEvent { event_id: &event.id }).await?;
        }
        let start = match new_start {
            None => event.start_date,
            Some(to) if event.id == row.id => to,
            Some(to) => shifted(event.start_date, row.start_date, to, zone),
        };
        let length = match new_length {
            Some(length) => length,
            None => event.end_date.map(|end| end - event.start_date),
        };
        let mut each = input.clone();
        if new_start.is_some() {
            each.start_date = Some(crate::time::to_rfc3339(start));
        }
        if new_start.is_some() || new_length.is_some() {
            each.end_date = Some(length.map(|l| crate::time::to_rfc3339(start + l)));
        }
        edits.push((event, each));
    }
    Ok(edits)
}

/// After the rest of a series moved: it now runs until its last event's
/// day in its zone (moved from Tuesdays to Wednesdays, "until Jan 5" would
/// end a day before its last event).
pub(super) async fn end_at_last_event(state: &AppState, series_id: &str) -> AppResult<()> {
    let Some(series) = db::series::get(&state.db.pool, series_id).await? else { return Ok(()) };
    let zone: Tz = series.time_zone.parse().unwrap_or(chrono_tz::UTC);
    let events = db::series::events(&state.db.pool, series_id).await?;
    let last_day = events
        .last()
        .and_then(|e| chrono::DateTime::<chrono::Utc>::from_timestamp_millis(e.start_date))
        .map(|t| t.with_timezone(&zone).date_naive().to_string());
    if let Some(day) = last_day.filter(|day| *day != series.until_day) {
        db::series::set_until(&state.db.pool, series_id, &day).await?;
    }
    Ok(())
}

/// Cancels `event_id` and every later event of its series not cancelled,
/// each through its own actor (as one cancel each: run again, it cancels
/// what is left).
pub(super) async fn cancel_following(
    state: &AppState,
    me: &AuthUser,
    event_id: &str,
    reason: Option<String>,
) -> AppResult<()> {
    let row = super::require_organiser(state, event_id, me).await?;
    let (_, events) = following(state, &row).await?;
    if events.is_empty() {
        return Err(AppError::conflict_code("event_cancelled", "every event from this one on is already cancelled"));
    }
    for event in events {
        match commands::event::cancel(state, me, &event.id, reason.clone()).await {
            Ok(()) | Err(AppError::Conflict { .. }) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// The series of `row` and its events from `row` on, not cancelled.
async fn following(state: &AppState, row: &EventRow) -> AppResult<(db::series::SeriesRow, Vec<EventRow>)> {
    let not_in_series = || AppError::field("scope", "the event is not part of a series");
    let series_id = row.series_id.as_deref().ok_or_else(not_in_series)?;
    let series = db::series::get(&state.db.pool, series_id).await?.ok_or_else(not_in_series)?;
    let events = db::series::following(&state.db.pool, series_id, row).await?;
    Ok((series, events))
}

/// A weekly series and its events.
#[utoipa::path(responses((status = 200, body = EventSeries), (status = 404, body = crate::error::ErrorEnvelope)),
    tag = "events", security(("bearerAuth" = [])))]
#[get("/event-series/{id}")]
pub(super) async fn get_series(
    state: web::Data<AppState>,
    _me: AuthUser,
    id: web::Path<String>,
) -> AppResult<web::Json<EventSeries>> {
    Ok(web::Json(crate::live::series::document(&state.db, &id).await?.ok_or_else(|| AppError::not_found("series"))?))
}

/// Tells an open page's row of weeks (`series:ID`) that one of them
/// changed, in the background.
pub(super) fn changed(state: &AppState, series_id: Option<&str>) {
    if let Some(id) = series_id {
        state.realtime.pusher.push_soon(vec![crate::realtime::topics::Topic::series(id)]);
    }
}
