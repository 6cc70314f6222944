//! Fair sides for a pickup skate: the players in, split into Dark and Light
//! (docs/sides-and-bill.md › Fair sides).
//!
//! A tour:
//!
//! - The objective is [`Score`], compared lexicographically: goalies, sizes,
//!   positions, strength, (moves, for a re-balance), spread, repeats; then a
//!   seeded draw among equals. [`score`] computes it for any split.
//! - The first three keys only depend on how many of each role go Dark, so
//!   both searches only look at splits whose counts per role are optimal
//!   (`Model::targets`, each role halved, floor or ceiling): every optimal
//!   split is among them, and there are far fewer (twelve defence and
//!   twelve forwards: 853,776 instead of 16.8M, before the mirror halves it).
//! - [`make`] and [`rebalance`] search exhaustively (`Exhaustive`) when there
//!   are at most [`EXACT_SKATERS`] skaters and the candidate splits fit
//!   `EXACT_BUDGET` (four goalies at 24 skaters); beyond, a heuristic
//!   (`Local`). [`exhaustive()`] and [`heuristic()`] force one or the other,
//!   for measurement.
//!
//! Where each part lives:
//!
//! - this module: the public types, the entry points, and the glue they
//!   share (which search, the orientation, the final score);
//! - `model`: the problem as both searches see it (`Model`: roles as
//!   indexes, unknown levels filled, weeks together, the optimal counts per
//!   role) and the score keys built from counts and sums;
//! - `exhaustive`: the depth-first search (`Exhaustive`);
//! - `heuristic`: the local search (`Local`, restarts and kicks);
//! - `random`: the seeded draws both searches share (`Rng`, and the
//!   `Reservoir` that picks uniformly among equal scores);
//! - `tests`: brute force on small nights and the organiser's properties.
//!
//! **Exhaustive.** A depth-first enumeration of the splits with optimal
//! counts, players in a fixed order (goalies first, then by level, highest
//! first). The first player in that order is always Dark: a split and its
//! mirror are the same split, so only half are visited. Sums, sums of
//! squares, repeats and moves are carried down the tree, and a branch is
//! cut as soon as a lower bound of its score is worse than the best found:
//! for strength and spread, the rest of each role's highest or lowest
//! levels on Dark; for repeats, each player still to place adds at least
//! the smaller of their weeks with either side so far. Players without any
//! history who share role, level and current side are interchangeable: one
//! node per such class, branching on how many go Dark, weighted by the ways
//! to choose them (a first week, with no history and few levels, is a
//! handful of nodes, not 1.35M equal splits). Ties on the whole score are
//! kept by weighted reservoir sampling, class members are drawn at the end,
//! so every optimal split is equally likely from a random seed; a last coin
//! from the seed flips the whole split, so Dark is not always the same
//! person. For a re-balance, moves are not mirror-symmetric (the mirror
//! moves every placed player the split keeps): each leaf is scored in its
//! better orientation, and a tie counts for both.
//!
//! **Heuristic** (more than 24 skaters, or so many goalies that the
//! candidates pass the budget): `RESTARTS` restarts, each from a seeded
//! greedy split (roles in turn, within a role highest level first with
//! seeded ties, each player to the side that still needs that role and has
//! the lower sum; for a re-balance the first restart starts from the
//! current sides, newcomers placed). Then a descent taking any improving
//! move among single moves, one-for-one swaps and two-for-two swaps (only
//! those lower the spread at an equal strength: {2, 6} against {4, 4});
//! each move is scored in O(1) from kept sums and per-player repeat gains.
//! Then `KICKS` kicks: two or three random swaps within a role (half the
//! time within a level too, moving only the repeats), another descent, kept
//! when no worse. The best of all restarts wins, equal scores drawn again.
//!
//! **Measured** with `rinkside-loadtest sides` (docs/loadtest.md › Sides;
//! a loaded two-core box, 2 goalies, a quarter of the pairs with history):
//! `make` at 12 / 20 / 24 skaters p50 0.02 / 0.5 / 4.3 ms, p99 0.04 / 3.1 /
//! 21.7 ms. The heuristic takes 21 ms p50 at 30 skaters and 53 ms at 40;
//! at 30 it reached the exhaustive optimum on 49 of 50 nights (the miss:
//! one week-pair more on repeats), at 40 the exact optimum of keys 1–5 on
//! 200 of 200.

mod exhaustive;
mod heuristic;
mod model;
mod random;
#[cfg(test)]
mod tests;

use exhaustive::Exhaustive;
pub use model::effective_levels;
use model::{Model, clamp, count_keys_of};
use random::Rng;

/// How many players `make`/`rebalance` search exhaustively (skaters,
/// goalies excluded): 24.
pub const EXACT_SKATERS: usize = 24;

/// Candidate splits (after the mirror is folded away) the exhaustive search
/// may visit: 24 forwards and four goalies, C(24,12)·C(4,2)/2. Goalies are
/// few at a pickup skate, but a night of twelve goalies would otherwise
/// multiply the search by C(12,6) = 924.
const EXACT_BUDGET: u128 = 2_704_156 * 6 / 2;

/// A player's part in the split, from the position they RSVP'd with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    Goalie,
    Defence,
    Forward,
}

impl Role {
    fn index(self) -> usize {
        match self {
            Role::Goalie => GOALIE,
            Role::Defence => DEFENCE,
            Role::Forward => FORWARD,
        }
    }
}

const GOALIE: usize = 0;
const DEFENCE: usize = 1;
const FORWARD: usize = 2;

/// The two sides, by jersey colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    Dark,
    Light,
}

impl Side {
    /// The opposite side: the mirror of a split swaps every player.
    pub fn other(self) -> Side {
        match self {
            Side::Dark => Side::Light,
            Side::Light => Side::Dark,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player {
    pub role: Role,
    /// 1..=8 on the universal division scale; None = unknown
    pub level: Option<u8>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Problem {
    pub players: Vec<Player>,
    /// (i, j, weeks): players i and j (indexes, i < j) were on the same side this many times in the series' last four weeks.
    pub together: Vec<(usize, usize, u32)>,
}

/// Lexicographic: derive Ord with the fields in exactly this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Score {
    /// |dark goalies − light goalies|.
    pub goalies: u32,
    /// |dark skaters − light skaters|.
    pub sizes: u32,
    /// |Δ defence| + |Δ forwards|.
    pub positions: u32,
    /// |Σ level dark − Σ level light|, goalies included.
    pub strength: u32,
    /// Placed players on the other side than they were (re-balance only).
    pub moves: u32,
    /// |Σ level² dark − Σ level² light|: equal sums and equal sums of
    /// squares mean equal variance.
    pub spread: u32,
    /// Σ weeks over the pairs on the same side.
    pub repeats: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split {
    pub sides: Vec<Side>,
    pub score: Score,
}

/// A fresh split. `avoid`: the current split, for a re-roll — among the optimal splits prefer one that is not it (nor its mirror), when another optimal one exists.
///
/// An `avoid` of another length than the players is ignored.
pub fn make(problem: &Problem, seed: u64, avoid: Option<&[Side]>) -> Split {
    let model = Model::new(problem);
    let avoid = avoid.filter(|a| a.len() == model.n).map(|a| a.iter().map(|s| *s == Side::Dark).collect::<Vec<_>>());
    let mut rng = Rng::new(seed);
    let dark = solve(&model, &[], avoid.as_deref(), &mut rng, model.exact());
    finish(problem, &model, dark, None, &mut rng)
}

/// Re-balance after late changes: `current[i]` is where player i is now (None = a newcomer). Same objective but `moves` (players with Some(side) placed on the other side; newcomers never count) is minimised after `strength` and before `spread`.
///
/// Players past the end of `current` are newcomers; entries past the
/// players are ignored.
pub fn rebalance(problem: &Problem, current: &[Option<Side>], seed: u64) -> Split {
    let model = Model::new(problem);
    let placed = placed_by_player(model.n, current);
    let mut rng = Rng::new(seed);
    let dark = solve(&model, &placed, None, &mut rng, model.exact());
    finish(problem, &model, dark, Some(current), &mut rng)
}

/// The score of a given split (`current` None → moves 0).
///
/// Players beyond `sides.len()` are left out (on neither side), and so are
/// `together` pairs naming a player out of range: the function is total.
pub fn score(problem: &Problem, sides: &[Side], current: Option<&[Option<Side>]>) -> Score {
    let model = Model::new(problem);
    let n = model.n.min(sides.len());
    let mut count = [[0usize; 3]; 2];
    let mut sum = [0i64; 2];
    let mut sq = [0i64; 2];
    for i in 0..n {
        let s = usize::from(sides[i] == Side::Light);
        count[s][model.role[i]] += 1;
        sum[s] += model.level[i];
        sq[s] += model.level[i] * model.level[i];
    }
    let mut repeats = 0u64;
    for i in 0..n {
        for &(j, w) in &model.adj[i] {
            if j > i && j < n && sides[i] == sides[j] {
                repeats += w;
            }
        }
    }
    let moves =
        current.map_or(0, |cur| (0..n).filter(|&i| matches!(cur.get(i), Some(Some(s)) if *s != sides[i])).count());
    let (goalies, sizes, positions) = count_keys_of(count[0], count[1]);
    Score {
        goalies,
        sizes,
        positions,
        strength: clamp(sum[0] - sum[1]),
        moves: clamp(moves as i64),
        spread: clamp(sq[0] - sq[1]),
        repeats: u32::try_from(repeats).unwrap_or(u32::MAX),
    }
}

/// For measurement and tests: the exhaustive search at any size up to 64
/// players, whatever the budget (30 skaters is C(30,15)/2 ≈ 78M splits:
/// seconds, not milliseconds). None beyond 64 players (the search keeps a
/// side per player in one `u64`).
pub fn exhaustive(problem: &Problem, seed: u64) -> Option<Split> {
    let model = Model::new(problem);
    if model.n > 64 {
        return None;
    }
    let mut rng = Rng::new(seed);
    let dark = solve(&model, &[], None, &mut rng, true);
    Some(finish(problem, &model, dark, None, &mut rng))
}

/// For measurement and tests: the heuristic `make` uses beyond the exact
/// range, at any size (so its gap can be measured where the exact answer
/// is known too).
pub fn heuristic(problem: &Problem, seed: u64) -> Split {
    let model = Model::new(problem);
    let mut rng = Rng::new(seed);
    let dark = solve(&model, &[], None, &mut rng, false);
    finish(problem, &model, dark, None, &mut rng)
}

/// `current` as "placed Dark?" per player (None for a newcomer), padded or
/// cut to the players in.
fn placed_by_player(n: usize, current: &[Option<Side>]) -> Vec<Option<bool>> {
    (0..n).map(|i| current.get(i).copied().flatten().map(|s| s == Side::Dark)).collect()
}

/// Either search; the result as "Dark?" per player, in an orientation the
/// caller may still flip.
fn solve(model: &Model, placed: &[Option<bool>], avoid: Option<&[bool]>, rng: &mut Rng, exact: bool) -> Vec<bool> {
    if model.n == 0 {
        return Vec::new();
    }
    if exact {
        Exhaustive::new(model, placed, avoid, rng.next()).run()
    } else {
        heuristic::local_search(model, placed, avoid, rng)
    }
}

/// The orientation (a coin for a fresh split; fewer moves, then a coin, for
/// a re-balance) and the score as [`score`] gives it.
fn finish(
    problem: &Problem,
    model: &Model,
    mut dark: Vec<bool>,
    current: Option<&[Option<Side>]>,
    rng: &mut Rng,
) -> Split {
    let flip = match current {
        None => rng.coin(),
        Some(cur) => {
            let placed = placed_by_player(model.n, cur);
            let moved = dark.iter().zip(&placed).filter(|(d, p)| matches!(p, Some(c) if c != *d)).count();
            let total = placed.iter().flatten().count();
            match moved.cmp(&(total - moved)) {
                std::cmp::Ordering::Less => false,
                std::cmp::Ordering::Greater => true,
                std::cmp::Ordering::Equal => rng.coin(),
            }
        }
    };
    if flip {
        dark.iter_mut().for_each(|d| *d = !*d);
    }
    let sides: Vec<Side> = dark.iter().map(|&d| if d { Side::Dark } else { Side::Light }).collect();
    let score = score(problem, &sides, current);
    Split { sides, score }
}
