//! Season sync: the league schedules rinks publish, imported into a season
//! and kept in step (docs/sync.md).
//!
//! - `address`, `fetch`: the fetcher that cannot be turned against us (SSRF).
//! - `schedule`: the one shape every adapter returns; `detect` picks the
//!   adapter; `daysmart`, `ical`, `csv` read each format.
//! - `spelling`: one spelling per team name, the nicest the source has;
//!   `place`: a place written once (both pure).
//! - `matching`: which of our teams an external team is (pure).
//! - `plan`: what a sync changes, rows and events (pure).
//! - `run`: one sync, from the lease to the report; `scheduler`: the hourly
//!   syncs, one node at a time.

pub mod csv;
pub mod daysmart;
pub mod detect;
pub mod ical;
pub mod matching;
pub mod place;
pub mod plan;
pub mod run;
pub mod schedule;
pub mod scheduler;
pub mod spelling;
