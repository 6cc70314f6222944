//! What a chaos run sets up through the API before the load — events with
//! limited places, users, a started game — and the final state read back
//! from every node after it ([`Final`]), which must agree.

use anyhow::{Context, Result};
use serde_json::Value;

use crate::api::{Api, Attendees, Session};
use crate::chaos_check::{normalize_event, normalize_game};
use crate::cli::ChaosArgs;
use crate::scenario::game::{Names, set_up_game};

/// Setup calls in flight at once.
const SETUP_CONCURRENCY: usize = 8;

pub struct Setup {
    pub organiser: Session,
    pub users: Vec<Session>,
    pub events: Vec<String>,
    pub game_id: String,
    pub rosters: [String; 2],
}

pub async fn set_up(api: &Api, tag: &str, args: &ChaosArgs) -> Result<Setup> {
    let organiser = api.dev_token(&format!("ch{tag}org")).await?;
    let t = &organiser.token;
    let mut events = Vec::new();
    for i in 0..args.events {
        events.push(api.create_event(t, &format!("Chaos skate #{i}"), Some(args.skaters), Some(args.goalies)).await?);
    }
    let users = api.sign_in_many(args.users, SETUP_CONCURRENCY, |i| format!("ch{tag}u{i}")).await?;
    let names = Names { facility: "Chaos Arena", season: "Chaos", team: "Chaos" };
    let game = set_up_game(api, &organiser, &names, tag, 0).await?;
    let [(home, _), (away, _)] = game.sides;
    Ok(Setup { organiser, users, events, game_id: game.id, rosters: [home, away] })
}

/// The final state, as the nodes serve it.
pub struct Final {
    /// Each event's attendees (node 0's).
    pub docs: Vec<Attendees>,
    /// The game (node 0's).
    pub game: Value,
    /// Per topic — the events', then the game's — the final version and the
    /// normalized document every subscriber must converge to.
    pub truth: Vec<(u64, Value)>,
    /// Where another node serves something else than node 0.
    pub nodes_disagree: Vec<String>,
}

impl Final {
    /// Reads the final state from every node of `urls`.
    pub async fn read(urls: &[String], setup: &Setup) -> Result<Self> {
        let mut finals = Vec::new();
        for u in urls {
            finals.push(read_node(&Api::new(u)?, setup).await?);
        }
        let (docs, raw_events, game) = finals[0].clone();
        let nodes_disagree = disagreements(&finals);
        let mut truth: Vec<(u64, Value)> =
            raw_events.iter().map(|d| (d["version"].as_u64().unwrap_or(0), normalize_event(d))).collect();
        truth.push((game["version"].as_u64().unwrap_or(0), normalize_game(&game)));
        Ok(Self { docs, game, truth, nodes_disagree })
    }
}

/// The final state as one node serves it: each event's attendees (typed
/// and raw), the game.
async fn read_node(api: &Api, setup: &Setup) -> Result<(Vec<Attendees>, Vec<Value>, Value)> {
    let mut docs = Vec::new();
    let mut raw = Vec::new();
    for e in &setup.events {
        let doc: Value = api.get_value(&format!("/api/v1/events/{e}/attendees"), &setup.organiser.token).await?;
        docs.push(serde_json::from_value(doc.clone()).context("attendees document")?);
        raw.push(doc);
    }
    let game = api.get_value(&format!("/api/v1/games/{}", setup.game_id), &setup.organiser.token).await?;
    Ok((docs, raw, game))
}

/// Every document another node serves differently from node 0.
fn disagreements(finals: &[(Vec<Attendees>, Vec<Value>, Value)]) -> Vec<String> {
    let (_, raw_events, game_doc) = &finals[0];
    let mut nodes_disagree = Vec::new();
    for (i, (_, raw, game)) in finals.iter().enumerate().skip(1) {
        for (e, (a, b)) in raw_events.iter().zip(raw).enumerate() {
            if normalize_event(a) != normalize_event(b) {
                nodes_disagree
                    .push(format!("event {e}: node 0 serves {} but node {i} serves {}", a["version"], b["version"]));
            }
        }
        if normalize_game(game_doc) != normalize_game(game) {
            nodes_disagree
                .push(format!("game: node 0 serves {} but node {i} serves {}", game_doc["version"], game["version"]));
        }
    }
    nodes_disagree
}
