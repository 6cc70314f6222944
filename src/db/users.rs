//! Users and their profile types (their positions: `db::positions`; their
//! Clerk identity: `db::clerk_users`).

use super::{Cursor, flag, now_ms, search};
use sqlx::{Any, AnyConnection, Executor, FromRow};

#[derive(Debug, Clone, FromRow)]
pub struct UserRow {
    pub id: String,
    pub clerk_id: String,
    pub email: Option<String>,
    pub username: Option<String>,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub profile_image: Option<String>,
    pub bio: Option<String>,
    pub onboarding_complete: i64,
    pub can_collect_event_payments: i64,
    pub legal_accepted_at: Option<i64>,
    pub legal_version: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
    pub deleted_at: Option<i64>,
    pub clerk_synced_at: Option<i64>,
    /// Filled by the queries that list people: follower and following counts.
    #[sqlx(default)]
    pub follower_count: i64,
    #[sqlx(default)]
    pub following_count: i64,
}

const COLUMNS: &str = "u.id, u.clerk_id, u.email, u.username, u.first_name, u.last_name, u.profile_image, u.bio, \
    u.onboarding_complete, u.can_collect_event_payments, u.legal_accepted_at, u.legal_version, \
    u.created_at, u.updated_at, u.deleted_at, u.clerk_synced_at, \
    (SELECT COUNT(*) FROM follows f WHERE f.following_id = u.id) AS follower_count, \
    (SELECT COUNT(*) FROM follows f WHERE f.follower_id = u.id) AS following_count";

fn select(where_clause: &str) -> String {
    format!("SELECT {COLUMNS} FROM users u {where_clause}")
}

pub async fn get<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<Option<UserRow>, sqlx::Error> {
    sqlx::query_as(super::dynamic(select("WHERE u.id = $1"))).bind(id).fetch_optional(ex).await
}

pub async fn get_by_clerk_id<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    clerk_id: &str,
) -> Result<Option<UserRow>, sqlx::Error> {
    sqlx::query_as(super::dynamic(select("WHERE u.clerk_id = $1"))).bind(clerk_id).fetch_optional(ex).await
}

pub async fn exists<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<bool, sqlx::Error> {
    let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM users WHERE id = $1 AND deleted_at IS NULL")
        .bind(id)
        .fetch_one(ex)
        .await?;
    Ok(n > 0)
}

/// Several users' profile types at once, as `(user_id, type)` pairs.
pub async fn profile_types<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    user_ids: &[String],
) -> Result<Vec<(String, String)>, sqlx::Error> {
    if user_ids.is_empty() {
        return Ok(Vec::new());
    }
    let placeholders: Vec<String> = (1..=user_ids.len()).map(|i| format!("${i}")).collect();
    let sql = format!(
        "SELECT user_id, profile_type FROM user_profile_types WHERE user_id IN ({}) ORDER BY profile_type",
        placeholders.join(", ")
    );
    let mut q = sqlx::query_as(super::dynamic(sql));
    for id in user_ids {
        q = q.bind(id);
    }
    q.fetch_all(ex).await
}

pub async fn set_profile_types(conn: &mut AnyConnection, user_id: &str, types: &[&str]) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM user_profile_types WHERE user_id = $1").bind(user_id).execute(&mut *conn).await?;
    for t in types {
        sqlx::query("INSERT INTO user_profile_types (user_id, profile_type) VALUES ($1, $2)")
            .bind(user_id)
            .bind(*t)
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}

/// The editable profile fields; `None` leaves a field as it is, and
/// `Some(None)` clears an optional one.
#[derive(Debug, Default)]
pub struct ProfilePatch {
    pub username: Option<String>,
    pub first_name: Option<Option<String>>,
    pub last_name: Option<Option<String>>,
    pub bio: Option<Option<String>>,
    pub profile_image: Option<Option<String>>,
    pub onboarding_complete: Option<bool>,
    pub can_collect_event_payments: Option<bool>,
    pub email: Option<Option<String>>,
}

/// Turns a person's payment collection on or off.
pub async fn set_payment_collection<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    id: &str,
    enabled: bool,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE users SET can_collect_event_payments = $2, updated_at = $3 WHERE id = $1")
        .bind(id)
        .bind(flag(enabled))
        .bind(now_ms())
        .execute(ex)
        .await?;
    Ok(())
}

pub async fn update_profile(conn: &mut AnyConnection, id: &str, p: &ProfilePatch) -> Result<(), sqlx::Error> {
    // COALESCE-style patching keeps one statement for any subset of fields:
    // each optional field comes with a "set it" flag.
    sqlx::query(
        "UPDATE users SET \
           username = CASE WHEN $2 = 1 THEN $3 ELSE username END, \
           first_name = CASE WHEN $4 = 1 THEN $5 ELSE first_name END, \
           last_name = CASE WHEN $6 = 1 THEN $7 ELSE last_name END, \
           bio = CASE WHEN $8 = 1 THEN $9 ELSE bio END, \
           profile_image = CASE WHEN $10 = 1 THEN $11 ELSE profile_image END, \
           onboarding_complete = COALESCE($12, onboarding_complete), \
           can_collect_event_payments = COALESCE($13, can_collect_event_payments), \
           email = CASE WHEN $14 = 1 THEN $15 ELSE email END, \
           updated_at = $16 \
         WHERE id = $1",
    )
    .bind(id)
    .bind(flag(p.username.is_some()))
    .bind(p.username.clone())
    .bind(flag(p.first_name.is_some()))
    .bind(p.first_name.clone().flatten())
    .bind(flag(p.last_name.is_some()))
    .bind(p.last_name.clone().flatten())
    .bind(flag(p.bio.is_some()))
    .bind(p.bio.clone().flatten())
    .bind(flag(p.profile_image.is_some()))
    .bind(p.profile_image.clone().flatten())
    .bind(p.onboarding_complete.map(flag))
    .bind(p.can_collect_event_payments.map(flag))
    .bind(flag(p.email.is_some()))
    .bind(p.email.clone().flatten())
    .bind(now_ms())
    .execute(&mut *conn)
    .await?;
    Ok(())
}

pub async fn accept_legal<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    id: &str,
    version: &str,
) -> Result<(), sqlx::Error> {
    let now = now_ms();
    sqlx::query("UPDATE users SET legal_accepted_at = $2, legal_version = $3, updated_at = $2 WHERE id = $1")
        .bind(id)
        .bind(now)
        .bind(version)
        .execute(ex)
        .await?;
    Ok(())
}

/// What a search of people asks for (`GET /users`, docs/walkthrough.md):
/// a term, and optionally a position and a skill level the person plays.
#[derive(Debug, Default, Clone)]
pub struct PeopleFilter<'a> {
    /// Contained in the username or the full name; empty is anyone.
    pub term: &'a str,
    /// The term was written `@name`: match usernames only.
    pub username_only: bool,
    pub position: Option<&'static str>,
    pub skill_level: Option<&'static str>,
}

/// People matching `filter` (case-insensitive), oldest account first,
/// keyset-paged on `(created_at, id)`. A position and a skill level given
/// together must be one of the person's positions at that level.
pub async fn search<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    filter: &PeopleFilter<'_>,
    after: Option<&Cursor>,
    limit: i64,
) -> Result<Vec<UserRow>, sqlx::Error> {
    let name = if filter.username_only {
        "0 = 1".to_string()
    } else {
        search::contains("COALESCE(u.first_name, '') || ' ' || COALESCE(u.last_name, '')", "$1")
    };
    let page_start = crate::db::keyset("u.created_at", "u.id", crate::db::Order::OldestFirst, 2);
    let sql = select(&format!(
        "WHERE u.deleted_at IS NULL AND u.username IS NOT NULL AND ({} OR {name}) \
           AND {page_start} \
           AND (($6 = '' AND $7 = '') OR EXISTS (SELECT 1 FROM player_positions pp WHERE pp.user_id = u.id \
                AND ($6 = '' OR pp.position = $6) AND ($7 = '' OR pp.skill_level = $7))) \
         ORDER BY u.created_at, u.id LIMIT $5",
        search::contains("u.username", "$1"),
    ));
    sqlx::query_as(super::dynamic(sql))
        .bind(search::contains_pattern(filter.term))
        .bind(flag(after.is_some()))
        .bind(after.map(|c| c.at).unwrap_or(0))
        .bind(after.map(|c| c.id.clone()).unwrap_or_default())
        .bind(limit + 1)
        .bind(filter.position.unwrap_or(""))
        .bind(filter.skill_level.unwrap_or(""))
        .fetch_all(ex)
        .await
}

/// The few public fields shown wherever a person appears in a list (managers,
/// roster players, join requests).
#[derive(Debug, Clone, FromRow)]
pub struct UserSummaryRow {
    #[sqlx(rename = "u_id")]
    pub id: String,
    #[sqlx(rename = "u_username")]
    pub username: Option<String>,
    #[sqlx(rename = "u_first_name")]
    pub first_name: Option<String>,
    #[sqlx(rename = "u_last_name")]
    pub last_name: Option<String>,
    #[sqlx(rename = "u_profile_image")]
    pub profile_image: Option<String>,
}

/// The columns of [`UserSummaryRow`] for a query that joins `users u`.
pub const SUMMARY_COLUMNS: &str = "u.id AS u_id, u.username AS u_username, u.first_name AS u_first_name, u.last_name AS u_last_name, u.profile_image AS u_profile_image";

/// A person's name as lists show it (`DISPLAY_NAME`), or `None` when there
/// is no such person.
pub async fn display_name<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    user_id: &str,
) -> Result<Option<String>, sqlx::Error> {
    let sql = format!("SELECT {} FROM users u WHERE u.id = $1", super::events::DISPLAY_NAME);
    sqlx::query_scalar(super::dynamic(sql)).bind(user_id).fetch_optional(ex).await
}

impl From<UserSummaryRow> for crate::summaries::UserSummary {
    fn from(r: UserSummaryRow) -> Self {
        crate::summaries::UserSummary {
            id: r.id,
            username: r.username,
            first_name: r.first_name,
            last_name: r.last_name,
            profile_image: r.profile_image,
        }
    }
}
