//! Which adapter reads a fetched body, and the one call that parses it.
//!
//! The content type comes first, but rinks' servers label feeds carelessly
//! (`text/plain`, `application/octet-stream`, an `.ics` served as JSON), so
//! content that cannot be anything else wins: a body opening with `{` is
//! DaySmart JSON and one opening with `BEGIN:VCALENDAR` is iCalendar, whatever
//! the label. A CSV is only recognisable by a header that names schedule
//! columns, which is weaker evidence, so a specific content type beats it.

use chrono_tz::Tz;

use super::schedule::{Format, Schedule, ScheduleError, decode_text, not_a_schedule};

/// What a body's first bytes say about it.
#[derive(Debug, PartialEq, Eq)]
enum Sniffed {
    /// Cannot be another format.
    Unmistakable(Format),
    /// A delimited first line naming schedule columns.
    CsvHeader,
    Unknown,
}

/// Which adapter reads this body: from the content type, else from the
/// content (see the module doc for which wins when they disagree).
pub fn detect(content_type: Option<&str>, body: &[u8]) -> Result<Format, ScheduleError> {
    match (sniff(body), content_type.and_then(declared)) {
        (Sniffed::Unmistakable(format), _) => Ok(format),
        (_, Some(format)) => Ok(format),
        (Sniffed::CsvHeader, None) => Ok(Format::Csv),
        (Sniffed::Unknown, None) => Err(not_a_schedule("not a schedule: expected DaySmart JSON, iCalendar or CSV")),
    }
}

/// Parses a whole body in `format` (for DaySmart, one page of it), reading
/// zone-less times in the rink's `zone`.
pub fn parse(format: Format, body: &[u8], zone: Tz) -> Result<Schedule, ScheduleError> {
    match format {
        Format::DaySmart => super::daysmart::parse_page(body, zone).map(|page| page.schedule),
        Format::ICalendar => super::ical::parse(body, zone),
        Format::Csv => super::csv::parse(body, zone),
    }
}

/// The format a content type names; `None` for generic ones (`text/plain`,
/// `application/octet-stream`) and for types we do not know.
fn declared(content_type: &str) -> Option<Format> {
    let essence = content_type.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    match essence.as_str() {
        "text/calendar" | "application/ics" | "text/x-vcalendar" => Some(Format::ICalendar),
        "application/json" | "application/vnd.api+json" | "text/json" => Some(Format::DaySmart),
        "text/csv" | "application/csv" | "text/comma-separated-values" | "text/tab-separated-values" => {
            Some(Format::Csv)
        }
        _ => None,
    }
}

/// What the content alone says, after a BOM and leading whitespace.
fn sniff(body: &[u8]) -> Sniffed {
    let text = decode_text(body);
    let text = text.trim_start();
    if text.starts_with('{') {
        return Sniffed::Unmistakable(Format::DaySmart);
    }
    const CALENDAR: &str = "BEGIN:VCALENDAR";
    if text.get(..CALENDAR.len()).is_some_and(|start| start.eq_ignore_ascii_case(CALENDAR)) {
        return Sniffed::Unmistakable(Format::ICalendar);
    }
    let first_line = text.split(['\n', '\r']).next().unwrap_or("");
    if super::csv::looks_like_header(first_line) { Sniffed::CsvHeader } else { Sniffed::Unknown }
}

#[cfg(test)]
#[path = "detect_tests.rs"]
mod tests;
