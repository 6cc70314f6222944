//! rosters tests.
