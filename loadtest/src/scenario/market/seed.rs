//! Seeding the sub market over HTTP ([`seed`]): captains who own the
//! facilities and teams and host the events, upcoming events spread over
//! five weeks, teams, persons (some with a level, some playing at a
//! facility), and the statuses — the teams' and two per person.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{Context, Result};
use chrono::{DateTime, Utc};
use futures_util::{StreamExt, stream};
use serde::Serialize;
use serde_json::{Value, json};
use tracing::info;

use super::{DAY_MS, HOUR_MS, at};
use crate::api::{Api, Session};
use crate::cli::MarketArgs;
use crate::fleet::ErrorTally;
use crate::stats::{Recorder, Summary, rate};

/// The seeded events start between an hour and five weeks from now.
const EVENT_SPREAD_MS: i64 = 35 * DAY_MS;

/// Teams per captain (the captains own the teams and host the events).
const TEAMS_PER_CAPTAIN: usize = 10;

const TIMEZONES: [&str; 5] =
    ["America/Toronto", "America/Vancouver", "America/New_York", "America/Edmonton", "America/Winnipeg"];
const SKILLS: [&str; 4] = ["BEGINNER", "INTERMEDIATE", "ADVANCED", "PROFESSIONAL"];

/// Positions offered or asked, in rotation (empty: any position).
fn positions(i: usize) -> Vec<&'static str> {
    match i % 6 {
        0 => vec!["GOALIE"],
        1 => vec!["CENTER", "LEFT_WING"],
        2 => vec!["LEFT_DEFENSE", "RIGHT_DEFENSE"],
        3 => vec![],
        4 => vec!["RIGHT_WING"],
        _ => vec!["CENTER", "GOALIE"],
    }
}

#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Seeding {
    pub facilities: usize,
    pub events_requested: usize,
    pub events_created: usize,
    pub events_seconds: f64,
    pub teams_created: usize,
    pub persons: usize,
    /// Persons who added a rated position (they have a level).
    pub persons_with_level: usize,
    /// Persons who RSVPed to an event at a facility (they play there).
    pub persons_at_facility: usize,
    pub people_seconds: f64,
    pub statuses_requested: usize,
    pub statuses_created: usize,
    pub statuses_seconds: f64,
    pub statuses_per_sec: f64,
    /// `POST /statuses` round trip while seeding (`--setup-concurrency` in flight).
    pub status_post: Summary,
    pub by_type: HashMap<String, usize>,
    pub errors: ErrorTally,
}

/// What seeding leaves for the measurements.
pub struct Seeded {
    pub report: Seeding,
    pub facilities: Vec<String>,
    /// Persons with an AVAILABLE_TO_SUB status (for the matches reads).
    pub subs: Vec<Session>,
    /// Whoever reads the board.
    pub reader: Session,
}

/// Runs `n` jobs `concurrency` at a time; each job's error is tallied, not
/// fatal. Returns the successes in job order (`None` for a failure).
pub async fn run_all<T, F, Fut>(
    n: usize,
    concurrency: usize,
    errors: &mut ErrorTally,
    what: &str,
    job: F,
) -> Vec<Option<T>>
where
    F: Fn(usize) -> Fut,
    Fut: std::future::Future<Output = Result<T>>,
{
    let step = (n / 10).max(1);
    let mut done = 0usize;
    let mut out: Vec<Option<T>> = Vec::with_capacity(n);
    let mut results = stream::iter(0..n).map(job).buffered(concurrency.max(1));
    while let Some(r) = results.next().await {
        match r {
            Ok(v) => out.push(Some(v)),
            Err(e) => {
                errors.add(&format!("{what}: {e:#}"));
                out.push(None);
            }
        }
        done += 1;
        if done.is_multiple_of(step) {
            info!(done, of = n, "{what}");
        }
    }
    out
}

pub fn id_of(v: &Value) -> Result<String> {
    v["id"].as_str().map(str::to_string).context("no id in the answer")
}

/// Seeds everything, in an order that keeps the background pushes cheap:
/// the persons' RSVPs before any status exists.
pub async fn seed(args: &MarketArgs, tag: &str, api: &Api) -> Result<Seeded> {
    let mut report = Seeding { events_requested: args.events, ..Seeding::default() };
    let now = Utc::now();
    let captains = sign_in_captains(args, tag, api).await?;
    let mut facilities = Vec::new();
    for i in 0..args.facilities {
        let body = json!({"name": format!("Market Arena {i} {tag}"), "timezone": TIMEZONES[i % TIMEZONES.len()]});
        facilities.push(id_of(&api.post_value("/api/v1/facilities", &captains[0].token, body).await?)?);
    }
    report.facilities = facilities.len();
    let facility_events = seed_events(args, api, &captains, &facilities, now, &mut report).await;
    let teams = seed_teams(args, tag, api, &captains, &facilities, &mut report).await;
    let persons = seed_persons(args, tag, api, &facility_events, &mut report).await;
    let posts = status_posts(args.statuses - 2 * args.teams, &captains, &teams, &persons, now);
    post_statuses(args, api, posts, &mut report).await;

    // Subs are the persons with an AVAILABLE_TO_SUB (all but maybe the last).
    let subs: Vec<Session> = persons.iter().map(|(_, s)| s.clone()).collect();
    let reader = captains[0].clone();
    Ok(Seeded { report, facilities, subs, reader })
}

/// Captains: own the facilities and teams, host the events.
async fn sign_in_captains(args: &MarketArgs, tag: &str, api: &Api) -> Result<Vec<Session>> {
    let captain_count = args.teams.div_ceil(TEAMS_PER_CAPTAIN).max(1);
    api.sign_in_many(captain_count, args.setup_concurrency, |i| format!("mk{tag}c{i}")).await
}

/// Events: every third at a facility (hosted by its owner), limits mixed.
/// Returns the open-ended events at facilities: where persons RSVP to
/// "play there".
async fn seed_events(
    args: &MarketArgs,
    api: &Api,
    captains: &[Session],
    facilities: &[String],
    now: DateTime<Utc>,
    report: &mut Seeding,
) -> Vec<String> {
    info!(events = args.events, "seeding events");
    let started = Instant::now();
    let n = args.events.max(1) as i64;
    let events = run_all(args.events, args.setup_concurrency, &mut report.errors, "POST /events", |i| {
        let api = api.clone();
        let at_facility = (i % 3 == 0).then(|| facilities[(i / 3) % facilities.len()].clone());
        let token =
            if at_facility.is_some() { captains[0].token.clone() } else { captains[i % captains.len()].token.clone() };
        let start = at(now, HOUR_MS + (i as i64) * (EVENT_SPREAD_MS - HOUR_MS) / n);
        let (skaters, goalies) = match i % 4 {
            0 => (Some(20), Some(2)),
            1 => (None, Some(1)),
            2 => (Some(12), None),
            _ => (None, None),
        };
        async move {
            let mut body = json!({"title": format!("Market skate #{i}"), "startDate": start, "eventType": "OTHER",
                                  "maxSkaters": skaters, "maxGoalies": goalies});
            if let Some(f) = &at_facility {
                body["facilityId"] = json!(f);
            }
            let id = id_of(&api.post_value("/api/v1/events", &token, body).await?)?;
            Ok((id, at_facility))
        }
    })
    .await;
    report.events_seconds = started.elapsed().as_secs_f64();
    let events: Vec<(String, Option<String>)> = events.into_iter().flatten().collect();
    report.events_created = events.len();
    events.iter().enumerate().filter(|(i, (_, f))| f.is_some() && i % 4 == 3).map(|(_, (id, _))| id.clone()).collect()
}

/// Teams: half at a facility. Each with its index.
async fn seed_teams(
    args: &MarketArgs,
    tag: &str,
    api: &Api,
    captains: &[Session],
    facilities: &[String],
    report: &mut Seeding,
) -> Vec<(usize, String)> {
    let teams = run_all(args.teams, args.setup_concurrency, &mut report.errors, "POST /teams", |i| {
        let api = api.clone();
        let token = captains[i % captains.len()].token.clone();
        let mut body = json!({"name": format!("Market Team {i} {tag}")});
        if i % 2 == 0 {
            body["facilityId"] = json!(facilities[i % facilities.len()]);
        }
        async move { id_of(&api.post_value("/api/v1/teams", &token, body).await?) }
    })
    .await;
    let teams: Vec<(usize, String)> = teams.into_iter().enumerate().filter_map(|(i, t)| t.map(|t| (i, t))).collect();
    report.teams_created = teams.len();
    teams
}

/// Persons, two statuses each: a third with a rated position (a level), a
/// tenth playing at a facility (an RSVP there). Each with its index.
async fn seed_persons(
    args: &MarketArgs,
    tag: &str,
    api: &Api,
    facility_events: &[String],
    report: &mut Seeding,
) -> Vec<(usize, Session)> {
    let person_count = (args.statuses - 2 * args.teams).div_ceil(2);
    info!(persons = person_count, "signing persons in");
    let started = Instant::now();
    let persons = run_all(person_count, args.setup_concurrency, &mut report.errors, "persons", |i| {
        let api = api.clone();
        let name = format!("mk{tag}p{i}");
        let rsvp_to = (i % 10 == 0 && !facility_events.is_empty())
            .then(|| facility_events[(i / 10) % facility_events.len()].clone());
        async move {
            let (s, _) = api.dev_token_retrying(&name).await?;
            let mut level = false;
            if i % 3 == 0 {
                let body = json!({"position": if i % 2 == 0 { "GOALIE" } else { "CENTER" },
                                  "skillLevel": SKILLS[(i / 3) % SKILLS.len()], "isPreferred": true});
                api.post_value("/api/v1/me/positions", &s.token, body).await?;
                level = true;
            }
            let mut plays = false;
            if let Some(event) = rsvp_to {
                api.rsvp(&s.token, &event, "ATTENDING", Some("CENTER")).await?;
                plays = true;
            }
            Ok((s, level, plays))
        }
    })
    .await;
    report.people_seconds = started.elapsed().as_secs_f64();
    let persons: Vec<(usize, Session)> = persons
        .into_iter()
        .enumerate()
        .filter_map(|(i, p)| {
            let (s, level, plays) = p?;
            report.persons_with_level += usize::from(level);
            report.persons_at_facility += usize::from(plays);
            Some((i, s))
        })
        .collect();
    report.persons = persons.len();
    persons
}

/// The statuses to post, as `(token, body)`: the teams' first (RECRUITING
/// and LOOKING_FOR_SUBS each), then the persons' (AVAILABLE_TO_SUB and
/// LOOKING_FOR_TEAM), `person_statuses` of those.
fn status_posts(
    person_statuses: usize,
    captains: &[Session],
    teams: &[(usize, String)],
    persons: &[(usize, Session)],
    now: DateTime<Utc>,
) -> Vec<(String, Value)> {
    let mut posts: Vec<(String, Value)> = Vec::with_capacity(2 * teams.len() + person_statuses);
    for (i, team) in teams {
        let token = captains[i % captains.len()].token.clone();
        posts.push((
            token.clone(),
            json!({"type": "RECRUITING", "entityType": "TEAM", "teamId": team, "positions": positions(*i + 1),
                   "message": "Recruiting for the winter season"}),
        ));
        posts.push((
            token,
            json!({"type": "LOOKING_FOR_SUBS", "entityType": "TEAM", "teamId": team, "positions": positions(*i),
                   "expiresAt": at(now, (1 + (*i as i64) % 13) * DAY_MS)}),
        ));
    }
    let mut person_posts = 0usize;
    for (i, p) in persons {
        let i = *i;
        if person_posts < person_statuses {
            let mut body = json!({"type": "AVAILABLE_TO_SUB", "entityType": "USER", "positions": positions(i)});
            if i % 3 != 0 {
                // Spread over the 14 days allowed; a third keep the default
                // (the end of today).
                body["expiresAt"] = json!(at(now, (1 + (i as i64) % 13) * DAY_MS + ((i as i64) % 24) * HOUR_MS));
            }
            posts.push((p.token.clone(), body));
            person_posts += 1;
        }
        if person_posts < person_statuses {
            let mut body = json!({"type": "LOOKING_FOR_TEAM", "entityType": "USER", "positions": positions(i + 3)});
            if i % 2 == 1 {
                body["expiresAt"] = json!(at(now, (2 + (i as i64) % 85) * DAY_MS));
            }
            posts.push((p.token.clone(), body));
            person_posts += 1;
        }
    }
    posts
}

/// Posts the statuses, timing each; counts them by type.
async fn post_statuses(args: &MarketArgs, api: &Api, posts: Vec<(String, Value)>, report: &mut Seeding) {
    report.statuses_requested = posts.len();
    info!(statuses = posts.len(), "posting statuses");
    let started = Instant::now();
    let latency = Mutex::new(Recorder::new());
    let posted = run_all(posts.len(), args.setup_concurrency, &mut report.errors, "POST /statuses", |i| {
        let api = api.clone();
        let (token, body) = posts[i].clone();
        let latency = &latency;
        async move {
            let sent = Instant::now();
            let s = api.post_value("/api/v1/statuses", &token, body).await?;
            if let Ok(mut l) = latency.lock() {
                l.record(sent.elapsed());
            }
            Ok(s["type"].as_str().unwrap_or("?").to_string())
        }
    })
    .await;
    let span = started.elapsed();
    report.statuses_seconds = span.as_secs_f64();
    for kind in posted.into_iter().flatten() {
        *report.by_type.entry(kind).or_default() += 1;
        report.statuses_created += 1;
    }
    report.statuses_per_sec = rate(report.statuses_created as u64, span);
    report.status_post = latency.lock().map(|l| l.summary()).unwrap_or_default();
    info!(created = report.statuses_created, seconds = report.statuses_seconds, "statuses posted");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_rotate_through_goalies_skaters_and_any() {
        assert_eq!(positions(0), vec!["GOALIE"]);
        assert!(positions(3).is_empty());
        assert_eq!((0..6).filter(|i| positions(*i).contains(&"GOALIE")).count(), 2);
    }
}
