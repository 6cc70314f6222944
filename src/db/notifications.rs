//! Notifications: one row per recipient, written in the caller's
//! transaction with the fact it reports (docs/notifications.md); the
//! person's settings; the lease of the cluster-wide reminder job.

use super::{dynamic, flag, new_id, now_ms, placeholder_list, value_tuples};
use crate::domain::NotificationType;
use sqlx::{Any, AnyConnection, Executor, FromRow};

type Result<T> = std::result::Result<T, sqlx::Error>;

/// What a notification is about (and links to).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum About {
    Event,
    Roster,
    Game,
}

impl About {
    pub fn as_str(self) -> &'static str {
        match self {
            About::Event => "EVENT",
            About::Roster => "ROSTER",
            About::Game => "GAME",
        }
    }
}

/// One fact to tell some people.
#[derive(Clone, Debug)]
pub struct NewNotification<'a> {
    pub kind: NotificationType,
    pub about: About,
    pub resource_id: &'a str,
    /// What the screen shows, as of the fact.
    pub payload: serde_json::Value,
    /// A fact told at most once per person (reminders); `None` otherwise.
    pub dedupe_key: Option<String>,
}

/// Rows per insert statement (9 placeholders each: well within SQLite's
/// comfortable 256).
const ROWS_PER_INSERT: usize = 25;

/// Writes the notification for each recipient (duplicates in `to` are
/// told once; a `dedupe_key` already told to a person is skipped), tagged
/// with `batch` for the push after the commit. Returns how many rows were
/// written.
pub async fn insert(conn: &mut AnyConnection, note: &NewNotification<'_>, to: &[String], batch: &str) -> Result<u64> {
    let mut to: Vec<&String> = to.iter().collect();
    to.sort_unstable();
    to.dedup();
    let now = now_ms();
    let payload = note.payload.to_string();
    let mut written = 0;
    for chunk in to.chunks(ROWS_PER_INSERT) {
        let sql = format!(
            "INSERT INTO notifications (id, user_id, type, resource_type, resource_id, payload, dedupe_key, batch, \
               created_at) VALUES {} ON CONFLICT (user_id, dedupe_key) DO NOTHING",
            value_tuples(chunk.len(), 9)
        );
        let mut q = sqlx::query(dynamic(sql));
        for user_id in chunk {
            q = q
                .bind(new_id())
                .bind(user_id.as_str())
                .bind(note.kind.as_str())
                .bind(note.about.as_str())
                .bind(note.resource_id)
                .bind(payload.clone())
                .bind(note.dedupe_key.clone())
                .bind(batch)
                .bind(now);
        }
        written += q.execute(&mut *conn).await?.rows_affected();
    }
    Ok(written)
}

/// Like [`insert`], but a person's earlier notification under the same
/// `dedupe_key` is replaced by this one (unread again, at the top).
pub async fn replace(conn: &mut AnyConnection, note: &NewNotification<'_>, to: &[String], batch: &str) -> Result<u64> {
    if let Some(key) = &note.dedupe_key {
        for chunk in to.chunks(ROWS_PER_INSERT) {
            let sql = format!(
                "DELETE FROM notifications WHERE dedupe_key = $1 AND user_id IN ({})",
                placeholder_list(2, chunk.len())
            );
            let mut q = sqlx::query(dynamic(sql)).bind(key.as_str());
            for user_id in chunk {
                q = q.bind(user_id.as_str());
            }
            q.execute(&mut *conn).await?;
        }
    }
    insert(conn, note, to, batch).await
}

/// Removes every notification about a resource that no longer exists (a
/// deleted event), in the deleting transaction.
pub async fn forget<'e, E: Executor<'e, Database = Any>>(ex: E, about: About, resource_id: &str) -> Result<()> {
    sqlx::query("DELETE FROM notifications WHERE resource_type = $1 AND resource_id = $2")
        .bind(about.as_str())
        .bind(resource_id)
        .execute(ex)
        .await?;
    Ok(())
}

#[derive(Debug, Clone, FromRow)]
pub struct NotificationRow {
    pub id: String,
    pub user_id: String,
    #[sqlx(rename = "type")]
    pub kind: String,
    pub resource_type: String,
    pub resource_id: String,
    pub payload: String,
    pub created_at: i64,
    pub read_at: Option<i64>,
}

const COLUMNS: &str = "id, user_id, type, resource_type, resource_id, payload, created_at, read_at";

/// A person's notifications, newest first by `(created_at, id)`,
/// keyset-paged before `(at, id)`; one row more than `limit` tells whether
/// there is more.
pub async fn page<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    user_id: &str,
    before: Option<(i64, String)>,
    unread_only: bool,
    limit: i64,
) -> Result<Vec<NotificationRow>> {
    let page_start = crate::db::keyset("created_at", "id", crate::db::Order::NewestFirst, 2);
    let sql = format!(
        "SELECT {COLUMNS} FROM notifications WHERE user_id = $1 \
           AND {page_start} \
           AND ($5 = 0 OR read_at IS NULL) \
         ORDER BY created_at DESC, id DESC LIMIT $6"
    );
    sqlx::query_as(dynamic(sql))
        .bind(user_id)
        .bind(flag(before.is_some()))
        .bind(before.as_ref().map(|b| b.0).unwrap_or(0))
        .bind(before.map(|b| b.1).unwrap_or_default())
        .bind(flag(unread_only))
        .bind(limit + 1)
        .fetch_all(ex)
        .await
}

pub async fn unread_count<'e, E: Executor<'e, Database = Any>>(ex: E, user_id: &str) -> Result<i64> {
    sqlx::query_scalar("SELECT COUNT(*) FROM notifications WHERE user_id = $1 AND read_at IS NULL")
        .bind(user_id)
        .fetch_one(ex)
        .await
}

/// One of the person's notifications (`None`: not theirs, or no such).
pub async fn get<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    user_id: &str,
    id: &str,
) -> Result<Option<NotificationRow>> {
    sqlx::query_as(dynamic(format!("SELECT {COLUMNS} FROM notifications WHERE id = $1 AND user_id = $2")))
        .bind(id)
        .bind(user_id)
        .fetch_optional(ex)
        .await
}

/// Marks one read (a read one keeps its first `read_at`); whether it was
/// unread until now.
pub async fn mark_read<'e, E: Executor<'e, Database = Any>>(ex: E, user_id: &str, id: &str, now: i64) -> Result<bool> {
    let done = sqlx::query("UPDATE notifications SET read_at = $3 WHERE id = $1 AND user_id = $2 AND read_at IS NULL")
        .bind(id)
        .bind(user_id)
        .bind(now)
        .execute(ex)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// Marks every unread one read; how many were.
pub async fn mark_all_read<'e, E: Executor<'e, Database = Any>>(ex: E, user_id: &str, now: i64) -> Result<u64> {
    let done = sqlx::query("UPDATE notifications SET read_at = $2 WHERE user_id = $1 AND read_at IS NULL")
        .bind(user_id)
        .bind(now)
        .execute(ex)
        .await?;
    Ok(done.rows_affected())
}

/// What one write produced (for the push after its commit).
pub async fn in_batch<'e, E: Executor<'e, Database = Any>>(ex: E, batch: &str) -> Result<Vec<NotificationRow>> {
    sqlx::query_as(dynamic(format!("SELECT {COLUMNS} FROM notifications WHERE batch = $1 ORDER BY id")))
        .bind(batch)
        .fetch_all(ex)
        .await
}

/// A batch's notifications to people with a mail address, with it.
pub async fn in_batch_with_address<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    batch: &str,
) -> Result<Vec<(NotificationRow, String)>> {
    #[derive(FromRow)]
    struct WithAddress {
        #[sqlx(flatten)]
        row: NotificationRow,
        email: String,
    }
    let sql = "SELECT n.id, n.user_id, n.type, n.resource_type, n.resource_id, n.payload, n.created_at, n.read_at, \
                 u.email FROM notifications n JOIN users u ON u.id = n.user_id \
               WHERE n.batch = $1 AND u.email IS NOT NULL ORDER BY n.id";
    let rows: Vec<WithAddress> = sqlx::query_as(sql).bind(batch).fetch_all(ex).await?;
    Ok(rows.into_iter().map(|r| (r.row, r.email)).collect())
}

// ---------------------------------------------------------------- who

/// Everyone attending or waitlisted for an event, but `except`.
pub async fn event_people(conn: &mut AnyConnection, event_id: &str, except: Option<&str>) -> Result<Vec<String>> {
    sqlx::query_scalar(
        "SELECT user_id FROM event_rsvps WHERE event_id = $1 AND status IN ('ATTENDING', 'WAITLISTED') \
           AND user_id <> COALESCE(CAST($2 AS TEXT), '') ORDER BY user_id",
    )
    .bind(event_id)
    .bind(except)
    .fetch_all(&mut *conn)
    .await
}

/// The players of these rosters (a game's two sides).
pub async fn roster_players(conn: &mut AnyConnection, roster_ids: &[&str]) -> Result<Vec<String>> {
    if roster_ids.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        "SELECT DISTINCT user_id FROM roster_players WHERE roster_id IN ({}) ORDER BY user_id",
        placeholder_list(1, roster_ids.len())
    );
    let mut q = sqlx::query_scalar(dynamic(sql));
    for id in roster_ids {
        q = q.bind(*id);
    }
    q.fetch_all(&mut *conn).await
}

// ---------------------------------------------------------------- what the screen shows

#[derive(Debug, Clone, FromRow)]
pub struct EventFacts {
    pub id: String,
    pub title: String,
    pub start_date: i64,
    pub location: Option<String>,
    pub external_rink: Option<String>,
    pub facility_name: Option<String>,
    pub timezone: Option<String>,
    pub creator_id: String,
    pub cancelled_at: Option<i64>,
}

const EVENT_FACTS: &str = "SELECT e.id, e.title, e.start_date, e.location, e.external_rink, f.name AS facility_name, \
    f.timezone, e.creator_id, e.cancelled_at FROM events e LEFT JOIN facilities f ON f.id = e.facility_id";

pub async fn event_facts<'e, E: Executor<'e, Database = Any>>(ex: E, event_id: &str) -> Result<Option<EventFacts>> {
    sqlx::query_as(dynamic(format!("{EVENT_FACTS} WHERE e.id = $1"))).bind(event_id).fetch_optional(ex).await
}

pub async fn events_facts<'e, E: Executor<'e, Database = Any>>(ex: E, event_ids: &[String]) -> Result<Vec<EventFacts>> {
    if event_ids.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!("{EVENT_FACTS} WHERE e.id IN ({})", placeholder_list(1, event_ids.len()));
    let mut q = sqlx::query_as(dynamic(sql));
    for id in event_ids {
        q = q.bind(id);
    }
    q.fetch_all(ex).await
}

#[derive(Debug, Clone, FromRow)]
pub struct RosterFacts {
    pub roster_name: String,
    pub team_id: String,
    pub team_name: String,
    pub season_name: String,
}

pub async fn roster_facts<'e, E: Executor<'e, Database = Any>>(ex: E, roster_id: &str) -> Result<Option<RosterFacts>> {
    sqlx::query_as(
        "SELECT r.name AS roster_name, t.id AS team_id, t.name AS team_name, s.name AS season_name \
         FROM rosters r JOIN teams t ON t.id = r.team_id JOIN seasons s ON s.id = r.season_id WHERE r.id = $1",
    )
    .bind(roster_id)
    .fetch_optional(ex)
    .await
}

#[derive(Debug, Clone, FromRow)]
pub struct GameFacts {
    pub scheduled_at: i64,
    pub season_id: String,
    pub home_roster_id: String,
    pub away_roster_id: String,
    pub home_name: String,
    pub away_name: String,
    pub status: String,
    pub timezone: Option<String>,
}

pub async fn game_facts<'e, E: Executor<'e, Database = Any>>(ex: E, game_id: &str) -> Result<Option<GameFacts>> {
    sqlx::query_as(
        "SELECT g.scheduled_at, g.season_id, g.home_roster_id, g.away_roster_id, th.name AS home_name, \
           ta.name AS away_name, g.status, f.timezone \
         FROM games g JOIN rosters rh ON rh.id = g.home_roster_id JOIN teams th ON th.id = rh.team_id \
           JOIN rosters ra ON ra.id = g.away_roster_id JOIN teams ta ON ta.id = ra.team_id \
           JOIN seasons s ON s.id = g.season_id LEFT JOIN facilities f ON f.id = s.facility_id \
         WHERE g.id = $1",
    )
    .bind(game_id)
    .fetch_optional(ex)
    .await
}

// ---------------------------------------------------------------- settings

/// Reminders before the start when a person has not chosen (minutes).
pub const DEFAULT_REMINDERS: [i64; 2] = [24 * 60, 2 * 60];

/// The minutes before the start a person is reminded at (largest first);
/// the defaults when they never chose.
pub async fn reminder_minutes<'e, E: Executor<'e, Database = Any>>(ex: E, user_id: &str) -> Result<Vec<i64>> {
    let stored: Option<String> =
        sqlx::query_scalar("SELECT reminder_minutes FROM notification_settings WHERE user_id = $1")
            .bind(user_id)
            .fetch_optional(ex)
            .await?;
    Ok(match stored {
        Some(s) => parse_minutes(&s),
        None => DEFAULT_REMINDERS.to_vec(),
    })
}

pub async fn set_reminder_minutes<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    user_id: &str,
    minutes: &[i64],
    now: i64,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO notification_settings (user_id, reminder_minutes, max_minutes, updated_at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (user_id) DO UPDATE SET reminder_minutes = excluded.reminder_minutes, \
           max_minutes = excluded.max_minutes, updated_at = excluded.updated_at",
    )
    .bind(user_id)
    .bind(store_minutes(minutes))
    .bind(minutes.iter().copied().max().unwrap_or(0))
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// Whether the person is told of new sub-market matches (SUB_MATCH); on
/// unless they turned it off.
pub async fn sub_matches<'e, E: Executor<'e, Database = Any>>(ex: E, user_id: &str) -> Result<bool> {
    let stored: Option<i64> = sqlx::query_scalar("SELECT sub_matches FROM notification_settings WHERE user_id = $1")
        .bind(user_id)
        .fetch_optional(ex)
        .await?;
    Ok(stored != Some(0))
}

/// Turns SUB_MATCH on or off; a person with no settings row gets one with
/// the default reminders.
pub async fn set_sub_matches<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    user_id: &str,
    on: bool,
    now: i64,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO notification_settings (user_id, reminder_minutes, max_minutes, sub_matches, updated_at)          VALUES ($1, $2, $3, $4, $5)          ON CONFLICT (user_id) DO UPDATE SET sub_matches = excluded.sub_matches, updated_at = excluded.updated_at",
    )
    .bind(user_id)
    .bind(store_minutes(&DEFAULT_REMINDERS))
    .bind(DEFAULT_REMINDERS.iter().copied().max().unwrap_or(0))
    .bind(flag(on))
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// Of these people, those who turned SUB_MATCH off.
pub async fn sub_matches_off(conn: &mut AnyConnection, user_ids: &[String]) -> Result<Vec<String>> {
    if user_ids.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        "SELECT user_id FROM notification_settings WHERE sub_matches = 0 AND user_id IN ({})",
        placeholder_list(1, user_ids.len())
    );
    let mut q = sqlx::query_scalar(dynamic(sql));
    for id in user_ids {
        q = q.bind(id);
    }
    q.fetch_all(&mut *conn).await
}

/// `",1440,120,"`: a comma at each end, so one offset is `LIKE '%,120,%'`.
pub fn store_minutes(minutes: &[i64]) -> String {
    let inner: Vec<String> = minutes.iter().map(i64::to_string).collect();
    format!(",{},", inner.join(","))
}

pub fn parse_minutes(stored: &str) -> Vec<i64> {
    stored.split(',').filter_map(|m| m.trim().parse().ok()).collect()
}

// ---------------------------------------------------------------- reminders

/// The job's lease: taken by one node at a time until `until` (or renewed
/// by its holder). Whether this `owner` holds it now.
pub async fn take_lease<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    job: &str,
    owner: &str,
    now: i64,
    until: i64,
) -> Result<bool> {
    let done = sqlx::query(
        "UPDATE job_leases SET owner = $2, lease_until = $4 WHERE name = $1 AND (lease_until < $3 OR owner = $2)",
    )
    .bind(job)
    .bind(owner)
    .bind(now)
    .bind(until)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// An RSVP that may be due a reminder.
#[derive(Debug, Clone, FromRow)]
pub struct ReminderCandidate {
    pub user_id: String,
    pub event_id: String,
    pub status: String,
    pub responded_at: i64,
    pub start_date: i64,
    /// `None`: the person never chose (the defaults).
    pub reminder_minutes: Option<String>,
}

/// Everyone attending or waitlisted for an event that is not cancelled and
/// starts after `now`, within the person's largest reminder.
pub async fn reminder_candidates<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    now: i64,
) -> Result<Vec<ReminderCandidate>> {
    let default_max = DEFAULT_REMINDERS.iter().copied().max().unwrap_or(0);
    sqlx::query_as(
        "SELECT r.user_id, r.event_id, r.status, r.responded_at, e.start_date, s.reminder_minutes \
         FROM events e JOIN event_rsvps r ON r.event_id = e.id \
           LEFT JOIN notification_settings s ON s.user_id = r.user_id \
         WHERE e.start_date > $1 \
           AND e.start_date <= $1 + 60000 * (SELECT CASE WHEN MAX(max_minutes) > $2 THEN MAX(max_minutes) ELSE $2 END \
                                             FROM notification_settings) \
           AND e.cancelled_at IS NULL AND r.status IN ('ATTENDING', 'WAITLISTED') \
           AND e.start_date <= $1 + 60000 * COALESCE(s.max_minutes, $2) \
         ORDER BY e.start_date, r.user_id",
    )
    .bind(now)
    .bind(default_max)
    .fetch_all(ex)
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_minutes_read_back_and_match_one_offset_with_like() {
        assert_eq!(store_minutes(&[1440, 120]), ",1440,120,");
        assert_eq!(parse_minutes(",1440,120,"), vec![1440, 120]);
        assert_eq!(store_minutes(&[]), ",,");
        assert_eq!(parse_minutes(",,"), Vec::<i64>::new());
    }
}
