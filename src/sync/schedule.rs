//! The one shape every schedule adapter returns (`Schedule`: teams and games),
//! the error they share, and what the adapters have in common: the keys for
//! sources without stable ids, name normalisation for matching, text
//! decoding, and the local-time → UTC rule.
//!
//! Everything here is pure: no I/O, no clock. The adapters (`daysmart.rs`,
//! `ical.rs`, `csv.rs`) read bytes into these types; `detect.rs` picks one.

use std::borrow::Cow;
use std::collections::HashMap;

use chrono::{DateTime, LocalResult, NaiveDateTime, Offset, TimeDelta, TimeZone};
use chrono_tz::Tz;
use serde::Serialize;

/// The most games one schedule may hold. A league season has a few hundred;
/// a body with more is a whole facility's calendar or an attack, and would
/// make one sync write tens of thousands of rows.
pub const MAX_GAMES: usize = 20_000;

/// The highest score a source may report for one side. Real hockey scores
/// stay far below it; anything above is a data error we refuse to show.
pub(crate) const MAX_GOALS: i64 = 99;

/// The years a schedule's dates may fall in. Outside them a date is a typo
/// (or hostile input) and, read as a time, would only overflow arithmetic.
pub(crate) const YEARS: std::ops::RangeInclusive<i32> = 1900..=2200;

/// Which adapter reads a body.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Format {
    #[serde(rename = "DAYSMART")]
    DaySmart,
    #[serde(rename = "ICALENDAR")]
    ICalendar,
    #[serde(rename = "CSV")]
    Csv,
}

impl Format {
    /// The name stored with a sync run and shown in its report.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::DaySmart => "DAYSMART",
            Format::ICalendar => "ICALENDAR",
            Format::Csv => "CSV",
        }
    }
}

/// A team as the source names it; matched to one of ours later.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Team {
    /// The source's id, or `fallback_team_id` where the source has none.
    pub external_id: String,
    pub name: String,
    /// The source's league or division name, used to tell apart same-named teams.
    pub division: Option<String>,
}

/// One game as the source describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    /// The source's stable id, or `fallback_game_id` where it has none.
    pub external_id: String,
    /// Wall-clock time at the rink, as people read it on the schedule.
    pub start_local: NaiveDateTime,
    pub end_local: Option<NaiveDateTime>,
    /// The instant, in epoch milliseconds UTC: what ordering and reminders use.
    pub start_utc_ms: i64,
    pub end_utc_ms: Option<i64>,
    pub rink: Option<String>,
    pub division: Option<String>,
    /// Team names as the source spells them.
    pub home: String,
    pub away: String,
    /// `Team::external_id` of each side, so a game finds its teams without names.
    pub home_team_id: String,
    pub away_team_id: String,
    /// `None` until the game is played (or when the source gives no score).
    pub home_goals: Option<i64>,
    pub away_goals: Option<i64>,
    pub game_type: Option<String>,
    /// The source says the game is off; the sync cancels its event.
    pub cancelled: bool,
}

/// What one source says about a season.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Schedule {
    /// Sorted by name then division; one per `external_id`.
    pub teams: Vec<Team>,
    /// Sorted by `(start_utc_ms, external_id)`; one per `external_id`.
    pub games: Vec<Game>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ScheduleError {
    /// The body is not a schedule we can read; the message says precisely why
    /// (with a line number or game id where there is one), for the sync report.
    #[error("{0}")]
    NotASchedule(String),
}

/// Shorthand for the adapters.
pub(crate) fn not_a_schedule(message: impl Into<String>) -> ScheduleError {
    ScheduleError::NotASchedule(message.into())
}

impl Schedule {
    /// Puts what an adapter read into the shape `Schedule` promises: one team
    /// and one game per external id (the later one wins, as a later page or a
    /// later line is the newer word), both sorted, each team name spelled
    /// the one best way the source has (`spelling`). Does not check limits.
    pub(crate) fn assemble(mut teams: Vec<Team>, mut games: Vec<Game>) -> Schedule {
        super::spelling::respell(&mut teams, &mut games);
        let mut schedule =
            Schedule { teams: dedup_by_id(teams, |t| &t.external_id), games: dedup_by_id(games, |g| &g.external_id) };
        schedule.teams.sort_by(|a, b| {
            (a.name.as_str(), a.division.as_deref(), a.external_id.as_str()).cmp(&(
                b.name.as_str(),
                b.division.as_deref(),
                b.external_id.as_str(),
            ))
        });
        schedule.games.sort_by(|a, b| (a.start_utc_ms, &a.external_id).cmp(&(b.start_utc_ms, &b.external_id)));
        schedule
    }

    /// `assemble`, then refuse a schedule over `MAX_GAMES`.
    pub(crate) fn finish(teams: Vec<Team>, games: Vec<Game>) -> Result<Schedule, ScheduleError> {
        let schedule = Schedule::assemble(teams, games);
        schedule.check_limits()?;
        Ok(schedule)
    }

    /// Refuses a schedule with more than `MAX_GAMES` games. Each parser checks
    /// its own body; a caller that merges pages checks the merged result.
    pub fn check_limits(&self) -> Result<(), ScheduleError> {
        if self.games.len() > MAX_GAMES {
            return Err(too_many_games());
        }
        Ok(())
    }
}

/// The teams of sources that only name them in games (iCalendar, CSV): each
/// side of each game, in its game's division, keyed by its `*_team_id`.
pub(crate) fn teams_of(games: &[Game]) -> Vec<Team> {
    let side = |name: &String, id: &String, division: &Option<String>| Team {
        external_id: id.clone(),
        name: name.clone(),
        division: division.clone(),
    };
    games
        .iter()
        .flat_map(|g| [side(&g.home, &g.home_team_id, &g.division), side(&g.away, &g.away_team_id, &g.division)])
        .collect()
}

/// The error for a body over `MAX_GAMES`.
pub(crate) fn too_many_games() -> ScheduleError {
    not_a_schedule(format!("more than {MAX_GAMES} games"))
}

/// Keeps the last item for each id, at the position of the first.
fn dedup_by_id<T>(items: Vec<T>, id: impl Fn(&T) -> &String) -> Vec<T> {
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut out: Vec<T> = Vec::with_capacity(items.len());
    for item in items {
        match index.get(id(&item)) {
            Some(&i) => out[i] = item,
            None => {
                index.insert(id(&item).clone(), out.len());
                out.push(item);
            }
        }
    }
    out
}

/// A key for sources without stable ids: `YYYY-MM-DD|rink|home|away`, each
/// part normalised. The local date (not the time) is in it so that moving a
/// game within its evening updates it instead of removing and re-adding it.
pub fn fallback_game_id(start_local: NaiveDateTime, rink: Option<&str>, home: &str, away: &str) -> String {
    format!(
        "{}|{}|{}|{}",
        start_local.date().format("%Y-%m-%d"),
        normalise_name(rink.unwrap_or("")),
        normalise_name(home),
        normalise_name(away)
    )
}

/// A team key for sources without team ids: normalised name `|` normalised
/// division, so that two divisions' "Bears" stay two teams.
pub fn fallback_team_id(name: &str, division: Option<&str>) -> String {
    format!("{}|{}", normalise_name(name), normalise_name(division.unwrap_or("")))
}

/// Normalises a team name for matching: accents folded (by a table for
/// Latin-1 and Latin Extended-A, no Unicode tables needed), lowercase,
/// punctuation removed, whitespace collapsed.
///
/// Apostrophes and dots vanish ("St. Mary's" → "st marys") because people
/// drop them; other punctuation separates words ("Sin-Bin" → "sin bin")
/// because people write those with a space just as often.
pub fn normalise_name(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut gap = false;
    for c in s.chars().flat_map(char::to_lowercase) {
        if is_combining_mark(c) || matches!(c, '\'' | '\u{2019}' | '\u{2018}' | '`' | '\u{b4}' | '.') {
            continue;
        }
        if !c.is_alphanumeric() {
            gap = true;
            continue;
        }
        if gap && !out.is_empty() {
            out.push(' ');
        }
        gap = false;
        match fold_accent(c) {
            Some(folded) => out.push_str(folded),
            None => out.push(c),
        }
    }
    out
}

/// Combining diacritics, as found in text that arrives already decomposed (NFD).
fn is_combining_mark(c: char) -> bool {
    ('\u{300}'..='\u{36f}').contains(&c)
}

/// The unaccented spelling of a lowercase Latin-1 or Latin Extended-A letter.
fn fold_accent(c: char) -> Option<&'static str> {
    Some(match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' | 'ă' | 'ą' => "a",
        'æ' => "ae",
        'ç' | 'ć' | 'ĉ' | 'ċ' | 'č' => "c",
        'ď' | 'đ' | 'ð' => "d",
        'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ĕ' | 'ė' | 'ę' | 'ě' => "e",
        'ĝ' | 'ğ' | 'ġ' | 'ģ' => "g",
        'ĥ' | 'ħ' => "h",
        'ì' | 'í' | 'î' | 'ï' | 'ĩ' | 'ī' | 'ĭ' | 'į' | 'ı' => "i",
        'ĳ' => "ij",
        'ĵ' => "j",
        'ķ' | 'ĸ' => "k",
        'ĺ' | 'ļ' | 'ľ' | 'ŀ' | 'ł' => "l",
        'ñ' | 'ń' | 'ņ' | 'ň' | 'ŉ' | 'ŋ' => "n",
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ō' | 'ŏ' | 'ő' => "o",
        'œ' => "oe",
        'ŕ' | 'ŗ' | 'ř' => "r",
        'ś' | 'ŝ' | 'ş' | 'š' | 'ſ' => "s",
        'ß' => "ss",
        'ţ' | 'ť' | 'ŧ' => "t",
        'þ' => "th",
        'ù' | 'ú' | 'û' | 'ü' | 'ũ' | 'ū' | 'ŭ' | 'ů' | 'ű' | 'ų' => "u",
        'ŵ' => "w",
        'ý' | 'ÿ' | 'ŷ' => "y",
        'ź' | 'ż' | 'ž' => "z",
        _ => return None,
    })
}

/// The text of a body: a BOM (UTF-8 or UTF-16, as spreadsheet exports write
/// them) stripped. Bytes that are not UTF-8 are read as Latin-1, since that
/// is what older Windows exports are and every byte is a Latin-1 character,
/// so a stray byte costs one wrong letter instead of the whole sync.
pub(crate) fn decode_text(body: &[u8]) -> Cow<'_, str> {
    if let Some(rest) = body.strip_prefix(b"\xEF\xBB\xBF") {
        return decode_text(rest);
    }
    let utf16 = |bytes: &[u8], from: fn([u8; 2]) -> u16| -> String {
        let units = bytes.chunks_exact(2).map(|pair| from([pair[0], pair[1]]));
        char::decode_utf16(units).map(|r| r.unwrap_or(char::REPLACEMENT_CHARACTER)).collect()
    };
    if let Some(rest) = body.strip_prefix(b"\xFF\xFE") {
        return Cow::Owned(utf16(rest, u16::from_le_bytes));
    }
    if let Some(rest) = body.strip_prefix(b"\xFE\xFF") {
        return Cow::Owned(utf16(rest, u16::from_be_bytes));
    }
    match std::str::from_utf8(body) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => Cow::Owned(body.iter().map(|&b| char::from(b)).collect()),
    }
}

/// The instant of a wall-clock time in `zone`, in epoch milliseconds. Never
/// fails: at a fall-back overlap it is the earlier instant (the first 1:30);
/// in a spring-forward gap the time is read with the offset in force before
/// the gap, which moves it forward by the gap (2:30 → 3:30 EDT), as a clock
/// that was not changed yet would show it.
pub(crate) fn local_to_utc_ms(local: NaiveDateTime, zone: Tz) -> i64 {
    match zone.from_local_datetime(&local) {
        LocalResult::Single(at) => at.timestamp_millis(),
        LocalResult::Ambiguous(earliest, _) => earliest.timestamp_millis(),
        LocalResult::None => {
            let naive_utc = local.and_utc();
            let before = naive_utc.checked_sub_signed(TimeDelta::days(1)).unwrap_or(naive_utc);
            let offset = zone.offset_from_utc_datetime(&before.naive_utc()).fix();
            local.checked_sub_offset(offset).unwrap_or(local).and_utc().timestamp_millis()
        }
    }
}

/// The wall-clock time in `zone` of an instant.
pub(crate) fn utc_to_local(utc: NaiveDateTime, zone: Tz) -> NaiveDateTime {
    zone.from_utc_datetime(&utc).naive_local()
}

/// The wall-clock time in `zone` of an instant in epoch milliseconds.
pub(crate) fn utc_ms_to_local(ms: i64, zone: Tz) -> Option<NaiveDateTime> {
    DateTime::from_timestamp_millis(ms).map(|at| utc_to_local(at.naive_utc(), zone))
}

/// Whether a date lies in `YEARS`.
pub(crate) fn plausible(at: NaiveDateTime) -> bool {
    YEARS.contains(&chrono::Datelike::year(&at))
}

/// Whether a score is one we accept.
pub(crate) fn is_score(goals: i64) -> bool {
    (0..=MAX_GOALS).contains(&goals)
}

/// Text with surrounding whitespace removed, or `None` when nothing is left.
pub(crate) fn non_empty(s: &str) -> Option<String> {
    let s = s.trim();
    (!s.is_empty()).then(|| s.to_string())
}

/// Gives the n-th repeat of a fallback key a suffix, so that a doubleheader
/// (same day, rink and teams) stays two games.
#[derive(Default)]
pub(crate) struct FallbackIds(HashMap<String, usize>);

impl FallbackIds {
    pub(crate) fn next(&mut self, key: String) -> String {
        let seen = self.0.entry(key.clone()).or_insert(0);
        *seen += 1;
        if *seen == 1 { key } else { format!("{key}|{seen}") }
    }
}

#[cfg(test)]
#[path = "schedule_tests.rs"]
mod tests;

// What the adapters' tests share.

/// A fixture from `shared/fixtures/schedules/`, beside the crate.
#[cfg(test)]
pub(crate) fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/../shared/fixtures/schedules/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

/// A fixture of ours, from `tests/fixtures/schedules/` in the crate: the
/// real-world shapes met since the shared season fixtures were written.
#[cfg(test)]
pub(crate) fn our_fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/fixtures/schedules/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

/// The proptest configuration of a fuzz test: `cases` unless `FUZZ_CASES`
/// says otherwise (`FUZZ_CASES=100000 cargo test fuzz` for a long run).
#[cfg(test)]
pub(crate) fn fuzz_config(cases: u32) -> proptest::prelude::ProptestConfig {
    let cases = std::env::var("FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(cases);
    proptest::prelude::ProptestConfig { cases, ..proptest::prelude::ProptestConfig::default() }
}

/// A fixture damaged a little: bytes flipped, inserted or deleted, pieces
/// of the format's own grammar (`tokens`) spliced in, or the end cut off:
/// the near-misses that reach deeper into a parser than random bytes.
#[cfg(test)]
pub(crate) fn mutated(
    fixture: Vec<u8>,
    tokens: &'static [&'static str],
) -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
    use proptest::prelude::*;
    let edit = (0u8..5, any::<prop::sample::Index>(), any::<u8>(), prop::sample::select(tokens));
    prop::collection::vec(edit, 1..8).prop_map(move |edits| {
        let mut bytes = fixture.clone();
        for (kind, at, byte, token) in edits {
            let i = at.index(bytes.len() + 1);
            match kind {
                0 if i < bytes.len() => bytes[i] ^= byte.max(1),
                1 => bytes.insert(i, byte),
                2 if i < bytes.len() => {
                    bytes.remove(i);
                }
                3 => bytes.splice(i..i, token.bytes()).for_each(drop),
                4 => bytes.truncate(i),
                _ => {}
            }
        }
        bytes
    })
}

/// What every parsed schedule promises: games sorted by `(start_utc_ms,
/// external_id)`, unique ids, at most `MAX_GAMES`, sane scores, and each
/// game's teams among its teams.
#[cfg(test)]
pub(crate) fn assert_well_formed(schedule: &Schedule) {
    assert!(schedule.games.len() <= MAX_GAMES);
    for pair in schedule.games.windows(2) {
        assert!((pair[0].start_utc_ms, &pair[0].external_id) < (pair[1].start_utc_ms, &pair[1].external_id));
    }
    let team_ids: std::collections::HashSet<&str> = schedule.teams.iter().map(|t| t.external_id.as_str()).collect();
    assert_eq!(team_ids.len(), schedule.teams.len(), "team ids repeat");
    for game in &schedule.games {
        assert!(team_ids.contains(game.home_team_id.as_str()), "{} has no home team", game.external_id);
        assert!(team_ids.contains(game.away_team_id.as_str()), "{} has no away team", game.external_id);
        for goals in [game.home_goals, game.away_goals].into_iter().flatten() {
            assert!(is_score(goals));
        }
    }
}

/// Asserts that a schedule is the season in `expected.json`: its teams (name,
/// division; the id either the source's or `fallback_team_id`) and its games
/// (times, rink, division, teams, goals, type, and with `check_ids` the id;
/// without, the game's id must at least contain the expected one, as a UID does).
#[cfg(test)]
pub(crate) fn assert_matches_expected(schedule: &Schedule, check_ids: bool) {
    use serde_json::Value;
    assert_well_formed(schedule);
    let expected: Value = serde_json::from_slice(&fixture("expected.json")).unwrap();
    let text = |v: &Value| v.as_str().map(str::to_string);
    let mut teams: Vec<(String, Option<String>, String)> = expected["teams"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (text(&t["name"]).unwrap(), text(&t["division"]), text(&t["id"]).unwrap()))
        .collect();
    teams.sort();
    assert_eq!(schedule.teams.len(), teams.len(), "teams: {:?}", schedule.teams);
    for (team, (name, division, id)) in schedule.teams.iter().zip(&teams) {
        assert_eq!((&team.name, &team.division), (name, division));
        let fallback = fallback_team_id(name, division.as_deref());
        assert!(team.external_id == *id || team.external_id == fallback, "id of {name}: {}", team.external_id);
    }
    let team_id = |name: &str| schedule.teams.iter().find(|t| t.name == name).map(|t| t.external_id.clone());
    let games = expected["games"].as_array().unwrap();
    assert_eq!(schedule.games.len(), games.len());
    for (game, want) in schedule.games.iter().zip(games) {
        let id = text(&want["id"]).unwrap();
        if check_ids {
            assert_eq!(game.external_id, id);
        } else {
            assert!(game.external_id.contains(&id), "{} is not game {id}", game.external_id);
        }
        let local = |at: &NaiveDateTime| at.format("%Y-%m-%dT%H:%M:%S").to_string();
        let start_utc = DateTime::parse_from_rfc3339(want["startUtc"].as_str().unwrap()).unwrap();
        assert_eq!(local(&game.start_local), text(&want["start"]).unwrap(), "start of {id}");
        assert_eq!(game.end_local.as_ref().map(local), text(&want["end"]), "end of {id}");
        assert_eq!(game.start_utc_ms, start_utc.timestamp_millis(), "UTC start of {id}");
        let end_utc = game.end_local.map(|end| local_to_utc_ms(end, chrono_tz::America::Toronto));
        assert_eq!(game.end_utc_ms, end_utc, "UTC end of {id}");
        assert_eq!(game.rink, text(&want["rink"]), "rink of {id}");
        assert_eq!(game.division, text(&want["division"]), "division of {id}");
        assert_eq!(
            (game.home.as_str(), game.away.as_str()),
            (want["home"].as_str().unwrap(), want["away"].as_str().unwrap())
        );
        assert_eq!(Some(game.home_team_id.clone()), team_id(&game.home), "home team id of {id}");
        assert_eq!(Some(game.away_team_id.clone()), team_id(&game.away), "away team id of {id}");
        assert_eq!(
            (game.home_goals, game.away_goals),
            (want["home_goals"].as_i64(), want["away_goals"].as_i64()),
            "goals of {id}"
        );
        assert_eq!(game.game_type, text(&want["type"]), "type of {id}");
        assert!(!game.cancelled, "{id} is not cancelled");
    }
}
