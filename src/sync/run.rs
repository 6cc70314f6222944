//! One sync of one season: take its lease, fetch and read the schedule,
//! write what changed in one transaction, then tell people (docs/sync.md).
//!
//! A failed sync changes nothing but its own record in the history. The
//! lease keeps two syncs of one season (two nodes, or a click during a
//! scheduled run) from interleaving.

use std::collections::HashMap;

use chrono_tz::Tz;
use serde::Serialize;

use super::matching::Candidate;
use super::plan::{self, EventStep, GameCounts, RosterCounts};
use super::schedule::{Format, Schedule, ScheduleError};
use super::{daysmart, detect};
use crate::db::feed::Written;
use crate::db::imported_events::{EventNow, EventWanted};
use crate::db::sync::{self as store, Outcome, RunRow};
use crate::db::{self, new_id};
use crate::error::{AppError, AppResult};
use crate::feed::EventChange;
use crate::outbound::fetch::{FetchError, Fetcher};
use crate::state::AppState;

/// How long a sync may hold its season's lease: past the fetcher's 10 s
/// cap with room for a large write.
const LEASE_MS: i64 = 120_000;
/// Statements of a run's own record (insert, prune the history).
const RECORD_STATEMENTS: u32 = 2;
/// Most DaySmart pages followed.
const MAX_PAGES: u32 = 100;

/// Who started the sync.
#[derive(Debug, Clone)]
pub enum Trigger {
    /// Staff tapped "Sync now".
    Manual {
        by: String,
    },
    Scheduled,
}

impl Trigger {
    fn as_str(&self) -> &'static str {
        match self {
            Trigger::Manual { .. } => "MANUAL",
            Trigger::Scheduled => "SCHEDULED",
        }
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct EventCounts {
    pub created: u32,
    pub updated: u32,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct RunError {
    #[schema(value_type = String)]
    pub code: &'static str,
    pub message: String,
}

/// CONTRACT.md › Season sync's report, plus the run's id, trigger, outcome
/// and cost (docs/sync.md › API).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub id: String,
    /// `MANUAL` or `SCHEDULED`.
    #[schema(value_type = String)]
    pub trigger: &'static str,
    pub ok: bool,
    /// `DAYSMART`, `ICALENDAR` or `CSV`; null for a failed run.
    #[schema(value_type = Option<String>)]
    pub format: Option<&'static str>,
    pub rosters: RosterCounts,
    pub games: GameCounts,
    pub events: EventCounts,
    pub errors: Vec<String>,
    /// SQL statements the sync's writes ran (reads not counted).
    pub statements: u32,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub started_at: i64,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub finished_at: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub error: Option<RunError>,
}

/// Why a sync did not happen.
#[derive(Debug, thiserror::Error)]
pub enum SyncError {
    #[error("{0}")]
    Fetch(#[from] FetchError),
    #[error("{0}")]
    Schedule(#[from] ScheduleError),
    #[error("a sync of this season is already running")]
    Running,
    #[error("the season has no schedule URL to sync from")]
    NoUrl,
    #[error("season")]
    NoSeason,
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl SyncError {
    fn code(&self) -> &'static str {
        match self {
            SyncError::Fetch(FetchError::Refused(_)) => "fetch_refused",
            SyncError::Fetch(FetchError::TooLarge) => "too_large",
            SyncError::Fetch(FetchError::TooSlow) => "too_slow",
            SyncError::Fetch(_) => "fetch_failed",
            SyncError::Schedule(_) => "not_a_schedule",
            SyncError::Running => "sync_running",
            SyncError::NoUrl => "validation_failed",
            SyncError::NoSeason => "not_found",
            SyncError::Internal(_) => "internal",
        }
    }
}

impl From<SyncError> for AppError {
    fn from(e: SyncError) -> Self {
        match e {
            SyncError::Running => AppError::conflict_code("sync_running", e.to_string()),
            SyncError::NoUrl => AppError::field("syncUrl", "add the league's schedule URL first"),
            SyncError::NoSeason => AppError::not_found("season"),
            SyncError::Internal(err) => AppError::Internal(err),
            other => AppError::unprocessable(other.code(), other.to_string()),
        }
    }
}

impl From<sqlx::Error> for SyncError {
    fn from(e: sqlx::Error) -> Self {
        SyncError::Internal(e.into())
    }
}

impl From<AppError> for SyncError {
    fn from(e: AppError) -> Self {
        SyncError::Internal(anyhow::anyhow!("{}: {}", e.code(), e.message()))
    }
}

/// A manual sync: takes the lease (409 while another runs), runs, records.
pub async fn sync_now(state: &AppState, season_id: &str, by: &str) -> Result<Report, SyncError> {
    let owner = new_id();
    let now = (state.clock)();
    if db::seasons::get(&state.db.pool, season_id).await?.is_none() {
        return Err(SyncError::NoSeason);
    }
    if !store::take_lease(&state.db.pool, season_id, &owner, now, now + LEASE_MS, false).await? {
        return Err(SyncError::Running);
    }
    run_leased(state, season_id, &owner, Trigger::Manual { by: by.to_string() }).await
}

/// Runs a sync whose lease `owner` holds, records it, releases the lease and
/// schedules the next one.
pub async fn run_leased(state: &AppState, season_id: &str, owner: &str, trigger: Trigger) -> Result<Report, SyncError> {
    let started_at = (state.clock)();
    let result = attempt(state, season_id, &trigger, started_at).await;
    let finished_at = (state.clock)();
    let interval = state.config.sync.interval.as_millis() as i64;
    let (report, outcome) = match &result {
        Ok(report) => {
            let next = super::scheduler::next_after_success(finished_at, interval, jitter_seed(season_id, finished_at));
            (report.clone(), Outcome { next_at: Some(next), failures: 0, synced_at: Some(finished_at) })
        }
        Err(e) => {
            if let SyncError::Internal(err) = e {
                tracing::error!(season_id, error = ?err, "season sync failed");
            }
            let report = failed_report(&trigger, e, started_at, finished_at);
            let failures = store::failures(&state.db.pool, season_id).await.unwrap_or(0);
            let next = super::scheduler::next_after_failure(finished_at, interval, failures + 1);
            (report, Outcome { next_at: Some(next), failures: failures + 1, synced_at: None })
        }
    };
    if result.is_err() {
        let mut tx = state.db.begin().await?;
        store::record_run(&mut tx, &run_row(season_id, &trigger, &report)).await?;
        tx.commit().await?;
    }
    store::finish(&state.db.pool, season_id, owner, outcome).await?;
    result
}

/// The failure's record: zero counts and what went wrong.
fn failed_report(trigger: &Trigger, e: &SyncError, started_at: i64, finished_at: i64) -> Report {
    let message = match e {
        SyncError::Internal(_) => "the sync failed inside Rinkside; it will be retried".to_string(),
        other => other.to_string(),
    };
    Report {
        id: new_id(),
        trigger: trigger.as_str(),
        ok: false,
        format: None,
        rosters: RosterCounts::default(),
        games: GameCounts::default(),
        events: EventCounts::default(),
        errors: Vec::new(),
        statements: 0,
        started_at,
        finished_at,
        error: Some(RunError { code: e.code(), message }),
    }
}

fn run_row(season_id: &str, trigger: &Trigger, report: &Report) -> RunRow {
    RunRow {
        id: report.id.clone(),
        season_id: season_id.to_string(),
        trigger_kind: trigger.as_str().to_string(),
        ok: i64::from(report.ok),
        report: serde_json::to_string(report).unwrap_or_default(),
        started_at: report.started_at,
        finished_at: report.finished_at,
    }
}

/// A per-season, per-run number for the schedule's jitter.
fn jitter_seed(season_id: &str, now: i64) -> u64 {
    season_id.bytes().fold(now as u64, |h, b| h.rotate_left(5) ^ u64::from(b))
}

/// Fetches and reads the season's schedule.
pub async fn read_schedule(fetcher: &Fetcher, url: &str, zone: Tz) -> Result<(Format, Schedule), SyncError> {
    let deadline = fetcher.deadline();
    let first = fetcher.get_before(url, deadline).await?;
    let format = detect::detect(first.content_type.as_deref(), &first.body)?;
    if format != Format::DaySmart {
        return Ok((format, detect::parse(format, &first.body, zone)?));
    }
    let page = daysmart::parse_page(&first.body, zone)?;
    let mut pages = vec![page.schedule];
    let base = first.url.to_string();
    for n in 2..=page.last_page.min(MAX_PAGES) {
        let next = fetcher.get_before(&daysmart::page_url(&base, n), deadline).await?;
        pages.push(daysmart::parse_page(&next.body, zone)?.schedule);
    }
    let merged = daysmart::merge(pages);
    merged.check_limits()?;
    Ok((Format::DaySmart, merged))
}

async fn attempt(state: &AppState, season_id: &str, trigger: &Trigger, started_at: i64) -> Result<Report, SyncError> {
    let season = db::seasons::get(&state.db.pool, season_id).await?.ok_or(SyncError::NoSeason)?;
    let url = season.sync_url.clone().ok_or(SyncError::NoUrl)?;
    let facility = db::sync::facility(&state.db.pool, &season.facility_id).await?.ok_or(SyncError::NoSeason)?;
    let zone: Tz = facility.timezone.parse().unwrap_or(chrono_tz::UTC);
    let (format, schedule) = read_schedule(&state.fetcher, &url, zone).await?;
    let by = match trigger {
        Trigger::Manual { by } => by.clone(),
        Trigger::Scheduled => facility.owner_id.clone(),
    };
    let mut tx = state.db.begin().await?;
    let stored_rosters = store::rosters(&mut *tx, season_id).await?;
    let stored_games = store::games(&mut *tx, season_id).await?;
    let kept = stored_games.iter().filter(|g| g.removed_at.is_none()).count();
    if schedule.games.is_empty() && kept > 0 {
        // A source that suddenly lists nothing is far likelier broken than a
        // league that cancelled its whole season: never take every game back.
        return Err(SyncError::Schedule(ScheduleError::NotASchedule(format!(
            "the source lists no games; the season keeps the {kept} it has"
        ))));
    }
    let candidates = candidates(&mut tx, season_id, &season.facility_id).await?;
    let mappings = store::mappings(&mut *tx, season_id).await?;
    let now = (state.clock)();
    let scope = plan::Season {
        id: season_id,
        facility_id: &season.facility_id,
        facility_name: &season.facility_name,
        mappings: &mappings,
    };
    let mut planned = plan::plan(&scope, &stored_rosters, &stored_games, &schedule, &candidates, now, &mut new_id);
    let written = write_plan(&mut tx, state, &season, &by, &mut planned).await?;
    let report = Report {
        id: new_id(),
        trigger: trigger.as_str(),
        ok: true,
        format: Some(format.as_str()),
        rosters: planned.roster_counts,
        games: planned.game_counts,
        events: EventCounts { created: written.created, updated: written.updated + written.to_cancel.len() as u32 },
        errors: Vec::new(),
        statements: written.statements + RECORD_STATEMENTS,
        started_at,
        finished_at: (state.clock)(),
        error: None,
    };
    store::record_run(&mut tx, &run_row(season_id, trigger, &report)).await?;
    tx.commit().await?;
    tell(state, &by, written, now).await;
    Ok(report)
}

/// Writes a planned sync (or rematch) in the caller's transaction: the
/// events first (new games learn their event's id), then the rosters and
/// games that changed, then EXTERNAL_GAME_IMPORTED for the new games.
async fn write_plan(
    tx: &mut db::Tx,
    state: &AppState,
    season: &db::seasons::SeasonRow,
    by: &str,
    planned: &mut plan::Plan,
) -> Result<EventsWritten, SyncError> {
    let now = (state.clock)();
    let current = db::imported_events::events_of_games(&mut **tx, &season.id).await?;
    let steps = plan::event_steps(&planned.games, &planned.rosters, &current);
    let mut written = write_events(tx, state, season, by, &steps, &current, planned).await?;
    written.statements += store::upsert_rosters(tx, state.db.backend, &planned.rosters_to_write, now).await?;
    written.statements += store::upsert_games(tx, state.db.backend, &season.id, &planned.games_to_write, now).await?;
    if !written.created_for_teams.is_empty() {
        let imported =
            crate::feed::external_game_imported(tx, by, &season.id, written.created, &written.created_for_teams)
                .await?;
        written.told.push(imported);
        written.statements += 2; // the fan-out closes old items, then writes
    }
    Ok(written)
}

/// After the commit: the feed items pushed live, the matches of moved
/// events recomputed, removed games' events cancelled.
async fn tell(state: &AppState, by: &str, written: EventsWritten, now: i64) {
    crate::live::feed::spawn_push(&state.db, &state.realtime.pusher, written.told);
    for event_id in &written.moved {
        crate::market::push::event_changed_soon(&state.db, &state.realtime.pusher, event_id, now);
    }
    cancel_removed(state, by, &written.to_cancel).await;
}

/// Cancels removed games' events through their actors, after the commit
/// that marked the games removed. A failure is logged, not the sync's: the
/// game stays removed with a live event, which the next sync cancels.
async fn cancel_removed(state: &AppState, by: &str, event_ids: &[String]) {
    for event_id in event_ids {
        if let Err(e) = crate::commands::event::cancel_for_sync(state, by, event_id).await {
            tracing::warn!(event_id, error = %e.message(), "cancelling a removed game's event failed; the next sync retries");
        }
    }
}

/// What the event writes did.
#[derive(Default)]
struct EventsWritten {
    created: u32,
    updated: u32,
    statements: u32,
    /// Teams that got new games (for EXTERNAL_GAME_IMPORTED).
    created_for_teams: Vec<String>,
    /// Events whose time or rink moved (their people were told).
    moved: Vec<String>,
    /// Cancelled after the commit, through each event's actor.
    to_cancel: Vec<String>,
    told: Vec<Written>,
}

async fn write_events(
    tx: &mut db::Tx,
    state: &AppState,
    season: &db::seasons::SeasonRow,
    by: &str,
    steps: &[EventStep],
    current: &HashMap<String, EventNow>,
    planned: &mut plan::Plan,
) -> Result<EventsWritten, SyncError> {
    let mut out = EventsWritten::default();
    let mut new_events: Vec<(String, &EventWanted)> = Vec::new();
    for step in steps {
        match step {
            EventStep::Create { game_id, wanted } => {
                let event_id = new_id();
                if let Some(game) = planned.games.iter_mut().find(|g| &g.id == game_id) {
                    game.event_id = Some(event_id.clone());
                    match planned.games_to_write.iter_mut().find(|g| &g.id == game_id) {
                        Some(row) => row.event_id = Some(event_id.clone()),
                        None => planned.games_to_write.push(game.clone()),
                    }
                }
                for team in [&wanted.home_team_id, &wanted.away_team_id].into_iter().flatten() {
                    if !out.created_for_teams.contains(team) {
                        out.created_for_teams.push(team.clone());
                    }
                }
                new_events.push((event_id, wanted));
                out.created += 1;
            }
            EventStep::Update { event_id, wanted } => {
                let Some(before) = current.get(event_id) else { continue };
                out.statements += db::imported_events::update_event(&mut *tx, event_id, wanted, before).await?;
                let mut changes = Vec::new();
                if before.start_date != wanted.start_date || before.end_date != wanted.end_date {
                    changes.push(EventChange::Time);
                }
                // A rink only rewritten (written once, issue 26) is no move.
                let (was, is) = (before.external_rink.as_deref(), wanted.external_rink.as_deref());
                if !super::place::same_place(was, is, &season.facility_name) {
                    changes.push(EventChange::Place);
                }
                if !changes.is_empty() {
                    if before.start_date != wanted.start_date {
                        db::spots::follow_event_start(&mut **tx, event_id, wanted.start_date, (state.clock)()).await?;
                        out.statements += 1;
                    }
                    if let Some(told) = crate::feed::event_updated(&mut *tx, Some(by), event_id, &changes).await? {
                        out.told.push(told);
                        out.statements += 2; // the fan-out closes old items, then writes
                    }
                    out.moved.push(event_id.clone());
                }
                out.updated += 1;
            }
            EventStep::Cancel { event_id } => out.to_cancel.push(event_id.clone()),
        }
    }
    if new_events.is_empty() {
        return Ok(out);
    }
    let owner = db::sync::facility(&mut **tx, &season.facility_id).await?.map(|f| f.owner_id);
    let creator = owner.as_deref().unwrap_or(by);
    out.statements +=
        db::imported_events::insert_events(&mut *tx, state.db.backend, season, creator, &new_events, (state.clock)())
            .await?;
    Ok(out)
}

/// Our teams the season's external teams may be.
async fn candidates(tx: &mut db::Tx, season_id: &str, facility_id: &str) -> Result<Vec<Candidate>, sqlx::Error> {
    Ok(plan::candidates_from(store::candidates(&mut **tx, season_id, facility_id).await?))
}

/// Staff match (`Some(team)`) or unmatch (`None`) an external roster by
/// hand; matching runs again without fetching, so the season's games get
/// (or keep) their events at once.
pub async fn match_by_hand(
    state: &AppState,
    season_id: &str,
    roster_id: &str,
    team_id: Option<&str>,
    by: &str,
) -> AppResult<()> {
    let season = db::seasons::get(&state.db.pool, season_id).await?.ok_or_else(|| AppError::not_found("season"))?;
    // Under the season's lease, like a sync: two writers of one season's
    // games could both create an event for the same game.
    let owner = new_id();
    let now = (state.clock)();
    if !store::take_lease(&state.db.pool, season_id, &owner, now, now + LEASE_MS, false).await? {
        return Err(SyncError::Running.into());
    }
    let result = rematch_leased(state, &season, (roster_id, team_id), by).await;
    store::release_lease(&state.db.pool, season_id, &owner).await?;
    result
}

async fn rematch_leased(
    state: &AppState,
    season: &db::seasons::SeasonRow,
    (roster_id, team_id): (&str, Option<&str>),
    by: &str,
) -> AppResult<()> {
    let season_id = season.id.as_str();
    let mut tx = state.db.begin().await?;
    store::set_match_by_hand(&mut tx, roster_id, team_id, (state.clock)()).await?;
    let mut planned = plan::Plan {
        rosters: store::rosters(&mut *tx, season_id).await?,
        games: store::games(&mut *tx, season_id).await?,
        ..plan::Plan::default()
    };
    let candidates = candidates(&mut tx, season_id, &season.facility_id).await?;
    let before = planned.rosters.clone();
    plan::rematch(&mut planned.rosters, &candidates);
    planned.rosters_to_write = planned.rosters.iter().filter(|r| !before.contains(r)).cloned().collect();
    let written = write_plan(&mut tx, state, season, by, &mut planned).await?;
    tx.commit().await?;
    tell(state, by, written, (state.clock)()).await;
    Ok(())
}
