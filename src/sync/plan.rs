//! What a sync changes, decided without I/O: the stored external rosters
//! and games against the schedule just read, then the season's games
//! against their events (docs/sync.md › What a sync changes).
//!
//! Rows are written only when a field differs, which is what makes a
//! second run of an unchanged source write nothing.

use std::collections::HashMap;

use super::matching::{self, Candidate, External, Verdict};
use super::place;
use super::schedule::{Schedule, normalise_name};
use crate::db::imported_events::{EventNow, EventWanted};
use crate::db::sync::{ExternalGameRow, ExternalRosterRow};

/// The season being synced, as the plan needs it.
pub struct Season<'a> {
    pub id: &'a str,
    pub facility_id: &'a str,
    /// The season's rink's name: a source's place that repeats it keeps
    /// only the rest as the game's rink (`place::rink_at`), since the
    /// game's event is at this rink already.
    pub facility_name: &'a str,
    /// (id, facility division name) of the season's division mappings.
    pub mappings: &'a [(String, String)],
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
pub struct RosterCounts {
    pub created: u32,
    pub updated: u32,
    pub matched: u32,
    pub unmatched: u32,
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
pub struct GameCounts {
    pub created: u32,
    pub updated: u32,
    pub unchanged: u32,
    pub removed: u32,
}

/// The rows to write and the season's rows after writing them.
#[derive(Debug, Default)]
pub struct Plan {
    pub rosters_to_write: Vec<ExternalRosterRow>,
    pub games_to_write: Vec<ExternalGameRow>,
    pub rosters: Vec<ExternalRosterRow>,
    pub games: Vec<ExternalGameRow>,
    pub roster_counts: RosterCounts,
    pub game_counts: GameCounts,
}

/// Compares the stored rosters and games with the schedule. `new_id`
/// names new rows.
pub fn plan(
    season: &Season<'_>,
    stored_rosters: &[ExternalRosterRow],
    stored_games: &[ExternalGameRow],
    schedule: &Schedule,
    candidates: &[Candidate],
    now: i64,
    new_id: &mut dyn FnMut() -> String,
) -> Plan {
    let mut out = Plan::default();
    let mut by_external: HashMap<&str, &ExternalRosterRow> =
        stored_rosters.iter().map(|r| (r.external_id.as_str(), r)).collect();
    let mut rosters: Vec<ExternalRosterRow> = Vec::new();
    for team in &schedule.teams {
        let mapping = team.division.as_deref().and_then(|d| mapping_for(season.mappings, d));
        match by_external.remove(team.external_id.as_str()) {
            Some(old) => {
                let mut row = old.clone();
                row.name.clone_from(&team.name);
                row.original_division.clone_from(&team.division);
                row.division_mapping_id = mapping;
                rosters.push(row);
            }
            None => rosters.push(ExternalRosterRow {
                id: new_id(),
                external_id: team.external_id.clone(),
                name: team.name.clone(),
                original_division: team.division.clone(),
                url: None,
                is_matched: 0,
                team_id: None,
                team_name: None,
                division_mapping_id: mapping,
                match_source: None,
                claimed_team_id: None,
                claimed_team_name: None,
                claimed_by: None,
                claimed_at: None,
                facility_id: season.facility_id.to_string(),
                season_id: season.id.to_string(),
            }),
        }
    }
    // Teams gone from the source stay (their games are removed below).
    rosters.extend(by_external.into_values().cloned());
    rosters.sort_by(|a, b| a.name.cmp(&b.name).then_with(|| a.id.cmp(&b.id)));
    rematch(&mut rosters, candidates);
    let stored: HashMap<&str, &ExternalRosterRow> = stored_rosters.iter().map(|r| (r.id.as_str(), r)).collect();
    for row in &rosters {
        match stored.get(row.id.as_str()) {
            None => out.roster_counts.created += 1,
            Some(old) if !same_roster(old, row) => out.roster_counts.updated += 1,
            Some(_) => continue,
        }
        out.rosters_to_write.push(row.clone());
    }
    for row in &rosters {
        if row.is_matched == 1 {
            out.roster_counts.matched += 1;
        } else {
            out.roster_counts.unmatched += 1;
        }
    }
    let roster_of: HashMap<&str, &str> = rosters.iter().map(|r| (r.external_id.as_str(), r.id.as_str())).collect();
    plan_games(&mut out, stored_games, schedule, &roster_of, season.facility_name, now, new_id);
    out.rosters = rosters;
    out
}

fn plan_games(
    out: &mut Plan,
    stored_games: &[ExternalGameRow],
    schedule: &Schedule,
    roster_of: &HashMap<&str, &str>,
    venue: &str,
    now: i64,
    new_id: &mut dyn FnMut() -> String,
) {
    let mut by_external: HashMap<&str, &ExternalGameRow> =
        stored_games.iter().map(|g| (g.external_id.as_str(), g)).collect();
    let mut games = Vec::with_capacity(schedule.games.len());
    for game in &schedule.games {
        let old = by_external.remove(game.external_id.as_str());
        if old.is_none() && game.cancelled {
            continue; // never seen playing: nothing to take back
        }
        let row = ExternalGameRow {
            id: old.map_or_else(&mut *new_id, |o| o.id.clone()),
            external_id: game.external_id.clone(),
            date_time: game.start_utc_ms,
            end_time: game.end_utc_ms,
            rink: game.rink.as_deref().and_then(|rink| place::rink_at(rink, venue)),
            division: game.division.clone(),
            home_goals: game.home_goals,
            away_goals: game.away_goals,
            game_type: game.game_type.clone(),
            home_roster_id: roster_of.get(game.home_team_id.as_str()).map(|s| s.to_string()),
            away_roster_id: roster_of.get(game.away_team_id.as_str()).map(|s| s.to_string()),
            home_name: game.home.clone(),
            away_name: game.away.clone(),
            event_id: old.and_then(|o| o.event_id.clone()),
            removed_at: if game.cancelled { old.and_then(|o| o.removed_at).or(Some(now)) } else { None },
        };
        match old {
            None => out.game_counts.created += 1,
            Some(o) if *o == row => out.game_counts.unchanged += 1,
            Some(o) if o.removed_at.is_none() && row.removed_at.is_some() => out.game_counts.removed += 1,
            Some(_) => out.game_counts.updated += 1,
        }
        if old != Some(&row) {
            out.games_to_write.push(row.clone());
        }
        games.push(row);
    }
    // Gone from the source: marked removed, never deleted.
    for old in by_external.into_values() {
        let mut row = old.clone();
        if row.removed_at.is_none() {
            row.removed_at = Some(now);
            out.game_counts.removed += 1;
            out.games_to_write.push(row.clone());
        }
        games.push(row);
    }
    games.sort_by(|a, b| a.date_time.cmp(&b.date_time).then_with(|| a.id.cmp(&b.id)));
    out.games = games;
}

/// The season's division mapping named like the source's division.
fn mapping_for(mappings: &[(String, String)], division: &str) -> Option<String> {
    let key = normalise_name(division);
    mappings.iter().find(|(_, name)| normalise_name(name) == key).map(|(id, _)| id.clone())
}

/// Candidates from their rows (one per roster division), one per team.
pub fn candidates_from(rows: Vec<crate::db::sync::CandidateRow>) -> Vec<Candidate> {
    let mut out: Vec<Candidate> = Vec::new();
    for row in rows {
        match out.iter_mut().find(|c| c.team_id == row.team_id) {
            Some(c) => c.divisions.extend(row.division),
            None => out.push(Candidate {
                team_id: row.team_id,
                name: row.name,
                divisions: row.division.into_iter().collect(),
            }),
        }
    }
    out
}

/// Runs the matching rules over every roster not decided by hand.
pub fn rematch(rosters: &mut [ExternalRosterRow], candidates: &[Candidate]) {
    let taken: Vec<String> = rosters
        .iter()
        .filter(|r| r.match_source.as_deref() == Some("MANUAL"))
        .filter_map(|r| r.team_id.clone())
        .collect();
    for row in rosters.iter_mut() {
        let external = External {
            name: row.name.clone(),
            division: row.original_division.clone(),
            team_id: row.team_id.clone(),
            by_hand: row.match_source.as_deref() == Some("MANUAL"),
        };
        match matching::decide(&external, candidates, &taken) {
            Verdict::ByHand => {}
            Verdict::Matched(team_id) => {
                row.team_name = candidates.iter().find(|c| c.team_id == team_id).map(|c| c.name.clone());
                row.team_id = Some(team_id);
                row.is_matched = 1;
                row.match_source = Some("AUTO".into());
            }
            Verdict::Unmatched(_) => {
                row.team_id = None;
                row.team_name = None;
                row.is_matched = 0;
                row.match_source = None;
            }
        }
    }
}

fn same_roster(a: &ExternalRosterRow, b: &ExternalRosterRow) -> bool {
    a.name == b.name
        && a.original_division == b.original_division
        && a.division_mapping_id == b.division_mapping_id
        && a.team_id == b.team_id
        && a.is_matched == b.is_matched
        && a.match_source == b.match_source
}

/// What to do to one game's event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EventStep {
    /// `game_id`: write the new event's id back on it.
    Create {
        game_id: String,
        wanted: EventWanted,
    },
    Update {
        event_id: String,
        wanted: EventWanted,
    },
    Cancel {
        event_id: String,
    },
}

/// The steps that bring every game's event in line: a game with a matched
/// team has a live event saying what the source says; a removed game's
/// event is cancelled.
pub fn event_steps(
    games: &[ExternalGameRow],
    rosters: &[ExternalRosterRow],
    events: &HashMap<String, EventNow>,
) -> Vec<EventStep> {
    let team_of: HashMap<&str, Option<&String>> =
        rosters.iter().map(|r| (r.id.as_str(), r.team_id.as_ref().filter(|_| r.is_matched == 1))).collect();
    let mut steps = Vec::new();
    for game in games {
        let current = game.event_id.as_ref().and_then(|id| events.get(id));
        let live = current.filter(|e| e.cancelled_at.is_none());
        if game.removed_at.is_some() {
            if let Some(e) = live {
                steps.push(EventStep::Cancel { event_id: e.id.clone() });
            }
            continue;
        }
        let team = |roster: &Option<String>| roster.as_deref().and_then(|r| team_of.get(r).copied().flatten()).cloned();
        let home_team_id = team(&game.home_roster_id);
        let mut away_team_id = team(&game.away_roster_id);
        if away_team_id == home_team_id {
            away_team_id = None; // one team cannot be both sides of an event
        }
        let wanted = EventWanted {
            title: format!("{} vs {}", game.home_name, game.away_name),
            start_date: game.date_time,
            end_date: game.end_time,
            external_rink: game.rink.clone(),
            external_home_team_name: Some(game.home_name.clone()),
            external_away_team_name: Some(game.away_name.clone()),
            home_score: game.home_goals,
            away_score: game.away_goals,
            home_team_id,
            away_team_id,
        };
        match live {
            Some(e) if wants(e) != wanted => steps.push(EventStep::Update { event_id: e.id.clone(), wanted }),
            Some(_) => {}
            None if wanted.home_team_id.is_some() || wanted.away_team_id.is_some() => {
                steps.push(EventStep::Create { game_id: game.id.clone(), wanted });
            }
            None => {}
        }
    }
    steps
}

fn wants(e: &EventNow) -> EventWanted {
    EventWanted {
        title: e.title.clone(),
        start_date: e.start_date,
        end_date: e.end_date,
        external_rink: e.external_rink.clone(),
        external_home_team_name: e.external_home_team_name.clone(),
        external_away_team_name: e.external_away_team_name.clone(),
        home_score: e.home_score,
        away_score: e.away_score,
        home_team_id: e.home_team_id.clone(),
        away_team_id: e.away_team_id.clone(),
    }
}

#[cfg(test)]
#[path = "plan_tests.rs"]
mod tests;
