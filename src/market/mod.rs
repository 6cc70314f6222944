//! The sub market (docs/statuses.md): people looking for a team or
//! available to sub, teams recruiting or looking for subs, and events short
//! of a goalie or skaters — compared across rinks and matched live.
//!
//! - [`rules`]: the pure decisions (what pairs, positions, levels, time,
//!   open spots, what may be posted).
//! - [`view`]: the Status and Match as the API and the topics show them.
//! - [`matches`]: a person's matches.
//! - [`post`]: posting a status (a person's, or an event's game-day call).
//! - [`push`]: who is told what after a change commits (`matches` topic,
//!   the rink's `spots:` document).

pub mod matches;
pub mod post;
pub mod push;
pub mod rules;
pub mod view;
