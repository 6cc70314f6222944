//! Writing iCalendar (RFC 5545) for the calendar feeds and the "Add to
//! calendar" download (docs/schedule.md). Pure: items in, text out. The
//! reader of imported schedules is `sync::ical`; this is the writer.
//!
//! Times are written in UTC (`…Z`), which every calendar shows in its own
//! zone, so no VTIMEZONE is needed; text is escaped (`\\`, `;`, `,`, line
//! breaks; a tab is kept, as TEXT allows it) and lines are folded at 75
//! octets without splitting a character. Every event names an ORGANIZER,
//! which `METHOD:PUBLISH` requires (RFC 5546 §3.2.1): a no-reply address
//! of ours (`no_reply`).

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

/// Where nobody reads: the ORGANIZER when `SMTP_FROM` names no domain.
const FALLBACK_DOMAIN: &str = "rinkside.invalid";

/// The ORGANIZER's address: `no-reply@` the domain of the `SMTP_FROM`
/// setting (`Rinkside <notifications@example.com>` or a bare address),
/// `no-reply@rinkside.invalid` when it has none we can use. The feed is
/// read-only, so replies must not reach a person.
pub fn no_reply(smtp_from: &str) -> String {
    let address = match (smtp_from.rfind('<'), smtp_from.rfind('>')) {
        (Some(open), Some(close)) if open < close => &smtp_from[open + 1..close],
        _ => smtp_from,
    };
    let domain = address.trim().rsplit_once('@').map(|(_, domain)| domain.trim().trim_end_matches('.'));
    let usable = |d: &&str| {
        !d.is_empty()
            && d.len() <= 253
            && d.split('.').all(|label| {
                !label.is_empty()
                    && !label.starts_with('-')
                    && !label.ends_with('-')
                    && label.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
            })
    };
    format!("no-reply@{}", domain.filter(usable).unwrap_or(FALLBACK_DOMAIN).to_ascii_lowercase())
}

/// A whole VCALENDAR: `name` is the calendar's name in calendar apps,
/// `organizer` the address every event names as its ORGANIZER (see
/// `no_reply`), `stamp` (epoch ms) the DTSTAMP of every event (when this
/// was written).
pub fn write(name: &str, organizer: &str, events: &[CalendarEvent], stamp: i64) -> String {
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
        push(&mut out, &format!("ORGANIZER;CN=Rinkside:mailto:{organizer}"));
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
/// breaks. A tab is TEXT (`WSP` is in `TSAFE-CHAR`) and stays as typed;
/// other control characters, which TEXT cannot hold, are dropped.
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
            '\t' => out.push('\t'),
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
        let out = write(
            "Sam's schedule",
            "no-reply@example.com",
            &[event("Tuesday pickup — waitlist #2")],
            1_795_000_000_000,
        );
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
        let out = write("x", "no-reply@example.com", &[event(&long)], 0);
        for line in out.split("\r\n") {
            assert!(line.len() <= FOLD_AT, "{} octets: {line}", line.len());
        }
        assert!(unfold(&out).contains(&format!("SUMMARY:{long}\r\n")));
    }

    #[test]
    fn a_tab_in_a_title_is_kept_even_where_a_fold_falls_beside_it() {
        let out = write("x", "no-reply@example.com", &[event("Pickup\tRink 2")], 0);
        assert!(unfold(&out).contains("SUMMARY:Pickup\tRink 2\r\n"), "{out}");
        // "SUMMARY:" and 66 letters fill the line: the tab starts the next
        // one, after the fold's own space, and unfolding keeps it.
        let title = format!("{}\tend", "a".repeat(FOLD_AT - "SUMMARY:".len()));
        let out = write("x", "no-reply@example.com", &[event(&title)], 0);
        assert!(out.contains("\r\n \tend\r\n"), "{out}");
        assert!(unfold(&out).contains(&format!("SUMMARY:{title}\r\n")));
        assert_eq!(escape("a\u{7}b\u{0}c"), "abc", "other control characters cannot be TEXT");
    }

    #[test]
    fn every_event_names_its_organizer_as_publish_requires() {
        let out = unfold(&write("x", "no-reply@example.com", &[event("a"), event("b")], 0));
        assert!(out.contains("METHOD:PUBLISH\r\n"));
        assert_eq!(out.matches("ORGANIZER;CN=Rinkside:mailto:no-reply@example.com\r\n").count(), 2, "{out}");
    }

    #[test]
    fn the_organizer_is_no_reply_at_the_mail_senders_domain() {
        assert_eq!(no_reply("Rinkside <notifications@Rink.Example.com>"), "no-reply@rink.example.com");
        assert_eq!(no_reply("alerts@example.org"), "no-reply@example.org");
        assert_eq!(no_reply("\"Rinkside, Inc.\" <a@example.net.>"), "no-reply@example.net");
        for unusable in ["", "Rinkside", "a@", "a@-bad.com", "a@exa mple.com", "<a@b..c>", "a@b.c>evil@x.org\r\nX:"] {
            assert_eq!(no_reply(unusable), "no-reply@rinkside.invalid", "{unusable:?}");
        }
    }

    proptest! {
        /// Any text, tabs and other control characters included: every
        /// physical line fits, and unfolding then unescaping gives the text
        /// back with only the control characters TEXT cannot hold dropped
        /// (a tab stays: it used to be dropped too, which lost it from
        /// titles, issue 26).
        #[test]
        fn any_summary_folds_and_unescapes_to_itself(text in "[\\PC\t\u{0}-\u{1f}]{0,200}") {
            let out = write("x", "no-reply@example.com", &[event(&text)], 0);
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
            let want: String = text
                .replace("\r\n", "\n")
                .replace('\r', "\n")
                .chars()
                .filter(|c| !c.is_control() || matches!(c, '\n' | '\t'))
                .collect();
            prop_assert_eq!(back, want);
        }
    }
}
