//! The goals of a scoreboard round: who scores them ([`Scorer`]:
//! Rinkside's score keeper, or the floor sending Rinkside's frames), posted
//! open loop at a steady rate ([`post_goals`]), and what their answers
//! came to ([`Scored`]).

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Result;
use serde_json::json;
use tokio::task::JoinSet;
use tracing::warn;

use crate::api::Api;
use crate::baseline::{FloorClient, Mirror};
use crate::deliveries::Mark;
use crate::fleet::ErrorTally;
use crate::scenario::game::Game;
use crate::stats::Recorder;

/// The GOAL body for goal number `n`: sides alternate, scorers rotate, and
/// up to `assists` of the players after the scorer assist.
fn goal_body(game: &Game, n: usize, assists: usize) -> serde_json::Value {
    let (roster, players) = &game.sides[n % 2];
    let mut body = json!({ "type": "GOAL", "rosterId": roster });
    if !players.is_empty() {
        let scorer = (n / 2) % players.len();
        body["scorerId"] = json!(players[scorer]);
        let helpers: Vec<&String> =
            (1..players.len()).take(assists).map(|k| &players[(scorer + k) % players.len()]).collect();
        if !helpers.is_empty() {
            body["assistIds"] = json!(helpers);
        }
    }
    body
}

/// Who makes the goals: Rinkside's score keeper, or the floor's publish
/// endpoint sending the frames Rinkside sent for them.
#[derive(Clone)]
pub enum Scorer {
    Rinkside { api: Api, token: String, game: Arc<Game>, assists: usize },
    Floor { client: FloorClient, topic: Arc<str>, mirror: Arc<Mirror> },
}

impl Scorer {
    /// Goal number `n`: the seq (version) its update carries.
    async fn score(&self, n: usize) -> Result<u64> {
        match self {
            Scorer::Rinkside { api, token, game, assists } => {
                Ok(api.game_action(token, &game.id, goal_body(game, n, *assists)).await?.version)
            }
            Scorer::Floor { client, topic, mirror } => Ok(client.publish(topic, mirror.update(n)).await?.seq),
        }
    }
}

pub struct Posted {
    sent_at: Instant,
    answered_at: Instant,
    result: Result<u64>,
}

/// Posts `goals` goals at `rate` per second, each in its own task so a slow
/// answer never delays the next goal (open loop).
pub async fn post_goals(scorer: Scorer, goals: usize, rate: f64) -> Vec<Posted> {
    let period = Duration::from_secs_f64(1.0 / rate);
    let mut tick = tokio::time::interval(period);
    let mut posts = JoinSet::new();
    for n in 0..goals {
        tick.tick().await;
        let scorer = scorer.clone();
        posts.spawn(async move {
            let sent_at = Instant::now();
            let result = scorer.score(n).await;
            Posted { sent_at, answered_at: Instant::now(), result }
        });
    }
    let mut out = Vec::with_capacity(goals);
    while let Some(joined) = posts.join_next().await {
        match joined {
            Ok(p) => out.push(p),
            Err(e) => warn!("goal task failed: {e}"),
        }
    }
    out
}

/// What the goals' answers came to.
pub struct Scored {
    /// The accepted goals, by seq.
    pub marks: Vec<Mark>,
    /// Round trips of the accepted goals.
    pub round_trip: Recorder,
    pub errors: ErrorTally,
    /// From the first goal sent to the last.
    pub window: Duration,
}

impl Scored {
    pub fn of(posted: &[Posted]) -> Self {
        let mut scored = Scored {
            marks: Vec::new(),
            round_trip: Recorder::new(),
            errors: ErrorTally::default(),
            window: Duration::ZERO,
        };
        let (mut first_sent, mut last_sent) = (None::<Instant>, None::<Instant>);
        for p in posted {
            first_sent = Some(first_sent.map_or(p.sent_at, |f| f.min(p.sent_at)));
            last_sent = Some(last_sent.map_or(p.sent_at, |l| l.max(p.sent_at)));
            match &p.result {
                Ok(seq) => {
                    scored.round_trip.record(p.answered_at.saturating_duration_since(p.sent_at));
                    scored.marks.push(Mark { seq: *seq, sent_at: p.sent_at });
                }
                Err(e) => scored.errors.add(&format!("{e:#}")),
            }
        }
        scored.marks.sort_by_key(|m| m.seq);
        if let (Some(f), Some(l)) = (first_sent, last_sent) {
            scored.window = l.saturating_duration_since(f);
        }
        scored
    }

    /// Goals per second achieved: n goals posted over the n−1 gaps between
    /// the first and the last.
    pub fn rate(&self) -> f64 {
        let accepted = self.marks.len();
        if accepted > 1 && !self.window.is_zero() { (accepted - 1) as f64 / self.window.as_secs_f64() } else { 0.0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn goals_alternate_sides_and_rotate_scorers() {
        let game = Game {
            id: "g".into(),
            sides: [("home".into(), vec!["h0".into(), "h1".into()]), ("away".into(), vec!["a0".into()])],
        };
        let bodies: Vec<_> = (0..4).map(|n| goal_body(&game, n, 0)).collect();
        assert_eq!(bodies[0], json!({"type":"GOAL","rosterId":"home","scorerId":"h0"}));
        assert_eq!(bodies[1], json!({"type":"GOAL","rosterId":"away","scorerId":"a0"}));
        assert_eq!(bodies[2], json!({"type":"GOAL","rosterId":"home","scorerId":"h1"}));
        assert_eq!(bodies[3], json!({"type":"GOAL","rosterId":"away","scorerId":"a0"}));
    }

    #[test]
    fn assists_go_to_the_players_after_the_scorer_never_the_scorer() {
        let game = Game {
            id: "g".into(),
            sides: [("home".into(), vec!["h0".into(), "h1".into(), "h2".into()]), ("away".into(), vec!["a0".into()])],
        };
        assert_eq!(goal_body(&game, 2, 2)["assistIds"], json!(["h2", "h0"]));
        assert_eq!(goal_body(&game, 0, 1)["assistIds"], json!(["h1"]));
        // A roster of one has nobody to assist.
        assert_eq!(goal_body(&game, 1, 2), json!({"type":"GOAL","rosterId":"away","scorerId":"a0"}));
    }
}
