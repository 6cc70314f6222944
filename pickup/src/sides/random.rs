//! The seeded draws both searches share: a small portable generator, so a
//! stored seed reproduces its split, and the reservoir that keeps one of
//! the best splits, uniformly among equal scores.

use super::Score;

/// splitmix64: tiny, good enough for tie-breaking, and the same numbers on
/// every platform, so a stored seed reproduces its split.
#[derive(Debug, Clone)]
pub(super) struct Rng(u64);

impl Rng {
    pub(super) fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub(super) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in 0..n (n > 0) by multiply-shift; the bias, n / 2⁶⁴, is far
    /// below anything a pickup night could notice.
    pub(super) fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next()) * u128::from(n)) >> 64) as u64
    }

    /// Uniform in 0..n for a count of splits, which may pass 2⁶⁴ only in
    /// theory (64 players, both orientations): saturating is then fine.
    fn below_wide(&mut self, n: u128) -> u128 {
        u128::from(self.below(u64::try_from(n).unwrap_or(u64::MAX)))
    }

    pub(super) fn coin(&mut self) -> bool {
        self.next() >> 63 == 1
    }

    pub(super) fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            v.swap(i, j);
        }
    }
}

/// The best key seen and one of the splits holding it, chosen uniformly
/// among all offered with that key (weighted reservoir sampling: an item
/// may stand for several splits).
pub(super) struct Reservoir<T> {
    pub(super) best: Option<(Score, bool)>,
    /// Splits seen with the best key.
    seen: u128,
    pub(super) pick: Option<T>,
}

impl<T> Reservoir<T> {
    pub(super) fn new() -> Self {
        Reservoir { best: None, seen: 0, pick: None }
    }

    /// `avoided` ranks a split after every other of the same score (the
    /// re-roll's current split); `weight` is how many splits `item` stands
    /// for.
    pub(super) fn offer(&mut self, score: Score, avoided: bool, weight: u128, item: impl FnOnce() -> T, rng: &mut Rng) {
        let key = (score, avoided);
        match self.best {
            Some(b) if key > b => {}
            Some(b) if key == b => {
                self.seen += weight;
                if rng.below_wide(self.seen) < weight {
                    self.pick = Some(item());
                }
            }
            _ => {
                self.best = Some(key);
                self.seen = weight;
                self.pick = Some(item());
            }
        }
    }
}
