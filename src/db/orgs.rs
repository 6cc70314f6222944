//! Facilities and teams as "orgs": both have a name, editable text fields,
//! a creator and an owner, manager links and followers, so what their tables
//! have in common is queried once here, picked by [`Org`]. What differs (each
//! kind's own columns) stays in `db::facilities` and `db::teams`.

use super::search::{contains, contains_pattern};
use super::{dynamic, flag, new_id, now_ms, placeholder_list};
use sqlx::any::AnyRow;
use sqlx::{Any, AnyConnection, Executor, FromRow};
use std::ops::Deref;

/// A facility or a team.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Org {
    Facility,
    Team,
}

impl Org {
    /// Its table, which is also its name in API paths (`/facilities/{id}`).
    pub fn table(self) -> &'static str {
        match self {
            Org::Facility => "facilities",
            Org::Team => "teams",
        }
    }

    /// What one is called in messages ("facility not found").
    pub fn noun(self) -> &'static str {
        match self {
            Org::Facility => "facility",
            Org::Team => "team",
        }
    }

    /// `(table, column)` of its manager links; compile-time names only.
    pub fn manager_links(self) -> (&'static str, &'static str) {
        match self {
            Org::Facility => ("facility_managers", "facility_id"),
            Org::Team => ("team_managers", "team_id"),
        }
    }

    /// `(table, column)` of its follows (the follower is `user_id`).
    pub fn follows(self) -> (&'static str, &'static str) {
        match self {
            Org::Facility => ("facility_follows", "facility_id"),
            Org::Team => ("team_follows", "team_id"),
        }
    }
}

/// A kind of org as stored: its own columns, read into `Self`.
pub trait OrgColumns: for<'r> FromRow<'r, AnyRow> + Send + Unpin {
    const ORG: Org;
    /// Its own columns for a SELECT from its table aliased `o`.
    const COLUMNS: &'static str;
}

/// A facility or team as stored: what every org has, around `K`, the
/// columns of its kind. It derefs to `K`, so `row.timezone` reads like a
/// field of a flat row.
#[derive(Debug, Clone, FromRow)]
pub struct OrgRow<K> {
    pub id: String,
    pub name: String,
    #[sqlx(flatten)]
    pub own: K,
    pub creator_id: String,
    pub owner_id: String,
    pub created_at: i64,
    pub updated_at: i64,
    pub follower_count: i64,
}

impl<K> Deref for OrgRow<K> {
    type Target = K;

    fn deref(&self) -> &K {
        &self.own
    }
}

/// One facility or team with its follower count.
pub async fn get<'e, E: Executor<'e, Database = Any>, K: OrgColumns>(
    ex: E,
    id: &str,
) -> Result<Option<OrgRow<K>>, sqlx::Error> {
    let (follows, column) = K::ORG.follows();
    let sql = format!(
        "SELECT o.id, o.name, {}, o.creator_id, o.owner_id, o.created_at, o.updated_at, \
           (SELECT COUNT(*) FROM {follows} x WHERE x.{column} = o.id) AS follower_count \
         FROM {} o WHERE o.id = $1",
        K::COLUMNS,
        K::ORG.table()
    );
    sqlx::query_as(dynamic(sql)).bind(id).fetch_optional(ex).await
}

/// The fields an org is created or replaced with: every one a text column,
/// so one INSERT and one UPDATE serve both kinds.
pub trait OrgFields {
    const ORG: Org;
    /// `(column, value)` for every editable field; column names are
    /// compile-time constants, values travel as bound parameters.
    fn columns(&self) -> Vec<(&'static str, Option<String>)>;
}

/// A parsed text field as the column value it is stored as.
pub fn text(value: Option<&impl AsRef<str>>) -> Option<String> {
    value.map(|v| v.as_ref().to_string())
}

/// Inserts an org created by `creator_id` (who also owns it); its new id.
pub async fn insert<'e, E: Executor<'e, Database = Any>, F: OrgFields>(
    ex: E,
    creator_id: &str,
    fields: &F,
) -> Result<String, sqlx::Error> {
    let columns = fields.columns();
    let names: Vec<&str> = columns.iter().map(|(c, _)| *c).collect();
    let sql = format!(
        "INSERT INTO {} (id, creator_id, owner_id, created_at, updated_at, {}) VALUES ($1, $2, $2, $3, $3, {})",
        F::ORG.table(),
        names.join(", "),
        placeholder_list(4, columns.len())
    );
    let id = new_id();
    let mut query = sqlx::query(dynamic(sql)).bind(id.clone()).bind(creator_id.to_string()).bind(now_ms());
    for (_, value) in columns {
        query = query.bind(value);
    }
    query.execute(ex).await?;
    Ok(id)
}

/// Writes every editable field (after [`touch`], with the merged values).
pub async fn replace<F: OrgFields>(conn: &mut AnyConnection, id: &str, fields: &F) -> Result<(), sqlx::Error> {
    let columns = fields.columns();
    let sets: Vec<String> = columns.iter().enumerate().map(|(i, (c, _))| format!("{c} = ${}", i + 2)).collect();
    let sql = format!("UPDATE {} SET {} WHERE id = $1", F::ORG.table(), sets.join(", "));
    let mut query = sqlx::query(dynamic(sql)).bind(id.to_string());
    for (_, value) in columns {
        query = query.bind(value);
    }
    query.execute(&mut *conn).await?;
    Ok(())
}

pub async fn exists<'e, E: Executor<'e, Database = Any>>(ex: E, org: Org, id: &str) -> Result<bool, sqlx::Error> {
    let sql = format!("SELECT COUNT(*) FROM {} WHERE id = $1", org.table());
    let n: i64 = sqlx::query_scalar(dynamic(sql)).bind(id).fetch_one(ex).await?;
    Ok(n > 0)
}

/// Locks the org for this transaction (first statement) and advances
/// `updated_at` to `max(updated_at + 1, now)`: a team's is the `team:ID`
/// topic's seq, so it must grow even for two edits in one millisecond. None
/// when it does not exist.
pub async fn touch(conn: &mut AnyConnection, org: Org, id: &str) -> Result<Option<i64>, sqlx::Error> {
    let sql = format!(
        "UPDATE {} SET updated_at = CASE WHEN updated_at + 1 > $2 THEN updated_at + 1 ELSE $2 END \
         WHERE id = $1 RETURNING updated_at",
        org.table()
    );
    sqlx::query_scalar(dynamic(sql)).bind(id).bind(now_ms()).fetch_optional(&mut *conn).await
}

/// Deletes an org; what goes with it is the schema's ON DELETE rules (a
/// refusal by one of them answers 409). False when there was none.
pub async fn delete<'e, E: Executor<'e, Database = Any>>(ex: E, org: Org, id: &str) -> Result<bool, sqlx::Error> {
    let sql = format!("DELETE FROM {} WHERE id = $1", org.table());
    let done = sqlx::query(dynamic(sql)).bind(id).execute(ex).await?;
    Ok(done.rows_affected() > 0)
}

/// Which orgs a page by name lists.
#[derive(Clone, Copy, Debug)]
pub enum Listing<'a> {
    /// Facilities or teams whose name contains the term (case-insensitive;
    /// empty lists all).
    Named(Org, &'a str),
    /// The teams based at a facility.
    TeamsAt(&'a str),
    /// The facilities or teams a person owns or manages.
    StaffedBy(Org, &'a str),
}

/// One org of a page by name: its id and its keyset key `lower(name)`, as
/// the database lowers it (the cursor must compare the way the query does).
#[derive(Debug, Clone, FromRow)]
pub struct NameKey {
    pub id: String,
    pub name_key: String,
}

/// Alphabetical, keyset-paged on `(lower(name), id)`; one row more than
/// `limit` tells whether there is a next page.
pub async fn by_name<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    listing: Listing<'_>,
    after: Option<(&str, &str)>,
    limit: i64,
) -> Result<Vec<NameKey>, sqlx::Error> {
    let (table, filter, value) = match listing {
        Listing::Named(org, term) => (org.table(), contains("o.name", "$1"), contains_pattern(term)),
        Listing::TeamsAt(facility_id) => (Org::Team.table(), "o.facility_id = $1".to_string(), facility_id.to_string()),
        Listing::StaffedBy(org, user_id) => {
            let (links, column) = org.manager_links();
            let staffed = format!(
                "(o.owner_id = $1 OR EXISTS (SELECT 1 FROM {links} m WHERE m.{column} = o.id AND m.user_id = $1))"
            );
            (org.table(), staffed, user_id.to_string())
        }
    };
    let sql = format!(
        "SELECT o.id, lower(o.name) AS name_key FROM {table} o WHERE {filter} \
           AND ($2 = 0 OR lower(o.name) > $3 OR (lower(o.name) = $3 AND o.id > $4)) \
         ORDER BY lower(o.name), o.id LIMIT $5"
    );
    sqlx::query_as(dynamic(sql))
        .bind(value)
        .bind(flag(after.is_some()))
        .bind(after.map(|a| a.0.to_string()).unwrap_or_default())
        .bind(after.map(|a| a.1.to_string()).unwrap_or_default())
        .bind(limit + 1)
        .fetch_all(ex)
        .await
}
