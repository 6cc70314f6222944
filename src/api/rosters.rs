//! Rosters, their players and join requests.
//!
//! Rules enforced here (who may act is `crate::permissions`' business):
//! - status DRAFT → ACTIVE → ARCHIVED (DRAFT → ARCHIVED too); nothing leaves
//!   ARCHIVED, and an archived roster is read-only (409 `roster_archived`);
//! - jersey numbers 0–99, unique per roster (409 `jersey_taken`); one
//!   captain (409 `captain_taken`); at most two alternate captains (409
//!   `alternate_captains_full`); never captain and alternate at once (422);
//! - `maxMembers` is never exceeded, by adds or approvals (409 `roster_full`);
//! - one pending request per person and roster (409 `request_pending`), none
//!   from a player already on it (409 `already_on_roster`); only pending
//!   requests are decided (409 `not_pending`).
//!
//! Every write locks the roster first (`db::rosters::bump`), so concurrent
//! writers queue per roster and those checks hold under concurrency; joining
//! writes the player, the request's decision and the feed items in one
//! transaction. After the commit the roster document is pushed on
//! `roster:ID` (`crate::live::roster`).

use super::{Page, PageQuery, check_len, check_name, clean, finish, nullable};
use crate::auth::{AuthUser, MaybeUser};
use crate::db::feed::{Audience, Fact};
use crate::db::rosters::{Holders, PlayerFields, RequestFields, RequestRow, RequestsOf, RosterFields};
use crate::db::{self, Cursor, finish_page, page_limit};
use crate::domain::{FeedItemType, HockeyPosition, RequestStatus, RosterCommitment, RosterStatus};
use crate::error::{AppError, AppResult, FieldErrors};
use crate::live::roster::RosterSummary;
use crate::live::{
    self,
    roster::{RosterDocument, RosterPlayer},
};
use crate::permissions::{self, Action, Object};
use crate::realtime::topics::Topic;
use crate::startup::AppState;
use crate::summaries::UserSummary;
use actix_web::{HttpResponse, delete, get, patch, post, web};
use serde::{Deserialize, Serialize};
use sqlx::AnyConnection;
use utoipa_actix_web::service_config::ServiceConfig;

pub fn config(cfg: &mut ServiceConfig) {
    cfg.service(create)
        .service(get_one)
        .service(edit)
        .service(team_rosters)
        .service(season_rosters)
        .service(add_player)
        .service(edit_player)
        .service(remove_player)
        .service(request_to_join)
        .service(roster_requests)
        .service(my_requests)
        .service(get_request)
        .service(approve_request)
        .service(reject_request)
        .service(cancel_request);
}

/// Largest `maxMembers` we accept: a hockey roster, with room for subs.
const MAX_ROSTER_SIZE: i64 = 100;
/// Alternate captains per roster ("A" letters).
const MAX_ALTERNATES: usize = 2;
const MAX_NAME: usize = 120;
const MAX_DESCRIPTION: usize = 2000;
const MAX_MESSAGE: usize = 1000;

// ---------------------------------------------------------------- wire types

/// What the signed-in viewer is and may do here.
#[derive(Debug, Clone, Default, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RosterViewer {
    pub is_member: bool,
    /// PATCH the roster.
    pub can_edit: bool,
    /// Add, edit and remove players.
    pub can_manage_players: bool,
    /// See, approve and reject join requests.
    pub can_decide_requests: bool,
    /// The viewer's own pending request, if any (to show "Requested · Cancel").
    pub pending_request_id: Option<String>,
}

/// `GET /rosters/{id}` and the answer of roster writes.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Roster {
    #[serde(flatten)]
    pub document: RosterDocument,
    pub viewer: RosterViewer,
}

/// A join request with its message, for the requester and the deciders.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct JoinRequest {
    pub id: String,
    pub roster_id: String,
    pub roster_name: String,
    pub team_id: String,
    pub team_name: String,
    pub season_id: String,
    pub season_name: String,
    pub user_id: String,
    pub user: UserSummary,
    pub status: RequestStatus,
    pub message: Option<String>,
    pub preferred_position: Option<HockeyPosition>,
    pub commitment_level: RosterCommitment,
    pub decided_by_id: Option<String>,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: i64,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub updated_at: i64,
}

impl From<RequestRow> for JoinRequest {
    fn from(q: RequestRow) -> Self {
        JoinRequest {
            id: q.id,
            roster_id: q.roster_id,
            roster_name: q.roster_name,
            team_id: q.team_id,
            team_name: q.team_name,
            season_id: q.season_id,
            season_name: q.season_name,
            user_id: q.user_id,
            user: UserSummary::from(q.user),
            status: RequestStatus::parse(&q.status).unwrap_or(RequestStatus::Pending),
            message: q.message,
            preferred_position: q.preferred_position.as_deref().and_then(HockeyPosition::parse),
            commitment_level: RosterCommitment::parse(&q.commitment_level).unwrap_or(RosterCommitment::FullTime),
            decided_by_id: q.decided_by_id,
            created_at: q.created_at,
            updated_at: q.updated_at,
        }
    }
}

// ---------------------------------------------------------------- reading and pushing

/// Adds what the viewer is and may do to a document.
async fn with_viewer(state: &AppState, viewer: Option<&str>, document: RosterDocument) -> AppResult<Roster> {
    let id = document.roster.id.clone();
    let rel = permissions::relations(&state.db, viewer, Object::Roster(&id)).await?;
    let viewer_state = match viewer {
        None => RosterViewer::default(),
        Some(v) => RosterViewer {
            is_member: rel.is_member(),
            can_edit: rel.permits(&Action::EditRoster { roster_id: &id }),
            can_manage_players: rel.permits(&Action::ManagePlayers { roster_id: &id }),
            can_decide_requests: rel.permits(&Action::DecideJoinRequests { roster_id: &id }),
            pending_request_id: document
                .requests
                .iter()
                .find(|r| r.user_id == v && r.status == RequestStatus::Pending)
                .map(|r| r.id.clone()),
        },
    };
    Ok(Roster { document, viewer: viewer_state })
}

/// Pushes the roster's document, then answers the writer with the roster
/// as they see it.
async fn push_and_load(state: &AppState, viewer: &str, id: &str) -> AppResult<Roster> {
    state.realtime.push(&[Topic::roster(id)]).await;
    with_viewer(state, Some(viewer), live::roster::document(&state.db, id).await?).await
}

/// Locks the roster for a write; 404 when missing, 409 when archived.
async fn lock_writable(conn: &mut AnyConnection, id: &str) -> AppResult<db::rosters::Locked> {
    let locked = db::rosters::bump(conn, id).await?.ok_or_else(|| AppError::not_found("roster"))?;
    if locked.status == RosterStatus::Archived.as_str() {
        return Err(AppError::conflict_code("roster_archived", "the roster is archived and can no longer change"));
    }
    Ok(locked)
}

// ---------------------------------------------------------------- rosters

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct NewRoster {
    pub team_id: String,
    pub season_id: String,
    pub name: String,
    pub description: Option<String>,
    /// 1–100; absent = no limit.
    pub max_members: Option<i64>,
    /// DRAFT (default) or ACTIVE.
    pub status: Option<RosterStatus>,
    /// A division mapping of the same season.
    pub division_mapping_id: Option<String>,
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RosterPatch {
    pub name: Option<String>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>)]
    pub description: Option<Option<String>>,
    /// null = no limit; never below the current number of players.
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<i64>)]
    pub max_members: Option<Option<i64>>,
    /// DRAFT → ACTIVE → ARCHIVED, or DRAFT → ARCHIVED. Archiving rejects the
    /// pending join requests.
    pub status: Option<RosterStatus>,
    /// null = no division.
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>)]
    pub division_mapping_id: Option<Option<String>>,
}

fn check_max_members(errors: &mut FieldErrors, max: Option<i64>) {
    if max.is_some_and(|m| !(1..=MAX_ROSTER_SIZE).contains(&m)) {
        errors.insert("maxMembers".into(), format!("must be 1–{MAX_ROSTER_SIZE}, or absent for no limit"));
    }
}

/// A division mapping must exist and belong to the roster's season.
async fn check_mapping(
    conn: &mut AnyConnection,
    errors: &mut FieldErrors,
    mapping_id: Option<&str>,
    season_id: &str,
) -> AppResult<()> {
    if let Some(mapping_id) = mapping_id {
        match db::access::mapping_season(&mut *conn, mapping_id).await? {
            None => {
                errors.insert("divisionMappingId".into(), "no such division mapping".into());
            }
            Some(s) if s != season_id => {
                errors.insert("divisionMappingId".into(), "the division mapping belongs to another season".into());
            }
            Some(_) => {}
        }
    }
    Ok(())
}

fn transition_allowed(from: RosterStatus, to: RosterStatus) -> bool {
    use RosterStatus::*;
    from == to || matches!((from, to), (Draft, Active) | (Active, Archived) | (Draft, Archived))
}

/// Create a roster of a team for a season (team owner or managers).
#[utoipa::path(request_body = NewRoster, responses((status = 201, body = Roster), (status = 403, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)), tag = "rosters")]
#[post("/rosters")]
async fn create(state: web::Data<AppState>, me: AuthUser, body: web::Json<NewRoster>) -> AppResult<HttpResponse> {
    let body = body.into_inner();
    permissions::check(&state.db, Some(&me.id), Action::CreateRoster { team_id: &body.team_id }).await?;
    let mut errors = FieldErrors::new();
    let fields = RosterFields {
        name: check_name(&mut errors, "name", &body.name, MAX_NAME),
        description: clean(body.description),
        status: body.status.unwrap_or(RosterStatus::Draft).as_str().to_string(),
        division_mapping_id: clean(body.division_mapping_id),
        max_members: body.max_members,
    };
    check_len(&mut errors, "description", fields.description.as_deref(), MAX_DESCRIPTION);
    check_max_members(&mut errors, fields.max_members);
    if body.status == Some(RosterStatus::Archived) {
        errors.insert("status".into(), "a new roster is DRAFT or ACTIVE".into());
    }
    let mut conn = state.db.pool.acquire().await?;
    if db::access::season_facility(&mut *conn, &body.season_id).await?.is_none() {
        errors.insert("seasonId".into(), "no such season".into());
    } else {
        check_mapping(&mut conn, &mut errors, fields.division_mapping_id.as_deref(), &body.season_id).await?;
    }
    finish(errors)?;
    let id = db::rosters::insert(&mut *conn, &body.team_id, &body.season_id, &fields).await?;
    drop(conn);
    let doc = live::roster::document(&state.db, &id).await?;
    Ok(HttpResponse::Created().json(with_viewer(&state, Some(&me.id), doc).await?))
}

/// A roster with its players, stats and request states (public).
#[utoipa::path(responses((status = 200, body = Roster), (status = 404, body = crate::error::ErrorEnvelope)), tag = "rosters")]
#[get("/rosters/{id}")]
async fn get_one(state: web::Data<AppState>, me: MaybeUser, id: web::Path<String>) -> AppResult<web::Json<Roster>> {
    let doc = live::roster::document(&state.db, &id).await?;
    Ok(web::Json(with_viewer(&state, me.id(), doc).await?))
}

/// Edit a roster (team owner or managers; the season's facility owner or
/// managers). wins/losses/ties/points are not editable.
#[utoipa::path(request_body = RosterPatch, responses((status = 200, body = Roster), (status = 403, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)), tag = "rosters")]
#[patch("/rosters/{id}")]
async fn edit(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    body: web::Json<RosterPatch>,
) -> AppResult<web::Json<Roster>> {
    permissions::check(&state.db, Some(&me.id), Action::EditRoster { roster_id: &id }).await?;
    let patch = body.into_inner();
    let mapping_changed = patch.division_mapping_id.is_some();
    let mut tx = state.db.begin().await?;
    let locked = lock_writable(&mut tx, &id).await?;
    let row = db::rosters::get(&mut *tx, &id).await?.ok_or_else(|| AppError::not_found("roster"))?;
    let mut errors = FieldErrors::new();
    let fields = RosterFields {
        name: match &patch.name {
            Some(n) => check_name(&mut errors, "name", n, MAX_NAME),
            None => row.name.clone(),
        },
        description: match patch.description {
            Some(d) => clean(d),
            None => row.description.clone(),
        },
        status: patch.status.map(|s| s.as_str().to_string()).unwrap_or_else(|| row.status.clone()),
        division_mapping_id: match patch.division_mapping_id {
            Some(m) => clean(m),
            None => row.division_mapping_id.clone(),
        },
        max_members: match patch.max_members {
            Some(m) => m,
            None => row.max_members,
        },
    };
    check_len(&mut errors, "description", fields.description.as_deref(), MAX_DESCRIPTION);
    check_max_members(&mut errors, fields.max_members);
    if mapping_changed {
        check_mapping(&mut tx, &mut errors, fields.division_mapping_id.as_deref(), &locked.season_id).await?;
    }
    finish(errors)?;
    let from = RosterStatus::parse(&row.status).unwrap_or(RosterStatus::Draft);
    let to = RosterStatus::parse(&fields.status).unwrap_or(from);
    if !transition_allowed(from, to) {
        return Err(AppError::conflict_code(
            "invalid_status_transition",
            format!("a roster goes DRAFT → ACTIVE → ARCHIVED; {from} → {to} is not allowed"),
        ));
    }
    if let Some(max) = fields.max_members
        && max < row.member_count
    {
        return Err(AppError::conflict_code(
            "max_members_below_roster",
            format!(
                "{} players are on the roster; take some off before lowering maxMembers to {max}",
                row.member_count
            ),
        ));
    }
    db::rosters::replace(&mut tx, &id, &fields).await?;
    if to == RosterStatus::Archived && from != to {
        // Nobody can join an archived roster: close what is still open.
        db::rosters::reject_pending(&mut tx, &id, &me.id).await?;
    }
    tx.commit().await?;
    Ok(web::Json(push_and_load(&state, &me.id, &id).await?))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TeamRostersQuery {
    /// Only this season's rosters.
    pub season_id: Option<String>,
    pub limit: Option<i64>,
    pub cursor: Option<String>,
}

async fn roster_page(
    state: &AppState,
    team: Option<&str>,
    season: Option<&str>,
    page: &PageQuery,
) -> AppResult<Page<RosterSummary>> {
    let limit = page_limit(page.limit);
    let rows = db::rosters::list(&state.db.pool, team, season, page.cursor()?.as_ref(), limit).await?;
    let (rows, next_cursor) =
        finish_page(rows, limit, |r| Cursor { at: r.season_start_date, id: r.id.clone() }.encode());
    Ok(Page { items: rows.into_iter().map(RosterSummary::from).collect(), next_cursor })
}

/// A team's rosters, latest season first (public).
#[utoipa::path(params(TeamRostersQuery), responses((status = 200, body = Page<RosterSummary>), (status = 404, body = crate::error::ErrorEnvelope)), tag = "rosters")]
#[get("/teams/{id}/rosters")]
async fn team_rosters(
    state: web::Data<AppState>,
    id: web::Path<String>,
    query: web::Query<TeamRostersQuery>,
) -> AppResult<web::Json<Page<RosterSummary>>> {
    if !db::teams::exists(&state.db.pool, &id).await? {
        return Err(AppError::not_found("team"));
    }
    let query = query.into_inner();
    let page = PageQuery { limit: query.limit, cursor: query.cursor };
    Ok(web::Json(roster_page(&state, Some(&id), query.season_id.as_deref(), &page).await?))
}

/// A team's rosters of every season, latest first, for the team page.
pub async fn team_rosters_all(state: &AppState, team_id: &str) -> AppResult<Vec<RosterSummary>> {
    let page = PageQuery { limit: Some(100), cursor: None };
    Ok(roster_page(state, Some(team_id), None, &page).await?.items)
}

/// A season's rosters (public).
#[utoipa::path(params(PageQuery), responses((status = 200, body = Page<RosterSummary>), (status = 404, body = crate::error::ErrorEnvelope)), tag = "rosters")]
#[get("/seasons/{id}/rosters")]
async fn season_rosters(
    state: web::Data<AppState>,
    id: web::Path<String>,
    page: web::Query<PageQuery>,
) -> AppResult<web::Json<Page<RosterSummary>>> {
    if db::access::season_facility(&state.db.pool, &id).await?.is_none() {
        return Err(AppError::not_found("season"));
    }
    Ok(web::Json(roster_page(&state, None, Some(&id), &page).await?))
}

// ---------------------------------------------------------------- players

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct NewPlayer {
    pub user_id: String,
    /// 0–99, unique on the roster.
    pub jersey_number: Option<i64>,
    pub position: Option<HockeyPosition>,
    /// FULL_TIME (default) or SUBSTITUTE.
    pub commitment_level: Option<RosterCommitment>,
    pub captain: Option<bool>,
    pub alternate_captain: Option<bool>,
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PlayerPatch {
    /// null takes the number off.
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<i64>)]
    pub jersey_number: Option<Option<i64>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<HockeyPosition>)]
    pub position: Option<Option<HockeyPosition>>,
    pub commitment_level: Option<RosterCommitment>,
    pub captain: Option<bool>,
    pub alternate_captain: Option<bool>,
}

/// Field rules of a player's complete (merged) fields.
fn check_player_fields(f: &PlayerFields) -> AppResult<()> {
    let mut errors = FieldErrors::new();
    if f.jersey_number.is_some_and(|n| !(0..=99).contains(&n)) {
        errors.insert("jerseyNumber".into(), "must be 0–99".into());
    }
    if f.captain && f.alternate_captain {
        errors.insert("alternateCaptain".into(), "a captain cannot also be an alternate captain".into());
    }
    finish(errors)
}

/// Rules against the roster's other players (under the roster lock).
fn check_against_roster(h: &Holders, user_id: &str, f: &PlayerFields) -> AppResult<()> {
    if let Some(n) = f.jersey_number
        && h.jerseys.iter().any(|(j, u)| *j == n && u != user_id)
    {
        return Err(AppError::conflict_code("jersey_taken", format!("#{n} is already worn on this roster")));
    }
    if f.captain && h.captain.as_deref().is_some_and(|c| c != user_id) {
        return Err(AppError::conflict_code("captain_taken", "the roster already has a captain"));
    }
    if f.alternate_captain && !h.alternates.iter().any(|a| a == user_id) && h.alternates.len() >= MAX_ALTERNATES {
        return Err(AppError::conflict_code(
            "alternate_captains_full",
            format!("the roster already has {MAX_ALTERNATES} alternate captains"),
        ));
    }
    Ok(())
}

fn roster_full(max: i64) -> AppError {
    AppError::conflict_code("roster_full", format!("the roster is full ({max} players)"))
}

/// Records that someone joined a roster: USER_JOINED_TEAM for the player's
/// and the team's followers, TEAM_ROSTER_UPDATED for the team's followers.
async fn record_join(conn: &mut AnyConnection, player_id: &str, team_id: &str, roster_id: &str) -> AppResult<()> {
    let joined = Fact {
        kind: FeedItemType::UserJoinedTeam,
        actor_id: player_id,
        resource_type: "ROSTER",
        resource_id: roster_id,
    };
    db::feed::fan_out(&mut *conn, joined, &[Audience::UserFollowers(player_id), Audience::TeamFollowers(team_id)])
        .await?;
    let updated = Fact {
        kind: FeedItemType::TeamRosterUpdated,
        actor_id: player_id,
        resource_type: "ROSTER",
        resource_id: roster_id,
    };
    db::feed::fan_out(&mut *conn, updated, &[Audience::TeamFollowers(team_id)]).await?;
    Ok(())
}

async fn load_player(state: &AppState, roster_id: &str, user_id: &str) -> AppResult<RosterPlayer> {
    let row =
        db::rosters::player(&state.db.pool, roster_id, user_id).await?.ok_or_else(|| AppError::not_found("player"))?;
    Ok(RosterPlayer::from(row))
}

/// Put someone on the roster (team owner or managers). A pending join
/// request of theirs is approved by it.
#[utoipa::path(request_body = NewPlayer, responses((status = 201, body = RosterPlayer), (status = 403, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)), tag = "rosters")]
#[post("/rosters/{id}/players")]
async fn add_player(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    body: web::Json<NewPlayer>,
) -> AppResult<HttpResponse> {
    permissions::check(&state.db, Some(&me.id), Action::ManagePlayers { roster_id: &id }).await?;
    let body = body.into_inner();
    let fields = PlayerFields {
        jersey_number: body.jersey_number,
        position: body.position.map(|p| p.as_str().to_string()),
        commitment_level: body.commitment_level.unwrap_or(RosterCommitment::FullTime).as_str().to_string(),
        captain: body.captain.unwrap_or(false),
        alternate_captain: body.alternate_captain.unwrap_or(false),
    };
    check_player_fields(&fields)?;
    if !db::users::exists(&state.db.pool, &body.user_id).await? {
        return Err(AppError::field("userId", "no such user"));
    }
    let mut tx = state.db.begin().await?;
    let locked = lock_writable(&mut tx, &id).await?;
    if db::rosters::player(&mut *tx, &id, &body.user_id).await?.is_some() {
        return Err(AppError::conflict_code("already_on_roster", "they are already on this roster"));
    }
    let holders = db::rosters::holders(&mut tx, &id).await?;
    if let Some(max) = locked.max_members.filter(|m| holders.members >= *m) {
        return Err(roster_full(max));
    }
    check_against_roster(&holders, &body.user_id, &fields)?;
    db::rosters::insert_player(&mut tx, &id, &body.user_id, &fields).await?;
    if let Some(request_id) = db::rosters::pending_of(&mut tx, &id, &body.user_id).await? {
        db::rosters::decide(&mut tx, &request_id, RequestStatus::Approved.as_str(), &me.id).await?;
    }
    record_join(&mut tx, &body.user_id, &locked.team_id, &id).await?;
    tx.commit().await?;
    state.realtime.push(&[Topic::roster(id.as_str())]).await;
    Ok(HttpResponse::Created().json(load_player(&state, &id, &body.user_id).await?))
}

/// Edit a player's number, position, commitment or letters (team owner or
/// managers). Stats are not editable here.
#[utoipa::path(request_body = PlayerPatch, responses((status = 200, body = RosterPlayer), (status = 403, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)), tag = "rosters")]
#[patch("/rosters/{id}/players/{user_id}")]
async fn edit_player(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<(String, String)>,
    body: web::Json<PlayerPatch>,
) -> AppResult<web::Json<RosterPlayer>> {
    let (id, user_id) = path.into_inner();
    permissions::check(&state.db, Some(&me.id), Action::ManagePlayers { roster_id: &id }).await?;
    let patch = body.into_inner();
    let mut tx = state.db.begin().await?;
    lock_writable(&mut tx, &id).await?;
    let current = db::rosters::player(&mut *tx, &id, &user_id).await?.ok_or_else(|| AppError::not_found("player"))?;
    let fields = PlayerFields {
        jersey_number: patch.jersey_number.unwrap_or(current.jersey_number),
        position: match patch.position {
            Some(p) => p.map(|p| p.as_str().to_string()),
            None => current.position,
        },
        commitment_level: patch.commitment_level.map(|c| c.as_str().to_string()).unwrap_or(current.commitment_level),
        captain: patch.captain.unwrap_or(current.captain != 0),
        alternate_captain: patch.alternate_captain.unwrap_or(current.alternate_captain != 0),
    };
    check_player_fields(&fields)?;
    let holders = db::rosters::holders(&mut tx, &id).await?;
    check_against_roster(&holders, &user_id, &fields)?;
    db::rosters::replace_player(&mut tx, &id, &user_id, &fields).await?;
    tx.commit().await?;
    state.realtime.push(&[Topic::roster(id.as_str())]).await;
    Ok(web::Json(load_player(&state, &id, &user_id).await?))
}

/// Take a player off the roster (team owner or managers), or leave it
/// yourself.
#[utoipa::path(responses((status = 204), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope)), tag = "rosters")]
#[delete("/rosters/{id}/players/{user_id}")]
async fn remove_player(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<(String, String)>,
) -> AppResult<HttpResponse> {
    let (id, user_id) = path.into_inner();
    permissions::check(&state.db, Some(&me.id), Action::RemovePlayer { roster_id: &id, user_id: &user_id }).await?;
    let mut tx = state.db.begin().await?;
    lock_writable(&mut tx, &id).await?;
    if !db::rosters::delete_player(&mut tx, &id, &user_id).await? {
        return Err(AppError::not_found("player"));
    }
    tx.commit().await?;
    state.realtime.push(&[Topic::roster(id.as_str())]).await;
    Ok(HttpResponse::NoContent().finish())
}

// ---------------------------------------------------------------- join requests

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct NewJoinRequest {
    /// Up to 1000 characters, seen by the deciders only.
    pub message: Option<String>,
    pub preferred_position: Option<HockeyPosition>,
    /// FULL_TIME (default) or SUBSTITUTE.
    pub commitment_level: Option<RosterCommitment>,
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RequestsQuery {
    pub status: Option<RequestStatus>,
    pub limit: Option<i64>,
    pub cursor: Option<String>,
}

async fn request_page(state: &AppState, of: RequestsOf<'_>, query: RequestsQuery) -> AppResult<Page<JoinRequest>> {
    let page = PageQuery { limit: query.limit, cursor: query.cursor };
    let limit = page_limit(page.limit);
    let status = query.status.map(|s| s.as_str());
    let rows = db::rosters::requests(&state.db.pool, of, status, page.cursor()?.as_ref(), limit).await?;
    let (rows, next_cursor) = finish_page(rows, limit, |r| Cursor { at: r.created_at, id: r.id.clone() }.encode());
    Ok(Page { items: rows.into_iter().map(JoinRequest::from).collect(), next_cursor })
}

async fn load_request(state: &AppState, id: &str) -> AppResult<JoinRequest> {
    let row = db::rosters::request(&state.db.pool, id).await?.ok_or_else(|| AppError::not_found("join request"))?;
    Ok(JoinRequest::from(row))
}

fn already_on_roster() -> AppError {
    AppError::conflict_code("already_on_roster", "you are already on this roster")
}

fn not_pending() -> AppError {
    AppError::conflict_code("not_pending", "the request has already been decided or withdrawn")
}

/// Ask to join a roster (any signed-in person not on it).
#[utoipa::path(request_body = NewJoinRequest, responses((status = 201, body = JoinRequest), (status = 409, body = crate::error::ErrorEnvelope)), tag = "rosters")]
#[post("/rosters/{id}/join-requests")]
async fn request_to_join(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    body: web::Json<NewJoinRequest>,
) -> AppResult<HttpResponse> {
    permissions::check(&state.db, Some(&me.id), Action::RequestToJoin { roster_id: &id }).await?;
    let body = body.into_inner();
    let fields = RequestFields {
        message: clean(body.message),
        preferred_position: body.preferred_position.map(|p| p.as_str().to_string()),
        commitment_level: body.commitment_level.unwrap_or(RosterCommitment::FullTime).as_str().to_string(),
    };
    let mut errors = FieldErrors::new();
    check_len(&mut errors, "message", fields.message.as_deref(), MAX_MESSAGE);
    finish(errors)?;
    let mut tx = state.db.begin().await?;
    lock_writable(&mut tx, &id).await?;
    if db::rosters::player(&mut *tx, &id, &me.id).await?.is_some() {
        return Err(already_on_roster());
    }
    if db::rosters::pending_of(&mut tx, &id, &me.id).await?.is_some() {
        return Err(AppError::conflict_code("request_pending", "you already asked to join this roster"));
    }
    let request_id = db::rosters::insert_request(&mut tx, &id, &me.id, &fields).await?;
    tx.commit().await?;
    state.realtime.push(&[Topic::roster(id.as_str())]).await;
    Ok(HttpResponse::Created().json(load_request(&state, &request_id).await?))
}

/// A roster's join requests with messages, newest first (team owner,
/// managers, roster captains).
#[utoipa::path(params(RequestsQuery), responses((status = 200, body = Page<JoinRequest>), (status = 403, body = crate::error::ErrorEnvelope)), tag = "rosters")]
#[get("/rosters/{id}/join-requests")]
async fn roster_requests(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    query: web::Query<RequestsQuery>,
) -> AppResult<web::Json<Page<JoinRequest>>> {
    permissions::check(&state.db, Some(&me.id), Action::DecideJoinRequests { roster_id: &id }).await?;
    Ok(web::Json(request_page(&state, RequestsOf::Roster(&id), query.into_inner()).await?))
}

/// My join requests, newest first.
#[utoipa::path(params(RequestsQuery), responses((status = 200, body = Page<JoinRequest>)), tag = "rosters")]
#[get("/me/join-requests")]
async fn my_requests(
    state: web::Data<AppState>,
    me: AuthUser,
    query: web::Query<RequestsQuery>,
) -> AppResult<web::Json<Page<JoinRequest>>> {
    Ok(web::Json(request_page(&state, RequestsOf::User(&me.id), query.into_inner()).await?))
}

/// The request's roster and requester, or 404.
async fn request_owner(state: &AppState, id: &str) -> AppResult<(String, String)> {
    db::rosters::request_owner(&state.db.pool, id).await?.ok_or_else(|| AppError::not_found("join request"))
}

/// One join request (its requester and its deciders).
#[utoipa::path(responses((status = 200, body = JoinRequest), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope)), tag = "rosters")]
#[get("/join-requests/{id}")]
async fn get_request(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
) -> AppResult<web::Json<JoinRequest>> {
    let (roster_id, requester_id) = request_owner(&state, &id).await?;
    permissions::check(
        &state.db,
        Some(&me.id),
        Action::ViewJoinRequest { roster_id: &roster_id, requester_id: &requester_id },
    )
    .await?;
    Ok(web::Json(load_request(&state, &id).await?))
}

/// Approve or reject, in one transaction with the roster locked.
async fn decide(state: &AppState, me: &AuthUser, id: &str, approve: bool) -> AppResult<JoinRequest> {
    let (roster_id, requester_id) = request_owner(state, id).await?;
    permissions::check(&state.db, Some(&me.id), Action::DecideJoinRequests { roster_id: &roster_id }).await?;
    let mut tx = state.db.begin().await?;
    let locked = lock_writable(&mut tx, &roster_id).await?;
    let request = db::rosters::request(&mut *tx, id).await?.ok_or_else(|| AppError::not_found("join request"))?;
    if request.status != RequestStatus::Pending.as_str() {
        return Err(not_pending());
    }
    if approve {
        if db::rosters::player(&mut *tx, &roster_id, &requester_id).await?.is_some() {
            return Err(AppError::conflict_code("already_on_roster", "they are already on this roster"));
        }
        let holders = db::rosters::holders(&mut tx, &roster_id).await?;
        if let Some(max) = locked.max_members.filter(|m| holders.members >= *m) {
            return Err(roster_full(max));
        }
        if !db::rosters::decide(&mut tx, id, RequestStatus::Approved.as_str(), &me.id).await? {
            return Err(not_pending());
        }
        let fields = PlayerFields {
            jersey_number: None,
            position: request.preferred_position.clone(),
            commitment_level: request.commitment_level.clone(),
            captain: false,
            alternate_captain: false,
        };
        db::rosters::insert_player(&mut tx, &roster_id, &requester_id, &fields).await?;
        record_join(&mut tx, &requester_id, &locked.team_id, &roster_id).await?;
    } else if !db::rosters::decide(&mut tx, id, RequestStatus::Rejected.as_str(), &me.id).await? {
        return Err(not_pending());
    }
    tx.commit().await?;
    state.realtime.push(&[Topic::roster(roster_id.as_str())]).await;
    load_request(state, id).await
}

/// Approve a pending request: the requester joins the roster (team owner,
/// managers, roster captains). A full roster answers 409 `roster_full`.
#[utoipa::path(responses((status = 200, body = JoinRequest), (status = 403, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope)), tag = "rosters")]
#[post("/join-requests/{id}/approve")]
async fn approve_request(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
) -> AppResult<web::Json<JoinRequest>> {
    Ok(web::Json(decide(&state, &me, &id, true).await?))
}

/// Reject a pending request (team owner, managers, roster captains).
#[utoipa::path(responses((status = 200, body = JoinRequest), (status = 403, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope)), tag = "rosters")]
#[post("/join-requests/{id}/reject")]
async fn reject_request(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
) -> AppResult<web::Json<JoinRequest>> {
    Ok(web::Json(decide(&state, &me, &id, false).await?))
}

/// Withdraw your own pending request.
#[utoipa::path(responses((status = 204), (status = 403, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope)), tag = "rosters")]
#[delete("/join-requests/{id}")]
async fn cancel_request(state: web::Data<AppState>, me: AuthUser, id: web::Path<String>) -> AppResult<HttpResponse> {
    let (roster_id, requester_id) = request_owner(&state, &id).await?;
    permissions::check(&state.db, Some(&me.id), Action::CancelJoinRequest { requester_id: &requester_id }).await?;
    let mut tx = state.db.begin().await?;
    db::rosters::bump(&mut tx, &roster_id).await?.ok_or_else(|| AppError::not_found("roster"))?;
    if !db::rosters::delete_pending(&mut tx, &id).await? {
        return Err(not_pending());
    }
    tx.commit().await?;
    state.realtime.push(&[Topic::roster(roster_id.as_str())]).await;
    Ok(HttpResponse::NoContent().finish())
}
