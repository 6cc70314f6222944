//! events tests.
