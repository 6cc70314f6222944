//! The demo (`DEMO=1`, which `make run` sets; docs/demo.md): on an empty
//! database it builds a rink with a league — four teams, their rosters and a
//! schedule on league evenings — and a Tuesday pickup one skater short of
//! full with a goalie waitlisted; then, for as long as the server runs, a
//! simulated score keeper plays a game between two of the teams at a game's
//! pace (about eleven minutes of wall time, a handful of goals and
//! penalties, shots, skaters only), running the game clock with periods as
//! long as the demo's and intermissions between them, with a pause for the
//! ice between games, so the
//! live pages and the arena display move the moment someone opens them. Everything goes through the public API with dev sign-in, like
//! any client: the same validation, actors and pushes.

mod api;
mod game;

use api::{Api, Session};
use game::keep_score;

use crate::db::Db;
use anyhow::{Context, Result, bail};
use chrono::{Datelike, Duration as Days, NaiveDate, NaiveDateTime, NaiveTime, SecondsFormat, TimeZone, Utc, Weekday};
use serde_json::{Value, json};
use std::time::Duration;

/// The rink's owner, who also keeps score.
const RINK_OWNER: &str = "demo_rink";
const RINK: &str = "Riverside Ice Centre";
const ZONE: &str = "America/Toronto";
const SEASON: &str = "Winter 2026 Adult League";
const TEAMS: [&str; 4] = ["Ice Owls", "Blue Liners", "Top Shelf", "Puck Hogs"];
/// Players per roster: the last one of each is its goalie.
const PLAYERS: usize = 8;
/// Goalies wear 30 and up, skaters 7 to 25: how an earlier run's roster
/// (seeded before positions were set) still tells its goalie apart.
const FIRST_GOALIE_JERSEY: i64 = 30;
/// Goals in a demo game: at least this many (a demo shows goals)…
const MIN_GOALS: u64 = 3;
/// …and up to this many more.
const EXTRA_GOALS: u64 = 5;
/// Penalties: 1 to 4.
const MIN_PENALTIES: u64 = 1;
const EXTRA_PENALTIES: u64 = 4;
/// Shots on goal besides the goals: 12 to 27 a game.
const MIN_SHOTS: u64 = 12;
const EXTRA_SHOTS: u64 = 16;
/// A puck drop on the rink's clock: (hour, minute).
type Clock = (u32, u32);
/// League evenings in the rink's zone: (day, first puck drop, second).
/// Two games a night, every team plays once (four teams).
const LEAGUE_NIGHTS: [(Weekday, Clock, Clock); 3] =
    [(Weekday::Tue, (19, 0), (20, 30)), (Weekday::Thu, (19, 0), (20, 30)), (Weekday::Sun, (13, 0), (14, 30))];
/// A double round robin of four teams, two games a night, each team once a
/// night: the second half swaps home and away.
const PAIRINGS: [(usize, usize); 12] =
    [(0, 1), (2, 3), (0, 2), (1, 3), (0, 3), (1, 2), (1, 0), (3, 2), (2, 0), (3, 1), (3, 0), (2, 1)];

/// The simulated game's sides: roster id and the ids of its skaters (never
/// the goalie: goalies do not score or assist in the demo).
#[derive(Debug, Clone)]
struct Side {
    roster_id: String,
    skaters: Vec<String>,
}

/// What the score keeper needs: the season and the two sides.
#[derive(Debug, Clone)]
struct World {
    season_id: String,
    home: Side,
    away: Side,
}

/// Starts the demo beside the server at `base` (its own address); each game
/// lasts `game_length` of wall time.
pub fn spawn(base: String, db: Db, game_length: Duration) {
    actix_web::rt::spawn(async move {
        if let Err(e) = run(&base, &db, game_length).await {
            tracing::error!(error = %format!("{e:#}"), "demo stopped");
        }
    });
}

async fn run(base: &str, db: &Db, game_length: Duration) -> Result<()> {
    let api = Api::new(base)?;
    let world = match crate::db::demo::latest_game_of_owner(&db.pool, &format!("dev_{RINK_OWNER}")).await? {
        Some((game, season_id)) => world_of(&api, &game, season_id).await?,
        None if crate::db::demo::user_count(&db.pool).await? == 0 => seed(&api).await?,
        None => {
            tracing::info!("demo: the database already holds other data; nothing seeded");
            return Ok(());
        }
    };
    keep_score(&api, &world, game_length).await
}

/// The two sides of an earlier run's game.
async fn world_of(api: &Api, game: &str, season_id: String) -> Result<World> {
    let g = api.get(&format!("/api/v1/games/{game}")).await?;
    if g["status"] == "LIVE" {
        // The last run stopped mid-game: that game ends, a new one starts.
        let keeper = api.sign_in(RINK_OWNER).await?;
        api.post(&keeper, &format!("/api/v1/games/{game}/actions"), json!({"type": "FINAL"})).await?;
    }
    Ok(World { season_id, home: side_of_game(&g["home"]), away: side_of_game(&g["away"]) })
}

/// One side of a game document as the demo plays it: its skaters only. The
/// document lists players in its own order (not the seed's), so the goalie
/// is told by position, or for an older seed by jersey number.
fn side_of_game(v: &Value) -> Side {
    let is_goalie =
        |p: &Value| p["position"] == "GOALIE" || p["jerseyNumber"].as_i64().is_some_and(|n| n >= FIRST_GOALIE_JERSEY);
    Side {
        roster_id: v["rosterId"].as_str().unwrap_or_default().to_owned(),
        skaters: v["players"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|p| !is_goalie(p))
            .filter_map(|p| p["userId"].as_str().map(str::to_owned))
            .collect(),
    }
}

/// Builds the demo's rink, league and pickup.
async fn seed(api: &Api) -> Result<World> {
    tracing::info!("demo: building a rink, a league and a pickup");
    let owner = api.sign_in(RINK_OWNER).await?;
    let rink = api.create(&owner, "/api/v1/facilities", json!({"name": RINK, "timezone": ZONE})).await?;
    let season = api
        .create(
            &owner,
            &format!("/api/v1/facilities/{rink}/seasons"),
            json!({"name": SEASON, "startDate": at(-30, 0), "endDate": at(120, 0), "isActive": true}),
        )
        .await?;
    let mut sides = Vec::new();
    let mut first_team = None;
    for (t, name) in TEAMS.iter().enumerate() {
        let captain = api.sign_in(&handle(name, "captain")).await?;
        let team = api.create(&captain, "/api/v1/teams", json!({"name": name, "facilityId": rink})).await?;
        let roster = api
            .create(
                &captain,
                "/api/v1/rosters",
                json!({"teamId": team, "seasonId": season, "name": name, "status": "ACTIVE"}),
            )
            .await?;
        let mut skaters = Vec::new();
        let mut players = Vec::new();
        for n in 0..PLAYERS {
            let goalie = n + 1 == PLAYERS;
            let who = if goalie { handle(name, "goalie") } else { handle(name, &format!("skater{}", n + 1)) };
            let player = api.sign_in(&who).await?;
            let jersey = if goalie { FIRST_GOALIE_JERSEY as usize + t } else { 7 + n * 3 };
            let position = roster_position(n, goalie);
            api.post(
                &captain,
                &format!("/api/v1/rosters/{roster}/players"),
                json!({"userId": player.user_id, "jerseyNumber": jersey, "position": position}),
            )
            .await?;
            players.push(player.user_id.clone());
            if !goalie {
                skaters.push(player.user_id);
            }
        }
        if t == 0 {
            first_team = Some((captain, roster.clone(), players));
        }
        sides.push(Side { roster_id: roster, skaters });
    }
    // League evenings from tomorrow: every pair of teams meets twice, home
    // and away, two games a night.
    let today = Utc::now().with_timezone(&zone()).date_naive();
    let mut first_game = None;
    for ((h, a), when) in PAIRINGS.into_iter().zip(league_slots(today, PAIRINGS.len())) {
        let game = api
            .create(
                &owner,
                "/api/v1/games",
                json!({"homeRosterId": sides[h].roster_id, "awayRosterId": sides[a].roster_id, "seasonId": season,
                       "scheduledAt": rink_time(when)}),
            )
            .await?;
        if first_game.is_none() && (h == 0 || a == 0) {
            first_game = Some(game);
        }
    }
    if let (Some((captain, roster, players)), Some(game)) = (first_team, first_game) {
        availability(api, &captain, &roster, &game, &players).await?;
    }
    pickup(api, &owner, &rink).await?;
    let mut sides = sides.into_iter();
    let (Some(home), Some(away)) = (sides.next(), sides.next()) else { bail!("the demo has four teams") };
    Ok(World { season_id: season, home, away })
}

/// The first team's availability (docs/availability.md): answers lock 6
/// hours before, 6 skaters and a goalie wanted; for its next game four
/// skaters are in, one is out, and the rest (the goalie too) have not said.
async fn availability(api: &Api, captain: &Session, roster: &str, game: &str, players: &[String]) -> Result<()> {
    api.put(
        captain,
        &format!("/api/v1/rosters/{roster}/availability-rules"),
        json!({"lockMinutes": 360, "minSkaters": 6, "minGoalies": 1}),
    )
    .await?;
    for (n, player) in players.iter().take(5).enumerate() {
        let answer = if n < 4 { "IN" } else { "OUT" };
        api.put(
            captain,
            &format!("/api/v1/rosters/{roster}/availability/{game}/players/{player}"),
            json!({"answer": answer}),
        )
        .await?;
    }
    Ok(())
}

/// The rink's weekly 21:30 pickup, ten Tuesdays from next one
/// (docs/series.md); next Tuesday's has 9 of 10 skaters in, both goalie
/// places taken and a third goalie waitlisted; its regulars go first.
async fn pickup(api: &Api, owner: &Session, rink: &str) -> Result<()> {
    let created = api
        .post(
            owner,
            "/api/v1/events",
            json!({"title": "Tuesday night pickup", "eventType": "OTHER", "startDate": next_tuesday_evening(),
                   "facilityId": rink, "maxSkaters": 10, "maxGoalies": 2,
                   "description": "Full gear, light and dark jerseys. Goalies skate free.",
                   "repeat": {"frequency": "WEEKLY", "until": tenth_tuesday()}}),
        )
        .await?;
    let (event, series) =
        (created["id"].as_str().unwrap_or_default(), created["seriesId"].as_str().unwrap_or_default());
    const POSITIONS: [&str; 5] = ["CENTER", "LEFT_WING", "RIGHT_WING", "LEFT_DEFENSE", "RIGHT_DEFENSE"];
    let mut regulars = Vec::new();
    for n in 1..=9 {
        let skater = api.sign_in(&format!("pickup_skater{n}")).await?;
        let position = POSITIONS[(n - 1) % POSITIONS.len()];
        api.put(&skater, &format!("/api/v1/events/{event}/rsvp"), json!({"action": "ATTENDING", "position": position}))
            .await?;
        regulars.push(skater.user_id);
    }
    for n in 1..=3 {
        let goalie = api.sign_in(&format!("pickup_goalie{n}")).await?;
        api.put(&goalie, &format!("/api/v1/events/{event}/rsvp"), json!({"action": "ATTENDING", "position": "GOALIE"}))
            .await?;
        regulars.extend((n < 3).then_some(goalie.user_id));
    }
    // Its regulars go first until 48 h before; RSVPs lock 2 h before; at
    // 10 AM on game day a night short of 10 skaters or 2 goalies calls for
    // subs by itself (docs/pickup-night.md).
    for user_id in &regulars {
        api.put(owner, &format!("/api/v1/event-series/{series}/regulars/{user_id}"), json!({})).await?;
    }
    api.put(
        owner,
        &format!("/api/v1/event-series/{series}/rsvp-rules"),
        json!({"regularsFirstMinutes": 2880, "cutoffMinutes": 120, "minSkaters": 10, "minGoalies": 2,
               "shortCheckMinutes": 690}),
    )
    .await?;
    // The rink's owner runs it and collects for the ice (docs/sides-and-bill.md):
    // ten weeks for 3,750.00, goalies free, and next Tuesday's sides made.
    api.put(owner, &format!("/api/v1/users/{}/payment-collection", owner.user_id), json!({"enabled": true})).await?;
    api.put(
        owner,
        &format!("/api/v1/event-series/{series}/bill"),
        json!({"costCents": 375_000, "goaliePolicy": "FREE", "organiserPays": false}),
    )
    .await?;
    api.post(owner, &format!("/api/v1/events/{event}/sides"), json!({"action": "MAKE"})).await?;
    Ok(())
}

/// The roster position of a team's `n`-th player (HockeyPosition text).
fn roster_position(n: usize, goalie: bool) -> &'static str {
    const SKATERS: [&str; 5] = ["CENTER", "LEFT_WING", "RIGHT_WING", "LEFT_DEFENSE", "RIGHT_DEFENSE"];
    if goalie { "GOALIE" } else { SKATERS[n % SKATERS.len()] }
}

/// A dev user's handle from a team name and a role: `ice_owls_goalie`.
fn handle(team: &str, role: &str) -> String {
    format!("{}_{role}", team.to_lowercase().replace(' ', "_"))
}

/// RFC 3339 at `days` from today, at `hour` o'clock UTC.
fn at(days: i64, hour: u32) -> String {
    let day = (Utc::now() + Days::days(days)).date_naive();
    rfc3339(Utc.from_utc_datetime(&day.and_hms_opt(hour.min(23), 0, 0).unwrap_or_default()))
}

/// The first `n` league puck drops after `today` (the rink's local date),
/// on the league's evenings ([`LEAGUE_NIGHTS`]), on the rink's clock.
fn league_slots(today: NaiveDate, n: usize) -> Vec<NaiveDateTime> {
    let mut slots = Vec::with_capacity(n);
    let mut day = today;
    while slots.len() < n {
        day += Days::days(1);
        if let Some((_, first, second)) = LEAGUE_NIGHTS.iter().find(|(d, ..)| *d == day.weekday()) {
            for (h, m) in [first, second] {
                if slots.len() < n
                    && let Some(t) = NaiveTime::from_hms_opt(*h, *m, 0)
                {
                    slots.push(day.and_time(t));
                }
            }
        }
    }
    slots
}

/// A time on the rink's clock as RFC 3339 UTC.
fn rink_time(local: NaiveDateTime) -> String {
    rfc3339(zone().from_local_datetime(&local).earliest().map_or_else(Utc::now, |t| t.with_timezone(&Utc)))
}

fn rfc3339(when: chrono::DateTime<Utc>) -> String {
    when.to_rfc3339_opts(SecondsFormat::Secs, true)
}

/// Next Tuesday (at least a day away) in the rink's zone.
fn next_tuesday() -> chrono::NaiveDate {
    let today = Utc::now().with_timezone(&zone()).date_naive();
    let mut day = today + Days::days(1);
    while day.weekday() != Weekday::Tue {
        day += Days::days(1);
    }
    day
}

fn zone() -> chrono_tz::Tz {
    ZONE.parse().unwrap_or(chrono_tz::America::Toronto)
}

/// Next Tuesday at 21:30 in the rink's zone.
fn next_tuesday_evening() -> String {
    rink_time(next_tuesday().and_hms_opt(21, 30, 0).unwrap_or_default())
}

/// The last day of the pickup's series: ten Tuesdays from next one.
fn tenth_tuesday() -> String {
    (next_tuesday() + Days::days(63)).format("%Y-%m-%d").to_string()
}

/// Every handle the demo signs in, in a fixed order: the rink's owner, each
/// team's captain, skaters and goalie, the pickup's skaters and goalies.
fn demo_handles() -> Vec<String> {
    let mut all = vec![RINK_OWNER.to_string()];
    for team in TEAMS {
        all.push(handle(team, "captain"));
        all.extend((1..PLAYERS).map(|n| handle(team, &format!("skater{n}"))));
        all.push(handle(team, "goalie"));
    }
    all.extend((1..=9).map(|n| format!("pickup_skater{n}")));
    all.extend((1..=3).map(|n| format!("pickup_goalie{n}")));
    all
}

/// A demo person's first and last name: the same every time for a handle,
/// and no two of the demo's people alike (the i-th handle gets pair i of
/// 32 × 32, an order in which neighbours differ in both names).
fn demo_name(username: &str) -> (&'static str, &'static str) {
    const FIRST: [&str; 32] = [
        "Alex", "Sam", "Jordan", "Riley", "Casey", "Morgan", "Taylor", "Jamie", "Avery", "Quinn", "Drew", "Harper",
        "Rowan", "Emerson", "Parker", "Sidney", "Mika", "Noor", "Teo", "Lena", "Marco", "Priya", "Owen", "Chloe",
        "Mateo", "Ingrid", "Kenji", "Aisha", "Luc", "Freya", "Ravi", "Nadia",
    ];
    const LAST: [&str; 32] = [
        "Tremblay",
        "Gagnon",
        "Roy",
        "MacDonald",
        "Lindqvist",
        "Novak",
        "Kowalski",
        "O'Reilly",
        "Bergeron",
        "Smith",
        "Chen",
        "Larsen",
        "Dubois",
        "Hughes",
        "Murphy",
        "Campbell",
        "Virtanen",
        "Okafor",
        "Petrov",
        "Santos",
        "Nakamura",
        "Walsh",
        "Fischer",
        "Moreau",
        "Singh",
        "Haddad",
        "Kim",
        "Johansson",
        "Ferreira",
        "Brennan",
        "Ivanova",
        "Sato",
    ];
    let i = demo_handles().iter().position(|h| h == username).unwrap_or_else(|| {
        username.bytes().fold(0usize, |h, b| h.wrapping_mul(31).wrapping_add(usize::from(b))) % 1024
    });
    let (q, a) = (i / 32 % 32, i % 32);
    (FIRST[a], LAST[(q + 5 * a) % 32])
}

#[cfg(test)]
mod tests;
