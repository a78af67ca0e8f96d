//! Exact conditional permutation distribution of the Siegel–Tukey rank sum, without enumeration.
//!
//! Given the tie groups of the pooled sample, the sum `S` of the (tie-averaged) scores of the first
//! sample under the null hypothesis is the sum over a uniformly random `m`-subset of the `N` scores.
//! Choosing `k_g` members of group `g` (size `c_g`, score `R_g / c_g`) happens in `prod C(c_g, k_g)`
//! ways, so a dynamic programme over (items chosen, score sum) gives the whole distribution in
//! `O(N * m * range)` instead of `C(N, m)` enumerations. Scores are put on a common integer unit
//! (`lcm` of the reduced denominators, divided by the `gcd` of the results), so every comparison
//! below is exact: the p-value does not depend on floating-point ties.
//!
//! The distribution depends only on `m`, `n` and the tie pattern (the sizes of the runs of equal
//! values in sorted order), which is what [`DistCache`] keys on: 5-vs-5 scores on a 1–10 scale have
//! at most 2^9 patterns, so a batch of millions of pairs builds a few hundred distributions.

use num_integer::gcd;
use rustc_hash::FxHashMap as HashMap;
use std::sync::{OnceLock, RwLock};

use super::ranks::{st_rank, TieGroup};

/// The most dynamic-programme cell updates `method="auto"` spends before it switches to the normal
/// approximation: about 30 ms, which covers every sample without ties up to N ≈ 100 and every
/// sample up to N = 16 whatever its ties.
pub const AUTO_EXACT_WORK: u64 = 1 << 25;
/// The most work `method="exact"` accepts (a few seconds); above it the call is refused rather
/// than left to run for minutes.
pub const EXACT_WORK_MAX: u64 = 1 << 31;
/// Dense tables above this many cells (64 MiB of f64) use the sparse programme instead.
const DENSE_CELLS_MAX: u64 = 1 << 23;
/// A hash-map update costs about this many dense cell updates.
const SPARSE_COST: u64 = 8;
/// Pooled sizes up to this use the lock-free pattern-indexed slots of [`DistCache`].
pub const SLOT_MAX_N: usize = 16;

/// The exact null distribution of the first sample's score sum, on an integer unit.
#[derive(Debug, Clone)]
pub struct NullDist {
    /// Score of one member of each tie group, in units (same order as the groups given).
    weights: Vec<i64>,
    /// Units per rank point, as the fraction `unit_num / unit_den` (rank sums times it are units).
    unit_num: i64,
    unit_den: i64,
    /// Achievable values of S (units), ascending.
    values: Vec<i64>,
    /// Number of subsets with S <= values[i] and with S >= values[i].
    cum_lo: Vec<f64>,
    cum_hi: Vec<f64>,
    total: f64,
    m: i64,
    n_all: i64,
    /// Sum of all N scores (units).
    tot: i64,
    /// `[P(S <= s), P(S >= s), two-sided]` for every s in `lut_base..lut_base + lut.len()`, when
    /// that range is short: a batch then reads its p-values without a binary search (whose
    /// mispredicted branches cost more than the rest of a 5-vs-5 test).
    lut_base: i64,
    lut: Vec<[f64; 3]>,
}

/// Longest value range that gets a p-value table (96 KiB).
const LUT_MAX: i64 = 1 << 12;

/// The plan for one distribution: units and the work it will take.
#[derive(Debug, Clone)]
struct Plan {
    weights: Vec<i64>,
    unit_num: i64,
    unit_den: i64,
    /// Subset size the programme runs over (the smaller sample) and whether that is the second one.
    k: usize,
    flipped: bool,
    width: u64,
    dense: bool,
    work: u64,
}

fn plan(m: usize, groups: &[TieGroup]) -> Option<Plan> {
    let n_all: usize = groups.iter().map(|g| g.size as usize).sum();
    let n = n_all.checked_sub(m)?;
    // Common denominator of the averaged scores R_g / c_g.
    let mut lcm: u64 = 1;
    for g in groups {
        let d = u64::from(g.size) / gcd(g.rank_sum, u64::from(g.size));
        lcm = lcm.checked_mul(d / gcd(lcm, d))?;
    }
    let mut raw: Vec<u64> = Vec::with_capacity(groups.len());
    for g in groups {
        raw.push(g.rank_sum.checked_mul(lcm)? / u64::from(g.size));
    }
    let common = raw.iter().fold(0, |a, &b| gcd(a, b)).max(1);
    let weights: Vec<i64> = raw
        .iter()
        .map(|&w| i64::try_from(w / common).ok())
        .collect::<Option<_>>()?;
    let (k, flipped) = if m <= n { (m, false) } else { (n, true) };
    // Largest sum of k scores: take the heaviest items first.
    let mut by_weight: Vec<(i64, u32)> = weights
        .iter()
        .zip(groups)
        .map(|(&w, g)| (w, g.size))
        .collect();
    by_weight.sort_unstable_by_key(|e| std::cmp::Reverse(e.0));
    let (mut left, mut max_sum) = (k as u64, 0u64);
    for (w, c) in by_weight {
        let take = left.min(u64::from(c));
        max_sum = max_sum.checked_add(take.checked_mul(w as u64)?)?;
        left -= take;
    }
    let tot: u64 = weights
        .iter()
        .zip(groups)
        .map(|(&w, g)| w as u64 * u64::from(g.size))
        .sum();
    i64::try_from(tot.checked_mul(n_all as u64)?.checked_mul(2)?).ok()?;
    let width = max_sum + 1;
    let rows = k as u64 + 1;
    let per_row_states = {
        let mut prod: u64 = 1;
        for g in groups {
            prod = prod.saturating_mul(u64::from(g.size).min(k as u64) + 1);
        }
        prod.min(width)
    };
    let dense_cells = rows.saturating_mul(width);
    let dense_work = dense_cells.saturating_mul(n_all as u64);
    let sparse_work = rows
        .saturating_mul(per_row_states)
        .saturating_mul(n_all as u64)
        .saturating_mul(SPARSE_COST);
    let dense = dense_cells <= DENSE_CELLS_MAX && dense_work <= sparse_work;
    let work = if dense { dense_work } else { sparse_work };
    Some(Plan {
        weights,
        unit_num: i64::try_from(lcm).ok()?,
        unit_den: i64::try_from(common).ok()?,
        k,
        flipped,
        width,
        dense,
        work,
    })
}

/// Estimated cost (dense cell updates) of [`NullDist::build`]; `None` when the scores do not fit
/// the integer unit at all.
pub fn work_estimate(m: usize, groups: &[TieGroup]) -> Option<u64> {
    plan(m, groups).map(|p| p.work)
}

fn binomials(c: u32) -> Vec<f64> {
    let mut row = vec![1.0f64; c as usize + 1];
    for j in 1..=c as usize {
        row[j] = row[j - 1] * (c as usize + 1 - j) as f64 / j as f64;
    }
    // Round to the exact integers they are (exact below 2^53).
    row.iter_mut().for_each(|v| *v = v.round());
    row
}

/// Counts of subsets by score sum for subsets of exactly `k` items: dense table.
fn counts_dense(k: usize, width: usize, weights: &[i64], groups: &[TieGroup]) -> Vec<(i64, f64)> {
    let mut dp = vec![0.0f64; (k + 1) * width];
    dp[0] = 1.0;
    // reach[r]: the largest sum reachable with r items so far (None: no subset of that size yet).
    let mut reach: Vec<Option<usize>> = vec![None; k + 1];
    reach[0] = Some(0);
    for (g, &w) in groups.iter().zip(weights) {
        let w = w as usize;
        let c = (g.size as usize).min(k);
        let binom = binomials(g.size);
        // Descending rows: row r reads rows r - j that still hold the previous groups' counts.
        for r in (1..=k).rev() {
            let (lower, upper) = dp.split_at_mut(r * width);
            let row = &mut upper[..width];
            for j in 1..=c.min(r) {
                let Some(src_reach) = reach[r - j] else {
                    continue;
                };
                let shift = j * w;
                let coef = binom[j];
                let src = &lower[(r - j) * width..(r - j) * width + src_reach + 1];
                for (dst, &s) in row[shift..shift + src_reach + 1].iter_mut().zip(src) {
                    *dst += s * coef;
                }
                let top = src_reach + shift;
                reach[r] = Some(reach[r].map_or(top, |t| t.max(top)));
            }
        }
    }
    let last = &dp[k * width..(k + 1) * width];
    last.iter()
        .enumerate()
        .filter(|(_, &c)| c > 0.0)
        .map(|(s, &c)| (s as i64, c))
        .collect()
}

/// The same programme over hash maps, for units too fine for a dense table.
fn counts_sparse(k: usize, weights: &[i64], groups: &[TieGroup]) -> Vec<(i64, f64)> {
    let mut dp: Vec<HashMap<i64, f64>> = vec![HashMap::default(); k + 1];
    dp[0].insert(0, 1.0);
    for (g, &w) in groups.iter().zip(weights) {
        let c = (g.size as usize).min(k);
        let binom = binomials(g.size);
        for r in (1..=k).rev() {
            let (lower, upper) = dp.split_at_mut(r);
            let row = &mut upper[0];
            for j in 1..=c.min(r) {
                let coef = binom[j];
                let shift = j as i64 * w;
                for (&s, &cnt) in &lower[r - j] {
                    *row.entry(s + shift).or_insert(0.0) += cnt * coef;
                }
            }
        }
    }
    let mut out: Vec<(i64, f64)> = dp.swap_remove(k).into_iter().collect();
    out.sort_unstable_by_key(|p| p.0);
    out
}

impl NullDist {
    /// Build the distribution of the first sample's score sum (`m` members) for these tie groups,
    /// refusing when the work estimate exceeds `max_work`.
    pub fn build(m: usize, groups: &[TieGroup], max_work: u64) -> Option<NullDist> {
        let p = plan(m, groups)?;
        if p.work > max_work {
            return None;
        }
        let counts = if p.dense {
            counts_dense(p.k, p.width as usize, &p.weights, groups)
        } else {
            counts_sparse(p.k, &p.weights, groups)
        };
        let n_all: usize = groups.iter().map(|g| g.size as usize).sum();
        let tot: i64 = p
            .weights
            .iter()
            .zip(groups)
            .map(|(&w, g)| w * i64::from(g.size))
            .sum();
        // The programme ran over the smaller sample; S of the first sample is tot - T then.
        let mut pairs = counts;
        if p.flipped {
            pairs.iter_mut().for_each(|e| e.0 = tot - e.0);
            pairs.reverse();
        }
        let values: Vec<i64> = pairs.iter().map(|e| e.0).collect();
        let mut cum_lo = Vec::with_capacity(pairs.len());
        let mut acc = 0.0;
        for e in &pairs {
            acc += e.1;
            cum_lo.push(acc);
        }
        let mut cum_hi = vec![0.0; pairs.len()];
        let mut acc = 0.0;
        for (i, e) in pairs.iter().enumerate().rev() {
            acc += e.1;
            cum_hi[i] = acc;
        }
        let mut dist = NullDist {
            weights: p.weights,
            unit_num: p.unit_num,
            unit_den: p.unit_den,
            values,
            cum_lo,
            cum_hi,
            total: acc,
            m: m as i64,
            n_all: n_all as i64,
            tot,
            lut_base: 0,
            lut: Vec::new(),
        };
        if let (Some(&lo), Some(&hi)) = (dist.values.first(), dist.values.last()) {
            if hi - lo < LUT_MAX {
                let lut = (lo..=hi)
                    .map(|v| [dist.p_le(v), dist.p_ge(v), dist.p_two_sided(v)])
                    .collect();
                (dist.lut_base, dist.lut) = (lo, lut);
            }
        }
        Some(dist)
    }

    /// `[P(S <= s), P(S >= s), P(|S - E S| >= |s - E S|)]`, from the table when s is in it.
    #[inline]
    pub fn p_all(&self, s: i64) -> [f64; 3] {
        match usize::try_from(s - self.lut_base)
            .ok()
            .and_then(|i| self.lut.get(i))
        {
            Some(p) => *p,
            None => [self.p_le(s), self.p_ge(s), self.p_two_sided(s)],
        }
    }

    /// The observed statistic in units, from how many first-sample members each group holds.
    pub fn observed(&self, groups: &[TieGroup]) -> i64 {
        groups
            .iter()
            .zip(&self.weights)
            .map(|(g, &w)| i64::from(g.in_first) * w)
            .sum()
    }

    /// A value in units as a rank sum (one rounding when the product stays below 2^53).
    pub fn rank_sum_of_units(&self, s: i64) -> f64 {
        (s as f64 * self.unit_den as f64) / self.unit_num as f64
    }

    /// An integer rank sum in units, when it is a whole number of units.
    pub fn units_of_rank_sum(&self, rank_sum: i64) -> Option<i64> {
        let scaled = rank_sum.checked_mul(self.unit_num)?;
        (scaled % self.unit_den == 0).then_some(scaled / self.unit_den)
    }

    /// P(S <= s).
    pub fn p_le(&self, s: i64) -> f64 {
        let i = self.values.partition_point(|&v| v <= s);
        if i == 0 {
            0.0
        } else {
            self.cum_lo[i - 1] / self.total
        }
    }

    /// P(S >= s).
    pub fn p_ge(&self, s: i64) -> f64 {
        let i = self.values.partition_point(|&v| v < s);
        self.cum_hi.get(i).map_or(0.0, |c| c / self.total)
    }

    /// P(|S - E S| >= |s - E S|), exactly: compared as `N S - m tot` in integers.
    pub fn p_two_sided(&self, s: i64) -> f64 {
        let (n_all, m, tot) = (
            i128::from(self.n_all),
            i128::from(self.m),
            i128::from(self.tot),
        );
        let centre = m * tot;
        let d = (n_all * i128::from(s) - centre).abs();
        if d == 0 {
            return 1.0;
        }
        let lo = self
            .values
            .partition_point(|&v| n_all * i128::from(v) <= centre - d);
        let hi = self
            .values
            .partition_point(|&v| n_all * i128::from(v) < centre + d);
        let p_lo = if lo == 0 { 0.0 } else { self.cum_lo[lo - 1] };
        let p_hi = self.cum_hi.get(hi).copied().unwrap_or(0.0);
        ((p_lo + p_hi) / self.total).min(1.0)
    }
}

/// Tie pattern of at most [`SLOT_MAX_N`] observations as a bit mask: bit i set when sorted positions
/// i and i + 1 hold different values.
fn pattern_mask(groups: &[TieGroup]) -> usize {
    let mut mask = 0usize;
    let mut pos = 0usize;
    for g in &groups[..groups.len() - 1] {
        pos += g.size as usize;
        mask |= 1 << (pos - 1);
    }
    mask
}

/// Tie groups (without sample membership) of a pattern mask.
fn groups_of_mask(n_all: usize, mask: usize) -> Vec<TieGroup> {
    let mut groups = Vec::new();
    let mut g = TieGroup {
        size: 0,
        rank_sum: 0,
        in_first: 0,
    };
    for pos in 0..n_all {
        g.size += 1;
        g.rank_sum += st_rank(pos, n_all);
        if pos + 1 == n_all || mask & (1 << pos) != 0 {
            groups.push(g);
            g = TieGroup {
                size: 0,
                rank_sum: 0,
                in_first: 0,
            };
        }
    }
    groups
}

type SlotTable = Box<[OnceLock<Option<NullDist>>]>;

/// Null distributions shared by the threads of a batch, keyed by (m, n, tie pattern).
///
/// Small pooled sizes (N ≤ 16) index a table of `OnceLock`s by the pattern bit mask: after the
/// first build a lookup is one atomic load, so threads never contend. Larger sizes go through a
/// read-write-locked map.
pub struct DistCache {
    max_work: u64,
    slots: Vec<OnceLock<SlotTable>>,
    map: RwLock<HashMap<Vec<u32>, Option<std::sync::Arc<NullDist>>>>,
}

/// A borrowed or shared distribution from the cache.
pub enum DistRef<'a> {
    Slot(&'a NullDist),
    Shared(std::sync::Arc<NullDist>),
}

impl std::ops::Deref for DistRef<'_> {
    type Target = NullDist;
    fn deref(&self) -> &NullDist {
        match self {
            DistRef::Slot(d) => d,
            DistRef::Shared(d) => d,
        }
    }
}

impl DistCache {
    /// A cache whose distributions are built only when they cost at most `max_work`.
    pub fn new(max_work: u64) -> Self {
        let slots = (0..(SLOT_MAX_N + 1) * (SLOT_MAX_N + 1))
            .map(|_| OnceLock::new())
            .collect();
        DistCache {
            max_work,
            slots,
            map: RwLock::new(HashMap::default()),
        }
    }

    /// The distribution for `m` first-sample members among these groups, or `None` when it is too
    /// large to build. `key` is scratch space for the map key.
    pub fn get(&self, m: usize, groups: &[TieGroup], key: &mut Vec<u32>) -> Option<DistRef<'_>> {
        let n_all: usize = groups.iter().map(|g| g.size as usize).sum();
        let n = n_all - m;
        if n_all <= SLOT_MAX_N {
            let table = self.slots[m * (SLOT_MAX_N + 1) + n].get_or_init(|| {
                (0..1usize << (n_all - 1))
                    .map(|_| OnceLock::new())
                    .collect()
            });
            let mask = pattern_mask(groups);
            let slot = table[mask]
                .get_or_init(|| NullDist::build(m, &groups_of_mask(n_all, mask), self.max_work));
            return slot.as_ref().map(DistRef::Slot);
        }
        key.clear();
        key.push(m as u32);
        key.push(n as u32);
        key.extend(groups.iter().map(|g| g.size));
        // A poisoned lock only means another thread panicked mid-insert; the map is still valid.
        if let Some(hit) = self
            .map
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(key.as_slice())
        {
            return hit.clone().map(DistRef::Shared);
        }
        let built = NullDist::build(m, groups, self.max_work).map(std::sync::Arc::new);
        self.map
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key.clone(), built.clone());
        built.map(DistRef::Shared)
    }
}

#[cfg(test)]
mod tests {
    use super::super::ranks::pooled_groups;
    use super::*;
    use proptest::prelude::*;

    /// Enumerate all C(N, m) splits with exact rational scores (denominators cleared by N!-free
    /// cross-multiplication): the slow oracle for the dynamic programme.
    fn enumerate(x: &[f64], y: &[f64]) -> (f64, f64, f64) {
        let groups = pooled_groups(x, y);
        // Per-observation exact scores as (numerator, denominator).
        let mut items: Vec<(u64, u64)> = Vec::new();
        for g in &groups {
            for _ in 0..g.size {
                items.push((g.rank_sum, u64::from(g.size)));
            }
        }
        let denom: u64 = items.iter().fold(1, |l, &(_, d)| l / gcd(l, d) * d);
        let units: Vec<i64> = items
            .iter()
            .map(|&(r, d)| (r * (denom / d)) as i64)
            .collect();
        let m = x.len();
        let n_all = units.len();
        let tot: i64 = units.iter().sum();
        let s_obs: i64 = groups
            .iter()
            .map(|g| i64::from(g.in_first) * (g.rank_sum * (denom / u64::from(g.size))) as i64)
            .sum();
        let (mut le, mut ge, mut two, mut total) = (0u64, 0u64, 0u64, 0u64);
        for mask in 0u32..(1 << n_all) {
            if mask.count_ones() as usize != m {
                continue;
            }
            let s: i64 = (0..n_all)
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| units[i])
                .sum();
            total += 1;
            le += u64::from(s <= s_obs);
            ge += u64::from(s >= s_obs);
            let d = |v: i64| (n_all as i64 * v - m as i64 * tot).abs();
            two += u64::from(d(s) >= d(s_obs));
        }
        (
            le as f64 / total as f64,
            ge as f64 / total as f64,
            two as f64 / total as f64,
        )
    }

    fn exact(x: &[f64], y: &[f64]) -> (f64, f64, f64) {
        let groups = pooled_groups(x, y);
        let d = NullDist::build(x.len(), &groups, u64::MAX).unwrap();
        let s = d.observed(&groups);
        (d.p_le(s), d.p_ge(s), d.p_two_sided(s))
    }

    #[test]
    fn reference_example_one() {
        let (le, ge, two) = exact(&[5., 5., 6., 6., 5.], &[1., 3., 5., 8., 10.]);
        assert!((two - 1.0 / 21.0).abs() < 1e-15);
        assert!((ge - 0.023809523809523808).abs() < 1e-15);
        assert!((le - 0.9920634920634921).abs() < 1e-15);
    }

    #[test]
    fn reference_example_five_cross_group_tie() {
        let (_, _, two) = exact(&[4., 6., 7., 3., 8.], &[2., 9., 6., 1., 10.]);
        assert!((two - 13.0 / 126.0).abs() < 1e-15);
    }

    #[test]
    fn sparse_and_dense_programmes_agree() {
        let groups = pooled_groups(
            &[1., 1., 2., 3., 3., 3., 7.5],
            &[2., 2., 4., 4., 4., 4., 9., 1.],
        );
        let p = plan(7, &groups).unwrap();
        let mut dense = counts_dense(p.k, p.width as usize, &p.weights, &groups);
        let mut sparse = counts_sparse(p.k, &p.weights, &groups);
        dense.sort_unstable_by_key(|e| e.0);
        sparse.sort_unstable_by_key(|e| e.0);
        assert_eq!(dense, sparse);
    }

    #[test]
    fn budget_refuses_large_work() {
        let x: Vec<f64> = (0..400).map(f64::from).collect();
        let y: Vec<f64> = (0..400).map(|v| f64::from(v) + 0.5).collect();
        let groups = pooled_groups(&x, &y);
        assert!(work_estimate(400, &groups).unwrap() > EXACT_WORK_MAX);
        assert!(NullDist::build(400, &groups, EXACT_WORK_MAX).is_none());
    }

    #[test]
    fn cache_slots_and_map_give_the_built_distribution() {
        let cache = DistCache::new(EXACT_WORK_MAX);
        let mut key = Vec::new();
        for (x, y) in [
            (vec![5., 5., 6., 6., 5.], vec![1., 3., 5., 8., 10.]),
            (
                (0..9).map(|v| f64::from(v % 4)).collect(),
                (0..12).map(|v| f64::from(v % 5)).collect(),
            ),
        ] {
            let groups = pooled_groups(&x, &y);
            let direct = NullDist::build(x.len(), &groups, u64::MAX).unwrap();
            for _ in 0..2 {
                let cached = cache.get(x.len(), &groups, &mut key).unwrap();
                let s = cached.observed(&groups);
                assert_eq!(s, direct.observed(&groups));
                assert_eq!(cached.p_two_sided(s), direct.p_two_sided(s));
            }
        }
    }

    fn sample(max_len: usize) -> impl Strategy<Value = Vec<f64>> {
        // Few distinct values so that ties, including cross-sample ties, are common.
        prop::collection::vec(
            prop_oneof![
                (0i32..6).prop_map(f64::from),
                (0i32..40).prop_map(|v| f64::from(v) / 7.0)
            ],
            1..=max_len,
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        #[test]
        fn programme_equals_enumeration(x in sample(7), y in sample(7)) {
            let (a, b) = (exact(&x, &y), enumerate(&x, &y));
            prop_assert!((a.0 - b.0).abs() < 1e-12 && (a.1 - b.1).abs() < 1e-12 && (a.2 - b.2).abs() < 1e-12,
                "{:?} vs {:?}", a, b);
        }
    }
}
