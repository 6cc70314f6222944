//! Clock skew between displays: what each display would show at an instant
//! (its last clock message read with its estimate of the server's clock,
//! docs/game-night.md › The clock) and how far apart the displays are.
//!
//! Every display keeps a [`DisplayLog`] in local epoch ms; the skew is
//! worked out afterwards at sampled instants, so sampling costs the
//! displays nothing while they run. Only instants at which every display
//! holds the same running clock message count: then the displays differ by
//! their offsets alone. A stopped clock shows `remainingMs` everywhere, and
//! instants while a change is still on its way are the stop-to-stopped
//! figure's business.

use serde::Serialize;

use crate::game_clock::GameClock;
use crate::stats::{Recorder, Summary};

/// What one display knew over the run, in local epoch ms.
#[derive(Debug, Clone, Default)]
pub struct DisplayLog {
    /// `(from, offset)`: the server-clock offset in use from `from` on; in
    /// time order.
    pub offsets: Vec<(f64, f64)>,
    /// `(received, seq, clock)`: every clock message, in order of receipt.
    pub clocks: Vec<(f64, u64, GameClock)>,
}

/// The clock as a display shows it at an instant.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shown {
    /// The seq of the frame the clock came in.
    pub seq: u64,
    pub running: bool,
    pub left_ms: f64,
}

/// The entry in force at `t`: the last one at or before it.
fn last_at<T>(entries: &[T], t: f64, time: impl Fn(&T) -> f64) -> Option<&T> {
    let i = entries.partition_point(|e| time(e) <= t);
    i.checked_sub(1).and_then(|i| entries.get(i))
}

impl DisplayLog {
    /// What the display shows at local instant `t`; `None` before it had
    /// both an offset and a clock.
    pub fn shown_at(&self, t: f64) -> Option<Shown> {
        let &(_, offset) = last_at(&self.offsets, t, |o| o.0)?;
        let &(_, seq, clock) = last_at(&self.clocks, t, |c| c.0)?;
        Some(Shown { seq, running: clock.running, left_ms: clock.left_at(t + offset) })
    }
}

/// The skew of a group of displays over a run.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Skew {
    /// Instants at which every display held the same running clock.
    pub instants: usize,
    /// Sampled instants left out: a change on its way, the clock stopped,
    /// or no display showing anything.
    pub instants_skipped: usize,
    /// Displays judged (at most; one without a clock yet is left out).
    pub displays: usize,
    /// Per instant, the largest minus the smallest time shown.
    pub spread_p50_ms: f64,
    pub spread_max_ms: f64,
    /// Per display and instant, how far its time is from the median of all.
    pub deviation: Summary,
}

impl std::fmt::Display for Skew {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.instants == 0 {
            return write!(f, "no instant with one running clock everywhere ({} skipped)", self.instants_skipped);
        }
        write!(
            f,
            "spread p50 {:.1} ms, max {:.1} ms; from the median p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms ({} displays, {} instants)",
            self.spread_p50_ms,
            self.spread_max_ms,
            self.deviation.p50_ms,
            self.deviation.p99_ms,
            self.deviation.max_ms,
            self.displays,
            self.instants,
        )
    }
}

/// The skew of the displays `focus` (indices into `all`) at `instants`: the
/// spread among them and each one's distance from the median of `all`. An
/// instant counts when every display of `all` that shows anything shows the
/// same running clock message.
pub fn skew(all: &[&DisplayLog], focus: &[usize], instants: &[f64]) -> Skew {
    let mut spreads = Vec::new();
    let mut deviation = Recorder::new();
    let mut skipped = 0;
    let mut displays = 0;
    let mut shown: Vec<Option<Shown>> = Vec::with_capacity(all.len());
    let mut lefts: Vec<f64> = Vec::with_capacity(all.len());
    for &t in instants {
        shown.clear();
        shown.extend(all.iter().map(|log| log.shown_at(t)));
        let mut present = shown.iter().flatten();
        let Some(first) = present.next() else {
            skipped += 1;
            continue;
        };
        if !first.running || present.any(|s| s.seq != first.seq || !s.running) {
            skipped += 1;
            continue;
        }
        lefts.clear();
        lefts.extend(shown.iter().flatten().map(|s| s.left_ms));
        lefts.sort_by(f64::total_cmp);
        let median = median_of_sorted(&lefts);
        let mine: Vec<f64> = focus.iter().filter_map(|&i| shown.get(i).copied().flatten()).map(|s| s.left_ms).collect();
        let (Some(lo), Some(hi)) =
            (mine.iter().copied().min_by(f64::total_cmp), mine.iter().copied().max_by(f64::total_cmp))
        else {
            skipped += 1;
            continue;
        };
        spreads.push(hi - lo);
        displays = displays.max(mine.len());
        for left in mine {
            deviation.record(std::time::Duration::from_secs_f64((left - median).abs() / 1000.0));
        }
    }
    spreads.sort_by(f64::total_cmp);
    Skew {
        instants: spreads.len(),
        instants_skipped: skipped,
        displays,
        spread_p50_ms: if spreads.is_empty() { 0.0 } else { median_of_sorted(&spreads) },
        spread_max_ms: spreads.last().copied().unwrap_or(0.0),
        deviation: deviation.summary(),
    }
}

fn median_of_sorted(values: &[f64]) -> f64 {
    match values.len() {
        0 => 0.0,
        n if n % 2 == 1 => values[n / 2],
        n => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}

/// Evenly spaced instants from `from` to `to` (both local epoch ms), every
/// `every` ms.
pub fn instants(from: f64, to: f64, every: f64) -> Vec<f64> {
    if every.is_nan() || every <= 0.0 || to < from {
        return Vec::new();
    }
    let n = ((to - from) / every).floor() as usize;
    (0..=n).map(|i| from + every * i as f64).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn running(remaining_ms: f64, at: f64) -> GameClock {
        GameClock { running: true, remaining_ms, at }
    }

    /// A display with offset `offset` from t = 0 that got a running clock
    /// (seq 5, 60 s left at server instant 1,000) at t = 100.
    fn display(offset: f64) -> DisplayLog {
        DisplayLog { offsets: vec![(0.0, offset)], clocks: vec![(100.0, 5, running(60_000.0, 1_000.0))] }
    }

    #[test]
    fn a_display_shows_its_last_clock_at_its_estimate_of_server_time() {
        let mut d = display(1_000.0);
        assert_eq!(d.shown_at(50.0), None, "no clock yet");
        // t = 500 local → server 1,500 → 500 ms after `at`.
        assert_eq!(d.shown_at(500.0), Some(Shown { seq: 5, running: true, left_ms: 59_500.0 }));
        d.clocks.push((600.0, 6, GameClock { running: false, remaining_ms: 59_400.0, at: 1_600.0 }));
        d.offsets.push((700.0, 1_010.0));
        assert_eq!(d.shown_at(650.0).map(|s| (s.seq, s.running, s.left_ms)), Some((6, false, 59_400.0)));
        assert_eq!(DisplayLog::default().shown_at(1.0), None);
        let no_offset = DisplayLog { offsets: vec![], ..display(0.0) };
        assert_eq!(no_offset.shown_at(500.0), None);
    }

    #[test]
    fn displays_differ_by_their_offsets_while_the_clock_runs() {
        let logs = [display(1_000.0), display(1_004.0), display(990.0), display(1_001.0)];
        let all: Vec<&DisplayLog> = logs.iter().collect();
        let s = skew(&all, &[0, 1, 2, 3], &[200.0, 300.0]);
        assert_eq!((s.instants, s.instants_skipped, s.displays), (2, 0, 4));
        // Shown: −1,000, −1,004, −990, −1,001 around the same value: 14 ms apart.
        assert!((s.spread_max_ms - 14.0).abs() < 1e-9, "{s:?}");
        assert!((s.spread_p50_ms - 14.0).abs() < 1e-9, "{s:?}");
        // Median of the four is between −1,000 and −1,001; the 990 one is 10.5 off.
        assert!((s.deviation.max_ms - 10.5).abs() < 0.05, "{s:?}");
        assert_eq!(s.deviation.count, 8);
    }

    #[test]
    fn instants_with_a_change_on_its_way_or_a_stopped_clock_are_skipped() {
        let mut late = display(1_000.0);
        late.clocks.push((400.0, 6, running(59_000.0, 1_300.0)));
        let stopped = DisplayLog {
            offsets: vec![(0.0, 0.0)],
            clocks: vec![(100.0, 5, GameClock { running: false, remaining_ms: 60_000.0, at: 1_000.0 })],
        };
        let logs = [display(1_000.0), late];
        let all: Vec<&DisplayLog> = logs.iter().collect();
        // Before 400 both hold seq 5; after, they differ.
        let s = skew(&all, &[0, 1], &[200.0, 500.0]);
        assert_eq!((s.instants, s.instants_skipped), (1, 1));
        let s = skew(&[&stopped], &[0], &[200.0]);
        assert_eq!((s.instants, s.instants_skipped), (0, 1));
        assert!(s.to_string().starts_with("no instant"));
        // Nothing shown yet.
        assert_eq!(skew(&all, &[0, 1], &[10.0]).instants_skipped, 1);
    }

    #[test]
    fn a_focus_group_is_judged_against_everybodys_median() {
        let logs = [display(1_000.0), display(1_000.0), display(1_000.0), display(1_030.0)];
        let all: Vec<&DisplayLog> = logs.iter().collect();
        let s = skew(&all, &[3], &[200.0]);
        assert_eq!(s.displays, 1);
        assert_eq!(s.spread_max_ms, 0.0, "one display has no spread of its own");
        assert!((s.deviation.max_ms - 30.0).abs() < 0.05, "{s:?}");
    }

    #[test]
    fn instants_are_evenly_spaced_and_include_both_ends() {
        assert_eq!(instants(0.0, 300.0, 100.0), vec![0.0, 100.0, 200.0, 300.0]);
        assert_eq!(instants(0.0, 250.0, 100.0), vec![0.0, 100.0, 200.0]);
        assert!(instants(10.0, 0.0, 100.0).is_empty());
        assert!(instants(0.0, 10.0, 0.0).is_empty());
    }
}
