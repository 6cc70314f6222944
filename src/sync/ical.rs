//! The iCalendar (RFC 5545) adapter: a feed's VEVENTs into a `Schedule`.
//!
//! - Lines are unfolded (a line break followed by a space or tab continues
//!   the line, even inside an escape), then values unescaped (`\,` `\;`
//!   `\n` `\N` `\\`).
//! - Components nest: only properties directly inside a VEVENT count, so a
//!   VTIMEZONE's `DTSTART` or a VALARM's `DESCRIPTION` never leak into a game.
//!   A feed that ends inside a component was cut short and is refused, since
//!   reading half of it would remove the other half's games. Lines after
//!   the closing `END:VCALENDAR` are ignored (caches append a timestamp
//!   there), unless one opens another `BEGIN:VCALENDAR`, as RFC 5545 allows.
//! - `DTSTART`/`DTEND` (or `DURATION`): `…Z` is UTC; `TZID=` is read in that
//!   zone (in the rink's `zone` when chrono-tz does not know the name);
//!   floating times and `VALUE=DATE` (midnight) in the rink's `zone`. Local
//!   times in the result are the rink's wall clock.
//! - `UID` is the external id, verbatim. `SUMMARY` is `Home vs Away` (also
//!   `vs.`, `v`), `Away @ Home`, or `Home 3 - 2 Away` once played; a
//!   trailing `(Home)` / `(Away)` (club feeds: "Us vs. Them (Away)") says
//!   where the first-named team plays and is not part of a name.
//!   `CATEGORIES`' first entry is the division; `LOCATION` up to its first
//!   comma (escaped or not: `Rink A\, Example Ice Centre`) is the rink; a
//!   `Game type: X` line in `DESCRIPTION` is the type; `STATUS:CANCELLED`
//!   cancels.
//! - An event whose SUMMARY names no two teams (a skills clinic, a
//!   holiday) is skipped; a calendar of events none of which is a game is
//!   refused. RRULE is not expanded: league feeds list each game.
//!
//! Unfolding, unescaping and the component walk are ours, not the
//! `icalendar` crate's parser (a dev-dependency: the tests read feeds with
//! it). Tried against icalendar 0.17: its recursive descent overflows the
//! stack, an abort rather than a panic, on a body of 200,000 nested `BEGIN`
//! lines; it refuses a whole feed for one line without a colon or for what a
//! cache appended after `END:VCALENDAR`, where RFC 5545 asks a reader to skip
//! what it does not know; its tree carries no line numbers, so errors could
//! not name the line; a cut-short feed is only a parse error, not one saying
//! so; and its `unfold` leaves CR-only line breaks folded. Its TEXT
//! unescaping (`ParseString::unescape_text`) matches `unescape` here, but a
//! runtime dependency on a parser we cannot use, for twenty lines, is not
//! worth it.

use chrono::{NaiveDate, NaiveDateTime, NaiveTime, TimeDelta};
use chrono_tz::Tz;

use super::schedule::{
    FallbackIds, Game, MAX_GAMES, Schedule, ScheduleError, fallback_game_id, fallback_team_id, local_to_utc_ms,
    non_empty, not_a_schedule, plausible, teams_of, too_many_games, utc_ms_to_local, utc_to_local,
};

/// The longest `DURATION` we add to a start; longer is a data error.
const MAX_DURATION: TimeDelta = TimeDelta::days(7);

/// Reads a whole calendar.
pub fn parse(body: &[u8], zone: Tz) -> Result<Schedule, ScheduleError> {
    let text = super::schedule::decode_text(body);
    let mut stack: Vec<String> = Vec::new();
    let mut event: Option<RawEvent> = None;
    let mut saw_calendar = false;
    let mut events = 0usize;
    let mut games: Vec<Game> = Vec::new();
    let mut fallback_ids = FallbackIds::default();
    for (line_number, line) in unfold(&text) {
        let Some(property) = Property::parse(line_number, &line) else { continue };
        let component = || property.value.trim().to_ascii_uppercase();
        if saw_calendar && stack.is_empty() && !(property.name == "BEGIN" && component() == "VCALENDAR") {
            // After the calendar's END:VCALENDAR: what a cache or proxy
            // appended (a timestamp, a comment), not part of the schedule.
            continue;
        }
        match property.name.as_str() {
            "BEGIN" => {
                let component = component();
                if stack.is_empty() && component != "VCALENDAR" {
                    return Err(not_a_schedule(format!("line {line_number}: expected BEGIN:VCALENDAR")));
                }
                saw_calendar = true;
                if component == "VEVENT" && stack.len() == 1 {
                    event = Some(RawEvent { line: line_number, ..RawEvent::default() });
                }
                stack.push(component);
            }
            "END" => {
                let component = component();
                match stack.pop() {
                    Some(open) if open == component => {}
                    Some(open) => {
                        return Err(not_a_schedule(format!("line {line_number}: END:{component} closes BEGIN:{open}")));
                    }
                    None => return Err(not_a_schedule(format!("line {line_number}: END:{component} without BEGIN"))),
                }
                if component == "VEVENT" && stack.len() == 1 {
                    let Some(raw) = event.take() else { continue };
                    events += 1;
                    if let Some(game) = raw.into_game(zone, &mut fallback_ids)? {
                        if games.len() == MAX_GAMES {
                            return Err(too_many_games());
                        }
                        games.push(game);
                    }
                }
            }
            _ if stack.is_empty() => {
                return Err(not_a_schedule(format!("line {line_number}: expected BEGIN:VCALENDAR")));
            }
            _ if stack.len() == 2 && stack[1] == "VEVENT" => {
                if let Some(raw) = event.as_mut() {
                    raw.record(property);
                }
            }
            _ => {}
        }
    }
    if !saw_calendar {
        return Err(not_a_schedule("not iCalendar: no BEGIN:VCALENDAR"));
    }
    if let Some(open) = stack.last() {
        return Err(not_a_schedule(format!("the calendar ends inside {open} (no END:{open}): it was cut short")));
    }
    if events > 0 && games.is_empty() {
        let events = if events == 1 { "1 event".to_string() } else { format!("{events} events") };
        return Err(not_a_schedule(format!(
            "not a schedule: the calendar has {events} but no game (a SUMMARY like `Home vs Away`)"
        )));
    }
    Schedule::finish(teams_of(&games), games)
}

/// The logical lines of a calendar with the physical line each starts on:
/// CRLF, LF or CR line breaks; a line starting with a space or tab continues
/// the one before (its first character dropped).
fn unfold(text: &str) -> Vec<(usize, String)> {
    let mut lines: Vec<(usize, String)> = Vec::new();
    let physical = text.split('\n').flat_map(|line| line.strip_suffix('\r').unwrap_or(line).split('\r'));
    for (i, line) in physical.enumerate() {
        match (line.strip_prefix([' ', '\t']), lines.last_mut()) {
            (Some(rest), Some((_, last))) => last.push_str(rest),
            _ if line.is_empty() => {}
            _ => lines.push((i + 1, line.to_string())),
        }
    }
    lines
}

/// One content line: `NAME;PARAM=value;…:value`.
#[derive(Debug)]
struct Property {
    line: usize,
    /// Upper-cased.
    name: String,
    /// Names upper-cased, values unquoted.
    params: Vec<(String, String)>,
    /// Still escaped: where a comma splits a value depends on the escapes.
    value: String,
}

impl Property {
    /// `None` for a line that is not a content line (no colon, no name); such
    /// lines are skipped as RFC 5545 asks of what a reader does not know.
    fn parse(line: usize, text: &str) -> Option<Property> {
        let name_end = text.find([';', ':'])?;
        let name = &text[..name_end];
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
            return None;
        }
        let mut params = Vec::new();
        let mut rest = &text[name_end..];
        while let Some(after) = rest.strip_prefix(';') {
            let (param, after) = after.split_once('=')?;
            let mut value = String::new();
            let mut i = 0;
            let end = loop {
                let j = i + after[i..].find(['"', ';', ':'])?;
                value.push_str(&after[i..j]);
                if after.as_bytes()[j] != b'"' {
                    break j;
                }
                let close = j + 1 + after[j + 1..].find('"')?;
                value.push_str(&after[j + 1..close]);
                i = close + 1;
            };
            params.push((param.trim().to_ascii_uppercase(), value));
            rest = &after[end..];
        }
        let value = rest.strip_prefix(':')?;
        Some(Property { line, name: name.to_ascii_uppercase(), params, value: value.to_string() })
    }

    fn param(&self, name: &str) -> Option<&str> {
        self.params.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// The properties of one VEVENT that we read; the first of each wins.
#[derive(Debug, Default)]
struct RawEvent {
    line: usize,
    uid: Option<Property>,
    start: Option<Property>,
    end: Option<Property>,
    duration: Option<Property>,
    summary: Option<Property>,
    location: Option<Property>,
    categories: Option<Property>,
    description: Option<Property>,
    status: Option<Property>,
}

impl RawEvent {
    fn record(&mut self, property: Property) {
        let slot = match property.name.as_str() {
            "UID" => &mut self.uid,
            "DTSTART" => &mut self.start,
            "DTEND" => &mut self.end,
            "DURATION" => &mut self.duration,
            "SUMMARY" => &mut self.summary,
            "LOCATION" => &mut self.location,
            "CATEGORIES" => &mut self.categories,
            "DESCRIPTION" => &mut self.description,
            "STATUS" => &mut self.status,
            _ => return,
        };
        slot.get_or_insert(property);
    }

    /// The game this event describes, `None` when its SUMMARY names no two teams.
    fn into_game(self, zone: Tz, fallback_ids: &mut FallbackIds) -> Result<Option<Game>, ScheduleError> {
        let Some(summary) = self.summary.as_ref().and_then(|s| parse_summary(&unescape(&s.value))) else {
            return Ok(None);
        };
        let uid = self.uid.as_ref().and_then(|uid| non_empty(&unescape(&uid.value)));
        let what = uid.as_deref().map_or_else(|| format!("the event at line {}", self.line), |uid| format!("`{uid}`"));
        let start =
            self.start.as_ref().ok_or_else(|| not_a_schedule(format!("line {}: {what} has no DTSTART", self.line)))?;
        let (start_local, start_utc_ms) = read_time(start, zone)?;
        let end = match (&self.end, &self.duration) {
            (Some(end), _) => Some(read_time(end, zone)?),
            (None, Some(duration)) => parse_duration(duration.value.trim())
                .and_then(|length| start_utc_ms.checked_add(length.num_milliseconds()))
                .and_then(|ms| Some((utc_ms_to_local(ms, zone)?, ms))),
            (None, None) => None,
        };
        // A LOCATION is one text: its first comma, escaped or not, ends the
        // place name ("Rink A\, Example Ice Centre" → "Rink A"). CATEGORIES is a
        // list: only an unescaped comma separates two.
        let location = self.location.as_ref().map(|p| unescape(&p.value)).unwrap_or_default();
        let rink = non_empty(location.split(',').next().unwrap_or(""));
        let division = self.categories.as_ref().and_then(|p| non_empty(&unescape(first_unescaped_comma(&p.value))));
        let description = self.description.as_ref().map(|d| unescape(&d.value)).unwrap_or_default();
        let game_type = description.lines().find_map(|line| {
            let line = line.trim();
            let label = line.get(..10).filter(|label| label.eq_ignore_ascii_case("game type:"))?;
            non_empty(&line[label.len()..])
        });
        let cancelled = self.status.as_ref().is_some_and(|s| {
            let status = s.value.trim();
            status.eq_ignore_ascii_case("CANCELLED") || status.eq_ignore_ascii_case("CANCELED")
        });
        let external_id = match uid {
            Some(uid) => uid,
            None => fallback_ids.next(fallback_game_id(start_local, rink.as_deref(), &summary.home, &summary.away)),
        };
        Ok(Some(Game {
            external_id,
            start_local,
            end_local: end.map(|(local, _)| local),
            start_utc_ms,
            end_utc_ms: end.map(|(_, ms)| ms),
            home_team_id: fallback_team_id(&summary.home, division.as_deref()),
            away_team_id: fallback_team_id(&summary.away, division.as_deref()),
            rink,
            division,
            home: summary.home,
            away: summary.away,
            home_goals: summary.goals.map(|(home, _)| home),
            away_goals: summary.goals.map(|(_, away)| away),
            game_type,
            cancelled,
        }))
    }
}

/// A date-time property as (the rink's wall clock, UTC milliseconds).
fn read_time(property: &Property, zone: Tz) -> Result<(NaiveDateTime, i64), ScheduleError> {
    let value = property.value.trim();
    let bad = || not_a_schedule(format!("line {}: {} `{value}` is not a date and time", property.line, property.name));
    let (local, utc) = parse_stamp(value).filter(|(at, _)| plausible(*at)).ok_or_else(bad)?;
    if utc {
        return Ok((utc_to_local(local, zone), local.and_utc().timestamp_millis()));
    }
    match property.param("TZID").and_then(resolve_tzid).filter(|tz| *tz != zone) {
        Some(tz) => {
            let ms = local_to_utc_ms(local, tz);
            Ok((utc_ms_to_local(ms, zone).ok_or_else(bad)?, ms))
        }
        None => Ok((local, local_to_utc_ms(local, zone))),
    }
}

/// `YYYYMMDD` (midnight), `YYYYMMDDTHHMM[SS]`, with `Z` for UTC. Parsed by
/// hand so that nothing but these digits gets through (chrono's `%Y` takes
/// signs and five-digit years).
fn parse_stamp(value: &str) -> Option<(NaiveDateTime, bool)> {
    let (value, utc) = match value.strip_suffix(['Z', 'z']) {
        Some(rest) => (rest, true),
        None => (value, false),
    };
    let (date, time) = value.split_once(['T', 't']).unwrap_or((value, ""));
    let number = |s: &str, range: std::ops::Range<usize>| -> Option<u32> {
        s.get(range).filter(|d| d.bytes().all(|b| b.is_ascii_digit()))?.parse().ok()
    };
    if date.len() != 8 || !matches!(time.len(), 0 | 4 | 6) {
        return None;
    }
    let date =
        NaiveDate::from_ymd_opt(i32::try_from(number(date, 0..4)?).ok()?, number(date, 4..6)?, number(date, 6..8)?)?;
    let time = match time.len() {
        0 => NaiveTime::MIN,
        4 => NaiveTime::from_hms_opt(number(time, 0..2)?, number(time, 2..4)?, 0)?,
        _ => NaiveTime::from_hms_opt(number(time, 0..2)?, number(time, 2..4)?, number(time, 4..6)?)?,
    };
    Some((date.and_time(time), utc))
}

/// A TZID as chrono-tz knows it; also the Olson name at the end of a
/// vendor path such as `/mozilla.org/20050126_1/America/Toronto`.
fn resolve_tzid(tzid: &str) -> Option<Tz> {
    let tzid = tzid.trim();
    std::iter::once(tzid)
        .chain(tzid.match_indices('/').map(|(i, _)| &tzid[i + 1..]))
        .find_map(|candidate| candidate.parse::<Tz>().ok())
}

/// A non-negative RFC 5545 duration such as `PT1H10M` or `P1D`, at most `MAX_DURATION`.
fn parse_duration(value: &str) -> Option<TimeDelta> {
    let mut rest = value.strip_prefix('+').unwrap_or(value).strip_prefix('P')?;
    let mut seconds: i64 = 0;
    let mut in_time = false;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('T') {
            in_time = true;
            rest = after;
            continue;
        }
        let digits = rest.find(|c: char| !c.is_ascii_digit()).filter(|&n| n > 0 && n <= 6)?;
        let n: i64 = rest[..digits].parse().ok()?;
        let unit = match (in_time, rest[digits..].chars().next()?) {
            (false, 'W') => 7 * 86_400,
            (false, 'D') => 86_400,
            (true, 'H') => 3_600,
            (true, 'M') => 60,
            (true, 'S') => 1,
            _ => return None,
        };
        seconds = seconds.checked_add(n.checked_mul(unit)?)?;
        rest = &rest[digits + 1..];
    }
    Some(TimeDelta::seconds(seconds)).filter(|d| *d <= MAX_DURATION)
}

/// The part of an escaped value before its first unescaped comma: a
/// CATEGORIES' first category.
fn first_unescaped_comma(value: &str) -> &str {
    let mut escaped = false;
    for (i, c) in value.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            ',' => return &value[..i],
            _ => {}
        }
    }
    value
}

/// A TEXT value with its escapes undone; an unknown escape is kept as written.
fn unescape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n' | 'N') => out.push('\n'),
            Some(c @ (',' | ';' | ':' | '\\')) => out.push(c),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

/// The teams (and once played, the score) a SUMMARY names.
#[derive(Debug, PartialEq, Eq)]
struct Summary {
    home: String,
    away: String,
    goals: Option<(i64, i64)>,
}

/// `Home 3 - 2 Away`, `Home vs Away` (`vs.`, `v`, `v.`), or `Away @ Home`;
/// case and runs of whitespace do not matter. A club's own feed ends its
/// titles with `(Home)` or `(Away)`, which then says where the first-named
/// team plays ("Us vs. Them (Away)": Them are at home), whatever the form.
fn parse_summary(summary: &str) -> Option<Summary> {
    let (summary, first_at_home) = side_suffix(summary);
    let (mut read, first_is_home) = parse_pair(summary)?;
    if first_at_home.is_some_and(|home| home != first_is_home) {
        std::mem::swap(&mut read.home, &mut read.away);
        read.goals = read.goals.map(|(home, away)| (away, home));
    }
    Some(read)
}

/// The title without a trailing `(Home)` / `(Away)` (also in square
/// brackets, any case), and whether it said the first-named team is at home.
fn side_suffix(summary: &str) -> (&str, Option<bool>) {
    let trimmed = summary.trim_end();
    for (word, home) in [("home", true), ("away", false)] {
        for (open, close) in [('(', ')'), ('[', ']')] {
            let Some(inner) = trimmed.strip_suffix(close) else { continue };
            let Some(start) = inner.len().checked_sub(word.len() + 1) else { continue };
            let Some(tail) = inner.get(start..) else { continue };
            if tail.starts_with(open) && tail[1..].eq_ignore_ascii_case(word) {
                return (&inner[..start], Some(home));
            }
        }
    }
    (summary, None)
}

/// The two teams of a title (and the score once played), and whether its
/// form names the home team first (`@` names it second).
fn parse_pair(summary: &str) -> Option<(Summary, bool)> {
    let words: Vec<&str> = summary.split_whitespace().collect();
    let summary = words.join(" ");
    let both = |home: &str, away: &str, goals| {
        let (home, away) = (non_empty(home)?, non_empty(away)?);
        Some(Summary { home, away, goals })
    };
    let score = |w: &str| (1..=2).contains(&w.len()) && w.bytes().all(|b| b.is_ascii_digit());
    for i in 1..words.len().saturating_sub(3) {
        if score(words[i]) && matches!(words[i + 1], "-" | "\u{2013}" | ":") && score(words[i + 2]) {
            let goals = (words[i].parse().ok()?, words[i + 2].parse().ok()?);
            return Some((both(&words[..i].join(" "), &words[i + 3..].join(" "), Some(goals))?, true));
        }
    }
    let lower = summary.to_ascii_lowercase();
    for separator in [" vs. ", " vs ", " v. ", " v "] {
        if let Some(i) = lower.find(separator) {
            return Some((both(&summary[..i], &summary[i + separator.len()..], None)?, true));
        }
    }
    let (away, home) = summary.split_once(" @ ")?;
    Some((both(home, away, None)?, false))
}

#[cfg(test)]
#[path = "ical_tests.rs"]
mod tests;
