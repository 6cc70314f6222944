//! The ice bill's facts (docs/sides-and-bill.md › The ice bill): what the
//! ice cost (an event's own, or a series' total), when the organiser billed
//! the players, and who has a stake in an event's bill with what they
//! paid. Shares are not stored: `pickup::bill` works them out on read.

use super::events::DISPLAY_NAME;
use super::{dynamic, flag, new_id, now_ms};
use sqlx::{Any, Executor, FromRow};

/// An `ice_bills` row: exactly one of `event_id` and `series_id` is set.
#[derive(Debug, Clone, FromRow)]
pub struct IceBillRow {
    pub event_id: Option<String>,
    pub series_id: Option<String>,
    pub cost_cents: i64,
    pub currency: String,
    pub goalie_policy: String,
    pub organiser_pays: i64,
    pub updated_at: i64,
}

const COLUMNS: &str = "event_id, series_id, cost_cents, currency, goalie_policy, organiser_pays, updated_at";

/// What the organiser set, to store.
#[derive(Debug, Clone)]
pub struct Terms<'a> {
    pub cost_cents: i64,
    pub currency: &'a str,
    pub goalie_policy: &'a str,
    pub organiser_pays: bool,
}

/// Whose bill a row is.
#[derive(Debug, Clone, Copy)]
pub enum Owner<'a> {
    Event(&'a str),
    Series(&'a str),
}

impl Owner<'_> {
    fn column(self) -> &'static str {
        match self {
            Owner::Event(_) => "event_id",
            Owner::Series(_) => "series_id",
        }
    }

    fn id(&self) -> &str {
        match self {
            Owner::Event(id) | Owner::Series(id) => id,
        }
    }
}

pub async fn get<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    owner: Owner<'_>,
) -> Result<Option<IceBillRow>, sqlx::Error> {
    sqlx::query_as(dynamic(format!("SELECT {COLUMNS} FROM ice_bills WHERE {} = $1", owner.column())))
        .bind(owner.id().to_string())
        .fetch_optional(ex)
        .await
}

/// Sets (or replaces) the terms of an event's or a series' bill.
pub async fn put<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    owner: Owner<'_>,
    terms: &Terms<'_>,
    by: &str,
) -> Result<(), sqlx::Error> {
    let column = owner.column();
    sqlx::query(dynamic(format!(
        "INSERT INTO ice_bills (id, {column}, cost_cents, currency, goalie_policy, organiser_pays, set_by_id, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) \
         ON CONFLICT ({column}) DO UPDATE SET cost_cents = $3, currency = $4, goalie_policy = $5, organiser_pays = $6, \
           set_by_id = $7, updated_at = $8"
    )))
    .bind(new_id())
    .bind(owner.id().to_string())
    .bind(terms.cost_cents)
    .bind(terms.currency.to_string())
    .bind(terms.goalie_policy.to_string())
    .bind(flag(terms.organiser_pays))
    .bind(by.to_string())
    .bind(now_ms())
    .execute(ex)
    .await?;
    Ok(())
}

/// When the organiser billed the players, if they have.
pub async fn closed_at<'e, E: Executor<'e, Database = Any>>(ex: E, event_id: &str) -> Result<Option<i64>, sqlx::Error> {
    let row: Option<(i64,)> = sqlx::query_as("SELECT closed_at FROM event_bill_closes WHERE event_id = $1")
        .bind(event_id)
        .fetch_optional(ex)
        .await?;
    Ok(row.map(|(at,)| at))
}

/// Bills the players of an event (once: billing again keeps the first time).
pub async fn close<'e, E: Executor<'e, Database = Any>>(ex: E, event_id: &str, by: &str) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO event_bill_closes (event_id, closed_at, closed_by_id) VALUES ($1, $2, $3) \
         ON CONFLICT (event_id) DO NOTHING",
    )
    .bind(event_id)
    .bind(now_ms())
    .bind(by)
    .execute(ex)
    .await?;
    Ok(())
}

/// Someone with a stake in an event's bill: in now, or paid once.
#[derive(Debug, Clone, FromRow)]
pub struct StakeRow {
    pub user_id: String,
    pub display_name: String,
    pub position: String,
    /// 1 when ATTENDING now.
    pub attending: i64,
    pub is_paid: i64,
    /// What they paid, recorded when marked paid (NULL for payments marked
    /// before bills existed: they count as paid in full).
    pub paid_cents: Option<i64>,
    pub marked_paid_at: Option<i64>,
}

/// Everyone in, and everyone who paid, by user id (the bill's stable
/// order for its extra cents).
pub async fn stakes<'e, E: Executor<'e, Database = Any>>(ex: E, event_id: &str) -> Result<Vec<StakeRow>, sqlx::Error> {
    sqlx::query_as(dynamic(format!(
        "SELECT r.user_id, {DISPLAY_NAME} AS display_name, r.position, \
                CASE WHEN r.status = 'ATTENDING' THEN 1 ELSE 0 END AS attending, \
                COALESCE(p.is_paid, 0) AS is_paid, p.paid_cents, p.marked_paid_at \
         FROM event_rsvps r JOIN users u ON u.id = r.user_id \
         LEFT JOIN event_payments p ON p.event_id = r.event_id AND p.user_id = r.user_id \
         WHERE r.event_id = $1 AND (r.status = 'ATTENDING' OR p.is_paid = 1) \
         ORDER BY r.user_id"
    )))
    .bind(event_id)
    .fetch_all(ex)
    .await
}

/// One week of a series, for splitting its total.
#[derive(Debug, Clone, FromRow)]
pub struct WeekRow {
    pub id: String,
    pub start_date: i64,
    pub creator_id: String,
}

/// A series' weeks that are still on, by date.
pub async fn weeks<'e, E: Executor<'e, Database = Any>>(ex: E, series_id: &str) -> Result<Vec<WeekRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, start_date, creator_id FROM events WHERE series_id = $1 AND cancelled_at IS NULL ORDER BY start_date, id",
    )
    .bind(series_id)
    .fetch_all(ex)
    .await
}
