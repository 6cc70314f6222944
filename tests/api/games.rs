//! games tests.
