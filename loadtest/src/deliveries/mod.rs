//! Who received which sequence number, when — and what that means.
//!
//! Subscriber tasks stamp every `update` frame with the instant it was read
//! and send it here ([`Collector`]). A scenario marks each change it caused
//! with the sequence number the server answered and the instant it sent the
//! request ([`Mark`]); a [`DeliveryPool`] then joins the two (and pools
//! several runs).
//!
//! The server may coalesce: a slow connection keeps only the newest state per
//! topic, so a subscriber can jump from seq 7 to seq 9. The payload is the full
//! state, so seq 9 *delivers* change 8 as well. A change counts as delivered to
//! a subscriber at the first frame whose seq is at or past the change's seq.
//!
//! The subscribers' side is [`collector`], the joined numbers [`pool`].

mod collector;
mod pool;

use std::time::Instant;

pub use collector::Collector;
pub use pool::{DeliveryAnalysis, DeliveryPool, DeliveryShare};

/// A change the scenario caused: the seq the server gave it and when the
/// request left the load generator.
#[derive(Debug, Clone, Copy)]
pub struct Mark {
    pub seq: u64,
    pub sent_at: Instant,
}
