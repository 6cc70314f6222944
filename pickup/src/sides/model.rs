//! The problem in the shape both searches want (`Model`): roles as indexes,
//! unknown levels filled with the median, weeks together as adjacency
//! lists, the Dark counts per role that make keys 1–3 optimal; and the
//! score keys built from counts and sums, shared by `score`, the bounds of
//! the exhaustive search and the moves of the heuristic.

use super::{DEFENCE, EXACT_BUDGET, EXACT_SKATERS, FORWARD, GOALIE, Player, Problem, Score};

/// A difference as a key: its absolute value, saturating.
pub(super) fn clamp(x: i64) -> u32 {
    u32::try_from(x.unsigned_abs()).unwrap_or(u32::MAX)
}

/// Keys 1–3 from the counts per role on each side.
pub(super) fn count_keys_of(dark: [usize; 3], light: [usize; 3]) -> (u32, u32, u32) {
    let delta = |r: usize| dark[r] as i64 - light[r] as i64;
    (clamp(delta(GOALIE)), clamp(delta(DEFENCE) + delta(FORWARD)), clamp(delta(DEFENCE)) + clamp(delta(FORWARD)))
}

/// The problem in the shape both searches want.
pub(super) struct Model {
    pub(super) n: usize,
    /// Role index per player.
    pub(super) role: Vec<usize>,
    /// Level per player, unknown ones filled with the median.
    pub(super) level: Vec<i64>,
    /// Players per role.
    pub(super) role_count: [usize; 3],
    /// Every Dark count per role whose keys 1–3 are optimal; the mirror of
    /// each is in the list too.
    pub(super) targets: Vec<[usize; 3]>,
    /// The optimal keys 1–3.
    pub(super) count_keys: (u32, u32, u32),
    /// Σ levels and Σ levels² of everyone.
    pub(super) total: i64,
    pub(super) total_sq: i64,
    /// Weeks together per player, both directions, duplicates summed, bad
    /// indexes dropped.
    pub(super) adj: Vec<Vec<(usize, u64)>>,
}

impl Model {
    pub(super) fn new(problem: &Problem) -> Model {
        let n = problem.players.len();
        let role: Vec<usize> = problem.players.iter().map(|p| p.role.index()).collect();
        let level = effective_levels(&problem.players);
        let mut role_count = [0usize; 3];
        for &r in &role {
            role_count[r] += 1;
        }
        let mut pairs: Vec<(usize, usize, u64)> = problem
            .together
            .iter()
            .filter(|(i, j, w)| i != j && *i < n && *j < n && *w > 0)
            .map(|&(i, j, w)| (i.min(j), i.max(j), u64::from(w)))
            .collect();
        pairs.sort_unstable();
        let mut adj = vec![Vec::new(); n];
        let mut k = 0;
        while k < pairs.len() {
            let (i, j, mut w) = pairs[k];
            k += 1;
            while k < pairs.len() && pairs[k].0 == i && pairs[k].1 == j {
                w += pairs[k].2;
                k += 1;
            }
            adj[i].push((j, w));
            adj[j].push((i, w));
        }
        for list in &mut adj {
            list.sort_unstable();
        }
        // Keys 1–3 are optimal only with each role split as evenly as it
        // goes (sizes and positions are both met by the floor/ceil halves),
        // so the candidates are at most two per role.
        let halves = |c: usize| if c.is_multiple_of(2) { vec![c / 2] } else { vec![c / 2, c / 2 + 1] };
        let mut targets = Vec::new();
        let mut best = (u32::MAX, u32::MAX, u32::MAX);
        for &g in &halves(role_count[GOALIE]) {
            for &d in &halves(role_count[DEFENCE]) {
                for &f in &halves(role_count[FORWARD]) {
                    let dark = [g, d, f];
                    let light = [role_count[0] - g, role_count[1] - d, role_count[2] - f];
                    let keys = count_keys_of(dark, light);
                    if keys < best {
                        best = keys;
                        targets.clear();
                    }
                    if keys == best {
                        targets.push(dark);
                    }
                }
            }
        }
        let total = level.iter().sum();
        let total_sq = level.iter().map(|l| l * l).sum();
        Model { n, role, level, role_count, targets, count_keys: best, total, total_sq, adj }
    }

    /// Weeks together of two players (adjacency lists are sorted).
    pub(super) fn weight(&self, a: usize, b: usize) -> u64 {
        let list = &self.adj[a];
        list.binary_search_by_key(&b, |&(j, _)| j).map_or(0, |k| list[k].1)
    }

    /// Whether `make`/`rebalance` search exhaustively.
    pub(super) fn exact(&self) -> bool {
        self.n <= 64
            && self.role_count[DEFENCE] + self.role_count[FORWARD] <= EXACT_SKATERS
            && self.candidates() <= EXACT_BUDGET
    }

    /// Splits with optimal counts, the mirror folded away.
    pub(super) fn candidates(&self) -> u128 {
        let all: u128 =
            self.targets.iter().map(|t| (0..3).map(|r| binomial(self.role_count[r], t[r])).product::<u128>()).sum();
        all / 2
    }

    pub(super) fn score(&self, strength: i64, moves: u32, spread: i64, repeats: u64) -> Score {
        Score {
            goalies: self.count_keys.0,
            sizes: self.count_keys.1,
            positions: self.count_keys.2,
            strength: clamp(strength),
            moves,
            spread: clamp(spread),
            repeats: u32::try_from(repeats).unwrap_or(u32::MAX),
        }
    }
}

/// Levels with unknowns filled: the median of the known ones (the mean of
/// the middle two, rounded down), 4 (Recreational) when nobody has one.
/// Public so a screen's totals count levels exactly as the split does.
pub fn effective_levels(players: &[Player]) -> Vec<i64> {
    let mut known: Vec<i64> = players.iter().filter_map(|p| p.level).map(i64::from).collect();
    known.sort_unstable();
    let k = known.len();
    let fill = match k {
        0 => 4,
        _ if !k.is_multiple_of(2) => known[k / 2],
        _ => (known[k / 2 - 1] + known[k / 2]) / 2,
    };
    players.iter().map(|p| p.level.map_or(fill, i64::from)).collect()
}

/// C(n, k), the ways to choose k of n (0 when k > n): counts of splits.
pub(super) fn binomial(n: usize, k: usize) -> u128 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut c: u128 = 1;
    for i in 0..k {
        c = c * (n - i) as u128 / (i + 1) as u128;
    }
    c
}
