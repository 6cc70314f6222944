//! The CSV adapter: a spreadsheet export of a schedule into a `Schedule`.
//!
//! - RFC 4180 with what spreadsheets add: an optional BOM; comma, or
//!   semicolon or tab when the header line uses those; quoted fields with
//!   `""`, delimiters and line breaks inside; CRLF or LF. Blank lines and
//!   rows of empty cells are skipped. A quote left open is refused (the file
//!   was cut short).
//! - The header row names the columns, matched loosely (case, spaces and
//!   punctuation ignored, common synonyms; see `COLUMNS`). Date, start,
//!   home and away are required.
//! - Dates `YYYY-MM-DD` (or `M/D/YYYY`), times `HH:MM` (or `8:30 PM`), read in
//!   the rink's `zone`. An end earlier than the start is the next day (a game
//!   past midnight). Empty goals: not played yet.
//! - The id column is the external id; without one, `fallback_game_id`.
//!   Teams are keyed by `fallback_team_id`. A row without both teams is a
//!   slot still to be filled, skipped. Errors name the line.
//!
//! The record reader is ours, not the `csv` crate's: tried against csv 1.4,
//! that crate reads a quote left open to the end of input without an error
//! (a cut-short file would come through silently short), takes a quote after
//! leading spaces as a literal character (` "A, B" ` splits into two cells),
//! and numbers records without counting the blank lines before them (errors
//! would name the wrong line). Working around all three means tracking the
//! quotes ourselves, which is most of this reader; and delimiter sniffing
//! would stay ours anyway (the crate does not sniff).

use chrono::{NaiveDate, NaiveTime};
use chrono_tz::Tz;

use super::schedule::{
    FallbackIds, Game, MAX_GAMES, Schedule, ScheduleError, YEARS, decode_text, fallback_game_id, fallback_team_id,
    is_score, local_to_utc_ms, non_empty, normalise_name, not_a_schedule, teams_of, too_many_games,
};

/// A column we read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Column {
    Id,
    Date,
    Start,
    End,
    Rink,
    Division,
    Home,
    Away,
    HomeGoals,
    AwayGoals,
    Type,
    Status,
}

/// Each column with the header names that mean it, as people write them;
/// compared after `header_key`.
const COLUMNS: &[(Column, &[&str])] = &[
    (Column::Id, &["game id", "game #", "game number", "id", "event id"]),
    (Column::Date, &["date", "game date"]),
    (Column::Start, &["start", "start time", "time"]),
    (Column::End, &["end", "end time"]),
    (Column::Rink, &["rink", "location", "venue", "arena", "sheet", "resource"]),
    (Column::Division, &["division", "league", "level"]),
    (Column::Home, &["home", "home team"]),
    (Column::Away, &["away", "away team", "visitor", "visiting team", "visitors"]),
    (Column::HomeGoals, &["home goals", "home score", "hg"]),
    (Column::AwayGoals, &["away goals", "away score", "visitor score", "ag"]),
    (Column::Type, &["game type", "type"]),
    (Column::Status, &["status", "game status"]),
];

/// Without these a row is not a game; with what an error calls them.
const REQUIRED: &[(Column, &str)] =
    &[(Column::Date, "date"), (Column::Start, "start time"), (Column::Home, "home team"), (Column::Away, "away team")];

/// Delimiters we accept, the first preferred when a header line has as many of another.
const DELIMITERS: &[u8] = b",;\t";

/// Reads a whole CSV export.
pub fn parse(body: &[u8], zone: Tz) -> Result<Schedule, ScheduleError> {
    let text = decode_text(body);
    let mut reader = Reader { text: &text, pos: 0, line: 1, delimiter: delimiter(&text) };
    let Some((header_line, header)) = reader.next_row()? else {
        return Err(not_a_schedule("not a schedule: the CSV is empty"));
    };
    let columns = Columns::map(&header);
    let missing: Vec<String> = REQUIRED
        .iter()
        .filter(|(column, _)| columns.index(*column).is_none())
        .map(|(column, label)| format!("no {label} column ({})", names(*column).join(", ")))
        .collect();
    if !missing.is_empty() {
        return Err(not_a_schedule(format!("line {header_line}: the header has {}", missing.join("; "))));
    }
    let mut games: Vec<Game> = Vec::new();
    let mut fallback_ids = FallbackIds::default();
    while let Some((line, row)) = reader.next_row()? {
        let Some(game) = read_row(line, &row, &columns, zone, &mut fallback_ids)? else { continue };
        if games.len() == MAX_GAMES {
            return Err(too_many_games());
        }
        games.push(game);
    }
    Schedule::finish(teams_of(&games), games)
}

/// Whether a line looks like a schedule's CSV header: delimited, naming at
/// least two columns we know. (For `detect`.)
pub(crate) fn looks_like_header(line: &str) -> bool {
    let delimiter = delimiter(line);
    if !line.as_bytes().contains(&delimiter) {
        return false;
    }
    let mut reader = Reader { text: line, pos: 0, line: 1, delimiter };
    let Ok(Some((_, header))) = reader.next_row() else { return false };
    let columns = Columns::map(&header);
    COLUMNS.iter().filter(|(column, _)| columns.index(*column).is_some()).count() >= 2
}

/// The names a column goes by.
fn names(column: Column) -> &'static [&'static str] {
    COLUMNS.iter().find(|(c, _)| *c == column).map_or(&[], |(_, names)| *names)
}

/// A header cell as compared: `#` read as "number", then only lowercase
/// letters and digits ("Game #" → "gamenumber", "Home-Team" → "hometeam").
fn header_key(name: &str) -> String {
    normalise_name(&name.replace('#', " number ")).replace(' ', "")
}

/// Where each column is in a row.
struct Columns(Vec<(Column, usize)>);

impl Columns {
    /// The first header cell naming each column wins.
    fn map(header: &[String]) -> Columns {
        let synonyms: Vec<(Column, String)> =
            COLUMNS.iter().flat_map(|(column, names)| names.iter().map(|name| (*column, header_key(name)))).collect();
        let mut found: Vec<(Column, usize)> = Vec::new();
        for (i, cell) in header.iter().enumerate() {
            let key = header_key(cell);
            let column = synonyms.iter().find(|(_, synonym)| *synonym == key).map(|(column, _)| *column);
            if let Some(column) = column.filter(|c| !found.iter().any(|(f, _)| f == c)) {
                found.push((column, i));
            }
        }
        Columns(found)
    }

    fn index(&self, column: Column) -> Option<usize> {
        self.0.iter().find(|(c, _)| *c == column).map(|(_, i)| *i)
    }

    /// The trimmed cell of `column` in `row`; empty when the row is short.
    fn get<'r>(&self, row: &'r [String], column: Column) -> &'r str {
        self.index(column).and_then(|i| row.get(i)).map_or("", |cell| cell.trim())
    }
}

/// The game a row describes, `None` for a row without both teams.
fn read_row(
    line: usize,
    row: &[String],
    columns: &Columns,
    zone: Tz,
    fallback_ids: &mut FallbackIds,
) -> Result<Option<Game>, ScheduleError> {
    let cell = |column| columns.get(row, column);
    let (Some(home), Some(away)) = (non_empty(cell(Column::Home)), non_empty(cell(Column::Away))) else {
        return Ok(None);
    };
    let date = match cell(Column::Date) {
        "" => return Err(not_a_schedule(format!("line {line}: no date"))),
        date => {
            parse_date(date).ok_or_else(|| not_a_schedule(format!("line {line}: the date `{date}` is not a date")))?
        }
    };
    let time = |column, label: &str| -> Result<Option<NaiveTime>, ScheduleError> {
        let text = cell(column);
        if text.is_empty() {
            return Ok(None);
        }
        let time = parse_time(text);
        time.map(Some).ok_or_else(|| not_a_schedule(format!("line {line}: the {label} time `{text}` is not a time")))
    };
    let start_time =
        time(Column::Start, "start")?.ok_or_else(|| not_a_schedule(format!("line {line}: no start time")))?;
    let start_local = date.and_time(start_time);
    let end_local = time(Column::End, "end")?.and_then(|end| {
        let day = if end < start_time { date.succ_opt()? } else { date };
        Some(day.and_time(end))
    });
    let goals = |column, side: &str| -> Result<Option<i64>, ScheduleError> {
        let text = cell(column);
        if text.is_empty() {
            return Ok(None);
        }
        let goals = text.parse::<i64>().ok().filter(|g| is_score(*g));
        goals.map(Some).ok_or_else(|| not_a_schedule(format!("line {line}: {side} goals `{text}` is not a score")))
    };
    let rink = non_empty(cell(Column::Rink));
    let division = non_empty(cell(Column::Division));
    let external_id = match non_empty(cell(Column::Id)) {
        Some(id) => id,
        None => fallback_ids.next(fallback_game_id(start_local, rink.as_deref(), &home, &away)),
    };
    Ok(Some(Game {
        external_id,
        start_local,
        end_local,
        start_utc_ms: local_to_utc_ms(start_local, zone),
        end_utc_ms: end_local.map(|end| local_to_utc_ms(end, zone)),
        home_team_id: fallback_team_id(&home, division.as_deref()),
        away_team_id: fallback_team_id(&away, division.as_deref()),
        home_goals: goals(Column::HomeGoals, "home")?,
        away_goals: goals(Column::AwayGoals, "away")?,
        game_type: non_empty(cell(Column::Type)),
        cancelled: matches!(normalise_name(cell(Column::Status)).as_str(), "cancelled" | "canceled"),
        rink,
        division,
        home,
        away,
    }))
}

/// `YYYY-MM-DD` (also with `/` or `.`) or the US `M/D/YYYY`.
fn parse_date(text: &str) -> Option<NaiveDate> {
    let parts: Vec<&str> = text.split(['-', '/', '.']).collect();
    let [a, b, c] = parts[..] else { return None };
    let number = |s: &str, max_len: usize| -> Option<u32> {
        (!s.is_empty() && s.len() <= max_len && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse().ok())?
    };
    let (year, month, day) = if a.len() == 4 {
        (number(a, 4)?, number(b, 2)?, number(c, 2)?)
    } else if c.len() == 4 {
        (number(c, 4)?, number(a, 2)?, number(b, 2)?)
    } else {
        return None;
    };
    let year = i32::try_from(year).ok().filter(|y| YEARS.contains(y))?;
    NaiveDate::from_ymd_opt(year, month, day)
}

/// `HH:MM[:SS]` on a 24-hour clock, or `H[:MM] AM/PM` (also `a.m.`, `pm`).
fn parse_time(text: &str) -> Option<NaiveTime> {
    let lower = text.to_ascii_lowercase();
    let (clock, pm) = match ["am", "a.m.", "pm", "p.m."].iter().find(|suffix| lower.ends_with(**suffix)) {
        Some(suffix) => (lower[..lower.len() - suffix.len()].trim_end(), Some(suffix.starts_with('p'))),
        None => (lower.as_str(), None),
    };
    let parts: Vec<&str> = clock.split(':').collect();
    let number = |s: &str| -> Option<u32> {
        (!s.is_empty() && s.len() <= 2 && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse().ok())?
    };
    let (hour, minute, second) = match (&parts[..], pm) {
        ([h], Some(_)) => (number(h)?, 0, 0),
        ([h, m], _) if m.len() == 2 => (number(h)?, number(m)?, 0),
        ([h, m, s], _) if m.len() == 2 && s.len() == 2 => (number(h)?, number(m)?, number(s)?),
        _ => return None,
    };
    let hour = match pm {
        Some(_) if !(1..=12).contains(&hour) => return None,
        Some(pm) => hour % 12 + if pm { 12 } else { 0 },
        None => hour,
    };
    NaiveTime::from_hms_opt(hour, minute, second)
}

/// The delimiter the first line uses most, outside quotes.
fn delimiter(text: &str) -> u8 {
    let first_line = text.split(['\n', '\r']).find(|line| !line.trim().is_empty()).unwrap_or("");
    let count = |d: u8| {
        first_line.split('"').step_by(2).map(|outside| outside.bytes().filter(|b| *b == d).count()).sum::<usize>()
    };
    let mut best = DELIMITERS[0];
    for &d in DELIMITERS {
        if count(d) > count(best) {
            best = d;
        }
    }
    best
}

/// Reads rows one at a time, so a huge file of empty rows costs no memory.
struct Reader<'t> {
    text: &'t str,
    pos: usize,
    /// The physical line `pos` is on, for errors.
    line: usize,
    delimiter: u8,
}

impl Reader<'_> {
    /// The next row that has a non-blank cell, with the line it starts on.
    fn next_row(&mut self) -> Result<Option<(usize, Vec<String>)>, ScheduleError> {
        while let Some((line, row)) = self.next_record()? {
            if row.iter().any(|cell| !cell.trim().is_empty()) {
                return Ok(Some((line, row)));
            }
        }
        Ok(None)
    }

    /// The next record. Delimiters, quotes and line breaks are ASCII, so the
    /// text is scanned by byte and cut only at those (UTF-8 boundaries).
    fn next_record(&mut self) -> Result<Option<(usize, Vec<String>)>, ScheduleError> {
        let bytes = self.text.as_bytes();
        if self.pos >= bytes.len() {
            return Ok(None);
        }
        let line = self.line;
        let mut fields = Vec::new();
        let mut field = String::new();
        let mut quoted = false;
        // Whether the field has more than whitespace yet: a quote opens a
        // quoted field only before that (spaces before it are dropped).
        let mut started = false;
        let mut run = self.pos;
        while let Some(&b) = bytes.get(self.pos) {
            if quoted {
                if b == b'"' {
                    field.push_str(&self.text[run..self.pos]);
                    if bytes.get(self.pos + 1) == Some(&b'"') {
                        field.push('"');
                        self.pos += 1;
                    } else {
                        quoted = false;
                    }
                    run = self.pos + 1;
                } else if b == b'\n' {
                    self.line += 1;
                }
                self.pos += 1;
                continue;
            }
            match b {
                b'"' if !started => {
                    field.clear();
                    quoted = true;
                    started = true;
                    run = self.pos + 1;
                }
                b'\r' | b'\n' => {
                    field.push_str(&self.text[run..self.pos]);
                    fields.push(field);
                    self.pos += if b == b'\r' && bytes.get(self.pos + 1) == Some(&b'\n') { 2 } else { 1 };
                    self.line += 1;
                    return Ok(Some((line, fields)));
                }
                _ if b == self.delimiter => {
                    field.push_str(&self.text[run..self.pos]);
                    fields.push(std::mem::take(&mut field));
                    started = false;
                    run = self.pos + 1;
                }
                b' ' | b'\t' => {}
                _ => started = true,
            }
            self.pos += 1;
        }
        if quoted {
            return Err(not_a_schedule(format!("line {line}: a quoted field is not closed")));
        }
        field.push_str(&self.text[run..]);
        fields.push(field);
        Ok(Some((line, fields)))
    }
}

#[cfg(test)]
#[path = "csv_tests.rs"]
mod tests;
