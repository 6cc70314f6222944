//! Seasons of a facility, their division mappings, and the universal
//! division scale. Turning a season on (created active, or `isActive`
//! false → true) records a SEASON_STARTED item in the feeds of the
//! facility's followers, in the same transaction. A `syncUrl` is checked
//! by the sync's fetcher when it is saved (docs/sync.md).

use super::divisions::DivisionMapping;
use super::form::Form;
use super::{Page, PageQuery, merged, nullable, patch_text};
use crate::auth::{AuthUser, MaybeUser};
use crate::db::seasons::{SeasonFields, SeasonRow};
use crate::db::{self, Cursor, finish_page};
use crate::domain::text::{HttpUrl, Name, optional};
use crate::error::{AppError, AppResult};
use crate::outbound::fetch::FetchError;
use crate::permissions::{self, Action, Object};
use crate::state::AppState;
use actix_web::{HttpResponse, get, patch, post, web};
use rinkside_actors::game::{ClockMode, ClockSettings, GameSettings};
use serde::{Deserialize, Serialize};
use utoipa_actix_web::service_config::ServiceConfig;

pub fn config(cfg: &mut ServiceConfig) {
    cfg.service(create).service(list_for_facility).service(get_one).service(edit);
}

/// A season's or a division's name.
pub(super) type SeasonName = Name<120>;

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Season {
    pub id: String,
    pub facility_id: String,
    pub facility_name: String,
    pub name: String,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub start_date: i64,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub end_date: i64,
    pub is_active: bool,
    /// The schedule source. Shown to the facility's owner and managers only
    /// (such URLs often carry a private token); null for everyone else.
    pub sync_url: Option<String>,
    pub sync_enabled: bool,
    /// When the last successful sync ran (read-only).
    #[serde(with = "crate::time::rfc3339_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub last_sync_at: Option<i64>,
    /// When the next scheduled sync is due; null when sync is off.
    #[serde(with = "crate::time::rfc3339_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub next_sync_at: Option<i64>,
    /// The last sync's outcome, ok or not; null before the first.
    pub last_sync: Option<LastSync>,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: i64,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub updated_at: i64,
    /// Period lengths and clock mode its games play by (a game may set its
    /// own; docs/game-night.md).
    #[serde(flatten)]
    pub clock: ClockSettings,
    /// Whether the viewer may edit the season and its division mappings.
    pub viewer_can_edit: bool,
    /// On the single-season read and writes: the season's division mappings.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub division_mappings: Option<Vec<DivisionMapping>>,
}

impl Season {
    fn from_row(row: SeasonRow, viewer_can_edit: bool) -> Self {
        let clock = row.clock();
        Season {
            id: row.id,
            facility_id: row.facility_id,
            facility_name: row.facility_name,
            name: row.name,
            start_date: row.start_date,
            end_date: row.end_date,
            is_active: row.is_active != 0,
            next_sync_at: if row.sync_enabled != 0 && row.sync_url.is_some() { row.sync_next_at } else { None },
            sync_url: if viewer_can_edit { row.sync_url } else { None },
            sync_enabled: row.sync_enabled != 0,
            last_sync_at: row.last_sync_at,
            last_sync: row.last_run.as_deref().and_then(LastSync::from_report),
            created_at: row.created_at,
            updated_at: row.updated_at,
            clock,
            viewer_can_edit,
            division_mappings: None,
        }
    }
}

/// The last sync of a season, from its report in the history.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LastSync {
    pub ok: bool,
    #[schema(value_type = String, format = DateTime)]
    pub finished_at: String,
    /// `{"created","updated","unchanged","removed"}`.
    #[schema(value_type = Object)]
    pub games: serde_json::Value,
    /// `{"code","message"}` of a failed sync.
    #[schema(value_type = Option<Object>)]
    pub error: Option<serde_json::Value>,
}

impl LastSync {
    fn from_report(report: &str) -> Option<Self> {
        let r: serde_json::Value = serde_json::from_str(report).ok()?;
        Some(LastSync {
            ok: r["ok"].as_bool()?,
            finished_at: r["finishedAt"].as_str()?.to_string(),
            games: r["games"].clone(),
            error: r.get("error").filter(|e| !e.is_null()).cloned(),
        })
    }
}

/// Refuses a `syncUrl` the fetcher would refuse (private or odd addresses,
/// odd schemes), as a 422 on `syncUrl`. A name that does not resolve now is
/// accepted: every fetch checks again.
async fn check_sync_url(state: &AppState, url: Option<&str>) -> AppResult<()> {
    let Some(url) = url else { return Ok(()) };
    match state.fetcher.check(url).await {
        Err(FetchError::Refused(why)) => Err(AppError::field("syncUrl", why.to_string())),
        _ => Ok(()),
    }
}

/// A season as the viewer sees it, with its division mappings.
pub async fn load(state: &AppState, viewer: Option<&str>, id: &str) -> AppResult<Season> {
    let row = db::seasons::get(&state.db.pool, id).await?.ok_or_else(|| AppError::not_found("season"))?;
    let rel = permissions::relations(&state.db, viewer, Object::Season(id)).await?;
    let mut season = Season::from_row(row, rel.permits(&Action::EditSeason { season_id: id }));
    let mappings = db::seasons::mappings(&state.db.pool, id).await?;
    season.division_mappings = Some(mappings.into_iter().map(DivisionMapping::from).collect());
    Ok(season)
}

/// One page of a facility's seasons, latest start first.
pub async fn facility_seasons(
    state: &AppState,
    viewer: Option<&str>,
    facility_id: &str,
    page: &PageQuery,
) -> AppResult<Page<Season>> {
    let rel = permissions::relations(&state.db, viewer, Object::Facility(facility_id)).await?;
    let can_edit = rel.permits(&Action::CreateSeason { facility_id });
    let limit = page.rows()?;
    let rows = db::seasons::for_facility(&state.db.pool, facility_id, page.cursor()?.as_ref(), limit).await?;
    let (rows, next_cursor) = finish_page(rows, limit, |r| Cursor { at: r.start_date, id: r.id.clone() }.encode());
    Ok(Page { items: rows.into_iter().map(|r| Season::from_row(r, can_edit)).collect(), next_cursor })
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct NewSeason {
    #[schema(schema_with = crate::domain::text::schema::name::<120>)]
    pub name: String,
    /// e.g. "2026-09-01T00:00:00-04:00".
    #[schema(schema_with = crate::time::schema::date_time)]
    pub start_date: String,
    /// Not before `startDate`.
    #[schema(schema_with = crate::time::schema::date_time)]
    pub end_date: String,
    /// Default false. Creating an active season tells the facility's followers.
    pub is_active: Option<bool>,
    /// Absolute http(s) URL of the schedule (iCalendar or CSV).
    #[schema(schema_with = crate::domain::text::schema::optional_url)]
    pub sync_url: Option<String>,
    /// Default false; needs `syncUrl`.
    pub sync_enabled: Option<bool>,
    /// 1–30, default 20.
    #[serde(default, deserialize_with = "crate::api::optional_whole")]
    #[schema(minimum = 1, maximum = 30)]
    pub period_minutes: Option<i64>,
    /// 0–20 (0: straight to a shootout), default 5.
    #[serde(default, deserialize_with = "crate::api::optional_whole")]
    #[schema(minimum = 0, maximum = 20)]
    pub overtime_minutes: Option<i64>,
    /// Default STOP.
    pub clock_mode: Option<ClockMode>,
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SeasonPatch {
    #[schema(schema_with = crate::domain::text::schema::nullable_name::<120>)]
    pub name: Option<String>,
    /// Null leaves it unchanged.
    #[schema(schema_with = crate::time::schema::nullable_date_time)]
    pub start_date: Option<String>,
    /// Null leaves it unchanged.
    #[schema(schema_with = crate::time::schema::nullable_date_time)]
    pub end_date: Option<String>,
    /// false → true tells the facility's followers (SEASON_STARTED).
    pub is_active: Option<bool>,
    /// null removes it.
    #[serde(default, deserialize_with = "nullable")]
    #[schema(schema_with = crate::domain::text::schema::optional_url)]
    pub sync_url: Option<Option<String>>,
    pub sync_enabled: Option<bool>,
    /// 1–30; null leaves it unchanged. Games already started keep theirs.
    #[serde(default, deserialize_with = "crate::api::optional_whole")]
    #[schema(minimum = 1, maximum = 30)]
    pub period_minutes: Option<i64>,
    /// 0–20; null leaves it unchanged.
    #[serde(default, deserialize_with = "crate::api::optional_whole")]
    #[schema(minimum = 0, maximum = 20)]
    pub overtime_minutes: Option<i64>,
    /// Null leaves it unchanged.
    pub clock_mode: Option<ClockMode>,
}

/// The season's clock settings: `given` over `base`, checked.
fn clock_settings(form: &mut Form, given: GameSettings, base: ClockSettings) -> ClockSettings {
    if let Some((field, message)) = given.invalid() {
        form.error(field, message);
    }
    given.over(base)
}

/// A season date: RFC 3339, within the years the API accepts.
fn date(raw: &str) -> Result<i64, String> {
    crate::time::parse_rfc3339_checked(raw).map_err(String::from)
}

/// Checks a season's complete (merged) fields as one, after each field was
/// parsed on its own.
fn check_season(
    mut form: Form,
    name: AppResult<String>,
    dates: (AppResult<i64>, AppResult<i64>),
    sync_url: AppResult<Option<String>>,
    sync_enabled: bool,
    clock: ClockSettings,
) -> AppResult<SeasonFields> {
    if let (Ok(start), Ok(end)) = &dates
        && end < start
    {
        form.error("endDate", "must not be before startDate");
    }
    if sync_enabled && matches!(sync_url, Ok(None)) {
        form.error("syncEnabled", "needs a syncUrl");
    }
    form.finish()?;
    Ok(SeasonFields { name: name?, start_date: dates.0?, end_date: dates.1?, sync_url: sync_url?, sync_enabled, clock })
}

impl NewSeason {
    fn parse(self) -> AppResult<(SeasonFields, bool)> {
        let mut form = Form::default();
        let name = form.field("name", SeasonName::parse(&self.name)).map(String::from);
        let start_date = form.field("startDate", date(&self.start_date));
        let end_date = form.field("endDate", date(&self.end_date));
        let sync_url = form.field("syncUrl", optional(self.sync_url.as_deref(), HttpUrl::parse));
        let sync_url = sync_url.map(|u| u.map(String::from));
        let given = GameSettings {
            period_minutes: self.period_minutes,
            overtime_minutes: self.overtime_minutes,
            clock_mode: self.clock_mode,
        };
        let clock = clock_settings(&mut form, given, ClockSettings::default());
        let sync_enabled = self.sync_enabled.unwrap_or(false);
        let fields = check_season(form, name, (start_date, end_date), sync_url, sync_enabled, clock)?;
        Ok((fields, self.is_active.unwrap_or(false)))
    }
}

impl SeasonPatch {
    fn merge(self, row: &SeasonRow) -> AppResult<SeasonFields> {
        let mut form = Form::default();
        let name = match &self.name {
            Some(n) => form.field("name", SeasonName::parse(n)).map(String::from),
            None => Ok(row.name.clone()),
        };
        let start_date = self.start_date.map_or(Ok(row.start_date), |s| form.field("startDate", date(&s)));
        let end_date = self.end_date.map_or(Ok(row.end_date), |s| form.field("endDate", date(&s)));
        let sync_url = form.field("syncUrl", patch_text(self.sync_url, HttpUrl::parse));
        let sync_url = sync_url.map(|given| merged(given, row.sync_url.clone()));
        let sync_enabled = self.sync_enabled.unwrap_or(row.sync_enabled != 0);
        let given = GameSettings {
            period_minutes: self.period_minutes,
            overtime_minutes: self.overtime_minutes,
            clock_mode: self.clock_mode,
        };
        let clock = clock_settings(&mut form, given, row.clock());
        check_season(form, name, (start_date, end_date), sync_url, sync_enabled, clock)
    }
}

/// Create a season (facility owner or managers).
#[utoipa::path(request_body = NewSeason, responses((status = 201, body = Season), (status = 403, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)), tag = "seasons", security(("bearerAuth" = [])))]
#[post("/facilities/{id}/seasons")]
async fn create(
    state: web::Data<AppState>,
    me: AuthUser,
    facility_id: web::Path<String>,
    body: web::Json<NewSeason>,
) -> AppResult<HttpResponse> {
    permissions::check(&state.db, Some(&me.id), Action::CreateSeason { facility_id: &facility_id }).await?;
    let (fields, active) = body.into_inner().parse()?;
    check_sync_url(&state, fields.sync_url.as_deref()).await?;
    let mut tx = state.db.begin().await?;
    let id = db::seasons::insert(&mut tx, &facility_id, &fields).await?;
    let mut told = Vec::new();
    if active && db::seasons::activate(&mut tx, &id).await? {
        told.push(crate::feed::season_started(&mut tx, &me.id, &facility_id, &id).await?);
    }
    tx.commit().await?;
    crate::live::feed::spawn_push(&state.db, &state.realtime.pusher, told);
    Ok(HttpResponse::Created().json(load(&state, Some(&me.id), &id).await?))
}

/// A facility's seasons, latest start first (public).
#[utoipa::path(params(PageQuery), responses((status = 200, body = Page<Season>), (status = 404, body = crate::error::ErrorEnvelope)), tag = "seasons", security((), ("bearerAuth" = [])))]
#[get("/facilities/{id}/seasons")]
async fn list_for_facility(
    state: web::Data<AppState>,
    me: MaybeUser,
    id: web::Path<String>,
    page: web::Query<PageQuery>,
) -> AppResult<web::Json<Page<Season>>> {
    Ok(web::Json(facility_seasons(&state, me.id(), &id, &page).await?))
}

/// A season with its division mappings (public).
#[utoipa::path(responses((status = 200, body = Season), (status = 404, body = crate::error::ErrorEnvelope)), tag = "seasons", security((), ("bearerAuth" = [])))]
#[get("/seasons/{id}")]
async fn get_one(state: web::Data<AppState>, me: MaybeUser, id: web::Path<String>) -> AppResult<web::Json<Season>> {
    Ok(web::Json(load(&state, me.id(), &id).await?))
}

/// Edit a season (facility owner or managers). `lastSyncAt` is read-only.
#[utoipa::path(request_body = SeasonPatch, responses((status = 200, body = Season), (status = 403, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)), tag = "seasons", security(("bearerAuth" = [])))]
#[patch("/seasons/{id}")]
async fn edit(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    body: web::Json<SeasonPatch>,
) -> AppResult<web::Json<Season>> {
    permissions::check(&state.db, Some(&me.id), Action::EditSeason { season_id: &id }).await?;
    let patch = body.into_inner();
    let active = patch.is_active;
    if let Some(Some(url)) = &patch.sync_url {
        check_sync_url(&state, Some(url.trim())).await?;
    }
    let mut tx = state.db.begin().await?;
    if !db::seasons::touch(&mut tx, &id).await? {
        return Err(AppError::not_found("season"));
    }
    let row = db::seasons::get(&mut *tx, &id).await?.ok_or_else(|| AppError::not_found("season"))?;
    let fields = patch.merge(&row)?;
    db::seasons::replace(&mut tx, &id, &fields).await?;
    let mut told = Vec::new();
    if active == Some(true) && db::seasons::activate(&mut tx, &id).await? {
        told.push(crate::feed::season_started(&mut tx, &me.id, &row.facility_id, &id).await?);
    } else if active == Some(false) {
        db::seasons::deactivate(&mut tx, &id).await?;
    }
    tx.commit().await?;
    crate::live::feed::spawn_push(&state.db, &state.realtime.pusher, told);
    Ok(web::Json(load(&state, Some(&me.id), &id).await?))
}

#[cfg(test)]
mod fuzz {
    use super::*;
    use crate::fuzzing::json_bodies;

    /// A season as stored, for patches to apply over.
    fn row() -> SeasonRow {
        SeasonRow {
            id: "s1".into(),
            name: "Winter".into(),
            start_date: 1_788_000_000_000,
            end_date: 1_800_000_000_000,
            is_active: 1,
            facility_id: "f1".into(),
            facility_name: "Maple Arena".into(),
            sync_url: Some("https://rink.example/schedule.ics".into()),
            sync_enabled: 1,
            last_sync_at: None,
            sync_next_at: None,
            last_run: None,
            created_at: 0,
            updated_at: 0,
            period_minutes: 15,
            overtime_minutes: 5,
            clock_mode: "RUNNING".into(),
        }
    }

    json_bodies! {
        new_season: NewSeason => |body| body.parse().map(drop);
        season_patch: SeasonPatch => |body| body.merge(&row()).map(drop);
    }
}
