//! What a screen does with the game clock (docs/game-night.md › The clock,
//! › Time sync): the `clock` object it is sent, the time it shows from it,
//! and its estimate of the server's clock from ping/pong round trips. Pure,
//! so the arithmetic the skew figures rest on is unit-tested.

use std::collections::VecDeque;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::Deserialize;
use serde_json::Value;

/// Ping/pong samples a screen keeps; it uses the one with the shortest round
/// trip among them (docs/game-night.md › Time sync: "the last eight").
pub const SAMPLES_KEPT: usize = 8;

/// The clock object of a game snapshot or update. Only what the time shown
/// depends on is typed.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GameClock {
    pub running: bool,
    /// Time left at the server instant `at`.
    pub remaining_ms: f64,
    /// A server instant, epoch ms.
    pub at: f64,
}

impl GameClock {
    /// The `clock` of a snapshot's or update's `data`; `None` when it has
    /// none (an update carries only what moved) or it does not parse.
    pub fn of(data: &Value) -> Option<Self> {
        serde_json::from_value(data.get("clock")?.clone()).ok()
    }

    /// Time left (ms) at the server instant `server_now` (epoch ms): while
    /// running `max(0, remainingMs − (serverNow − at))`, stopped `remainingMs`.
    pub fn left_at(&self, server_now: f64) -> f64 {
        if self.running { (self.remaining_ms - (server_now - self.at)).max(0.0) } else { self.remaining_ms }
    }
}

/// This machine's wall clock in epoch ms (a screen's `Date.now()`).
pub fn epoch_ms() -> f64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs_f64() * 1000.0).unwrap_or_default()
}

/// One ping's round trip: when it left and when its pong came back (local
/// epoch ms), and the server's `now` in the pong.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PingSample {
    pub sent: f64,
    pub received: f64,
    pub server_now: f64,
}

impl PingSample {
    pub fn round_trip(&self) -> f64 {
        self.received - self.sent
    }

    /// `now − (sent + received) / 2`: right when the way there took as long
    /// as the way back; off by half the difference otherwise.
    pub fn offset(&self) -> f64 {
        self.server_now - (self.sent + self.received) / 2.0
    }
}

/// A screen's estimate of `serverNow − Date.now()`.
#[derive(Debug, Clone, Default)]
pub struct OffsetEstimator {
    /// The last [`SAMPLES_KEPT`], oldest first.
    samples: VecDeque<PingSample>,
}

impl OffsetEstimator {
    pub fn add(&mut self, sample: PingSample) {
        if self.samples.len() == SAMPLES_KEPT {
            self.samples.pop_front();
        }
        self.samples.push_back(sample);
    }

    /// The kept sample with the least delay; on a tie the newer one.
    pub fn best(&self) -> Option<&PingSample> {
        self.samples.iter().rev().min_by(|a, b| a.round_trip().total_cmp(&b.round_trip()))
    }

    /// The offset of [`OffsetEstimator::best`]; `None` before the first pong.
    pub fn offset(&self) -> Option<f64> {
        self.best().map(PingSample::offset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sample(sent: f64, received: f64, server_now: f64) -> PingSample {
        PingSample { sent, received, server_now }
    }

    #[test]
    fn a_running_clock_counts_down_from_its_instant_and_stops_at_zero() {
        let c = GameClock { running: true, remaining_ms: 10_000.0, at: 1_000.0 };
        assert_eq!(c.left_at(1_000.0), 10_000.0);
        assert_eq!(c.left_at(4_500.0), 6_500.0);
        assert_eq!(c.left_at(99_000.0), 0.0);
        let stopped = GameClock { running: false, ..c };
        assert_eq!(stopped.left_at(99_000.0), 10_000.0);
    }

    #[test]
    fn the_clock_is_read_from_a_documents_data_when_it_is_there() {
        let data = json!({"since":41,"version":42,"clock":{"phase":"PLAY","running":true,
            "remainingMs":734120,"at":1764424800123u64,"periodMs":1200000,"offsetMs":1200000}});
        let c = GameClock::of(&data).unwrap();
        assert!(c.running);
        assert_eq!((c.remaining_ms, c.at), (734_120.0, 1_764_424_800_123.0));
        assert_eq!(GameClock::of(&json!({"since":41,"homeScore":3})), None);
        assert_eq!(GameClock::of(&json!({"clock":{"running":"yes"}})), None);
    }

    #[test]
    fn the_offset_is_the_servers_now_against_the_middle_of_the_round_trip() {
        // Server 500 ms ahead, 10 ms each way.
        let s = sample(1_000.0, 1_020.0, 1_510.0);
        assert_eq!(s.round_trip(), 20.0);
        assert_eq!(s.offset(), 500.0);
        // 2 ms there, 18 back: the estimate is off by half the difference.
        assert_eq!(sample(1_000.0, 1_020.0, 1_502.0).offset(), 492.0);
    }

    #[test]
    fn the_sample_with_the_shortest_round_trip_of_the_last_eight_wins() {
        let mut e = OffsetEstimator::default();
        assert_eq!(e.offset(), None);
        e.add(sample(0.0, 2.0, 101.0)); // rtt 2, offset 100
        for i in 0..7 {
            let t = 100.0 * f64::from(i + 1);
            e.add(sample(t, t + 40.0, t + 20.0 + 130.0)); // rtt 40, offset 130
        }
        assert_eq!(e.offset(), Some(100.0));
        // A ninth sample pushes the best one out.
        e.add(sample(900.0, 930.0, 915.0 + 120.0)); // rtt 30, offset 120
        assert_eq!(e.best().map(PingSample::round_trip), Some(30.0));
        assert_eq!(e.offset(), Some(120.0));
    }

    #[test]
    fn on_equal_round_trips_the_newer_sample_counts() {
        let mut e = OffsetEstimator::default();
        e.add(sample(0.0, 10.0, 105.0));
        e.add(sample(50.0, 60.0, 160.0));
        assert_eq!(e.offset(), Some(105.0));
    }
}
