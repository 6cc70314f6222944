//! realtime tests.
