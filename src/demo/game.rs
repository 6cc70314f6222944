//! The demo's score keeper: a game's timeline of plays over its wall-clock
//! length (goals, penalties, shots; goalies never score), from seeded dice.

use super::*;

/// Plays games between the two sides for as long as the server runs, each
/// `length` long, with a pause for the ice between them (a third of a game).
pub(super) async fn keep_score(api: &Api, world: &World, length: Duration) -> Result<()> {
    let keeper = api.sign_in(RINK_OWNER).await?;
    let mut dice = Dice::seeded(Utc::now().timestamp_millis() as u64);
    // The game clock runs at the demo's pace: periods as long as its own.
    let minutes = |d: Duration| (d.as_secs_f64() / 60.0).round().max(1.0) as i64;
    let (period, intermission) = (minutes(length * 3 / 11), minutes(length / 11));
    loop {
        let game = api
            .create(
                &keeper,
                "/api/v1/games",
                json!({"homeRosterId": world.home.roster_id, "awayRosterId": world.away.roster_id,
                       "seasonId": world.season_id, "scheduledAt": rfc3339(Utc::now()),
                       "periodMinutes": period}),
            )
            .await?;
        tracing::info!(
            "demo: live game at /games/{game} — arena display at /display/game/{game}, score keeper console at /games/{game}/score"
        );
        let actions = format!("/api/v1/games/{game}/actions");
        let act = |body: Value| api.post(&keeper, &actions, body);
        let mut clock = Duration::ZERO;
        for beat in timeline(length, &mut dice) {
            tokio::time::sleep(beat.at.saturating_sub(clock)).await;
            clock = beat.at;
            let body = match beat.step {
                Step::Start => json!({"type": "START"}),
                Step::ClockStart => json!({"type": "CLOCK_START"}),
                Step::ClockStop => json!({"type": "CLOCK_STOP"}),
                Step::EndPeriod => json!({"type": "END_PERIOD"}),
                Step::Intermission => json!({"type": "INTERMISSION", "minutes": intermission}),
                Step::Final => json!({"type": "FINAL"}),
                Step::Goal => play(&mut dice, world, false),
                Step::Penalty => play(&mut dice, world, true),
                Step::Shot => shot(&mut dice, world),
            };
            let plays = matches!(beat.step, Step::Goal | Step::Penalty | Step::Shot);
            match act(body).await {
                Err(e) if plays => tracing::warn!(error = %format!("{e:#}"), "demo: a play was refused"),
                other => {
                    other?;
                }
            }
        }
        tokio::time::sleep(length / 3).await;
    }
}

/// One thing the demo's score keeper does during a game, in the order
/// they go when they fall on the same instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Step {
    Start,
    ClockStart,
    Goal,
    Penalty,
    Shot,
    ClockStop,
    EndPeriod,
    Intermission,
    Final,
}

/// A step and when it happens, from puck drop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Beat {
    pub(super) at: Duration,
    pub(super) step: Step,
}

/// One game's steps, in order, over `length` of wall time: three periods
/// with two intermissions a third of a period long (so a period is 3/11 of
/// the game), the clock started at each period's face-off and stopped at
/// its end, 3 to 7 goals, 1 to 4 penalties and 12 to 27 shots at random
/// moments inside the periods, never in an intermission, and FINAL at the
/// end of the 3rd.
pub(super) fn timeline(length: Duration, dice: &mut Dice) -> Vec<Beat> {
    let period = length * 3 / 11;
    let break_ = period / 3;
    let starts = [Duration::ZERO, period + break_, (period + break_) * 2];
    let beat = |at, step| Beat { at, step };
    let mut beats = vec![beat(Duration::ZERO, Step::Start)];
    for (n, start) in starts.iter().enumerate() {
        beats.push(beat(*start, Step::ClockStart));
        beats.push(beat(*start + period, Step::ClockStop));
        if n < 2 {
            beats.push(beat(*start + period, Step::EndPeriod));
            beats.push(beat(*start + period, Step::Intermission));
        }
    }
    beats.push(beat(length, Step::Final));
    let goals = MIN_GOALS + dice.below(EXTRA_GOALS);
    let penalties = MIN_PENALTIES + dice.below(EXTRA_PENALTIES);
    let shots = MIN_SHOTS + dice.below(EXTRA_SHOTS);
    let plays = (0..goals)
        .map(|_| Step::Goal)
        .chain((0..penalties).map(|_| Step::Penalty))
        .chain((0..shots).map(|_| Step::Shot));
    // Inside a period, clear of its first and last twentieth.
    let span = period.as_millis().max(20) as u64;
    for step in plays.collect::<Vec<_>>() {
        let start = starts[dice.below(3) as usize];
        let at = start + Duration::from_millis(span / 20 + dice.below(span * 9 / 10));
        beats.push(beat(at, step));
    }
    // At the same instant: START, the clock, plays, the period's end, FINAL.
    beats.sort_by_key(|b| (b.at, b.step));
    beats
}

/// A shot on goal by either side.
pub(super) fn shot(dice: &mut Dice, world: &World) -> Value {
    let side = if dice.below(2) == 0 { &world.home } else { &world.away };
    json!({"type": "SHOT", "rosterId": side.roster_id})
}

/// A play by a skater of either side: a goal (a scorer and usually one
/// assist) or a two-minute minor. Goalies never score, assist or get the
/// demo's penalties: the sides hold skaters only.
pub(super) fn play(dice: &mut Dice, world: &World, penalty: bool) -> Value {
    let side = if dice.below(2) == 0 { &world.home } else { &world.away };
    let skaters = &side.skaters;
    let pick = |dice: &mut Dice| skaters.get(dice.below(skaters.len() as u64) as usize).cloned();
    let Some(scorer) = pick(dice) else {
        return json!({"type": "GOAL", "rosterId": side.roster_id});
    };
    if penalty {
        return json!({"type": "PENALTY", "rosterId": side.roster_id, "playerId": scorer, "penalty": "MINOR"});
    }
    let assists: Vec<String> = pick(dice).filter(|a| *a != scorer).into_iter().collect();
    json!({"type": "GOAL", "rosterId": side.roster_id, "scorerId": scorer, "assistIds": assists})
}

/// A small xorshift generator: the demo's plays need variety, not secrecy.
pub(super) struct Dice(u64);

impl Dice {
    pub(super) fn seeded(seed: u64) -> Self {
        Dice(seed | 1)
    }

    /// A number in `0..n` (n > 0).
    pub(super) fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n.max(1)
    }
}
