//! `availability:ROSTER_ID` — a roster's availability board
//! (docs/availability.md): its rules and its next games, each with the
//! counts by group, what is short, and every player's answer. For the
//! roster's players and its team's staff. The snapshot is the board; an
//! update carries one game (`{"game":…}`) or, after a change of rules, the
//! whole board again (`{"rules","games"}`). Seq is the realtime clock
//! (`realtime::seq`).

use crate::db::Db;
use crate::db::availability::{self as rows, PlayerRow, RosterGame};
use crate::domain::availability::{Answer, AvailabilityRules, Counted, GroupCounts, PlayerGroup, group};
use crate::domain::{HockeyPosition, RosterCommitment, TeamRole};
use crate::error::AppError;
use crate::permissions::{self, Action};
use crate::realtime::pusher::Pusher;
use crate::realtime::topics::{Topic, TopicSource};
use crate::time::Clock;
use futures_util::future::BoxFuture;
use serde::Serialize;
use serde_json::json;
use std::collections::HashMap;

const HOUR_MS: i64 = 60 * 60 * 1000;
/// The board starts with a game on now…
const BOARD_BEHIND_MS: i64 = 3 * HOUR_MS;
/// …and looks this far ahead…
const BOARD_AHEAD_MS: i64 = 60 * 24 * HOUR_MS;
/// …for at most this many games.
const BOARD_GAMES: i64 = 10;

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Board {
    pub roster_id: String,
    pub rules: AvailabilityRules,
    /// Soonest first.
    pub games: Vec<GameAvailability>,
}

/// What is missing against the roster's minimums (0 when met or off).
#[derive(Debug, Clone, Copy, Serialize, utoipa::ToSchema)]
pub struct Short {
    pub skaters: i64,
    pub goalies: i64,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GameAvailability {
    pub game_id: String,
    /// `GAME`: a native league game; `EVENT`: an imported game's event.
    #[schema(pattern = "^(GAME|EVENT)$")]
    pub kind: String,
    pub title: String,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub starts_at: i64,
    pub time_zone: Option<String>,
    pub place: Option<String>,
    pub side: TeamRole,
    pub opponent: Option<String>,
    #[serde(with = "crate::time::rfc3339_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub locks_at: Option<i64>,
    pub locked: bool,
    pub counts: GroupCounts,
    pub short: Short,
    #[serde(with = "crate::time::rfc3339_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub nudged_at: Option<i64>,
    /// By group (skaters, defence, goalies, subs), then jersey, then name.
    pub players: Vec<PlayerAvailability>,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlayerAvailability {
    pub user_id: String,
    pub username: Option<String>,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub profile_image: Option<String>,
    pub position: Option<HockeyPosition>,
    pub jersey_number: Option<i64>,
    pub commitment_level: RosterCommitment,
    pub group: PlayerGroup,
    pub answer: Option<Answer>,
    #[serde(with = "crate::time::rfc3339_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub answered_at: Option<i64>,
    /// An "out" given after the lock.
    pub late: bool,
}

/// An answer row as the board reads it: a native answer, or an imported
/// game's RSVP (ATTENDING or WAITLISTED = in, DECLINED = out; a removal is
/// no answer).
fn answer_of(kind: &str, raw: &str) -> Option<Answer> {
    match (kind, raw) {
        ("GAME", raw) => Answer::parse(raw),
        (_, "ATTENDING" | "WAITLISTED") => Some(Answer::In),
        (_, "DECLINED") => Some(Answer::Out),
        _ => None,
    }
}

/// One game's availability for the roster, as of `now`.
pub async fn game_view(
    db: &Db,
    roster_id: &str,
    rules: &AvailabilityRules,
    players: &[PlayerRow],
    game: RosterGame,
    now: i64,
) -> Result<GameAvailability, AppError> {
    let answers = match game.kind.as_str() {
        "GAME" => rows::answers(&db.pool, roster_id, &game.id).await?,
        _ => rows::rsvps(&db.pool, roster_id, &game.id).await?,
    };
    let answers: HashMap<&str, &rows::AnswerRow> = answers.iter().map(|a| (a.user_id.as_str(), a)).collect();
    let locks_at = rules.locks_at(game.starts_at);
    let mut listed: Vec<PlayerAvailability> = players
        .iter()
        .map(|p| {
            let position = p.position.as_deref().and_then(|p| HockeyPosition::parse(p).ok());
            let commitment = RosterCommitment::parse(&p.commitment_level).unwrap_or(RosterCommitment::FullTime);
            let given = answers.get(p.user_id.as_str()).and_then(|a| answer_of(&game.kind, &a.answer).map(|x| (x, *a)));
            let late = given.is_some_and(|(answer, row)| {
                answer == Answer::Out && (row.late > 0 || locks_at.is_some_and(|at| row.answered_at >= at))
            });
            PlayerAvailability {
                user_id: p.user_id.clone(),
                username: p.username.clone(),
                first_name: p.first_name.clone(),
                last_name: p.last_name.clone(),
                profile_image: p.profile_image.clone(),
                position,
                jersey_number: p.jersey_number,
                commitment_level: commitment,
                group: group(position, commitment),
                answer: given.map(|(a, _)| a),
                answered_at: given.map(|(_, row)| row.answered_at),
                late,
            }
        })
        .collect();
    listed.sort_by(|a, b| {
        (a.group, a.jersey_number.is_none(), a.jersey_number, &a.first_name, &a.username).cmp(&(
            b.group,
            b.jersey_number.is_none(),
            b.jersey_number,
            &b.first_name,
            &b.username,
        ))
    });
    let counted: Vec<Counted> = listed
        .iter()
        .map(|p| Counted { position: p.position, commitment: p.commitment_level, answer: p.answer })
        .collect();
    let (skaters, goalies) = rules.short(&counted);
    Ok(GameAvailability {
        nudged_at: rows::nudged_at(&db.pool, roster_id, &game.id).await?,
        kind: game.kind,
        game_id: game.id,
        title: game.title,
        starts_at: game.starts_at,
        time_zone: game.time_zone,
        place: game.place,
        side: TeamRole::parse(&game.side).unwrap_or(TeamRole::Home),
        opponent: game.opponent,
        locks_at,
        locked: locks_at.is_some_and(|at| now >= at),
        counts: GroupCounts::of(&counted),
        short: Short { skaters, goalies },
        players: listed,
    })
}

/// One game of the roster by id; 404 when the roster or the game (of this
/// roster) is missing.
pub async fn one(db: &Db, roster_id: &str, game_id: &str, now: i64) -> Result<GameAvailability, AppError> {
    let roster = rows::rules(&db.pool, roster_id).await?.ok_or_else(|| AppError::not_found("roster"))?;
    let game = rows::game(&db.pool, roster_id, game_id).await?.ok_or_else(|| AppError::not_found("game"))?;
    let players = rows::players(&db.pool, roster_id).await?;
    game_view(db, roster_id, &roster.rules, &players, game, now).await
}

/// The roster's board as of `now`.
pub async fn board(db: &Db, roster_id: &str, now: i64) -> Result<Board, AppError> {
    let roster = rows::rules(&db.pool, roster_id).await?.ok_or_else(|| AppError::not_found("roster"))?;
    let players = rows::players(&db.pool, roster_id).await?;
    let upcoming =
        rows::upcoming(&db.pool, roster_id, now - BOARD_BEHIND_MS, now + BOARD_AHEAD_MS, BOARD_GAMES).await?;
    let mut games = Vec::with_capacity(upcoming.len());
    for game in upcoming {
        games.push(game_view(db, roster_id, &roster.rules, &players, game, now).await?);
    }
    Ok(Board { roster_id: roster_id.to_string(), rules: roster.rules, games })
}

/// Pushes one game's availability to the roster's board.
pub fn push_game(pusher: &Pusher, roster_id: &str, game: &GameAvailability) {
    let topic = Topic::availability(roster_id);
    if pusher.is_watched(&topic.bus_name()) {
        pusher.publish_item(&topic, crate::realtime::seq::next(), &json!({ "game": game }));
    }
}

/// Pushes the whole board (after a change of rules or of players).
pub async fn push_board(db: &Db, pusher: &Pusher, roster_id: &str, now: i64) -> Result<(), AppError> {
    let topic = Topic::availability(roster_id);
    if pusher.is_watched(&topic.bus_name()) {
        let b = board(db, roster_id, now).await?;
        pusher.publish_item(&topic, crate::realtime::seq::next(), &json!({"rules": b.rules, "games": b.games}));
    }
    Ok(())
}

pub struct AvailabilityTopic {
    pub db: Db,
    pub clock: Clock,
}

impl TopicSource for AvailabilityTopic {
    fn authorize<'a>(&'a self, viewer: Option<&'a str>, id: &'a str) -> BoxFuture<'a, Result<(), AppError>> {
        Box::pin(async move {
            if viewer.is_none() {
                return Err(AppError::unauthorized("sign in to follow a roster's availability"));
            }
            permissions::check(&self.db, viewer, Action::ReadAvailability { roster_id: id }).await
        })
    }

    fn snapshot<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<(i64, serde_json::Value), AppError>> {
        Box::pin(async move {
            let seq = crate::realtime::seq::next();
            let doc = board(&self.db, id, (self.clock)()).await?;
            Ok((seq, serde_json::to_value(doc).map_err(AppError::internal)?))
        })
    }

    fn is_private(&self) -> bool {
        true
    }
}
