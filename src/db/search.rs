//! Name search: one LIKE pattern rule for every "contains" search, so what a
//! person types matches itself and nothing more on both backends.
//!
//! Queries compare `lower(column) LIKE lower($n) ESCAPE '\'` (see
//! [`CONTAINS`]): the database lowers both sides the same way (SQLite's
//! `lower` only knows ASCII; lowering one side in Rust would disagree with
//! it), and `ESCAPE '\'` is spelled out because SQLite has no default escape
//! character while PostgreSQL's is the backslash.

/// The comparison a contains-search uses, with `{col}` and `{param}` to fill
/// in; see the module doc.
pub const CONTAINS: &str = "lower({col}) LIKE lower({param}) ESCAPE '\\'";

/// `lower(col) LIKE lower(param) ESCAPE '\'` for this column and placeholder.
pub fn contains(col: &str, param: &str) -> String {
    CONTAINS.replace("{col}", col).replace("{param}", param)
}

/// `%term%`, with the term's own `%`, `_` and `\` escaped so they match
/// literally (`sam_goalie` finds `sam_goalie`, not `samxgoalie`; `%` finds
/// names with a percent sign, not everyone).
pub fn contains_pattern(term: &str) -> String {
    let mut pattern = String::with_capacity(term.len() + 2);
    pattern.push('%');
    for c in term.chars() {
        if matches!(c, '%' | '_' | '\\') {
            pattern.push('\\');
        }
        pattern.push(c);
    }
    pattern.push('%');
    pattern
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards_in_the_term_are_escaped_and_the_term_is_wrapped_in_percent() {
        assert_eq!(contains_pattern("sam_goalie"), r"%sam\_goalie%");
        assert_eq!(contains_pattern("100%"), r"%100\%%");
        assert_eq!(contains_pattern(r"a\b"), r"%a\\b%");
        assert_eq!(contains_pattern(""), "%%");
        assert_eq!(contains_pattern("Élan"), "%Élan%");
    }

    #[test]
    fn the_comparison_escapes_with_a_backslash_on_both_sides_lowered() {
        assert_eq!(contains("u.username", "$1"), r"lower(u.username) LIKE lower($1) ESCAPE '\'");
    }
}
