//! The demo (`DEMO=1`, which `make run` sets; docs/demo.md): on an empty
//! database it builds a rink with a league — four teams, their rosters and a
//! schedule — and a Tuesday pickup one skater short of full with a goalie
//! waitlisted; then, for as long as the server runs, a simulated score keeper
//! plays a game between two of the teams, a goal or a penalty every few
//! seconds, so the live pages and the arena display move the moment someone
//! opens them. Everything goes through the public API with dev sign-in, like
//! any client: the same validation, actors and pushes.

use crate::db::Db;
use anyhow::{Context, Result, bail};
use chrono::{Datelike, Duration as Days, SecondsFormat, TimeZone, Utc, Weekday};
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
/// Plays (goals and penalties) per period of the simulated game.
const PLAYS_PER_PERIOD: u32 = 8;

/// The simulated game's sides: roster id and player ids.
#[derive(Debug, Clone)]
struct Side {
    roster_id: String,
    players: Vec<String>,
}

/// What the score keeper needs: the season and the two sides.
#[derive(Debug, Clone)]
struct World {
    season_id: String,
    home: Side,
    away: Side,
}

/// Starts the demo beside the server at `base` (its own address).
pub fn spawn(base: String, db: Db, play_every: Duration) {
    actix_web::rt::spawn(async move {
        if let Err(e) = run(&base, &db, play_every).await {
            tracing::error!(error = %format!("{e:#}"), "demo stopped");
        }
    });
}

async fn run(base: &str, db: &Db, play_every: Duration) -> Result<()> {
    let api = Api::new(base)?;
    let world = match crate::db::demo::latest_game_of_owner(&db.pool, &format!("dev_{RINK_OWNER}")).await? {
        Some((game, season_id)) => world_of(&api, &game, season_id).await?,
        None if crate::db::demo::user_count(&db.pool).await? == 0 => seed(&api).await?,
        None => {
            tracing::info!("demo: the database already holds other data; nothing seeded");
            return Ok(());
        }
    };
    keep_score(&api, &world, play_every).await
}

/// The two sides of an earlier run's game.
async fn world_of(api: &Api, game: &str, season_id: String) -> Result<World> {
    let g = api.get(&format!("/api/v1/games/{game}")).await?;
    if g["status"] == "LIVE" {
        // The last run stopped mid-game: that game ends, a new one starts.
        let keeper = api.sign_in(RINK_OWNER).await?;
        api.post(&keeper, &format!("/api/v1/games/{game}/actions"), json!({"type": "FINAL"})).await?;
    }
    let side = |v: &Value| Side {
        roster_id: v["rosterId"].as_str().unwrap_or_default().to_owned(),
        players: v["players"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|p| p["userId"].as_str().map(str::to_owned))
            .collect(),
    };
    Ok(World { season_id, home: side(&g["home"]), away: side(&g["away"]) })
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
        let mut players = Vec::new();
        for n in 0..PLAYERS {
            let who = if n + 1 == PLAYERS { handle(name, "goalie") } else { handle(name, &format!("skater{}", n + 1)) };
            let player = api.sign_in(&who).await?;
            let jersey = if n + 1 == PLAYERS { 30 + t } else { 7 + n * 3 };
            api.post(
                &captain,
                &format!("/api/v1/rosters/{roster}/players"),
                json!({"userId": player.user_id, "jerseyNumber": jersey}),
            )
            .await?;
            players.push(player.user_id);
        }
        sides.push(Side { roster_id: roster, players });
    }
    // Two league nights a week ahead: every pair of teams meets once.
    for (n, (h, a)) in [(0, 1), (2, 3), (0, 2), (1, 3), (0, 3), (1, 2)].into_iter().enumerate() {
        let days = 2 + 3 * (n as i64 / 2);
        api.post(
            &owner,
            "/api/v1/games",
            json!({"homeRosterId": sides[h].roster_id, "awayRosterId": sides[a].roster_id, "seasonId": season,
                   "scheduledAt": at(days, 19 + (n as u32 % 2) * 2)}),
        )
        .await?;
    }
    pickup(api, &owner, &rink).await?;
    let mut sides = sides.into_iter();
    let (Some(home), Some(away)) = (sides.next(), sides.next()) else { bail!("the demo has four teams") };
    Ok(World { season_id: season, home, away })
}

/// The rink's weekly 21:30 pickup, ten Tuesdays from next one
/// (docs/series.md); next Tuesday's has 9 of 10 skaters in, both goalie
/// places taken and a third goalie waitlisted.
async fn pickup(api: &Api, owner: &Session, rink: &str) -> Result<()> {
    let event = api
        .create(
            owner,
            "/api/v1/events",
            json!({"title": "Tuesday night pickup", "eventType": "OTHER", "startDate": next_tuesday_evening(),
                   "facilityId": rink, "maxSkaters": 10, "maxGoalies": 2,
                   "description": "Full gear, light and dark jerseys. Goalies skate free.",
                   "repeat": {"frequency": "WEEKLY", "until": tenth_tuesday()}}),
        )
        .await?;
    for n in 1..=9 {
        let skater = api.sign_in(&format!("pickup_skater{n}")).await?;
        api.put(&skater, &format!("/api/v1/events/{event}/rsvp"), json!({"action": "ATTENDING", "position": "CENTER"}))
            .await?;
    }
    for n in 1..=3 {
        let goalie = api.sign_in(&format!("pickup_goalie{n}")).await?;
        api.put(&goalie, &format!("/api/v1/events/{event}/rsvp"), json!({"action": "ATTENDING", "position": "GOALIE"}))
            .await?;
    }
    Ok(())
}

/// Plays games between the two sides for as long as the server runs: a
/// game already live goes on, otherwise a new one starts now.
async fn keep_score(api: &Api, world: &World, every: Duration) -> Result<()> {
    let keeper = api.sign_in(RINK_OWNER).await?;
    let mut dice = Dice::seeded(Utc::now().timestamp_millis() as u64);
    loop {
        let game = api
            .create(
                &keeper,
                "/api/v1/games",
                json!({"homeRosterId": world.home.roster_id, "awayRosterId": world.away.roster_id,
                       "seasonId": world.season_id, "scheduledAt": rfc3339(Utc::now())}),
            )
            .await?;
        tracing::info!(
            "demo: live game at /games/{game} — arena display at /display/game/{game}, score keeper console at /games/{game}/score"
        );
        let actions = format!("/api/v1/games/{game}/actions");
        let act = |body: Value| api.post(&keeper, &actions, body);
        act(json!({"type": "START"})).await?;
        for period in 1..=3 {
            for _ in 0..PLAYS_PER_PERIOD {
                tokio::time::sleep(every).await;
                if let Err(e) = act(play(&mut dice, world)).await {
                    tracing::warn!(error = %format!("{e:#}"), "demo: a play was refused");
                }
            }
            tokio::time::sleep(every).await;
            act(json!({"type": if period == 3 { "FINAL" } else { "END_PERIOD" }})).await?;
        }
        tokio::time::sleep(every * 5).await;
    }
}

/// The next play: mostly goals (a scorer and one assist from the side),
/// sometimes a two-minute minor.
fn play(dice: &mut Dice, world: &World) -> Value {
    let side = if dice.below(2) == 0 { &world.home } else { &world.away };
    // Skaters only: the goalie is the side's last player.
    let skaters = &side.players[..side.players.len().saturating_sub(1).max(1)];
    let pick = |dice: &mut Dice| skaters[dice.below(skaters.len() as u64) as usize].clone();
    let scorer = pick(dice);
    if dice.below(5) == 0 {
        return json!({"type": "PENALTY", "rosterId": side.roster_id, "playerId": scorer, "minutes": 2});
    }
    let assist = pick(dice);
    let assists: Vec<String> = if assist == scorer { vec![] } else { vec![assist] };
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

/// A dev user's handle from a team name and a role: `ice_owls_goalie`.
fn handle(team: &str, role: &str) -> String {
    format!("{}_{role}", team.to_lowercase().replace(' ', "_"))
}

/// RFC 3339 at `days` from today, at `hour` o'clock UTC.
fn at(days: i64, hour: u32) -> String {
    let day = (Utc::now() + Days::days(days)).date_naive();
    rfc3339(Utc.from_utc_datetime(&day.and_hms_opt(hour.min(23), 0, 0).unwrap_or_default()))
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
    let local = next_tuesday().and_hms_opt(21, 30, 0).unwrap_or_default();
    rfc3339(zone().from_local_datetime(&local).earliest().map_or_else(Utc::now, |t| t.with_timezone(&Utc)))
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

    fn world() -> World {
        let side = |r: &str| Side { roster_id: r.into(), players: (0..PLAYERS).map(|n| format!("{r}-p{n}")).collect() };
        World { season_id: "s".into(), home: side("h"), away: side("a") }
    }

    #[test]
    fn plays_credit_a_skater_of_the_side_and_never_assist_the_scorer() {
        let w = world();
        let mut dice = Dice::seeded(42);
        let (mut goals, mut penalties) = (0, 0);
        for _ in 0..500 {
            let p = play(&mut dice, &w);
            let roster = p["rosterId"].as_str().unwrap();
            let side = if roster == "h" { &w.home } else { &w.away };
            let goalie = side.players.last().unwrap();
            match p["type"].as_str().unwrap() {
                "GOAL" => {
                    goals += 1;
                    let scorer = p["scorerId"].as_str().unwrap();
                    assert!(side.players.iter().any(|x| x == scorer) && scorer != goalie);
                    assert!(p["assistIds"].as_array().unwrap().iter().all(|a| a != scorer));
                }
                "PENALTY" => penalties += 1,
                other => panic!("{other}"),
            }
        }
        assert!(goals > penalties && penalties > 0, "{goals} goals, {penalties} penalties");
    }

    #[test]
    fn every_demo_person_has_a_name_of_their_own() {
        let handles = demo_handles();
        let names: std::collections::HashSet<_> = handles.iter().map(|h| demo_name(h)).collect();
        assert_eq!(names.len(), handles.len());
        assert_eq!(demo_name("ice_owls_skater1"), demo_name("ice_owls_skater1"));
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
