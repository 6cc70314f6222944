//! Where people, teams and events sit on the universal division scale
//! (docs/statuses.md › Levels), as SQL expressions for the sub market's
//! reads: computed when read, so a roster's new division counts at once.

use crate::domain::{SkillLevel, UniversalDivision};

/// `CASE` turning a division value column into its level on the scale.
fn scale_level(column: &str) -> String {
    let arms: String =
        UniversalDivision::ALL.iter().map(|d| format!(" WHEN '{}' THEN {}", d.as_str(), d.level())).collect();
    format!("CASE {column}{arms} END")
}

/// `CASE` turning a skill level column into its level on the scale.
fn skill_level(column: &str) -> String {
    let arms: String =
        SkillLevel::ALL.iter().map(|s| format!(" WHEN '{}' THEN {}", s.as_str(), s.on_scale().level())).collect();
    format!("CASE {column}{arms} END")
}

/// A team's level: its highest division among its ACTIVE rosters.
pub fn team_level(team: &str) -> String {
    format!(
        "(SELECT MAX({}) FROM rosters lr JOIN division_mappings ld ON ld.id = lr.division_mapping_id \
          WHERE lr.team_id = {team} AND lr.status = 'ACTIVE')",
        scale_level("ld.universal_division_scale")
    )
}

/// A person's level: their highest division among the ACTIVE rosters they
/// play on, else their highest skill level.
pub fn person_level(user: &str) -> String {
    format!(
        "COALESCE((SELECT MAX({}) FROM roster_players lp JOIN rosters lr ON lr.id = lp.roster_id \
            JOIN division_mappings ld ON ld.id = lr.division_mapping_id \
          WHERE lp.user_id = {user} AND lr.status = 'ACTIVE'), \
          (SELECT MAX({}) FROM player_positions lq WHERE lq.user_id = {user}))",
        scale_level("ld.universal_division_scale"),
        skill_level("lq.skill_level")
    )
}

/// An event's level: the highest of its teams' levels.
pub fn event_level(event: &str) -> String {
    format!(
        "(SELECT MAX({}) FROM event_teams lt JOIN rosters lr ON lr.team_id = lt.team_id AND lr.status = 'ACTIVE' \
            JOIN division_mappings ld ON ld.id = lr.division_mapping_id WHERE lt.event_id = {event})",
        scale_level("ld.universal_division_scale")
    )
}

/// A status's level: its team's, its event's (a person's call for an
/// event), else its person's.
pub fn status_level() -> String {
    format!(
        "CASE WHEN s.entity_type = 'TEAM' THEN {} WHEN s.event_id IS NOT NULL THEN {} ELSE {} END",
        team_level("s.team_id"),
        event_level("s.event_id"),
        person_level("s.user_id")
    )
}

/// The same level as [`status_level`] for a read that needs it for every
/// candidate (a level filter): joins of each kind's levels computed once
/// per read, rather than three lookups per row. Answers the joins to put
/// after `FROM statuses s` and the expression to select.
pub fn status_level_joined() -> (String, &'static str) {
    let scale = scale_level("ld.universal_division_scale");
    let joins = format!(
        "LEFT JOIN (SELECT lr.team_id AS id, MAX({scale}) AS level FROM rosters lr \
           JOIN division_mappings ld ON ld.id = lr.division_mapping_id WHERE lr.status = 'ACTIVE' \
           GROUP BY lr.team_id) tl ON tl.id = s.team_id \
         LEFT JOIN (SELECT lp.user_id AS id, MAX({scale}) AS level FROM roster_players lp \
           JOIN rosters lr ON lr.id = lp.roster_id JOIN division_mappings ld ON ld.id = lr.division_mapping_id \
           WHERE lr.status = 'ACTIVE' GROUP BY lp.user_id) pl ON pl.id = s.user_id \
         LEFT JOIN (SELECT lq.user_id AS id, MAX({skill}) AS level FROM player_positions lq \
           GROUP BY lq.user_id) sl ON sl.id = s.user_id \
         LEFT JOIN (SELECT lt.event_id AS id, MAX({scale}) AS level FROM event_teams lt \
           JOIN rosters lr ON lr.team_id = lt.team_id AND lr.status = 'ACTIVE' \
           JOIN division_mappings ld ON ld.id = lr.division_mapping_id GROUP BY lt.event_id) el \
           ON el.id = s.event_id",
        skill = skill_level("lq.skill_level"),
    );
    let level = "CASE WHEN s.entity_type = 'TEAM' THEN tl.level WHEN s.event_id IS NOT NULL THEN el.level \
                 ELSE COALESCE(pl.level, sl.level) END";
    (joins, level)
}
