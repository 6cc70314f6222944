//! Who dropped late (docs/pickup-night.md › History and the record): an
//! event's RSVP and waitlist history as one timeline for its organisers,
//! and a series' record — who came, who dropped late, who did not show.
//! The rows are `db::history`; what they mean is `domain::attendance`.

use super::super::{Page, PageQuery};
use crate::api::schedule::EVENT_LENGTH_MS;
use crate::auth::AuthUser;
use crate::db::{self, history::HistoryRow};
use crate::domain::HockeyPosition;
use crate::domain::attendance::{self, HistoryKind, RecordEvent, RecordRow, Table};
use crate::error::{AppError, AppResult};
use crate::permissions::{self, Action};
use crate::state::AppState;
use actix_web::{get, web};
use serde::Serialize;
use std::collections::HashMap;

/// One thing that happened to someone's answer.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HistoryEntry {
    pub id: String,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub at: i64,
    pub user_id: String,
    pub display_name: String,
    pub kind: HistoryKind,
    pub position: Option<HockeyPosition>,
    /// Whole minutes from this to puck drop, rounded down (negative after it).
    pub minutes_before: i64,
    /// A DECLINED or REMOVED that gave up a place, within the event's late
    /// window before the start.
    pub late: bool,
}

fn entry(row: HistoryRow, start: i64, window: Option<i64>) -> AppResult<HistoryEntry> {
    let table = if row.source == "W" { Table::Waitlist } else { Table::Rsvp };
    let kind = HistoryKind::of_row(table, &row.action)
        .ok_or_else(|| AppError::Internal(anyhow::anyhow!("history row {} has action {}", row.id, row.action)))?;
    Ok(HistoryEntry {
        late: attendance::is_late(kind, row.held == 1, row.created_at, start, window),
        minutes_before: attendance::minutes_before(row.created_at, start),
        id: row.id,
        at: row.created_at,
        user_id: row.user_id,
        display_name: row.display_name,
        kind,
        position: row.position.as_deref().and_then(|p| HockeyPosition::parse(p).ok()),
    })
}

/// The event's RSVP and waitlist history, oldest first (its organisers and
/// its linked teams' managers).
#[utoipa::path(params(PageQuery), responses((status = 200, body = Page<HistoryEntry>), (status = 401, body = crate::error::ErrorEnvelope), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)),
    tag = "events", security(("bearerAuth" = [])))]
#[get("/events/{id}/history")]
pub(super) async fn get_history(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    page: web::Query<PageQuery>,
) -> AppResult<web::Json<Page<HistoryEntry>>> {
    permissions::check(&state.db, Some(&me.id), Action::ReadEventHistory { event_id: &id }).await?;
    let limit = page.rows()?;
    let after = page.cursor()?.map(|c| (c.at, c.id));
    let clock = db::history::event_clock(&state.db.pool, &id).await?.ok_or_else(|| AppError::not_found("event"))?;
    let rows = db::history::page(&state.db.pool, &id, after, limit).await?;
    let (rows, next_cursor) =
        db::finish_page(rows, limit, |r| db::Cursor { at: r.created_at, id: r.id.clone() }.encode());
    let items = rows
        .into_iter()
        .map(|r| entry(r, clock.start_date, clock.late_window_minutes))
        .collect::<AppResult<Vec<_>>>()?;
    Ok(web::Json(Page { items, next_cursor }))
}

/// One person's line of a series' record.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RecordLine {
    pub user_id: String,
    pub display_name: String,
    /// Events (not cancelled) they were attending at the start of, and not
    /// a no-show at.
    pub attended: i64,
    /// Places given up within an event's late window before its start.
    pub late_drop_outs: i64,
    /// Attending at the start of an ended event that used check-in, and
    /// not checked in.
    pub no_shows: i64,
}

/// `GET /event-series/{id}/record`.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct SeriesRecord {
    /// Everyone who ever answered, by name, for the series' organisers;
    /// only the viewer's own line (or none) for anyone else.
    pub items: Vec<RecordLine>,
}

/// Whether `me` organises the series: they organise its first week still
/// on (as its bill has it), or its first week when every one is cancelled.
async fn organises_series(state: &AppState, events: &[db::history::SeriesEvent], me: &AuthUser) -> AppResult<bool> {
    let Some(first) = events.iter().find(|e| e.cancelled_at.is_none()).or(events.first()) else {
        return Ok(false);
    };
    let rel = permissions::relations(&state.db, Some(&me.id), permissions::Object::Event(&first.id)).await?;
    Ok(rel.permits(&Action::ReadEventHistory { event_id: &first.id }))
}

/// A series' record: per person, events attended, late drop-outs and
/// no-shows (everyone for its organisers, the viewer's own line for
/// anyone else).
#[utoipa::path(responses((status = 200, body = SeriesRecord), (status = 401, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope)),
    tag = "events", security(("bearerAuth" = [])))]
#[get("/event-series/{id}/record")]
pub(super) async fn get_series_record(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
) -> AppResult<web::Json<SeriesRecord>> {
    db::series::get(&state.db.pool, &id).await?.ok_or_else(|| AppError::not_found("series"))?;
    let events = db::history::series_events(&state.db.pool, &id).await?;
    let whole = organises_series(&state, &events, &me).await?;
    let rows = db::history::series_rows(&state.db.pool, &id).await?;
    let mut check_ins: HashMap<String, Vec<String>> = HashMap::new();
    for (event_id, user_id) in db::history::series_check_ins(&state.db.pool, &id).await? {
        check_ins.entry(event_id).or_default().push(user_id);
    }
    let mut names: HashMap<String, String> = HashMap::new();
    let mut by_event: HashMap<String, Vec<RecordRow>> = HashMap::new();
    for row in rows {
        let table = if row.source == "W" { Table::Waitlist } else { Table::Rsvp };
        let Some(kind) = HistoryKind::of_row(table, &row.action) else { continue };
        names.entry(row.user_id.clone()).or_insert(row.display_name);
        by_event.entry(row.event_id).or_default().push(RecordRow {
            user_id: row.user_id,
            kind,
            at: row.created_at,
            held: row.held == 1,
        });
    }
    let record_events: Vec<RecordEvent> = events
        .iter()
        .map(|e| RecordEvent {
            start: e.start_date,
            end: e.end_date.unwrap_or(e.start_date + EVENT_LENGTH_MS),
            cancelled: e.cancelled_at.is_some(),
            late_window_minutes: e.late_window_minutes,
            rows: by_event.remove(&e.id).unwrap_or_default(),
            checked_in: check_ins.remove(&e.id).unwrap_or_default(),
        })
        .collect();
    let tallies = attendance::record(&record_events, (state.clock)());
    let mut items: Vec<RecordLine> = tallies
        .into_iter()
        .filter(|(user_id, _)| whole || *user_id == me.id)
        .map(|(user_id, t)| RecordLine {
            display_name: names.get(&user_id).cloned().unwrap_or_default(),
            user_id,
            attended: t.attended,
            late_drop_outs: t.late_drop_outs,
            no_shows: t.no_shows,
        })
        .collect();
    items.sort_by(|a, b| {
        a.display_name.to_lowercase().cmp(&b.display_name.to_lowercase()).then_with(|| a.user_id.cmp(&b.user_id))
    });
    Ok(web::Json(SeriesRecord { items }))
}
