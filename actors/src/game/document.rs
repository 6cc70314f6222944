//! The public game state (CONTRACT.md "Games", docs/game-night.md): the
//! body of `GET /games/{id}`, of every `POST /games/{id}/actions`, and the
//! `data` of every `game:ID` snapshot; and the small `data` of a `game:ID`
//! update (CONTRACT.md › Update frames stay small): the scoreboard, the
//! clock, and only the entries added since the version it continues from.
//!
//! The contract's fields come first; `home` / `away` add names, players and
//! who dressed, which the arena display and the score keeper's pickers need
//! anyway. Log entries name players by id; names come from `home` / `away`.
//! The log shows what stands: UNDO entries and the entries they reverted
//! are left out, so it reads as the story of the game.

use serde::{Deserialize, Serialize};

use super::clock::{Clock, ClockPhase, ClockSettings};
use super::model::{EntryKind, GameState, GameStatus, Goalies, LogEntry, Period, RosterSide, Side};
use super::penalties::{PenaltyKind, Strength};
use crate::hockey::Position;

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
    pub settings: ClockSettings,
    pub clock: Clock,
    /// Penalties still to run, in the order they were called: each
    /// `[seq, startMs, endMs, short]` ([`PenaltyView`]).
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<Vec<i64>>))]
    pub penalties: Vec<PenaltyView>,
    pub goalies: Goalies,
    /// Shots on goal per period (1, 2, 3, OT; goals included).
    pub shots: Shots,
}

/// A `game:ID` update: what moved since version `since` (docs/game-night.md
/// › Snapshot and update). When `playersDigest` differs from its
/// snapshot's, a lineup or a roster changed and the client re-subscribes.
/// (decided) The digest rather than the lists: lineups change a few times a
/// game at most, goals many times. Shots are not repeated: each SHOT and
/// GOAL entry is one, so the client counts them as entries come and go.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GameUpdate {
    /// The version this update continues from; absent when it is
    /// `version − 1` (the usual case: one change, one update).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub since: Option<i64>,
    pub status: GameStatus,
    pub period: Option<Period>,
    pub home_score: i64,
    pub away_score: i64,
    pub version: i64,
    pub clock: ClockUpdate,
    pub players_digest: String,
    /// Entries added since `since`, in `seq` order (UNDO entries left out).
    pub entries: Vec<LogView>,
    /// Seqs taken back since `since`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub undone: Vec<i64>,
    /// The penalty state, always (it is small).
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<Vec<i64>>))]
    pub penalties: Vec<PenaltyView>,
    /// Only when a goalie changed since `since`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub goalies: Option<Goalies>,
}

/// The clock in an update: what moves during a period, and its shape
/// (phase, length, offset) only when that changed since the update's base.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClockUpdate {
    pub running: bool,
    pub remaining_ms: i64,
    pub at: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub phase: Option<ClockPhase>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub period_ms: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub offset_ms: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LogView {
    pub seq: i64,
    #[serde(rename = "type")]
    pub kind: EntryKind,
    pub period: Option<Period>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub clock_ms: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub roster_id: Option<String>,
    /// GOAL: scorer (may be null); PENALTY: the penalised player; GOALIE:
    /// the goalie now in net (null: pulled).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub player_id: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub assist_ids: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub minutes: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub penalty: Option<PenaltyKind>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub strength: Option<Strength>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub empty_net: bool,
}

/// A penalty still to run, in game time, as `[seq, startMs, endMs, short]`:
/// the PENALTY entry that called it, served from `startMs` (later than now
/// while it waits for a place) to `endMs`, and whether (1) or not (0) it
/// puts its side a skater short while served. (decided) A tuple, not an
/// object: it rides in every update, and a 5-on-3 goal's frame must stay
/// under 600 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PenaltyView(pub i64, pub i64, pub i64, pub u8);

impl PenaltyView {
    pub fn seq(&self) -> i64 {
        self.0
    }

    pub fn start_ms(&self) -> i64 {
        self.1
    }

    pub fn end_ms(&self) -> i64 {
        self.2
    }

    pub fn short(&self) -> bool {
        self.3 == 1
    }
}

/// Shots on goal per period, 1 to OT.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Shots {
    pub home: [i64; 4],
    pub away: [i64; 4],
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
            log: self.standing().map(log_view).collect(),
            home: team_view(self.home()),
            away: team_view(self.away()),
            players_digest: self.players_digest(),
            settings: self.settings(),
            clock: *self.clock(),
            penalties: self.penalty_views(),
            goalies: self.goalies().clone(),
            shots: self.shots(),
        }
    }

    /// The update of what changed after version `since` (or after this
    /// state was loaded, if later: whoever committed before published it).
    /// Its cost grows with what changed, not with the log.
    pub fn update_document(&self, since: i64) -> GameUpdate {
        let since = since.max(self.loaded_version);
        let new: Vec<&LogEntry> = self.log().iter().rev().take_while(|e| e.version > since).collect();
        let entries =
            new.iter().rev().filter(|e| e.kind != EntryKind::Undo && !e.undone).map(|e| log_view(e)).collect();
        let undone = new.iter().rev().filter_map(|e| e.undoes).collect();
        let clock = self.clock();
        let reshaped = self.clock_shape_at > since;
        GameUpdate {
            since: (since != self.version() - 1).then_some(since),
            status: self.status(),
            period: self.period(),
            home_score: self.home_score(),
            away_score: self.away_score(),
            version: self.version(),
            clock: ClockUpdate {
                running: clock.running,
                remaining_ms: clock.remaining_ms,
                at: clock.at,
                phase: reshaped.then_some(clock.phase),
                period_ms: reshaped.then_some(clock.period_ms),
                offset_ms: reshaped.then_some(clock.offset_ms),
            },
            players_digest: self.players_digest(),
            entries,
            undone,
            penalties: self.penalty_views(),
            goalies: (self.goalies_at > since).then(|| self.goalies().clone()),
        }
    }

    /// Penalties still to run as of the last thing this state knows of:
    /// the clock's last instant or the last timed entry, whichever is
    /// later in game time. (Screens hide the ones their own clock has run
    /// out since.)
    fn penalty_views(&self) -> Vec<PenaltyView> {
        let clock = self.clock();
        let last_entry = self.standing().rev().find(|e| e.kind.is_timed()).map_or(0, |e| self.game_ms_of(e));
        let now_ms = clock.game_ms_at(clock.at).max(last_entry);
        self.sheet().still_to_run(now_ms).map(|p| PenaltyView(p.seq, p.start_ms, p.end_ms, u8::from(p.short))).collect()
    }

    /// Shots on goal per period: SHOT entries and goals.
    fn shots(&self) -> Shots {
        let mut shots = Shots::default();
        for entry in self.standing().filter(|e| matches!(e.kind, EntryKind::Shot | EntryKind::Goal)) {
            let period = match entry.period {
                Some(Period::First) => 0,
                Some(Period::Second) => 1,
                Some(Period::Third) => 2,
                Some(Period::Overtime) => 3,
                // Shootout attempts are not shots on goal.
                Some(Period::Shootout) | None => continue,
            };
            match entry.roster_id.as_deref().and_then(|r| self.side_of(r)) {
                Some(Side::Home) => shots.home[period] += 1,
                Some(Side::Away) => shots.away[period] += 1,
                None => {}
            }
        }
        shots
    }

    /// FNV-1a over both sides' players (id, name, number, position, dressed),
    /// folded to 32 bits as 8 hex digits (it tells one version's lists from
    /// the next, nothing more): the same on every node for the same lists.
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
        format!("{:08x}", (hash >> 32) ^ (hash & 0xffff_ffff))
    }
}

fn log_view(entry: &LogEntry) -> LogView {
    LogView {
        seq: entry.seq,
        kind: entry.kind,
        period: entry.period,
        clock_ms: entry.clock_ms,
        roster_id: entry.roster_id.clone(),
        player_id: entry.player_id.clone(),
        assist_ids: entry.assist_ids.clone(),
        minutes: entry.minutes,
        penalty: entry.penalty,
        strength: entry.strength,
        empty_net: entry.empty_net,
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
