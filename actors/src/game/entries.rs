//! What each scoring action writes: the details of its log entry and its
//! effects (score, statistics, period, clock, goalies), checked against
//! the game as it stands. Pure: [`super::decide`] turns them into the
//! entry and applies them.

use std::collections::HashSet;

use super::clock::Clock;
use super::clock_actions::game_ms;
use super::decide::{MAX_ASSISTS, MAX_PENALTY_MINUTES, Rejection, dressed, side_of};
use super::effects::{Change, GameEffects, PlayerDelta, RosterDelta};
use super::model::{EntryKind, GameState, GameStatus, Goalies, Period, Side};
use super::penalties::{PenaltyKind, Strength};
use crate::hockey::Position;

/// The fields of a log entry besides seq, kind and bookkeeping.
#[derive(Default)]
pub(super) struct Details {
    pub(super) roster_id: Option<String>,
    pub(super) player_id: Option<String>,
    pub(super) assist_ids: Vec<String>,
    pub(super) minutes: Option<i64>,
    pub(super) undoes: Option<i64>,
    pub(super) clock_ms: Option<i64>,
    pub(super) penalty: Option<PenaltyKind>,
    pub(super) strength: Option<Strength>,
    pub(super) empty_net: bool,
    pub(super) releases: Option<i64>,
}

pub(super) fn start_effects(state: &GameState, now_ms: i64) -> GameEffects {
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

pub(super) fn goal(
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
    players.extend(shot_against(state, side).map(|d| PlayerDelta { goals_against: 1, ..d }));
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

pub(super) fn penalty(
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

/// A shot by `side` against the goalie in the other net, if there is one.
fn shot_against(state: &GameState, side: Side) -> Option<PlayerDelta> {
    let goalie = state.goalies().get(side.other())?;
    Some(PlayerDelta { shots_against: 1, ..PlayerDelta::of(&state.side(side.other()).roster_id, goalie) })
}

pub(super) fn shot(
    state: &GameState,
    roster_id: &str,
    clock_ms: i64,
) -> Result<(EntryKind, Details, GameEffects), Rejection> {
    let side = side_of(state, roster_id)?;
    let players = shot_against(state, side).into_iter().collect();
    let details = Details { roster_id: Some(roster_id.to_owned()), clock_ms: Some(clock_ms), ..Details::default() };
    Ok((EntryKind::Shot, details, GameEffects { players, ..GameEffects::default() }))
}

pub(super) fn goalie(
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

pub(super) fn end_period(state: &GameState, now_ms: i64) -> Result<(EntryKind, Details, GameEffects), Rejection> {
    let current = state.period();
    let clock = *state.clock();
    let tiebreak_next = matches!(current, Some(Period::Third | Period::Overtime));
    if tiebreak_next && state.home_score() != state.away_score() {
        if state.period_ended() {
            return Err(Rejection::state("the game is not tied, so there is no overtime or shootout; record FINAL"));
        }
        // The end of the deciding period: logged, but the period stays.
        let effects = GameEffects { clock: Some(clock_stops(state, now_ms)), ..GameEffects::default() };
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

pub(super) fn final_effects(state: &GameState, now_ms: i64) -> GameEffects {
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
    GameEffects {
        status: Some(Change { from: GameStatus::Live, to: GameStatus::Final }),
        players,
        rosters: vec![
            result(&state.home().roster_id, state.home_score(), state.away_score()),
            result(&state.away().roster_id, state.away_score(), state.home_score()),
        ],
        clock: Some(clock_stops(state, now_ms)),
        ..GameEffects::default()
    }
}

/// The clock stopped where it stands (UNDO sets it back as it was).
fn clock_stops(state: &GameState, now_ms: i64) -> Change<Clock> {
    let clock = *state.clock();
    Change { from: clock, to: clock.stopped(now_ms) }
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

pub(super) fn undo(state: &GameState) -> Result<(EntryKind, Details, GameEffects), Rejection> {
    let target = state.last_undoable().ok_or_else(|| Rejection::state("there is nothing to undo"))?;
    let details = Details { undoes: Some(target.seq), ..Details::default() };
    Ok((EntryKind::Undo, details, target.effects.negated()))
}
