//! Statuses (looking for a team, available to sub, recruiting, looking for
//! subs): writing them, ending them, and reading them with their level
//! (`super::levels`) and the filters of the board and of matching. The
//! events the market reads are in `super::spots`.
//! Every read takes `now`: an expired status is never returned as active
//! (docs/statuses.md).

use super::levels::{status_level, status_level_joined};
use super::{dynamic, flag, new_id, placeholder_list};
use crate::domain::{HockeyPosition, StatusType};
use sqlx::{Any, Executor, FromRow};
use std::collections::HashMap;

#[derive(Debug, Clone, FromRow)]
pub struct StatusRow {
    pub id: String,
    #[sqlx(rename = "type")]
    pub kind: String,
    pub entity_type: String,
    pub user_id: Option<String>,
    pub team_id: Option<String>,
    pub event_id: Option<String>,
    pub message: Option<String>,
    pub expires_at: i64,
    pub created_at: i64,
    pub updated_at: i64,
    /// 1–8 on the universal scale, computed when read.
    pub level: Option<i64>,
    /// Puck drop of the event a call for subs is tied to.
    pub event_start: Option<i64>,
}

/// A value bound to a built query.
enum Bind {
    Text(String),
    Int(i64),
}

/// Builds a query's placeholders and the values they stand for, in order.
#[derive(Default)]
struct Args(Vec<Bind>);

impl Args {
    fn text(&mut self, v: &str) -> String {
        self.0.push(Bind::Text(v.to_string()));
        format!("${}", self.0.len())
    }

    fn int(&mut self, v: i64) -> String {
        self.0.push(Bind::Int(v));
        format!("${}", self.0.len())
    }

    fn query_as<'q, T>(self, sql: String) -> sqlx::query::QueryAs<'q, Any, T, sqlx::any::AnyArguments>
    where
        T: for<'r> FromRow<'r, sqlx::any::AnyRow>,
    {
        let mut q = sqlx::query_as::<_, T>(dynamic(sql));
        for b in self.0 {
            q = match b {
                Bind::Text(t) => q.bind(t),
                Bind::Int(i) => q.bind(i),
            };
        }
        q
    }
}

/// What to read; every field narrows. Active statuses only (`now`).
#[derive(Debug, Default, Clone)]
pub struct Filter<'a> {
    pub now: i64,
    pub kinds: &'a [StatusType],
    /// Statuses asking for or offering any of these (an empty status list
    /// matches everything; an empty filter list is no filter).
    pub positions: &'a [HockeyPosition],
    pub facility_id: Option<&'a str>,
    /// Level within one step of this; `unknown_level_ok` keeps those
    /// without a level.
    pub level_near: Option<i64>,
    pub unknown_level_ok: bool,
    /// Still active after this moment.
    pub active_after: Option<i64>,
    /// Posted by this moment.
    pub posted_by: Option<i64>,
    pub event_ids: &'a [String],
    /// The person's own, their teams' (owner or manager) and their calls.
    pub editable_by: Option<&'a str>,
    /// Keyset: created before `(at, id)`.
    pub before: Option<(i64, String)>,
    pub limit: Option<i64>,
}

const COLUMNS: &str = "s.id, s.type, s.entity_type, s.user_id, s.team_id, s.event_id, s.message, s.expires_at, \
                       s.created_at, s.updated_at";

/// The rinks a person plays at: their rosters' seasons' facilities and the
/// facilities of events they attend or wait for.
fn plays_at(user: &str, facility: &str) -> String {
    format!(
        "(EXISTS (SELECT 1 FROM roster_players fp JOIN rosters fr ON fr.id = fp.roster_id \
            JOIN seasons fs ON fs.id = fr.season_id WHERE fp.user_id = {user} AND fs.facility_id = {facility}) \
          OR EXISTS (SELECT 1 FROM event_rsvps fv JOIN events fe ON fe.id = fv.event_id \
            WHERE fv.user_id = {user} AND fv.status IN ('ATTENDING', 'WAITLISTED') AND fe.facility_id = {facility}))"
    )
}

/// Active statuses by `filter`, newest first.
pub async fn list<'e, E: Executor<'e, Database = Any>>(ex: E, f: &Filter<'_>) -> Result<Vec<StatusRow>, sqlx::Error> {
    let mut a = Args::default();
    let mut wheres = vec![format!("s.expires_at > {}", a.int(f.now))];
    // A person who left takes their statuses along.
    wheres.push("(s.user_id IS NULL OR NOT EXISTS (SELECT 1 FROM users du WHERE du.id = s.user_id AND du.deleted_at IS NOT NULL))".into());
    if !f.kinds.is_empty() {
        let kinds: Vec<String> = f.kinds.iter().map(|k| a.text(k.as_str())).collect();
        wheres.push(format!("s.type IN ({})", kinds.join(", ")));
    }
    if !f.positions.is_empty() {
        let ps: Vec<String> = f.positions.iter().map(|p| a.text(p.as_str())).collect();
        wheres.push(format!(
            "(NOT EXISTS (SELECT 1 FROM status_positions sp WHERE sp.status_id = s.id) \
              OR EXISTS (SELECT 1 FROM status_positions sp WHERE sp.status_id = s.id AND sp.position IN ({})))",
            ps.join(", ")
        ));
    }
    if let Some(fac) = f.facility_id {
        let fac = a.text(fac);
        wheres.push(format!(
            "((s.entity_type = 'TEAM' AND EXISTS (SELECT 1 FROM teams ft WHERE ft.id = s.team_id AND ft.facility_id = {fac})) \
              OR (s.event_id IS NOT NULL AND e.facility_id = {fac}) \
              OR (s.entity_type = 'USER' AND s.event_id IS NULL AND {}))",
            plays_at("s.user_id", &fac)
        ));
    }
    if let Some(t) = f.active_after {
        wheres.push(format!("s.expires_at > {}", a.int(t)));
    }
    if let Some(t) = f.posted_by {
        wheres.push(format!("s.created_at <= {}", a.int(t)));
    }
    if !f.event_ids.is_empty() {
        let ids: Vec<String> = f.event_ids.iter().map(|id| a.text(id)).collect();
        wheres.push(format!("s.event_id IN ({})", ids.join(", ")));
    }
    if let Some(me) = f.editable_by {
        let me = a.text(me);
        wheres.push(format!(
            "(s.user_id = {me} OR s.team_id IN (SELECT mt.id FROM teams mt WHERE mt.owner_id = {me}) \
              OR s.team_id IN (SELECT mm.team_id FROM team_managers mm WHERE mm.user_id = {me}))"
        ));
    }
    if let Some((at, id)) = &f.before {
        let (at, id) = (a.int(*at), a.text(id));
        wheres.push(format!("(s.created_at < {at} OR (s.created_at = {at} AND s.id < {id}))"));
    }
    let limit = |a: &mut Args| f.limit.map(|n| format!(" LIMIT {}", a.int(n))).unwrap_or_default();
    let sql = match f.level_near {
        // The level is computed for the page only: the rows are chosen and
        // ordered first (a board of 10,000 statuses reads 20 levels).
        None => format!(
            "SELECT {COLUMNS}, {level} AS level, e.start_date AS event_start \
             FROM statuses s LEFT JOIN events e ON e.id = s.event_id \
             WHERE s.id IN (SELECT s.id FROM statuses s LEFT JOIN events e ON e.id = s.event_id \
               WHERE {wheres} ORDER BY s.created_at DESC, s.id DESC{limit}) \
             ORDER BY s.created_at DESC, s.id DESC",
            level = status_level(),
            wheres = wheres.join(" AND "),
            limit = limit(&mut a),
        ),
        // Filtering on the level needs it for every candidate.
        Some(level) => {
            let (lo, hi) = (a.int(level - 1), a.int(level + 1));
            let known = format!("(b.level >= {lo} AND b.level <= {hi})");
            let near = if f.unknown_level_ok { format!("(b.level IS NULL OR {known})") } else { known };
            let (joins, level) = status_level_joined();
            format!(
                "SELECT * FROM (SELECT {COLUMNS}, {level} AS level, e.start_date AS event_start \
                   FROM statuses s LEFT JOIN events e ON e.id = s.event_id {joins} WHERE {wheres}) b \
                 WHERE {near} ORDER BY b.created_at DESC, b.id DESC{limit}",
                wheres = wheres.join(" AND "),
                limit = limit(&mut a),
            )
        }
    };
    a.query_as::<StatusRow>(sql).fetch_all(ex).await
}

/// One status, active or not (its owners' screens show an ended one too).
pub async fn get<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<Option<StatusRow>, sqlx::Error> {
    let sql = format!(
        "SELECT {COLUMNS}, {} AS level, e.start_date AS event_start \
         FROM statuses s LEFT JOIN events e ON e.id = s.event_id WHERE s.id = $1",
        status_level()
    );
    sqlx::query_as(dynamic(sql)).bind(id).fetch_optional(ex).await
}

/// The positions of these statuses, by status id (in the scale's order).
pub async fn positions<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    ids: &[String],
) -> Result<HashMap<String, Vec<HockeyPosition>>, sqlx::Error> {
    let mut out: HashMap<String, Vec<HockeyPosition>> = HashMap::new();
    if ids.is_empty() {
        return Ok(out);
    }
    let sql = format!(
        "SELECT status_id, position FROM status_positions WHERE status_id IN ({})",
        placeholder_list(1, ids.len())
    );
    let mut q = sqlx::query_as::<_, (String, String)>(dynamic(sql));
    for id in ids {
        q = q.bind(id);
    }
    for (id, p) in q.fetch_all(ex).await? {
        if let Ok(p) = HockeyPosition::parse(&p) {
            out.entry(id).or_default().push(p);
        }
    }
    for list in out.values_mut() {
        list.sort();
    }
    Ok(out)
}

/// What a new status is.
#[derive(Debug, Clone)]
pub struct NewStatus<'a> {
    pub kind: StatusType,
    pub entity_type: &'a str,
    pub user_id: &'a str,
    pub team_id: Option<&'a str>,
    pub event_id: Option<&'a str>,
    pub message: Option<&'a str>,
    pub positions: &'a [HockeyPosition],
    pub expires_at: i64,
    pub now: i64,
}

pub async fn insert(conn: &mut sqlx::AnyConnection, s: &NewStatus<'_>) -> Result<String, sqlx::Error> {
    let id = new_id();
    sqlx::query(
        "INSERT INTO statuses (id, type, entity_type, user_id, team_id, event_id, message, expires_at, \
           created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)",
    )
    .bind(&id)
    .bind(s.kind.as_str())
    .bind(s.entity_type)
    .bind(s.user_id)
    .bind(s.team_id)
    .bind(s.event_id)
    .bind(s.message)
    .bind(s.expires_at)
    .bind(s.now)
    .execute(&mut *conn)
    .await?;
    set_positions(conn, &id, s.positions).await?;
    Ok(id)
}

async fn set_positions(
    conn: &mut sqlx::AnyConnection,
    id: &str,
    positions: &[HockeyPosition],
) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM status_positions WHERE status_id = $1").bind(id).execute(&mut *conn).await?;
    for p in positions {
        sqlx::query("INSERT INTO status_positions (status_id, position) VALUES ($1, $2)")
            .bind(id)
            .bind(p.as_str())
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}

/// The fields an edit may change.
#[derive(Debug, Clone)]
pub struct Edit<'a> {
    pub message: Option<Option<&'a str>>,
    pub positions: Option<&'a [HockeyPosition]>,
    pub expires_at: Option<i64>,
    pub now: i64,
}

pub async fn update(conn: &mut sqlx::AnyConnection, id: &str, e: &Edit<'_>) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE statuses SET \
           message = CASE WHEN $2 = 1 THEN $3 ELSE message END, \
           expires_at = COALESCE($4, expires_at), \
           updated_at = CASE WHEN $5 > updated_at THEN $5 ELSE updated_at + 1 END \
         WHERE id = $1",
    )
    .bind(id)
    .bind(flag(e.message.is_some()))
    .bind(e.message.flatten())
    .bind(e.expires_at)
    .bind(e.now)
    .execute(&mut *conn)
    .await?;
    if let Some(ps) = e.positions {
        set_positions(conn, id, ps).await?;
    }
    Ok(())
}

pub async fn delete<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM statuses WHERE id = $1").bind(id).execute(ex).await?;
    Ok(())
}

/// Ends these statuses now (those still active); answers the ids ended.
pub async fn end<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    ids: &[String],
    now: i64,
) -> Result<Vec<String>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        "UPDATE statuses SET expires_at = $1, updated_at = $1 WHERE expires_at > $1 AND id IN ({}) RETURNING id",
        placeholder_list(2, ids.len())
    );
    let mut q = sqlx::query_scalar::<_, String>(dynamic(sql)).bind(now);
    for id in ids {
        q = q.bind(id);
    }
    q.fetch_all(ex).await
}

/// Ends a person's LOOKING_FOR_TEAM when they join this roster, if it is
/// active; answers the ids ended.
pub async fn end_looking_for_team<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    user_id: &str,
    roster_id: &str,
    now: i64,
) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar(
        "UPDATE statuses SET expires_at = $3, updated_at = $3 \
         WHERE user_id = $1 AND entity_type = 'USER' AND type = 'LOOKING_FOR_TEAM' AND expires_at > $3 \
           AND EXISTS (SELECT 1 FROM rosters r WHERE r.id = $2 AND r.status = 'ACTIVE') RETURNING id",
    )
    .bind(user_id)
    .bind(roster_id)
    .bind(now)
    .fetch_all(ex)
    .await
}

/// Ends the LOOKING_FOR_TEAM of everyone on a roster that just became
/// active; answers the ids ended.
pub async fn end_looking_for_team_of_roster<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    roster_id: &str,
    now: i64,
) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar(
        "UPDATE statuses SET expires_at = $2, updated_at = $2 \
         WHERE entity_type = 'USER' AND type = 'LOOKING_FOR_TEAM' AND expires_at > $2 \
           AND user_id IN (SELECT rp.user_id FROM roster_players rp WHERE rp.roster_id = $1) \
           AND EXISTS (SELECT 1 FROM rosters r WHERE r.id = $1 AND r.status = 'ACTIVE') RETURNING id",
    )
    .bind(roster_id)
    .bind(now)
    .fetch_all(ex)
    .await
}

/// Deletes statuses that ended before `before` (lazy clean-up).
pub async fn purge_ended<'e, E: Executor<'e, Database = Any>>(ex: E, before: i64) -> Result<u64, sqlx::Error> {
    Ok(sqlx::query("DELETE FROM statuses WHERE expires_at < $1").bind(before).execute(ex).await?.rows_affected())
}

/// Calls for subs of an event that ended in `(since, now]` (answered,
/// cancelled or taken down by the batch that just committed).
pub async fn recently_ended_calls<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    event_id: &str,
    since: i64,
    now: i64,
) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT id FROM statuses WHERE event_id = $1 AND expires_at > $2 AND expires_at <= $3")
        .bind(event_id)
        .bind(since)
        .bind(now)
        .fetch_all(ex)
        .await
}

/// The active status a new one would repeat: a team's of the type (per
/// event for calls), an event's call. A person may keep several of their
/// own (a goalie tonight, a skater all week).
pub async fn active_duplicate<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    kind: StatusType,
    team_id: Option<&str>,
    event_id: Option<&str>,
    now: i64,
) -> Result<Option<String>, sqlx::Error> {
    if team_id.is_none() && event_id.is_none() {
        return Ok(None);
    }
    sqlx::query_scalar(
        "SELECT id FROM statuses WHERE type = $1 AND expires_at > $2 AND COALESCE(event_id, '') = $3 \
           AND (($4 <> '' AND team_id = $4) OR ($4 = '' AND team_id IS NULL)) LIMIT 1",
    )
    .bind(kind.as_str())
    .bind(now)
    .bind(event_id.unwrap_or(""))
    .bind(team_id.unwrap_or(""))
    .fetch_optional(ex)
    .await
}

/// The active calls for subs of these events, as `(status id, event id)`
/// (the RSVP batch's transaction: no levels, no summaries).
pub async fn active_calls<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    event_ids: &[&str],
    now: i64,
) -> Result<Vec<(String, String)>, sqlx::Error> {
    let sql = format!(
        "SELECT id, event_id FROM statuses WHERE type = 'LOOKING_FOR_SUBS' AND expires_at > $1 AND event_id IN ({})",
        placeholder_list(2, event_ids.len())
    );
    let mut q = sqlx::query_as::<_, (String, String)>(dynamic(sql)).bind(now);
    for id in event_ids {
        q = q.bind(*id);
    }
    q.fetch_all(ex).await
}
