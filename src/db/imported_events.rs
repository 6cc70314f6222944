//! The events of imported league games (season sync, docs/sync.md): read
//! as they stand, created in multi-row statements, and the fields the sync
//! owns rewritten. Every writer returns the statements it ran.

use super::seasons::SeasonRow;
use super::{Backend, dynamic, value_tuples};
use sqlx::{Any, AnyConnection, Executor};
use std::collections::HashMap;

/// An imported game's event as it stands.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct EventNow {
    pub id: String,
    pub title: String,
    pub start_date: i64,
    pub end_date: Option<i64>,
    pub external_rink: Option<String>,
    pub external_home_team_name: Option<String>,
    pub external_away_team_name: Option<String>,
    pub home_score: Option<i64>,
    pub away_score: Option<i64>,
    pub cancelled_at: Option<i64>,
    pub home_team_id: Option<String>,
    pub away_team_id: Option<String>,
}

/// What an imported game's event should say (the fields the sync owns).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventWanted {
    pub title: String,
    pub start_date: i64,
    pub end_date: Option<i64>,
    pub external_rink: Option<String>,
    pub external_home_team_name: Option<String>,
    pub external_away_team_name: Option<String>,
    pub home_score: Option<i64>,
    pub away_score: Option<i64>,
    pub home_team_id: Option<String>,
    pub away_team_id: Option<String>,
}

/// The events of the season's imported games, as they stand, by id.
pub async fn events_of_games<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    season_id: &str,
) -> Result<HashMap<String, EventNow>, sqlx::Error> {
    let rows: Vec<EventNow> = sqlx::query_as(
        "SELECT e.id, e.title, e.start_date, e.end_date, e.external_rink, e.external_home_team_name, \
           e.external_away_team_name, e.home_score, e.away_score, e.cancelled_at, \
           (SELECT t.team_id FROM event_teams t WHERE t.event_id = e.id AND t.role = 'HOME') AS home_team_id, \
           (SELECT t.team_id FROM event_teams t WHERE t.event_id = e.id AND t.role = 'AWAY') AS away_team_id \
         FROM external_games g JOIN events e ON e.id = g.event_id WHERE g.season_id = $1",
    )
    .bind(season_id)
    .fetch_all(ex)
    .await?;
    Ok(rows.into_iter().map(|e| (e.id.clone(), e)).collect())
}

/// Writes the fields the sync owns on an imported game's event, and its
/// HOME/AWAY teams where they changed; returns the statements run.
pub async fn update_event(
    conn: &mut AnyConnection,
    event_id: &str,
    wanted: &EventWanted,
    before: &EventNow,
) -> Result<u32, sqlx::Error> {
    sqlx::query(
        "UPDATE events SET title = $2, start_date = $3, end_date = $4, external_rink = $5, \
           external_home_team_name = $6, external_away_team_name = $7, home_score = $8, away_score = $9, \
           updated_at = $10 WHERE id = $1",
    )
    .bind(event_id)
    .bind(&wanted.title)
    .bind(wanted.start_date)
    .bind(wanted.end_date)
    .bind(&wanted.external_rink)
    .bind(&wanted.external_home_team_name)
    .bind(&wanted.external_away_team_name)
    .bind(wanted.home_score)
    .bind(wanted.away_score)
    .bind(super::now_ms())
    .execute(&mut *conn)
    .await?;
    let mut statements = 1;
    if before.home_team_id != wanted.home_team_id || before.away_team_id != wanted.away_team_id {
        sqlx::query("DELETE FROM event_teams WHERE event_id = $1").bind(event_id).execute(&mut *conn).await?;
        statements += 1;
        let teams: Vec<(&str, &str)> = [("HOME", &wanted.home_team_id), ("AWAY", &wanted.away_team_id)]
            .into_iter()
            .filter_map(|(role, t)| t.as_deref().map(|t| (role, t)))
            .collect();
        for (role, team_id) in teams {
            super::events::set_team(&mut *conn, event_id, team_id, role).await?;
            statements += 2;
        }
    }
    Ok(statements)
}

/// Creates imported games' events (EXTERNAL_GAME, at the season's rink,
/// listed by it, unlimited places) and their HOME/AWAY teams, in multi-row
/// statements; returns the statements run.
pub async fn insert_events(
    conn: &mut AnyConnection,
    backend: Backend,
    season: &SeasonRow,
    creator_id: &str,
    events: &[(String, &EventWanted)],
    now: i64,
) -> Result<u32, sqlx::Error> {
    const COLUMNS: usize = 10;
    let mut statements = 0;
    for chunk in events.chunks(backend.rows_per_statement(COLUMNS + 4)) {
        let n = chunk.len() * COLUMNS;
        let sql = format!(
            "INSERT INTO events (id, title, start_date, end_date, external_rink, external_home_team_name, \
               external_away_team_name, home_score, away_score, location, creator_id, facility_id, season_id, \
               event_type, version, created_at, updated_at, hosted_by_facility) \
             SELECT v.column1, v.column2, v.column3, v.column4, v.column5, v.column6, v.column7, v.column8, \
               v.column9, v.column10, ${creator}, ${facility}, ${season}, 'EXTERNAL_GAME', 0, ${now_at}, ${now_at}, 1 \
             FROM (VALUES {}) AS v",
            value_tuples(chunk.len(), COLUMNS),
            creator = n + 1,
            facility = n + 2,
            season = n + 3,
            now_at = n + 4,
        );
        let mut q = sqlx::query(dynamic(sql));
        for (id, w) in chunk {
            q = q
                .bind(id)
                .bind(&w.title)
                .bind(w.start_date)
                .bind(w.end_date)
                .bind(&w.external_rink)
                .bind(&w.external_home_team_name)
                .bind(&w.external_away_team_name)
                .bind(w.home_score)
                .bind(w.away_score)
                .bind(w.external_rink.as_ref().map(|rink| format!("{rink}, {}", season.facility_name)));
        }
        q.bind(creator_id).bind(&season.facility_id).bind(&season.id).bind(now).execute(&mut *conn).await?;
        statements += 1;
    }
    let teams: Vec<(&str, &str, &str)> = events
        .iter()
        .flat_map(|(id, w)| {
            [("HOME", &w.home_team_id), ("AWAY", &w.away_team_id)]
                .into_iter()
                .filter_map(move |(role, t)| t.as_deref().map(|t| (id.as_str(), t, role)))
        })
        .collect();
    for chunk in teams.chunks(backend.rows_per_statement(4)) {
        let sql =
            format!("INSERT INTO event_teams (id, event_id, team_id, role) VALUES {}", value_tuples(chunk.len(), 4));
        let mut q = sqlx::query(dynamic(sql));
        for (event_id, team_id, role) in chunk {
            q = q.bind(super::new_id()).bind(*event_id).bind(*team_id).bind(*role);
        }
        q.execute(&mut *conn).await?;
        statements += 1;
    }
    Ok(statements)
}
