//! inputs tests.
