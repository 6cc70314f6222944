//! Who runs a facility or a team: its owner (`owner_id`) and its manager
//! links (`facility_managers`, `team_managers`). Facilities and teams work the
//! same way, so one set of queries serves both, picked by [`Org`].

use super::orgs::Org;
use super::users::{SUMMARY_COLUMNS, UserSummaryRow};
use super::{new_id, now_ms};
use sqlx::{Any, AnyConnection, Executor, FromRow};

/// A manager and when they became one.
#[derive(Debug, Clone, FromRow)]
pub struct ManagerRow {
    pub since: i64,
    #[sqlx(flatten)]
    pub user: UserSummaryRow,
}

/// Managers, earliest first.
pub async fn managers<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    org: Org,
    id: &str,
) -> Result<Vec<ManagerRow>, sqlx::Error> {
    let (links, col) = org.manager_links();
    let sql = format!(
        "SELECT m.created_at AS since, {SUMMARY_COLUMNS} FROM {links} m JOIN users u ON u.id = m.user_id \
         WHERE m.{col} = $1 ORDER BY m.created_at, m.id"
    );
    sqlx::query_as(super::dynamic(sql)).bind(id).fetch_all(ex).await
}

/// Adds a manager link (idempotent).
pub async fn add_manager<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    org: Org,
    id: &str,
    user_id: &str,
) -> Result<(), sqlx::Error> {
    let (links, col) = org.manager_links();
    let sql = format!(
        "INSERT INTO {links} (id, {col}, user_id, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT ({col}, user_id) DO NOTHING"
    );
    sqlx::query(super::dynamic(sql)).bind(new_id()).bind(id).bind(user_id).bind(now_ms()).execute(ex).await?;
    Ok(())
}

/// Removes a manager link (idempotent); true when one was removed.
pub async fn remove_manager<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    org: Org,
    id: &str,
    user_id: &str,
) -> Result<bool, sqlx::Error> {
    let (links, col) = org.manager_links();
    let sql = format!("DELETE FROM {links} WHERE {col} = $1 AND user_id = $2");
    let done = sqlx::query(super::dynamic(sql)).bind(id).bind(user_id).execute(ex).await?;
    Ok(done.rows_affected() > 0)
}

/// The owner's id, or None when the facility / team does not exist.
pub async fn owner_of<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    org: Org,
    id: &str,
) -> Result<Option<String>, sqlx::Error> {
    let table = org.table();
    let sql = format!("SELECT owner_id FROM {table} WHERE id = $1");
    sqlx::query_scalar(super::dynamic(sql)).bind(id).fetch_optional(ex).await
}

/// Hands ownership to `new_owner` if `old_owner` still owns it (false
/// otherwise, changing nothing). The new owner's manager link goes (owning
/// includes managing); the old owner stays on as a manager so nobody loses
/// access by surprise — the new owner may remove them.
pub async fn transfer(
    conn: &mut AnyConnection,
    org: Org,
    id: &str,
    old_owner: &str,
    new_owner: &str,
) -> Result<bool, sqlx::Error> {
    let table = org.table();
    let sql = format!("UPDATE {table} SET owner_id = $3, updated_at = $4 WHERE id = $1 AND owner_id = $2");
    let done = sqlx::query(super::dynamic(sql))
        .bind(id)
        .bind(old_owner)
        .bind(new_owner)
        .bind(now_ms())
        .execute(&mut *conn)
        .await?;
    if done.rows_affected() == 0 {
        return Ok(false);
    }
    remove_manager(&mut *conn, org, id, new_owner).await?;
    add_manager(&mut *conn, org, id, old_owner).await?;
    Ok(true)
}
