//! `history`: who dropped late (docs/pickup-night.md › History and the
//! record) under a long history. Starts its own node (SQLite file or a
//! fresh PostgreSQL schema), or uses `--url`, and seeds over HTTP:
//!
//! - one event whose RSVP and waitlist history reaches `--rows` rows
//!   (default 5,000): `--users` people join and drop in rounds, concurrently,
//!   against small limits, so joins, waitlisting, promotions and declines
//!   (many in the same batch) all pile up;
//! - a weekly series of `--weeks` events (default 52, half of them past)
//!   with `--week-players` answering each week and a few dropping out.
//!
//! Then it times, one request at a time: the history's first page (the
//! client's 20 and the largest, 100), a full walk of it in pages of 100
//! (checking every row comes once, in order), and the series' record as
//! its organiser (everyone) and as a player (their own line).

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use chrono::{SecondsFormat, Utc};
use futures_util::{StreamExt, stream};
use serde::Serialize;
use serde_json::{Value, json};
use tracing::info;

use super::Outcome;
use super::own_node::with_own_node;
use crate::api::{Api, Session, run_tag};
use crate::cli::HistoryArgs;
use crate::stats::{Recorder, Summary};

const HOUR_MS: i64 = 3_600_000;
const WEEK_MS: i64 = 7 * 24 * HOUR_MS;

/// The largest page the API gives.
const WALK_PAGE: usize = 100;
/// The page the event page's card asks for.
const CARD_PAGE: usize = 20;

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Report {
    database: String,
    /// History rows of the long event, as walked.
    history_rows: usize,
    seeding_rsvps: usize,
    seeding_seconds: f64,
    series_weeks: usize,
    series_rows: usize,
    record_lines: usize,
    first_page_20: Summary,
    first_page_100: Summary,
    /// One full walk in pages of 100.
    full_walk: Summary,
    /// Every row came once, in `(at, id)` order, on every walk.
    walks_consistent: bool,
    record_organiser: Summary,
    record_player: Summary,
    node_panics: Vec<String>,
}

impl Report {
    fn human(&self) -> String {
        format!(
            "history ({})\n  seeded         {} history rows on one event ({} RSVPs, {:.1} s); a series of {} weeks with {} rows\n  \
             first page 20  {}\n  first page 100 {}\n  full walk      {}   ({} pages of 100, {})\n  \
             record (org)   {}   ({} lines)\n  record (self)  {}\n",
            self.database,
            self.history_rows,
            self.seeding_rsvps,
            self.seeding_seconds,
            self.series_weeks,
            self.series_rows,
            self.first_page_20,
            self.first_page_100,
            self.full_walk,
            self.history_rows.div_ceil(WALK_PAGE),
            if self.walks_consistent { "each row once, in order" } else { "ROWS MISSING, REPEATED OR OUT OF ORDER" },
            self.record_organiser,
            self.record_lines,
            self.record_player,
        ) + &if self.node_panics.is_empty() {
            String::new()
        } else {
            format!("  node panics:\n    {}\n", self.node_panics.join("\n    "))
        }
    }
}

pub async fn run(args: HistoryArgs) -> Result<Outcome> {
    if args.users < 4 || args.week_players < 2 || args.weeks == 0 || args.weeks > 52 {
        bail!("--users must be at least 4, --week-players at least 2, --weeks 1 to 52");
    }
    let tag = run_tag();
    if let Some(url) = &args.url {
        let report = measure(&args, &tag, url, "external").await?;
        return Ok(outcome(report));
    }
    let (mut report, panics) = with_own_node(&args.node, args.log_dir.as_ref(), "history", &tag, async |node| {
        measure(&args, &tag, &node.url, node.label).await
    })
    .await?;
    report.node_panics = panics;
    Ok(outcome(report))
}

fn outcome(report: Report) -> Outcome {
    Outcome {
        scenario: "history",
        passed: report.walks_consistent && report.node_panics.is_empty(),
        human: report.human(),
        report: serde_json::to_value(&report).unwrap_or(Value::Null),
    }
}

fn rfc3339(ms: i64) -> String {
    chrono::DateTime::<Utc>::from_timestamp_millis(ms).unwrap_or_default().to_rfc3339_opts(SecondsFormat::Secs, true)
}

/// A player's position: one in ten a goalie.
fn position(i: usize) -> &'static str {
    if i.is_multiple_of(10) {
        "GOALIE"
    } else {
        ["CENTER", "LEFT_WING", "RIGHT_WING", "LEFT_DEFENSE", "RIGHT_DEFENSE"][i % 5]
    }
}

async fn measure(args: &HistoryArgs, tag: &str, url: &str, label: &str) -> Result<Report> {
    let api = Arc::new(Api::new(url)?);
    let organiser = api.dev_token_retrying(&format!("hist_org_{tag}")).await?.0;
    let users = api.sign_in_many(args.users, args.setup_concurrency, |i| format!("hist_{tag}_{i}")).await?;
    info!(users = users.len(), "signed in");
    let now = Utc::now().timestamp_millis();
    let long = seed_long_history(args, &api, &organiser, &users, now).await?;
    let series = seed_series(args, &api, &organiser, &users, now).await?;

    // Reads, one at a time.
    let token = &organiser.token;
    let first_page = |limit: usize| format!("/api/v1/events/{}/history?limit={limit}", long.event_id);
    let (first_page_20, _) = time_reads(&api, &first_page(CARD_PAGE), token, args.reads).await?;
    let (first_page_100, _) = time_reads(&api, &first_page(WALK_PAGE), token, args.reads).await?;
    let mut walks = Recorder::new();
    let mut consistent = true;
    for _ in 0..args.walks {
        let t = Instant::now();
        let (items, ok) = walk(&api, token, &long.event_id).await?;
        walks.record(t.elapsed());
        consistent &= ok && items.len() == long.rows;
    }
    let record = format!("/api/v1/event-series/{}/record", series.id);
    let (record_organiser, last) = time_reads(&api, &record, token, args.reads).await?;
    let (record_player, _) = time_reads(&api, &record, &users[1].token, args.reads).await?;
    Ok(Report {
        database: label.to_string(),
        history_rows: long.rows,
        seeding_rsvps: long.rsvps,
        seeding_seconds: long.seconds,
        series_weeks: series.weeks,
        series_rows: series.rows,
        record_lines: last.map_or(0, |record| record["items"].as_array().map_or(0, Vec::len)),
        first_page_20,
        first_page_100,
        full_walk: walks.summary(),
        walks_consistent: consistent,
        record_organiser,
        record_player,
        node_panics: Vec::new(),
    })
}

/// The long event, as seeded.
struct LongHistory {
    event_id: String,
    /// History rows, as walked.
    rows: usize,
    rsvps: usize,
    seconds: f64,
}

/// The long event: a week out, small limits so the waitlist moves; every
/// user flips (in → out, out → in) each round, all at once, until its
/// history reaches `--rows`.
async fn seed_long_history(
    args: &HistoryArgs,
    api: &Arc<Api>,
    organiser: &Session,
    users: &[Session],
    now: i64,
) -> Result<LongHistory> {
    let event: Value = api
        .post_value(
            "/api/v1/events",
            &organiser.token,
            json!({"title": "Long history", "startDate": rfc3339(now + WEEK_MS), "eventType": "OTHER",
                   "maxSkaters": args.users / 4, "maxGoalies": 2}),
        )
        .await?;
    let event_id = event["id"].as_str().context("event id")?.to_string();
    let seeding = Instant::now();
    let mut rsvps = 0;
    let mut inside = vec![false; users.len()];
    let mut rows = 0;
    for round in 0.. {
        let flips: Vec<(usize, String, &'static str)> =
            (0..users.len()).map(|i| (i, event_id.clone(), if inside[i] { "DECLINED" } else { "ATTENDING" })).collect();
        rsvps += flips.len();
        rsvp_all(api, users, flips, args.setup_concurrency).await?;
        for x in inside.iter_mut() {
            *x = !*x;
        }
        rows = walk(api, &organiser.token, &event_id).await?.0.len();
        info!(round, rows, "seeding the long history");
        if rows >= args.rows {
            break;
        }
    }
    Ok(LongHistory { event_id, rows, rsvps, seconds: seeding.elapsed().as_secs_f64() })
}

/// The weekly series, as seeded.
struct Series {
    id: String,
    weeks: usize,
    /// History rows over all its weeks.
    rows: usize,
}

/// The series: half its weeks past, a pool of players answering each
/// week, three of them dropping out.
async fn seed_series(
    args: &HistoryArgs,
    api: &Arc<Api>,
    organiser: &Session,
    users: &[Session],
    now: i64,
) -> Result<Series> {
    let first = now - (args.weeks as i64 / 2) * WEEK_MS + HOUR_MS;
    let until = chrono::DateTime::<Utc>::from_timestamp_millis(first + (args.weeks as i64 - 1) * WEEK_MS)
        .unwrap_or_default()
        .format("%Y-%m-%d")
        .to_string();
    let created: Value = api
        .post_value(
            "/api/v1/events",
            &organiser.token,
            json!({"title": "Tuesday pickup", "startDate": rfc3339(first), "eventType": "OTHER", "maxSkaters": 20,
                   "maxGoalies": 2, "repeat": {"frequency": "WEEKLY", "until": until}}),
        )
        .await?;
    let series_id = created["seriesId"].as_str().context("series id")?.to_string();
    let doc = api.get_value(&format!("/api/v1/event-series/{series_id}"), &organiser.token).await?;
    let weeks: Vec<String> = doc["events"]
        .as_array()
        .context("series events")?
        .iter()
        .filter_map(|e| e["id"].as_str().map(str::to_string))
        .collect();
    let pool = users.len().min(args.week_players * 3 / 2);
    let mut answers: Vec<(usize, String, &'static str)> = Vec::new();
    for (w, week) in weeks.iter().enumerate() {
        for k in 0..args.week_players {
            answers.push(((w * 7 + k) % pool, week.clone(), "ATTENDING"));
        }
    }
    let series_joins = answers.len();
    rsvp_all(api, users, answers, args.setup_concurrency).await?;
    // Three drop out of every week.
    let drops: Vec<(usize, usize)> =
        (0..weeks.len()).flat_map(|w| (0..3).map(move |k| (w, (w * 7 + k * 5) % pool))).collect();
    for chunk in drops.chunks(args.setup_concurrency) {
        for &(w, i) in chunk {
            api.rsvp(&users[i].token, &weeks[w], "DECLINED", None).await?;
        }
    }
    let mut rows = 0;
    for week in &weeks {
        rows += walk(api, &organiser.token, week).await?.0.len();
    }
    info!(weeks = weeks.len(), series_rows = rows, joins = series_joins, "series seeded");
    Ok(Series { id: series_id, weeks: weeks.len(), rows })
}

/// Sends every `(user, event, action)` RSVP, `concurrency` at a time, each
/// in the user's position.
async fn rsvp_all(
    api: &Arc<Api>,
    users: &[Session],
    rsvps: Vec<(usize, String, &'static str)>,
    concurrency: usize,
) -> Result<()> {
    let results = stream::iter(rsvps)
        .map(|(i, event_id, action)| {
            let (api, token) = (api.clone(), users[i].token.clone());
            async move { api.rsvp(&token, &event_id, action, Some(position(i))).await.map(|_| ()) }
        })
        .buffer_unordered(concurrency)
        .collect::<Vec<_>>()
        .await;
    results.into_iter().collect()
}

/// `n` reads of `path` as `token`, one at a time: their latencies, and the
/// last answer.
async fn time_reads(api: &Api, path: &str, token: &str, n: usize) -> Result<(Summary, Option<Value>)> {
    let mut latency = Recorder::new();
    let mut last = None;
    for _ in 0..n {
        let t = Instant::now();
        last = Some(api.get_value(path, token).await?);
        latency.record(t.elapsed());
    }
    Ok((latency.summary(), last))
}

/// The event's whole history in pages of 100, and whether every row came
/// once and in `(at, id)` order.
async fn walk(api: &Api, token: &str, event_id: &str) -> Result<(Vec<Value>, bool)> {
    let mut items: Vec<Value> = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let path = match &cursor {
            None => format!("/api/v1/events/{event_id}/history?limit={WALK_PAGE}"),
            Some(c) => format!("/api/v1/events/{event_id}/history?limit={WALK_PAGE}&cursor={c}"),
        };
        let page = api.get_value(&path, token).await?;
        items.extend(page["items"].as_array().cloned().unwrap_or_default());
        match page["nextCursor"].as_str() {
            Some(next) => cursor = Some(next.to_string()),
            None => break,
        }
    }
    let mut seen = HashSet::new();
    let keys: Vec<(String, String)> = items
        .iter()
        .map(|i| (i["at"].as_str().unwrap_or("").to_string(), i["id"].as_str().unwrap_or("").to_string()))
        .collect();
    let once = keys.iter().all(|k| seen.insert(k.1.clone()));
    let ordered = keys.windows(2).all(|w| w[0] <= w[1]);
    Ok((items, once && ordered))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_player_in_ten_is_a_goalie() {
        let goalies = (0..100).filter(|&i| position(i) == "GOALIE").count();
        assert_eq!(goalies, 10);
    }
}
