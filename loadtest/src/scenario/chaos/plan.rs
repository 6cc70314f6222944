//! The chaos of a run and the dice behind the load: when to kill which
//! node and bring it back, when to drop the Redis connections
//! ([`chaos_plan`]), a deterministic generator ([`Dice`]), and the doubling
//! backoff the clients retry and reconnect with.

use std::time::Duration;

use tokio::sync::watch;

/// A disruption, at an offset from the start of the load.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Kill(usize),
    Restart(usize),
    DropRedis,
}

/// When to kill which node (round-robin), when to bring it back, and when
/// to drop the Redis connections, within `seconds` of load. Nothing is
/// scheduled in the last `down` seconds, so the load ends with every node
/// up and a quiet moment behind the last disruption.
pub fn chaos_plan(seconds: f64, nodes: usize, kill_every: f64, down: f64, drop_every: f64) -> Vec<(Duration, Action)> {
    let mut plan = Vec::new();
    let end = seconds - down.max(1.0);
    if nodes > 0 && kill_every > 0.0 {
        let mut k = 0;
        let mut t = kill_every;
        while t + down < end {
            plan.push((Duration::from_secs_f64(t), Action::Kill(k % nodes)));
            plan.push((Duration::from_secs_f64(t + down), Action::Restart(k % nodes)));
            k += 1;
            t += kill_every;
        }
    }
    if drop_every > 0.0 {
        let mut t = drop_every / 2.0;
        while t < end {
            plan.push((Duration::from_secs_f64(t), Action::DropRedis));
            t += drop_every;
        }
    }
    plan.sort_by_key(|(at, _)| *at);
    plan
}

/// A small deterministic generator (xorshift), so a run's choices depend
/// only on the user's index.
#[derive(Debug, Clone)]
pub struct Dice(u64);

impl Dice {
    pub fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// 0..n (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % u64::try_from(n.max(1)).unwrap_or(1)).unwrap_or(0)
    }

    /// `d` scaled by a factor in [0.5, 1.5).
    pub fn jitter(&mut self, d: Duration) -> Duration {
        let f = 0.5 + (self.next() % 1000) as f64 / 1000.0;
        d.mul_f64(f)
    }
}

/// Resolves once `stop` is true (or its sender is gone), holding no borrow
/// of the channel across an await.
pub async fn stopped(stop: &mut watch::Receiver<bool>) {
    let _ = stop.wait_for(|s| *s).await;
}

/// Backoff before attempt `attempt` (0-based): doubling, capped.
pub fn backoff(attempt: u32, first: Duration, cap: Duration) -> Duration {
    first.saturating_mul(1u32 << attempt.min(16)).min(cap)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plan_kills_round_robin_restarts_after_the_downtime_and_ends_quiet() {
        let plan = chaos_plan(60.0, 3, 15.0, 3.0, 10.0);
        let kills: Vec<_> = plan.iter().filter(|(_, a)| matches!(a, Action::Kill(_))).collect();
        assert_eq!(
            kills.iter().map(|(t, a)| (t.as_secs(), *a)).collect::<Vec<_>>(),
            vec![(15, Action::Kill(0)), (30, Action::Kill(1)), (45, Action::Kill(2)),]
        );
        assert!(plan.contains(&(Duration::from_secs(18), Action::Restart(0))));
        let drops: Vec<u64> = plan.iter().filter(|(_, a)| *a == Action::DropRedis).map(|(t, _)| t.as_secs()).collect();
        assert_eq!(drops, vec![5, 15, 25, 35, 45, 55]);
        assert!(plan.windows(2).all(|w| w[0].0 <= w[1].0), "in time order");
        // Every kill has its restart before the end.
        for (t, a) in &plan {
            if let Action::Kill(i) = a {
                assert!(plan.iter().any(|(r, b)| *b == Action::Restart(*i) && r > t && r.as_secs_f64() <= 57.0));
            }
        }
    }

    #[test]
    fn no_kills_or_drops_when_switched_off() {
        assert!(chaos_plan(60.0, 3, 0.0, 3.0, 0.0).is_empty());
        assert!(chaos_plan(5.0, 3, 15.0, 3.0, 0.0).is_empty(), "too short for a kill and its restart");
    }

    #[test]
    fn backoff_doubles_to_its_cap() {
        let f = Duration::from_millis(100);
        let cap = Duration::from_secs(2);
        let seq: Vec<u128> = (0..7).map(|a| backoff(a, f, cap).as_millis()).collect();
        assert_eq!(seq, vec![100, 200, 400, 800, 1600, 2000, 2000]);
        assert_eq!(backoff(u32::MAX, f, cap), cap);
    }

    #[test]
    fn dice_are_deterministic_and_in_range() {
        let (mut a, mut b) = (Dice::new(7), Dice::new(7));
        let xs: Vec<usize> = (0..100).map(|_| a.below(4)).collect();
        let ys: Vec<usize> = (0..100).map(|_| b.below(4)).collect();
        assert_eq!(xs, ys);
        assert!(xs.iter().all(|x| *x < 4));
        assert!((0..4).all(|v| xs.contains(&v)), "every value comes up");
        let d = Duration::from_millis(100);
        for _ in 0..100 {
            let j = a.jitter(d);
            assert!(j >= d / 2 && j < d * 3 / 2, "{j:?}");
        }
    }
}
