//! Division mappings of a season (the rink's own division names placed on
//! the universal scale, docs/divisions.md) and the scale itself.

use super::form::Form;
use super::seasons::SeasonName;
use super::{merged, named_field, nullable, patch_text};
use crate::auth::AuthUser;
use crate::db::{self, seasons::MappingFields, seasons::MappingRow};
use crate::domain::UniversalDivision;
use crate::domain::text::{PlainText, optional};
use crate::error::{AppError, AppResult};
use crate::permissions::{self, Action};
use crate::realtime::topics::Topic;
use crate::state::AppState;
use actix_web::{HttpResponse, delete, get, patch, post, web};
use serde::{Deserialize, Serialize};
use utoipa_actix_web::service_config::ServiceConfig;

pub fn config(cfg: &mut ServiceConfig) {
    cfg.service(create_mapping)
        .service(list_mappings)
        .service(edit_mapping)
        .service(delete_mapping)
        .service(division_scale);
}

/// A division mapping's description.
type Description = PlainText<2000>;

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
