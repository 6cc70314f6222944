//! The organiser's tools for a pickup night, as pure functions
//! (docs/sides-and-bill.md):
//!
//! - `sides`: two fair sides, Dark and Light, by role, level, spread and
//!   recent teammates; exact up to 24 skaters, a measured heuristic beyond.
//! - `bill`: each player's share of the ice in whole cents, summing exactly
//!   to the cost, with paid shares kept as they were on every recompute.
pub mod bill;
pub mod sides;
