//! The exhaustive search (module tour › Exhaustive): a depth-first
//! enumeration of the splits with optimal counts per role, the mirror
//! folded away, branches cut by lower bounds, interchangeable players
//! branched on as classes, and ties drawn uniformly.

use super::GOALIE;
use super::model::{Model, binomial};
use super::random::{Reservoir, Rng};

/// What the exhaustive search keeps of a split: the individuals' sides and
/// how many of each class go Dark (which ones is drawn at the end).
#[derive(Clone)]
struct Leaf {
    /// Dark individuals, by position.
    mask: u64,
    /// Dark members per class.
    ks: Vec<usize>,
    kind: LeafKind,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum LeafKind {
    /// Any of the member choices.
    Any,
    /// Any but the split to avoid (which these counts include).
    Except,
    /// The split to avoid itself.
    Avoided,
}

/// The exhaustive search (see the module tour), over positions in its own
/// order; everything here is indexed by position, not by player.
///
/// Players without any weeks together (and not the first, who is fixed
/// Dark) are interchangeable with others of the same role, level and
/// current side: such a **class** is one node with a branch per number of
/// its members going Dark, weighted by the ways to choose them. A first
/// week of a series (no history, levels mostly unknown) is then a handful
/// of nodes instead of millions of equal splits.
pub(super) struct Exhaustive<'a> {
    model: &'a Model,
    order: Vec<usize>,
    role: Vec<usize>,
    level: Vec<i64>,
    sq: Vec<i64>,
    /// At the first position of a class: its index in `classes`. Other
    /// members' positions are skipped; individuals have None.
    class_at: Vec<Option<usize>>,
    /// Members of each class, by player.
    classes: Vec<Vec<usize>>,
    /// Per role, running sums (from 0) of its levels and squares in search
    /// order, highest first: the `k` highest or lowest still to place in a
    /// role are the difference of two entries, which bounds how far the
    /// rest can still move Dark's sums.
    cum: [Vec<i64>; 3],
    cum_sq: [Vec<i64>; 3],
    /// Players of each role placed before a position: where the rest of
    /// the role starts in `cum`.
    before_role: Vec<[usize; 3]>,
    /// Players per role from a position to the end.
    rest_role: Vec<[usize; 3]>,
    /// Weeks together with later positions only.
    later: Vec<Vec<(usize, u64)>>,
    /// Per position, its weeks together with the players already placed
    /// Dark and Light: what it adds to the repeats on either side. Each
    /// player still to place adds at least the smaller of the two, and
    /// those sums are over different pairs, so their total bounds the
    /// repeats to come (the classic bound for graph bisection).
    acc: Vec<[u64; 2]>,
    /// Placed Dark? per position (all None for a fresh split).
    placed: Vec<Option<bool>>,
    /// Placed players before each position.
    placed_before: Vec<u32>,
    rebalance: bool,
    /// The split to avoid, first position Dark: by player, and as a leaf.
    avoid: Option<(Vec<bool>, u64, Vec<usize>)>,
    /// Dark members per class on the current branch.
    ks: Vec<usize>,
    found: Reservoir<Leaf>,
    rng: Rng,
}

impl<'a> Exhaustive<'a> {
    pub(super) fn new(model: &'a Model, placed: &[Option<bool>], avoid: Option<&[bool]>, seed: u64) -> Exhaustive<'a> {
        let n = model.n;
        let placed_of = |i: usize| placed.get(i).copied().flatten();
        // The anchor: highest level among the goalies (else the skaters).
        let anchor = (0..n).min_by_key(|&i| (model.role[i] != GOALIE, std::cmp::Reverse(model.level[i]), i));
        let individual = |i: usize| Some(i) == anchor || !model.adj[i].is_empty();
        let placement = |i: usize| match placed_of(i) {
            None => 0,
            Some(true) => 1,
            Some(false) => 2,
        };
        // Goalies first: few, and their placement splits the tree widest.
        // Then highest level first, so the bounds tighten early; classes
        // after the individuals of their level, members side by side.
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| {
            let class = if individual(i) { (0, 0, 0) } else { (1, model.role[i], placement(i)) };
            (model.role[i] != GOALIE, std::cmp::Reverse(model.level[i]), class, i)
        });
        let mut pos_of = vec![0; n];
        for (p, &i) in order.iter().enumerate() {
            pos_of[i] = p;
        }
        let same_class = |i: usize, j: usize| {
            !individual(i)
                && !individual(j)
                && (model.role[i], model.level[i], placement(i)) == (model.role[j], model.level[j], placement(j))
        };
        let (class_at, classes) = classes_along(&order, individual, same_class);
        let role: Vec<usize> = order.iter().map(|&i| model.role[i]).collect();
        let level: Vec<i64> = order.iter().map(|&i| model.level[i]).collect();
        let sq: Vec<i64> = level.iter().map(|l| l * l).collect();
        let mut rest_role = vec![[0usize; 3]; n + 1];
        for p in (0..n).rev() {
            rest_role[p] = rest_role[p + 1];
            rest_role[p][role[p]] += 1;
        }
        let (cum, cum_sq, before_role) = prefix_sums(&role, &level, &sq);
        let later: Vec<Vec<(usize, u64)>> = order
            .iter()
            .enumerate()
            .map(|(p, &i)| model.adj[i].iter().map(|&(j, w)| (pos_of[j], w)).filter(|&(q, _)| q > p).collect())
            .collect();
        let placed: Vec<Option<bool>> = order.iter().map(|&i| placed_of(i)).collect();
        let rebalance = placed.iter().any(Option::is_some);
        let mut placed_before = vec![0u32; n + 1];
        for p in 0..n {
            placed_before[p + 1] = placed_before[p] + u32::from(placed[p].is_some());
        }
        let avoid = avoid.map(|a| {
            let anchor_dark = anchor.and_then(|i| a.get(i).copied()).unwrap_or(true);
            let dark: Vec<bool> = (0..n).map(|i| a.get(i).copied().unwrap_or(false) == anchor_dark).collect();
            let mask = (0..n).filter(|&p| individual(order[p]) && dark[order[p]]).fold(0u64, |m, p| m | 1 << p);
            let ks = classes.iter().map(|members| members.iter().filter(|&&i| dark[i]).count()).collect();
            (dark, mask, ks)
        });
        let ks = vec![0; classes.len()];
        Exhaustive {
            model,
            order,
            role,
            level,
            sq,
            class_at,
            classes,
            cum,
            cum_sq,
            before_role,
            rest_role,
            later,
            acc: vec![[0; 2]; n],
            placed,
            placed_before,
            rebalance,
            avoid,
            ks,
            found: Reservoir::new(),
            rng: Rng::new(seed),
        }
    }

    /// "Dark?" per player.
    pub(super) fn run(mut self) -> Vec<bool> {
        let n = self.model.n;
        for target in self.model.targets.clone() {
            if n > 0 {
                self.dfs(0, target, 0, 0, (0, 0), 0, 0, 1);
            }
        }
        let Some(leaf) = self.found.pick.take() else {
            return vec![false; n];
        };
        if leaf.kind == LeafKind::Avoided
            && let Some((dark, _, _)) = self.avoid.take()
        {
            return dark;
        }
        loop {
            let mut dark = vec![false; n];
            for (p, &i) in self.order.iter().enumerate() {
                dark[i] = leaf.mask >> p & 1 == 1;
            }
            for (members, &k) in self.classes.iter().zip(&leaf.ks) {
                let mut members = members.clone();
                self.rng.shuffle(&mut members);
                for &i in &members[..k] {
                    dark[i] = true;
                }
            }
            // Another choice of members than the avoided one: at least one
            // other exists (the leaf's weight was above one), and each draw
            // is the avoided one with probability at most a half.
            match (&self.avoid, leaf.kind) {
                (Some((avoided, _, _)), LeafKind::Except) if *avoided == dark => continue,
                _ => return dark,
            }
        }
    }

    /// Places position `pos` and on (position 0 always Dark); `need` is how
    /// many of each role must still go Dark, then Dark's sums, the repeats
    /// so far and the bound on those to come (`acc`), Dark individuals,
    /// moves so far, and how many splits this branch stands for.
    #[allow(clippy::too_many_arguments)]
    fn dfs(
        &mut self,
        pos: usize,
        need: [usize; 3],
        sum: i64,
        sq: i64,
        (reps, pending): (u64, u64),
        mask: u64,
        moved: u32,
        weight: u128,
    ) {
        let n = self.model.n;
        if pos == n {
            self.leaf(sum, sq, reps, mask, moved, weight);
            return;
        }
        if self.cannot_beat_the_best(pos, need, sum, sq, reps + pending, moved) {
            return;
        }
        let r = self.role[pos];
        let placed = self.placed[pos];
        if let Some(class) = self.class_at[pos] {
            let size = self.classes[class].len();
            let light_room = self.rest_role[pos][r] - size;
            let (lo, hi) = (need[r].saturating_sub(light_room), need[r].min(size));
            for k in (lo..=hi).rev() {
                self.ks[class] = k;
                let mut next = need;
                next[r] -= k;
                let m = moved
                    + match placed {
                        Some(true) => (size - k) as u32,
                        Some(false) => k as u32,
                        None => 0,
                    };
                let kl = k as i64;
                let ways = weight.saturating_mul(binomial(size, k));
                let (s, q) = (sum + kl * self.level[pos], sq + kl * self.sq[pos]);
                self.dfs(pos + size, next, s, q, (reps, pending), mask, m, ways);
            }
            return;
        }
        let own = self.acc[pos];
        let dark_ok = need[r] > 0;
        let light_ok = pos > 0 && self.rest_role[pos][r] > need[r];
        for (side, ok) in [(0, dark_ok), (1, light_ok)] {
            if !ok {
                continue;
            }
            let mut pend = pending - own[0].min(own[1]);
            for k in 0..self.later[pos].len() {
                let (q, w) = self.later[pos][k];
                let before = self.acc[q][0].min(self.acc[q][1]);
                self.acc[q][side] += w;
                pend = pend - before + self.acc[q][0].min(self.acc[q][1]);
            }
            let reps = (reps + own[side], pend);
            if side == 0 {
                let mut next = need;
                next[r] -= 1;
                let m = moved + u32::from(placed == Some(false));
                let (s, q) = (sum + self.level[pos], sq + self.sq[pos]);
                self.dfs(pos + 1, next, s, q, reps, mask | 1 << pos, m, weight);
            } else {
                let m = moved + u32::from(placed == Some(true));
                self.dfs(pos + 1, need, sum, sq, reps, mask, m, weight);
            }
            for k in 0..self.later[pos].len() {
                let (q, w) = self.later[pos][k];
                self.acc[q][side] -= w;
            }
        }
    }

    /// Whether every way to finish from `pos` scores worse than the best
    /// found so far (a lower bound on the key), so the branch is cut.
    fn cannot_beat_the_best(&self, pos: usize, need: [usize; 3], sum: i64, sq: i64, reps: u64, moved: u32) -> bool {
        let Some((best, _)) = self.found.best else { return false };
        // Dark ends with `need[r]` more of each role: at most the
        // highest of the rest, at least the lowest. The difference's
        // distance from 0 over that range bounds the key.
        let bound = |cum: &[Vec<i64>; 3], own: i64, total: i64| {
            let (mut least, mut most) = (own, own);
            for r in 0..3 {
                let (from, k, end) = (self.before_role[pos][r], need[r], cum[r].len() - 1);
                least += cum[r][end] - cum[r][end - k];
                most += cum[r][from + k] - cum[r][from];
            }
            let (lo, hi) = (2 * least - total, 2 * most - total);
            if lo > 0 {
                lo
            } else if hi < 0 {
                -hi
            } else {
                0
            }
        };
        let kept = self.placed_before[pos] - moved;
        let lower = self.model.score(
            bound(&self.cum, sum, self.model.total),
            if self.rebalance { moved.min(kept) } else { 0 },
            bound(&self.cum_sq, sq, self.model.total_sq),
            reps,
        );
        lower > best
    }

    fn leaf(&mut self, sum: i64, sq: i64, reps: u64, mask: u64, moved: u32, weight: u128) {
        let strength = 2 * sum - self.model.total;
        let spread = 2 * sq - self.model.total_sq;
        let kept = self.placed_before[self.model.n] - moved;
        // Which orientation moves fewer is settled afterwards (`finish`);
        // a tie counts twice, once per orientation.
        let score = self.model.score(strength, moved.min(kept), spread, reps);
        let weight = if self.rebalance && moved == kept { weight.saturating_mul(2) } else { weight };
        let ks = &self.ks;
        let leaf = |kind| Leaf { mask, ks: ks.clone(), kind };
        let holds_avoided = matches!(&self.avoid, Some((_, m, k)) if *m == mask && k == ks);
        if holds_avoided {
            self.found.offer(score, true, 1, || leaf(LeafKind::Avoided), &mut self.rng);
            if weight > 1 {
                self.found.offer(score, false, weight - 1, || leaf(LeafKind::Except), &mut self.rng);
            }
        } else {
            self.found.offer(score, false, weight, || leaf(LeafKind::Any), &mut self.rng);
        }
    }
}

/// Interchangeable players side by side in `order` form a class (its
/// members at the positions after its first): each class's first position,
/// and the classes' members.
fn classes_along(
    order: &[usize],
    individual: impl Fn(usize) -> bool,
    same_class: impl Fn(usize, usize) -> bool,
) -> (Vec<Option<usize>>, Vec<Vec<usize>>) {
    let mut class_at = vec![None; order.len()];
    let mut classes: Vec<Vec<usize>> = Vec::new();
    for p in 0..order.len() {
        let i = order[p];
        if individual(i) {
            continue;
        }
        if p > 0 && same_class(order[p - 1], i) {
            if let Some(last) = classes.last_mut() {
                last.push(i);
            }
        } else {
            class_at[p] = Some(classes.len());
            classes.push(vec![i]);
        }
    }
    (class_at, classes)
}

/// Per role, the running sums of levels and of their squares along the
/// order, and how many of each role come before each position.
#[allow(clippy::type_complexity)]
fn prefix_sums(role: &[usize], level: &[i64], sq: &[i64]) -> ([Vec<i64>; 3], [Vec<i64>; 3], Vec<[usize; 3]>) {
    let n = role.len();
    let mut cum = [vec![0i64], vec![0i64], vec![0i64]];
    let mut cum_sq = cum.clone();
    let mut before_role = vec![[0usize; 3]; n + 1];
    for p in 0..n {
        let r = role[p];
        let (last, last_sq) = (cum[r].last().copied().unwrap_or(0), cum_sq[r].last().copied().unwrap_or(0));
        cum[r].push(last + level[p]);
        cum_sq[r].push(last_sq + sq[p]);
        before_role[p + 1] = before_role[p];
        before_role[p + 1][r] += 1;
    }
    (cum, cum_sq, before_role)
}
