//! Writing iCalendar (RFC 5545) for the calendar feeds and the "Add to
//! calendar" download (docs/schedule.md). Pure: items in, text out. The
//! reader of imported schedules is `sync::ical`; this is the writer.
//!
//! Times are written in UTC (`…Z`), which every calendar shows in its own
//! zone, so no VTIMEZONE is needed; text is escaped (`\\`, `;`, `,`, line
//! breaks) and lines are folded at 75 octets without splitting a
//! character.

use chrono::{DateTime, Utc};

/// Longest line, in octets, before folding (RFC 5545 §3.1).
const FOLD_AT: usize = 75;

/// One VEVENT.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CalendarEvent {
    /// Stable per event or game: `event-ID@rinkside` / `game-ID@rinkside`.
    pub uid: String,
    pub summary: String,
    pub description: Option<String>,
    pub location: Option<String>,
    /// Epoch milliseconds.
    pub start: i64,
    pub end: i64,
    pub status: CalendarStatus,
    /// Grows whenever the item changes (calendars keep the highest).
    pub sequence: i64,
    pub last_modified: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CalendarStatus {
    Confirmed,
    Tentative,
    Cancelled,
}

impl CalendarStatus {
    fn as_str(self) -> &'static str {
        match self {
            CalendarStatus::Confirmed => "CONFIRMED",
            CalendarStatus::Tentative => "TENTATIVE",
            CalendarStatus::Cancelled => "CANCELLED",
        }
    }
}

/// A whole VCALENDAR: `name` is the calendar's name in calendar apps,
/// `stamp` (epoch ms) the DTSTAMP of every event (when this was written).
pub fn write(name: &str, events: &[CalendarEvent], stamp: i64) -> String {
    let mut out = String::new();
    for line in
        ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Rinkside//Schedule//EN", "CALSCALE:GREGORIAN", "METHOD:PUBLISH"]
    {
        push(&mut out, line);
    }
    push(&mut out, &format!("X-WR-CALNAME:{}", escape(name)));
    // Subscribed calendars refetch about hourly (Google decides for itself).
    push(&mut out, "REFRESH-INTERVAL;VALUE=DURATION:PT1H");
    push(&mut out, "X-PUBLISHED-TTL:PT1H");
    for e in events {
        push(&mut out, "BEGIN:VEVENT");
        push(&mut out, &format!("UID:{}", escape(&e.uid)));
        push(&mut out, &format!("DTSTAMP:{}", utc(stamp)));
        push(&mut out, &format!("DTSTART:{}", utc(e.start)));
        push(&mut out, &format!("DTEND:{}", utc(e.end.max(e.start))));
        push(&mut out, &format!("SEQUENCE:{}", e.sequence.clamp(0, i64::from(i32::MAX))));
        push(&mut out, &format!("LAST-MODIFIED:{}", utc(e.last_modified)));
        push(&mut out, &format!("SUMMARY:{}", escape(&e.summary)));
        if let Some(d) = &e.description {
            push(&mut out, &format!("DESCRIPTION:{}", escape(d)));
        }
        if let Some(l) = &e.location {
            push(&mut out, &format!("LOCATION:{}", escape(l)));
        }
        push(&mut out, &format!("STATUS:{}", e.status.as_str()));
        push(&mut out, "TRANSP:OPAQUE");
        push(&mut out, "END:VEVENT");
    }
    push(&mut out, "END:VCALENDAR");
    out
}

/// `YYYYMMDDTHHMMSSZ`; outside chrono's range (no stored time is), the epoch.
fn utc(ms: i64) -> String {
    DateTime::<Utc>::from_timestamp_millis(ms).unwrap_or_default().format("%Y%m%dT%H%M%SZ").to_string()
}

/// TEXT escaping (RFC 5545 §3.3.11): backslash, semicolon, comma and line
/// breaks; other control characters (none pass our input rules) dropped.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push_str("\\\\"),
            ';' => out.push_str("\\;"),
            ',' => out.push_str("\\,"),
            '\r' => {
                if chars.peek() != Some(&'\n') {
                    out.push_str("\\n");
                }
            }
            '\n' => out.push_str("\\n"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// Appends one content line, folded: at most 75 octets per physical line,
/// continuation lines starting with a space (which counts), never inside a
/// UTF-8 sequence; CRLF after each.
fn push(out: &mut String, line: &str) {
    let mut width = 0;
    for c in line.chars() {
        let len = c.len_utf8();
        if width + len > FOLD_AT {
            out.push_str("\r\n ");
            width = 1;
        }
        out.push(c);
        width += len;
    }
    out.push_str("\r\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn event(summary: &str) -> CalendarEvent {
        CalendarEvent {
            uid: "event-1@rinkside".into(),
            summary: summary.into(),
            description: Some("Line one\nLine, two; three \\ four".into()),
            location: None,
            start: 1_795_000_000_000,
            end: 1_795_003_600_000,
            status: CalendarStatus::Confirmed,
            sequence: 3,
            last_modified: 1_794_000_000_000,
        }
    }

    /// Unfolds as a reader does: a CRLF followed by a space joins lines.
    fn unfold(text: &str) -> String {
        text.replace("\r\n ", "")
    }

    #[test]
    fn text_is_escaped_and_times_are_utc() {
        let out = write("Sam's schedule", &[event("Tuesday pickup — waitlist #2")], 1_795_000_000_000);
        assert!(out.starts_with("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"));
        assert!(out.ends_with("END:VCALENDAR\r\n"));
        let lines = unfold(&out);
        assert!(lines.contains("SUMMARY:Tuesday pickup — waitlist #2\r\n"), "{lines}");
        assert!(lines.contains("DESCRIPTION:Line one\\nLine\\, two\\; three \\\\ four\r\n"), "{lines}");
        assert!(lines.contains("DTSTART:20261118T110640Z\r\n"), "{lines}");
        assert!(lines.contains("SEQUENCE:3\r\n"));
    }

    #[test]
    fn long_lines_fold_at_75_octets_between_characters() {
        let long = "é".repeat(100);
        let out = write("x", &[event(&long)], 0);
        for line in out.split("\r\n") {
            assert!(line.len() <= FOLD_AT, "{} octets: {line}", line.len());
        }
        assert!(unfold(&out).contains(&format!("SUMMARY:{long}\r\n")));
    }

    proptest! {
        /// Any text: every physical line fits, and unfolding then
        /// unescaping gives the text back (less dropped control characters).
        #[test]
        fn any_summary_folds_and_unescapes_to_itself(text in "\\PC{0,200}") {
            let out = write("x", &[event(&text)], 0);
            for line in out.split("\r\n") {
                prop_assert!(line.len() <= FOLD_AT);
            }
            let unfolded = unfold(&out);
            let summary = unfolded.lines().find_map(|l| l.strip_prefix("SUMMARY:")).unwrap_or_default();
            let mut back = String::new();
            let mut chars = summary.trim_end_matches('\r').chars();
            while let Some(c) = chars.next() {
                if c == '\\' {
                    match chars.next() {
                        Some('n') => back.push('\n'),
                        Some(other) => back.push(other),
                        None => {}
                    }
                } else {
                    back.push(c);
                }
            }
            let want: String = text.chars().filter(|c| !c.is_control() || *c == '\n').collect();
            prop_assert_eq!(back, want);
        }
    }
}
