//! The persistence the live aggregates drive, composed from `db/` queries
//! and the product's consequences. `db/` only speaks SQL; what a commit
//! means for the feed, notifications and the sub market is decided here.
//!
//! - [`events`]: the event actors' store. A batch's transaction holds its
//!   own rows and one follow-up record; nothing else sits on the path of
//!   the next batch.
//! - [`follow_ups`]: the worker that carries those records out (feed items,
//!   notifications, settled calls for subs, then the pushes), exactly once,
//!   on whichever node gets to a record first, also after a crash.
//! - [`games`]: the game actors' store. A game batch is one score keeper's
//!   tap, so its notifications (started, final) stay in its transaction.

pub mod events;
pub mod follow_ups;
pub mod games;
