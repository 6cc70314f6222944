//! Where a game is, written once (docs/sync.md › What a sync changes).
//!
//! Sources name a place in pieces that repeat each other: a LOCATION of
//! "Riverside Ice Centre - Rink 2, 100 River Rd", a CSV cell of "Rink 2,
//! Riverside Ice Centre - Rink 2", a rink beside a venue that already names
//! it. Shown side by side, those read "Rink 2, Riverside Ice Centre - Rink
//! 2…". A place is read as segments (split at `,` `;` and at ` - `, ` – `,
//! ` — `, ` · `, ` | ` between words) compared by `normalise_name`, and:
//!
//! - `merge` joins places, most specific first, keeping each segment once:
//!   one contained in another (as whole words: "Rink 2" in "Riverside Rink
//!   2", never in "Rink 20") gives way to it, in the place of the first.
//! - `rink_at` is the part of a source's place that the venue does not
//!   already say: what an imported game stores as its rink, since its event
//!   is at the season's rink already; `same_place` tells a rink so
//!   rewritten from a move.
//!
//! Pure: text in, text out.

use super::schedule::normalise_name;

/// Separators between the segments of a place, as written.
const SEPARATORS: &[&str] = &[",", ";", " - ", " – ", " — ", " · ", " | "];

/// One piece of a place: the separator written before it (empty for the
/// first) and its text, trimmed.
#[derive(Debug, Clone)]
struct Segment<'a> {
    before: &'a str,
    text: &'a str,
    key: String,
}

fn segments(place: &str) -> Vec<Segment<'_>> {
    let mut out = Vec::new();
    let mut before = "";
    let mut rest = place;
    loop {
        let next = SEPARATORS.iter().filter_map(|sep| rest.find(sep).map(|at| (at, *sep))).min_by_key(|(at, _)| *at);
        let (text, after) = match next {
            Some((at, sep)) => (&rest[..at], Some((sep, &rest[at + sep.len()..]))),
            None => (rest, None),
        };
        let text = text.trim();
        let key = normalise_name(text);
        if !key.is_empty() {
            out.push(Segment { before: if out.is_empty() { "" } else { before }, text, key });
        }
        match after {
            Some((sep, tail)) => {
                before = sep;
                rest = tail;
            }
            None => return out,
        }
    }
}

/// Whether `small` is `big`, or whole words inside it.
fn within(small: &str, big: &str) -> bool {
    format!(" {big} ").contains(&format!(" {small} "))
}

/// The places given (most specific first: a rink before its venue) as one,
/// each segment once; `None` when nothing is left.
pub fn merge<'a>(places: impl IntoIterator<Item = Option<&'a str>>) -> Option<String> {
    let mut kept: Vec<Segment<'a>> = Vec::new();
    for (n, place) in places.into_iter().flatten().enumerate() {
        for (i, mut segment) in segments(place).into_iter().enumerate() {
            if i == 0 && n > 0 {
                segment.before = ",";
            }
            if kept.iter().any(|k| within(&segment.key, &k.key)) {
                continue;
            }
            match kept.iter().position(|k| within(&k.key, &segment.key)) {
                Some(at) => {
                    let before = kept[at].before;
                    kept[at] = Segment { before, ..segment.clone() };
                    let key = segment.key;
                    let mut index = 0;
                    kept.retain(|k| {
                        index += 1;
                        index - 1 == at || !within(&k.key, &key)
                    });
                }
                None => kept.push(segment),
            }
        }
    }
    write(&kept)
}

/// The segments of `place` that `venue` does not already say (a segment
/// starting with the venue's name keeps what follows it); `None` when the
/// place is the venue.
pub fn rink_at(place: &str, venue: &str) -> Option<String> {
    let venue_key = normalise_name(venue);
    let mut kept: Vec<Segment<'_>> = Vec::new();
    for mut segment in segments(place) {
        if venue_key.is_empty() {
            kept.push(segment);
            continue;
        }
        if within(&segment.key, &venue_key) {
            continue;
        }
        if let Some(rest) = strip_leading_venue(segment.text, venue) {
            segment.key = normalise_name(rest);
            segment.text = rest;
        }
        if !segment.key.is_empty() && !kept.iter().any(|k| within(&segment.key, &k.key)) {
            kept.push(segment);
        }
    }
    if let Some(first) = kept.first_mut() {
        first.before = "";
    }
    merge(write(&kept).as_deref().into_iter().map(Some))
}

/// Whether two rinks at `venue` are one place once each is written with
/// the venue, each segment once: "Riverside Ice Centre - Rink 2" and
/// "Rink 2" at Riverside Ice Centre are. A rink rewritten that way is no
/// move, and its people are not told of one.
pub fn same_place(a: Option<&str>, b: Option<&str>, venue: &str) -> bool {
    let keys = |rink: Option<&str>| {
        let mut keys: Vec<String> =
            merge([rink, Some(venue)]).map(|m| segments(&m).into_iter().map(|s| s.key).collect()).unwrap_or_default();
        keys.sort();
        keys
    };
    keys(a) == keys(b)
}

/// `text` after a leading `venue` (any case) and the spaces or marks after
/// it: "Riverside Ice Centre Rink 2" → "Rink 2".
fn strip_leading_venue<'a>(text: &'a str, venue: &str) -> Option<&'a str> {
    let venue = venue.trim();
    let head = text.get(..venue.len())?;
    if venue.is_empty() || !head.eq_ignore_ascii_case(venue) {
        return None;
    }
    let rest = &text[venue.len()..];
    if rest.chars().next().is_some_and(char::is_alphanumeric) {
        return None; // "Riverside Ice Centres": another word
    }
    Some(rest.trim_start_matches(|c: char| !c.is_alphanumeric()))
}

fn write(segments: &[Segment<'_>]) -> Option<String> {
    let mut out = String::new();
    for (i, s) in segments.iter().enumerate() {
        if i > 0 {
            let separator = if s.before.is_empty() { "," } else { s.before };
            out.push_str(separator);
            if matches!(separator, "," | ";") {
                out.push(' ');
            }
        }
        out.push_str(s.text);
    }
    (!out.is_empty()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_place_that_repeats_itself_is_written_once() {
        assert_eq!(
            merge([Some("Rink 2, Riverside Ice Centre - Rink 2, 100 River Rd")]).as_deref(),
            Some("Rink 2, Riverside Ice Centre, 100 River Rd")
        );
        assert_eq!(
            merge([Some("Rink 2"), Some("Riverside Ice Centre - Rink 2")]).as_deref(),
            Some("Rink 2, Riverside Ice Centre")
        );
        assert_eq!(
            merge([Some("Rink 2"), Some("Riverside Ice Centre")]).as_deref(),
            Some("Rink 2, Riverside Ice Centre")
        );
        assert_eq!(
            merge([Some("Riverside Ice Centre"), Some("riverside ice centre")]).as_deref(),
            Some("Riverside Ice Centre")
        );
    }

    #[test]
    fn a_segment_inside_a_longer_one_gives_way_to_it_in_its_place() {
        assert_eq!(merge([Some("Rink 2"), Some("Riverside Rink 2 (NHL)")]).as_deref(), Some("Riverside Rink 2 (NHL)"));
        assert_eq!(merge([Some("Rink 2"), Some("Rink 20")]).as_deref(), Some("Rink 2, Rink 20"), "whole words only");
        assert_eq!(merge([None, Some("  "), Some(" , ")]), None);
        assert_eq!(merge([Some("Sin-Bin Arena"), Some("Pad A")]).as_deref(), Some("Sin-Bin Arena, Pad A"));
    }

    #[test]
    fn the_rink_is_what_the_venue_does_not_already_say() {
        let venue = "Riverside Ice Centre";
        assert_eq!(rink_at("Riverside Ice Centre - Rink 2", venue).as_deref(), Some("Rink 2"));
        assert_eq!(rink_at("Rink 2, Riverside Ice Centre - Rink 2", venue).as_deref(), Some("Rink 2"));
        assert_eq!(rink_at("Riverside Ice Centre Rink 2", venue).as_deref(), Some("Rink 2"));
        assert_eq!(rink_at("RIVERSIDE ICE CENTRE", venue), None);
        assert_eq!(rink_at("Rink A", venue).as_deref(), Some("Rink A"));
        assert_eq!(rink_at("Northside Arena - Rink 1", venue).as_deref(), Some("Northside Arena - Rink 1"));
        assert_eq!(rink_at("Riverside Ice Centres - Pad 1", venue).as_deref(), Some("Riverside Ice Centres - Pad 1"));
        assert_eq!(rink_at("Rink 2", "").as_deref(), Some("Rink 2"));
    }

    #[test]
    fn a_rink_rewritten_once_is_the_same_place_a_new_sheet_is_not() {
        let venue = "Riverside Ice Centre";
        assert!(same_place(Some("Riverside Ice Centre - Rink 2"), Some("Rink 2"), venue));
        assert!(same_place(Some("Riverside Ice Centre"), None, venue));
        assert!(!same_place(Some("Rink 2"), Some("Rink 3"), venue));
        assert!(!same_place(None, Some("Rink 3"), venue));
    }

    proptest! {
        /// Any places: no panic, and no segment of the result is inside another.
        #[test]
        fn merged_places_never_repeat_a_segment(
            parts in prop::collection::vec(prop::option::of("[A-Za-z0-9 ,;·|–-]{0,30}"), 0..4),
            venue in "[A-Za-z ]{0,20}",
        ) {
            let merged = merge(parts.iter().map(|p| p.as_deref()));
            if let Some(m) = &merged {
                let keys: Vec<String> = segments(m).into_iter().map(|s| s.key).collect();
                for (i, a) in keys.iter().enumerate() {
                    for (j, b) in keys.iter().enumerate() {
                        prop_assert!(i == j || !within(a, b), "{m:?}: {a:?} within {b:?}");
                    }
                }
            }
            for p in parts.iter().flatten() {
                let _ = rink_at(p, &venue);
            }
        }
    }
}
