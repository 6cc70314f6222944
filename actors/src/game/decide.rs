//! The pure scoring decision core: `(state, command, who, now) → (new
//! state, log entry with its effects)`. No I/O.
//!
//! Rules (DESIGN.md, decided details marked "(decided)"):
//! - SCHEDULED → LIVE (START, period 1) → FINAL. POSTPONED / CANCELLED only
//!   before LIVE (decided: via [`GameCommand::SetStatus`], which can also put a
//!   postponed game back to SCHEDULED; CANCELLED is final).
//! - A SCHEDULED game accepts only START, SetLineup and SetStatus; a FINAL
//!   game only UNDO; a POSTPONED game only SetLineup and SetStatus.
//! - END_PERIOD advances 1 → 2 → 3 → OT → SO and is rejected in SO. Overtime
//!   (and a shootout after it) is played only from a tie: END_PERIOD in the
//!   3rd or in OT with one side ahead records the end of that period without
//!   moving on (the game is over, FINAL next, in regulation or in OT), and a
//!   second END_PERIOD then is a `conflict` (issue 26: END 3RD at 1–0 used to
//!   put the game in OT, so its FINAL read "Final · OT"). A goal entered late
//!   that ties it lets the next END_PERIOD go on to OT.
//! - GOAL: the roster must be home or away; scorer optional; up to two
//!   distinct assists, none the scorer, (decided) none without a scorer. PENALTY:
//!   1..=60 minutes. (decided) Named players must be on that roster AND dressed, so
//!   nobody collects stats for a game they are not counted as playing.
//! - FINAL adds a game played to every dressed player of both sides and the
//!   result to both rosters (win 2 points, tie 1, loss 0). (decided) Games played
//!   are counted at FINAL rather than START, so a lineup can change during
//!   the game and an abandoned game counts nobody.
//! - UNDO reverts the last entry that is neither UNDO nor undone, applying
//!   its recorded effects negated (UNDO of FINAL restores LIVE and takes the
//!   stats back; UNDO of START returns to SCHEDULED). (decided) UNDO itself cannot
//!   be undone (no redo): re-enter the action instead.
//! - (decided) SetLineup (before FINAL) is not a log entry and not undoable, so
//!   UNDO always means "the last scoring action". It may not leave out a
//!   player who already has an entry in this game.
//! - (decided) Shootout goals are recorded like other goals.
//! - Versions: one bump per batch, as for events.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use super::effects::{Change, GameEffects, PlayerDelta, RosterDelta};
use super::model::{EntryKind, GameState, GameStatus, LogEntry, Period, Side};
use crate::error::ActorError;

/// The body of `POST /games/{id}/actions` (CONTRACT.md), tagged by `type`.
/// Unknown fields are ignored here; the server's input type may be
/// stricter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "SCREAMING_SNAKE_CASE", rename_all_fields = "camelCase")]
pub enum GameAction {
    Start,
    Goal {
        roster_id: String,
        #[serde(default)]
        scorer_id: Option<String>,
        #[serde(default)]
        assist_ids: Vec<String>,
    },
    Penalty {
        roster_id: String,
        player_id: String,
        minutes: i64,
    },
    EndPeriod,
    Final,
    Undo,
}

/// Everything the game aggregate accepts. Authorisation (score keepers,
/// managers) is the server's job before it sends one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameCommand {
    Action(GameAction),
    /// The players who dressed for one side (default: all roster players).
    SetLineup {
        roster_id: String,
        user_ids: Vec<String>,
    },
    /// SCHEDULED / POSTPONED / CANCELLED, only before the game goes live.
    SetStatus {
        status: GameStatus,
    },
    /// A new puck-drop time (epoch ms), only before the game goes live. The
    /// actor is the one writer of the game row and its version, so a
    /// reschedule goes through it like every other change.
    Reschedule {
        scheduled_at: i64,
    },
}

/// A replaced dressed list, for the store.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Lineup {
    pub roster_id: String,
    pub user_ids: Vec<String>,
}

/// What one decision changed, for the store.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameOutcome {
    /// The new log entry (every game action writes one).
    pub entry: Option<LogEntry>,
    /// UNDO: the seq now marked undone.
    pub undone: Option<i64>,
    pub lineup: Option<Lineup>,
    /// SetStatus changed the status (actions record theirs in the entry).
    pub status_changed: bool,
    /// Reschedule: the new puck-drop time to write.
    pub scheduled_at: Option<i64>,
}

impl GameOutcome {
    pub fn is_change(&self) -> bool {
        self.entry.is_some() || self.lineup.is_some() || self.status_changed || self.scheduled_at.is_some()
    }
}

/// Why a command was refused. Nothing in the state changed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Rejection {
    /// The command does not fit the game's status or period (`conflict`).
    #[error("{0}")]
    State(String),
    /// A field is wrong (`validation_failed`).
    #[error("{message}")]
    Invalid { field: &'static str, message: String },
}

impl Rejection {
    fn state(message: impl Into<String>) -> Self {
        Rejection::State(message.into())
    }

    fn invalid(field: &'static str, message: impl Into<String>) -> Self {
        Rejection::Invalid { field, message: message.into() }
    }
}

impl From<Rejection> for ActorError {
    fn from(r: Rejection) -> Self {
        match r {
            Rejection::State(message) => ActorError::Conflict(message),
            Rejection::Invalid { field, message } => ActorError::validation(field, message),
        }
    }
}

/// Most minutes one penalty may carry (a game misconduct is 10; 60 leaves
/// room for league-specific suspensions logged as minutes).
pub const MAX_PENALTY_MINUTES: i64 = 60;
/// Assists per goal in hockey.
pub const MAX_ASSISTS: usize = 2;

/// Decides one command against `state`, mutating it. On `Err` the state is
/// untouched.
pub fn decide(
    state: &mut GameState,
    command: &GameCommand,
    actor_id: &str,
    now_ms: i64,
) -> Result<GameOutcome, Rejection> {
    let outcome = match command {
        GameCommand::Action(action) => act(state, action, actor_id, now_ms)?,
        GameCommand::SetLineup { roster_id, user_ids } => set_lineup(state, roster_id, user_ids)?,
        GameCommand::SetStatus { status } => set_status(state, *status)?,
        GameCommand::Reschedule { scheduled_at } => reschedule(state, *scheduled_at)?,
    };
    if outcome.is_change() {
        state.touch();
    }
    Ok(outcome)
}

/// The fields of a log entry besides seq, kind and bookkeeping.
#[derive(Default)]
struct Details {
    roster_id: Option<String>,
    player_id: Option<String>,
    assist_ids: Vec<String>,
    minutes: Option<i64>,
    undoes: Option<i64>,
}

fn act(state: &mut GameState, action: &GameAction, actor_id: &str, now_ms: i64) -> Result<GameOutcome, Rejection> {
    check_status(state.status(), action)?;
    let (kind, details, effects) = match action {
        GameAction::Start => (EntryKind::Start, Details::default(), start_effects()),
        GameAction::Goal { roster_id, scorer_id, assist_ids } => {
            goal(state, roster_id, scorer_id.as_deref(), assist_ids)?
        }
        GameAction::Penalty { roster_id, player_id, minutes } => penalty(state, roster_id, player_id, *minutes)?,
        GameAction::EndPeriod => end_period(state)?,
        GameAction::Final => (EntryKind::Final, Details::default(), final_effects(state)),
        GameAction::Undo => undo(state)?,
    };

    // Checks are over; from here on the state changes.
    let period = match kind {
        EntryKind::Start => Some(Period::First),
        _ => state.period(),
    };
    let entry = LogEntry {
        seq: state.next_seq,
        kind,
        period,
        roster_id: details.roster_id,
        player_id: details.player_id,
        assist_ids: details.assist_ids,
        minutes: details.minutes,
        undoes: details.undoes,
        undone: false,
        created_by: actor_id.to_owned(),
        created_at: now_ms,
        effects,
    };
    state.next_seq += 1;
    apply(state, &entry.effects);
    if let Some(target) = entry.undoes
        && let Some(undone) = state.game.log.iter_mut().find(|e| e.seq == target)
    {
        undone.undone = true;
    }
    state.game.log.push(entry.clone());
    Ok(GameOutcome {
        undone: entry.undoes,
        entry: Some(entry),
        lineup: None,
        status_changed: false,
        scheduled_at: None,
    })
}

fn check_status(status: GameStatus, action: &GameAction) -> Result<(), Rejection> {
    match (status, action) {
        (GameStatus::Scheduled, GameAction::Start) => Ok(()),
        (GameStatus::Scheduled, _) => Err(Rejection::state("the game has not started")),
        (GameStatus::Live, GameAction::Start) => Err(Rejection::state("the game is already LIVE")),
        (GameStatus::Live, _) => Ok(()),
        (GameStatus::Final, GameAction::Undo) => Ok(()),
        (GameStatus::Final, _) => Err(Rejection::state("the game is FINAL; undo FINAL to change it")),
        (GameStatus::Postponed | GameStatus::Cancelled, _) => Err(Rejection::state(format!("the game is {status}"))),
    }
}

fn start_effects() -> GameEffects {
    GameEffects {
        status: Some(Change { from: GameStatus::Scheduled, to: GameStatus::Live }),
        period: Some(Change { from: None, to: Some(Period::First) }),
        ..GameEffects::default()
    }
}

fn goal(
    state: &GameState,
    roster_id: &str,
    scorer_id: Option<&str>,
    assist_ids: &[String],
) -> Result<(EntryKind, Details, GameEffects), Rejection> {
    let side = side_of(state, roster_id)?;
    if let Some(scorer) = scorer_id {
        dressed(state, side, scorer, "scorerId")?;
    }
    if assist_ids.len() > MAX_ASSISTS {
        return Err(Rejection::invalid("assistIds", "at most two assists"));
    }
    if !assist_ids.is_empty() && scorer_id.is_none() {
        return Err(Rejection::invalid("assistIds", "assists need a scorer"));
    }
    let mut seen = HashSet::new();
    for assist in assist_ids {
        if Some(assist.as_str()) == scorer_id {
            return Err(Rejection::invalid("assistIds", "the scorer cannot assist their own goal"));
        }
        if !seen.insert(assist.as_str()) {
            return Err(Rejection::invalid("assistIds", "assists must be two different players"));
        }
        dressed(state, side, assist, "assistIds")?;
    }

    let mut players = Vec::new();
    if let Some(scorer) = scorer_id {
        players.push(PlayerDelta {
            roster_id: roster_id.to_owned(),
            user_id: scorer.to_owned(),
            goals: 1,
            ..PlayerDelta::default()
        });
    }
    players.extend(assist_ids.iter().map(|a| PlayerDelta {
        roster_id: roster_id.to_owned(),
        user_id: a.clone(),
        assists: 1,
        ..PlayerDelta::default()
    }));
    let (home_score, away_score) = match side {
        Side::Home => (1, 0),
        Side::Away => (0, 1),
    };
    let details = Details {
        roster_id: Some(roster_id.to_owned()),
        player_id: scorer_id.map(str::to_owned),
        assist_ids: assist_ids.to_vec(),
        ..Details::default()
    };
    let effects = GameEffects { home_score, away_score, players, ..GameEffects::default() };
    Ok((EntryKind::Goal, details, effects))
}

fn penalty(
    state: &GameState,
    roster_id: &str,
    player_id: &str,
    minutes: i64,
) -> Result<(EntryKind, Details, GameEffects), Rejection> {
    let side = side_of(state, roster_id)?;
    dressed(state, side, player_id, "playerId")?;
    if !(1..=MAX_PENALTY_MINUTES).contains(&minutes) {
        return Err(Rejection::invalid("minutes", format!("minutes must be between 1 and {MAX_PENALTY_MINUTES}")));
    }
    let details = Details {
        roster_id: Some(roster_id.to_owned()),
        player_id: Some(player_id.to_owned()),
        minutes: Some(minutes),
        ..Details::default()
    };
    let effects = GameEffects {
        players: vec![PlayerDelta {
            roster_id: roster_id.to_owned(),
            user_id: player_id.to_owned(),
            penalty_minutes: minutes,
            ..PlayerDelta::default()
        }],
        ..GameEffects::default()
    };
    Ok((EntryKind::Penalty, details, effects))
}

fn end_period(state: &GameState) -> Result<(EntryKind, Details, GameEffects), Rejection> {
    let current = state.period();
    let tiebreak_next = matches!(current, Some(Period::Third | Period::Overtime));
    if tiebreak_next && state.home_score() != state.away_score() {
        if state.period_ended() {
            return Err(Rejection::state("the game is not tied, so there is no overtime or shootout; record FINAL"));
        }
        // The end of the deciding period: logged, but the period stays.
        return Ok((EntryKind::EndPeriod, Details::default(), GameEffects::default()));
    }
    let next =
        current.and_then(Period::next).ok_or_else(|| Rejection::state("there is no period after the shootout"))?;
    let effects = GameEffects { period: Some(Change { from: current, to: Some(next) }), ..GameEffects::default() };
    Ok((EntryKind::EndPeriod, Details::default(), effects))
}

fn final_effects(state: &GameState) -> GameEffects {
    let mut players = Vec::new();
    for side in [Side::Home, Side::Away] {
        let roster = state.side(side);
        players.extend(roster.dressed().map(|p| PlayerDelta {
            roster_id: roster.roster_id.clone(),
            user_id: p.user_id.clone(),
            games_played: 1,
            ..PlayerDelta::default()
        }));
    }
    let result = |roster_id: &str, ours: i64, theirs: i64| {
        let (wins, losses, ties, points) = match ours.cmp(&theirs) {
            std::cmp::Ordering::Greater => (1, 0, 0, 2),
            std::cmp::Ordering::Less => (0, 1, 0, 0),
            std::cmp::Ordering::Equal => (0, 0, 1, 1),
        };
        RosterDelta { roster_id: roster_id.to_owned(), wins, losses, ties, points }
    };
    GameEffects {
        status: Some(Change { from: GameStatus::Live, to: GameStatus::Final }),
        players,
        rosters: vec![
            result(&state.home().roster_id, state.home_score(), state.away_score()),
            result(&state.away().roster_id, state.away_score(), state.home_score()),
        ],
        ..GameEffects::default()
    }
}

fn undo(state: &GameState) -> Result<(EntryKind, Details, GameEffects), Rejection> {
    let target = state.last_undoable().ok_or_else(|| Rejection::state("there is nothing to undo"))?;
    let details = Details { undoes: Some(target.seq), ..Details::default() };
    Ok((EntryKind::Undo, details, target.effects.negated()))
}

/// Applies recorded effects to the game row (statistics live in the store).
fn apply(state: &mut GameState, effects: &GameEffects) {
    let game = &mut state.game;
    game.home_score += effects.home_score;
    game.away_score += effects.away_score;
    if let Some(change) = &effects.status {
        game.status = change.to;
    }
    if let Some(change) = &effects.period {
        game.period = change.to;
    }
}

fn set_lineup(state: &mut GameState, roster_id: &str, user_ids: &[String]) -> Result<GameOutcome, Rejection> {
    match state.status() {
        GameStatus::Scheduled | GameStatus::Live | GameStatus::Postponed => {}
        status => {
            return Err(Rejection::state(format!("the lineup cannot change once the game is {status}")));
        }
    }
    let side = side_of(state, roster_id)?;
    let roster = state.side(side);
    let mut seen = HashSet::new();
    for user in user_ids {
        if roster.player(user).is_none() {
            return Err(Rejection::invalid("userIds", format!("{user} is not on roster {roster_id}")));
        }
        if !seen.insert(user.as_str()) {
            return Err(Rejection::invalid("userIds", format!("{user} is listed twice")));
        }
    }
    if let Some(user) = players_with_entries(state, roster_id).find(|u| !seen.contains(u)) {
        return Err(Rejection::invalid(
            "userIds",
            format!("{user} has entries in this game's log and must stay dressed"),
        ));
    }
    if roster.lineup.as_deref() == Some(user_ids) {
        return Ok(GameOutcome::default());
    }
    state.side_mut(side).lineup = Some(user_ids.to_vec());
    Ok(GameOutcome {
        lineup: Some(Lineup { roster_id: roster_id.to_owned(), user_ids: user_ids.to_vec() }),
        ..GameOutcome::default()
    })
}

/// Players of a roster named by a live (not undone) GOAL or PENALTY.
fn players_with_entries<'a>(state: &'a GameState, roster_id: &'a str) -> impl Iterator<Item = &'a str> + 'a {
    state
        .log()
        .iter()
        .filter(move |e| !e.undone && e.roster_id.as_deref() == Some(roster_id))
        .flat_map(|e| e.player_id.iter().chain(e.assist_ids.iter()))
        .map(String::as_str)
}

fn set_status(state: &mut GameState, status: GameStatus) -> Result<GameOutcome, Rejection> {
    if matches!(status, GameStatus::Live | GameStatus::Final) {
        return Err(Rejection::invalid("status", "use the START and FINAL actions"));
    }
    let current = state.status();
    if !matches!(current, GameStatus::Scheduled | GameStatus::Postponed) {
        if current == status {
            return Ok(GameOutcome::default());
        }
        return Err(Rejection::state(format!("the game is {current}")));
    }
    if current == status {
        return Ok(GameOutcome::default());
    }
    state.game.status = status;
    Ok(GameOutcome { status_changed: true, ..GameOutcome::default() })
}

/// Only a game that has not started moves; a cancelled one may still get
/// its time corrected (it stays cancelled).
fn reschedule(state: &GameState, scheduled_at: i64) -> Result<GameOutcome, Rejection> {
    match state.status() {
        GameStatus::Scheduled | GameStatus::Postponed | GameStatus::Cancelled => {
            Ok(GameOutcome { scheduled_at: Some(scheduled_at), ..GameOutcome::default() })
        }
        _ => Err(Rejection::state("only a game that has not started can be rescheduled")),
    }
}

fn side_of(state: &GameState, roster_id: &str) -> Result<Side, Rejection> {
    state
        .side_of(roster_id)
        .ok_or_else(|| Rejection::invalid("rosterId", format!("roster {roster_id} is not playing in this game")))
}

fn dressed(state: &GameState, side: Side, user_id: &str, field: &'static str) -> Result<(), Rejection> {
    let roster = state.side(side);
    if roster.player(user_id).is_none() {
        return Err(Rejection::invalid(field, format!("{user_id} is not on roster {}", roster.roster_id)));
    }
    if !roster.is_dressed(user_id) {
        return Err(Rejection::invalid(field, format!("{user_id} is not dressed for this game")));
    }
    Ok(())
}
