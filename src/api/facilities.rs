//! Facilities (rinks): what a facility is, creating and editing one, and
//! its page. Search, follows, managers, ownership and deletion are shared
//! with teams (`api::orgs`), mounted here under `/facilities`.

use super::form::Form;
use super::orgs::{self, OrgApi, OrgInfo};
use super::seasons::Season;
use super::staff::{self, Staffing};
use super::{PageQuery, nullable};
use crate::auth::AuthUser;
use crate::db::facilities::{FacilityColumns, FacilityFields};
use crate::db::{self, orgs::Org};
use crate::domain::money::Currency;
use crate::domain::text::{Email, HttpUrl, Name, PhoneNumber, PlainText, TimeZoneName, optional};
use crate::error::{AppError, AppResult, FieldErrors};
use crate::state::AppState;
use actix_web::{HttpResponse, patch, post, web};
use serde::{Deserialize, Serialize};
use utoipa_actix_web::service_config::ServiceConfig;

pub fn config(cfg: &mut ServiceConfig) {
    cfg.service(create).service(edit).service(orgs::routes::<Facilities>());
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Facility {
    #[serde(flatten)]
    pub org: OrgInfo,
    pub phone_number: Option<String>,
    pub email: Option<String>,
    pub website: Option<String>,
    pub image_url: Option<String>,
    pub description: Option<String>,
    /// IANA time zone name, e.g. "America/Toronto".
    pub timezone: String,
    /// ISO 4217: what the rink bills ice in (its own choice, else the one
    /// its time zone implies).
    pub currency: String,
}

/// `GET /facilities/{id}`: the facility and what its page shows.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FacilityPage {
    #[serde(flatten)]
    pub facility: Facility,
    /// The latest 20 seasons, latest start first (all: `GET /facilities/{id}/seasons`).
    pub seasons: Vec<Season>,
    #[serde(flatten)]
    pub staff: Staffing,
}

/// Facilities as one kind of org (see `api::orgs`).
pub struct Facilities;

impl OrgApi for Facilities {
    const ORG: Org = Org::Facility;
    type Item = Facility;
    type Page = FacilityPage;
    const ON_DELETE: &'static str =
        "Its seasons, their division mappings and\nrosters go with it; its teams stay, without a facility.";

    async fn load(state: &AppState, viewer: Option<&str>, id: &str) -> AppResult<Facility> {
        let (org, f) = orgs::load_row::<FacilityColumns>(state, viewer, id).await?;
        Ok(Facility {
            org,
            phone_number: f.phone_number,
            email: f.email,
            website: f.website,
            image_url: f.image_url,
            description: f.description,
            currency: f.currency.unwrap_or_else(|| Currency::for_timezone(&f.timezone).as_str().to_string()),
            timezone: f.timezone,
        })
    }

    async fn load_page(state: &AppState, viewer: Option<&str>, id: &str) -> AppResult<FacilityPage> {
        let facility = Self::load(state, viewer, id).await?;
        let latest = PageQuery { limit: Some(20), cursor: None };
        Ok(FacilityPage {
            facility,
            seasons: super::seasons::facility_seasons(state, viewer, id, &latest).await?.items,
            staff: staff::staffing(state, viewer, Org::Facility, id).await?,
        })
    }
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct NewFacility {
    #[schema(schema_with = crate::domain::text::schema::name::<120>)]
    pub name: String,
    #[schema(value_type = TimeZoneName)]
    pub timezone: String,
    #[schema(schema_with = crate::domain::text::schema::optional_phone)]
    pub phone_number: Option<String>,
    #[schema(schema_with = crate::domain::text::schema::optional_email)]
    pub email: Option<String>,
    #[schema(schema_with = crate::domain::text::schema::optional_url)]
    pub website: Option<String>,
    #[schema(schema_with = crate::domain::text::schema::optional_url)]
    pub image_url: Option<String>,
    #[schema(schema_with = crate::domain::text::schema::optional_text::<4000>)]
    pub description: Option<String>,
    /// ISO 4217 (CAD, USD, EUR, GBP, SEK, NOK, DKK, CHF, CZK, AUD, NZD);
    /// absent or null: the one the time zone implies.
    #[serde(default)]
    #[schema(schema_with = crate::domain::money::schema)]
    pub currency: Option<String>,
}

/// Kept for `api::dev`, which has not moved to [`Email`] yet.
pub fn check_email(errors: &mut FieldErrors, field: &str, email: Option<&str>) {
    if let Some(Err(message)) = email.map(Email::parse) {
        errors.insert(field.into(), message);
    }
}

impl NewFacility {
    pub fn parse(self) -> AppResult<FacilityFields> {
        let mut form = Form::default();
        let name = form.field("name", Name::parse(&self.name));
        let timezone = form.field("timezone", TimeZoneName::parse(&self.timezone));
        let phone_number = form.field("phoneNumber", optional(self.phone_number.as_deref(), PhoneNumber::parse));
        let email = form.field("email", optional(self.email.as_deref(), Email::parse));
        let website = form.field("website", optional(self.website.as_deref(), HttpUrl::parse));
        let image_url = form.field("imageUrl", optional(self.image_url.as_deref(), HttpUrl::parse));
        let description = form.field("description", optional(self.description.as_deref(), PlainText::parse));
        let currency = form.field("currency", optional(self.currency.as_deref(), Currency::parse));
        form.finish()?;
        Ok(FacilityFields {
            name: name?,
            phone_number: phone_number?,
            email: email?,
            website: website?,
            image_url: image_url?,
            description: description?,
            timezone: timezone?,
            currency: currency?,
        })
    }
}

/// Create a facility; the creator is its creator and owner.
#[utoipa::path(request_body = NewFacility, responses((status = 201, body = Facility), (status = 422, body = crate::error::ErrorEnvelope)), tag = "facilities", security(("bearerAuth" = [])))]
#[post("/facilities")]
async fn create(state: web::Data<AppState>, me: AuthUser, body: web::Json<NewFacility>) -> AppResult<HttpResponse> {
    let fields = body.into_inner().parse()?;
    let id = db::orgs::insert(&state.db.pool, &me.id, &fields).await?;
    Ok(HttpResponse::Created().json(Facilities::load(&state, Some(&me.id), &id).await?))
}

// ---------------------------------------------------------------- edits

/// Only the fields given change; `null` clears an optional field.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct FacilityPatch {
    #[schema(schema_with = crate::domain::text::schema::nullable_name::<120>)]
    pub name: Option<String>,
    /// Null leaves it unchanged.
    #[schema(value_type = Option<TimeZoneName>)]
    pub timezone: Option<String>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(schema_with = crate::domain::text::schema::optional_phone)]
    pub phone_number: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(schema_with = crate::domain::text::schema::optional_email)]
    pub email: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(schema_with = crate::domain::text::schema::optional_url)]
    pub website: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(schema_with = crate::domain::text::schema::optional_url)]
    pub image_url: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(schema_with = crate::domain::text::schema::optional_text::<4000>)]
    pub description: Option<Option<String>>,
    /// Null goes back to the one the time zone implies.
    #[serde(default, deserialize_with = "nullable")]
    #[schema(schema_with = crate::domain::money::schema)]
    pub currency: Option<Option<String>>,
}

/// Edit a facility (owner or managers); answers the page.
#[utoipa::path(request_body = FacilityPatch, responses((status = 200, body = FacilityPage), (status = 403, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)), tag = "facilities", security(("bearerAuth" = [])))]
#[patch("/facilities/{id}")]
async fn edit(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    body: web::Json<FacilityPatch>,
) -> AppResult<web::Json<FacilityPage>> {
    let p = body.into_inner();
    let mut tx = orgs::begin_edit(&state, &me, Org::Facility, &id).await?;
    let row =
        db::orgs::get::<_, FacilityColumns>(&mut *tx, &id).await?.ok_or_else(|| AppError::not_found("facility"))?;
    // Merge, then validate the whole as a creation would.
    let fields = NewFacility {
        name: p.name.unwrap_or(row.name),
        timezone: p.timezone.unwrap_or(row.own.timezone),
        phone_number: p.phone_number.unwrap_or(row.own.phone_number),
        email: p.email.unwrap_or(row.own.email),
        website: p.website.unwrap_or(row.own.website),
        image_url: p.image_url.unwrap_or(row.own.image_url),
        description: p.description.unwrap_or(row.own.description),
        currency: p.currency.unwrap_or(row.own.currency),
    }
    .parse()?;
    db::orgs::replace(&mut tx, &id, &fields).await?;
    tx.commit().await?;
    Ok(web::Json(Facilities::load_page(&state, Some(&me.id), &id).await?))
}
