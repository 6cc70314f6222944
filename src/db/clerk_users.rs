//! Users as Clerk knows them: found or created by their Clerk id on first
//! sight, kept in step by Clerk's webhooks, anonymised when Clerk deletes
//! the account (a one-way tombstone keeps a deleted account from coming
//! back).

use super::{new_id, now_ms};
use sqlx::AnyConnection;

/// What an anonymised user's `clerk_id` becomes: a one-way mark of the Clerk
/// id. Late or re-sent Clerk events and sessions still in flight for a
/// deleted account are recognised by it, without keeping the id itself.
pub fn tombstone(clerk_id: &str) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(clerk_id.as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("deleted:{hex}")
}

/// A user found or created by [`ensure_by_clerk_id`].
pub struct Ensured {
    pub id: String,
    /// Created just now (the caller welcomes them: `crate::auth::ensure_user`).
    pub created: bool,
}

/// The user with this Clerk id, created (bare) on first sight, or `None`
/// when that account was deleted (it must not come back as a new, empty
/// user).
pub async fn ensure_by_clerk_id(conn: &mut AnyConnection, clerk_id: &str) -> Result<Option<Ensured>, sqlx::Error> {
    let find = "SELECT id, deleted_at FROM users WHERE clerk_id IN ($1, $2)";
    let tomb = tombstone(clerk_id);
    let existing: Option<(String, Option<i64>)> =
        sqlx::query_as(find).bind(clerk_id).bind(&tomb).fetch_optional(&mut *conn).await?;
    if let Some((id, deleted_at)) = existing {
        return Ok(deleted_at.is_none().then_some(Ensured { id, created: false }));
    }
    let now = now_ms();
    let new = new_id();
    let created = sqlx::query(
        "INSERT INTO users (id, clerk_id, onboarding_complete, can_collect_event_payments, created_at, updated_at) \
         VALUES ($1, $2, 0, 0, $3, $3) ON CONFLICT (clerk_id) DO NOTHING",
    )
    .bind(&new)
    .bind(clerk_id)
    .bind(now)
    .execute(&mut *conn)
    .await?
    .rows_affected()
        == 1;
    let (id, deleted_at): (String, Option<i64>) =
        sqlx::query_as(find).bind(clerk_id).bind(&tomb).fetch_one(&mut *conn).await?;
    Ok(deleted_at.is_none().then_some(Ensured { id, created }))
}

/// Clerk's view of a user, from a `user.created` / `user.updated` webhook.
#[derive(Debug)]
pub struct ClerkProfile {
    pub clerk_id: String,
    pub email: Option<String>,
    pub username: Option<String>,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub profile_image: Option<String>,
    /// Clerk's `updated_at` (epoch ms): older events than the last applied are ignored.
    pub updated_at: i64,
}

/// Updates user `id` (found or created for `p.clerk_id` by the caller:
/// `crate::auth::ensure_user`) from Clerk, unless a newer Clerk event was
/// already applied. Returns false when ignored as stale.
pub async fn update_from_clerk(conn: &mut AnyConnection, id: &str, p: &ClerkProfile) -> Result<bool, sqlx::Error> {
    // A username Clerk allows but another person here already has is not
    // taken over (and must not fail the webhook, or Svix retries forever):
    // the user keeps their current one.
    let username = match &p.username {
        Some(u) => {
            let taken: i64 =
                sqlx::query_scalar("SELECT COUNT(*) FROM users WHERE lower(username) = lower($1) AND id <> $2")
                    .bind(u)
                    .bind(id)
                    .fetch_one(&mut *conn)
                    .await?;
            (taken == 0).then(|| u.clone())
        }
        None => None,
    };
    let now = now_ms();
    let done = sqlx::query(
        "UPDATE users SET email = $2, username = COALESCE($3, username), first_name = $4, last_name = $5, \
           profile_image = $6, clerk_synced_at = $7, updated_at = $8 \
         WHERE id = $1 AND deleted_at IS NULL AND (clerk_synced_at IS NULL OR clerk_synced_at <= $7)",
    )
    .bind(id)
    .bind(&p.email)
    .bind(&username)
    .bind(&p.first_name)
    .bind(&p.last_name)
    .bind(&p.profile_image)
    .bind(p.updated_at)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// A user deleted in Clerk is anonymised, not removed: the personal data and
/// everything social (follows, positions, statuses, posts, feed, pending
/// requests, upcoming RSVPs' identity stays as a "deleted user") goes, while
/// rows other people rely on — roster stats, game logs, RSVP history,
/// ownership of facilities and teams — keep pointing at the anonymous row.
/// The row's `clerk_id` becomes the [`tombstone`], so the account cannot
/// come back. A Clerk id never seen before gets a bare tombstone row, for
/// the same reason (Svix does not deliver in order). False when nothing
/// changed.
pub async fn anonymise(conn: &mut AnyConnection, clerk_id: &str) -> Result<bool, sqlx::Error> {
    let now = now_ms();
    let tomb = tombstone(clerk_id);
    let Some(id) = sqlx::query_scalar::<_, String>("SELECT id FROM users WHERE clerk_id = $1 AND deleted_at IS NULL")
        .bind(clerk_id)
        .fetch_optional(&mut *conn)
        .await?
    else {
        let r = sqlx::query(
            "INSERT INTO users (id, clerk_id, onboarding_complete, can_collect_event_payments, deleted_at, created_at, updated_at) \
             VALUES ($1, $2, 0, 0, $3, $3, $3) ON CONFLICT (clerk_id) DO NOTHING",
        )
        .bind(new_id())
        .bind(&tomb)
        .bind(now)
        .execute(&mut *conn)
        .await?;
        return Ok(r.rows_affected() > 0);
    };
    for sql in [
        "DELETE FROM follows WHERE follower_id = $1 OR following_id = $1",
        "DELETE FROM facility_follows WHERE user_id = $1",
        "DELETE FROM team_follows WHERE user_id = $1",
        "DELETE FROM player_positions WHERE user_id = $1",
        "DELETE FROM user_profile_types WHERE user_id = $1",
        "DELETE FROM statuses WHERE user_id = $1",
        "DELETE FROM posts WHERE author_id = $1",
        "DELETE FROM feed_items WHERE user_id = $1",
        "UPDATE feed_items SET actor_id = NULL WHERE actor_id = $1",
        "DELETE FROM roster_join_requests WHERE user_id = $1 AND status = 'PENDING'",
    ] {
        sqlx::query(sql).bind(&id).execute(&mut *conn).await?;
    }
    sqlx::query(
        "UPDATE users SET clerk_id = $2, email = NULL, username = NULL, first_name = NULL, last_name = NULL, \
           profile_image = NULL, bio = NULL, can_collect_event_payments = 0, deleted_at = $3, updated_at = $3 \
         WHERE id = $1",
    )
    .bind(&id)
    .bind(tomb)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    Ok(true)
}
