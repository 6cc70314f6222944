//! Who received which seq when ([`Collector`]): every subscriber's updates
//! stamped with the instant they were read, and a running count of who
//! has reached the current target seq, so "has everybody got it?" is O(1)
//! per frame.

use std::time::Instant;

/// What the load generator knows about one subscriber.
#[derive(Debug, Clone, Default)]
struct Subscriber {
    /// Set once the snapshot arrived; subscribers that never got that far are
    /// connection failures, not delivery failures.
    subscribed: bool,
    /// Still connected (no close, no read error).
    alive: bool,
    /// Highest seq seen (snapshot or update).
    max_seq: u64,
    /// `(seq, arrival)` of every update with a seq above all earlier ones, in
    /// arrival order, so seqs are strictly increasing and binary-searchable.
    log: Vec<(u64, Instant)>,
}

/// Per-subscriber delivery logs plus a running count of who has reached the
/// current target seq, so "has everybody got it?" is O(1) per frame.
#[derive(Debug, Default)]
pub struct Collector {
    subs: Vec<Subscriber>,
    target: u64,
    /// Subscribed subscribers whose `max_seq >= target`.
    reached: usize,
    /// Subscribed subscribers that are gone and never reached `target`.
    lost: usize,
    /// Subscribers that ever subscribed.
    members: usize,
    /// Frames that did not advance their subscriber's seq (duplicates or out
    /// of order). The contract says seq strictly increases per topic.
    pub non_increasing: u64,
    /// Every update frame, whether or not it advanced the seq.
    pub frames: u64,
}

impl Collector {
    pub fn new(subscribers: usize) -> Self {
        Self { subs: vec![Subscriber::default(); subscribers], target: u64::MAX, ..Self::default() }
    }

    /// Subscriber `idx` received its snapshot at `seq`.
    pub fn subscribed(&mut self, idx: usize, seq: u64) {
        let target = self.target;
        let Some(s) = self.subs.get_mut(idx) else {
            return;
        };
        if s.subscribed {
            return;
        }
        s.subscribed = true;
        s.alive = true;
        s.max_seq = seq;
        self.members += 1;
        if seq >= target {
            self.reached += 1;
        }
    }

    /// Subscriber `idx` read an update frame with `seq` at `at`.
    pub fn update(&mut self, idx: usize, seq: u64, at: Instant) {
        self.frames += 1;
        let target = self.target;
        let Some(s) = self.subs.get_mut(idx) else {
            return;
        };
        if !s.subscribed || seq <= s.max_seq {
            self.non_increasing += 1;
            return;
        }
        if s.max_seq < target && seq >= target {
            self.reached += 1;
        }
        s.max_seq = seq;
        s.log.push((seq, at));
    }

    /// Subscriber `idx` lost its connection.
    pub fn gone(&mut self, idx: usize) {
        let target = self.target;
        let Some(s) = self.subs.get_mut(idx) else {
            return;
        };
        if s.subscribed && s.alive && s.max_seq < target {
            self.lost += 1;
        }
        s.alive = false;
    }

    /// From now on, count who has seen `seq` (or later).
    pub fn set_target(&mut self, seq: u64) {
        self.target = seq;
        self.reached = 0;
        self.lost = 0;
        for s in self.subs.iter().filter(|s| s.subscribed) {
            if s.max_seq >= seq {
                self.reached += 1;
            } else if !s.alive {
                self.lost += 1;
            }
        }
    }

    /// Every subscriber has either seen the target or is gone for good.
    pub fn target_settled(&self) -> bool {
        self.reached + self.lost >= self.members
    }

    pub fn reached(&self) -> usize {
        self.reached
    }

    pub fn members(&self) -> usize {
        self.members
    }

    /// Subscribers that subscribed and are still connected.
    pub fn alive(&self) -> usize {
        self.subs.iter().filter(|s| s.subscribed && s.alive).count()
    }

    /// Smallest snapshot-or-later seq over subscribed subscribers.
    pub fn min_seq(&self) -> Option<u64> {
        self.subs.iter().filter(|s| s.subscribed).map(|s| s.max_seq).min()
    }

    /// The update logs of the subscribers that subscribed: `(seq,
    /// arrival)`, seqs strictly increasing.
    pub(super) fn logs(&self) -> impl Iterator<Item = &[(u64, Instant)]> {
        self.subs.iter().filter(|s| s.subscribed).map(|s| s.log.as_slice())
    }

    /// Did anyone see exactly `seq` (used to check that update seqs are the
    /// versions the REST/command replies report)?
    pub fn anyone_saw_exactly(&self, seq: u64) -> bool {
        self.subs.iter().any(|s| s.log.binary_search_by_key(&seq, |&(q, _)| q).is_ok())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_target_settles_when_the_last_subscriber_reaches_it() {
        let t = Instant::now();
        let mut c = Collector::new(3);
        for i in 0..3 {
            c.subscribed(i, 5);
        }
        c.set_target(6);
        assert!(!c.target_settled());
        c.update(0, 6, t);
        c.update(1, 6, t);
        assert_eq!(c.reached(), 2);
        assert!(!c.target_settled());
        c.update(2, 6, t);
        assert!(c.target_settled());
    }

    #[test]
    fn a_subscriber_that_leaves_stops_being_waited_for() {
        let t = Instant::now();
        let mut c = Collector::new(2);
        c.subscribed(0, 1);
        c.subscribed(1, 1);
        c.set_target(2);
        c.update(0, 2, t);
        c.gone(1);
        assert!(c.target_settled());
        // A later target still remembers it is gone.
        c.set_target(3);
        c.update(0, 3, t);
        assert!(c.target_settled());
        assert_eq!(c.alive(), 1);
    }

    #[test]
    fn never_subscribed_connections_are_not_members() {
        let mut c = Collector::new(3);
        c.subscribed(0, 1);
        c.gone(2);
        c.set_target(1);
        assert_eq!(c.members(), 1);
        assert!(c.target_settled());
    }

    #[test]
    fn duplicate_and_out_of_order_frames_are_counted_and_ignored() {
        let t = Instant::now();
        let mut c = Collector::new(1);
        c.subscribed(0, 3);
        c.update(0, 3, t);
        c.update(0, 5, t);
        c.update(0, 4, t);
        assert_eq!(c.non_increasing, 2);
        assert_eq!(c.frames, 3);
        assert!(c.anyone_saw_exactly(5));
        assert!(!c.anyone_saw_exactly(4));
    }
}
