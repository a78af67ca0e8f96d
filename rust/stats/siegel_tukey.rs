//! The Siegel–Tukey test for equal dispersion of two samples.
//!
//! Two definitions of the p-value are offered:
//! - [`Variant::Exact`] (default): the exact conditional permutation p-value of the sum `S` of the
//!   tie-averaged Siegel–Tukey scores of `x` (jmuOutlier's `siegel.test`, SciPy's
//!   `permutation_test`). It does not depend on how ties are broken. Above a size limit, or on
//!   request, the normal approximation with the permutation (tie-corrected) variance is used.
//! - [`Variant::DescTools`]: DescTools' `SiegelTukeyTest` as published (one median observation
//!   dropped when N is odd, then `wilcox.test` on the ST ranks with continuity correction), so
//!   numbers in papers that used it can be reproduced.

use super::exact::{work_estimate, DistCache, AUTO_EXACT_WORK, EXACT_WORK_MAX, SLOT_MAX_N};
use super::normal;
use super::ranks::{merge_sorted, ordered_bits, st_rank, st_rank_table, tie_groups_into, TieGroup};
use crate::error::{Error, Result};
use crate::names::str_enum;

/// The alternative hypothesis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Alternative {
    TwoSided,
    /// `x` is more dispersed than `y` (scale ratio x/y > 1): a small ST score sum of `x`.
    Greater,
    /// `x` is less dispersed than `y`: a large ST score sum of `x`.
    Less,
}

/// How the p-value is computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Exact when the exact computation is cheap (see [`AUTO_EXACT_WORK`]), else asymptotic.
    Auto,
    Exact,
    Asymptotic,
}

/// Which published definition of the test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// Exact conditional permutation test on tie-averaged scores (jmuOutlier).
    Exact,
    /// DescTools 0.99.59 `SiegelTukeyTest` defaults.
    DescTools,
}

/// The method a p-value was actually computed with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MethodUsed {
    /// Code 0 in batch output.
    Exact = 0,
    /// Code 1 in batch output.
    Asymptotic = 1,
}

str_enum!(Alternative, "alternative" { TwoSided => "two-sided", Greater => "greater", Less => "less" });
str_enum!(Method, "method" { Auto => "auto", Exact => "exact", Asymptotic => "asymptotic" });
str_enum!(Variant, "variant" { Exact => "exact", DescTools => "desctools" });
str_enum!(MethodUsed, "method" { Exact => "exact", Asymptotic => "asymptotic" });

/// Options of one test (or of every row of a batch).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    pub alternative: Alternative,
    pub method: Method,
    pub variant: Variant,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            alternative: Alternative::TwoSided,
            method: Method::Auto,
            variant: Variant::Exact,
        }
    }
}

/// Result of one test.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TestResult {
    /// Variant exact: sum of the tie-averaged ST scores of `x`. Variant desctools: DescTools' `ST`,
    /// the score sum of the smaller sample (`x` when the sizes are equal) after the median drop.
    pub statistic: f64,
    pub pvalue: f64,
    pub method: MethodUsed,
}

/// Why a test has no p-value. Single calls turn it into [`Error::Domain`]; batches report it per
/// row with a NaN p-value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Ok = 0,
    /// A sample has fewer than 2 values (in a batch: fewer than 2 non-NaN values).
    TooFew = 1,
    /// A value is infinite (or, in a single call, NaN).
    NonFinite = 2,
    /// Every pooled value is equal: there is no dispersion to compare.
    AllTied = 3,
    /// `method="exact"` was asked for a distribution above [`EXACT_WORK_MAX`].
    TooLarge = 4,
    /// `variant="desctools", method="exact"` with ties: wilcox.test has no exact p-value then.
    TiesNoExact = 5,
    /// `variant="desctools"`: every Siegel–Tukey score is equal (after the median drop), so the
    /// normal approximation is 0/0; R returns NaN.
    ZeroVariance = 6,
}

str_enum!(Status, "status" {
    Ok => "ok",
    TooFew => "too_few",
    NonFinite => "non_finite",
    AllTied => "all_tied",
    TooLarge => "too_large",
    TiesNoExact => "ties_no_exact",
    ZeroVariance => "zero_variance",
});

impl Status {
    /// One-line reason for an error message.
    pub fn reason(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::TooFew => "each sample needs at least 2 values",
            Status::NonFinite => "values must be finite (no NaN or infinity)",
            Status::AllTied => "all values are tied, so there is no dispersion to compare",
            Status::TooLarge => "the exact distribution is too large to compute; use method='asymptotic' or 'auto'",
            Status::TiesNoExact => {
                "DescTools (wilcox.test) has no exact p-value with ties; use method='auto' or 'asymptotic'"
            }
            Status::ZeroVariance => {
                "all Siegel-Tukey ranks are equal, so DescTools' normal approximation is 0/0 (R returns NaN)"
            }
        }
    }
}

/// Reusable buffers, one per thread in a batch.
#[derive(Default)]
pub struct Scratch {
    /// The samples as [`ordered_bits`], and both merged in sorted order.
    xs: Vec<u64>,
    ys: Vec<u64>,
    sorted: Vec<(u64, bool)>,
    /// Siegel–Tukey ranks for the current pooled size.
    ranks: Vec<u64>,
    groups: Vec<TieGroup>,
    /// Cache-key buffer for [`DistCache::get`].
    key: Vec<u32>,
    /// DescTools re-ranking buffers.
    order: Vec<usize>,
    midrank: Vec<f64>,
}

/// Run the test on two samples. Every value must be finite; each sample needs 2 values.
pub fn siegel_tukey(x: &[f64], y: &[f64], opts: Options) -> Result<TestResult> {
    for (name, v) in [("x", x), ("y", y)] {
        if v.len() < 2 {
            return Err(Error::Domain(format!(
                "{name} has {} value(s): {}",
                v.len(),
                Status::TooFew.reason()
            )));
        }
        if let Some(i) = v.iter().position(|a| !a.is_finite()) {
            return Err(Error::Domain(format!(
                "{name}[{i}] is {}: {}",
                v[i],
                Status::NonFinite.reason()
            )));
        }
    }
    let cache = DistCache::new(EXACT_WORK_MAX);
    let mut scratch = Scratch::default();
    test_with(
        x.iter().copied(),
        y.iter().copied(),
        opts,
        &cache,
        &mut scratch,
    )
    .map_err(|s| Error::Domain(s.reason().to_string()))
}

/// The test on the values of two iterators (a batch row without its NaN padding).
pub fn test_with(
    x: impl Iterator<Item = f64>,
    y: impl Iterator<Item = f64>,
    opts: Options,
    cache: &DistCache,
    scratch: &mut Scratch,
) -> std::result::Result<TestResult, Status> {
    let mut finite = true;
    scratch.xs.clear();
    for v in x {
        finite &= v.is_finite();
        scratch.xs.push(ordered_bits(v));
    }
    scratch.ys.clear();
    for v in y {
        finite &= v.is_finite();
        scratch.ys.push(ordered_bits(v));
    }
    let (m, n) = (scratch.xs.len(), scratch.ys.len());
    if m < 2 || n < 2 {
        return Err(Status::TooFew);
    }
    if !finite {
        return Err(Status::NonFinite);
    }
    match opts.variant {
        Variant::Exact => conditional(m, n, opts, cache, scratch),
        Variant::DescTools => desctools(m, n, opts, cache, scratch),
    }
}

/// Whether every tie group has the same averaged score, i.e. `R_g / c_g = (N + 1) / 2` for all g
/// (checked in integers): the permutation distribution of S is then a single point. It happens
/// with ties only, e.g. x = [1, 1], y = [5, 5] (ranks 1, 4 and 3, 2 average to 2.5 each).
fn all_scores_equal(groups: &[TieGroup]) -> bool {
    let n_all: u64 = groups.iter().map(|g| u64::from(g.size)).sum();
    groups
        .iter()
        .all(|g| 2 * g.rank_sum == u64::from(g.size) * (n_all + 1))
}

/// Mean and variance of S over all splits: E = m (N+1)/2 (averaging keeps the rank total) and
/// Var = m n / (N (N-1)) * sum (a - mean)^2, the exact permutation variance with ties.
fn permutation_moments(m: usize, n: usize, groups: &[TieGroup]) -> (f64, f64) {
    let n_all = (m + n) as f64;
    let mean_a = (n_all + 1.0) / 2.0;
    let ss: f64 = groups
        .iter()
        .map(|g| {
            let dev = g.score() - mean_a;
            f64::from(g.size) * dev * dev
        })
        .sum();
    (
        m as f64 * mean_a,
        m as f64 * n as f64 / (n_all * (n_all - 1.0)) * ss,
    )
}

fn conditional(
    m: usize,
    n: usize,
    opts: Options,
    cache: &DistCache,
    scratch: &mut Scratch,
) -> std::result::Result<TestResult, Status> {
    merge_sorted(&mut scratch.xs, &mut scratch.ys, &mut scratch.sorted);
    st_rank_table(m + n, &mut scratch.ranks);
    tie_groups_into(&scratch.sorted, &scratch.ranks, &mut scratch.groups);
    let groups = &scratch.groups;
    if groups.len() == 1 {
        return Err(Status::AllTied);
    }
    let exact = match opts.method {
        Method::Asymptotic => false,
        Method::Exact => true,
        Method::Auto => {
            m + n <= SLOT_MAX_N || work_estimate(m, groups).is_some_and(|w| w <= AUTO_EXACT_WORK)
        }
    };
    if exact {
        let dist = cache
            .get(m, groups, &mut scratch.key)
            .ok_or(Status::TooLarge)?;
        let s = dist.observed(groups);
        let [le, ge, two] = dist.p_all(s);
        let pvalue = match opts.alternative {
            Alternative::TwoSided => two,
            Alternative::Greater => le,
            Alternative::Less => ge,
        };
        return Ok(TestResult {
            statistic: dist.rank_sum_of_units(s),
            pvalue,
            method: MethodUsed::Exact,
        });
    }
    let statistic: f64 = groups
        .iter()
        .map(|g| f64::from(g.in_first) * g.score())
        .sum();
    if all_scores_equal(groups) {
        // S is the same for every split: the exact test's p = 1, without a 0/0.
        return Ok(TestResult {
            statistic,
            pvalue: 1.0,
            method: MethodUsed::Asymptotic,
        });
    }
    let (mean, var) = permutation_moments(m, n, groups);
    let z = (statistic - mean) / var.sqrt();
    let pvalue = match opts.alternative {
        Alternative::TwoSided => (2.0 * normal::sf(z.abs())).min(1.0),
        Alternative::Greater => normal::cdf(z),
        Alternative::Less => normal::sf(z),
    };
    Ok(TestResult {
        statistic,
        pvalue,
        method: MethodUsed::Asymptotic,
    })
}

/// DescTools' `SiegelTukeyTest(x, y)`: the larger sample (y when sizes are equal) is group 0,
/// `wilcox.test(ranks0, ranks1, alternative, exact = NULL, correct = TRUE)` gives the p-value,
/// and the statistic is the ST score sum of group 1.
fn desctools(
    m: usize,
    n: usize,
    opts: Options,
    cache: &DistCache,
    scratch: &mut Scratch,
) -> std::result::Result<TestResult, Status> {
    // Group 0 is the larger sample (y when sizes are equal); order(value, group) puts it first
    // among equal values, and `in_first` of the groups counts it.
    let x_is_larger = m > n;
    let (g0, g1) = if x_is_larger {
        (&mut scratch.xs, &mut scratch.ys)
    } else {
        (&mut scratch.ys, &mut scratch.xs)
    };
    merge_sorted(g0, g1, &mut scratch.sorted);
    let keys = &mut scratch.sorted;
    let (mut n0, mut n1) = if x_is_larger { (m, n) } else { (n, m) };
    if keys.len() % 2 == 1 {
        // Drop the first observation equal to the median (from group 0 when both hold it).
        let median = keys[keys.len() / 2].0;
        let i = keys
            .iter()
            .position(|k| k.0 == median)
            .unwrap_or(keys.len() / 2);
        if keys.remove(i).1 {
            n0 -= 1;
        } else {
            n1 -= 1;
        }
    }
    st_rank_table(keys.len(), &mut scratch.ranks);
    tie_groups_into(keys, &scratch.ranks, &mut scratch.groups);
    let groups = &scratch.groups;
    if groups.len() == 1 {
        return Err(Status::AllTied);
    }
    let statistic: f64 = groups
        .iter()
        .map(|g| f64::from(g.size - g.in_first) * g.score())
        .sum();

    // wilcox.test re-ranks the averaged ST ranks: midranks of the scores R_g / c_g, compared exactly.
    let order = &mut scratch.order;
    order.clear();
    order.extend(0..groups.len());
    let cmp = |a: &TieGroup, b: &TieGroup| {
        (u128::from(a.rank_sum) * u128::from(b.size))
            .cmp(&(u128::from(b.rank_sum) * u128::from(a.size)))
    };
    order.sort_unstable_by(|&a, &b| cmp(&groups[a], &groups[b]));
    let midrank = &mut scratch.midrank;
    midrank.clear();
    midrank.resize(groups.len(), 0.0);
    let (mut tie_term, mut ties, mut start) = (0.0f64, false, 0usize);
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        let mut count = 0usize;
        while j < order.len() && cmp(&groups[order[i]], &groups[order[j]]).is_eq() {
            count += groups[order[j]].size as usize;
            j += 1;
        }
        let mid = start as f64 + (count as f64 + 1.0) / 2.0;
        order[i..j].iter().for_each(|&g| midrank[g] = mid);
        if count > 1 {
            ties = true;
            let t = count as f64;
            tie_term += t * t * t - t;
        }
        start += count;
        i = j;
    }
    let (nx, ny) = (n0 as f64, n1 as f64);
    let r0: f64 = groups
        .iter()
        .zip(midrank.iter())
        .map(|(g, &r)| f64::from(g.in_first) * r)
        .sum();
    let w = r0 - nx * (nx + 1.0) / 2.0;
    let alternative = opts.alternative;
    let use_exact = match opts.method {
        Method::Auto => n0 < 50 && n1 < 50 && !ties,
        Method::Exact if ties => return Err(Status::TiesNoExact),
        Method::Exact => true,
        Method::Asymptotic => false,
    };
    if use_exact {
        // No ties: the midranks are the ST ranks, a permutation of 1..N, so the null distribution of
        // the rank sum of group 0 is the Wilcoxon one: any tie-free pattern of the same sizes gives it.
        let n_all = n0 + n1;
        let singles: Vec<TieGroup> = (0..n_all)
            .map(|p| TieGroup {
                size: 1,
                rank_sum: st_rank(p, n_all),
                in_first: 0,
            })
            .collect();
        let dist = cache
            .get(n0, &singles, &mut scratch.key)
            .ok_or(Status::TooLarge)?;
        let s = dist.units_of_rank_sum(r0 as i64).ok_or(Status::TooLarge)?;
        let [le, ge, _] = dist.p_all(s);
        let pvalue = match alternative {
            Alternative::TwoSided => (2.0 * if w > nx * ny / 2.0 { ge } else { le }).min(1.0),
            Alternative::Greater => ge,
            Alternative::Less => le,
        };
        return Ok(TestResult {
            statistic,
            pvalue,
            method: MethodUsed::Exact,
        });
    }
    let n_all = nx + ny;
    let z0 = w - nx * ny / 2.0;
    if all_scores_equal(groups) {
        return Err(Status::ZeroVariance);
    }
    let sigma = ((nx * ny / 12.0) * ((n_all + 1.0) - tie_term / (n_all * (n_all - 1.0)))).sqrt();
    let correction = match alternative {
        // R: sign(z) * 0.5, and sign(0) is 0.
        Alternative::TwoSided if z0 > 0.0 => 0.5,
        Alternative::TwoSided if z0 < 0.0 => -0.5,
        Alternative::TwoSided => 0.0,
        Alternative::Greater => 0.5,
        Alternative::Less => -0.5,
    };
    let z = (z0 - correction) / sigma;
    let pvalue = match alternative {
        Alternative::TwoSided => 2.0 * normal::cdf(z).min(normal::sf(z)),
        Alternative::Greater => normal::sf(z),
        Alternative::Less => normal::cdf(z),
    };
    Ok(TestResult {
        statistic,
        pvalue,
        method: MethodUsed::Asymptotic,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(alternative: &str, method: &str, variant: &str) -> Options {
        Options {
            alternative: alternative.parse().unwrap(),
            method: method.parse().unwrap(),
            variant: variant.parse().unwrap(),
        }
    }

    // (x, y, exact two-sided, exact P(S >= s), exact P(S <= s), DescTools, normal no cc)
    // from data/stats/siegel_tukey_refs.json.
    type Ref = ([f64; 5], [f64; 5], f64, f64, f64, f64, f64);
    const REFS: [Ref; 5] = [
        (
            [5., 5., 6., 6., 5.],
            [1., 3., 5., 8., 10.],
            0.047619047619047616,
            0.023809523809523808,
            0.9920634920634921,
            0.06607531108982748,
            0.0288265653450633,
        ),
        (
            [2., 4., 6., 8., 10.],
            [5., 6., 6., 7., 5.],
            0.06349206349206349,
            0.9801587301587301,
            0.031746031746031744,
            0.08968602177036462,
            0.05032928215708586,
        ),
        (
            [3., 3., 7., 7., 5.],
            [4., 5., 6., 5., 4.],
            0.047619047619047616,
            0.9880952380952381,
            0.023809523809523808,
            0.07965142325325922,
            0.04261192279871833,
        ),
        (
            [1., 1., 10., 10., 5.],
            [5., 5., 5., 6., 4.],
            0.07936507936507936,
            0.9920634920634921,
            0.03968253968253968,
            0.05821273977927883,
            0.04490858989614268,
        ),
        (
            [4., 6., 7., 3., 8.],
            [2., 9., 6., 1., 10.],
            0.10317460317460317,
            0.051587301587301584,
            0.9563492063492064,
            0.11607394330990016,
            0.09369261949324822,
        ),
    ];

    #[test]
    fn status_codes_are_the_wire_order() {
        for (code, st) in Status::ALL.iter().enumerate() {
            assert_eq!(*st as usize, code, "{st}");
        }
        for (code, m) in MethodUsed::ALL.iter().enumerate() {
            assert_eq!(*m as usize, code, "{m}");
        }
    }

    #[test]
    fn reference_examples() {
        for (x, y, two, ge, le, desc, normal_nocc) in REFS {
            let t = siegel_tukey(&x, &y, opts("two-sided", "auto", "exact")).unwrap();
            assert_eq!(t.method, MethodUsed::Exact);
            assert!(
                (t.pvalue - two).abs() < 1e-12,
                "{x:?}: {} vs {two}",
                t.pvalue
            );
            // "less" = x less dispersed = P(S >= s); "greater" = x more dispersed = P(S <= s).
            let less = siegel_tukey(&x, &y, opts("less", "exact", "exact")).unwrap();
            assert!((less.pvalue - ge).abs() < 1e-12);
            let greater = siegel_tukey(&x, &y, opts("greater", "exact", "exact")).unwrap();
            assert!((greater.pvalue - le).abs() < 1e-12);
            let a = siegel_tukey(&x, &y, opts("two-sided", "asymptotic", "exact")).unwrap();
            assert!(
                (a.pvalue - normal_nocc).abs() < 1e-12,
                "{} vs {normal_nocc}",
                a.pvalue
            );
            let d = siegel_tukey(&x, &y, opts("two-sided", "auto", "desctools")).unwrap();
            assert!((d.pvalue - desc).abs() < 1e-9, "{} vs {desc}", d.pvalue);
            assert!((d.statistic - t.statistic).abs() < 1e-12);
        }
    }

    /// DescTools' exact branch by brute force: drop the median, rank by the alternation loop,
    /// enumerate every split of group 0 (the larger sample), then R's two-sided rule.
    fn desctools_by_enumeration(x: &[f64], y: &[f64]) -> f64 {
        let (g0, g1) = if x.len() > y.len() { (x, y) } else { (y, x) };
        let mut pooled: Vec<(f64, u8)> = g0
            .iter()
            .map(|&v| (v, 0))
            .chain(g1.iter().map(|&v| (v, 1)))
            .collect();
        pooled.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap().then(a.1.cmp(&b.1)));
        if pooled.len() % 2 == 1 {
            let median = pooled[pooled.len() / 2].0;
            let i = pooled.iter().position(|p| p.0 == median).unwrap();
            pooled.remove(i);
        }
        let n = pooled.len();
        let mut ranks = vec![0u64; n];
        let (mut lo, mut hi) = (0, n);
        for r in 1..=n as u64 {
            if r % 4 <= 1 {
                ranks[lo] = r;
                lo += 1;
            } else {
                hi -= 1;
                ranks[hi] = r;
            }
        }
        let n0 = pooled.iter().filter(|p| p.1 == 0).count();
        let r0: u64 = pooled
            .iter()
            .zip(&ranks)
            .filter(|(p, _)| p.1 == 0)
            .map(|(_, r)| r)
            .sum();
        let (mut le, mut ge, mut total) = (0u64, 0u64, 0u64);
        for mask in 0u32..1 << n {
            if mask.count_ones() as usize == n0 {
                let s: u64 = (0..n)
                    .filter(|i| mask & (1 << i) != 0)
                    .map(|i| ranks[i])
                    .sum();
                total += 1;
                le += u64::from(s <= r0);
                ge += u64::from(s >= r0);
            }
        }
        let w = r0 as f64 - (n0 * (n0 + 1)) as f64 / 2.0;
        let p = if w > (n0 * (n - n0)) as f64 / 2.0 {
            ge
        } else {
            le
        };
        (2.0 * p as f64 / total as f64).min(1.0)
    }

    #[test]
    fn desctools_without_ties_is_exact_wilcoxon() {
        // Sizes 5 and 6 (N odd: the median 6.0 is dropped); y keeps ST ranks 8, 9, 10, 7, 6:
        // the largest possible sum, so p = 2 / C(10, 5).
        let x = [0.5, 2.0, 3.5, 9.0, 12.0];
        let y = [4.0, 5.0, 6.0, 7.0, 7.5, 8.0];
        let d = siegel_tukey(&x, &y, opts("two-sided", "auto", "desctools")).unwrap();
        assert_eq!(d.method, MethodUsed::Exact);
        assert!((d.pvalue - 2.0 / 252.0).abs() < 1e-15);
        let forced = siegel_tukey(&x, &y, opts("two-sided", "exact", "desctools")).unwrap();
        assert_eq!(forced.pvalue, d.pvalue);
        // Tie-free samples of assorted sizes (odd and even N, x larger or smaller).
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for case in 0..60 {
            let mut draw = || {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state
            };
            let (m, n) = (2 + (draw() % 6) as usize, 2 + (draw() % 6) as usize);
            // Distinct values: a shuffled range, split into x and y.
            let mut vals: Vec<f64> = (0..m + n).map(|v| v as f64 * 1.25 - 3.0).collect();
            for i in (1..vals.len()).rev() {
                vals.swap(i, (draw() % (i as u64 + 1)) as usize);
            }
            let (x, y) = vals.split_at(m);
            let d = siegel_tukey(x, y, opts("two-sided", "auto", "desctools")).unwrap();
            assert_eq!(d.method, MethodUsed::Exact);
            let want = desctools_by_enumeration(x, y);
            assert!(
                (d.pvalue - want).abs() < 1e-12,
                "case {case}: {x:?} {y:?}: {} vs {want}",
                d.pvalue
            );
        }
    }

    #[test]
    fn negative_zero_ties_with_zero_in_desctools() {
        // R's order() has -0 == 0, so group 0 (the larger x) comes first among the zeros and the
        // median drop removes x's 0.0. R/DescTools: ST = 32.5, p = 0.9334.
        let x = [1.5, -2.25, 1.5, 1.5, 7.0, -2.25, 0.0, 1e-300];
        let y = [7.0, -0.0, -2.25, -2.25, 0.0];
        let d = siegel_tukey(&x, &y, opts("two-sided", "auto", "desctools")).unwrap();
        assert_eq!(d.statistic, 32.5);
        assert!((d.pvalue - 0.9334).abs() < 5e-5, "{}", d.pvalue);
    }

    #[test]
    fn bad_input_is_a_domain_error() {
        let o = Options::default();
        for (x, y) in [
            (vec![1.0], vec![1.0, 2.0]),
            (vec![], vec![1.0, 2.0]),
            (vec![1.0, f64::NAN], vec![1.0, 2.0]),
            (vec![1.0, 2.0], vec![f64::INFINITY, 2.0]),
            (vec![3.0, 3.0], vec![3.0, 3.0, 3.0]),
        ] {
            assert!(
                matches!(siegel_tukey(&x, &y, o), Err(Error::Domain(_))),
                "{x:?} {y:?}"
            );
        }
        let ties = opts("two-sided", "exact", "desctools");
        assert!(matches!(
            siegel_tukey(&[1., 1., 2.], &[2., 3., 4.], ties),
            Err(Error::Domain(_))
        ));
    }

    #[test]
    fn equal_scores_give_p_one_or_a_desctools_status() {
        // x = [1, 1], y = [5, 5]: ST ranks 1, 4 and 3, 2 average to 2.5 for everyone.
        // x = [3, 2], y = [7, 7, 2]: DescTools drops the median 3 first, leaving the same pattern.
        for (x, y) in [
            (vec![1.0, 1.0], vec![5.0, 5.0]),
            (vec![3.0, 2.0], vec![7.0, 7.0, 2.0]),
        ] {
            for method in ["auto", "exact", "asymptotic"] {
                let r = siegel_tukey(&x, &y, opts("two-sided", method, "exact")).unwrap();
                assert!(
                    r.pvalue == 1.0 || x.len() + y.len() == 5,
                    "{method}: {}",
                    r.pvalue
                );
                assert!(r.pvalue.is_finite());
            }
            let d = siegel_tukey(&x, &y, opts("two-sided", "auto", "desctools"));
            assert!(
                matches!(d, Err(Error::Domain(m)) if m.contains("equal")),
                "{x:?}"
            );
        }
        let out = super::super::batch::siegel_tukey_batch(
            &[1.0, 1.0],
            &[5.0, 5.0],
            1,
            2,
            2,
            opts("two-sided", "auto", "desctools"),
        )
        .unwrap();
        assert_eq!(out.status, [Status::ZeroVariance as u8]);
        assert!(out.pvalue[0].is_nan());
    }

    #[test]
    fn unknown_names_are_invalid_values() {
        assert!(matches!(
            "two.sided".parse::<Alternative>(),
            Err(Error::InvalidValue(_))
        ));
        let e = "fast".parse::<Method>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "method must be one of 'auto', 'exact', 'asymptotic', got \"fast\""
        );
    }

    #[test]
    fn auto_switches_to_asymptotic_on_large_samples() {
        let x: Vec<f64> = (0..300).map(|v| f64::from(v) * 0.37).collect();
        let y: Vec<f64> = (0..300).map(|v| f64::from(v) * 1.1).collect();
        let t = siegel_tukey(&x, &y, Options::default()).unwrap();
        assert_eq!(t.method, MethodUsed::Asymptotic);
        assert!(t.pvalue < 1e-6);
        let big: Vec<f64> = (0..2000).map(f64::from).collect();
        let refused = siegel_tukey(&big, &big, opts("two-sided", "exact", "exact"));
        assert!(matches!(refused, Err(Error::Domain(m)) if m.contains("too large")));
    }

    #[test]
    fn swapping_samples_mirrors_the_one_sided_tests() {
        let x = [1.0, 2.0, 2.0, 9.0, 4.0, 4.5];
        let y = [3.0, 3.5, 4.0, 5.0];
        let g = siegel_tukey(&x, &y, opts("greater", "exact", "exact")).unwrap();
        let l = siegel_tukey(&y, &x, opts("less", "exact", "exact")).unwrap();
        assert!((g.pvalue - l.pvalue).abs() < 1e-15);
        let a = siegel_tukey(&x, &y, Options::default()).unwrap();
        let b = siegel_tukey(&y, &x, Options::default()).unwrap();
        assert!((a.pvalue - b.pvalue).abs() < 1e-15);
    }
}
