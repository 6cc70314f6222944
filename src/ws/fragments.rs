//! A fragmented WebSocket message put back together, bounded in size and
//! in fragments (docs/realtime.md › Protections).

use actix_http::ws::Item;
use bytes::{Bytes, BytesMut};

/// Fragments one message may arrive in. Browsers send whole messages; a
/// stream of empty continuation frames would otherwise never count against
/// the rate limit (a message counts when complete).
pub const MAX_FRAGMENTS: usize = 64;

/// A fragmented message being put back together, bounded in size and in
/// fragments.
#[derive(Default)]
pub struct Fragments {
    parts: BytesMut,
    text: bool,
    count: usize,
}

/// What a fragment made of the message.
pub enum Assembled {
    /// More fragments to come.
    Partial,
    Text(Bytes),
    Binary,
    /// Past the byte limit: close 1009.
    TooBig,
    /// Past the fragment limit: close 1008.
    TooManyFragments,
}

impl Fragments {
    pub fn push(&mut self, item: Item, max_bytes: usize) -> Assembled {
        let (bytes, last) = match item {
            Item::FirstText(b) => {
                *self = Fragments { text: true, ..Fragments::default() };
                (b, false)
            }
            Item::FirstBinary(b) => {
                *self = Fragments { text: false, ..Fragments::default() };
                (b, false)
            }
            Item::Continue(b) => (b, false),
            Item::Last(b) => (b, true),
        };
        self.count += 1;
        if self.parts.len() + bytes.len() > max_bytes {
            *self = Fragments::default();
            return Assembled::TooBig;
        }
        if self.count > MAX_FRAGMENTS {
            *self = Fragments::default();
            return Assembled::TooManyFragments;
        }
        self.parts.extend_from_slice(&bytes);
        if !last {
            return Assembled::Partial;
        }
        let done = std::mem::take(self);
        if done.text { Assembled::Text(done.parts.freeze()) } else { Assembled::Binary }
    }
}

#[cfg(test)]
mod fuzz {
    use super::*;
    use crate::fuzzing;
    use proptest::prelude::*;

    /// A continuation frame as the frame decoder hands it over, in any order a
    /// client can send them.
    fn item() -> impl Strategy<Value = Item> {
        let payload = prop::collection::vec(any::<u8>(), 0..64).prop_map(Bytes::from);
        (0..4u8, payload).prop_map(|(kind, b)| match kind {
            0 => Item::FirstText(b),
            1 => Item::FirstBinary(b),
            2 => Item::Continue(b),
            _ => Item::Last(b),
        })
    }

    proptest! {
        #![proptest_config(fuzzing::config(500))]

        /// However fragments arrive (a continuation with no first frame, a
        /// new first frame mid-message, a hundred empty ones), putting them
        /// together never holds more than the byte and fragment limits, and
        /// a finished text message is within the byte limit.
        #[test]
        fn fragments_stay_within_their_limits(items in prop::collection::vec(item(), 0..80), max in 1usize..600) {
            let mut fragments = Fragments::default();
            for item in items {
                match fragments.push(item, max) {
                    Assembled::Text(bytes) => prop_assert!(bytes.len() <= max),
                    Assembled::Partial | Assembled::Binary | Assembled::TooBig | Assembled::TooManyFragments => {}
                }
                prop_assert!(fragments.parts.len() <= max);
                prop_assert!(fragments.count <= MAX_FRAGMENTS);
            }
        }
    }
}
