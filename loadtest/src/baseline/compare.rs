//! The comparison ([`compare`]): each server's rounds pooled ([`Side`]),
//! and the ratios Rinkside / floor ([`Ratios`]), with the table of the
//! human report.

use serde::Serialize;

use super::{FrameStats, Round, Server};
use crate::deliveries::{DeliveryAnalysis, DeliveryPool};
use crate::scenario::Memory;
use crate::stats::{Recorder, Summary};

/// Server CPU microseconds per delivery: the round's CPU time over the
/// (subscriber, change) pairs delivered, the request that made each change
/// included.
fn cpu_us_per_delivery(cpu_seconds: f64, delivered: u64) -> Option<f64> {
    ratio(cpu_seconds * 1e6, delivered as f64)
}

/// A round in the report.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RoundSummary {
    pub server: Server,
    pub round: usize,
    pub url: String,
    pub passed: bool,
    pub deliveries: DeliveryAnalysis,
    /// Round trip of the requests that made the changes.
    pub request_round_trip: Summary,
    /// The update frames the probe received.
    pub update_frames: FrameStats,
    pub snapshot_bytes: usize,
    pub memory: Option<Memory>,
    pub cpu_us_per_delivery: Option<f64>,
}

/// One server over all its rounds.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Side {
    pub rounds: usize,
    /// Latencies pooled over the rounds; deliveries per second over their
    /// summed fan-out time.
    pub deliveries: DeliveryAnalysis,
    pub request_round_trip: Summary,
    pub update_frames: FrameStats,
    /// From the rounds that measured it (with `--server-pid`, the first
    /// round of each server: in a later round the process reuses memory the
    /// allocator kept from the one before, and the RSS difference
    /// understates).
    pub bytes_per_connection: Option<f64>,
    /// Over the rounds that measured it: their CPU time over their deliveries.
    pub cpu_us_per_delivery: Option<f64>,
}

/// Rinkside / floor. For times lower is better (1.0: as fast as the floor);
/// for deliveries per second higher is better. `None` when the floor's side
/// has nothing to divide by.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Ratios {
    pub time_to_last_p50: Option<f64>,
    pub time_to_last_p99: Option<f64>,
    pub per_delivery_p50: Option<f64>,
    pub per_delivery_p99: Option<f64>,
    pub deliveries_per_sec: Option<f64>,
    pub bytes_per_connection: Option<f64>,
    /// Lower is better.
    pub cpu_per_delivery: Option<f64>,
}

/// The `baseline` object of a report.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Comparison {
    pub floor_url: String,
    pub floor_pid: u32,
    /// In the order they ran.
    pub rounds: Vec<RoundSummary>,
    pub rinkside: Side,
    pub floor: Side,
    pub ratios: Ratios,
}

/// `a / b`, when both are finite and `b` is positive.
pub fn ratio(a: f64, b: f64) -> Option<f64> {
    (a.is_finite() && b.is_finite() && b > 0.0).then(|| a / b)
}

fn side(rounds: &[Round], server: Server) -> Side {
    let mine: Vec<&Round> = rounds.iter().filter(|r| r.server == server).collect();
    let mut pool = DeliveryPool::default();
    let mut requests = Recorder::new();
    for r in &mine {
        pool.merge(&r.pool);
        requests.merge(&r.requests);
    }
    let memory: Vec<f64> = mine.iter().filter_map(|r| r.memory.as_ref().map(|m| m.bytes_per_connection)).collect();
    let timed: Vec<(f64, u64)> =
        mine.iter().filter_map(|r| r.cpu_seconds.map(|cpu| (cpu, r.pool.analysis().delivered))).collect();
    Side {
        rounds: mine.len(),
        deliveries: pool.analysis(),
        request_round_trip: requests.summary(),
        update_frames: FrameStats::of(mine.iter().flat_map(|r| r.captured.updates.iter().map(String::len))),
        bytes_per_connection: (!memory.is_empty()).then(|| memory.iter().sum::<f64>() / memory.len() as f64),
        cpu_us_per_delivery: (!timed.is_empty())
            .then(|| cpu_us_per_delivery(timed.iter().map(|t| t.0).sum(), timed.iter().map(|t| t.1).sum()))
            .flatten(),
    }
}

pub fn ratios(rinkside: &Side, floor: &Side) -> Ratios {
    let (r, f) = (&rinkside.deliveries, &floor.deliveries);
    Ratios {
        time_to_last_p50: ratio(r.time_to_last.p50_ms, f.time_to_last.p50_ms),
        time_to_last_p99: ratio(r.time_to_last.p99_ms, f.time_to_last.p99_ms),
        per_delivery_p50: ratio(r.per_delivery.p50_ms, f.per_delivery.p50_ms),
        per_delivery_p99: ratio(r.per_delivery.p99_ms, f.per_delivery.p99_ms),
        deliveries_per_sec: ratio(r.deliveries_per_sec, f.deliveries_per_sec),
        bytes_per_connection: both(rinkside.bytes_per_connection, floor.bytes_per_connection),
        cpu_per_delivery: both(rinkside.cpu_us_per_delivery, floor.cpu_us_per_delivery),
    }
}

fn both(rinkside: Option<f64>, floor: Option<f64>) -> Option<f64> {
    ratio(rinkside?, floor?)
}

/// Pools each server's rounds and divides.
pub fn compare(floor_url: &str, floor_pid: u32, rounds: &[Round]) -> Comparison {
    let rinkside = side(rounds, Server::Rinkside);
    let floor = side(rounds, Server::Floor);
    Comparison {
        floor_url: floor_url.to_owned(),
        floor_pid,
        rounds: rounds
            .iter()
            .map(|r| RoundSummary {
                server: r.server,
                round: r.round,
                url: r.url.clone(),
                passed: r.passed,
                cpu_us_per_delivery: r
                    .cpu_seconds
                    .and_then(|cpu| cpu_us_per_delivery(cpu, r.pool.analysis().delivered)),
                deliveries: r.pool.analysis(),
                request_round_trip: r.requests.summary(),
                update_frames: FrameStats::of(r.captured.updates.iter().map(String::len)),
                snapshot_bytes: r.captured.snapshot.len(),
                memory: r.memory.clone(),
            })
            .collect(),
        ratios: ratios(&rinkside, &floor),
        rinkside,
        floor,
    }
}

fn times(d: &DeliveryAnalysis) -> String {
    if d.time_to_last.count == 0 {
        return format!("{:>21}", "no complete change");
    }
    format!("{:>8.1} / {:>8.1} ms", d.time_to_last.p50_ms, d.time_to_last.p99_ms)
}

fn kib(bytes: Option<f64>) -> String {
    bytes.map_or_else(|| "-".to_owned(), |b| format!("{:.1} KiB", b / 1024.0))
}

fn micros(us: Option<f64>) -> String {
    us.map_or_else(|| "-".to_owned(), |us| format!("{us:.1} µs"))
}

/// A ratio as `1.23×` (`n/a` without one).
pub fn times_x(r: Option<f64>) -> String {
    r.map_or_else(|| "n/a".to_owned(), |r| format!("{r:.2}×"))
}

impl Comparison {
    pub fn human(&self) -> String {
        let order: Vec<String> = self.rounds.iter().map(|r| r.server.to_string()).collect();
        let mut s = format!(
            "  baseline      {} rounds each against the floor ({}, pid {}), in this order: {}\n",
            self.rinkside.rounds.max(self.floor.rounds),
            self.floor_url,
            self.floor_pid,
            order.join(", "),
        );
        s.push_str(
            "    round server     time to last p50 / p99   per delivery p50   request p50   deliveries/s   CPU/delivery   update frame   memory/conn\n",
        );
        let line = |label: &str,
                    server: Server,
                    d: &DeliveryAnalysis,
                    request: &Summary,
                    cpu: Option<f64>,
                    frames: &FrameStats,
                    memory: Option<f64>| {
            format!(
                "    {label:<5} {server:<9} {}   {:>13.1} ms   {:>8.1} ms   {:>12.0}   {:>12}   {:>10.0} B   {:>11}\n",
                times(d),
                d.per_delivery.p50_ms,
                request.p50_ms,
                d.deliveries_per_sec,
                micros(cpu),
                frames.mean_bytes,
                kib(memory),
            )
        };
        for r in &self.rounds {
            s.push_str(&line(
                &r.round.to_string(),
                r.server,
                &r.deliveries,
                &r.request_round_trip,
                r.cpu_us_per_delivery,
                &r.update_frames,
                r.memory.as_ref().map(|m| m.bytes_per_connection),
            ));
        }
        for (server, side) in [(Server::Rinkside, &self.rinkside), (Server::Floor, &self.floor)] {
            s.push_str(&line(
                "all",
                server,
                &side.deliveries,
                &side.request_round_trip,
                side.cpu_us_per_delivery,
                &side.update_frames,
                side.bytes_per_connection,
            ));
        }
        let r = &self.ratios;
        s.push_str(&format!(
            "  ratio         Rinkside / floor: time to last p50 {}, p99 {} (lower is better; 1.00× = as fast as the floor); \
             deliveries/s {} (higher is better)",
            times_x(r.time_to_last_p50),
            times_x(r.time_to_last_p99),
            times_x(r.deliveries_per_sec),
        ));
        if r.cpu_per_delivery.is_some() {
            s.push_str(&format!("; server CPU per delivery {}", times_x(r.cpu_per_delivery)));
        }
        if r.bytes_per_connection.is_some() {
            s.push_str(&format!("; memory per connection {}", times_x(r.bytes_per_connection)));
        }
        s.push('\n');
        let failed: Vec<String> =
            self.rounds.iter().filter(|r| !r.passed).map(|r| format!("{} round {}", r.server, r.round)).collect();
        if !failed.is_empty() {
            s.push_str(&format!("  ! rounds that failed their checks: {}\n", failed.join(", ")));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::baseline::Captured;
    use crate::deliveries::{Collector, Mark};
    use std::time::{Duration, Instant};

    #[test]
    fn ratios_divide_rinkside_by_the_floor_and_refuse_zero() {
        assert_eq!(ratio(191.0, 110.0).map(|r| (r * 100.0).round()), Some(174.0));
        assert_eq!(ratio(1.0, 0.0), None);
        assert_eq!(ratio(f64::NAN, 1.0), None);
    }

    /// A round whose `n` subscribers each get seq 1 `ms` after it was sent.
    fn round(server: Server, round: usize, n: usize, ms: u64, frame: usize, memory: Option<f64>) -> Round {
        let t0 = Instant::now();
        let mut c = Collector::new(n);
        for i in 0..n {
            c.subscribed(i, 0);
            c.update(i, 1, t0 + Duration::from_millis(ms));
        }
        let mut pool = DeliveryPool::default();
        pool.add(&[Mark { seq: 1, sent_at: t0 }], &c);
        Round {
            server,
            round,
            url: format!("http://{server}"),
            passed: true,
            pool,
            requests: Recorder::new(),
            captured: Captured { snapshot: "{}".into(), updates: vec!["x".repeat(frame)] },
            memory: memory.map(|b| Memory { pid: 1, rss_before_bytes: 0, rss_after_bytes: 0, bytes_per_connection: b }),
            cpu_seconds: None,
        }
    }

    #[test]
    fn each_server_is_pooled_over_its_rounds_and_divided() {
        let rounds = [
            round(Server::Rinkside, 1, 10, 200, 600, Some(20_480.0)),
            round(Server::Floor, 1, 10, 100, 600, Some(10_240.0)),
            round(Server::Rinkside, 2, 10, 300, 600, None),
            round(Server::Floor, 2, 10, 100, 600, Some(12_288.0)),
        ];
        let c = compare("http://127.0.0.1:1", 7, &rounds);
        assert_eq!(c.rounds.len(), 4);
        assert_eq!((c.rinkside.rounds, c.floor.rounds), (2, 2));
        assert_eq!(c.rinkside.deliveries.delivered, 20);
        assert_eq!(c.rinkside.update_frames.mean_bytes, 600.0);
        // Rinkside took 200 and 300 ms, the floor 100 and 100.
        let r = c.ratios;
        assert!((r.time_to_last_p99.unwrap() - 3.0).abs() < 0.01, "{r:?}");
        // 20 deliveries in 0.5 s against 20 in 0.2 s.
        assert!((r.deliveries_per_sec.unwrap() - 0.4).abs() < 1e-6, "{r:?}");
        // Memory: Rinkside measured once (20 KiB), the floor 10 and 12 KiB.
        assert_eq!(c.rinkside.bytes_per_connection, Some(20_480.0));
        assert!((r.bytes_per_connection.unwrap() - 20_480.0 / 11_264.0).abs() < 1e-9, "{r:?}");
        let human = c.human();
        assert!(human.contains("rinkside, floor, rinkside, floor"), "{human}");
        assert!(human.contains("deliveries/s 0.40×"), "{human}");
        let json = serde_json::to_value(&c).unwrap();
        assert_eq!(json["rounds"][1]["server"], "floor");
        assert!(json["ratios"]["timeToLastP50"].is_number());
        assert_eq!(r.cpu_per_delivery, None);
    }

    #[test]
    fn cpu_per_delivery_pools_the_rounds_that_timed_it() {
        let timed = |server, n, cpu| Round { cpu_seconds: cpu, ..round(server, 1, n, 100, 10, None) };
        let rounds = [
            timed(Server::Rinkside, 10, Some(0.000_03)),
            timed(Server::Rinkside, 30, Some(0.000_05)),
            timed(Server::Floor, 10, None),
            timed(Server::Floor, 20, Some(0.000_04)),
        ];
        let c = compare("http://x", 1, &rounds);
        // 80 µs over 40 deliveries against 40 µs over 20 (the untimed round left out).
        assert!((c.rinkside.cpu_us_per_delivery.unwrap() - 2.0).abs() < 1e-9, "{:?}", c.rinkside);
        assert!((c.floor.cpu_us_per_delivery.unwrap() - 2.0).abs() < 1e-9, "{:?}", c.floor);
        assert!((c.ratios.cpu_per_delivery.unwrap() - 1.0).abs() < 1e-9);
        assert!((c.rounds[0].cpu_us_per_delivery.unwrap() - 3.0).abs() < 1e-9);
        assert_eq!(c.rounds[2].cpu_us_per_delivery, None);
        assert!(c.human().contains("server CPU per delivery 1.00×"), "{}", c.human());
    }

    #[test]
    fn a_floor_without_samples_gives_no_ratio() {
        let rounds = [round(Server::Rinkside, 1, 2, 100, 10, None)];
        let c = compare("http://x", 1, &rounds);
        assert_eq!(c.ratios, Ratios::default());
        assert!(c.human().contains("time to last p50 n/a"));
    }
}
