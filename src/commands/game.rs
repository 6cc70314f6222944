//! Commands to a game's actor: scoring actions, lineups, rescheduling and
//! status changes. The actor is the one writer of its game row and version.

use super::command_key;
use crate::auth::AuthUser;
use crate::error::{AppError, AppResult};
use crate::permissions::{self, Action};
use crate::realtime::topics::Topic;
use crate::state::AppState;
use rinkside_actors::Envelope;
use rinkside_actors::game::{
    CLOCK_AT_WINDOW_MS, GameAction, GameCommand, GameEdit, GameStatus, PenaltyKind, SettingsPatch,
};
use serde::Deserialize;
use serde_json::Value;

/// Most players one side may dress.
pub const MAX_LINEUP: usize = 60;

/// The body of `POST /games/{id}/actions` (CONTRACT.md,
/// docs/game-night.md), tagged by `type`.
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
#[serde(tag = "type", rename_all = "SCREAMING_SNAKE_CASE", deny_unknown_fields)]
pub enum GameActionInput {
    /// SCHEDULED → LIVE, period 1, its clock stopped; each side's first
    /// dressed goalie in net. (Field-less variants are written as empty
    /// structs so that unknown fields are refused for them too.)
    Start {},
    /// A goal for `rosterId`; the scorer is optional (an own goal or an
    /// unknown scorer), at most two distinct assists, which need a scorer.
    /// Strength, empty net and the penalty it ends are derived.
    #[serde(rename_all = "camelCase")]
    Goal {
        roster_id: String,
        #[serde(default)]
        scorer_id: Option<String>,
        /// At most two different players, not the scorer.
        #[serde(default)]
        #[schema(schema_with = assist_ids)]
        assist_ids: Vec<String>,
        /// Time left in the period when it happened (default: the clock now).
        #[serde(default, deserialize_with = "crate::domain::whole::optional_whole")]
        #[schema(minimum = 0)]
        clock_ms: Option<i64>,
    },
    /// A penalty to a dressed player of `rosterId`: `penalty` names it
    /// (MINOR 2, DOUBLE_MINOR 4, MAJOR 5, MISCONDUCT 10, GAME_MISCONDUCT 10);
    /// without it, `minutes` 2/4/5/10 name the first four and any other
    /// 1–60 is OTHER (counted, never timed).
    #[serde(rename_all = "camelCase")]
    Penalty {
        roster_id: String,
        player_id: String,
        #[serde(default, deserialize_with = "crate::domain::whole::optional_whole")]
        #[schema(minimum = 1, maximum = 60)]
        minutes: Option<i64>,
        #[serde(default)]
        penalty: Option<PenaltyKind>,
        #[serde(default, deserialize_with = "crate::domain::whole::optional_whole")]
        #[schema(minimum = 0)]
        clock_ms: Option<i64>,
    },
    /// A shot on goal by `rosterId`.
    #[serde(rename_all = "camelCase")]
    Shot {
        roster_id: String,
        #[serde(default, deserialize_with = "crate::domain::whole::optional_whole")]
        #[schema(minimum = 0)]
        clock_ms: Option<i64>,
    },
    /// The goalie now in net for `rosterId` (a dressed player), or null to
    /// pull the goalie.
    #[serde(rename_all = "camelCase")]
    Goalie {
        roster_id: String,
        #[serde(default)]
        player_id: Option<String>,
        #[serde(default, deserialize_with = "crate::domain::whole::optional_whole")]
        #[schema(minimum = 0)]
        clock_ms: Option<i64>,
    },
    /// 1 → 2 → 3 → OT → SO; stops the clock and sets the next period's.
    EndPeriod {},
    /// LIVE → FINAL: games played to every dressed player, the result to
    /// both rosters (win 2 points, tie 1, loss 0), each goalie's time in net.
    Final {},
    /// Reverts the last entry that is not an UNDO and not undone.
    Undo {},
    /// Runs the clock (in an intermission: ends it and runs the period's).
    ClockStart {},
    /// Stops the clock; `at` is the console's estimate of the server
    /// instant of the tap (taken when within the last 2 s).
    ClockStop {
        #[serde(default, deserialize_with = "crate::domain::whole::optional_whole")]
        at: Option<i64>,
    },
    /// Sets the time left in the period (a correction).
    #[serde(rename_all = "camelCase")]
    ClockSet {
        #[serde(deserialize_with = "crate::domain::whole::whole")]
        #[schema(minimum = 0)]
        remaining_ms: i64,
    },
    /// A break countdown of 1–30 minutes after END_PERIOD.
    Intermission {
        #[serde(deserialize_with = "crate::domain::whole::whole")]
        #[schema(minimum = 1, maximum = 30)]
        minutes: i64,
    },
}

/// `assistIds`: at most [`rinkside_actors::game::MAX_ASSISTS`] different
/// players (the actor also refuses the scorer among them).
fn assist_ids() -> utoipa::openapi::schema::Array {
    utoipa::openapi::schema::ArrayBuilder::new()
        .items(utoipa::openapi::schema::ObjectBuilder::new().schema_type(utoipa::openapi::schema::Type::String))
        .max_items(Some(rinkside_actors::game::MAX_ASSISTS))
        .unique_items(true)
        .description(Some("At most two different players, not the scorer."))
        .build()
}

impl GameActionInput {
    /// The actor's action, clock actions pinned to `now_ms` (the instant
    /// they arrived, or the console's tap within the last
    /// [`CLOCK_AT_WINDOW_MS`]), so a retry decides the same.
    pub fn into_action(self, now_ms: i64) -> GameAction {
        let at = Some(now_ms);
        match self {
            GameActionInput::Start {} => GameAction::Start,
            GameActionInput::Goal { roster_id, scorer_id, assist_ids, clock_ms } => {
                GameAction::Goal { roster_id, scorer_id, assist_ids, clock_ms }
            }
            GameActionInput::Penalty { roster_id, player_id, minutes, penalty, clock_ms } => {
                GameAction::Penalty { roster_id, player_id, minutes, penalty, clock_ms }
            }
            GameActionInput::Shot { roster_id, clock_ms } => GameAction::Shot { roster_id, clock_ms },
            GameActionInput::Goalie { roster_id, player_id, clock_ms } => {
                GameAction::Goalie { roster_id, player_id, clock_ms }
            }
            GameActionInput::EndPeriod {} => GameAction::EndPeriod,
            GameActionInput::Final {} => GameAction::Final,
            GameActionInput::Undo {} => GameAction::Undo,
            GameActionInput::ClockStart {} => GameAction::ClockStart { at },
            GameActionInput::ClockStop { at: tapped } => {
                let tapped = tapped.filter(|t| (now_ms - CLOCK_AT_WINDOW_MS..=now_ms).contains(t));
                GameAction::ClockStop { at: tapped.or(at) }
            }
            GameActionInput::ClockSet { remaining_ms } => GameAction::ClockSet { remaining_ms, at },
            GameActionInput::Intermission { minutes } => GameAction::Intermission { minutes, at },
        }
    }
}

/// One scoring action: scorers only; `client_id` (Idempotency-Key /
/// command id) makes a retry answer the first reply instead of applying
/// twice.
#[tracing::instrument(skip(state, me, input), fields(user = %me.id))]
pub async fn action(
    state: &AppState,
    me: &AuthUser,
    game_id: &str,
    input: GameActionInput,
    client_id: Option<&str>,
) -> AppResult<Value> {
    permissions::check(&state.db, Some(&me.id), Action::ScoreGame { game_id }).await?;
    // Scoring keys are scoped by game as well as by user (one score keeper
    // may run two games from one device).
    let key = command_key(&Topic::game(game_id).bus_name(), &me.id, client_id);
    // The digest is of the body as sent: a retry's clock instant differs.
    let replay = key.map(|key| (key, super::fingerprint(&input)));
    let action = input.into_action(crate::db::now_ms());
    send(state, me, game_id, GameCommand::Action(action), replay).await
}

/// The players who dressed for one side (scorers).
#[tracing::instrument(skip(state, me, user_ids), fields(user = %me.id))]
pub async fn set_lineup(
    state: &AppState,
    me: &AuthUser,
    game_id: &str,
    roster_id: String,
    user_ids: Vec<String>,
) -> AppResult<Value> {
    permissions::check(&state.db, Some(&me.id), Action::SetLineup { game_id, roster_id: &roster_id }).await?;
    if user_ids.is_empty() || user_ids.len() > MAX_LINEUP {
        return Err(AppError::field("userIds", format!("1 to {MAX_LINEUP} players")));
    }
    send(state, me, game_id, GameCommand::SetLineup { roster_id, user_ids }, None).await
}

/// A new time and/or status before the game goes live (staff). A refused
/// status change leaves the time alone: it is checked first.
#[tracing::instrument(skip(state, me), fields(user = %me.id))]
pub async fn reschedule(
    state: &AppState,
    me: &AuthUser,
    game_id: &str,
    scheduled_at: Option<&str>,
    status: Option<GameStatus>,
    settings: SettingsPatch,
) -> AppResult<()> {
    permissions::check(&state.db, Some(&me.id), Action::ManageGame { game_id }).await?;
    let scheduled_at = scheduled_at
        .map(|s| crate::time::parse_rfc3339_checked(s).map_err(|m| AppError::field("scheduledAt", m)))
        .transpose()?;
    let row = crate::db::games::get(&state.db.pool, game_id).await?.ok_or_else(|| AppError::not_found("game"))?;
    if let Some(at) = scheduled_at
        && let Some((start, end)) = crate::db::games::season::season_dates(&state.db.pool, &row.season_id).await?
    {
        crate::domain::dates::game_in_season(at, start, end).map_err(|m| AppError::field("scheduledAt", m))?;
    }
    let edit = GameEdit { scheduled_at, status, settings };
    if edit != GameEdit::default() {
        send(state, me, game_id, GameCommand::Edit(edit), None).await?;
    }
    Ok(())
}

async fn send(
    state: &AppState,
    me: &AuthUser,
    game_id: &str,
    command: GameCommand,
    replay: Option<(String, String)>,
) -> AppResult<Value> {
    // Only a command with a key is ever replayed, so only it has a digest.
    let mut envelope = Envelope::new(me.id.clone(), command);
    if let Some((key, fingerprint)) = replay {
        envelope = envelope.with_command_id(key).with_fingerprint(fingerprint);
    }
    let reply = state.realtime.games.send(game_id, envelope).await?;
    serde_json::to_value(reply).map_err(AppError::internal)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn action_bodies_parse_strictly() {
        let goal: GameActionInput =
            serde_json::from_value(json!({"type": "GOAL", "rosterId": "r", "scorerId": "s", "assistIds": ["a", "b"]}))
                .unwrap();
        assert!(matches!(goal.into_action(0), GameAction::Goal { assist_ids, .. } if assist_ids.len() == 2));
        let start: GameActionInput = serde_json::from_value(json!({"type": "START"})).unwrap();
        assert!(matches!(start.into_action(0), GameAction::Start));
        let end: GameActionInput = serde_json::from_value(json!({"type": "END_PERIOD"})).unwrap();
        assert!(matches!(end.into_action(0), GameAction::EndPeriod));
        assert!(
            serde_json::from_value::<GameActionInput>(json!({"type": "GOAL", "rosterId": "r", "bogus": 1})).is_err()
        );
        assert!(
            serde_json::from_value::<GameActionInput>(
                json!({"type": "PENALTY", "rosterId": "r", "playerId": "p", "minutes": 2.5})
            )
            .is_err()
        );
        assert!(
            serde_json::from_value::<GameActionInput>(
                json!({"type": "PENALTY", "rosterId": "r", "playerId": "p", "penalty": "SLASHING"})
            )
            .is_err()
        );
        assert!(serde_json::from_value::<GameActionInput>(json!({"type": "CLOCK_START", "at": 5})).is_err());
        assert!(serde_json::from_value::<GameActionInput>(json!({"type": "FIGHT"})).is_err());
        assert!(serde_json::from_value::<GameActionInput>(json!({"type": "UNDO", "seq": 3})).is_err());
    }

    #[test]
    fn a_clock_stop_keeps_the_consoles_tap_only_when_it_is_recent() {
        let stop = |at: i64| GameActionInput::ClockStop { at: Some(at) }.into_action(10_000);
        assert_eq!(stop(9_000), GameAction::ClockStop { at: Some(9_000) });
        assert_eq!(stop(5_000), GameAction::ClockStop { at: Some(10_000) }, "too old: the arrival counts");
        assert_eq!(stop(12_000), GameAction::ClockStop { at: Some(10_000) }, "in the future: the arrival counts");
    }
}
