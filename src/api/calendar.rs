//! Calendar feeds (docs/schedule.md): a private iCalendar URL per person,
//! made, regenerated and revoked by its owner and read without a session
//! by calendar apps; and "Add to calendar", one event as a `.ics`.
//!
//! The token is 244 random bits (two v4 UUIDs) shown once, when made; the
//! server keeps only its SHA-256 and finds the feed by that hash, so the
//! lookup compares hashes of the secret, never the secret, and a copy of
//! the database opens no feed. The feed is computed when it is fetched:
//! what changed since (an answer, a promotion, a moved game) is in it.

use super::schedule::{self, ScheduleItem};
use crate::auth::AuthUser;
use crate::calendar::{self, CalendarEvent, CalendarStatus};
use crate::db::{self, schedule::Whose};
use crate::domain::{ScheduleKind, ScheduleState};
use crate::error::{AppError, AppResult};
use crate::state::AppState;
use actix_web::{HttpResponse, delete, get, post, web};
use serde::Serialize;
use utoipa_actix_web::service_config::ServiceConfig;

pub fn config(cfg: &mut ServiceConfig) {
    cfg.service(feed_state).service(make_feed).service(revoke_feed).service(feed).service(event_ics);
}

/// The feed holds items from this long ago…
const FEED_PAST_DAYS: i64 = 30;
/// …to this far ahead (a window of [`schedule::MAX_WINDOW_DAYS`] days).
const FEED_AHEAD_DAYS: i64 = schedule::MAX_WINDOW_DAYS - FEED_PAST_DAYS;
const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// The feed's path under `/api/v1` for a token.
fn feed_path(token: &str) -> String {
    format!("/api/v1/calendar/{token}.ics")
}

fn hash(token: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(token.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// 64 lowercase hex characters: two v4 UUIDs (122 random bits each).
fn new_token() -> String {
    format!("{}{}", uuid::Uuid::new_v4().simple(), uuid::Uuid::new_v4().simple())
}

/// The token in a feed file name `TOKEN.ics`, if it has the shape we give
/// out (anything else is no feed: 404 without a database read).
fn token_of(file: &str) -> Option<&str> {
    let token = file.strip_suffix(".ics")?;
    (token.len() == 64 && token.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))).then_some(token)
}

/// Whether I have a calendar feed.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CalendarFeed {
    pub active: bool,
    #[serde(with = "crate::time::rfc3339_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub created_at: Option<i64>,
}

/// A feed just made: its path holds the secret, shown this once.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NewCalendarFeed {
    /// `/api/v1/calendar/TOKEN.ics`, to put after the site's origin
    /// (`https://…`, or `webcal://…` to open a calendar app).
    pub path: String,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: i64,
}

/// Whether I have a calendar feed (its URL is shown only when made).
#[utoipa::path(responses((status = 200, body = CalendarFeed)), tag = "schedule", security(("bearerAuth" = [])))]
#[get("/me/calendar-feed")]
async fn feed_state(state: web::Data<AppState>, me: AuthUser) -> AppResult<web::Json<CalendarFeed>> {
    let created_at = db::schedule::feed_created(&state.db.pool, &me.id).await?;
    Ok(web::Json(CalendarFeed { active: created_at.is_some(), created_at }))
}

/// Make my calendar feed, or a new URL for it: the old URL stops working.
#[utoipa::path(responses((status = 201, body = NewCalendarFeed)), tag = "schedule", security(("bearerAuth" = [])))]
#[post("/me/calendar-feed")]
async fn make_feed(state: web::Data<AppState>, me: AuthUser) -> AppResult<HttpResponse> {
    let token = new_token();
    let created_at = db::schedule::set_feed(&state.db.pool, &me.id, &hash(&token)).await?;
    Ok(HttpResponse::Created().json(NewCalendarFeed { path: feed_path(&token), created_at }))
}

/// Revoke my calendar feed: its URL answers 404 from now on.
#[utoipa::path(responses((status = 204), (status = 404, body = crate::error::ErrorEnvelope, description = "no feed to revoke")), tag = "schedule", security(("bearerAuth" = [])))]
#[delete("/me/calendar-feed")]
async fn revoke_feed(state: web::Data<AppState>, me: AuthUser) -> AppResult<HttpResponse> {
    if db::schedule::delete_feed(&state.db.pool, &me.id).await? {
        Ok(HttpResponse::NoContent().finish())
    } else {
        Err(AppError::not_found("calendar feed"))
    }
}

/// A person's calendar feed (iCalendar), read by calendar apps without a
/// session: the secret in the URL is the key. Every event and game they
/// are in, waitlisted for, or on their team's schedule unanswered, from 30
/// days ago to 62 days ahead, with their standing in each title.
#[utoipa::path(params(("file" = String, Path, description = "`TOKEN.ics`")),
    responses((status = 200, content_type = "text/calendar", body = String, description = "the feed"),
    (status = 404, body = crate::error::ErrorEnvelope, description = "no such feed, or revoked")), tag = "schedule")]
#[get("/calendar/{file}")]
async fn feed(state: web::Data<AppState>, file: web::Path<String>) -> AppResult<HttpResponse> {
    let not_found = || AppError::not_found("calendar feed");
    let token = token_of(&file).ok_or_else(not_found)?;
    let (user_id, name) = db::schedule::feed_owner(&state.db.pool, &hash(token)).await?.ok_or_else(not_found)?;
    let now = (state.clock)();
    let items =
        schedule::items(&state, Whose::Own(&user_id), now - FEED_PAST_DAYS * DAY_MS, now + FEED_AHEAD_DAYS * DAY_MS)
            .await?;
    let events: Vec<CalendarEvent> =
        items.iter().filter(|i| i.my_state != Some(ScheduleState::Declined)).map(calendar_event).collect();
    let organizer = calendar::no_reply(&state.config.smtp_from);
    Ok(ics(calendar::write(&format!("Rinkside — {name}"), &organizer, &events, now), None))
}

/// One event as an iCalendar file, with my standing in its title: "Add to
/// calendar".
#[utoipa::path(responses((status = 200, content_type = "text/calendar", body = String, description = "the event"),
    (status = 404, body = crate::error::ErrorEnvelope)), tag = "schedule", security(("bearerAuth" = [])))]
#[get("/events/{id}/calendar.ics")]
async fn event_ics(state: web::Data<AppState>, me: AuthUser, id: web::Path<String>) -> AppResult<HttpResponse> {
    let row =
        db::schedule::one_event(&state.db.pool, &me.id, &id).await?.ok_or_else(|| AppError::not_found("event"))?;
    let item = schedule::from_event(row, true);
    let event = calendar_event(&item);
    let file = format!("{}.ics", file_name(&item.title));
    let organizer = calendar::no_reply(&state.config.smtp_from);
    Ok(ics(calendar::write(&item.title, &organizer, &[event], (state.clock)()), Some(&file)))
}

fn ics(body: String, download: Option<&str>) -> HttpResponse {
    let mut res = HttpResponse::Ok();
    res.content_type("text/calendar; charset=utf-8");
    // Private to the person: no shared cache may keep it.
    res.insert_header(("Cache-Control", "private, no-store"));
    if let Some(name) = download {
        res.insert_header(("Content-Disposition", format!("attachment; filename=\"{name}\"")));
    }
    res.body(body)
}

/// A file name from a title: letters, digits and dashes only.
fn file_name(title: &str) -> String {
    let slug: String = title
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' })
        .collect::<String>()
        .split('-')
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    if slug.is_empty() { "event".into() } else { slug.chars().take(60).collect() }
}

/// The title a calendar shows: the item's, with my standing after a dash
/// ("Tuesday pickup — waitlist #2"), and "Cancelled: " before it.
pub fn summary(item: &ScheduleItem) -> String {
    let state = match (item.my_state, item.waitlist_rank) {
        (Some(ScheduleState::Attending), _) => Some("in".to_string()),
        (Some(ScheduleState::Waitlisted), Some(rank)) => Some(format!("waitlist #{rank}")),
        (Some(ScheduleState::Waitlisted), None) => Some("waitlist".to_string()),
        (Some(ScheduleState::Declined), _) => Some("out".to_string()),
        (Some(ScheduleState::NotAnswered), _) => Some("not answered".to_string()),
        (None, _) => None,
    };
    let title = match state {
        Some(s) => format!("{} — {s}", item.title),
        None => item.title.clone(),
    };
    if item.status == "CANCELLED" { format!("Cancelled: {title}") } else { title }
}

fn calendar_event(item: &ScheduleItem) -> CalendarEvent {
    let kind = match item.kind {
        ScheduleKind::Event => "event",
        ScheduleKind::Game => "game",
    };
    let status = match (item.status.as_str(), item.my_state) {
        ("CANCELLED" | "POSTPONED", _) => CalendarStatus::Cancelled,
        (_, Some(ScheduleState::Waitlisted | ScheduleState::NotAnswered)) => CalendarStatus::Tentative,
        _ => CalendarStatus::Confirmed,
    };
    CalendarEvent {
        uid: format!("{kind}-{}@rinkside", item.id),
        summary: summary(item),
        description: description(item),
        location: location(item),
        start: item.starts_at,
        end: item.ends_at,
        status,
        // Seconds since it was made at its last change: grows with every
        // change, and is 0 for an item never changed.
        sequence: (item.updated_at - item.created_at).max(0) / 1000,
        last_modified: item.updated_at,
    }
}

/// DESCRIPTION: the organiser's own words, then for a game its matchup and
/// season, one line each (where they are known); `None` when there is
/// nothing to say. Where it is lives in LOCATION, not here.
fn description(item: &ScheduleItem) -> Option<String> {
    let mut lines: Vec<String> = Vec::new();
    if let Some(own) = item.description.as_deref().map(str::trim).filter(|d| !d.is_empty()) {
        lines.push(own.to_string());
    }
    if let (Some(home), Some(away)) = (&item.home_name, &item.away_name) {
        lines.push(format!("{home} vs {away}"));
    }
    if let Some(season) = &item.season_name {
        lines.push(season.clone());
    }
    (!lines.is_empty()).then(|| lines.join("\n"))
}

/// LOCATION: the imported game's rink, the event's location and the rink
/// (facility) it is at, each part written once ("Rink 2, Riverside Ice
/// Centre", never "Rink 2, Riverside Ice Centre - Rink 2").
fn location(item: &ScheduleItem) -> Option<String> {
    crate::sync::place::merge([item.rink.as_deref(), item.location.as_deref(), item.facility_name.as_deref()])
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_token_we_gave_out_has_its_shape_and_nothing_else_does() {
        let token = new_token();
        assert_eq!(token_of(&format!("{token}.ics")), Some(token.as_str()));
        assert_eq!(token_of(&token), None);
        assert_eq!(token_of(&format!("{}.ics", token.to_uppercase())), None);
        assert_eq!(token_of(".ics"), None);
        assert_ne!(new_token(), token);
        assert_eq!(hash(&token).len(), 64);
    }

    #[test]
    fn file_names_keep_letters_and_digits() {
        assert_eq!(file_name("Tuesday pickup — 21:30"), "tuesday-pickup-21-30");
        assert_eq!(file_name("—"), "event");
    }

    proptest! {
        /// Any file name is a token or refused, never a panic.
        #[test]
        fn any_file_name_is_read_or_refused(file in "\\PC{0,80}") {
            if let Some(t) = token_of(&file) {
                prop_assert_eq!(t.len(), 64);
            }
        }
    }
}
