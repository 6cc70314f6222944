//! follows tests.
