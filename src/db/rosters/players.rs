//! A roster's players: their rows, what they hold (jersey numbers and
//! letters) for the roster rules to check against, and their writes. Every
//! write runs after [`super::bump`] locked the roster.

use crate::db::users::{SUMMARY_COLUMNS, UserSummaryRow};
use crate::db::{dynamic, flag, new_id, now_ms};
use sqlx::{Any, AnyConnection, Executor, FromRow};

#[derive(Debug, Clone, FromRow)]
pub struct PlayerRow {
    pub id: String,
    pub roster_id: String,
    pub user_id: String,
    pub jersey_number: Option<i64>,
    pub position: Option<String>,
    pub commitment_level: String,
    pub captain: i64,
    pub alternate_captain: i64,
    pub goals: i64,
    pub assists: i64,
    pub penalty_minutes: i64,
    pub games_played: i64,
    pub joined_at: i64,
    pub created_at: i64,
    pub updated_at: i64,
    #[sqlx(flatten)]
    pub details: StatDetails,
    #[sqlx(flatten)]
    pub user: UserSummaryRow,
}

/// What the game log adds to the seed's statistics (docs/game-night.md ›
/// Statistics): power-play and short-handed goals, penalty minutes by kind
/// (`penaltyMinutes` stays the total), and a goalie's shots and goals
/// against and time in net, from which saves, save percentage and GAA.
#[derive(Debug, Clone, Default, PartialEq, Eq, FromRow, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StatDetails {
    pub pp_goals: i64,
    pub sh_goals: i64,
    pub minor_pim: i64,
    pub major_pim: i64,
    /// Misconducts and game misconducts.
    pub misconduct_pim: i64,
    pub shots_against: i64,
    pub goals_against: i64,
    /// Time in net, ms of game time.
    pub goalie_ms: i64,
}

impl StatDetails {
    pub fn add(&mut self, o: &StatDetails) {
        self.pp_goals += o.pp_goals;
        self.sh_goals += o.sh_goals;
        self.minor_pim += o.minor_pim;
        self.major_pim += o.major_pim;
        self.misconduct_pim += o.misconduct_pim;
        self.shots_against += o.shots_against;
        self.goals_against += o.goals_against;
        self.goalie_ms += o.goalie_ms;
    }
}

/// [`StatDetails`]' columns of `roster_players p`.
pub const STAT_DETAIL_COLUMNS: &str = "p.pp_goals, p.sh_goals, p.minor_pim, p.major_pim, p.misconduct_pim, \
    p.shots_against, p.goals_against, p.goalie_ms";

fn select_players(where_clause: &str) -> String {
    format!(
        "SELECT p.id, p.roster_id, p.user_id, p.jersey_number, p.position, p.commitment_level, p.captain, p.alternate_captain, \
           p.goals, p.assists, p.penalty_minutes, p.games_played, p.joined_at, p.created_at, p.updated_at, \
           {STAT_DETAIL_COLUMNS}, {SUMMARY_COLUMNS} \
         FROM roster_players p JOIN users u ON u.id = p.user_id {where_clause}"
    )
}

/// A roster's players: by jersey number (none last), then by who joined first.
pub async fn players<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    roster_id: &str,
) -> Result<Vec<PlayerRow>, sqlx::Error> {
    let sql =
        select_players("WHERE p.roster_id = $1 ORDER BY (p.jersey_number IS NULL), p.jersey_number, p.joined_at, p.id");
    sqlx::query_as(dynamic(sql)).bind(roster_id).fetch_all(ex).await
}

pub async fn player<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    roster_id: &str,
    user_id: &str,
) -> Result<Option<PlayerRow>, sqlx::Error> {
    let sql = select_players("WHERE p.roster_id = $1 AND p.user_id = $2");
    sqlx::query_as(dynamic(sql)).bind(roster_id).bind(user_id).fetch_optional(ex).await
}

/// The fields a manager sets on a player (stats are the games' business).
#[derive(Debug, Clone)]
pub struct PlayerFields {
    pub jersey_number: Option<i64>,
    pub position: Option<String>,
    pub commitment_level: String,
    pub captain: bool,
    pub alternate_captain: bool,
}

/// What the roster's players hold, to check a change against (the player
/// being changed is among them; the rules skip their own holdings).
#[derive(Debug, Clone, Default)]
pub struct Holders {
    pub members: i64,
    /// Jersey number → user id.
    pub jerseys: Vec<(i64, String)>,
    pub captain: Option<String>,
    pub alternates: Vec<String>,
}

/// One player as the roster rules see them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holding {
    pub user_id: String,
    pub jersey_number: Option<i64>,
    pub captain: bool,
    pub alternate_captain: bool,
}

impl Holders {
    /// Tallies the roster's players. Kept apart from the query so the roster
    /// rules' tests build their view of a roster the way the handlers do.
    pub fn tally(players: Vec<Holding>) -> Holders {
        let mut h = Holders { members: i64::try_from(players.len()).unwrap_or(i64::MAX), ..Holders::default() };
        for p in players {
            if let Some(n) = p.jersey_number {
                h.jerseys.push((n, p.user_id.clone()));
            }
            if p.captain {
                h.captain = Some(p.user_id.clone());
            }
            if p.alternate_captain {
                h.alternates.push(p.user_id);
            }
        }
        h
    }
}

pub async fn holders(conn: &mut AnyConnection, roster_id: &str) -> Result<Holders, sqlx::Error> {
    let rows: Vec<(String, Option<i64>, i64, i64)> = sqlx::query_as(
        "SELECT user_id, jersey_number, captain, alternate_captain FROM roster_players WHERE roster_id = $1",
    )
    .bind(roster_id)
    .fetch_all(&mut *conn)
    .await?;
    let players = rows
        .into_iter()
        .map(|(user_id, jersey_number, captain, alternate)| Holding {
            user_id,
            jersey_number,
            captain: captain != 0,
            alternate_captain: alternate != 0,
        })
        .collect();
    Ok(Holders::tally(players))
}

pub async fn insert_player(
    conn: &mut AnyConnection,
    roster_id: &str,
    user_id: &str,
    f: &PlayerFields,
) -> Result<String, sqlx::Error> {
    let id = new_id();
    let now = now_ms();
    sqlx::query(
        "INSERT INTO roster_players (id, roster_id, user_id, jersey_number, position, commitment_level, captain, alternate_captain, \
           joined_at, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, $9)",
    )
    .bind(&id)
    .bind(roster_id)
    .bind(user_id)
    .bind(f.jersey_number)
    .bind(&f.position)
    .bind(&f.commitment_level)
    .bind(flag(f.captain))
    .bind(flag(f.alternate_captain))
    .bind(now)
    .execute(&mut *conn)
    .await?;
    Ok(id)
}

pub async fn replace_player(
    conn: &mut AnyConnection,
    roster_id: &str,
    user_id: &str,
    f: &PlayerFields,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE roster_players SET jersey_number = $3, position = $4, commitment_level = $5, captain = $6, alternate_captain = $7, \
           updated_at = $8 WHERE roster_id = $1 AND user_id = $2",
    )
    .bind(roster_id)
    .bind(user_id)
    .bind(f.jersey_number)
    .bind(&f.position)
    .bind(&f.commitment_level)
    .bind(flag(f.captain))
    .bind(flag(f.alternate_captain))
    .bind(now_ms())
    .execute(&mut *conn)
    .await?;
    Ok(())
}

pub async fn delete_player(conn: &mut AnyConnection, roster_id: &str, user_id: &str) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("DELETE FROM roster_players WHERE roster_id = $1 AND user_id = $2")
        .bind(roster_id)
        .bind(user_id)
        .execute(&mut *conn)
        .await?;
    Ok(done.rows_affected() > 0)
}
