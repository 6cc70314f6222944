//! The heuristic (module tour › Heuristic), for nights past the exact
//! range: seeded greedy starts, a descent over single moves and one- and
//! two-player swaps scored from kept sums (`Local`), and random kicks.

use super::Score;
use super::model::{Model, clamp, count_keys_of};
use super::random::{Reservoir, Rng};

/// Heuristic restarts from fresh greedy splits: with `KICKS`, enough that
/// at 30 skaters the heuristic nearly always meets the exhaustive optimum
/// (a quarter of the descents, 4 × 12, missed one night in ten, on
/// repeats), few enough that 40
/// players take about a tenth of a second at worst.
const RESTARTS: usize = 8;

/// Kicks (random swaps and a fresh descent) per restart.
const KICKS: usize = 24;

/// A split under local search, by player, with its aggregates kept up to
/// date move by move.
#[derive(Clone)]
struct Local<'a> {
    model: &'a Model,
    placed: &'a [Option<bool>],
    /// Placed players.
    placed_total: u32,
    dark: Vec<bool>,
    /// Dark's count per role, Σ levels, Σ levels²; repeats over both sides;
    /// placed players on the other side than they were.
    count: [usize; 3],
    sum: i64,
    sq: i64,
    reps: u64,
    moved: u32,
    /// Per player, what flipping them alone would add to the repeats
    /// (weeks with the other side − weeks with their own): a move's effect
    /// on the repeats without touching every pair of its players.
    gain: Vec<i64>,
}

impl<'a> Local<'a> {
    fn new(model: &'a Model, placed: &'a [Option<bool>], dark: Vec<bool>) -> Local<'a> {
        let mut s = Local {
            model,
            placed,
            placed_total: placed.iter().flatten().count() as u32,
            dark: vec![false; model.n],
            count: [0; 3],
            sum: 0,
            sq: 0,
            reps: 0,
            moved: placed.iter().filter(|p| **p == Some(true)).count() as u32,
            gain: model.adj.iter().map(|a| -a.iter().map(|&(_, w)| w as i64).sum::<i64>()).collect(),
        };
        // Everyone Light, then each Dark player flipped: the aggregates
        // follow from the same code the moves use.
        s.reps = (0..model.n).flat_map(|i| model.adj[i].iter().filter(move |(j, _)| *j > i)).map(|(_, w)| w).sum();
        for (i, d) in dark.iter().enumerate() {
            if *d {
                s.flip(i);
            }
        }
        s
    }

    fn score(&self) -> Score {
        self.score_with(self.count, self.sum, self.sq, self.reps, self.moved)
    }

    fn score_with(&self, count: [usize; 3], sum: i64, sq: i64, reps: u64, moved: u32) -> Score {
        let m = self.model;
        let light = [m.role_count[0] - count[0], m.role_count[1] - count[1], m.role_count[2] - count[2]];
        let (goalies, sizes, positions) = count_keys_of(count, light);
        Score {
            goalies,
            sizes,
            positions,
            strength: clamp(2 * sum - m.total),
            moves: moved.min(self.placed_total - moved),
            spread: clamp(2 * sq - m.total_sq),
            repeats: u32::try_from(reps).unwrap_or(u32::MAX),
        }
    }

    fn flip(&mut self, i: usize) {
        let m = self.model;
        let to_dark = !self.dark[i];
        for &(j, w) in &m.adj[i] {
            if self.dark[j] == self.dark[i] {
                self.reps -= w;
                self.gain[j] += 2 * w as i64;
            } else {
                self.reps += w;
                self.gain[j] -= 2 * w as i64;
            }
        }
        self.gain[i] = -self.gain[i];
        self.dark[i] = to_dark;
        let sign = if to_dark { 1 } else { -1 };
        if to_dark {
            self.count[m.role[i]] += 1;
        } else {
            self.count[m.role[i]] -= 1;
        }
        self.sum += sign * m.level[i];
        self.sq += sign * m.level[i] * m.level[i];
        match self.placed.get(i).copied().flatten() {
            Some(p) if p == to_dark => self.moved -= 1,
            Some(_) => self.moved += 1,
            None => {}
        }
    }

    /// The score after flipping `flips` (distinct players), without
    /// flipping them, or None when it is worse than `now` already before
    /// the repeats. Repeats: each one's gain, less the pairs among them
    /// (flipped together, a pair stays as it was).
    fn after(&self, flips: &[usize], now: Score) -> Option<Score> {
        let m = self.model;
        let (mut count, mut sum, mut sq, mut moved) = (self.count, self.sum, self.sq, self.moved);
        for &i in flips {
            let to_dark = !self.dark[i];
            let sign = if to_dark { 1 } else { -1 };
            if to_dark {
                count[m.role[i]] += 1;
            } else {
                count[m.role[i]] -= 1;
            }
            sum += sign * m.level[i];
            sq += sign * m.level[i] * m.level[i];
            match self.placed.get(i).copied().flatten() {
                Some(p) if p == to_dark => moved -= 1,
                Some(_) => moved += 1,
                None => {}
            }
        }
        // Worse before the repeats: no need to count them.
        if self.score_with(count, sum, sq, 0, moved) > (Score { repeats: 0, ..now }) {
            return None;
        }
        let mut reps = self.reps as i64;
        for (x, &a) in flips.iter().enumerate() {
            reps += self.gain[a];
            for &b in &flips[x + 1..] {
                let w = m.weight(a, b) as i64;
                reps += if self.dark[a] == self.dark[b] { 2 * w } else { -2 * w };
            }
        }
        Some(self.score_with(count, sum, sq, reps.max(0) as u64, moved))
    }

    /// Flips `flips` when that lowers the score; says whether it did.
    fn try_move(&mut self, now: Score, flips: &[usize]) -> bool {
        if self.after(flips, now).is_none_or(|s| s >= now) {
            return false;
        }
        for &i in flips {
            self.flip(i);
        }
        true
    }

    /// Takes improving moves until none is left: single moves, then
    /// one-for-one swaps, then two-for-two swaps, in `scan` order.
    fn descend(&mut self, scan: &[usize]) {
        'improve: loop {
            let now = self.score();
            for &i in scan {
                if self.try_move(now, &[i]) {
                    continue 'improve;
                }
            }
            let dark: Vec<usize> = scan.iter().copied().filter(|&i| self.dark[i]).collect();
            let light: Vec<usize> = scan.iter().copied().filter(|&i| !self.dark[i]).collect();
            for &a in &dark {
                for &b in &light {
                    if self.try_move(now, &[a, b]) {
                        continue 'improve;
                    }
                }
            }
            // Two-for-two, the costly part (n⁴/16 of them). With keys 1–3
            // already optimal nothing improves them, so a useful swap must
            // not worsen the strength: the Light pair's level sum is then
            // confined to a narrow window, found by binary search in the
            // pairs sorted by sum.
            let m = self.model;
            let mut pairs: Vec<(i64, usize, usize)> = Vec::with_capacity(light.len() * light.len() / 2);
            for (y, &c) in light.iter().enumerate() {
                for &d in &light[y + 1..] {
                    pairs.push((m.level[c] + m.level[d], c, d));
                }
            }
            pairs.sort_by_key(|p| p.0);
            let settled = (now.goalies, now.sizes, now.positions) == m.count_keys;
            let strength = i64::from(now.strength);
            for (x, &a) in dark.iter().enumerate() {
                for &b in &dark[x + 1..] {
                    // New difference: base + 2·(Light pair's sum).
                    let base = 2 * (self.sum - m.level[a] - m.level[b]) - m.total;
                    let (lo, hi) = if settled {
                        (-(strength + base).div_euclid(2), (strength - base).div_euclid(2))
                    } else {
                        (i64::MIN, i64::MAX)
                    };
                    let from = pairs.partition_point(|p| p.0 < lo);
                    for &(sum, c, d) in &pairs[from..] {
                        if sum > hi {
                            break;
                        }
                        if self.try_move(now, &[a, b, c, d]) {
                            continue 'improve;
                        }
                    }
                }
            }
            return;
        }
    }

    /// A few random same-role swaps: out of a local optimum without
    /// touching the counts.
    fn kick(&mut self, rng: &mut Rng) {
        let m = self.model;
        let swaps = 2 + rng.below(2) as usize;
        // Half the kicks stay on the plateau: partners of the same level
        // too, so only the repeats (and moves) change.
        let same_level = rng.coin();
        for _ in 0..swaps {
            let a = rng.below(m.n as u64) as usize;
            let partners: Vec<usize> = (0..m.n)
                .filter(|&b| {
                    m.role[b] == m.role[a] && self.dark[b] != self.dark[a] && (!same_level || m.level[b] == m.level[a])
                })
                .collect();
            if partners.is_empty() {
                continue;
            }
            let b = partners[rng.below(partners.len() as u64) as usize];
            self.flip(a);
            self.flip(b);
        }
    }

    /// Whether this is `avoid` or its mirror.
    fn is(&self, avoid: Option<&[bool]>) -> bool {
        avoid.is_some_and(|a| a == self.dark.as_slice() || a.iter().zip(&self.dark).all(|(x, y)| x != y))
    }
}

/// The heuristic (see the module tour); "Dark?" per player.
pub(super) fn local_search(model: &Model, placed: &[Option<bool>], avoid: Option<&[bool]>, rng: &mut Rng) -> Vec<bool> {
    let n = model.n;
    let mut found: Reservoir<Vec<bool>> = Reservoir::new();
    for restart in 0..RESTARTS {
        let start = if restart == 0 && !placed.is_empty() { from_current(model, placed) } else { greedy(model, rng) };
        let mut scan: Vec<usize> = (0..n).collect();
        rng.shuffle(&mut scan);
        let mut state = Local::new(model, placed, start);
        state.descend(&scan);
        for _ in 0..KICKS {
            let mut tried = state.clone();
            tried.kick(rng);
            tried.descend(&scan);
            let key = |s: &Local| (s.score(), s.is(avoid));
            if key(&tried) <= key(&state) {
                state = tried;
            }
        }
        found.offer(state.score(), state.is(avoid), 1, || state.dark.clone(), rng);
    }
    found.pick.unwrap_or_else(|| vec![false; n])
}

/// Roles in turn, highest level first (seeded order among equals), each
/// player to the side that still needs their role, the lower sum first.
fn greedy(model: &Model, rng: &mut Rng) -> Vec<bool> {
    let n = model.n;
    let target = model.targets[rng.below(model.targets.len() as u64) as usize];
    let mut order: Vec<usize> = (0..n).collect();
    rng.shuffle(&mut order);
    order.sort_by_key(|&i| (model.role[i], std::cmp::Reverse(model.level[i])));
    let mut dark = vec![false; n];
    let mut need = [target, [0; 3]];
    for r in 0..3 {
        need[1][r] = model.role_count[r] - target[r];
    }
    let mut sum = [0i64; 2];
    for i in order {
        let r = model.role[i];
        let side = match (need[0][r] > 0, need[1][r] > 0) {
            (true, false) => 0,
            (false, _) => 1,
            (true, true) if sum[0] != sum[1] => usize::from(sum[1] < sum[0]),
            (true, true) => usize::from(rng.coin()),
        };
        need[side][r] -= 1;
        sum[side] += model.level[i];
        dark[i] = side == 0;
    }
    dark
}

/// The current sides, newcomers to the side with fewer of their role (the
/// lower sum on a tie): the descent then mends counts and strength with
/// as few moves as it finds.
fn from_current(model: &Model, placed: &[Option<bool>]) -> Vec<bool> {
    let mut count = [[0usize; 3]; 2];
    let mut sum = [0i64; 2];
    let mut dark = vec![false; model.n];
    let mut newcomers = Vec::new();
    for i in 0..model.n {
        match placed.get(i).copied().flatten() {
            Some(d) => {
                let s = usize::from(!d);
                count[s][model.role[i]] += 1;
                sum[s] += model.level[i];
                dark[i] = d;
            }
            None => newcomers.push(i),
        }
    }
    for i in newcomers {
        let r = model.role[i];
        let s = usize::from((count[1][r], sum[1]) < (count[0][r], sum[0]));
        count[s][r] += 1;
        sum[s] += model.level[i];
        dark[i] = s == 0;
    }
    dark
}
