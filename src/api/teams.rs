//! Teams: what a team is, creating and editing one, its page, and the
//! teams based at a facility. Search, follows, managers, ownership and
//! deletion are shared with facilities (`api::orgs`), mounted here under
//! `/teams`.

use super::form::Form;
use super::orgs::{self, OrgApi, OrgInfo};
use super::staff::{self, Staffing};
use super::{NamePageQuery, Page, nullable};
use crate::auth::{AuthUser, MaybeUser};
use crate::db;
use crate::db::facilities::FacilityColumns;
use crate::db::orgs::{Listing, Org};
use crate::db::teams::{TeamColumns, TeamFields};
use crate::domain::text::{HttpUrl, Name, PlainText, optional};
use crate::error::{AppError, AppResult};
use crate::live::roster::RosterSummary;
use crate::realtime::topics::Topic;
use crate::state::AppState;
use actix_web::{HttpResponse, get, patch, post, web};
use serde::{Deserialize, Serialize};
use utoipa_actix_web::service_config::ServiceConfig;

pub fn config(cfg: &mut ServiceConfig) {
    cfg.service(create).service(edit).service(at_facility).service(mine).service(orgs::routes::<Teams>());
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Team {
    #[serde(flatten)]
    pub org: OrgInfo,
    pub logo_url: Option<String>,
    pub description: Option<String>,
    pub facility_id: Option<String>,
}

/// `GET /teams/{id}`: the team and what its page shows.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TeamPage {
    #[serde(flatten)]
    pub team: Team,
    /// The home facility's name, when the team has one.
    pub facility_name: Option<String>,
    /// Rosters of every season, latest season first (at most 100; all:
    /// `GET /teams/{id}/rosters`).
    pub rosters: Vec<RosterSummary>,
    #[serde(flatten)]
    pub staff: Staffing,
}

/// Teams as one kind of org (see `api::orgs`).
pub struct Teams;

impl OrgApi for Teams {
    const ORG: Org = Org::Team;
    type Item = Team;
    type Page = TeamPage;
    const ON_DELETE: &'static str = "Its rosters go with it.";

    async fn load(state: &AppState, viewer: Option<&str>, id: &str) -> AppResult<Team> {
        let (org, t) = orgs::load_row::<TeamColumns>(state, viewer, id).await?;
        Ok(Team { org, logo_url: t.logo_url, description: t.description, facility_id: t.facility_id })
    }

    async fn load_page(state: &AppState, viewer: Option<&str>, id: &str) -> AppResult<TeamPage> {
        let team = Self::load(state, viewer, id).await?;
        let facility_name = match &team.facility_id {
            Some(f) => db::orgs::get::<_, FacilityColumns>(&state.db.pool, f).await?.map(|f| f.name),
            None => None,
        };
        Ok(TeamPage {
            team,
            facility_name,
            rosters: super::rosters::team_rosters_all(state, id).await?,
            staff: staff::staffing(state, viewer, Org::Team, id).await?,
        })
    }
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct NewTeam {
    #[schema(schema_with = crate::domain::text::schema::name::<120>)]
    pub name: String,
    #[schema(schema_with = crate::domain::text::schema::optional_id)]
    pub facility_id: Option<String>,
    #[schema(schema_with = crate::domain::text::schema::optional_url)]
    pub logo_url: Option<String>,
    #[schema(schema_with = crate::domain::text::schema::optional_text::<4000>)]
    pub description: Option<String>,
}

impl NewTeam {
    pub fn parse(self) -> AppResult<TeamFields> {
        let mut form = Form::default();
        let name = form.field("name", Name::parse(&self.name));
        let logo_url = form.field("logoUrl", optional(self.logo_url.as_deref(), HttpUrl::parse));
        let description = form.field("description", optional(self.description.as_deref(), PlainText::parse));
        form.finish()?;
        Ok(TeamFields {
            name: name?,
            facility_id: super::clean(self.facility_id),
            logo_url: logo_url?,
            description: description?,
        })
    }
}

/// Create a team; the creator is its creator and owner.
#[utoipa::path(request_body = NewTeam, responses((status = 201, body = Team), (status = 422, body = crate::error::ErrorEnvelope)), tag = "teams", security(("bearerAuth" = [])))]
#[post("/teams")]
async fn create(state: web::Data<AppState>, me: AuthUser, body: web::Json<NewTeam>) -> AppResult<HttpResponse> {
    let fields = body.into_inner().parse()?;
    if let Some(facility_id) = &fields.facility_id
        && !db::facilities::exists(&state.db.pool, facility_id).await?
    {
        return Err(AppError::field("facilityId", "no such facility"));
    }
    let id = db::orgs::insert(&state.db.pool, &me.id, &fields).await?;
    Ok(HttpResponse::Created().json(Teams::load(&state, Some(&me.id), &id).await?))
}

// ---------------------------------------------------------------- edits

/// Only the fields given change; `null` clears an optional field
/// (`facilityId: null` un-links the team from its facility).
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TeamPatch {
    #[schema(schema_with = crate::domain::text::schema::nullable_name::<120>)]
    pub name: Option<String>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(schema_with = crate::domain::text::schema::optional_id)]
    pub facility_id: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(schema_with = crate::domain::text::schema::optional_url)]
    pub logo_url: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(schema_with = crate::domain::text::schema::optional_text::<4000>)]
    pub description: Option<Option<String>>,
}

/// Edit a team (owner or managers); answers the page and pushes `team:ID`.
#[utoipa::path(request_body = TeamPatch, responses((status = 200, body = TeamPage), (status = 403, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)), tag = "teams", security(("bearerAuth" = [])))]
#[patch("/teams/{id}")]
async fn edit(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    body: web::Json<TeamPatch>,
) -> AppResult<web::Json<TeamPage>> {
    let p = body.into_inner();
    let mut tx = orgs::begin_edit(&state, &me, Org::Team, &id).await?;
    let row = db::teams::get(&mut *tx, &id).await?.ok_or_else(|| AppError::not_found("team"))?;
    let facility_changed = p.facility_id.is_some();
    // Merge, then validate the whole as a creation would.
    let fields = NewTeam {
        name: p.name.unwrap_or(row.name),
        facility_id: p.facility_id.unwrap_or(row.own.facility_id),
        logo_url: p.logo_url.unwrap_or(row.own.logo_url),
        description: p.description.unwrap_or(row.own.description),
    }
    .parse()?;
    if let Some(facility_id) = fields.facility_id.as_deref().filter(|_| facility_changed)
        && !db::facilities::exists(&mut *tx, facility_id).await?
    {
        return Err(AppError::field("facilityId", "no such facility"));
    }
    db::orgs::replace(&mut tx, &id, &fields).await?;
    tx.commit().await?;
    state.realtime.push(&[Topic::team(id.as_str())]).await;
    Ok(web::Json(Teams::load_page(&state, Some(&me.id), &id).await?))
}

/// Teams based at a facility, by name (public).
#[utoipa::path(params(NamePageQuery), responses((status = 200, body = Page<Team>), (status = 404, body = crate::error::ErrorEnvelope)), tag = "teams", security((), ("bearerAuth" = [])))]
#[get("/facilities/{id}/teams")]
async fn at_facility(
    state: web::Data<AppState>,
    me: MaybeUser,
    id: web::Path<String>,
    query: web::Query<NamePageQuery>,
) -> AppResult<web::Json<Page<Team>>> {
    if !db::facilities::exists(&state.db.pool, &id).await? {
        return Err(AppError::not_found("facility"));
    }
    let listing = Listing::TeamsAt(&id);
    Ok(web::Json(orgs::by_name::<Teams>(&state, me.id(), listing, query.cursor.as_deref(), query.rows()?).await?))
}

/// The teams the signed-in person owns or manages, by name: the ones they
/// may put on an event or a schedule.
#[utoipa::path(params(NamePageQuery), responses((status = 200, body = Page<Team>)), tag = "teams", security(("bearerAuth" = [])))]
#[get("/me/teams")]
async fn mine(
    state: web::Data<AppState>,
    me: AuthUser,
    query: web::Query<NamePageQuery>,
) -> AppResult<web::Json<Page<Team>>> {
    let listing = Listing::StaffedBy(Org::Team, &me.id);
    Ok(web::Json(orgs::by_name::<Teams>(&state, Some(&me.id), listing, query.cursor.as_deref(), query.rows()?).await?))
}
