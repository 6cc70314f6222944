//! The DaySmart / Dash JSON:API adapter (`/dash/jsonapi/api/v1/events`):
//! one page of events into a `Schedule`, the URL of the next page, and the
//! merge of all pages.
//!
//! - `data[]` are events; only `event_type_id` `g` are games (practices,
//!   public skates and the like are skipped). A game whose home or visiting
//!   team is not set yet (`hteam_id`/`vteam_id`, or the `homeTeam` /
//!   `visitingTeam` relationships) is a booked slot, not a game: skipped.
//! - `included[]` gives `teams` (`name`, `league_id`), `leagues` (the
//!   division name) and `resources` (the rink). A team an event names but
//!   `included` lacks is called `Team <id>` until a page says better.
//! - `start_gmt`/`end_gmt` are UTC and win for the instant; `start`/`end`
//!   are the facility's wall clock. Either alone is enough.
//! - Scores: `home_score`/`visiting_score`, or `hscore`/`vscore`; numbers or
//!   numeric strings; `null` or `""` when not played; outside 0–99 refused.
//! - `desc` is the game type. Ids may be JSON numbers or strings. Anything
//!   else is ignored.

use std::collections::HashMap;

use chrono::{DateTime, NaiveDateTime};
use chrono_tz::Tz;
use serde_json::{Map, Value};

use super::schedule::{
    Game, MAX_GAMES, Schedule, ScheduleError, Team, is_score, local_to_utc_ms, non_empty, not_a_schedule, plausible,
    too_many_games, utc_to_local,
};

/// One page of a DaySmart query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    pub schedule: Schedule,
    /// `meta.page["last-page"]`: how many pages the query has (1 when absent).
    pub last_page: u32,
}

/// The query parameter that picks a page, decoded.
const PAGE_NUMBER_KEY: &[u8] = b"page[number]";

/// Reads one page of events.
pub fn parse_page(body: &[u8], zone: Tz) -> Result<Page, ScheduleError> {
    let body = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
    let root: Value = serde_json::from_slice(body).map_err(|e| not_a_schedule(format!("not DaySmart JSON: {e}")))?;
    let root = root.as_object().ok_or_else(|| not_a_schedule("not a DaySmart schedule: the JSON is not an object"))?;
    let data = root
        .get("data")
        .and_then(Value::as_array)
        .ok_or_else(|| not_a_schedule("not a DaySmart schedule: no `data` array of events"))?;
    let included = Included::read(root.get("included"));

    let mut games = Vec::new();
    let mut referenced: Vec<String> = Vec::new();
    for (i, item) in data.iter().enumerate() {
        let Some(game) = read_event(i, item, &included, zone)? else { continue };
        if games.len() == MAX_GAMES {
            return Err(too_many_games());
        }
        referenced.push(game.home_team_id.clone());
        referenced.push(game.away_team_id.clone());
        games.push(game);
    }

    let mut teams: Vec<Team> = included.teams.iter().map(|(id, record)| included.team(id, record)).collect();
    for id in referenced {
        if !included.teams.contains_key(&id) {
            teams.push(placeholder_team(&id));
        }
    }
    Ok(Page { schedule: Schedule::assemble(teams, games), last_page: last_page(root) })
}

/// The URL of page `n` of the same query: `page[number]` set to `n` (in
/// whatever spelling the URL already has, `page%5Bnumber%5D` included),
/// every other parameter and the fragment kept as they are.
pub fn page_url(url: &str, n: u32) -> String {
    let (url, fragment) = url.find('#').map_or((url, ""), |i| url.split_at(i));
    let (base, query) = url.split_once('?').unwrap_or((url, ""));
    let mut params: Vec<String> = Vec::new();
    let mut replaced = false;
    for param in query.split('&').filter(|p| !p.is_empty()) {
        let key = param.split_once('=').map_or(param, |(key, _)| key);
        if percent_decode(key) != PAGE_NUMBER_KEY {
            params.push(param.to_string());
        } else if !replaced {
            params.push(format!("{key}={n}"));
            replaced = true;
        }
    }
    if !replaced {
        params.push(format!("page[number]={n}"));
    }
    format!("{base}?{}{fragment}", params.join("&"))
}

/// Merges the pages of one query: one team and one game per external id (a
/// later page wins, except that a `Team <id>` stand-in never replaces a real
/// team), game team names taken from the merged teams, sorted as `Schedule`
/// requires. Does not check `MAX_GAMES`: call `Schedule::check_limits`.
pub fn merge(pages: Vec<Schedule>) -> Schedule {
    let mut teams: Vec<Team> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut games = Vec::new();
    for page in pages {
        for team in page.teams {
            match index.get(&team.external_id) {
                Some(&i) if is_placeholder(&team) && !is_placeholder(&teams[i]) => {}
                Some(&i) => teams[i] = team,
                None => {
                    index.insert(team.external_id.clone(), teams.len());
                    teams.push(team);
                }
            }
        }
        games.extend(page.games);
    }
    for game in &mut games {
        if let Some(&i) = index.get(&game.home_team_id) {
            game.home.clone_from(&teams[i].name);
        }
        if let Some(&i) = index.get(&game.away_team_id) {
            game.away.clone_from(&teams[i].name);
        }
    }
    Schedule::assemble(teams, games)
}

/// A team as `included` describes it.
struct TeamRecord {
    name: Option<String>,
    league_id: Option<String>,
}

/// The `included[]` records an event refers to, by id.
#[derive(Default)]
struct Included {
    teams: HashMap<String, TeamRecord>,
    leagues: HashMap<String, String>,
    resources: HashMap<String, String>,
}

impl Included {
    fn read(included: Option<&Value>) -> Included {
        let mut out = Included::default();
        for item in included.and_then(Value::as_array).into_iter().flatten() {
            let Some(id) = item.get("id").and_then(id_of) else { continue };
            let attributes = item.get("attributes");
            let attribute = |key: &str| attributes.and_then(|a| a.get(key));
            let name = attribute("name").and_then(Value::as_str).and_then(non_empty);
            match item.get("type").and_then(Value::as_str).unwrap_or("") {
                "teams" | "team" => {
                    let league_id = attribute("league_id").and_then(id_of);
                    out.teams.insert(id, TeamRecord { name, league_id });
                }
                "leagues" | "league" => {
                    out.leagues.extend(name.map(|name| (id, name)));
                }
                "resources" | "resource" => {
                    out.resources.extend(name.map(|name| (id, name)));
                }
                _ => {}
            }
        }
        out
    }

    fn team(&self, id: &str, record: &TeamRecord) -> Team {
        Team {
            external_id: id.to_string(),
            name: record.name.clone().unwrap_or_else(|| placeholder_name(id)),
            division: record.league_id.as_ref().and_then(|league| self.leagues.get(league)).cloned(),
        }
    }

    fn team_division(&self, id: &str) -> Option<String> {
        self.teams.get(id).and_then(|record| self.team(id, record).division)
    }

    fn team_name(&self, id: &str) -> String {
        self.teams.get(id).map_or_else(|| placeholder_name(id), |record| self.team(id, record).name)
    }
}

/// The name of a team we only know by id.
fn placeholder_name(id: &str) -> String {
    format!("Team {id}")
}

fn placeholder_team(id: &str) -> Team {
    Team { external_id: id.to_string(), name: placeholder_name(id), division: None }
}

fn is_placeholder(team: &Team) -> bool {
    team.division.is_none() && team.name == placeholder_name(&team.external_id)
}

/// The game an event of `data[]` describes, or `None` when it is not one.
fn read_event(i: usize, item: &Value, included: &Included, zone: Tz) -> Result<Option<Game>, ScheduleError> {
    let item = item.as_object().ok_or_else(|| not_a_schedule(format!("event #{}: not a JSON object", i + 1)))?;
    if item.get("type").and_then(Value::as_str).is_some_and(|kind| kind != "events" && kind != "event") {
        return Ok(None);
    }
    let empty = Map::new();
    let attributes = item.get("attributes").and_then(Value::as_object).unwrap_or(&empty);
    let is_game = attributes
        .get("event_type_id")
        .and_then(Value::as_str)
        .is_some_and(|kind| kind.trim().eq_ignore_ascii_case("g"));
    if !is_game {
        return Ok(None);
    }
    let id = item.get("id").and_then(id_of).ok_or_else(|| not_a_schedule(format!("event #{}: no id", i + 1)))?;
    let related = |name: &str| item.get("relationships")?.get(name)?.get("data")?.get("id").and_then(id_of);
    let team_id = |key: &str, relationship: &str| attributes.get(key).and_then(id_of).or_else(|| related(relationship));
    let (Some(home_id), Some(away_id)) = (team_id("hteam_id", "homeTeam"), team_id("vteam_id", "visitingTeam")) else {
        return Ok(None);
    };

    let time = |key: &str| read_time(attributes, key, &id);
    let (start_local, start_utc_ms) = instant(time("start")?, time("start_gmt")?, zone)
        .ok_or_else(|| not_a_schedule(format!("game {id}: no start time (`start` or `start_gmt`)")))?;
    let end = instant(time("end")?, time("end_gmt")?, zone);

    let rink = attributes.get("resource_id").and_then(id_of).or_else(|| related("resource"));
    let league = attributes.get("league_id").and_then(id_of).and_then(|league| included.leagues.get(&league));
    let division =
        league.cloned().or_else(|| included.team_division(&home_id)).or_else(|| included.team_division(&away_id));
    Ok(Some(Game {
        start_local,
        end_local: end.map(|(local, _)| local),
        start_utc_ms,
        end_utc_ms: end.map(|(_, utc)| utc),
        rink: rink.and_then(|rink| included.resources.get(&rink)).cloned(),
        division,
        home: included.team_name(&home_id),
        away: included.team_name(&away_id),
        home_goals: read_goals(attributes, &["home_score", "hscore"], "home", &id)?,
        away_goals: read_goals(attributes, &["visiting_score", "vscore"], "away", &id)?,
        game_type: attributes.get("desc").and_then(Value::as_str).and_then(non_empty),
        cancelled: false,
        home_team_id: home_id,
        away_team_id: away_id,
        external_id: id,
    }))
}

/// A time attribute: `None` when absent, `null` or empty; an error when it is
/// there but not a date and time. A string with an offset or `Z` is read as
/// that instant, shown in UTC for `*_gmt` and as written otherwise.
fn read_time(attributes: &Map<String, Value>, key: &str, id: &str) -> Result<Option<NaiveDateTime>, ScheduleError> {
    let value = match attributes.get(key) {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::String(s)) if s.trim().is_empty() => return Ok(None),
        Some(value) => value,
    };
    let bad = || not_a_schedule(format!("game {id}: {key} {value} is not a date and time"));
    let text = value.as_str().ok_or_else(bad)?.trim();
    let parsed = match DateTime::parse_from_rfc3339(text) {
        Ok(at) if key.ends_with("_gmt") => Some(at.naive_utc()),
        Ok(at) => Some(at.naive_local()),
        Err(_) => ["%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%d %H:%M:%S%.f", "%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"]
            .iter()
            .find_map(|format| NaiveDateTime::parse_from_str(text.trim_end_matches('Z'), format).ok()),
    };
    parsed.filter(|at| plausible(*at)).map(Some).ok_or_else(bad)
}

/// Wall clock and instant from a local and a UTC reading: UTC wins for the
/// instant; either alone gives the other.
fn instant(local: Option<NaiveDateTime>, utc: Option<NaiveDateTime>, zone: Tz) -> Option<(NaiveDateTime, i64)> {
    match (local, utc) {
        (Some(local), Some(utc)) => Some((local, utc.and_utc().timestamp_millis())),
        (Some(local), None) => Some((local, local_to_utc_ms(local, zone))),
        (None, Some(utc)) => Some((utc_to_local(utc, zone), utc.and_utc().timestamp_millis())),
        (None, None) => None,
    }
}

/// One side's goals from the first of `keys` that has a value.
fn read_goals(
    attributes: &Map<String, Value>,
    keys: &[&str],
    side: &str,
    id: &str,
) -> Result<Option<i64>, ScheduleError> {
    let Some(value) = keys.iter().filter_map(|key| attributes.get(*key)).find(|v| !v.is_null()) else {
        return Ok(None);
    };
    let goals = match value {
        Value::String(s) if s.trim().is_empty() => return Ok(None),
        Value::String(s) => s.trim().parse::<i64>().ok(),
        Value::Number(n) => {
            n.as_i64().or_else(|| n.as_f64().filter(|f| f.fract() == 0.0 && f.abs() < 1e9).map(|f| f as i64))
        }
        _ => None,
    };
    match goals {
        Some(goals) if is_score(goals) => Ok(Some(goals)),
        _ => {
            let shown = value.as_str().map_or_else(|| value.to_string(), |s| format!("`{s}`"));
            Err(not_a_schedule(format!("game {id}: {side} goals {shown} is not a score")))
        }
    }
}

/// An id written as a JSON string or number.
fn id_of(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => non_empty(s),
        Value::Number(n) => Some(match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => i.to_string(),
            (None, Some(f)) if f.fract() == 0.0 && f.abs() < 1e15 => (f as i64).to_string(),
            _ => n.to_string(),
        }),
        _ => None,
    }
}

/// `meta.page["last-page"]`, a number or numeric string; 1 when absent.
fn last_page(root: &Map<String, Value>) -> u32 {
    let page = root.get("meta").and_then(|meta| meta.get("page"));
    let value = page.and_then(|page| page.get("last-page").or_else(|| page.get("last_page")));
    let n = match value {
        Some(Value::Number(n)) => n.as_u64(),
        Some(Value::String(s)) => s.trim().parse::<u64>().ok(),
        _ => None,
    };
    n.map_or(1, |n| u32::try_from(n).unwrap_or(u32::MAX).max(1))
}

/// A query key with its `%XX` escapes decoded, for comparing keys only.
fn percent_decode(s: &str) -> Vec<u8> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .filter(|h| h.iter().all(u8::is_ascii_hexdigit))
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    out
}

#[cfg(test)]
#[path = "daysmart_tests.rs"]
mod tests;
