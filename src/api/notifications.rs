//! The signed-in person's notifications (docs/notifications.md): what
//! happened to them, newest first, keyset-paged; the unread count; marking
//! read; their reminder settings. Who is told what is `crate::notify`; the
//! items and the live `notifications` topic are
//! `crate::live::notifications`.

use super::{Page, query_whole};
use crate::auth::AuthUser;
use crate::db::{self, notifications as rows};
use crate::domain::text::schema;
use crate::error::{AppError, AppResult};
use crate::live::notifications::{self as live, Notification};
use crate::state::AppState;
use actix_web::{get, post, put, web};
use serde::{Deserialize, Serialize};
use utoipa_actix_web::service_config::ServiceConfig;

pub fn config(cfg: &mut ServiceConfig) {
    cfg.service(list).service(unread_count).service(read_all).service(read_one).service(settings).service(set_settings);
}

/// `?limit=&cursor=&unread=` of my notifications.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
pub struct NotificationsQuery {
    /// 1–100, default 20.
    #[serde(default, deserialize_with = "query_whole")]
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
    /// `nextCursor` of the previous page.
    #[param(schema_with = schema::time_cursor)]
    pub cursor: Option<String>,
    /// `true`: only the unread ones.
    pub unread: Option<bool>,
}

/// My notifications, newest first.
#[utoipa::path(params(NotificationsQuery), responses((status = 200, body = Page<Notification>), (status = 401, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)), tag = "notifications", security(("bearerAuth" = [])))]
#[get("/notifications")]
async fn list(
    state: web::Data<AppState>,
    me: AuthUser,
    query: web::Query<NotificationsQuery>,
) -> AppResult<web::Json<Page<Notification>>> {
    let limit = super::page_rows(query.limit)?;
    let before = match query.cursor.as_deref() {
        None => None,
        Some(raw) => {
            let c = db::Cursor::parse(raw).ok_or_else(|| AppError::field("cursor", "not a cursor we gave out"))?;
            Some((c.at, c.id))
        }
    };
    let (items, next_cursor) = live::page(&state.db, &me.id, before, query.unread.unwrap_or(false), limit).await?;
    Ok(web::Json(Page { items, next_cursor }))
}

/// How many of my notifications are unread.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct UnreadCount {
    pub unread: i64,
}

/// How many of my notifications are unread (the bell's number).
#[utoipa::path(responses((status = 200, body = UnreadCount), (status = 401, body = crate::error::ErrorEnvelope)), tag = "notifications", security(("bearerAuth" = [])))]
#[get("/notifications/unread-count")]
async fn unread_count(state: web::Data<AppState>, me: AuthUser) -> AppResult<web::Json<UnreadCount>> {
    Ok(web::Json(UnreadCount { unread: rows::unread_count(&state.db.pool, &me.id).await? }))
}

/// Mark one of my notifications read (reading it again changes nothing).
/// Someone else's answers 404, as one that does not exist.
#[utoipa::path(responses((status = 200, body = Notification), (status = 401, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope)), tag = "notifications", security(("bearerAuth" = [])))]
#[post("/notifications/{id}/read")]
async fn read_one(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
) -> AppResult<web::Json<Notification>> {
    let now = (state.clock)();
    let changed = rows::mark_read(&state.db.pool, &me.id, &id, now).await?;
    let row = rows::get(&state.db.pool, &me.id, &id).await?.ok_or_else(|| AppError::not_found("notification"))?;
    if changed {
        live::push_read(&state.db, &state.realtime.pusher, &me.id, Some(std::slice::from_ref(&row.id))).await?;
    }
    Notification::from_row(row).map(web::Json).ok_or_else(|| AppError::not_found("notification"))
}

/// What marking all read did.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ReadAll {
    /// How many were unread until now.
    pub marked: i64,
    /// Always 0 after it.
    pub unread: i64,
}

/// Mark all my notifications read.
#[utoipa::path(responses((status = 200, body = ReadAll), (status = 401, body = crate::error::ErrorEnvelope)), tag = "notifications", security(("bearerAuth" = [])))]
#[post("/notifications/read-all")]
async fn read_all(state: web::Data<AppState>, me: AuthUser) -> AppResult<web::Json<ReadAll>> {
    let now = (state.clock)();
    let marked = rows::mark_all_read(&state.db.pool, &me.id, now).await?;
    if marked > 0 {
        live::push_read(&state.db, &state.realtime.pusher, &me.id, None).await?;
    }
    let unread = rows::unread_count(&state.db.pool, &me.id).await?;
    Ok(web::Json(ReadAll { marked: i64::try_from(marked).unwrap_or(i64::MAX), unread }))
}

/// Most reminders a person keeps.
pub const MAX_REMINDERS: usize = 4;
/// The earliest reminder: a week before.
pub const MAX_REMINDER_MINUTES: i64 = 7 * 24 * 60;
/// The latest reminder: five minutes before.
pub const MIN_REMINDER_MINUTES: i64 = 5;

/// My notification settings.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NotificationSettings {
    /// Reminders before each event I am attending or waitlisted for, in
    /// minutes before its start, largest first (default `[1440, 120]`:
    /// a day and two hours before). Empty: no reminders.
    pub reminder_minutes: Vec<i64>,
    /// Whether I am told (SUB_MATCH) when an event with open places matches
    /// my AVAILABLE_TO_SUB status; default true.
    pub sub_matches: bool,
}

/// New notification settings: each field given replaces that setting, an
/// absent one keeps it (so a screen that shows one setting cannot reset
/// another it never read).
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct NotificationSettingsInput {
    /// At most 4, each 5 to 10080 (a week) minutes before the start, no
    /// repeats. Empty: no reminders.
    #[schema(schema_with = reminder_minutes_schema)]
    #[serde(default, deserialize_with = "some_whole_list")]
    pub reminder_minutes: Option<Vec<i64>>,
    /// `false`: no SUB_MATCH notifications (absent or null keeps the
    /// setting).
    #[serde(default)]
    pub sub_matches: Option<bool>,
}

/// `reminderMinutes`: up to [`MAX_REMINDERS`] different whole numbers of
/// minutes, each a week to five minutes before the start.
fn reminder_minutes_schema() -> utoipa::openapi::schema::Array {
    use utoipa::openapi::schema::{ArrayBuilder, KnownFormat, ObjectBuilder, SchemaFormat, Type};
    ArrayBuilder::new()
        .items(
            ObjectBuilder::new()
                .schema_type(Type::Integer)
                .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
                .minimum(Some(MIN_REMINDER_MINUTES as f64))
                .maximum(Some(MAX_REMINDER_MINUTES as f64)),
        )
        .max_items(Some(MAX_REMINDERS))
        .unique_items(true)
        .description(Some("Minutes before the start, each once; empty for no reminders."))
        .build()
}

/// [`whole_list`] of a field that may be absent (but not null).
fn some_whole_list<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Vec<i64>>, D::Error> {
    whole_list(d).map(Some)
}

/// A list of whole numbers (`1440`, not `1440.5` nor `"1440"`).
fn whole_list<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<i64>, D::Error> {
    #[derive(Deserialize)]
    struct One(#[serde(deserialize_with = "super::whole")] i64);
    Ok(Vec::<One>::deserialize(d)?.into_iter().map(|o| o.0).collect())
}

/// The reminders as they are kept: checked, largest first.
pub fn checked_reminders(minutes: &[i64]) -> Result<Vec<i64>, AppError> {
    let bad = |m: String| Err(AppError::field("reminderMinutes", m));
    if minutes.len() > MAX_REMINDERS {
        return bad(format!("at most {MAX_REMINDERS} reminders"));
    }
    if let Some(m) = minutes.iter().find(|m| !(MIN_REMINDER_MINUTES..=MAX_REMINDER_MINUTES).contains(m)) {
        return bad(format!(
            "{m} is not between {MIN_REMINDER_MINUTES} minutes and a week ({MAX_REMINDER_MINUTES} minutes) before"
        ));
    }
    let mut sorted = minutes.to_vec();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    sorted.dedup();
    if sorted.len() != minutes.len() {
        return bad("the same reminder twice".into());
    }
    Ok(sorted)
}

/// My notification settings.
#[utoipa::path(responses((status = 200, body = NotificationSettings), (status = 401, body = crate::error::ErrorEnvelope)), tag = "notifications", security(("bearerAuth" = [])))]
#[get("/me/notification-settings")]
async fn settings(state: web::Data<AppState>, me: AuthUser) -> AppResult<web::Json<NotificationSettings>> {
    Ok(web::Json(read_settings(&state, &me.id).await?))
}

async fn read_settings(state: &AppState, user_id: &str) -> AppResult<NotificationSettings> {
    let mut reminder_minutes = rows::reminder_minutes(&state.db.pool, user_id).await?;
    reminder_minutes.sort_unstable_by(|a, b| b.cmp(a));
    let sub_matches = rows::sub_matches(&state.db.pool, user_id).await?;
    Ok(NotificationSettings { reminder_minutes, sub_matches })
}

/// Change my notification settings.
#[utoipa::path(request_body = NotificationSettingsInput, responses((status = 200, body = NotificationSettings), (status = 401, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)), tag = "notifications", security(("bearerAuth" = [])))]
#[put("/me/notification-settings")]
async fn set_settings(
    state: web::Data<AppState>,
    me: AuthUser,
    body: web::Json<NotificationSettingsInput>,
) -> AppResult<web::Json<NotificationSettings>> {
    let reminders = body.reminder_minutes.as_deref().map(checked_reminders).transpose()?;
    let now = (state.clock)();
    if let Some(minutes) = &reminders {
        rows::set_reminder_minutes(&state.db.pool, &me.id, minutes, now).await?;
    }
    if let Some(on) = body.sub_matches {
        rows::set_sub_matches(&state.db.pool, &me.id, on, now).await?;
    }
    Ok(web::Json(read_settings(&state, &me.id).await?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reminders_are_kept_largest_first_and_refused_out_of_range_or_twice() {
        assert_eq!(checked_reminders(&[120, 1440]).unwrap(), vec![1440, 120]);
        assert_eq!(checked_reminders(&[]).unwrap(), Vec::<i64>::new());
        assert!(checked_reminders(&[4]).is_err());
        assert!(checked_reminders(&[10_081]).is_err());
        assert!(checked_reminders(&[60, 60]).is_err());
        assert!(checked_reminders(&[10, 20, 30, 40, 50]).is_err());
    }
}
