//! The ice bill: each player's share of what the ice cost, in whole cents
//! (docs/sides-and-bill.md › Who pays what).
//!
//! Shares follow from facts only — the cost, the goalie policy, who played
//! and what each person already paid — so they are worked out again on
//! every read and can never go stale. Paid amounts are facts: a recompute
//! never changes them; it splits what is left over the people who have not
//! paid, and shows what was paid beyond the cost as credit.

/// What a goalie pays against a skater.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GoaliePolicy {
    Free,
    Half,
    Full,
}

impl GoaliePolicy {
    pub const ALL: [GoaliePolicy; 3] = [GoaliePolicy::Free, GoaliePolicy::Half, GoaliePolicy::Full];

    pub fn as_str(self) -> &'static str {
        match self {
            GoaliePolicy::Free => "FREE",
            GoaliePolicy::Half => "HALF",
            GoaliePolicy::Full => "FULL",
        }
    }

    pub fn parse(text: &str) -> Option<GoaliePolicy> {
        GoaliePolicy::ALL.into_iter().find(|p| p.as_str() == text)
    }
}

/// A skater's weight; goalies weigh 0, 1 or 2 by the policy, so "half" is
/// exactly half without fractions.
pub const SKATER_WEIGHT: u64 = 2;

/// The organiser's terms for one event's ice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Terms {
    pub cost_cents: i64,
    pub goalie_policy: GoaliePolicy,
    /// The organiser's own share is included unless they opt out.
    pub organiser_pays: bool,
}

/// One person with a stake in the bill: anyone who played, and anyone who
/// paid and then dropped out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Payer {
    pub goalie: bool,
    pub organiser: bool,
    /// Played (in at the time of reading).
    pub present: bool,
    /// What they paid, when marked paid.
    pub paid_cents: Option<i64>,
}

/// One person's line of the bill.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Share {
    pub weight: u64,
    /// Owed when unpaid; what was paid when paid.
    pub amount_cents: i64,
    /// Paid beyond their part: all of it when they did not play.
    pub credit_cents: i64,
}

/// The bill worked out.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Bill {
    /// In the order of the payers given.
    pub shares: Vec<Share>,
    /// Left over when nobody unpaid with a weight remains to carry it (the
    /// cost went up after everyone paid): the organiser sees it.
    pub uncovered_cents: i64,
}

fn weight(terms: &Terms, payer: &Payer) -> u64 {
    if payer.organiser && !terms.organiser_pays {
        return 0;
    }
    if !payer.goalie {
        return SKATER_WEIGHT;
    }
    match terms.goalie_policy {
        GoaliePolicy::Free => 0,
        GoaliePolicy::Half => SKATER_WEIGHT / 2,
        GoaliePolicy::Full => SKATER_WEIGHT,
    }
}

/// Every payer's share. Pass payers in a stable order (by user id): the
/// extra cents of a split go to the first in that order.
pub fn work_out(terms: &Terms, payers: &[Payer]) -> Bill {
    let cost = terms.cost_cents.max(0);
    let mut shares: Vec<Share> =
        payers.iter().map(|p| Share { weight: weight(terms, p), ..Share::default() }).collect();
    let paid_in: i64 = payers.iter().filter(|p| p.present).filter_map(|p| p.paid_cents).map(|c| c.max(0)).sum();

    // Paid amounts stand; a payer who did not play has all of it as credit.
    for (share, payer) in shares.iter_mut().zip(payers) {
        if let Some(paid) = payer.paid_cents {
            share.amount_cents = paid.max(0);
            if !payer.present {
                share.credit_cents = paid.max(0);
            }
        }
    }

    // What is left goes over the unpaid players by weight.
    let unpaid: Vec<usize> =
        (0..payers.len()).filter(|&i| payers[i].present && payers[i].paid_cents.is_none()).collect();
    let left = (cost - paid_in).max(0);
    let weights: Vec<u64> = unpaid.iter().map(|&i| shares[i].weight).collect();
    let mut uncovered = 0;
    if weights.iter().sum::<u64>() > 0 {
        for (&i, part) in unpaid.iter().zip(split_by_weight(left, &weights)) {
            shares[i].amount_cents = part;
        }
    } else {
        uncovered = left;
    }

    // Paid beyond the cost by those who played: credit in proportion to
    // what each paid.
    let excess = paid_in - cost;
    if excess > 0 {
        let payers_in: Vec<usize> =
            (0..payers.len()).filter(|&i| payers[i].present && payers[i].paid_cents.is_some()).collect();
        let paid: Vec<u64> = payers_in.iter().map(|&i| shares[i].amount_cents.unsigned_abs()).collect();
        for (&i, part) in payers_in.iter().zip(split_by_weight(excess, &paid)) {
            shares[i].credit_cents = part;
        }
    }
    Bill { shares, uncovered_cents: uncovered }
}

/// `total` over `weights` by the largest-remainder method: whole units
/// that sum exactly to `total` (when any weight is non-zero), each within
/// one unit of its exact part; equal remainders go to the earlier index.
pub fn split_by_weight(total: i64, weights: &[u64]) -> Vec<i64> {
    let sum: u128 = weights.iter().map(|&w| u128::from(w)).sum();
    if sum == 0 || total <= 0 {
        return vec![0; weights.len()];
    }
    let total_u = total.unsigned_abs() as u128;
    let mut parts: Vec<i64> = Vec::with_capacity(weights.len());
    let mut remainders: Vec<(u128, usize)> = Vec::with_capacity(weights.len());
    for (i, &w) in weights.iter().enumerate() {
        let exact = total_u * u128::from(w);
        parts.push(i64::try_from(exact / sum).unwrap_or(i64::MAX));
        remainders.push((exact % sum, i));
    }
    let handed: i64 = parts.iter().sum();
    // Largest remainder first; on a tie the earlier index.
    remainders.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    for &(_, i) in remainders.iter().take(usize::try_from(total - handed).unwrap_or(0)) {
        parts[i] += 1;
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn skater() -> Payer {
        Payer { goalie: false, organiser: false, present: true, paid_cents: None }
    }

    fn goalie() -> Payer {
        Payer { goalie: true, ..skater() }
    }

    fn terms(cost: i64, policy: GoaliePolicy) -> Terms {
        Terms { cost_cents: cost, goalie_policy: policy, organiser_pays: true }
    }

    #[test]
    fn twenty_skaters_and_two_free_goalies_split_375_dollars_to_the_cent() {
        let mut payers = vec![skater(); 20];
        payers.extend([goalie(), goalie()]);
        let bill = work_out(&terms(37_500, GoaliePolicy::Free), &payers);
        let amounts: Vec<i64> = bill.shares.iter().map(|s| s.amount_cents).collect();
        assert_eq!(&amounts[..20], &[1875; 20]);
        assert_eq!(&amounts[20..], &[0, 0]);
    }

    #[test]
    fn the_extra_cents_go_to_the_first_payers() {
        assert_eq!(split_by_weight(100, &[1, 1, 1]), vec![34, 33, 33]);
        assert_eq!(split_by_weight(101, &[2, 2, 1]), vec![41, 40, 20]);
    }

    #[test]
    fn a_half_price_goalie_pays_half_a_skater() {
        let bill = work_out(&terms(1_000, GoaliePolicy::Half), &[skater(), skater(), goalie(), goalie()]);
        let amounts: Vec<i64> = bill.shares.iter().map(|s| s.amount_cents).collect();
        assert_eq!(amounts, vec![333, 333, 167, 167]);
    }

    #[test]
    fn an_organiser_who_opts_out_pays_nothing() {
        let organiser = Payer { organiser: true, ..skater() };
        let bill = work_out(
            &Terms { cost_cents: 900, goalie_policy: GoaliePolicy::Full, organiser_pays: false },
            &[organiser, skater(), skater(), skater()],
        );
        let amounts: Vec<i64> = bill.shares.iter().map(|s| s.amount_cents).collect();
        assert_eq!(amounts, vec![0, 300, 300, 300]);
    }

    #[test]
    fn a_cheaper_ice_leaves_the_payers_with_credit() {
        let paid = Payer { paid_cents: Some(500), ..skater() };
        let bill = work_out(&terms(600, GoaliePolicy::Full), &[paid, paid, skater()]);
        assert_eq!(bill.shares[0], Share { weight: 2, amount_cents: 500, credit_cents: 200 });
        assert_eq!(bill.shares[1], Share { weight: 2, amount_cents: 500, credit_cents: 200 });
        assert_eq!(bill.shares[2].amount_cents, 0);
    }

    #[test]
    fn a_payer_who_dropped_out_has_it_all_as_credit() {
        let gone = Payer { present: false, paid_cents: Some(1_250), ..skater() };
        let bill = work_out(&terms(2_000, GoaliePolicy::Full), &[gone, skater(), skater()]);
        assert_eq!(bill.shares[0].credit_cents, 1_250);
        assert_eq!(bill.shares[1].amount_cents + bill.shares[2].amount_cents, 2_000);
    }

    #[test]
    fn a_dearer_ice_after_everyone_paid_is_uncovered() {
        let paid = Payer { paid_cents: Some(500), ..skater() };
        let bill = work_out(&terms(1_200, GoaliePolicy::Full), &[paid, paid, goalie()]);
        assert_eq!((bill.shares[2].amount_cents, bill.uncovered_cents), (200, 0), "an unpaid goalie carries it");
        let free = work_out(&terms(1_200, GoaliePolicy::Free), &[paid, paid, goalie()]);
        assert_eq!(free.uncovered_cents, 200, "a free goalie carries nothing");
    }

    fn payers() -> impl Strategy<Value = Vec<Payer>> {
        proptest::collection::vec(
            (any::<bool>(), any::<bool>(), prop::bool::weighted(0.85), prop::option::weighted(0.3, 0i64..5_000))
                .prop_map(|(goalie, organiser, present, paid_cents)| Payer { goalie, organiser, present, paid_cents }),
            0..30,
        )
    }

    fn policy() -> impl Strategy<Value = GoaliePolicy> {
        prop::sample::select(GoaliePolicy::ALL.to_vec())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// Owed plus paid, less credit and what nobody carries, is the
        /// cost, to the cent, for any attendance and payments.
        #[test]
        fn shares_sum_exactly_to_the_cost(cost in 0i64..10_000_000, policy in policy(), organiser_pays in any::<bool>(), payers in payers()) {
            let terms = Terms { cost_cents: cost, goalie_policy: policy, organiser_pays };
            let bill = work_out(&terms, &payers);
            let present: Vec<(&Payer, &Share)> = payers.iter().zip(&bill.shares).filter(|(p, _)| p.present).collect();
            if present.is_empty() {
                return Ok(());
            }
            let owed: i64 = present.iter().filter(|(p, _)| p.paid_cents.is_none()).map(|(_, s)| s.amount_cents).sum();
            let paid: i64 = present.iter().filter_map(|(p, _)| p.paid_cents).sum();
            let credit: i64 = present.iter().map(|(_, s)| s.credit_cents).sum();
            prop_assert_eq!(owed + paid - credit + bill.uncovered_cents, cost);
        }

        /// Nobody has paid: every cent is owed by someone, and equal
        /// weights owe within a cent of each other.
        #[test]
        fn fresh_shares_follow_the_goalie_policy(cost in 0i64..10_000_000, policy in policy(), skaters in 1usize..30, goalies in 0usize..4) {
            let mut payers = vec![skater(); skaters];
            payers.extend(vec![goalie(); goalies]);
            let bill = work_out(&terms(cost, policy), &payers);
            let amounts: Vec<i64> = bill.shares.iter().map(|s| s.amount_cents).collect();
            prop_assert_eq!(amounts.iter().sum::<i64>(), cost);
            let (lo, hi) = (amounts[..skaters].iter().min().copied().unwrap_or(0), amounts[..skaters].iter().max().copied().unwrap_or(0));
            prop_assert!(hi - lo <= 1);
            for &g in &amounts[skaters..] {
                match policy {
                    GoaliePolicy::Free => prop_assert_eq!(g, 0),
                    GoaliePolicy::Half => prop_assert!((2 * g - lo).abs() <= 2, "goalie {} skater {}", g, lo),
                    GoaliePolicy::Full => prop_assert!(g >= lo - 1 && g <= hi + 1),
                }
            }
        }

        /// A recompute — new cost, policy or attendance — leaves every
        /// paid amount as it was.
        #[test]
        fn paid_shares_never_change_on_recompute(cost in 0i64..10_000_000, other in 0i64..10_000_000, policy in policy(), payers in payers()) {
            let before = work_out(&terms(cost, policy), &payers);
            let mut moved = payers.clone();
            for (i, p) in moved.iter_mut().enumerate() {
                if i % 3 == 0 { p.present = !p.present; }
            }
            let after = work_out(&terms(other, GoaliePolicy::Full), &moved);
            for ((p, b), a) in payers.iter().zip(&before.shares).zip(&after.shares) {
                if let Some(paid) = p.paid_cents {
                    prop_assert_eq!(b.amount_cents, paid);
                    prop_assert_eq!(a.amount_cents, paid);
                }
            }
        }

        #[test]
        fn a_split_is_within_one_unit_of_exact(total in 0i64..1_000_000_000, weights in proptest::collection::vec(0u64..10, 1..40)) {
            let parts = split_by_weight(total, &weights);
            let sum: u64 = weights.iter().sum();
            if sum > 0 {
                prop_assert_eq!(parts.iter().sum::<i64>(), total);
                for (p, w) in parts.iter().zip(&weights) {
                    let exact = total as f64 * *w as f64 / sum as f64;
                    prop_assert!((*p as f64 - exact).abs() < 1.0 + 1e-6);
                }
            }
        }
    }
}
