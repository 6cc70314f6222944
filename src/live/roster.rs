//! `roster:ID` — public: the roster document (the roster, its players with
//! stats, and its requests' states — never their messages). Anyone may
//! subscribe, signed in or not. Seq is the roster's `updated_at`, which
//! every roster write advances to `max(updated_at + 1, now)` in its
//! transaction (`db::rosters::bump`), so it strictly increases.
//!
//! The document's parts are also the REST wire types of rosters: the
//! roster page is this document plus what the viewer may do.

use crate::db::rosters::{PlayerRow, RosterRow};
use crate::db::{self, Db};
use crate::domain::{HockeyPosition, RequestStatus, RosterCommitment, RosterStatus, UniversalDivision};
use crate::error::AppError;
use crate::realtime::topics::TopicSource;
use crate::summaries::UserSummary;
use futures_util::future::BoxFuture;
use serde::Serialize;

/// Requests carried in the live document (newest first).
const DOC_REQUESTS: i64 = 100;
/// Consistent-read attempts for the document before settling.
const DOC_READ_ATTEMPTS: usize = 5;

/// The division a roster plays in.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DivisionRef {
    pub id: String,
    pub facility_division_name: String,
    pub universal_division_scale: UniversalDivision,
    pub level: i64,
}

/// A roster without its people: lists and the top of the roster page.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RosterSummary {
    pub id: String,
    pub name: String,
    pub description: Option<String>,
    pub team_id: String,
    pub team_name: String,
    pub season_id: String,
    pub season_name: String,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub season_start_date: i64,
    pub season_is_active: bool,
    pub facility_id: String,
    pub facility_name: String,
    pub status: RosterStatus,
    pub division_mapping_id: Option<String>,
    pub division: Option<DivisionRef>,
    /// null = no limit.
    pub max_members: Option<i64>,
    pub member_count: i64,
    /// Standings, written by games (read-only here).
    pub wins: i64,
    pub losses: i64,
    pub ties: i64,
    pub points: i64,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: i64,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub updated_at: i64,
}

impl From<RosterRow> for RosterSummary {
    fn from(r: RosterRow) -> Self {
        let division = match (
            &r.division_mapping_id,
            r.division_name,
            r.division_scale.as_deref().and_then(UniversalDivision::parse),
        ) {
            (Some(id), Some(name), Some(scale)) => Some(DivisionRef {
                id: id.clone(),
                facility_division_name: name,
                universal_division_scale: scale,
                level: scale.level(),
            }),
            _ => None,
        };
        RosterSummary {
            id: r.id,
            name: r.name,
            description: r.description,
            team_id: r.team_id,
            team_name: r.team_name,
            season_id: r.season_id,
            season_name: r.season_name,
            season_start_date: r.season_start_date,
            season_is_active: r.season_is_active != 0,
            facility_id: r.facility_id,
            facility_name: r.facility_name,
            status: RosterStatus::parse(&r.status).unwrap_or(RosterStatus::Draft),
            division_mapping_id: r.division_mapping_id,
            division,
            max_members: r.max_members,
            member_count: r.member_count,
            wins: r.wins,
            losses: r.losses,
            ties: r.ties,
            points: r.points,
            created_at: r.created_at,
            updated_at: r.updated_at,
        }
    }
}

/// A player on a roster, with their season stats for it.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RosterPlayer {
    pub user_id: String,
    pub user: UserSummary,
    pub jersey_number: Option<i64>,
    pub position: Option<HockeyPosition>,
    pub commitment_level: RosterCommitment,
    pub captain: bool,
    pub alternate_captain: bool,
    pub goals: i64,
    pub assists: i64,
    pub penalty_minutes: i64,
    pub games_played: i64,
    /// goals + assists.
    pub points: i64,
    #[serde(flatten)]
    pub details: crate::db::rosters::players::StatDetails,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub joined_at: i64,
}

impl From<PlayerRow> for RosterPlayer {
    fn from(p: PlayerRow) -> Self {
        RosterPlayer {
            user_id: p.user_id,
            user: UserSummary::from(p.user),
            jersey_number: p.jersey_number,
            position: p.position.as_deref().and_then(|p| HockeyPosition::parse(p).ok()),
            commitment_level: RosterCommitment::parse(&p.commitment_level).unwrap_or(RosterCommitment::FullTime),
            captain: p.captain != 0,
            alternate_captain: p.alternate_captain != 0,
            goals: p.goals,
            assists: p.assists,
            penalty_minutes: p.penalty_minutes,
            games_played: p.games_played,
            points: p.goals + p.assists,
            details: p.details,
            joined_at: p.joined_at,
        }
    }
}

/// A join request as the public roster document shows it (no message).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RequestState {
    pub id: String,
    pub user_id: String,
    pub status: RequestStatus,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub updated_at: i64,
}

/// The public roster document: the REST page's body without `viewer`, and
/// the `data` of every `roster:ID` snapshot and update.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RosterDocument {
    #[serde(flatten)]
    pub roster: RosterSummary,
    /// The `roster:ID` topic's seq for this state (subscribe with `since`).
    pub seq: i64,
    pub players: Vec<RosterPlayer>,
    /// Newest first, at most 100; messages are only in the deciders' list.
    pub requests: Vec<RequestState>,
}

/// The roster document, read consistently: every write bumps the roster's
/// seq in its transaction, so a document whose seq did not move while its
/// parts were read is one committed state.
pub async fn document(db: &Db, id: &str) -> Result<RosterDocument, AppError> {
    let mut attempt = 0;
    loop {
        attempt += 1;
        let row = db::rosters::get(&db.pool, id).await?.ok_or_else(|| AppError::not_found("roster"))?;
        let players = db::rosters::players(&db.pool, id).await?;
        let requests = db::rosters::request_states(&db.pool, id, DOC_REQUESTS).await?;
        let seq_after = db::rosters::seq(&db.pool, id).await?.ok_or_else(|| AppError::not_found("roster"))?;
        if seq_after == row.updated_at || attempt >= DOC_READ_ATTEMPTS {
            return Ok(RosterDocument {
                seq: row.updated_at,
                roster: RosterSummary::from(row),
                players: players.into_iter().map(RosterPlayer::from).collect(),
                requests: requests
                    .into_iter()
                    .map(|(id, user_id, status, updated_at)| RequestState {
                        id,
                        user_id,
                        status: RequestStatus::parse(&status).unwrap_or(RequestStatus::Pending),
                        updated_at,
                    })
                    .collect(),
            });
        }
    }
}

pub struct RosterTopic {
    pub db: Db,
}

impl TopicSource for RosterTopic {
    fn authorize<'a>(&'a self, _viewer: Option<&'a str>, id: &'a str) -> BoxFuture<'a, Result<(), AppError>> {
        Box::pin(async move {
            match db::rosters::seq(&self.db.pool, id).await? {
                Some(_) => Ok(()),
                None => Err(AppError::not_found("roster")),
            }
        })
    }

    fn snapshot<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<(i64, serde_json::Value), AppError>> {
        Box::pin(async move {
            let doc = document(&self.db, id).await?;
            Ok((doc.seq, serde_json::to_value(&doc).map_err(AppError::internal)?))
        })
    }
}
