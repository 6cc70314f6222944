//! `team:ID` — public: the team's page data. Seq is the team's `updated_at`
//! (milliseconds), bumped on every change that is published.

use crate::db::{self, Db};
use crate::error::AppError;
use crate::realtime::topics::TopicSource;
use futures_util::future::BoxFuture;

pub struct TeamTopic {
    pub db: Db,
}

impl TopicSource for TeamTopic {
    fn authorize<'a>(&'a self, _viewer: Option<&'a str>, id: &'a str) -> BoxFuture<'a, Result<(), AppError>> {
        Box::pin(async move {
            if db::teams::exists(&self.db.pool, id).await? { Ok(()) } else { Err(AppError::not_found("team")) }
        })
    }

    fn snapshot<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<(i64, serde_json::Value), AppError>> {
        Box::pin(async move {
            let row = db::teams::get(&self.db.pool, id).await?.ok_or_else(|| AppError::not_found("team"))?;
            let data = serde_json::json!({
                "id": row.id,
                "name": row.name,
                "logoUrl": row.logo_url,
                "description": row.description,
                "facilityId": row.facility_id,
                "ownerId": row.owner_id,
                "followerCount": row.follower_count,
                "updatedAt": crate::time::to_rfc3339(row.updated_at),
            });
            Ok((row.updated_at, data))
        })
    }
}
