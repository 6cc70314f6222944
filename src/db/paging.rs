//! Keyset paging: the opaque cursor over `(time, id)`, page sizes, the
//! look-ahead row, and the one WHERE clause that starts a page after a
//! cursor.

/// Keyset cursor over `(time, id)`: opaque to clients, `"<ms>_<id>"` inside.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cursor {
    pub at: i64,
    pub id: String,
}

impl Cursor {
    pub fn encode(&self) -> String {
        format!("{}_{}", self.at, self.id)
    }

    /// Only what [`Cursor::encode`] could have made of one of our rows: a
    /// time and an id of ours (letters, digits, `-` and `.`); anything else
    /// is a forged cursor.
    pub fn parse(raw: &str) -> Option<Self> {
        let (at, id) = raw.split_once('_')?;
        let id_ok =
            !id.is_empty() && id.len() <= 80 && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.');
        id_ok.then(|| Some(Cursor { at: at.parse().ok()?, id: id.to_string() })).flatten()
    }
}

/// Rows per page when the client does not say.
pub const DEFAULT_PAGE_ROWS: i64 = 20;
/// The most rows one page holds.
pub const MAX_PAGE_ROWS: i64 = 100;

/// `limit` as asked: 1 to [`MAX_PAGE_ROWS`], [`DEFAULT_PAGE_ROWS`] when not
/// given; anything else is the message for a 422 naming `limit`. One row
/// more is fetched to know whether there is a next page.
pub fn checked_page_limit(asked: Option<i64>) -> Result<i64, String> {
    match asked {
        None => Ok(DEFAULT_PAGE_ROWS),
        Some(n) if (1..=MAX_PAGE_ROWS).contains(&n) => Ok(n),
        Some(_) => Err(format!("must be between 1 and {MAX_PAGE_ROWS}")),
    }
}

/// The lenient form: `limit` clamped into range instead of refused. Only for
/// lists not yet moved to [`checked_page_limit`] (events, rosters, games).
pub fn page_limit(asked: Option<i64>) -> i64 {
    asked.unwrap_or(DEFAULT_PAGE_ROWS).clamp(1, MAX_PAGE_ROWS)
}

/// Splits off the look-ahead row and builds the next cursor from the last row.
pub fn finish_page<T>(mut rows: Vec<T>, limit: i64, key: impl Fn(&T) -> String) -> (Vec<T>, Option<String>) {
    let limit = usize::try_from(limit).unwrap_or(20);
    if rows.len() > limit {
        rows.truncate(limit);
        let next = rows.last().map(key);
        (rows, next)
    } else {
        (rows, None)
    }
}

/// Which way a list runs by `(time, id)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Newest first: a page holds rows before the cursor.
    NewestFirst,
    /// Oldest first: a page holds rows after the cursor.
    OldestFirst,
}

/// The clause that starts a page after the cursor: rows strictly past
/// `(time, id)` in `order`, or every row when the flag parameter is 0.
/// `first` is the flag's placeholder number; the cursor's time and id are
/// the next two.
pub fn keyset(time: &str, id: &str, order: Order, first: usize) -> String {
    let op = match order {
        Order::NewestFirst => "<",
        Order::OldestFirst => ">",
    };
    let (at, key) = (first + 1, first + 2);
    format!("(${first} = 0 OR {time} {op} ${at} OR ({time} = ${at} AND {id} {op} ${key}))")
}

#[cfg(test)]
mod fuzz {
    use super::*;
    use crate::fuzzing::{self, text};
    use proptest::prelude::*;

    /// Cursor-shaped strings: digits (or near-digits), an underscore, an id.
    fn cursor_like() -> impl Strategy<Value = String> {
        (prop_oneof!["-?[0-9]{0,21}", "[+ 0-9a-f.e-]{0,8}", text()], text()).prop_map(|(at, id)| format!("{at}_{id}"))
    }

    #[test]
    fn a_page_starts_strictly_past_the_cursor_either_way() {
        assert_eq!(
            keyset("p.created_at", "p.id", Order::NewestFirst, 2),
            "($2 = 0 OR p.created_at < $3 OR (p.created_at = $3 AND p.id < $4))"
        );
        assert_eq!(keyset("at", "id", Order::OldestFirst, 16), "($16 = 0 OR at > $17 OR (at = $17 AND id > $18))");
    }

    proptest! {
        #![proptest_config(fuzzing::config(2_000))]

        /// A `?cursor=` is outside input: it parses or is refused, never a
        /// panic.
        #[test]
        fn any_cursor_parses_or_is_refused(raw in prop_oneof![cursor_like(), text()]) {
            if let Some(c) = Cursor::parse(&raw) {
                // The id is everything after the first underscore, and the
                // position re-encodes to a cursor that parses the same.
                prop_assert_eq!(Some(c.id.as_str()), raw.split_once('_').map(|(_, id)| id));
                prop_assert_eq!(Cursor::parse(&c.encode()), Some(c));
            }
        }

        /// Every cursor we give out (an id of ours: letters, digits, `-`
        /// and `.`) parses back to the same position.
        #[test]
        fn cursors_round_trip(at in any::<i64>(), id in "[0-9A-Za-z.-]{1,80}") {
            let c = Cursor { at, id };
            prop_assert_eq!(Cursor::parse(&c.encode()), Some(c));
        }

        /// Any `?limit=` is a page size within bounds or the 422 message.
        #[test]
        fn any_page_limit_is_in_bounds_or_refused(asked in prop::option::of(any::<i64>())) {
            match checked_page_limit(asked) {
                Ok(n) => prop_assert!((1..=MAX_PAGE_ROWS).contains(&n)),
                Err(message) => prop_assert!(asked.is_some() && !message.is_empty()),
            }
            prop_assert!((1..=MAX_PAGE_ROWS).contains(&page_limit(asked)));
        }
    }
}
