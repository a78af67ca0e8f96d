//! Siegel–Tukey ranks of a pooled sample and its tie groups.
//!
//! Ranks alternate from the two ends of the sorted pooled sample: 1 to the lowest, 2 and 3 to the
//! two highest, 4 and 5 to the next two lowest, and so on. Tied observations share the mean of the
//! ranks of their positions. A tie group is kept as the exact pair (size, sum of its ranks), so the
//! averaged score `rank_sum / size` never goes through floating point where it matters.

/// One run of equal values in the sorted pooled sample.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TieGroup {
    /// Number of tied observations.
    pub size: u32,
    /// Sum of the Siegel–Tukey ranks of the tied positions (the averaged score is `rank_sum / size`).
    pub rank_sum: u64,
    /// How many of the tied observations belong to the first sample.
    pub in_first: u32,
}

impl TieGroup {
    /// The tie-averaged Siegel–Tukey score of every member.
    pub fn score(&self) -> f64 {
        self.rank_sum as f64 / f64::from(self.size)
    }
}

/// Siegel–Tukey rank (1-based) of the 0-based sorted position `pos` among `n` observations.
///
/// Closed form of the alternation: rank r goes to the low end when `r % 4` is 0 or 1, so the low end
/// holds ranks 1, 4, 5, 8, 9, ... and the high end (from the top) 2, 3, 6, 7, 10, 11, ...
pub fn st_rank(pos: usize, n: usize) -> u64 {
    debug_assert!(pos < n);
    let n_low = n.div_ceil(4) + n / 4;
    let (j, low) = if pos < n_low {
        (pos, true)
    } else {
        (n - 1 - pos, false)
    };
    let j = j as u64;
    if low {
        4 * j.div_ceil(2) + u64::from(j % 2 == 0)
    } else {
        4 * (j / 2) + 2 + j % 2
    }
}

/// The Siegel–Tukey ranks of all `n` sorted positions, written into `out` (kept when already
/// computed for this `n`: a batch re-uses it row after row).
pub fn st_rank_table(n: usize, out: &mut Vec<u64>) {
    if out.len() != n {
        out.clear();
        out.extend((0..n).map(|p| st_rank(p, n)));
    }
}

/// Order-preserving integer image of a finite value: its IEEE-754 total-order bits. `-0.0` is
/// folded into `0.0` first, so equal images mean equal values. Sorting these integers is several
/// times cheaper than sorting floats with `total_cmp`.
#[inline]
pub fn ordered_bits(v: f64) -> u64 {
    let bits = (v + 0.0).to_bits() as i64;
    // total_cmp's trick: flip the magnitude bits of negatives, then the sign bit for unsigned order.
    ((bits ^ ((((bits >> 63) as u64) >> 1) as i64)) as u64) ^ (1 << 63)
}

/// Sort, by insertion for the few values of a typical self-evaluation sample: `sort_unstable`'s
/// dispatch costs more than the sort itself there (measured: 5 values, ~3x fewer instructions).
fn sort_small(v: &mut [u64]) {
    if v.len() > 16 {
        v.sort_unstable();
        return;
    }
    for i in 1..v.len() {
        let x = v[i];
        let mut j = i;
        while j > 0 && v[j - 1] > x {
            v[j] = v[j - 1];
            j -= 1;
        }
        v[j] = x;
    }
}

/// Sort both samples (as [`ordered_bits`]) and merge them into `out` as `(value, in_a)`, members
/// of `a` first among equal values. Two sorts of 5 and a merge cost a fraction of one sort of 10.
pub fn merge_sorted(a: &mut [u64], b: &mut [u64], out: &mut Vec<(u64, bool)>) {
    sort_small(a);
    sort_small(b);
    out.clear();
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i] <= b[j] {
            out.push((a[i], true));
            i += 1;
        } else {
            out.push((b[j], false));
            j += 1;
        }
    }
    out.extend(a[i..].iter().map(|&v| (v, true)));
    out.extend(b[j..].iter().map(|&v| (v, false)));
}

/// Tie groups of a sorted pooled sample of `(value, in_first)`, given the rank table of its size.
pub fn tie_groups_into(sorted: &[(u64, bool)], ranks: &[u64], out: &mut Vec<TieGroup>) {
    debug_assert_eq!(sorted.len(), ranks.len());
    out.clear();
    let mut items = sorted.iter().zip(ranks);
    let Some((&(v0, f0), &r0)) = items.next() else {
        return;
    };
    let mut value = v0;
    let mut g = TieGroup {
        size: 1,
        rank_sum: r0,
        in_first: u32::from(f0),
    };
    for (&(v, first), &r) in items {
        if v != value {
            out.push(g);
            value = v;
            g = TieGroup {
                size: 0,
                rank_sum: 0,
                in_first: 0,
            };
        }
        g.size += 1;
        g.rank_sum += r;
        g.in_first += u32::from(first);
    }
    out.push(g);
}

/// Pool two samples of finite values (first sample = `x`), sort, and return the tie groups.
pub fn pooled_groups(x: &[f64], y: &[f64]) -> Vec<TieGroup> {
    let mut a: Vec<u64> = x.iter().map(|&v| ordered_bits(v)).collect();
    let mut b: Vec<u64> = y.iter().map(|&v| ordered_bits(v)).collect();
    let mut sorted = Vec::new();
    merge_sorted(&mut a, &mut b, &mut sorted);
    let mut ranks = Vec::new();
    st_rank_table(sorted.len(), &mut ranks);
    let mut groups = Vec::new();
    tie_groups_into(&sorted, &ranks, &mut groups);
    groups
}

/// Per-observation tie-averaged Siegel–Tukey scores of `x` and `y`, in input order.
pub fn st_scores(x: &[f64], y: &[f64]) -> (Vec<f64>, Vec<f64>) {
    let groups = pooled_groups(x, y);
    let mut distinct: Vec<u64> = x.iter().chain(y).map(|&v| ordered_bits(v)).collect();
    distinct.sort_unstable();
    distinct.dedup();
    // Distinct values line up with the groups one to one.
    let score_of = |v: f64| groups[distinct.partition_point(|&d| d < ordered_bits(v))].score();
    (
        x.iter().map(|&v| score_of(v)).collect(),
        y.iter().map(|&v| score_of(v)).collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The loop from the reference: for i = 1..n, i % 4 <= 1 takes the next free low position.
    fn ranks_by_simulation(n: usize) -> Vec<u64> {
        let mut ranks = vec![0; n];
        let (mut lo, mut hi) = (0usize, n);
        for r in 1..=n {
            if r % 4 <= 1 {
                ranks[lo] = r as u64;
                lo += 1;
            } else {
                hi -= 1;
                ranks[hi] = r as u64;
            }
        }
        ranks
    }

    #[test]
    fn closed_form_matches_the_alternation_loop() {
        for n in 1..200 {
            let closed: Vec<u64> = (0..n).map(|p| st_rank(p, n)).collect();
            assert_eq!(closed, ranks_by_simulation(n), "n = {n}");
        }
    }

    #[test]
    fn ten_positions() {
        let r: Vec<u64> = (0..10).map(|p| st_rank(p, 10)).collect();
        assert_eq!(r, [1, 4, 5, 8, 9, 10, 7, 6, 3, 2]);
    }

    #[test]
    fn reference_example_one_scores() {
        let (sx, sy) = st_scores(&[5., 5., 6., 6., 5.], &[1., 3., 5., 8., 10.]);
        assert_eq!(sx, [8., 8., 6.5, 6.5, 8.]);
        assert_eq!(sy, [1., 4., 8., 3., 2.]);
    }

    #[test]
    fn ordered_bits_follow_the_numeric_order() {
        let vals = [
            -f64::MAX,
            -1e300,
            -2.5,
            -1.0,
            -f64::MIN_POSITIVE,
            0.0,
            5e-324,
            1.0,
            1.0 + f64::EPSILON,
            7.0,
            f64::MAX,
        ];
        for w in vals.windows(2) {
            assert!(ordered_bits(w[0]) < ordered_bits(w[1]), "{} {}", w[0], w[1]);
        }
        assert_eq!(ordered_bits(-0.0), ordered_bits(0.0));
        let mut out = Vec::new();
        merge_sorted(
            &mut [3.0, 1.0].map(ordered_bits),
            &mut [3.0, 2.0].map(ordered_bits),
            &mut out,
        );
        let flags: Vec<bool> = out.iter().map(|p| p.1).collect();
        assert_eq!(flags, [true, false, true, false]);
    }

    #[test]
    fn negative_zero_ties_with_zero() {
        let g = pooled_groups(&[0.0, 1.0], &[-0.0, 2.0]);
        assert_eq!(g.len(), 3);
        assert_eq!(g[0].size, 2);
        assert_eq!(g[0].in_first, 1);
    }
}
