//! What the deliveries of a run come to ([`DeliveryPool`]): its marks
//! joined with its subscribers' logs — or with the shares of processes that
//! split the subscribers ([`DeliveryShare`]) — several runs pooled, and the
//! numbers of the report ([`DeliveryAnalysis`]).

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::{Collector, Mark};
use crate::stats::{Recorder, Summary, rate};

/// The delivery numbers of a run.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DeliveryAnalysis {
    /// Changes measured.
    pub changes: usize,
    /// Subscribers that were subscribed (the audience of every change).
    pub subscribers: usize,
    /// From sending a change to each subscriber's receipt of it.
    pub per_delivery: Summary,
    /// From sending a change to its receipt by the last subscriber; only
    /// changes that reached everybody count.
    pub time_to_last: Summary,
    /// (subscriber, change) pairs delivered.
    pub delivered: u64,
    /// Pairs delivered only through a later seq (server coalesced).
    pub coalesced: u64,
    /// Pairs never delivered (subscriber gone, or timed out).
    pub missed: u64,
    /// `delivered` over the time spent fanning out: the union of the
    /// intervals from each change's send to its last receipt.
    pub deliveries_per_sec: f64,
    /// Seconds in that union.
    pub fanout_seconds: f64,
}

/// The deliveries of a run — its marks joined with its subscribers' logs —
/// or of several runs of one scenario taken together (the rounds of a
/// baseline comparison): latencies pooled, counts and fan-out time summed.
#[derive(Debug, Clone, Default)]
pub struct DeliveryPool {
    changes: usize,
    /// The smallest audience of any run.
    subscribers: Option<usize>,
    per_delivery: Recorder,
    time_to_last: Recorder,
    delivered: u64,
    coalesced: u64,
    missed: u64,
    fanout: Duration,
}

impl DeliveryPool {
    /// One run: its marks joined with its subscribers' logs.
    pub fn of(marks: &[Mark], collector: &Collector) -> Self {
        let mut pool = Self::default();
        pool.add(marks, collector);
        pool
    }

    /// Adds one run: its marks joined with its subscribers' logs.
    pub fn add(&mut self, marks: &[Mark], collector: &Collector) {
        let mut windows: Vec<(Instant, Instant)> = Vec::with_capacity(marks.len());
        for mark in marks {
            let (last, complete) = self.deliver(mark, collector);
            if let Some(last) = last {
                windows.push((mark.sent_at, last));
                if complete {
                    self.time_to_last.record(last.saturating_duration_since(mark.sent_at));
                }
            }
        }
        self.changes += marks.len();
        self.subscribers = Some(self.subscribers.map_or(collector.members(), |s| s.min(collector.members())));
        // Runs follow each other, so their windows never overlap: add them.
        self.fanout += union_length(&mut windows);
    }

    /// Books one change's deliveries; its last receipt, and whether every
    /// subscriber got it.
    fn deliver(&mut self, mark: &Mark, collector: &Collector) -> (Option<Instant>, bool) {
        let mut last: Option<Instant> = None;
        let mut complete = true;
        for log in collector.logs() {
            let i = log.partition_point(|&(q, _)| q < mark.seq);
            match log.get(i) {
                Some(&(q, at)) => {
                    self.delivered += 1;
                    if q != mark.seq {
                        self.coalesced += 1;
                    }
                    self.per_delivery.record(at.saturating_duration_since(mark.sent_at));
                    last = Some(last.map_or(at, |l| l.max(at)));
                }
                None => {
                    self.missed += 1;
                    complete = false;
                }
            }
        }
        (last, complete)
    }

    /// One process's share of a run whose subscribers are split over
    /// several processes.
    pub fn share(marks: &[Mark], collector: &Collector) -> DeliveryShare {
        let mut pool = Self::default();
        let mut share = DeliveryShare { subscribers: collector.members(), ..DeliveryShare::default() };
        for mark in marks {
            let (last, complete) = pool.deliver(mark, collector);
            share.last_us.push(last.map(|l| micros(l.saturating_duration_since(mark.sent_at))));
            share.complete.push(complete);
        }
        share.per_delivery = pool.per_delivery.to_bytes();
        (share.delivered, share.coalesced, share.missed) = (pool.delivered, pool.coalesced, pool.missed);
        share
    }

    /// The shares of one run pooled as if one process had held every
    /// subscriber: a change's last receipt is the latest of its shares', and
    /// counts for time to last when every share had it everywhere.
    pub fn from_shares(marks: &[Mark], shares: &[DeliveryShare]) -> Self {
        let mut pool = Self { changes: marks.len(), ..Self::default() };
        let mut windows = Vec::with_capacity(marks.len());
        for (i, mark) in marks.iter().enumerate() {
            let latest = shares.iter().filter_map(|s| s.last_us.get(i).copied().flatten()).max();
            let complete = shares.iter().all(|s| s.complete.get(i).copied().unwrap_or(false));
            if let Some(us) = latest {
                let last = Duration::from_micros(us);
                windows.push((mark.sent_at, mark.sent_at + last));
                if complete {
                    pool.time_to_last.record(last);
                }
            }
        }
        for s in shares {
            pool.per_delivery.merge(&Recorder::from_bytes(&s.per_delivery));
            pool.delivered += s.delivered;
            pool.coalesced += s.coalesced;
            pool.missed += s.missed;
        }
        pool.subscribers = Some(shares.iter().map(|s| s.subscribers).sum());
        pool.fanout = union_length(&mut windows);
        pool
    }

    /// Takes another pool in.
    pub fn merge(&mut self, other: &DeliveryPool) {
        self.changes += other.changes;
        self.subscribers = match (self.subscribers, other.subscribers) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self.per_delivery.merge(&other.per_delivery);
        self.time_to_last.merge(&other.time_to_last);
        self.delivered += other.delivered;
        self.coalesced += other.coalesced;
        self.missed += other.missed;
        self.fanout += other.fanout;
    }

    pub fn analysis(&self) -> DeliveryAnalysis {
        DeliveryAnalysis {
            changes: self.changes,
            subscribers: self.subscribers.unwrap_or(0),
            per_delivery: self.per_delivery.summary(),
            time_to_last: self.time_to_last.summary(),
            delivered: self.delivered,
            coalesced: self.coalesced,
            missed: self.missed,
            deliveries_per_sec: rate(self.delivered, self.fanout),
            fanout_seconds: self.fanout.as_secs_f64(),
        }
    }
}

/// A process's part of the deliveries of a run split over several
/// processes (`scoreboard --processes`), as it hands it to the lead.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DeliveryShare {
    pub subscribers: usize,
    /// Per change, in the order of the marks: from its send to this share's
    /// last receipt (µs); `None` when none of its subscribers got it.
    pub last_us: Vec<Option<u64>>,
    /// Per change: every subscriber of this share got it.
    pub complete: Vec<bool>,
    /// Per-delivery latencies ([`Recorder::to_bytes`]).
    pub per_delivery: Vec<u8>,
    pub delivered: u64,
    pub coalesced: u64,
    pub missed: u64,
}

fn micros(d: Duration) -> u64 {
    u64::try_from(d.as_micros()).unwrap_or(u64::MAX)
}

/// Total length covered by possibly overlapping intervals.
fn union_length(windows: &mut [(Instant, Instant)]) -> Duration {
    windows.sort_by_key(|&(start, _)| start);
    let mut total = Duration::ZERO;
    let mut current: Option<(Instant, Instant)> = None;
    for &(start, end) in windows.iter() {
        current = match current {
            Some((s, e)) if start <= e => Some((s, e.max(end))),
            Some((s, e)) => {
                total += e.saturating_duration_since(s);
                Some((start, end))
            }
            None => Some((start, end)),
        };
    }
    if let Some((s, e)) = current {
        total += e.saturating_duration_since(s);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn analyse(marks: &[Mark], collector: &Collector) -> DeliveryAnalysis {
        let mut pool = DeliveryPool::default();
        pool.add(marks, collector);
        pool.analysis()
    }

    #[test]
    fn a_coalesced_frame_delivers_every_change_it_covers() {
        let t0 = Instant::now();
        let mut c = Collector::new(2);
        c.subscribed(0, 0);
        c.subscribed(1, 0);
        // Subscriber 0 sees both changes; subscriber 1 only the second, late.
        c.update(0, 1, t0 + ms(10));
        c.update(0, 2, t0 + ms(30));
        c.update(1, 2, t0 + ms(50));
        let marks = [Mark { seq: 1, sent_at: t0 }, Mark { seq: 2, sent_at: t0 + ms(20) }];
        let a = analyse(&marks, &c);
        assert_eq!(a.delivered, 4);
        assert_eq!(a.coalesced, 1);
        assert_eq!(a.missed, 0);
        assert_eq!(a.time_to_last.count, 2);
        // Change 1: last receipt at 50 ms. Change 2: 50 − 20 = 30 ms.
        assert!((a.time_to_last.max_ms - 50.0).abs() < 0.1, "{a:?}");
        assert!((a.time_to_last.min_ms - 30.0).abs() < 0.1, "{a:?}");
        // Windows [0,50] and [20,50] overlap: 50 ms of fan-out.
        assert!((a.fanout_seconds - 0.050).abs() < 1e-6, "{a:?}");
        assert!((a.deliveries_per_sec - 80.0).abs() < 1e-6, "{a:?}");
    }

    #[test]
    fn a_missed_delivery_keeps_the_change_out_of_time_to_last() {
        let t0 = Instant::now();
        let mut c = Collector::new(2);
        c.subscribed(0, 0);
        c.subscribed(1, 0);
        c.update(0, 1, t0 + ms(5));
        let a = analyse(&[Mark { seq: 1, sent_at: t0 }], &c);
        assert_eq!(a.delivered, 1);
        assert_eq!(a.missed, 1);
        assert_eq!(a.time_to_last.count, 0);
        assert_eq!(a.per_delivery.count, 1);
    }

    #[test]
    fn pooled_runs_add_their_deliveries_and_fan_out_time() {
        let t0 = Instant::now();
        let run = |delay: u64, subscribers: usize| {
            let mut c = Collector::new(subscribers);
            for i in 0..subscribers {
                c.subscribed(i, 0);
                c.update(i, 1, t0 + ms(delay));
            }
            c
        };
        let (fast, slow) = (run(10, 2), run(30, 1));
        let marks = [Mark { seq: 1, sent_at: t0 }];
        let mut pool = DeliveryPool::default();
        pool.add(&marks, &fast);
        let mut other = DeliveryPool::default();
        other.add(&marks, &slow);
        pool.merge(&other);
        let a = pool.analysis();
        assert_eq!((a.changes, a.subscribers, a.delivered, a.missed), (2, 1, 3, 0));
        assert_eq!(a.time_to_last.count, 2);
        assert!((a.time_to_last.max_ms - 30.0).abs() < 0.1, "{a:?}");
        // 10 ms + 30 ms of fan-out for 3 deliveries.
        assert!((a.fanout_seconds - 0.040).abs() < 1e-6, "{a:?}");
        assert!((a.deliveries_per_sec - 75.0).abs() < 1e-6, "{a:?}");
        assert_eq!(DeliveryPool::default().analysis().subscribers, 0);
    }

    #[test]
    fn shares_of_a_split_run_pool_like_one_run() {
        let t0 = Instant::now();
        // Four subscribers: 0 and 1 in one process, 2 and 3 in another.
        let delays = [[10, 40], [20, 45], [15, 60], [30, 50]];
        let marks = [Mark { seq: 1, sent_at: t0 }, Mark { seq: 2, sent_at: t0 + ms(35) }];
        let collector = |subs: &[usize]| {
            let mut c = Collector::new(subs.len());
            for (i, &s) in subs.iter().enumerate() {
                c.subscribed(i, 0);
                c.update(i, 1, t0 + ms(delays[s][0]));
                c.update(i, 2, t0 + ms(delays[s][1]));
            }
            c
        };
        let whole = analyse(&marks, &collector(&[0, 1, 2, 3]));
        let shares =
            [DeliveryPool::share(&marks, &collector(&[0, 1])), DeliveryPool::share(&marks, &collector(&[2, 3]))];
        let shares: Vec<DeliveryShare> =
            shares.iter().map(|s| serde_json::from_value(serde_json::to_value(s).unwrap()).unwrap()).collect();
        let pooled = DeliveryPool::from_shares(&marks, &shares).analysis();
        assert_eq!(
            (pooled.changes, pooled.subscribers, pooled.delivered, pooled.missed),
            (whole.changes, whole.subscribers, whole.delivered, whole.missed)
        );
        assert_eq!(pooled.time_to_last, whole.time_to_last);
        assert_eq!(pooled.per_delivery, whole.per_delivery);
        assert!((pooled.fanout_seconds - whole.fanout_seconds).abs() < 1e-6, "{pooled:?} {whole:?}");
    }

    #[test]
    fn a_change_one_share_missed_stays_out_of_time_to_last() {
        let t0 = Instant::now();
        let mut got = Collector::new(1);
        got.subscribed(0, 0);
        got.update(0, 1, t0 + ms(5));
        let mut missed = Collector::new(1);
        missed.subscribed(0, 0);
        let marks = [Mark { seq: 1, sent_at: t0 }];
        let shares = [DeliveryPool::share(&marks, &got), DeliveryPool::share(&marks, &missed)];
        assert_eq!(shares[1].last_us, vec![None]);
        let a = DeliveryPool::from_shares(&marks, &shares).analysis();
        assert_eq!((a.delivered, a.missed, a.time_to_last.count), (1, 1, 0));
        assert!((a.fanout_seconds - 0.005).abs() < 1e-6, "{a:?}");
    }

    #[test]
    fn disjoint_windows_add_up() {
        let t = Instant::now();
        let mut w = vec![(t + ms(100), t + ms(110)), (t, t + ms(10))];
        assert_eq!(union_length(&mut w), ms(20));
        assert_eq!(union_length(&mut []), Duration::ZERO);
    }
}
