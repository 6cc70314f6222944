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

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use super::clock::{ClockPhase, GameSettings, INTERMISSION_MINUTES};
use super::edit::GameEdit;
use super::effects::{Change, GameEffects, PlayerDelta, RosterDelta};
use super::model::{EntryKind, GameState, GameStatus, Goalies, LogEntry, Period, Side};
use super::penalties::{PenaltyKind, Strength};
use crate::error::ActorError;
use crate::hockey::Position;

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

/// The fields of a log entry besides seq, kind and bookkeeping.
#[derive(Default)]
struct Details {
    roster_id: Option<String>,
    player_id: Option<String>,
    assist_ids: Vec<String>,
    minutes: Option<i64>,
    undoes: Option<i64>,
    clock_ms: Option<i64>,
    penalty: Option<PenaltyKind>,
    strength: Option<Strength>,
    empty_net: bool,
    releases: Option<i64>,
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

/// The time left in the period for a timed entry: the one given, or the
/// clock's now. Not after the clock, not before the last timed entry.
fn entry_clock(state: &GameState, given: Option<i64>, now_ms: i64) -> Result<i64, Rejection> {
    let clock = state.clock();
    let left_now = match clock.phase {
        ClockPhase::Play => clock.remaining_at(now_ms),
        // In a break the period to come has not started.
        ClockPhase::Intermission => state.period().map_or(0, |p| state.settings().period_ms(p)),
    };
    let length = state.period().map_or(0, |p| state.settings().period_ms(p));
    let last = state.standing().rev().find(|e| e.kind.is_timed());
    let Some(clock_ms) = given else {
        // The clock set back past the last entry (a correction): the play
        // goes in at the last entry's time, so the log stays in order.
        let at_last = last.map_or(length, |e| game_ms(state, 0) - state.game_ms_of(e));
        return Ok(left_now.min(at_last.clamp(0, length)));
    };
    if !(0..=length).contains(&clock_ms) {
        return Err(Rejection::invalid("clockMs", format!("the period is {} long", mm_ss(length))));
    }
    if clock_ms < left_now {
        return Err(Rejection::invalid(
            "clockMs",
            format!("the clock has not got to {} yet (it shows {})", mm_ss(clock_ms), mm_ss(left_now)),
        ));
    }
    if let Some(last) = last
        && game_ms(state, clock_ms) < state.game_ms_of(last)
    {
        return Err(Rejection::invalid(
            "clockMs",
            format!(
                "the last entry is at {}; enter plays in order (UNDO back to fix an earlier one)",
                mm_ss(last.clock_ms.unwrap_or(0))
            ),
        ));
    }
    Ok(clock_ms)
}

/// `12:34` for messages.
fn mm_ss(ms: i64) -> String {
    let seconds = (ms.max(0) + 999) / 1000;
    format!("{}:{:02}", seconds / 60, seconds % 60)
}

/// CLOCK_START / CLOCK_STOP / CLOCK_SET / INTERMISSION.
fn clock(state: &mut GameState, action: &GameAction, now_ms: i64) -> Result<GameOutcome, Rejection> {
    if state.status() != GameStatus::Live {
        return Err(Rejection::state("the clock runs only while the game is LIVE"));
    }
    let current = *state.clock();
    let at = |given: &Option<i64>| given.unwrap_or(now_ms);
    let next = match action {
        GameAction::ClockStart { at: given } => {
            let at = at(given);
            match current.phase {
                ClockPhase::Intermission => {
                    let period = state.period().unwrap_or(Period::First);
                    state.settings().fresh(period, at).started(at)
                }
                ClockPhase::Play if current.running => {
                    return Err(Rejection::state("the clock is already running"));
                }
                ClockPhase::Play if current.remaining_at(at) == 0 => {
                    return Err(Rejection::state("no time is left in the period; record END_PERIOD"));
                }
                ClockPhase::Play => current.started(at),
            }
        }
        GameAction::ClockStop { at: given } => {
            if !current.running {
                return Err(Rejection::state("the clock is not running"));
            }
            current.stopped(at(given))
        }
        GameAction::ClockSet { remaining_ms, at: given } => {
            if current.phase != ClockPhase::Play {
                return Err(Rejection::state("the clock shows an intermission; start the period first"));
            }
            if !(0..=current.period_ms).contains(remaining_ms) {
                return Err(Rejection::invalid(
                    "remainingMs",
                    format!("between 0 and the period's {}", mm_ss(current.period_ms)),
                ));
            }
            current.set(*remaining_ms, at(given))
        }
        GameAction::Intermission { minutes, at: given } => {
            if !INTERMISSION_MINUTES.contains(minutes) {
                return Err(Rejection::invalid("minutes", "an intermission is 1 to 30 minutes"));
            }
            let fresh = state.period().map(|p| state.settings().period_ms(p)) == Some(current.remaining_ms);
            if current.running || !fresh {
                return Err(Rejection::state("an intermission comes after END_PERIOD, before the period's clock runs"));
            }
            current.intermission(*minutes, at(given))
        }
        _ => return Err(Rejection::state("not a clock action")),
    };
    state.game.clock = next;
    Ok(GameOutcome { clock_changed: true, ..GameOutcome::default() })
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

fn start_effects(state: &GameState, now_ms: i64) -> GameEffects {
    // Each side's first dressed goalie starts in net.
    let starter = |side: Side| {
        state.side(side).dressed().find(|p| p.position == Some(Position::Goalie)).map(|p| p.user_id.clone())
    };
    GameEffects {
        status: Some(Change { from: GameStatus::Scheduled, to: GameStatus::Live }),
        period: Some(Change { from: None, to: Some(Period::First) }),
        clock: Some(Change { from: *state.clock(), to: state.settings().fresh(Period::First, now_ms) }),
        goalies: Some(Change {
            from: state.goalies().clone(),
            to: Goalies { home: starter(Side::Home), away: starter(Side::Away) },
        }),
        ..GameEffects::default()
    }
}

/// The game time a timed entry at `clock_ms` of this period happens at.
fn game_ms(state: &GameState, clock_ms: i64) -> i64 {
    let period = state.period().unwrap_or(Period::First);
    let settings = state.settings();
    settings.offset_ms(period) + settings.period_ms(period) - clock_ms
}

fn goal(
    state: &GameState,
    roster_id: &str,
    scorer_id: Option<&str>,
    assist_ids: &[String],
    clock_ms: i64,
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

    // What the goal was: from the box at its game time, this goal included.
    let at_ms = game_ms(state, clock_ms);
    let mut plays = state.plays();
    let seq = state.next_seq;
    plays.push(super::penalties::Play::Goal { seq, side, at_ms });
    let call = super::penalties::run_unordered(plays).goal(seq).copied();
    let strength = call.map_or(Strength::Even, |c| c.strength);
    let shootout = state.period() == Some(Period::Shootout);
    let in_net = state.goalies().get(side.other()).map(str::to_owned);
    // An empty net is a pulled goalie, not a side nobody put a goalie in for.
    let theirs = state.side(side.other()).roster_id.as_str();
    let pulled = state
        .standing()
        .rev()
        .find(|e| e.kind == EntryKind::Goalie && e.roster_id.as_deref() == Some(theirs))
        .is_some_and(|e| e.player_id.is_none());

    let mut players = Vec::new();
    if let Some(scorer) = scorer_id {
        players.push(PlayerDelta {
            goals: 1,
            pp_goals: i64::from(strength == Strength::PowerPlay),
            sh_goals: i64::from(strength == Strength::ShortHanded),
            ..PlayerDelta::of(roster_id, scorer)
        });
    }
    players.extend(assist_ids.iter().map(|a| PlayerDelta { assists: 1, ..PlayerDelta::of(roster_id, a) }));
    if let Some(goalie) = &in_net {
        let roster = &state.side(side.other()).roster_id;
        players.push(PlayerDelta { shots_against: 1, goals_against: 1, ..PlayerDelta::of(roster, goalie) });
    }
    let (home_score, away_score) = match side {
        Side::Home => (1, 0),
        Side::Away => (0, 1),
    };
    let details = Details {
        roster_id: Some(roster_id.to_owned()),
        player_id: scorer_id.map(str::to_owned),
        assist_ids: assist_ids.to_vec(),
        clock_ms: Some(clock_ms),
        strength: Some(strength),
        empty_net: pulled && !shootout,
        releases: call.and_then(|c| c.releases),
        ..Details::default()
    };
    let effects = GameEffects { home_score, away_score, players, ..GameEffects::default() };
    Ok((EntryKind::Goal, details, effects))
}

fn penalty(
    state: &GameState,
    roster_id: &str,
    player_id: &str,
    minutes: Option<i64>,
    kind: Option<PenaltyKind>,
    clock_ms: i64,
) -> Result<(EntryKind, Details, GameEffects), Rejection> {
    let side = side_of(state, roster_id)?;
    dressed(state, side, player_id, "playerId")?;
    let (kind, minutes) = match (kind, minutes) {
        (None, None) => return Err(Rejection::invalid("penalty", "name the penalty (or its minutes)")),
        (Some(PenaltyKind::Other), None) => {
            return Err(Rejection::invalid("minutes", "an OTHER penalty needs its minutes"));
        }
        (Some(kind), None) => (kind, kind.minutes().unwrap_or(0)),
        (kind, Some(minutes)) => {
            if !(1..=MAX_PENALTY_MINUTES).contains(&minutes) {
                return Err(Rejection::invalid(
                    "minutes",
                    format!("minutes must be between 1 and {MAX_PENALTY_MINUTES}"),
                ));
            }
            let kind = kind.unwrap_or_else(|| PenaltyKind::from_minutes(minutes));
            if kind.minutes().is_some_and(|m| m != minutes) {
                return Err(Rejection::invalid(
                    "minutes",
                    format!("a {kind} is {} minutes", kind.minutes().unwrap_or(0)),
                ));
            }
            (kind, minutes)
        }
    };
    let details = Details {
        roster_id: Some(roster_id.to_owned()),
        player_id: Some(player_id.to_owned()),
        minutes: Some(minutes),
        clock_ms: Some(clock_ms),
        penalty: Some(kind),
        ..Details::default()
    };
    let charged = PlayerDelta { penalty_minutes: minutes, ..PlayerDelta::of(roster_id, player_id) };
    let charged = match kind {
        PenaltyKind::Minor | PenaltyKind::DoubleMinor => PlayerDelta { minor_pim: minutes, ..charged },
        PenaltyKind::Major => PlayerDelta { major_pim: minutes, ..charged },
        PenaltyKind::Misconduct | PenaltyKind::GameMisconduct => PlayerDelta { misconduct_pim: minutes, ..charged },
        PenaltyKind::Other => charged,
    };
    let effects = GameEffects { players: vec![charged], ..GameEffects::default() };
    Ok((EntryKind::Penalty, details, effects))
}

fn shot(state: &GameState, roster_id: &str, clock_ms: i64) -> Result<(EntryKind, Details, GameEffects), Rejection> {
    let side = side_of(state, roster_id)?;
    let players = match state.goalies().get(side.other()) {
        Some(goalie) => {
            vec![PlayerDelta { shots_against: 1, ..PlayerDelta::of(&state.side(side.other()).roster_id, goalie) }]
        }
        None => Vec::new(),
    };
    let details = Details { roster_id: Some(roster_id.to_owned()), clock_ms: Some(clock_ms), ..Details::default() };
    Ok((EntryKind::Shot, details, GameEffects { players, ..GameEffects::default() }))
}

fn goalie(
    state: &GameState,
    roster_id: &str,
    player_id: Option<&str>,
    clock_ms: i64,
) -> Result<(EntryKind, Details, GameEffects), Rejection> {
    let side = side_of(state, roster_id)?;
    if let Some(player) = player_id {
        dressed(state, side, player, "playerId")?;
        if state.side(side.other()).player(player).is_some() {
            return Err(Rejection::invalid("playerId", "that player is on the other side"));
        }
    }
    if state.goalies().get(side) == player_id {
        let message = match player_id {
            Some(_) => "that goalie is already in net",
            None => "the net is already empty",
        };
        return Err(Rejection::state(message));
    }
    let details = Details {
        roster_id: Some(roster_id.to_owned()),
        player_id: player_id.map(str::to_owned),
        clock_ms: Some(clock_ms),
        ..Details::default()
    };
    let to = state.goalies().with(side, player_id.map(str::to_owned));
    let effects = GameEffects { goalies: Some(Change { from: state.goalies().clone(), to }), ..GameEffects::default() };
    Ok((EntryKind::Goalie, details, effects))
}

fn end_period(state: &GameState, now_ms: i64) -> Result<(EntryKind, Details, GameEffects), Rejection> {
    let current = state.period();
    let clock = *state.clock();
    let tiebreak_next = matches!(current, Some(Period::Third | Period::Overtime));
    if tiebreak_next && state.home_score() != state.away_score() {
        if state.period_ended() {
            return Err(Rejection::state("the game is not tied, so there is no overtime or shootout; record FINAL"));
        }
        // The end of the deciding period: logged, but the period stays.
        let effects =
            GameEffects { clock: Some(Change { from: clock, to: clock.stopped(now_ms) }), ..GameEffects::default() };
        return Ok((EntryKind::EndPeriod, Details::default(), effects));
    }
    let next =
        current.and_then(Period::next).ok_or_else(|| Rejection::state("there is no period after the shootout"))?;
    let effects = GameEffects {
        period: Some(Change { from: current, to: Some(next) }),
        // UNDO brings back the clock as it was, stopped.
        clock: Some(Change { from: clock.stopped(now_ms), to: state.settings().fresh(next, now_ms) }),
        ..GameEffects::default()
    };
    Ok((EntryKind::EndPeriod, Details::default(), effects))
}

fn final_effects(state: &GameState, now_ms: i64) -> GameEffects {
    let mut players = Vec::new();
    for side in [Side::Home, Side::Away] {
        let roster = state.side(side);
        players.extend(
            roster.dressed().map(|p| PlayerDelta { games_played: 1, ..PlayerDelta::of(&roster.roster_id, &p.user_id) }),
        );
    }
    players.extend(time_in_net(state, now_ms));
    // One delta per player: a goalie's time beside his game played.
    let players = super::effects::sum_player_deltas(&players);
    let result = |roster_id: &str, ours: i64, theirs: i64| {
        let (wins, losses, ties, points) = match ours.cmp(&theirs) {
            std::cmp::Ordering::Greater => (1, 0, 0, 2),
            std::cmp::Ordering::Less => (0, 1, 0, 0),
            std::cmp::Ordering::Equal => (0, 0, 1, 1),
        };
        RosterDelta { roster_id: roster_id.to_owned(), wins, losses, ties, points }
    };
    let clock = *state.clock();
    GameEffects {
        status: Some(Change { from: GameStatus::Live, to: GameStatus::Final }),
        players,
        rosters: vec![
            result(&state.home().roster_id, state.home_score(), state.away_score()),
            result(&state.away().roster_id, state.away_score(), state.home_score()),
        ],
        clock: Some(Change { from: clock, to: clock.stopped(now_ms) }),
        ..GameEffects::default()
    }
}

/// Each goalie's time in net, in game time, from the goalies START put in
/// and every GOALIE change that stands, to the game time now.
fn time_in_net(state: &GameState, now_ms: i64) -> Vec<PlayerDelta> {
    let end_ms = state.clock().game_ms_at(now_ms);
    let mut changes: Vec<(i64, &Goalies)> = Vec::new();
    for entry in state.standing() {
        if let Some(change) = &entry.effects.goalies {
            let at = if entry.kind == EntryKind::Start { 0 } else { state.game_ms_of(entry) };
            changes.push((at, &change.to));
        }
    }
    let mut deltas: Vec<PlayerDelta> = Vec::new();
    for side in [Side::Home, Side::Away] {
        let roster_id = &state.side(side).roster_id;
        for (i, (from_ms, goalies)) in changes.iter().enumerate() {
            let until_ms = changes.get(i + 1).map_or(end_ms, |(at, _)| *at);
            let Some(goalie) = goalies.get(side) else { continue };
            let ms = (until_ms - from_ms).max(0);
            match deltas.iter_mut().find(|d| d.user_id == goalie && &d.roster_id == roster_id) {
                Some(d) => d.goalie_ms += ms,
                None => deltas.push(PlayerDelta { goalie_ms: ms, ..PlayerDelta::of(roster_id, goalie) }),
            }
        }
    }
    deltas.retain(|d| d.goalie_ms > 0);
    deltas
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
    if let Some(change) = &effects.clock {
        game.clock = change.to;
    }
    if let Some(change) = &effects.goalies {
        state.goalies = change.to.clone();
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
