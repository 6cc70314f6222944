//! Editing an event, or it and every later event of its series
//! (docs/series.md): each is planned (merged and validated) before any is
//! written, then all are written in one transaction, and their people and
//! live documents are told after the commit.

use super::input::{EventInput, merge};
use super::series::{self, Scope, ScopeQuery};
use super::{Event, hosting, load_event, require_organiser};
use crate::auth::AuthUser;
use crate::commands;
use crate::db::{
    self,
    events::{EventFields, EventRow},
};
use crate::error::{AppError, AppResult};
use crate::feed::EventChange;
use crate::state::AppState;
use actix_web::{patch, web};

/// Edit an event (its creator and its facility's owner and managers);
/// with `scope=following`, it and every later event of its series not
/// cancelled (docs/series.md). Every event is checked before any is
/// written. Changing `maxSkaters` / `maxGoalies` goes through each event's
/// RSVP actor: a raised limit promotes from the waitlist at once.
#[utoipa::path(params(ScopeQuery), request_body = EventInput, responses((status = 200, body = Event), (status = 403, body = crate::error::ErrorEnvelope),
    (status = 409, body = crate::error::ErrorEnvelope, description = "the event is cancelled (`event_cancelled`)")), tag = "events", security(("bearerAuth" = [])))]
#[patch("/events/{id}")]
pub(super) async fn edit(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    query: web::Query<ScopeQuery>,
    body: web::Json<EventInput>,
) -> AppResult<web::Json<Event>> {
    let row = require_organiser(&state, &id, &me).await?;
    if row.cancelled_at.is_some() {
        return Err(AppError::conflict_code("event_cancelled", "a cancelled event cannot be edited"));
    }
    let input = body.into_inner();
    if input.repeat.is_some() {
        return Err(AppError::field("repeat", "a series is made with its first event; edit its events instead"));
    }
    let scope = query.scope.unwrap_or_default();
    let moves_the_rest = scope == Scope::Following && input.start_date.is_some();
    let targets = match scope {
        Scope::This => vec![(row, input)],
        Scope::Following => series::following_edits(&state, &me, row, input).await?,
    };
    let mut edits = Vec::with_capacity(targets.len());
    for (row, input) in targets {
        edits.push(plan_edit(&state, &me, row, input).await?);
    }
    let series_id = edits.first().and_then(|e| e.row.series_id.clone());
    apply_edits(&state, &me, edits).await?;
    if moves_the_rest && let Some(series_id) = &series_id {
        series::end_at_last_event(&state, series_id).await?;
    }
    series::changed(&state, series_id.as_deref());
    Ok(web::Json(load_event(&state, &id, Some(&me)).await?))
}

/// One event's edit, checked and not yet written.
struct Edit {
    row: EventRow,
    fields: EventFields,
    limits: (Option<i64>, Option<i64>),
    limits_changed: bool,
}

async fn plan_edit(state: &AppState, me: &AuthUser, row: EventRow, input: EventInput) -> AppResult<Edit> {
    let limits_changed = input.max_skaters.is_some() || input.max_goalies.is_some();
    let base = EventFields {
        title: row.title.clone(),
        description: row.description.clone(),
        location: row.location.clone(),
        start_date: row.start_date,
        end_date: row.end_date,
        image_url: row.image_url.clone(),
        facility_id: row.facility_id.clone(),
        season_id: row.season_id.clone(),
        external_home_team_name: row.external_home_team_name.clone(),
        external_away_team_name: row.external_away_team_name.clone(),
        external_rink: row.external_rink.clone(),
        home_score: row.home_score,
        away_score: row.away_score,
        event_type: row.event_type.clone(),
        group_config: row.group_config.clone(),
    };
    let (fields, limits) =
        merge(&state.db, me, input, base, (row.max_skaters, row.max_goalies), (state.clock)()).await?;
    Ok(Edit { row, fields, limits, limits_changed })
}

/// Writes the edits in one transaction; then tells the people of each
/// moved event, and the feed once (on the first).
async fn apply_edits(state: &AppState, me: &AuthUser, edits: Vec<Edit>) -> AppResult<()> {
    let now = (state.clock)();
    let mut tx = state.db.begin().await?;
    let (mut told, mut batches, mut moved) = (None, Vec::new(), Vec::new());
    for (i, one) in edits.iter().enumerate() {
        let (id, row) = (&one.row.id, &one.row);
        db::events::update(&mut *tx, id, &one.fields).await?;
        // Moved to another rink: listed there only if the editor is its staff.
        if one.fields.facility_id != row.facility_id {
            let hosted = hosting::hosted_by_facility(state, me, &one.fields).await?;
            db::events::set_hosted(&mut *tx, id, hosted).await?;
        }
        // Time and place are news to its people; new limits are told by the
        // event's own commit, below.
        let after = db::events::get(&mut *tx, id).await?.ok_or_else(|| AppError::not_found("event"))?;
        let changes: Vec<EventChange> =
            EventChange::between(row, &after).into_iter().filter(|c| *c != EventChange::Limits).collect();
        if i == 0 {
            told = crate::feed::event_updated(&mut tx, Some(&me.id), id, &changes).await?;
        }
        batches.push(crate::notify::event_moved(&mut tx, &me.id, id, &changes).await?);
        if after.start_date != row.start_date {
            // A call for subs lasts until puck drop, wherever it moved.
            db::spots::follow_event_start(&mut *tx, id, after.start_date, now).await?;
        }
        if after.start_date != row.start_date || after.facility_id != row.facility_id {
            moved.push(id.clone());
        }
    }
    tx.commit().await?;
    crate::live::feed::spawn_push(&state.db, &state.realtime.pusher, told.into_iter().collect());
    state.realtime.push_notification_batches(batches);
    for id in moved {
        crate::market::push::event_changed_soon(&state.db, &state.realtime.pusher, &id, now);
    }
    for one in edits.iter().filter(|e| e.limits_changed) {
        commands::event::set_limits(state, me, &one.row.id, one.limits.0, one.limits.1).await?;
    }
    // The regulars' window and the lock count back from the start.
    for one in edits.iter().filter(|e| e.fields.start_date != e.row.start_date) {
        let rules = &one.row.rules;
        if rules.regulars_first_minutes.is_some() || rules.cutoff_minutes.is_some() {
            commands::event::refresh_access(state, &me.id, &one.row.id).await?;
        }
    }
    Ok(())
}
