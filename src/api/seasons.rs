//! Seasons of a facility, their division mappings, and the universal
//! division scale. Turning a season on (created active, or `isActive`
//! false → true) records a SEASON_STARTED item in the feeds of the
//! facility's followers, in the same transaction.

use super::form::Form;
use super::{Page, PageQuery, merged, named_field, nullable, patch_text};
use crate::auth::{AuthUser, MaybeUser};
use crate::db::seasons::{MappingFields, MappingRow, SeasonFields, SeasonRow};
use crate::db::{self, Cursor, finish_page};
use crate::domain::UniversalDivision;
use crate::domain::text::{HttpUrl, Name, PlainText, optional};
use crate::error::{AppError, AppResult};
use crate::permissions::{self, Action, Object};
use crate::realtime::topics::Topic;
use crate::startup::AppState;
use actix_web::{HttpResponse, delete, get, patch, post, web};
use serde::{Deserialize, Serialize};
use utoipa_actix_web::service_config::ServiceConfig;

pub fn config(cfg: &mut ServiceConfig) {
    cfg.service(create)
        .service(list_for_facility)
        .service(get_one)
        .service(edit)
        .service(create_mapping)
        .service(list_mappings)
        .service(edit_mapping)
        .service(delete_mapping)
        .service(division_scale);
}

/// A season's or a division's name.
type SeasonName = Name<120>;
/// A division mapping's description.
type Description = PlainText<2000>;

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
    /// When the last sync ran (read-only).
    #[serde(with = "crate::time::rfc3339_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub last_sync_at: Option<i64>,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: i64,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub updated_at: i64,
    /// Whether the viewer may edit the season and its division mappings.
    pub viewer_can_edit: bool,
    /// On the single-season read and writes: the season's division mappings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub division_mappings: Option<Vec<DivisionMapping>>,
}

impl Season {
    fn from_row(row: SeasonRow, viewer_can_edit: bool) -> Self {
        Season {
            id: row.id,
            facility_id: row.facility_id,
            facility_name: row.facility_name,
            name: row.name,
            start_date: row.start_date,
            end_date: row.end_date,
            is_active: row.is_active != 0,
            sync_url: if viewer_can_edit { row.sync_url } else { None },
            sync_enabled: row.sync_enabled != 0,
            last_sync_at: row.last_sync_at,
            created_at: row.created_at,
            updated_at: row.updated_at,
            viewer_can_edit,
            division_mappings: None,
        }
    }
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DivisionMapping {
    pub id: String,
    pub season_id: String,
    /// The facility's own name for the division, e.g. "C2" or "Bronze".
    pub facility_division_name: String,
    pub universal_division_scale: UniversalDivision,
    /// 1–8: the level of `universalDivisionScale` on the scale.
    pub level: i64,
    pub description: Option<String>,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: i64,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub updated_at: i64,
}

impl From<MappingRow> for DivisionMapping {
    fn from(r: MappingRow) -> Self {
        let scale = UniversalDivision::parse(&r.universal_division_scale).unwrap_or(UniversalDivision::Recreational);
        DivisionMapping {
            id: r.id,
            season_id: r.season_id,
            facility_division_name: r.facility_division_name,
            universal_division_scale: scale,
            level: scale.level(),
            description: r.description,
            created_at: r.created_at,
            updated_at: r.updated_at,
        }
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
    Ok(SeasonFields { name: name?, start_date: dates.0?, end_date: dates.1?, sync_url: sync_url?, sync_enabled })
}

impl NewSeason {
    fn parse(self) -> AppResult<(SeasonFields, bool)> {
        let mut form = Form::default();
        let name = form.field("name", SeasonName::parse(&self.name)).map(String::from);
        let start_date = form.field("startDate", date(&self.start_date));
        let end_date = form.field("endDate", date(&self.end_date));
        let sync_url = form.field("syncUrl", optional(self.sync_url.as_deref(), HttpUrl::parse));
        let sync_url = sync_url.map(|u| u.map(String::from));
        let fields = check_season(form, name, (start_date, end_date), sync_url, self.sync_enabled.unwrap_or(false))?;
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
        check_season(form, name, (start_date, end_date), sync_url, sync_enabled)
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
    let mut tx = state.db.begin().await?;
    let id = db::seasons::insert(&mut tx, &facility_id, &fields).await?;
    let mut told = Vec::new();
    if active && db::seasons::activate(&mut tx, &id).await? {
        told.push(crate::feed::season_started(&mut tx, &me.id, &facility_id, &id).await?);
    }
    tx.commit().await?;
    state.realtime.push_feed(&state.db, told);
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
    state.realtime.push_feed(&state.db, told);
    Ok(web::Json(load(&state, Some(&me.id), &id).await?))
}

// ---------------------------------------------------------------- division mappings

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct NewDivisionMapping {
    #[schema(schema_with = crate::domain::text::schema::name::<120>)]
    pub facility_division_name: String,
    /// One of the universal scale's values (`GET /divisions/scale`).
    #[serde(deserialize_with = "scale")]
    pub universal_division_scale: UniversalDivision,
    #[schema(schema_with = crate::domain::text::schema::optional_text::<2000>)]
    pub description: Option<String>,
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DivisionMappingPatch {
    #[schema(schema_with = crate::domain::text::schema::nullable_name::<120>)]
    pub facility_division_name: Option<String>,
    #[serde(default, deserialize_with = "scale")]
    pub universal_division_scale: Option<UniversalDivision>,
    /// null removes it.
    #[serde(default, deserialize_with = "nullable")]
    #[schema(schema_with = crate::domain::text::schema::optional_text::<2000>)]
    pub description: Option<Option<String>>,
}

/// `universalDivisionScale`, parsed by serde and named when refused.
fn scale<'de, D: serde::Deserializer<'de>, T: serde::de::DeserializeOwned>(d: D) -> Result<T, D::Error> {
    named_field("universalDivisionScale", d)
}

/// A unique violation on a mapping write can only be the name.
fn name_taken(err: sqlx::Error) -> AppError {
    match AppError::from(err) {
        AppError::Conflict { .. } => {
            AppError::conflict_code("division_name_taken", "this season already has a division of that name")
        }
        other => other,
    }
}

/// Map one of the facility's division names onto the universal scale
/// (facility owner or managers).
#[utoipa::path(request_body = NewDivisionMapping, responses((status = 201, body = DivisionMapping), (status = 403, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)), tag = "seasons", security(("bearerAuth" = [])))]
#[post("/seasons/{id}/division-mappings")]
async fn create_mapping(
    state: web::Data<AppState>,
    me: AuthUser,
    season_id: web::Path<String>,
    body: web::Json<NewDivisionMapping>,
) -> AppResult<HttpResponse> {
    permissions::check(&state.db, Some(&me.id), Action::ManageDivisionMappings { season_id: &season_id }).await?;
    let body = body.into_inner();
    let mut form = Form::default();
    let name = form.field("facilityDivisionName", SeasonName::parse(&body.facility_division_name));
    let description = form.field("description", optional(body.description.as_deref(), Description::parse));
    form.finish()?;
    let fields = MappingFields {
        facility_division_name: name?.into(),
        universal_division_scale: body.universal_division_scale.as_str().to_string(),
        description: description?.map(String::from),
    };
    let id = db::seasons::insert_mapping(&state.db.pool, &season_id, &fields).await.map_err(name_taken)?;
    let row =
        db::seasons::get_mapping(&state.db.pool, &id).await?.ok_or_else(|| AppError::not_found("division mapping"))?;
    Ok(HttpResponse::Created().json(DivisionMapping::from(row)))
}

/// A season's division mappings, by name (public).
#[utoipa::path(responses((status = 200, body = Vec<DivisionMapping>), (status = 404, body = crate::error::ErrorEnvelope)), tag = "seasons")]
#[get("/seasons/{id}/division-mappings")]
async fn list_mappings(
    state: web::Data<AppState>,
    season_id: web::Path<String>,
) -> AppResult<web::Json<Vec<DivisionMapping>>> {
    if db::access::season_facility(&state.db.pool, &season_id).await?.is_none() {
        return Err(AppError::not_found("season"));
    }
    let rows = db::seasons::mappings(&state.db.pool, &season_id).await?;
    Ok(web::Json(rows.into_iter().map(DivisionMapping::from).collect()))
}

/// The season a mapping belongs to, or 404.
async fn mapping_season(state: &AppState, id: &str) -> AppResult<String> {
    db::access::mapping_season(&state.db.pool, id).await?.ok_or_else(|| AppError::not_found("division mapping"))
}

/// Edit a division mapping (facility owner or managers). Rosters placed in
/// it show the change live.
#[utoipa::path(request_body = DivisionMappingPatch, responses((status = 200, body = DivisionMapping), (status = 403, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)), tag = "seasons", security(("bearerAuth" = [])))]
#[patch("/division-mappings/{id}")]
async fn edit_mapping(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    body: web::Json<DivisionMappingPatch>,
) -> AppResult<web::Json<DivisionMapping>> {
    let season_id = mapping_season(&state, &id).await?;
    permissions::check(&state.db, Some(&me.id), Action::ManageDivisionMappings { season_id: &season_id }).await?;
    let patch = body.into_inner();
    let mut tx = state.db.begin().await?;
    if !db::seasons::touch_mapping(&mut tx, &id).await? {
        return Err(AppError::not_found("division mapping"));
    }
    let row = db::seasons::get_mapping(&mut *tx, &id).await?.ok_or_else(|| AppError::not_found("division mapping"))?;
    let mut form = Form::default();
    let name = match &patch.facility_division_name {
        Some(n) => form.field("facilityDivisionName", SeasonName::parse(n)).map(String::from),
        None => Ok(row.facility_division_name),
    };
    let description = form.field("description", patch_text(patch.description, Description::parse));
    let description = description.map(|given| merged(given, row.description));
    form.finish()?;
    let fields = MappingFields {
        facility_division_name: name?,
        universal_division_scale: match patch.universal_division_scale {
            Some(scale) => scale.as_str().to_string(),
            None => row.universal_division_scale,
        },
        description: description?,
    };
    db::seasons::replace_mapping(&mut tx, &id, &fields).await.map_err(name_taken)?;
    let using = db::rosters::using_mapping(&mut *tx, &id).await?;
    let touched = db::rosters::bump_all(&mut tx, &using).await?;
    tx.commit().await?;
    state.realtime.push(&touched.iter().map(Topic::roster).collect::<Vec<_>>()).await;
    let row =
        db::seasons::get_mapping(&state.db.pool, &id).await?.ok_or_else(|| AppError::not_found("division mapping"))?;
    Ok(web::Json(DivisionMapping::from(row)))
}

/// Delete a division mapping (facility owner or managers); rosters placed
/// in it are left without a division.
#[utoipa::path(responses((status = 204), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope)), tag = "seasons", security(("bearerAuth" = [])))]
#[delete("/division-mappings/{id}")]
async fn delete_mapping(state: web::Data<AppState>, me: AuthUser, id: web::Path<String>) -> AppResult<HttpResponse> {
    let season_id = mapping_season(&state, &id).await?;
    permissions::check(&state.db, Some(&me.id), Action::ManageDivisionMappings { season_id: &season_id }).await?;
    let mut tx = state.db.begin().await?;
    if !db::seasons::touch_mapping(&mut tx, &id).await? {
        return Err(AppError::not_found("division mapping"));
    }
    let using = db::rosters::using_mapping(&mut *tx, &id).await?;
    let touched = db::rosters::bump_all(&mut tx, &using).await?;
    db::seasons::delete_mapping(&mut *tx, &id).await?;
    tx.commit().await?;
    state.realtime.push(&touched.iter().map(Topic::roster).collect::<Vec<_>>()).await;
    Ok(HttpResponse::NoContent().finish())
}

/// One level of the universal division scale.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ScaleLevel {
    pub value: UniversalDivision,
    pub name: &'static str,
    /// 1 (lowest) to 8 (highest).
    pub level: i64,
    pub description: &'static str,
}

/// The universal division scale, lowest first (public; see docs/divisions.md).
#[utoipa::path(responses((status = 200, body = Vec<ScaleLevel>)), tag = "seasons")]
#[get("/divisions/scale")]
async fn division_scale() -> web::Json<Vec<ScaleLevel>> {
    web::Json(
        UniversalDivision::ALL
            .iter()
            .map(|&d| ScaleLevel { value: d, name: d.label(), level: d.level(), description: d.meaning() })
            .collect(),
    )
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
            created_at: 0,
            updated_at: 0,
        }
    }

    json_bodies! {
        new_season: NewSeason => |body| body.parse().map(drop);
        season_patch: SeasonPatch => |body| body.merge(&row()).map(drop);
    }
}
