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

/// Plays games between the two sides for as long as the server runs, each
/// `length` long, with a pause for the ice between them (a third of a game).
async fn keep_score(api: &Api, world: &World, length: Duration) -> Result<()> {
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
enum Step {
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
struct Beat {
    at: Duration,
    step: Step,
}

/// One game's steps, in order, over `length` of wall time: three periods
/// with two intermissions a third of a period long (so a period is 3/11 of
/// the game), the clock started at each period's face-off and stopped at
/// its end, 3 to 7 goals, 1 to 4 penalties and 12 to 27 shots at random
/// moments inside the periods, never in an intermission, and FINAL at the
/// end of the 3rd.
fn timeline(length: Duration, dice: &mut Dice) -> Vec<Beat> {
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
fn shot(dice: &mut Dice, world: &World) -> Value {
    let side = if dice.below(2) == 0 { &world.home } else { &world.away };
    json!({"type": "SHOT", "rosterId": side.roster_id})
}

/// A play by a skater of either side: a goal (a scorer and usually one
/// assist) or a two-minute minor. Goalies never score, assist or get the
/// demo's penalties: the sides hold skaters only.
fn play(dice: &mut Dice, world: &World, penalty: bool) -> Value {
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
struct Dice(u64);

impl Dice {
    fn seeded(seed: u64) -> Self {
        Dice(seed | 1)
    }

    /// A number in `0..n` (n > 0).
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n.max(1)
    }
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

/// A signed-in dev user.
struct Session {
    token: String,
    user_id: String,
}

/// The public API at the server's own address.
struct Api {
    http: reqwest::Client,
    base: String,
}

impl Api {
    fn new(base: &str) -> Result<Self> {
        let http = reqwest::Client::builder().timeout(Duration::from_secs(30)).build().context("http client")?;
        Ok(Api { http, base: base.trim_end_matches('/').to_owned() })
    }

    async fn send(&self, req: reqwest::RequestBuilder, what: &str) -> Result<Value> {
        let resp = req.send().await.with_context(|| what.to_owned())?;
        let status = resp.status();
        let body: Value = resp.json().await.unwrap_or(Value::Null);
        if !status.is_success() {
            bail!("{what} answered {status}: {}", body["error"]["message"]);
        }
        Ok(body)
    }

    /// Signs in (creating on first use) a dev user with this handle, with a
    /// name and finished onboarding, so whoever signs in as them lands on
    /// the product, not on the welcome steps.
    async fn sign_in(&self, username: &str) -> Result<Session> {
        let (first, last) = demo_name(username);
        let body =
            json!({"clerkId": format!("dev_{username}"), "username": username, "firstName": first, "lastName": last});
        let req = self.http.post(format!("{}/api/v1/dev/token", self.base)).json(&body);
        let r = self.send(req, "dev sign-in").await?;
        let (Some(token), Some(user_id)) = (r["token"].as_str(), r["user"]["id"].as_str()) else {
            bail!("dev sign-in answered without a token (is AUTH_MODE=dev?)")
        };
        let me = Session { token: token.to_owned(), user_id: user_id.to_owned() };
        if r["user"]["onboardingComplete"] != json!(true) {
            let kind = if username == RINK_OWNER { "FACILITY_MANAGER" } else { "PLAYER" };
            self.post(&me, "/api/v1/me/legal", json!({"legalVersion": crate::api::me::LEGAL_VERSION})).await?;
            let req = self.http.patch(format!("{}/api/v1/me", self.base)).bearer_auth(&me.token);
            self.send(req.json(&json!({"profileTypes": [kind], "onboardingComplete": true})), "PATCH /api/v1/me")
                .await?;
        }
        Ok(me)
    }

    async fn get(&self, path: &str) -> Result<Value> {
        self.send(self.http.get(format!("{}{path}", self.base)), &format!("GET {path}")).await
    }

    async fn post(&self, who: &Session, path: &str, body: Value) -> Result<Value> {
        let req = self.http.post(format!("{}{path}", self.base)).bearer_auth(&who.token).json(&body);
        self.send(req, &format!("POST {path}")).await
    }

    async fn put(&self, who: &Session, path: &str, body: Value) -> Result<Value> {
        let req = self.http.put(format!("{}{path}", self.base)).bearer_auth(&who.token).json(&body);
        self.send(req, &format!("PUT {path}")).await
    }

    /// A POST that creates something: its id.
    async fn create(&self, who: &Session, path: &str, body: Value) -> Result<String> {
        let created = self.post(who, path, body).await?;
        created["id"].as_str().map(str::to_owned).with_context(|| format!("POST {path} answered without an id"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game document's side as the server lists it after a restart: the
    /// goalie first (the document's order is not the seed's), one side
    /// seeded with positions, the other (an older seed) without.
    fn restarted_world() -> World {
        let doc = |r: &str, positions: bool| {
            let mut players = vec![json!({"userId": format!("{r}-goalie"), "jerseyNumber": 30,
                                          "position": if positions { json!("GOALIE") } else { Value::Null }})];
            players.extend((1..PLAYERS).map(|n| json!({"userId": format!("{r}-s{n}"), "jerseyNumber": 7 + 3 * (n - 1),
                                                         "position": if positions { json!("CENTER") } else { Value::Null }})));
            json!({"rosterId": r, "players": players})
        };
        World { season_id: "s".into(), home: side_of_game(&doc("h", true)), away: side_of_game(&doc("a", false)) }
    }

    #[test]
    fn goalies_never_score_assist_or_take_the_demos_penalties() {
        let w = restarted_world();
        assert_eq!((w.home.skaters.len(), w.away.skaters.len()), (PLAYERS - 1, PLAYERS - 1));
        let mut dice = Dice::seeded(42);
        for n in 0..500 {
            let p = play(&mut dice, &w, n % 4 == 0);
            let side = if p["rosterId"] == "h" { &w.home } else { &w.away };
            let named: Vec<&str> = [&p["scorerId"], &p["playerId"]]
                .into_iter()
                .filter_map(Value::as_str)
                .chain(p["assistIds"].as_array().into_iter().flatten().filter_map(Value::as_str))
                .collect();
            assert!(!named.is_empty(), "{p}");
            for who in &named {
                assert!(!who.ends_with("goalie"), "a goalie was credited: {p}");
                assert!(side.skaters.iter().any(|s| s == who), "{who} is not a skater of the side");
            }
            if p["type"] == "GOAL" {
                assert!(p["assistIds"].as_array().unwrap().iter().all(|a| *a != p["scorerId"]));
            }
        }
    }

    #[test]
    fn a_demo_game_lasts_its_length_with_a_handful_of_plays_inside_the_periods() {
        let length = Duration::from_secs(crate::config::DEMO_GAME_SECONDS);
        assert!((600..=720).contains(&crate::config::DEMO_GAME_SECONDS), "ten to twelve minutes by default");
        for seed in 1..200 {
            let beats = timeline(length, &mut Dice::seeded(seed));
            let steps: Vec<Step> = beats.iter().map(|b| b.step).collect();
            assert_eq!((steps.first(), steps.last()), (Some(&Step::Start), Some(&Step::Final)));
            assert_eq!((beats[0].at, beats.last().unwrap().at), (Duration::ZERO, length));
            assert!(beats.windows(2).all(|w| w[0].at <= w[1].at), "in order");
            assert_eq!(steps.iter().filter(|s| **s == Step::EndPeriod).count(), 2);
            let count = |step: Step| steps.iter().filter(|s| **s == step).count();
            let (goals, penalties) = (count(Step::Goal), count(Step::Penalty));
            assert!((3..=7).contains(&goals) && (1..=4).contains(&penalties), "{goals} goals, {penalties} penalties");
            assert!((12..=27).contains(&count(Step::Shot)));
            // The clock runs through each period and stops at its end.
            assert_eq!((count(Step::ClockStart), count(Step::ClockStop), count(Step::Intermission)), (3, 3, 2));
            let running: Vec<bool> = steps
                .iter()
                .filter(|s| matches!(s, Step::ClockStart | Step::ClockStop))
                .map(|s| *s == Step::ClockStart)
                .collect();
            assert_eq!(running, [true, false, true, false, true, false], "start, stop, in turn");
            // Every play falls inside a period, never in an intermission.
            let (period, break_) = (length * 3 / 11, length * 3 / 11 / 3);
            let periods =
                [(Duration::ZERO, period), (period + break_, period * 2 + break_), ((period + break_) * 2, length)];
            for b in beats.iter().filter(|b| matches!(b.step, Step::Goal | Step::Penalty | Step::Shot)) {
                assert!(
                    periods.iter().any(|(from, to)| *from < b.at && b.at < *to),
                    "a play in an intermission at {:?}",
                    b.at
                );
            }
        }
    }

    #[test]
    fn league_games_are_on_league_evenings_on_the_rinks_clock() {
        // Monday 30 November 2026.
        let monday = NaiveDate::from_ymd_opt(2026, 11, 30).unwrap();
        let slots = league_slots(monday, PAIRINGS.len());
        let read: Vec<String> = slots.iter().map(|s| s.format("%a %H:%M").to_string()).collect();
        assert_eq!(
            read,
            [
                "Tue 19:00",
                "Tue 20:30",
                "Thu 19:00",
                "Thu 20:30",
                "Sun 13:00",
                "Sun 14:30",
                "Tue 19:00",
                "Tue 20:30",
                "Thu 19:00",
                "Thu 20:30",
                "Sun 13:00",
                "Sun 14:30"
            ]
        );
        assert!(slots.windows(2).all(|w| w[0] < w[1]) && slots[0].date() > monday);
        // 7:00 PM in Toronto in winter is midnight UTC.
        assert_eq!(rink_time(slots[0]), "2026-12-02T00:00:00Z");
        // Each team plays once a night, and every pair meets home and away.
        for night in PAIRINGS.chunks(2) {
            let mut teams: Vec<usize> = night.iter().flat_map(|(h, a)| [*h, *a]).collect();
            teams.sort_unstable();
            assert_eq!(teams, [0, 1, 2, 3]);
        }
        let pairs: std::collections::HashSet<_> = PAIRINGS.iter().collect();
        assert_eq!(pairs.len(), 12);
    }

    #[test]
    fn every_demo_person_has_a_name_of_their_own() {
        let handles = demo_handles();
        let names: std::collections::HashSet<_> = handles.iter().map(|h| demo_name(h)).collect();
        assert_eq!(names.len(), handles.len());
        assert_eq!(demo_name("ice_owls_skater1"), demo_name("ice_owls_skater1"));
    }

    #[test]
    fn roster_positions_are_hockey_positions_and_only_the_goalie_is_a_goalie() {
        for n in 0..PLAYERS {
            let goalie = n + 1 == PLAYERS;
            let position = rinkside_actors::hockey::Position::parse(roster_position(n, goalie)).unwrap();
            assert_eq!(position == rinkside_actors::hockey::Position::Goalie, goalie, "player {n}");
        }
    }

    #[test]
    fn handles_are_lowercase_with_underscores() {
        assert_eq!(handle("Ice Owls", "goalie"), "ice_owls_goalie");
    }

    #[test]
    fn the_pickup_is_a_tuesday_evening_in_the_rinks_zone() {
        let when = chrono::DateTime::parse_from_rfc3339(&next_tuesday_evening()).unwrap();
        let local = when.with_timezone(&chrono_tz::America::Toronto);
        assert_eq!(local.weekday(), Weekday::Tue);
        assert_eq!((local.format("%H:%M").to_string()), "21:30");
        assert!(when > Utc::now());
        let last = chrono::NaiveDate::parse_from_str(&tenth_tuesday(), "%Y-%m-%d").unwrap();
        assert_eq!((last.weekday(), last - local.date_naive()), (Weekday::Tue, chrono::Duration::weeks(9)));
    }
}
