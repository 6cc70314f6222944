//! `follows:ID` — public: how many people follow a user, facility or team
//! (and, for a user, how many they follow), so every open profile, rink
//! and team page counts along live (docs/walkthrough.md › Live). ID is the
//! user's, facility's or team's id (ids are unique across them). Seq is the
//! realtime clock (`realtime::seq`): every push is the whole,
//! tiny document, newest wins.

use crate::db::follows::{Target, follower_count};
use crate::db::orgs::Org;
use crate::db::{self, Db};
use crate::error::AppError;
use crate::realtime::topics::TopicSource;
use futures_util::future::BoxFuture;
use serde::Serialize;

/// The document.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FollowCounts {
    pub id: String,
    /// `USER`, `FACILITY` or `TEAM`.
    pub kind: &'static str,
    pub follower_count: i64,
    /// People a user follows; null for a facility or team.
    pub following_count: Option<i64>,
}

/// What the id names, or `None` when nothing.
async fn target_of(db: &Db, id: &str) -> Result<Option<Target>, AppError> {
    if db::users::exists(&db.pool, id).await? {
        return Ok(Some(Target::User));
    }
    for org in [Org::Team, Org::Facility] {
        if db::orgs::exists(&db.pool, org, id).await? {
            return Ok(Some(Target::Org(org)));
        }
    }
    Ok(None)
}

pub async fn counts(db: &Db, id: &str) -> Result<Option<FollowCounts>, AppError> {
    let Some(target) = target_of(db, id).await? else { return Ok(None) };
    let follower_count = follower_count(&db.pool, target, id).await?;
    let (kind, following_count) = match target {
        Target::User => ("USER", Some(db::follows::following_total(&db.pool, id).await?)),
        Target::Org(Org::Team) => ("TEAM", None),
        Target::Org(Org::Facility) => ("FACILITY", None),
    };
    Ok(Some(FollowCounts { id: id.to_string(), kind, follower_count, following_count }))
}

pub struct FollowsTopic {
    pub db: Db,
}

impl TopicSource for FollowsTopic {
    fn authorize<'a>(&'a self, _viewer: Option<&'a str>, id: &'a str) -> BoxFuture<'a, Result<(), AppError>> {
        Box::pin(async move {
            match target_of(&self.db, id).await? {
                Some(_) => Ok(()),
                None => Err(AppError::not_found("user, facility or team")),
            }
        })
    }

    fn snapshot<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<(i64, serde_json::Value), AppError>> {
        Box::pin(async move {
            let seq = crate::realtime::seq::next();
            let doc = counts(&self.db, id).await?.ok_or_else(|| AppError::not_found("user, facility or team"))?;
            Ok((seq, serde_json::to_value(doc).map_err(AppError::internal)?))
        })
    }
}
