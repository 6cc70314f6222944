//! Teams: create, read, search, follow.

use super::facilities::{NameQuery, name_cursor};
use super::nullable;
use super::staff::{self, StaffRole, TransferOwnership};
use super::users::{PublicUser, people_page};
use super::{Page, PageQuery, check_len, check_name, check_url, clean, finish};
use crate::auth::{AuthUser, MaybeUser};
use crate::db::follows::{Direction, Target};
use crate::db::staff::Org;
use crate::db::{self, finish_page, page_limit, teams::TeamFields};
use crate::error::{AppError, AppResult, FieldErrors};
use crate::live::roster::RosterSummary;
use crate::permissions::{self, Action, Object};
use crate::realtime::topics::Topic;
use crate::startup::AppState;
use crate::summaries::UserSummary;
use actix_web::{HttpResponse, delete, get, patch, post, put, web};
use serde::{Deserialize, Serialize};
use utoipa_actix_web::service_config::ServiceConfig;

pub fn config(cfg: &mut ServiceConfig) {
    cfg.service(create)
        .service(list)
        .service(get_one)
        .service(edit)
        .service(remove)
        .service(put_manager)
        .service(delete_manager)
        .service(transfer_ownership)
        .service(at_facility)
        .service(follow)
        .service(unfollow)
        .service(followers);
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Team {
    pub id: String,
    pub name: String,
    pub logo_url: Option<String>,
    pub description: Option<String>,
    pub facility_id: Option<String>,
    pub creator_id: String,
    pub owner_id: String,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: i64,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub updated_at: i64,
    pub follower_count: i64,
    pub is_following: bool,
}

/// A team as the viewer sees it.
pub async fn load(state: &AppState, viewer: Option<&str>, id: &str) -> AppResult<Team> {
    let row = db::teams::get(&state.db.pool, id).await?.ok_or_else(|| AppError::not_found("team"))?;
    let is_following = match viewer {
        Some(v) => db::follows::is_following(&state.db.pool, Target::Team, v, id).await?,
        None => false,
    };
    Ok(Team {
        id: row.id,
        name: row.name,
        logo_url: row.logo_url,
        description: row.description,
        facility_id: row.facility_id,
        creator_id: row.creator_id,
        owner_id: row.owner_id,
        created_at: row.created_at,
        updated_at: row.updated_at,
        follower_count: row.follower_count,
        is_following,
    })
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct NewTeam {
    pub name: String,
    pub facility_id: Option<String>,
    pub logo_url: Option<String>,
    pub description: Option<String>,
}

impl NewTeam {
    pub fn parse(self) -> AppResult<TeamFields> {
        let mut errors = FieldErrors::new();
        let name = check_name(&mut errors, "name", &self.name, 120);
        let fields = TeamFields {
            name,
            facility_id: clean(self.facility_id),
            logo_url: clean(self.logo_url),
            description: clean(self.description),
        };
        check_url(&mut errors, "logoUrl", fields.logo_url.as_deref());
        check_len(&mut errors, "description", fields.description.as_deref(), 4000);
        finish(errors)?;
        Ok(fields)
    }
}

/// Create a team; the creator is its creator and owner.
#[utoipa::path(request_body = NewTeam, responses((status = 201, body = Team), (status = 422, body = crate::error::ErrorEnvelope)), tag = "teams")]
#[post("/teams")]
async fn create(state: web::Data<AppState>, me: AuthUser, body: web::Json<NewTeam>) -> AppResult<HttpResponse> {
    let fields = body.into_inner().parse()?;
    if let Some(facility_id) = &fields.facility_id
        && !db::facilities::exists(&state.db.pool, facility_id).await?
    {
        return Err(AppError::field("facilityId", "no such facility"));
    }
    let id = db::teams::insert(&state.db.pool, &me.id, &fields).await?;
    Ok(HttpResponse::Created().json(load(&state, Some(&me.id), &id).await?))
}

/// Teams by name.
#[utoipa::path(params(NameQuery), responses((status = 200, body = Page<Team>)), tag = "teams")]
#[get("/teams")]
async fn list(
    state: web::Data<AppState>,
    me: MaybeUser,
    query: web::Query<NameQuery>,
) -> AppResult<web::Json<Page<Team>>> {
    let limit = page_limit(query.limit);
    let after = name_cursor(query.cursor.as_deref())?;
    let rows = db::teams::search(
        &state.db.pool,
        query.q.as_deref().unwrap_or(""),
        after.as_ref().map(|(n, i)| (n.as_str(), i.as_str())),
        limit,
    )
    .await?;
    let (rows, next_cursor) = finish_page(rows, limit, |r| format!("{}\u{1f}{}", r.name.to_lowercase(), r.id));
    let mut items = Vec::with_capacity(rows.len());
    for r in rows {
        items.push(load(&state, me.id(), &r.id).await?);
    }
    Ok(web::Json(Page { items, next_cursor }))
}

/// A team's page: the team, its managers, its rosters by season and the
/// viewer's role (public).
#[utoipa::path(responses((status = 200, body = TeamPage), (status = 404, body = crate::error::ErrorEnvelope)), tag = "teams")]
#[get("/teams/{id}")]
async fn get_one(state: web::Data<AppState>, me: MaybeUser, id: web::Path<String>) -> AppResult<web::Json<TeamPage>> {
    Ok(web::Json(load_page(&state, me.id(), &id).await?))
}

/// Follow a team (idempotent).
#[utoipa::path(responses((status = 204), (status = 404, body = crate::error::ErrorEnvelope)), tag = "teams")]
#[put("/teams/{id}/follow")]
async fn follow(state: web::Data<AppState>, me: AuthUser, id: web::Path<String>) -> AppResult<HttpResponse> {
    permissions::check(&state.db, Some(&me.id), Action::Follow).await?;
    if !db::teams::exists(&state.db.pool, &id).await? {
        return Err(AppError::not_found("team"));
    }
    db::follows::follow(&state.db.pool, Target::Team, &me.id, &id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Stop following a team (idempotent).
#[utoipa::path(responses((status = 204)), tag = "teams")]
#[delete("/teams/{id}/follow")]
async fn unfollow(state: web::Data<AppState>, me: AuthUser, id: web::Path<String>) -> AppResult<HttpResponse> {
    permissions::check(&state.db, Some(&me.id), Action::Follow).await?;
    db::follows::unfollow(&state.db.pool, Target::Team, &me.id, &id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// People following a team, newest first.
#[utoipa::path(params(PageQuery), responses((status = 200, body = Page<PublicUser>), (status = 404, body = crate::error::ErrorEnvelope)), tag = "teams")]
#[get("/teams/{id}/followers")]
async fn followers(
    state: web::Data<AppState>,
    me: MaybeUser,
    id: web::Path<String>,
    page: web::Query<PageQuery>,
) -> AppResult<web::Json<Page<PublicUser>>> {
    Ok(web::Json(people_page(&state, me.id(), Target::Team, Direction::Followers, &id, &page).await?))
}

// ---------------------------------------------------------------- page, edits, staff

/// `GET /teams/{id}`: the team and what its page shows.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TeamPage {
    #[serde(flatten)]
    pub team: Team,
    /// The home facility's name, when the team has one.
    pub facility_name: Option<String>,
    /// Managers besides the owner, earliest first.
    pub managers: Vec<UserSummary>,
    /// Rosters of every season, latest season first (at most 100; all:
    /// `GET /teams/{id}/rosters`).
    pub rosters: Vec<RosterSummary>,
    /// OWNER, MANAGER, or null (signed out or neither).
    pub viewer_role: Option<StaffRole>,
}

pub async fn load_page(state: &AppState, viewer: Option<&str>, id: &str) -> AppResult<TeamPage> {
    let team = load(state, viewer, id).await?;
    let rel = permissions::relations(&state.db, viewer, Object::Team(id)).await?;
    let facility_name = match &team.facility_id {
        Some(f) => db::facilities::get(&state.db.pool, f).await?.map(|f| f.name),
        None => None,
    };
    Ok(TeamPage {
        team,
        facility_name,
        managers: staff::managers(state, Org::Team, id).await?,
        rosters: super::rosters::team_rosters_all(state, id).await?,
        viewer_role: staff::role(&rel, Org::Team),
    })
}

/// Only the fields given change; `null` clears an optional field
/// (`facilityId: null` un-links the team from its facility).
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TeamPatch {
    pub name: Option<String>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>)]
    pub facility_id: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>)]
    pub logo_url: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>)]
    pub description: Option<Option<String>>,
}

/// Edit a team (owner or managers); answers the page and pushes `team:ID`.
#[utoipa::path(request_body = TeamPatch, responses((status = 200, body = TeamPage), (status = 403, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)), tag = "teams")]
#[patch("/teams/{id}")]
async fn edit(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    body: web::Json<TeamPatch>,
) -> AppResult<web::Json<TeamPage>> {
    permissions::check(&state.db, Some(&me.id), Action::EditTeam { team_id: &id }).await?;
    let p = body.into_inner();
    let mut tx = state.db.begin().await?;
    db::teams::touch(&mut tx, &id).await?.ok_or_else(|| AppError::not_found("team"))?;
    let row = db::teams::get(&mut *tx, &id).await?.ok_or_else(|| AppError::not_found("team"))?;
    let facility_changed = p.facility_id.is_some();
    // Merge, then validate the whole as a creation would.
    let fields = NewTeam {
        name: p.name.unwrap_or(row.name),
        facility_id: p.facility_id.unwrap_or(row.facility_id),
        logo_url: p.logo_url.unwrap_or(row.logo_url),
        description: p.description.unwrap_or(row.description),
    }
    .parse()?;
    if let Some(facility_id) = fields.facility_id.as_deref().filter(|_| facility_changed)
        && !db::facilities::exists(&mut *tx, facility_id).await?
    {
        return Err(AppError::field("facilityId", "no such facility"));
    }
    db::teams::replace(&mut tx, &id, &fields).await?;
    tx.commit().await?;
    state.realtime.push(&[Topic::team(id.as_str())]).await;
    Ok(web::Json(load_page(&state, Some(&me.id), &id).await?))
}

/// Delete a team (owner only) with its rosters.
#[utoipa::path(responses((status = 204), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope)), tag = "teams")]
#[delete("/teams/{id}")]
async fn remove(state: web::Data<AppState>, me: AuthUser, id: web::Path<String>) -> AppResult<HttpResponse> {
    permissions::check(&state.db, Some(&me.id), Action::DeleteTeam { team_id: &id }).await?;
    // Games keep both sides' records: a team that has played or is on a
    // schedule stays (its rosters can be archived instead).
    if db::teams::has_games(&state.db.pool, &id).await? {
        return Err(AppError::conflict_code(
            "team_has_games",
            "this team has games on a season's schedule; archive its rosters instead of deleting it",
        ));
    }
    if !db::teams::delete(&state.db.pool, &id).await? {
        return Err(AppError::not_found("team"));
    }
    Ok(HttpResponse::NoContent().finish())
}

/// Make someone a manager (owner only; idempotent).
#[utoipa::path(responses((status = 204), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope)), tag = "teams")]
#[put("/teams/{id}/managers/{user_id}")]
async fn put_manager(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<(String, String)>,
) -> AppResult<HttpResponse> {
    let (id, user_id) = path.into_inner();
    staff::add_manager(&state, &me, Org::Team, &id, &user_id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Remove a manager (owner; or a manager stepping down; idempotent).
#[utoipa::path(responses((status = 204), (status = 403, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)), tag = "teams")]
#[delete("/teams/{id}/managers/{user_id}")]
async fn delete_manager(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<(String, String)>,
) -> AppResult<HttpResponse> {
    let (id, user_id) = path.into_inner();
    staff::remove_manager(&state, &me, Org::Team, &id, &user_id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Hand the team to someone else (owner only); the old owner stays on as a
/// manager. Answers the page.
#[utoipa::path(request_body = TransferOwnership, responses((status = 200, body = TeamPage), (status = 403, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)), tag = "teams")]
#[post("/teams/{id}/transfer-ownership")]
async fn transfer_ownership(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    body: web::Json<TransferOwnership>,
) -> AppResult<web::Json<TeamPage>> {
    staff::transfer(&state, &me, Org::Team, &id, body.into_inner()).await?;
    Ok(web::Json(load_page(&state, Some(&me.id), &id).await?))
}

/// Teams based at a facility, by name (public).
#[utoipa::path(params(PageQuery), responses((status = 200, body = Page<Team>), (status = 404, body = crate::error::ErrorEnvelope)), tag = "teams")]
#[get("/facilities/{id}/teams")]
async fn at_facility(
    state: web::Data<AppState>,
    me: MaybeUser,
    id: web::Path<String>,
    query: web::Query<PageQuery>,
) -> AppResult<web::Json<Page<Team>>> {
    if !db::facilities::exists(&state.db.pool, &id).await? {
        return Err(AppError::not_found("facility"));
    }
    let limit = page_limit(query.limit);
    let after = name_cursor(query.cursor.as_deref())?;
    let rows =
        db::teams::at_facility(&state.db.pool, &id, after.as_ref().map(|(n, i)| (n.as_str(), i.as_str())), limit)
            .await?;
    let (rows, next_cursor) = finish_page(rows, limit, |r| format!("{}\u{1f}{}", r.name.to_lowercase(), r.id));
    let mut items = Vec::with_capacity(rows.len());
    for r in rows {
        items.push(load(&state, me.id(), &r.id).await?);
    }
    Ok(web::Json(Page { items, next_cursor }))
}
