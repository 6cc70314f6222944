//! The public game state (CONTRACT.md "Games"): the body of
//! `GET /games/{id}`, of every `POST /games/{id}/actions`, and the `data`
//! of every `game:ID` snapshot; and the small `data` of a `game:ID` update
//! (CONTRACT.md › Update frames stay small): the scoreboard and the last
//! [`LOG_TAIL`] entries, the same size however long the game has run.
//!
//! The contract's fields come first; `home` / `away` add names, players and
//! who dressed, which the arena display and the score keeper's pickers need
//! anyway. The log shows what stands: UNDO entries and the entries they
//! reverted are left out, so it reads as the story of the game.

use serde::{Deserialize, Serialize};

use super::model::{EntryKind, GameState, GameStatus, LogEntry, Period, RosterSide};
use crate::hockey::Position;
use crate::time::rfc3339_from_ms;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GameDocument {
    pub id: String,
    pub status: GameStatus,
    pub period: Option<Period>,
    pub home_score: i64,
    pub away_score: i64,
    pub home_roster_id: String,
    pub away_roster_id: String,
    pub version: i64,
    pub log: Vec<LogView>,
    pub home: TeamView,
    pub away: TeamView,
    /// A digest of both sides' players and who dressed (see [`GameUpdate`]).
    pub players_digest: String,
}

/// Log entries an update carries.
pub const LOG_TAIL: usize = 10;

/// A `game:ID` update: every scoreboard field and the tail of the log that
/// stands, no full log and no player lists. A client merges `logTail` by
/// `seq` (CONTRACT.md); when `playersDigest` differs from its snapshot's,
/// a lineup or a roster changed and it re-subscribes for a fresh snapshot.
/// (decided) The digest rather than the lists: lineups change a few times a
/// game at most, goals many times.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GameUpdate {
    pub id: String,
    pub status: GameStatus,
    pub period: Option<Period>,
    pub home_score: i64,
    pub away_score: i64,
    pub home_roster_id: String,
    pub away_roster_id: String,
    pub version: i64,
    pub home: TeamName,
    pub away: TeamName,
    /// The last entries of the log that stands, in `seq` order.
    pub log_tail: Vec<LogView>,
    pub players_digest: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TeamName {
    pub roster_id: String,
    pub name: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LogView {
    pub seq: i64,
    #[serde(rename = "type")]
    pub kind: EntryKind,
    pub period: Option<Period>,
    pub roster_id: Option<String>,
    /// GOAL: scorer (may be null); PENALTY: the penalised player.
    pub player_id: Option<String>,
    pub player_name: Option<String>,
    pub assist_ids: Vec<String>,
    pub assist_names: Vec<String>,
    pub minutes: Option<i64>,
    /// RFC 3339.
    pub created_at: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TeamView {
    pub roster_id: String,
    pub name: String,
    pub players: Vec<PlayerView>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PlayerView {
    pub user_id: String,
    pub display_name: String,
    pub jersey_number: Option<i64>,
    pub position: Option<Position>,
    pub dressed: bool,
}

impl GameState {
    /// The public document at this state's version.
    pub fn public_document(&self) -> GameDocument {
        GameDocument {
            id: self.game_id().to_owned(),
            status: self.status(),
            period: self.period(),
            home_score: self.home_score(),
            away_score: self.away_score(),
            home_roster_id: self.home().roster_id.clone(),
            away_roster_id: self.away().roster_id.clone(),
            version: self.version(),
            log: self
                .log()
                .iter()
                .filter(|e| e.kind != EntryKind::Undo && !e.undone)
                .map(|e| self.log_view(e))
                .collect(),
            home: team_view(self.home()),
            away: team_view(self.away()),
            players_digest: self.players_digest(),
        }
    }

    /// The update at this state's version (the last [`LOG_TAIL`] entries
    /// that stand, found from the end: the cost does not grow with the log).
    pub fn update_document(&self) -> GameUpdate {
        let mut log_tail: Vec<LogView> = self
            .log()
            .iter()
            .rev()
            .filter(|e| e.kind != EntryKind::Undo && !e.undone)
            .take(LOG_TAIL)
            .map(|e| self.log_view(e))
            .collect();
        log_tail.reverse();
        let name = |side: &RosterSide| TeamName { roster_id: side.roster_id.clone(), name: side.name.clone() };
        GameUpdate {
            id: self.game_id().to_owned(),
            status: self.status(),
            period: self.period(),
            home_score: self.home_score(),
            away_score: self.away_score(),
            home_roster_id: self.home().roster_id.clone(),
            away_roster_id: self.away().roster_id.clone(),
            version: self.version(),
            home: name(self.home()),
            away: name(self.away()),
            log_tail,
            players_digest: self.players_digest(),
        }
    }

    /// FNV-1a over both sides' players (id, name, number, position, dressed),
    /// as 16 hex digits: the same on every node for the same lists.
    fn players_digest(&self) -> String {
        const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
        const PRIME: u64 = 0x0100_0000_01b3;
        let mut hash = OFFSET;
        let mut eat = |bytes: &[u8]| {
            for b in bytes.iter().chain(&[0xff]) {
                hash = (hash ^ u64::from(*b)).wrapping_mul(PRIME);
            }
        };
        for side in [self.home(), self.away()] {
            eat(side.roster_id.as_bytes());
            for p in &side.players {
                eat(p.user_id.as_bytes());
                eat(p.display_name.as_bytes());
                eat(&p.jersey_number.unwrap_or(-1).to_le_bytes());
                eat(p.position.map_or("", |pos| pos.as_str()).as_bytes());
                eat(&[u8::from(side.is_dressed(&p.user_id))]);
            }
        }
        format!("{hash:016x}")
    }

    fn log_view(&self, entry: &LogEntry) -> LogView {
        let roster = entry.roster_id.as_deref().and_then(|r| self.side_of(r)).map(|side| self.side(side));
        let name = |user: &str| roster.and_then(|r| r.player(user)).map(|p| p.display_name.clone()).unwrap_or_default();
        LogView {
            seq: entry.seq,
            kind: entry.kind,
            period: entry.period,
            roster_id: entry.roster_id.clone(),
            player_id: entry.player_id.clone(),
            player_name: entry.player_id.as_deref().map(name),
            assist_ids: entry.assist_ids.clone(),
            assist_names: entry.assist_ids.iter().map(|a| name(a)).collect(),
            minutes: entry.minutes,
            created_at: rfc3339_from_ms(entry.created_at),
        }
    }
}

fn team_view(side: &RosterSide) -> TeamView {
    TeamView {
        roster_id: side.roster_id.clone(),
        name: side.name.clone(),
        players: side
            .players
            .iter()
            .map(|p| PlayerView {
                user_id: p.user_id.clone(),
                display_name: p.display_name.clone(),
                jersey_number: p.jersey_number,
                position: p.position,
                dressed: side.is_dressed(&p.user_id),
            })
            .collect(),
    }
}
