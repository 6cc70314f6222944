//! The sub market's board as its readers see it: a walk of the whole board
//! (every status once), timed reads with a mix of filters ([`read_board`])
//! each checked against its filter ([`check_items`]), and timed
//! `GET /me/matches` reads for subs ([`read_matches`]).

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use anyhow::{Result, bail};
use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::Value;
use tracing::{info, warn};

use super::seed::Seeded;
use super::{DAY_MS, at};
use crate::api::Api;
use crate::cli::MarketArgs;
use crate::fleet::ErrorTally;
use crate::stats::{Recorder, Summary};

/// Board page size for the full walk.
pub const WALK_PAGE: usize = 100;

/// Violations kept for the report (the count is always complete).
const MAX_VIOLATIONS: usize = 25;

const STATUS_TYPES: [&str; 4] = ["AVAILABLE_TO_SUB", "LOOKING_FOR_TEAM", "RECRUITING", "LOOKING_FOR_SUBS"];
/// Divisions within one step of INTERMEDIATE (the filter the reads use).
const NEAR_INTERMEDIATE: [&str; 3] = ["RECREATIONAL", "INTERMEDIATE", "ADVANCED"];

fn parse_time(raw: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(raw).ok().map(|t| t.with_timezone(&Utc))
}

/// The filter kinds of the timed board reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum FilterKind {
    None,
    Type,
    Position,
    Facility,
    Division,
    Window,
}

const FILTERS: [FilterKind; 6] = [
    FilterKind::None,
    FilterKind::Type,
    FilterKind::Position,
    FilterKind::Facility,
    FilterKind::Division,
    FilterKind::Window,
];

impl FilterKind {
    fn label(self) -> &'static str {
        match self {
            FilterKind::None => "none",
            FilterKind::Type => "type",
            FilterKind::Position => "position=GOALIE",
            FilterKind::Facility => "facilityId",
            FilterKind::Division => "division=INTERMEDIATE",
            FilterKind::Window => "from/to window",
        }
    }
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FilterReport {
    pub filter: &'static str,
    pub latency: Summary,
    pub mean_items: f64,
}

#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Walk {
    pub statuses: usize,
    pub pages: usize,
    pub duplicates: usize,
    pub page_latency: Summary,
}

pub async fn walk_board(api: &Api, token: &str) -> Result<Walk> {
    info!("walking the whole board");
    let mut walk = Walk::default();
    let mut latency = Recorder::new();
    let mut seen = HashSet::new();
    let mut cursor: Option<String> = None;
    loop {
        let path = match &cursor {
            None => format!("/api/v1/statuses?limit={WALK_PAGE}"),
            Some(c) => format!("/api/v1/statuses?limit={WALK_PAGE}&cursor={c}"),
        };
        let sent = Instant::now();
        let page = api.get_value(&path, token).await?;
        latency.record(sent.elapsed());
        walk.pages += 1;
        for item in page["items"].as_array().into_iter().flatten() {
            let id = item["id"].as_str().unwrap_or_default().to_string();
            if !seen.insert(id) {
                walk.duplicates += 1;
            }
            walk.statuses += 1;
        }
        match page["nextCursor"].as_str() {
            Some(c) if !c.is_empty() => cursor = Some(c.to_string()),
            _ => break,
        }
        if walk.pages > 100_000 {
            bail!("the board did not end after 100,000 pages");
        }
    }
    walk.statuses = seen.len();
    walk.page_latency = latency.summary();
    Ok(walk)
}

/// The timed board reads.
pub struct Board {
    pub overall: Summary,
    pub by_filter: Vec<FilterReport>,
    pub violations: usize,
    pub samples: Vec<String>,
    pub errors: ErrorTally,
}

/// The query string of read `round` with filter `kind` at `now`.
fn query(kind: FilterKind, asked_type: &str, facilities: &[String], round: usize, now: DateTime<Utc>) -> String {
    match kind {
        FilterKind::None => String::new(),
        FilterKind::Type => format!("?type={asked_type}"),
        FilterKind::Position => "?position=GOALIE".into(),
        FilterKind::Facility => format!("?facilityId={}", facilities[round % facilities.len()]),
        FilterKind::Division => "?division=INTERMEDIATE".into(),
        FilterKind::Window => format!("?from={}&to={}", at(now, 3 * DAY_MS).replace('+', "%2B"), at(now, 5 * DAY_MS)),
    }
}

/// Checks one answer against its filter; describes each item that breaks it.
fn check_items(kind: FilterKind, query: &str, asked_type: &str, from: DateTime<Utc>, items: &[Value]) -> Vec<String> {
    let now = Utc::now();
    let mut bad = Vec::new();
    for item in items {
        let id = item["id"].as_str().unwrap_or("?");
        let expires = item["expiresAt"].as_str().and_then(parse_time);
        if expires.is_none_or(|e| e <= now) {
            bad.push(format!("{query}: status {id} is not active (expiresAt {})", item["expiresAt"]));
        }
        let why = match kind {
            FilterKind::Type if item["type"] != asked_type => Some(format!("type {}", item["type"])),
            FilterKind::Position => {
                let ps = item["positions"].as_array().cloned().unwrap_or_default();
                (!ps.is_empty() && !ps.iter().any(|p| p == "GOALIE"))
                    .then(|| format!("positions {}", item["positions"]))
            }
            FilterKind::Division => {
                let level = item["level"].as_str().unwrap_or("null");
                (!NEAR_INTERMEDIATE.contains(&level)).then(|| format!("level {level}"))
            }
            FilterKind::Window if expires.is_some_and(|e| e <= from) => {
                Some(format!("expiresAt {} is before the window", item["expiresAt"]))
            }
            _ => None,
        };
        if let Some(why) = why {
            bad.push(format!("{query}: status {id}: {why}"));
        }
    }
    bad
}

pub async fn read_board(args: &MarketArgs, api: &Api, seeded: &Seeded) -> Board {
    info!(reads = args.board_reads, "timing board reads");
    let token = &seeded.reader.token;
    let mut overall = Recorder::new();
    let mut per: HashMap<FilterKind, (Recorder, usize, usize)> = HashMap::new();
    let mut violations = 0usize;
    let mut samples = Vec::new();
    let mut errors = ErrorTally::default();
    for i in 0..args.board_reads {
        let kind = FILTERS[i % FILTERS.len()];
        let round = i / FILTERS.len();
        let now = Utc::now();
        let from = now + chrono::Duration::days(3);
        let asked_type = STATUS_TYPES[round % STATUS_TYPES.len()];
        let query = query(kind, asked_type, &seeded.facilities, round, now);
        let sent = Instant::now();
        match api.get_value(&format!("/api/v1/statuses{query}"), token).await {
            Ok(page) => {
                let took = sent.elapsed();
                overall.record(took);
                let items = page["items"].as_array().cloned().unwrap_or_default();
                let entry = per.entry(kind).or_insert_with(|| (Recorder::new(), 0, 0));
                entry.0.record(took);
                entry.1 += 1;
                entry.2 += items.len();
                for v in check_items(kind, &query, asked_type, from, &items) {
                    violations += 1;
                    if samples.len() < MAX_VIOLATIONS {
                        samples.push(v);
                    }
                }
            }
            Err(e) => errors.add(&format!("{e:#}")),
        }
    }
    let by_filter = FILTERS
        .iter()
        .filter_map(|k| {
            let (r, reads, items) = per.get(k)?;
            Some(FilterReport {
                filter: k.label(),
                latency: r.summary(),
                mean_items: if *reads > 0 { *items as f64 / *reads as f64 } else { 0.0 },
            })
        })
        .collect();
    Board { overall: overall.summary(), by_filter, violations, samples, errors }
}

pub async fn read_matches(args: &MarketArgs, api: &Api, seeded: &Seeded) -> (Summary, f64) {
    info!(reads = args.matches_reads, "timing matches reads");
    let mut latency = Recorder::new();
    let mut items = 0usize;
    let mut reads = 0usize;
    for j in 0..args.matches_reads {
        if seeded.subs.is_empty() {
            break;
        }
        let sub = &seeded.subs[(j * 37) % seeded.subs.len()];
        let sent = Instant::now();
        match api.get_value("/api/v1/me/matches", &sub.token).await {
            Ok(page) => {
                latency.record(sent.elapsed());
                items += page["items"].as_array().map_or(0, Vec::len);
                reads += 1;
            }
            Err(e) => warn!("matches read failed: {e:#}"),
        }
    }
    (latency.summary(), if reads > 0 { items as f64 / reads as f64 } else { 0.0 })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn items_breaking_their_filter_are_named() {
        let soon = at(Utc::now(), DAY_MS);
        let past = at(Utc::now(), -DAY_MS);
        let from = Utc::now() + chrono::Duration::hours(36);
        let items = vec![
            json!({"id": "a", "type": "RECRUITING", "positions": [], "level": null, "expiresAt": soon}),
            json!({"id": "b", "type": "AVAILABLE_TO_SUB", "positions": ["CENTER"], "level": "ELITE", "expiresAt": past}),
        ];
        assert!(check_items(FilterKind::None, "", "", from, &items[..1]).is_empty());
        assert_eq!(check_items(FilterKind::None, "", "", from, &items).len(), 1);
        assert_eq!(check_items(FilterKind::Type, "?type=X", "AVAILABLE_TO_SUB", from, &items[..1]).len(), 1);
        assert_eq!(check_items(FilterKind::Position, "", "", from, &items).len(), 2);
        assert_eq!(check_items(FilterKind::Division, "", "", from, &items[..1]).len(), 1);
        assert_eq!(check_items(FilterKind::Window, "", "", from, &items[..1]).len(), 1);
    }
}
