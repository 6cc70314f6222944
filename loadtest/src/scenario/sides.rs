//! `sides`: the fair-sides split (`rinkside-pickup`'s `sides`) measured in
//! process, no server: how long `make` takes on random pickup nights in the
//! exhaustive range, and how close the heuristic beyond it gets — against
//! the exhaustive search itself at 30 skaters, against a lower bound at 40:
//! the exhaustive optimum of the same night without its history. Keys 1–5
//! do not depend on the history, so that bound is exact on them (and
//! cheap: with no history, players of one role and level are one node of
//! the search); on repeats it is 0.
//!
//! The nights: the given goalies, skaters one in three defence, levels 1–8
//! with one in six unknown, and a share of the pairs with 1–4 weeks
//! together (a series' last four weeks).

use std::time::Instant;

use anyhow::Result;
use rinkside_pickup::sides::{self, Player, Problem, Role, Score};
use serde::Serialize;
use tracing::info;

use super::Outcome;
use crate::cli::SidesArgs;
use crate::stats::{Recorder, Summary};

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Report {
    goalies: usize,
    together_share: f64,
    seed: u64,
    /// `make` per skater count.
    timings: Vec<Timing>,
    gap: Gap,
    bound: Bound,
    /// Nights whose keys 1–3 (goalies, sizes, positions) were not optimal,
    /// or where the heuristic beat the exhaustive optimum or the bound: all
    /// would be bugs.
    violations: usize,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Timing {
    skaters: usize,
    exact: bool,
    make: Summary,
}

/// The heuristic against the exhaustive optimum.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Gap {
    skaters: usize,
    nights: usize,
    /// Nights where the heuristic's score equals the optimum.
    optimal: usize,
    /// Mean (heuristic − optimum) per key, in the objective's order.
    mean_gap: Keys,
    /// Of the misses, how many were first worse on each key.
    first_worse: Keys,
    heuristic: Summary,
    exhaustive: Summary,
}

/// The heuristic against a lower bound: the exhaustive optimum of the night
/// without history, exact on keys 1–5, 0 on repeats.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Bound {
    skaters: usize,
    nights: usize,
    /// Nights with keys 1–4 (through strength) at the optimum.
    strength_at_bound: usize,
    /// … and spread too.
    spread_at_bound: usize,
    mean_gap: Keys,
    /// The heuristic's mean repeats (no useful bound).
    mean_repeats: f64,
    heuristic: Summary,
}

#[derive(Debug, Default, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
struct Keys {
    goalies: f64,
    sizes: f64,
    positions: f64,
    strength: f64,
    spread: f64,
    repeats: f64,
}

impl Keys {
    fn of(s: Score) -> [f64; 6] {
        [s.goalies, s.sizes, s.positions, s.strength, s.spread, s.repeats].map(f64::from)
    }

    fn from(v: [f64; 6]) -> Keys {
        let [goalies, sizes, positions, strength, spread, repeats] = v;
        Keys { goalies, sizes, positions, strength, spread, repeats }
    }

    fn human(&self) -> String {
        format!(
            "goalies {:.2}  sizes {:.2}  positions {:.2}  strength {:.2}  spread {:.2}  repeats {:.2}",
            self.goalies, self.sizes, self.positions, self.strength, self.spread, self.repeats
        )
    }
}

pub async fn run(args: SidesArgs) -> Result<Outcome> {
    // Pure CPU work: off the runtime's workers.
    tokio::task::spawn_blocking(move || measure(&args)).await?
}

fn measure(args: &SidesArgs) -> Result<Outcome> {
    let mut rng = SplitMix(args.seed);
    let mut violations = 0;
    let timings = time_make(args, &mut rng, &mut violations);
    let gap = gap(args, &mut rng, &mut violations)?;
    let bound = bound(args, &mut rng, &mut violations)?;
    let report = Report {
        goalies: args.goalies,
        together_share: args.together,
        seed: args.seed,
        timings,
        gap,
        bound,
        violations,
    };
    let human = human(&report, args.nights);
    Ok(Outcome { scenario: "sides", passed: report.violations == 0, report: serde_json::to_value(&report)?, human })
}

/// `make` timed on `--nights` random nights of every size asked, and of the
/// sizes the heuristic is measured at; counts nights whose keys 1–3 are not
/// optimal.
fn time_make(args: &SidesArgs, rng: &mut SplitMix, violations: &mut usize) -> Vec<Timing> {
    let mut timings = Vec::new();
    let mut sizes = args.sizes.clone();
    // The heuristic's own time at the sizes its gap is measured at.
    sizes.extend([args.gap_skaters, args.bound_skaters]);
    for &skaters in &sizes {
        let mut recorder = Recorder::new();
        for _ in 0..args.nights {
            let night = night(rng, skaters, args.goalies, args.together);
            let seed = rng.next();
            let started = Instant::now();
            let split = sides::make(&night, seed, None);
            recorder.record(started.elapsed());
            *violations += usize::from(!counts_optimal(&night, split.score));
        }
        let make = recorder.summary();
        info!(skaters, %make, "make timed");
        timings.push(Timing { skaters, exact: skaters <= sides::EXACT_SKATERS, make });
    }
    timings
}

/// A random night of `skaters`, the seed of its search, and the
/// heuristic's score of it, timed into `timer`.
fn timed_heuristic(
    args: &SidesArgs,
    rng: &mut SplitMix,
    skaters: usize,
    timer: &mut Recorder,
) -> (Problem, u64, Score) {
    let night = night(rng, skaters, args.goalies, args.together);
    let seed = rng.next();
    let started = Instant::now();
    let h = sides::heuristic(&night, seed);
    timer.record(started.elapsed());
    (night, seed, h.score)
}

/// The heuristic against the exhaustive search, at `--gap-skaters`.
fn gap(args: &SidesArgs, rng: &mut SplitMix, violations: &mut usize) -> Result<Gap> {
    let (mut optimal, mut sum, mut first) = (0, [0.0; 6], [0.0; 6]);
    let (mut heuristic, mut exhaustive) = (Recorder::new(), Recorder::new());
    for k in 0..args.gap_nights {
        let (night, seed, h) = timed_heuristic(args, rng, args.gap_skaters, &mut heuristic);
        let started = Instant::now();
        let Some(e) = sides::exhaustive(&night, seed) else {
            anyhow::bail!("{} players is past the exhaustive search's 64", night.players.len());
        };
        exhaustive.record(started.elapsed());
        info!(night = k + 1, of = args.gap_nights, "compared with the exhaustive search");
        *violations += usize::from(h < e.score || !counts_optimal(&night, e.score));
        let (hk, ek) = (Keys::of(h), Keys::of(e.score));
        for i in 0..6 {
            sum[i] += hk[i] - ek[i];
        }
        if h == e.score {
            optimal += 1;
        } else if let Some(i) = (0..6).find(|&i| hk[i] != ek[i]) {
            first[i] += 1.0;
        }
    }
    let nights = args.gap_nights.max(1) as f64;
    Ok(Gap {
        skaters: args.gap_skaters,
        nights: args.gap_nights,
        optimal,
        mean_gap: Keys::from(sum.map(|x| x / nights)),
        first_worse: Keys::from(first),
        heuristic: heuristic.summary(),
        exhaustive: exhaustive.summary(),
    })
}

/// The heuristic against the lower bound, at `--bound-skaters`.
fn bound(args: &SidesArgs, rng: &mut SplitMix, violations: &mut usize) -> Result<Bound> {
    let (mut strength_at, mut spread_at, mut sum, mut repeats) = (0, 0, [0.0; 6], 0.0);
    let mut heuristic = Recorder::new();
    for _ in 0..args.bound_nights {
        let (night, _, h) = timed_heuristic(args, rng, args.bound_skaters, &mut heuristic);
        let Some(lower) = lower_bound(&night) else {
            anyhow::bail!("{} players is past the exhaustive search's 64", night.players.len());
        };
        *violations += usize::from(!counts_optimal(&night, h));
        let (hk, lk) = (Keys::of(h), Keys::of(lower));
        for i in 0..5 {
            sum[i] += hk[i] - lk[i];
        }
        *violations += usize::from(h < lower);
        let keys = |s: Score| (s.goalies, s.sizes, s.positions, s.strength);
        if keys(h) == keys(lower) {
            strength_at += 1;
            spread_at += usize::from(h.spread == lower.spread);
        }
        repeats += f64::from(h.repeats);
    }
    let nights = args.bound_nights.max(1) as f64;
    Ok(Bound {
        skaters: args.bound_skaters,
        nights: args.bound_nights,
        strength_at_bound: strength_at,
        spread_at_bound: spread_at,
        mean_gap: Keys::from(sum.map(|x| x / nights)),
        mean_repeats: repeats / nights,
        heuristic: heuristic.summary(),
    })
}

fn human(r: &Report, nights: usize) -> String {
    let mut s = format!(
        "sides — make() in process, {} random nights per size (+{} goalies, 1/6 of levels unknown, {:.0} % of pairs with 1–4 weeks together)\n",
        nights,
        r.goalies,
        r.together_share * 100.0
    );
    s.push_str("  skaters  search      p50 ms    p99 ms    max ms\n");
    for t in &r.timings {
        s.push_str(&format!(
            "  {:>7}  {:<10} {:>8.2}  {:>8.2}  {:>8.2}\n",
            t.skaters,
            if t.exact { "exhaustive" } else { "heuristic" },
            t.make.p50_ms,
            t.make.p99_ms,
            t.make.max_ms
        ));
    }
    let g = &r.gap;
    s.push_str(&format!(
        "  heuristic at {} skaters vs exhaustive ({} nights): optimal {}/{}\n    mean gap  {}\n    first worse key of the misses  {}\n    exhaustive itself  {}\n",
        g.skaters,
        g.nights,
        g.optimal,
        g.nights,
        g.mean_gap.human(),
        g.first_worse.human(),
        g.exhaustive
    ));
    let b = &r.bound;
    s.push_str(&format!(
        "  heuristic at {} skaters vs the optimum without history ({} nights): keys 1–4 optimal {}/{}, spread too {}/{}\n    mean gap  {}\n    mean repeats {:.1} (no bound)\n",
        b.skaters,
        b.nights,
        b.strength_at_bound,
        b.nights,
        b.spread_at_bound,
        b.nights,
        b.mean_gap.human(),
        b.mean_repeats
    ));
    s.push_str(&format!(
        "  violations    {} (keys 1–3 not optimal, or the heuristic beating the exhaustive optimum or the bound)\n",
        r.violations
    ));
    s
}

/// Per role counts of a night.
fn counts(night: &Problem) -> [u32; 3] {
    let mut c = [0u32; 3];
    for p in &night.players {
        c[match p.role {
            Role::Goalie => 0,
            Role::Defence => 1,
            Role::Forward => 2,
        }] += 1;
    }
    c
}

/// Keys 1–3 as good as the counts allow: each role halved, the odd ones
/// out on opposite sides when both skater roles are odd.
fn counts_optimal(night: &Problem, s: Score) -> bool {
    let [g, d, f] = counts(night);
    (s.goalies, s.sizes, s.positions) == (g % 2, (d + f) % 2, d % 2 + f % 2)
}

/// The lower bound of `Bound`: the night's optimum without its history,
/// repeats 0. None past the exhaustive search's 64 players.
fn lower_bound(night: &Problem) -> Option<Score> {
    let alone = Problem { players: night.players.clone(), together: Vec::new() };
    sides::exhaustive(&alone, 0).map(|s| Score { repeats: 0, ..s.score })
}

fn night(rng: &mut SplitMix, skaters: usize, goalies: usize, together: f64) -> Problem {
    let level = |rng: &mut SplitMix| if rng.below(6) == 0 { None } else { Some(1 + rng.below(8) as u8) };
    let mut players: Vec<Player> = (0..goalies).map(|_| Player { role: Role::Goalie, level: level(rng) }).collect();
    for _ in 0..skaters {
        let role = if rng.below(3) == 0 { Role::Defence } else { Role::Forward };
        players.push(Player { role, level: level(rng) });
    }
    let n = players.len();
    let mut pairs = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            if rng.unit() < together {
                pairs.push((i, j, 1 + rng.below(4) as u32));
            }
        }
    }
    Problem { players, together: pairs }
}

/// splitmix64: reproducible nights from `--seed`, no dependency.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next()) * u128::from(n)) >> 64) as u64
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nights_have_the_asked_players_and_pairs_in_range() {
        let mut rng = SplitMix(3);
        let n = night(&mut rng, 20, 2, 0.25);
        assert_eq!(n.players.len(), 22);
        assert_eq!(n.players.iter().filter(|p| p.role == Role::Goalie).count(), 2);
        assert!(n.together.iter().all(|&(i, j, w)| i < j && j < 22 && (1..=4).contains(&w)));
        assert!(!n.together.is_empty());
    }

    #[test]
    fn the_lower_bound_is_never_above_an_exhaustive_optimum() {
        let mut rng = SplitMix(5);
        for _ in 0..20 {
            let n = night(&mut rng, 10, 2, 0.25);
            let best = sides::make(&n, 1, None).score;
            let lower = lower_bound(&n).unwrap();
            assert!(lower <= best);
            assert_eq!(Score { repeats: 0, ..best }, lower, "keys 1–5 do not depend on the history");
            assert!(counts_optimal(&n, best));
        }
    }
}
