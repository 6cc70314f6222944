//! Latency recording and summaries.
//!
//! Every latency is recorded in microseconds into an HdrHistogram (three
//! significant figures, so a p99 is exact to 0.1 %), and reported in
//! milliseconds. Scenarios only ever see [`Recorder`] and [`Summary`].

use std::time::Duration;

use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};

/// Longest latency the histogram can hold: one hour. Anything longer is
/// clamped (a load test that waits an hour for a message has failed anyway).
const MAX_TRACKABLE_MICROS: u64 = 3_600_000_000;

/// Significant figures kept by the histogram.
const SIGNIFICANT_FIGURES: u8 = 3;

/// Collects latencies; cheap to create, one per measured quantity.
#[derive(Debug, Clone)]
pub struct Recorder {
    histogram: Option<Histogram<u64>>,
}

impl Default for Recorder {
    fn default() -> Self {
        Self::new()
    }
}

impl Recorder {
    pub fn new() -> Self {
        // The bounds are constants that HdrHistogram accepts; should that ever
        // change, we degrade to "no data" rather than panic mid-run.
        let histogram = Histogram::new_with_bounds(1, MAX_TRACKABLE_MICROS, SIGNIFICANT_FIGURES).ok();
        Self { histogram }
    }

    pub fn record(&mut self, latency: Duration) {
        if let Some(h) = self.histogram.as_mut() {
            let micros = u64::try_from(latency.as_micros()).unwrap_or(u64::MAX);
            h.saturating_record(micros.clamp(1, MAX_TRACKABLE_MICROS));
        }
    }

    /// Takes `other`'s samples in (both have the same bounds, so this cannot
    /// fail; if it ever did, the samples are dropped rather than panic).
    pub fn merge(&mut self, other: &Recorder) {
        if let (Some(h), Some(o)) = (self.histogram.as_mut(), other.histogram.as_ref()) {
            let _ = h.add(o);
        }
    }

    /// The samples in HdrHistogram's V2 encoding, to hand to another
    /// process (`scoreboard --processes`); empty without samples.
    pub fn to_bytes(&self) -> Vec<u8> {
        use hdrhistogram::serialization::{Serializer, V2Serializer};
        let mut out = Vec::new();
        if let Some(h) = self.histogram.as_ref().filter(|h| !h.is_empty())
            && V2Serializer::new().serialize(h, &mut out).is_err()
        {
            out.clear();
        }
        out
    }

    /// The samples [`Recorder::to_bytes`] encoded; none when they do not
    /// decode.
    pub fn from_bytes(bytes: &[u8]) -> Self {
        use hdrhistogram::serialization::Deserializer;
        let mut recorder = Self::new();
        if bytes.is_empty() {
            return recorder;
        }
        let decoded: Option<Histogram<u64>> = Deserializer::new().deserialize(&mut std::io::Cursor::new(bytes)).ok();
        if let (Some(h), Some(d)) = (recorder.histogram.as_mut(), decoded) {
            let _ = h.add(&d);
        }
        recorder
    }

    pub fn count(&self) -> u64 {
        self.histogram.as_ref().map_or(0, Histogram::len)
    }

    pub fn summary(&self) -> Summary {
        match self.histogram.as_ref() {
            Some(h) if !h.is_empty() => Summary {
                count: h.len(),
                min_ms: micros_to_ms(h.min()),
                p50_ms: micros_to_ms(h.value_at_quantile(0.50)),
                p90_ms: micros_to_ms(h.value_at_quantile(0.90)),
                p99_ms: micros_to_ms(h.value_at_quantile(0.99)),
                max_ms: micros_to_ms(h.max()),
                mean_ms: h.mean() / 1000.0,
            },
            _ => Summary::default(),
        }
    }
}

fn micros_to_ms(micros: u64) -> f64 {
    // u64 → f64 loses precision only above 2^53 µs (285 years).
    micros as f64 / 1000.0
}

/// A latency distribution as reported (milliseconds).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub count: u64,
    pub min_ms: f64,
    pub p50_ms: f64,
    pub p90_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    pub mean_ms: f64,
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.count == 0 {
            return write!(f, "no samples");
        }
        write!(
            f,
            "p50 {:>9.2} ms   p99 {:>9.2} ms   max {:>9.2} ms   (n={})",
            self.p50_ms, self.p99_ms, self.max_ms, self.count
        )
    }
}

/// Events per second over `span`; zero when the span is empty.
pub fn rate(events: u64, span: Duration) -> f64 {
    let secs = span.as_secs_f64();
    if secs > 0.0 { events as f64 / secs } else { 0.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_recorder_summarises_to_no_samples() {
        let r = Recorder::new();
        assert_eq!(r.summary(), Summary::default());
        assert_eq!(r.summary().to_string(), "no samples");
    }

    #[test]
    fn percentiles_come_out_in_milliseconds() {
        let mut r = Recorder::new();
        for ms in 1..=100u64 {
            r.record(Duration::from_millis(ms));
        }
        let s = r.summary();
        assert_eq!(s.count, 100);
        assert!((s.p50_ms - 50.0).abs() < 0.1, "{s:?}");
        assert!((s.p99_ms - 99.0).abs() < 0.1, "{s:?}");
        assert!((s.max_ms - 100.0).abs() < 0.1, "{s:?}");
        assert!((s.min_ms - 1.0).abs() < 0.01, "{s:?}");
        assert!((s.mean_ms - 50.5).abs() < 0.1, "{s:?}");
    }

    #[test]
    fn sub_microsecond_and_huge_latencies_are_clamped_not_lost() {
        let mut r = Recorder::new();
        r.record(Duration::from_nanos(10));
        r.record(Duration::from_secs(10 * 3600));
        assert_eq!(r.count(), 2);
        let s = r.summary();
        assert!(s.min_ms > 0.0);
        assert!(s.max_ms >= 3_600_000.0 * 0.999);
    }

    #[test]
    fn merged_recorders_summarise_all_samples() {
        let mut a = Recorder::new();
        let mut b = Recorder::new();
        a.record(Duration::from_millis(10));
        b.record(Duration::from_millis(30));
        b.record(Duration::from_millis(20));
        a.merge(&b);
        let s = a.summary();
        assert_eq!(s.count, 3);
        assert!((s.p50_ms - 20.0).abs() < 0.1 && (s.max_ms - 30.0).abs() < 0.1, "{s:?}");
    }

    #[test]
    fn samples_travel_between_processes_as_bytes() {
        let mut r = Recorder::new();
        for ms in [5, 10, 400] {
            r.record(Duration::from_millis(ms));
        }
        let back = Recorder::from_bytes(&r.to_bytes());
        assert_eq!(back.summary(), r.summary());
        assert!(Recorder::new().to_bytes().is_empty());
        assert_eq!(Recorder::from_bytes(&[]).count(), 0);
        assert_eq!(Recorder::from_bytes(b"not a histogram").count(), 0);
    }

    #[test]
    fn rate_over_an_empty_span_is_zero() {
        assert_eq!(rate(10, Duration::ZERO), 0.0);
        assert!((rate(10, Duration::from_millis(500)) - 20.0).abs() < 1e-9);
    }
}
