//! The pure scoring decision core: `(state, command, who, now) → (new
//! state, log entry with its effects)`. No I/O.
//!
//! Rules (DESIGN.md, decided details marked "(decided)"):
//! - SCHEDULED → LIVE (START, period 1) → FINAL. POSTPONED / CANCELLED only
//!   before LIVE (decided: via [`GameCommand::Edit`], which can also put a
//!   postponed game back to SCHEDULED; CANCELLED is final).
//! - A SCHEDULED game accepts only START, SetLineup and Edit; a FINAL
//!   game only UNDO; a POSTPONED game only SetLineup and Edit.
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
//! - The clock (docs/game-night.md): CLOCK_START / CLOCK_STOP / CLOCK_SET /
//!   INTERMISSION change the clock, write no log entry and are not undone
//!   (UNDO means the last scoring entry). START sets the first period's
//!   clock, stopped; END_PERIOD stops the clock and sets the next period's;
//!   FINAL stops it. Their UNDO puts the clock back as it was, stopped.
//! - Timed entries (GOAL, PENALTY, SHOT, GOALIE) record the period and the
//!   time left (`clockMs`, default the clock now); (decided) not after the
//!   clock, not before the last timed entry that stands.
//! - A goal's strength, empty net and the penalty it ends are derived from
//!   the penalty box ([`super::penalties`]) and the goalies in net. START
//!   puts in each side's first dressed GOALIE; GOALIE changes or pulls one.
//!   Shots and goals against count for the goalie in net; FINAL adds each
//!   goalie's time in net.
//!
//! Where the rules live: this module holds the commands, the outcome,
//! [`Rejection`], [`decide`] and the dispatch of scoring actions (one log
//! entry each); what each scoring action writes is in `entries`, the clock
//! actions and an entry's time in `clock_actions`, the dressed lists in
//! `lineup`.

use serde::{Deserialize, Serialize};

use super::clock::GameSettings;
use super::clock_actions::{clock, entry_clock};
use super::edit::GameEdit;
use super::effects::GameEffects;
use super::entries::{Details, end_period, final_effects, goal, goalie, penalty, shot, start_effects, undo};
use super::lineup::set_lineup;
use super::model::{EntryKind, GameState, GameStatus, LogEntry, Period, Side};
use super::penalties::PenaltyKind;
use crate::error::ActorError;

/// The body of `POST /games/{id}/actions` (CONTRACT.md, docs/game-night.md),
/// tagged by `type`. Unknown fields are ignored here; the server's input
/// type may be stricter. `clock_ms` is the time left in the period when a
/// timed entry happened (default: the clock now); `at` is the server
/// instant a clock action takes effect (default: when it is decided; the
/// server fills it in on arrival, so a retry decides the same).
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
        #[serde(default)]
        clock_ms: Option<i64>,
    },
    Penalty {
        roster_id: String,
        player_id: String,
        /// Without `penalty`: 2, 4, 5 and 10 name the kind, anything else
        /// is `OTHER`.
        #[serde(default)]
        minutes: Option<i64>,
        #[serde(default)]
        penalty: Option<PenaltyKind>,
        #[serde(default)]
        clock_ms: Option<i64>,
    },
    Shot {
        roster_id: String,
        #[serde(default)]
        clock_ms: Option<i64>,
    },
    /// The goalie now in net for a roster; `None` pulls the goalie.
    Goalie {
        roster_id: String,
        #[serde(default)]
        player_id: Option<String>,
        #[serde(default)]
        clock_ms: Option<i64>,
    },
    EndPeriod,
    Final,
    Undo,
    ClockStart {
        #[serde(default)]
        at: Option<i64>,
    },
    ClockStop {
        #[serde(default)]
        at: Option<i64>,
    },
    ClockSet {
        remaining_ms: i64,
        #[serde(default)]
        at: Option<i64>,
    },
    Intermission {
        minutes: i64,
        #[serde(default)]
        at: Option<i64>,
    },
}

impl GameAction {
    /// Clock actions change the clock only: no log entry, no UNDO.
    pub fn is_clock(&self) -> bool {
        matches!(
            self,
            GameAction::ClockStart { .. }
                | GameAction::ClockStop { .. }
                | GameAction::ClockSet { .. }
                | GameAction::Intermission { .. }
        )
    }

    /// The instant a clock action names, to be filled in on arrival.
    pub fn at_mut(&mut self) -> Option<&mut Option<i64>> {
        match self {
            GameAction::ClockStart { at }
            | GameAction::ClockStop { at }
            | GameAction::ClockSet { at, .. }
            | GameAction::Intermission { at, .. } => Some(at),
            _ => None,
        }
    }
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
    /// A staff edit before the game goes live (a new time, a status, the
    /// game's own settings), decided whole (`super::edit`).
    Edit(GameEdit),
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
    /// A clock action moved the clock.
    pub clock_changed: bool,
    /// Configure replaced the game's own settings.
    pub settings: Option<GameSettings>,
}

impl GameOutcome {
    pub fn is_change(&self) -> bool {
        self.entry.is_some()
            || self.lineup.is_some()
            || self.status_changed
            || self.scheduled_at.is_some()
            || self.clock_changed
            || self.settings.is_some()
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
    pub(super) fn state(message: impl Into<String>) -> Self {
        Rejection::State(message.into())
    }

    pub(super) fn invalid(field: &'static str, message: impl Into<String>) -> Self {
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
/// How far back a clock action's `at` may lie (the console's tap).
pub const CLOCK_AT_WINDOW_MS: i64 = 2_000;
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
    let shape_before = state.clock().shape();
    let outcome = match command {
        GameCommand::Action(action) if action.is_clock() => clock(state, action, now_ms)?,
        GameCommand::Action(action) => act(state, action, actor_id, now_ms)?,
        GameCommand::SetLineup { roster_id, user_ids } => set_lineup(state, roster_id, user_ids)?,
        GameCommand::Edit(change) => super::edit::edit(state, change)?,
    };
    if outcome.is_change() {
        state.touch();
        // What an update since an older version must carry (see
        // `GameState::update_document`).
        let version = state.version();
        if let Some(entry) = &outcome.entry {
            if entry.effects.goalies.is_some() {
                state.goalies_at = version;
            }
            if let Some(last) = state.game.log.last_mut() {
                last.version = version;
            }
        }
        if state.clock().shape() != shape_before {
            state.clock_shape_at = version;
        }
    }
    Ok(outcome)
}

fn act(state: &mut GameState, action: &GameAction, actor_id: &str, now_ms: i64) -> Result<GameOutcome, Rejection> {
    check_status(state.status(), action)?;
    let (kind, details, effects) = match action {
        GameAction::Start => (EntryKind::Start, Details::default(), start_effects(state, now_ms)),
        GameAction::Goal { roster_id, scorer_id, assist_ids, clock_ms } => {
            let at = entry_clock(state, *clock_ms, now_ms)?;
            goal(state, roster_id, scorer_id.as_deref(), assist_ids, at)?
        }
        GameAction::Penalty { roster_id, player_id, minutes, penalty: kind, clock_ms } => {
            let at = entry_clock(state, *clock_ms, now_ms)?;
            penalty(state, roster_id, player_id, *minutes, *kind, at)?
        }
        GameAction::Shot { roster_id, clock_ms } => {
            let at = entry_clock(state, *clock_ms, now_ms)?;
            shot(state, roster_id, at)?
        }
        GameAction::Goalie { roster_id, player_id, clock_ms } => {
            let at = entry_clock(state, *clock_ms, now_ms)?;
            goalie(state, roster_id, player_id.as_deref(), at)?
        }
        GameAction::EndPeriod => end_period(state, now_ms)?,
        GameAction::Final => (EntryKind::Final, Details::default(), final_effects(state, now_ms)),
        GameAction::Undo => undo(state)?,
        GameAction::ClockStart { .. }
        | GameAction::ClockStop { .. }
        | GameAction::ClockSet { .. }
        | GameAction::Intermission { .. } => return Err(Rejection::state("not a scoring action")),
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
        clock_ms: details.clock_ms,
        penalty: details.penalty,
        strength: details.strength,
        empty_net: details.empty_net,
        releases: details.releases,
        undoes: details.undoes,
        undone: false,
        created_by: actor_id.to_owned(),
        created_at: now_ms,
        effects,
        version: 0,
    };
    state.next_seq += 1;
    apply(state, &entry.effects);
    if let Some(target) = entry.undoes
        && let Some(undone) = state.game.log.iter_mut().find(|e| e.seq == target)
    {
        undone.undone = true;
    }
    state.game.log.push(entry.clone());
    Ok(GameOutcome { undone: entry.undoes, entry: Some(entry), ..GameOutcome::default() })
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
    if let Some(change) = &effects.clock {
        game.clock = change.to;
    }
    if let Some(change) = &effects.goalies {
        state.goalies = change.to.clone();
    }
}

pub(super) fn side_of(state: &GameState, roster_id: &str) -> Result<Side, Rejection> {
    state
        .side_of(roster_id)
        .ok_or_else(|| Rejection::invalid("rosterId", format!("roster {roster_id} is not playing in this game")))
}

pub(super) fn dressed(state: &GameState, side: Side, user_id: &str, field: &'static str) -> Result<(), Rejection> {
    let roster = state.side(side);
    if roster.player(user_id).is_none() {
        return Err(Rejection::invalid(field, format!("{user_id} is not on roster {}", roster.roster_id)));
    }
    if !roster.is_dressed(user_id) {
        return Err(Rejection::invalid(field, format!("{user_id} is not dressed for this game")));
    }
    Ok(())
}
