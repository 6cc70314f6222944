//! A started game between two rosters, set up through the API
//! ([`set_up_game`]): what `scoreboard` scores goals in, `clock` runs the
//! clock of, and `chaos` keeps score in.

use anyhow::{Result, bail};
use serde_json::json;
use tracing::info;

use crate::api::{Api, Session};

/// A game and who plays in it.
pub struct Game {
    pub id: String,
    /// `(rosterId, player userIds)` for home and away.
    pub sides: [(String, Vec<String>); 2],
}

/// What a game's setup is called (each name followed by the run's tag):
/// the facility, the season, and the teams (`{team} Home {tag}`, …).
pub struct Names<'a> {
    pub facility: &'a str,
    pub season: &'a str,
    pub team: &'a str,
}

/// The names of the load tests' own games.
pub const LOAD_TEST: Names<'static> =
    Names { facility: "Load test rink", season: "Load test season", team: "Load test" };

/// A facility, an active season, two rosters of `players` dev users each
/// and a started game between them, as `organiser`.
pub async fn set_up_game(api: &Api, organiser: &Session, names: &Names<'_>, tag: &str, players: usize) -> Result<Game> {
    let t = &organiser.token;
    let facility = api.create_facility(t, &format!("{} {tag}", names.facility)).await?;
    let season = api.create_season(t, &facility, &format!("{} {tag}", names.season)).await?;
    let mut sides = Vec::new();
    for side in ["Home", "Away"] {
        let team = api.create_team(t, &format!("{} {side} {tag}", names.team), &facility).await?;
        let roster = api.create_roster(t, &team, &season, &format!("{side} {tag}")).await?;
        let mut ids = Vec::new();
        for j in 0..players {
            let player = api.dev_token(&format!("lt{tag}{}{j}", &side[..1].to_lowercase())).await?;
            let jersey = u32::try_from(j + 1).unwrap_or(99);
            api.add_player(t, &roster, &player.user_id, jersey).await?;
            ids.push(player.user_id);
        }
        sides.push((roster, ids));
    }
    let [home, away]: [(String, Vec<String>); 2] = match sides.try_into() {
        Ok(s) => s,
        Err(_) => bail!("expected two rosters"),
    };
    let id = api.create_game(t, &home.0, &away.0, &season).await?;
    let started = api.game_action(t, &id, json!({ "type": "START" })).await?;
    info!(game_id = %id, status = %started.status, "game started");
    Ok(Game { id, sides: [home, away] })
}
