//! Rosters: creating, reading and editing one, and the roster page
//! ([`Roster`]: the live document plus what the viewer is and may do). The
//! rest of a roster has its own module: `listing` (a team's and a season's
//! rosters), `players` (putting people on, editing and taking them off),
//! `requests` (join requests). The roster invariants are pure functions in
//! `crate::roster_rules`; who may act is `crate::permissions`' business.
//!
//! Every write locks the roster first (`db::rosters::bump`), so concurrent
//! writers queue per roster and the rules hold under concurrency; joining
//! writes the player, the request's decision and the feed items in one
//! transaction. After the commit the roster document is pushed on
//! `roster:ID` (`crate::live::roster`).

mod listing;
pub(crate) mod players;
pub(crate) mod requests;

pub use listing::team_rosters_all;

use super::{check_len, check_name, clean, finish, nullable};
use crate::auth::{AuthUser, MaybeUser};
use crate::db::{self, rosters::RosterFields};
use crate::domain::{RequestStatus, RosterStatus};
use crate::error::{AppError, AppResult, FieldErrors};
use crate::live::{self, roster::RosterDocument};
use crate::permissions::{self, Action, Object};
use crate::realtime::topics::Topic;
use crate::roster_rules;
use crate::state::AppState;
use actix_web::{HttpResponse, get, patch, post, web};
use serde::{Deserialize, Serialize};
use sqlx::AnyConnection;
use utoipa_actix_web::service_config::ServiceConfig;

pub fn config(cfg: &mut ServiceConfig) {
    cfg.service(create)
        .service(get_one)
        .service(edit)
        .configure(listing::config)
        .configure(players::config)
        .configure(requests::config);
}

const MAX_NAME: usize = 120;
const MAX_DESCRIPTION: usize = 2000;

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
    roster_changed(state, viewer, id).await?;
    with_viewer(state, Some(viewer), live::roster::document(&state.db, id).await?).await
}

/// After a roster's players or status changed: its document is pushed, and
/// the upcoming events of its team that keep places for regulars learn who
/// the regulars are now (docs/pickup-night.md).
async fn roster_changed(state: &AppState, by: &str, id: &str) -> AppResult<()> {
    state.realtime.push(&[Topic::roster(id)]).await;
    let now = (state.clock)();
    for event_id in db::rsvp_rules::upcoming_with_regulars_of_roster(&state.db.pool, id, now).await? {
        crate::commands::event::refresh_access(state, by, &event_id).await?;
    }
    Ok(())
}

/// Locks the roster for a write; 404 when missing, 409 when archived.
async fn lock_writable(conn: &mut AnyConnection, id: &str) -> AppResult<db::rosters::Locked> {
    let locked = db::rosters::bump(conn, id).await?.ok_or_else(|| AppError::not_found("roster"))?;
    roster_rules::check_writable(&locked.status)?;
    Ok(locked)
}

// ---------------------------------------------------------------- rosters

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct NewRoster {
    #[schema(schema_with = crate::domain::text::schema::id)]
    pub team_id: String,
    #[schema(schema_with = crate::domain::text::schema::id)]
    pub season_id: String,
    #[schema(schema_with = crate::domain::text::schema::name::<120>)]
    pub name: String,
    #[schema(schema_with = crate::domain::text::schema::optional_text::<2000>)]
    pub description: Option<String>,
    /// 1–100; absent or null = no limit.
    #[serde(default, deserialize_with = "crate::api::optional_whole")]
    #[schema(minimum = 1, maximum = 100)]
    pub max_members: Option<i64>,
    #[schema(schema_with = new_roster_status)]
    pub status: Option<RosterStatus>,
    /// A division mapping of the same season.
    #[schema(schema_with = crate::domain::text::schema::optional_id)]
    pub division_mapping_id: Option<String>,
}

/// A new roster starts DRAFT or ACTIVE (`roster_rules::check_new_status`).
fn new_roster_status() -> utoipa::openapi::schema::Object {
    utoipa::openapi::schema::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::from_iter([
            utoipa::openapi::schema::Type::String,
            utoipa::openapi::schema::Type::Null,
        ]))
        .enum_values(Some([Some(RosterStatus::Draft.as_str()), Some(RosterStatus::Active.as_str()), None]))
        .description(Some("DRAFT (default) or ACTIVE."))
        .build()
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RosterPatch {
    #[schema(schema_with = crate::domain::text::schema::nullable_name::<120>)]
    pub name: Option<String>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(schema_with = crate::domain::text::schema::optional_text::<2000>)]
    pub description: Option<Option<String>>,
    /// 1–100; null = no limit; never below the current number of players.
    #[serde(default, deserialize_with = "crate::api::nullable_whole")]
    #[schema(value_type = Option<i64>, minimum = 1, maximum = 100)]
    pub max_members: Option<Option<i64>>,
    /// DRAFT → ACTIVE → ARCHIVED, or DRAFT → ARCHIVED. Archiving rejects the
    /// pending join requests.
    pub status: Option<RosterStatus>,
    /// null = no division.
    #[serde(default, deserialize_with = "nullable")]
    #[schema(schema_with = crate::domain::text::schema::optional_id)]
    pub division_mapping_id: Option<Option<String>>,
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

/// Create a roster of a team for a season (team owner or managers).
#[utoipa::path(request_body = NewRoster, responses((status = 201, body = Roster), (status = 403, body = crate::error::ErrorEnvelope),
    (status = 404, body = crate::error::ErrorEnvelope, description = "no team has `teamId`"), (status = 422, body = crate::error::ErrorEnvelope)), tag = "rosters", security(("bearerAuth" = [])))]
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
    roster_rules::check_max_members(&mut errors, fields.max_members);
    roster_rules::check_new_status(&mut errors, body.status);
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
#[utoipa::path(responses((status = 200, body = Roster), (status = 404, body = crate::error::ErrorEnvelope)), tag = "rosters", security((), ("bearerAuth" = [])))]
#[get("/rosters/{id}")]
async fn get_one(state: web::Data<AppState>, me: MaybeUser, id: web::Path<String>) -> AppResult<web::Json<Roster>> {
    let doc = live::roster::document(&state.db, &id).await?;
    Ok(web::Json(with_viewer(&state, me.id(), doc).await?))
}

/// Edit a roster (team owner or managers; the season's facility owner or
/// managers). wins/losses/ties/points are not editable.
#[utoipa::path(request_body = RosterPatch, responses((status = 200, body = Roster), (status = 403, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)), tag = "rosters", security(("bearerAuth" = [])))]
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
    roster_rules::check_max_members(&mut errors, fields.max_members);
    if mapping_changed {
        check_mapping(&mut tx, &mut errors, fields.division_mapping_id.as_deref(), &locked.season_id).await?;
    }
    finish(errors)?;
    let from = RosterStatus::parse(&row.status).unwrap_or(RosterStatus::Draft);
    let to = RosterStatus::parse(&fields.status).unwrap_or(from);
    roster_rules::check_transition(from, to)?;
    roster_rules::check_max_not_below(fields.max_members, row.member_count)?;
    db::rosters::replace(&mut tx, &id, &fields).await?;
    if roster_rules::archives(from, to) {
        // Nobody can join an archived roster: close what is still open.
        db::rosters::requests::reject_pending(&mut tx, &id, &me.id).await?;
    }
    // Its players found a team once it is active: LOOKING_FOR_TEAM ends.
    let found_a_team = db::statuses::end_looking_for_team_of_roster(&mut *tx, &id, (state.clock)()).await?;
    tx.commit().await?;
    crate::api::statuses::push_ended(&state, found_a_team).await;
    Ok(web::Json(push_and_load(&state, &me.id, &id).await?))
}

#[cfg(test)]
mod fuzz {
    use crate::fuzzing::{self, json_bodies, query_string};
    use actix_web::web;
    use proptest::prelude::*;

    json_bodies! {
        new_roster: super::NewRoster;
        roster_patch: super::RosterPatch;
        new_player: super::players::NewPlayer;
        player_patch: super::players::PlayerPatch;
        new_join_request: super::requests::NewJoinRequest;
    }

    const QUERY: &[&str] = &["status", "seasonId", "limit", "cursor"];

    proptest! {
        #![proptest_config(fuzzing::config(1_000))]

        /// The roster lists' query strings parse to what they say, or are
        /// refused for what they say wrong: an unknown or repeated field, a
        /// status that is none, a limit that is no whole number.
        #[test]
        fn any_roster_list_query_parses_or_is_refused(query in query_string(QUERY)) {
            let pairs: Vec<(String, String)> = url::form_urlencoded::parse(query.as_bytes()).into_owned().collect();
            let value = |key: &str| pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone());
            let wrong = |known: &[&str]| {
                pairs.iter().any(|(k, _)| !known.contains(&k.as_str()))
                    || known.iter().any(|key| pairs.iter().filter(|(k, _)| k == key).count() > 1)
                    || value("limit").is_some_and(|v| v.trim_end_matches('0').trim_end_matches('.').parse::<i64>().is_err() && v.parse::<i64>().is_err())
            };
            match web::Query::<super::requests::RequestsQuery>::from_query(&query) {
                Ok(q) => {
                    prop_assert_eq!(q.status.map(|s| s.as_str().to_string()), value("status"));
                    prop_assert_eq!(&q.cursor, &value("cursor"));
                }
                Err(_) => prop_assert!(
                    wrong(&["status", "limit", "cursor"])
                        || value("status").is_some_and(|s| crate::domain::RequestStatus::parse(&s).is_none()),
                    "refused {:?}", query
                ),
            }
            match web::Query::<crate::api::SeasonPageQuery>::from_query(&query) {
                Ok(q) => {
                    prop_assert_eq!(&q.season_id, &value("seasonId"));
                    prop_assert_eq!(&q.cursor, &value("cursor"));
                }
                Err(_) => prop_assert!(wrong(&["seasonId", "limit", "cursor"]), "refused {:?}", query),
            }
        }
    }
}
