//! A person's or a team's schedule (docs/schedule.md): the events and the
//! league games in a time window, one query per source — events (answered
//! by the person, or linked to one of their teams), then games (of their
//! rosters) — never one per item. The calendar feeds' tokens too.

use super::{dynamic, now_ms};
use sqlx::{Any, Executor, FromRow};

/// Whose schedule: what decides which events and games are in it.
#[derive(Debug, Clone, Copy)]
pub enum Whose<'a> {
    /// The person's own: events they are in or waitlisted for, events linked
    /// to the teams of their rosters (with their answer, if any), and their
    /// rosters' games.
    Own(&'a str),
    /// What anyone may see of a person's: their teams' events and their
    /// rosters' games, no answers.
    Public(&'a str),
    /// A team's: the events it is linked to and its rosters' games.
    Team(&'a str),
}

impl Whose<'_> {
    fn id(&self) -> &str {
        match self {
            Whose::Own(id) | Whose::Public(id) | Whose::Team(id) => id,
        }
    }
}

/// At most this many items of each source in one window (a window is at
/// most 92 days long (the API's limit); nobody plays 500
/// times in it).
pub const MAX_PER_SOURCE: i64 = 500;

/// An event in a schedule, with the person's standing on it.
#[derive(Debug, Clone, FromRow)]
pub struct ScheduleEventRow {
    pub id: String,
    pub title: String,
    pub start_date: i64,
    pub end_date: Option<i64>,
    pub event_type: String,
    pub location: Option<String>,
    pub external_rink: Option<String>,
    /// The organiser's words, for the calendar feed's DESCRIPTION.
    pub description: Option<String>,
    pub facility_id: Option<String>,
    pub facility_name: Option<String>,
    pub timezone: Option<String>,
    pub cancelled_at: Option<i64>,
    pub home_score: Option<i64>,
    pub away_score: Option<i64>,
    pub created_at: i64,
    pub updated_at: i64,
    /// A linked team's name, else the external team's name.
    pub home_name: Option<String>,
    pub away_name: Option<String>,
    /// The person's RSVP status (own schedules only).
    pub my_status: Option<String>,
    /// 1 = next to be promoted, counted in the person's role, as the event's
    /// actor counts it (`waitlist_rank`).
    pub waitlist_rank: Option<i64>,
    /// The team (of the person's, or the team itself) the event is linked
    /// to, when it comes through one.
    pub team_name: Option<String>,
}

/// Which events are in: a CTE `picked(event_id)` per kind of schedule.
fn picked_events(whose: Whose<'_>) -> &'static str {
    match whose {
        Whose::Own(_) => {
            "SELECT r.event_id FROM event_rsvps r WHERE r.user_id = $1 AND r.status IN ('ATTENDING', 'WAITLISTED') \
             UNION \
             SELECT et.event_id FROM roster_players rp JOIN rosters ro ON ro.id = rp.roster_id \
               JOIN event_teams et ON et.team_id = ro.team_id \
             WHERE rp.user_id = $1 AND ro.status <> 'ARCHIVED'"
        }
        Whose::Public(_) => {
            "SELECT et.event_id FROM roster_players rp JOIN rosters ro ON ro.id = rp.roster_id \
               JOIN event_teams et ON et.team_id = ro.team_id \
             WHERE rp.user_id = $1 AND ro.status <> 'ARCHIVED'"
        }
        Whose::Team(_) => "SELECT et.event_id FROM event_teams et WHERE et.team_id = $1",
    }
}

/// The team an event comes through, for the row's `team_name`.
fn team_of_event(whose: Whose<'_>) -> &'static str {
    match whose {
        Whose::Own(_) | Whose::Public(_) => {
            "(SELECT MIN(t.name) FROM event_teams et JOIN teams t ON t.id = et.team_id \
               JOIN rosters ro ON ro.team_id = et.team_id AND ro.status <> 'ARCHIVED' \
               JOIN roster_players rp ON rp.roster_id = ro.id \
             WHERE et.event_id = e.id AND rp.user_id = $1)"
        }
        Whose::Team(_) => "(SELECT t.name FROM teams t WHERE t.id = $1)",
    }
}

/// The SELECT of schedule events: `picked` is the CTE choosing event ids
/// ($1 is the person or team), `team` the team an event comes through;
/// `[from, to)` is $2–$3 and the row limit $4. With `every_answer`, a
/// declined or removed person's row stays (one event asked for by id).
fn events_sql(whose: Whose<'_>, picked: &str, every_answer: bool) -> String {
    let own = !matches!(whose, Whose::Public(_) | Whose::Team(_));
    // Only an own schedule reads the person's answer.
    let answer = if own { "r.user_id = $1" } else { "1 = 0" };
    let team = team_of_event(whose);
    let answers = if every_answer {
        "1 = 1".to_string()
    } else {
        format!(
            "(r.status IS NULL OR r.status IN ('ATTENDING', 'WAITLISTED') OR (r.status = 'DECLINED' AND {team} IS NOT NULL))"
        )
    };
    format!(
        "WITH picked AS ({picked}) \
         SELECT e.id, e.title, e.start_date, e.end_date, e.event_type, e.location, e.external_rink, e.description, \
           e.facility_id, \
           f.name AS facility_name, f.timezone, e.cancelled_at, e.home_score, e.away_score, e.created_at, \
           e.updated_at, \
           COALESCE((SELECT t.name FROM event_teams et JOIN teams t ON t.id = et.team_id \
                     WHERE et.event_id = e.id AND et.role = 'HOME'), e.external_home_team_name) AS home_name, \
           COALESCE((SELECT t.name FROM event_teams et JOIN teams t ON t.id = et.team_id \
                     WHERE et.event_id = e.id AND et.role = 'AWAY'), e.external_away_team_name) AS away_name, \
           r.status AS my_status, \
           CASE WHEN r.status = 'WAITLISTED' THEN CAST((SELECT COUNT(*) FROM event_rsvps w \
               WHERE w.event_id = e.id AND w.status = 'WAITLISTED' AND w.role = r.role \
                 AND (w.accepted_seq < r.accepted_seq OR (w.accepted_seq = r.accepted_seq AND w.user_id < r.user_id))) \
             + 1 AS BIGINT) END AS waitlist_rank, \
           {team} AS team_name \
         FROM picked JOIN events e ON e.id = picked.event_id \
           LEFT JOIN event_rsvps r ON r.event_id = e.id AND {answer} \
           LEFT JOIN facilities f ON f.id = e.facility_id \
         WHERE e.start_date >= $2 AND e.start_date < $3 AND {answers} \
         ORDER BY e.start_date, e.id LIMIT $4"
    )
}

/// The events of a schedule starting in `[from, to)`, soonest first. In an
/// own schedule, events the person was removed from are left out, and so
/// are events they declined unless a team of theirs is on it (they may
/// change their mind there).
pub async fn events<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    whose: Whose<'_>,
    from: i64,
    to: i64,
) -> Result<Vec<ScheduleEventRow>, sqlx::Error> {
    let sql = events_sql(whose, picked_events(whose), false);
    sqlx::query_as(dynamic(sql)).bind(whose.id()).bind(from).bind(to).bind(MAX_PER_SOURCE).fetch_all(ex).await
}

/// One event as a schedule item, with the person's standing on it
/// (whatever it is); `None` when there is no such event.
pub async fn one_event<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    user_id: &str,
    event_id: &str,
) -> Result<Option<ScheduleEventRow>, sqlx::Error> {
    let sql = events_sql(Whose::Own(user_id), "SELECT $5 AS event_id", true);
    sqlx::query_as(dynamic(sql))
        .bind(user_id)
        .bind(i64::MIN)
        .bind(i64::MAX)
        .bind(1_i64)
        .bind(event_id)
        .fetch_optional(ex)
        .await
}

/// A league game in a schedule.
#[derive(Debug, Clone, FromRow)]
pub struct ScheduleGameRow {
    pub id: String,
    pub season_id: String,
    pub season_name: String,
    pub scheduled_at: i64,
    pub status: String,
    pub home_roster_name: String,
    pub home_team_id: String,
    pub away_roster_name: String,
    pub away_team_id: String,
    pub home_score: i64,
    pub away_score: i64,
    pub facility_id: String,
    pub facility_name: String,
    pub timezone: String,
    pub created_at: i64,
    pub updated_at: i64,
    /// HOME or AWAY: the side the person (or team) plays on.
    pub side: String,
    /// The roster of that side.
    pub roster_id: String,
    /// The person's availability (IN / OUT), on their own schedule.
    pub my_answer: Option<String>,
}

/// The league games of a schedule in `[from, to)`, soonest first: the
/// person's rosters' (any status but archived) or the team's rosters'.
pub async fn games<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    whose: Whose<'_>,
    from: i64,
    to: i64,
) -> Result<Vec<ScheduleGameRow>, sqlx::Error> {
    let mine = match whose {
        Whose::Own(_) | Whose::Public(_) => {
            "SELECT rp.roster_id FROM roster_players rp JOIN rosters ro ON ro.id = rp.roster_id \
             WHERE rp.user_id = $1 AND ro.status <> 'ARCHIVED'"
        }
        Whose::Team(_) => "SELECT ro.id FROM rosters ro WHERE ro.team_id = $1",
    };
    let sql = format!(
        "WITH mine AS ({mine}) \
         SELECT g.id, g.season_id, s.name AS season_name, g.scheduled_at, g.status, \
           hr.name AS home_roster_name, hr.team_id AS home_team_id, ar.name AS away_roster_name, \
           ar.team_id AS away_team_id, g.home_score, g.away_score, f.id AS facility_id, f.name AS facility_name, \
           f.timezone, g.created_at, g.updated_at, \
           CASE WHEN g.home_roster_id IN (SELECT * FROM mine) THEN 'HOME' ELSE 'AWAY' END AS side, \
           CASE WHEN g.home_roster_id IN (SELECT * FROM mine) THEN g.home_roster_id ELSE g.away_roster_id END \
             AS roster_id, \
           (SELECT a.answer FROM game_availability a WHERE a.game_id = g.id AND a.user_id = $1 \
              AND a.roster_id IN (SELECT * FROM mine)) AS my_answer \
         FROM games g JOIN seasons s ON s.id = g.season_id JOIN facilities f ON f.id = s.facility_id \
           JOIN rosters hr ON hr.id = g.home_roster_id JOIN rosters ar ON ar.id = g.away_roster_id \
         WHERE g.scheduled_at >= $2 AND g.scheduled_at < $3 \
           AND (g.home_roster_id IN (SELECT * FROM mine) OR g.away_roster_id IN (SELECT * FROM mine)) \
         ORDER BY g.scheduled_at, g.id LIMIT $4"
    );
    sqlx::query_as(dynamic(sql)).bind(whose.id()).bind(from).bind(to).bind(MAX_PER_SOURCE).fetch_all(ex).await
}

/// One roster a person plays on, with its team and season.
#[derive(Debug, Clone, FromRow)]
pub struct MyRosterRow {
    pub roster_id: String,
    pub roster_name: String,
    pub team_id: String,
    pub team_name: String,
    pub logo_url: Option<String>,
    pub season_id: String,
    pub season_name: String,
    pub status: String,
}

/// The rosters a person plays on (archived ones last), latest season first.
pub async fn rosters_of<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    user_id: &str,
) -> Result<Vec<MyRosterRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT ro.id AS roster_id, ro.name AS roster_name, t.id AS team_id, t.name AS team_name, t.logo_url, \
           s.id AS season_id, s.name AS season_name, ro.status \
         FROM roster_players rp JOIN rosters ro ON ro.id = rp.roster_id JOIN teams t ON t.id = ro.team_id \
           JOIN seasons s ON s.id = ro.season_id \
         WHERE rp.user_id = $1 \
         ORDER BY CASE WHEN ro.status = 'ARCHIVED' THEN 1 ELSE 0 END, s.start_date DESC, t.name, ro.id \
         LIMIT 100",
    )
    .bind(user_id)
    .fetch_all(ex)
    .await
}

// ---------------------------------------------------------------- calendar feeds

/// Creates or replaces a person's feed token (by its hash); the old URL
/// stops working in the same statement.
pub async fn set_feed<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    user_id: &str,
    token_hash: &str,
) -> Result<i64, sqlx::Error> {
    let now = now_ms();
    sqlx::query(
        "INSERT INTO calendar_feeds (user_id, token_hash, created_at) VALUES ($1, $2, $3) \
         ON CONFLICT (user_id) DO UPDATE SET token_hash = excluded.token_hash, created_at = excluded.created_at",
    )
    .bind(user_id)
    .bind(token_hash)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(now)
}

/// When the person's feed was made, if they have one.
pub async fn feed_created<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    user_id: &str,
) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar("SELECT created_at FROM calendar_feeds WHERE user_id = $1")
        .bind(user_id)
        .fetch_optional(ex)
        .await
}

/// Revokes the person's feed; false when there was none.
pub async fn delete_feed<'e, E: Executor<'e, Database = Any>>(ex: E, user_id: &str) -> Result<bool, sqlx::Error> {
    Ok(sqlx::query("DELETE FROM calendar_feeds WHERE user_id = $1").bind(user_id).execute(ex).await?.rows_affected()
        > 0)
}

/// Whose feed a token hash opens (deleted people have none).
pub async fn feed_owner<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    token_hash: &str,
) -> Result<Option<(String, String)>, sqlx::Error> {
    sqlx::query_as(dynamic(format!(
        "SELECT u.id, {} FROM calendar_feeds c JOIN users u ON u.id = c.user_id \
         WHERE c.token_hash = $1 AND u.deleted_at IS NULL",
        super::events::DISPLAY_NAME
    )))
    .bind(token_hash)
    .fetch_optional(ex)
    .await
}
