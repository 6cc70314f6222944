//! operations tests.
