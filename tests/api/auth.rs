//! auth tests.
