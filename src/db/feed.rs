//! Feed items, fanned out on write: one `feed_items` row per recipient,
//! written in the caller's transaction together with the fact it reports.

use super::{new_id, now_ms};
use crate::domain::FeedItemType;
use sqlx::AnyConnection;

/// Who is told: followers of a facility, a team or a user.
#[derive(Clone, Copy, Debug)]
pub enum Audience<'a> {
    FacilityFollowers(&'a str),
    TeamFollowers(&'a str),
    UserFollowers(&'a str),
}

/// What the item is about and who did it.
#[derive(Clone, Copy, Debug)]
pub struct Fact<'a> {
    pub kind: FeedItemType,
    pub actor_id: &'a str,
    /// e.g. `SEASON`, `ROSTER`.
    pub resource_type: &'static str,
    pub resource_id: &'a str,
}

/// Writes one item per distinct recipient of the audiences, skipping the
/// actor (nobody needs to be told what they just did). Returns how many.
/// `aggregatedData` starts as `{"actors":[actor],"count":1}`: the shape the
/// feed's aggregation extends when later facts about the same resource arrive.
pub async fn fan_out(
    conn: &mut AnyConnection,
    fact: Fact<'_>,
    audiences: &[Audience<'_>],
) -> Result<usize, sqlx::Error> {
    let mut recipients: Vec<String> = Vec::new();
    for audience in audiences {
        let (sql, id) = match *audience {
            Audience::FacilityFollowers(id) => ("SELECT user_id FROM facility_follows WHERE facility_id = $1", id),
            Audience::TeamFollowers(id) => ("SELECT user_id FROM team_follows WHERE team_id = $1", id),
            Audience::UserFollowers(id) => ("SELECT follower_id FROM follows WHERE following_id = $1", id),
        };
        let ids: Vec<String> = sqlx::query_scalar(sql).bind(id).fetch_all(&mut *conn).await?;
        recipients.extend(ids);
    }
    recipients.sort();
    recipients.dedup();
    recipients.retain(|r| r != fact.actor_id);
    let now = now_ms();
    let aggregated = serde_json::json!({"actors": [fact.actor_id], "count": 1}).to_string();
    for user_id in &recipients {
        sqlx::query(
            "INSERT INTO feed_items (id, type, user_id, actor_id, resource_id, resource_type, aggregated_data, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)",
        )
        .bind(new_id())
        .bind(fact.kind.as_str())
        .bind(user_id)
        .bind(fact.actor_id)
        .bind(fact.resource_id)
        .bind(fact.resource_type)
        .bind(&aggregated)
        .bind(now)
        .execute(&mut *conn)
        .await?;
    }
    Ok(recipients.len())
}
