//! Agreement and classification measures: Cohen's kappa, confusion-matrix metrics, Wilson
//! score intervals. Ratios are formed from integer counts, so each is rounded once.

use super::normal;
use crate::error::{Error, Result};

fn same_length(a: usize, b: usize, what: &str) -> Result<()> {
    if a != b {
        return Err(Error::Shape(format!(
            "{what}: the two label sequences have lengths {a} and {b}"
        )));
    }
    if a == 0 {
        return Err(Error::Domain(format!("{what}: no labels")));
    }
    Ok(())
}

/// Cohen's kappa of two raters' labels on the same items: (p_o - p_e) / (1 - p_e).
///
/// When both raters give every item the same single label, p_e = 1 and the formula is 0/0; this
/// returns 1.0 (perfect agreement), the convention of the self-evaluation paper's tables ("0/39,
/// 0/39, kappa 1.0"). scikit-learn returns NaN there.
pub fn cohen_kappa(a: &[i64], b: &[i64]) -> Result<f64> {
    same_length(a.len(), b.len(), "cohen_kappa")?;
    let mut labels: Vec<i64> = a.iter().chain(b).copied().collect();
    labels.sort_unstable();
    labels.dedup();
    let k = labels.len();
    let index = |v: i64| labels.binary_search(&v).unwrap_or(0);
    let (mut rows, mut cols, mut agree) = (vec![0u128; k], vec![0u128; k], 0u128);
    for (&u, &v) in a.iter().zip(b) {
        let (i, j) = (index(u), index(v));
        rows[i] += 1;
        cols[j] += 1;
        agree += u128::from(i == j);
    }
    let n = a.len() as u128;
    let chance: u128 = rows.iter().zip(&cols).map(|(r, c)| r * c).sum();
    if chance == n * n {
        return Ok(1.0);
    }
    // kappa = (n agree - sum r c) / (n^2 - sum r c), signed.
    let num = (n * agree) as f64 - chance as f64;
    Ok(num / (n * n - chance) as f64)
}

/// Counts of a binary confusion matrix (positive class = `true`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ConfusionCounts {
    pub tp: u64,
    pub fp: u64,
    pub fn_: u64,
    pub tn: u64,
}

/// Metrics of a binary confusion matrix.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ConfusionMetrics {
    pub counts: ConfusionCounts,
    pub accuracy: f64,
    pub precision: f64,
    pub recall: f64,
    /// F1 of the positive class, 2 tp / (2 tp + fp + fn).
    pub f1: f64,
    /// Mean of the F1 of the positive and of the negative class.
    pub macro_f1: f64,
}

/// Count a confusion matrix from gold and predicted labels.
pub fn confusion_counts(y_true: &[bool], y_pred: &[bool]) -> Result<ConfusionCounts> {
    same_length(y_true.len(), y_pred.len(), "confusion_counts")?;
    let mut c = ConfusionCounts::default();
    for (&t, &p) in y_true.iter().zip(y_pred) {
        match (t, p) {
            (true, true) => c.tp += 1,
            (false, true) => c.fp += 1,
            (true, false) => c.fn_ += 1,
            (false, false) => c.tn += 1,
        }
    }
    Ok(c)
}

impl ConfusionCounts {
    /// Accuracy, precision, recall, F1 and macro F1. A ratio with a zero denominator (no predicted
    /// positives for precision, say) takes `zero_division`, as in scikit-learn.
    pub fn metrics(self, zero_division: f64) -> Result<ConfusionMetrics> {
        let ConfusionCounts { tp, fp, fn_, tn } = self;
        let total = tp + fp + fn_ + tn;
        if total == 0 {
            return Err(Error::Domain(
                "confusion metrics of an empty confusion matrix".into(),
            ));
        }
        let ratio = |num: u64, den: u64| {
            if den == 0 {
                zero_division
            } else {
                num as f64 / den as f64
            }
        };
        let f1 = ratio(2 * tp, 2 * tp + fp + fn_);
        let f1_negative = ratio(2 * tn, 2 * tn + fp + fn_);
        Ok(ConfusionMetrics {
            counts: self,
            accuracy: ratio(tp + tn, total),
            precision: ratio(tp, tp + fp),
            recall: ratio(tp, tp + fn_),
            f1,
            macro_f1: (f1 + f1_negative) / 2.0,
        })
    }
}

/// Wilson score interval for a binomial proportion `successes / n` at the given confidence.
pub fn wilson_interval(successes: u64, n: u64, confidence: f64) -> Result<(f64, f64)> {
    if n == 0 {
        return Err(Error::Domain("wilson_interval needs n >= 1".into()));
    }
    if successes > n {
        return Err(Error::InvalidValue(format!(
            "successes ({successes}) exceed n ({n})"
        )));
    }
    if !(confidence > 0.0 && confidence < 1.0) {
        return Err(Error::InvalidValue(format!(
            "confidence must lie in (0, 1), got {confidence}"
        )));
    }
    let z = normal::quantile(0.5 + confidence / 2.0);
    let (s, nf) = (successes as f64, n as f64);
    let p = s / nf;
    let z2 = z * z;
    let denom = 1.0 + z2 / nf;
    let centre = (p + z2 / (2.0 * nf)) / denom;
    let half = z * (p * (1.0 - p) / nf + z2 / (4.0 * nf * nf)).sqrt() / denom;
    // The bounds are exactly 0 and 1 at the ends; spell that out instead of trusting the rounding.
    let low = if successes == 0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let high = if successes == n {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    Ok((low, high))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Label vectors with `a` and `b` "error" marks out of `n`, `both` of them shared.
    fn marks(n: usize, a: usize, b: usize, both: usize) -> (Vec<i64>, Vec<i64>) {
        let mut x = vec![0; n];
        let mut y = vec![0; n];
        x[..a].iter_mut().for_each(|v| *v = 1);
        y[..both].iter_mut().for_each(|v| *v = 1);
        y[a..a + b - both].iter_mut().for_each(|v| *v = 1);
        (x, y)
    }

    #[test]
    fn kappa_reproduces_the_paper_tables() {
        // (n, errors anno 1, errors anno 2, shared, published kappa): Tables 4 and 5 of the paper.
        for (n, a, b, both, kappa) in [
            (8, 2, 1, 1, 0.60),
            (26, 1, 3, 1, 0.469),
            (18, 3, 2, 2, 0.769),
            (19, 4, 6, 4, 0.732),
            (25, 3, 4, 3, 0.834),
        ] {
            let (x, y) = marks(n, a, b, both);
            let k = cohen_kappa(&x, &y).unwrap();
            assert!((k - kappa).abs() < 5e-4, "{n} {a} {b}: {k} vs {kappa}");
        }
        let (x, y) = marks(39, 0, 0, 0);
        assert_eq!(cohen_kappa(&x, &y).unwrap(), 1.0);
    }

    #[test]
    fn kappa_multiclass_and_errors() {
        // Every item disagrees in a balanced way: kappa = -1.
        assert_eq!(cohen_kappa(&[0, 1, 0, 1], &[1, 0, 1, 0]).unwrap(), -1.0);
        assert!(matches!(cohen_kappa(&[1, 2], &[1]), Err(Error::Shape(_))));
        assert!(matches!(cohen_kappa(&[], &[]), Err(Error::Domain(_))));
        // Three classes, hand-computed: p_o = 5/6, p_e = (2*2 + 2*3 + 2*1)/36 = 1/3, kappa = 3/4.
        let k = cohen_kappa(&[0, 0, 1, 1, 2, 2], &[0, 0, 1, 1, 1, 2]).unwrap();
        assert!((k - (5.0 / 6.0 - 12.0 / 36.0) / (1.0 - 12.0 / 36.0)).abs() < 1e-15);
    }

    #[test]
    fn confusion_macro_f1_of_the_faultymath_table() {
        // TP 46 / FP 26 / FN 17 / TN 274 gives macro F1 80.44 (hallucination_protocols.md).
        let m = ConfusionCounts {
            tp: 46,
            fp: 26,
            fn_: 17,
            tn: 274,
        }
        .metrics(0.0)
        .unwrap();
        assert!((m.macro_f1 * 100.0 - 80.44).abs() < 5e-3);
        assert!((m.precision - 46.0 / 72.0).abs() < 1e-15);
        assert!((m.recall - 46.0 / 63.0).abs() < 1e-15);
        assert!((m.accuracy - 320.0 / 363.0).abs() < 1e-15);
    }

    #[test]
    fn confusion_zero_division_and_counting() {
        let c = confusion_counts(&[false, false, true], &[false, false, false]).unwrap();
        assert_eq!(
            c,
            ConfusionCounts {
                tp: 0,
                fp: 0,
                fn_: 1,
                tn: 2
            }
        );
        let m = c.metrics(f64::NAN).unwrap();
        assert!(m.precision.is_nan());
        assert_eq!(m.recall, 0.0);
        assert!(matches!(
            ConfusionCounts::default().metrics(0.0),
            Err(Error::Domain(_))
        ));
    }

    #[test]
    fn wilson_known_values_and_edges() {
        // 8 of 10 at 95%: (0.4902, 0.9433) (Wilson 1927 formula, Agresti–Coull 1998 Table).
        let (lo, hi) = wilson_interval(8, 10, 0.95).unwrap();
        assert!(
            (lo - 0.4901624).abs() < 1e-6 && (hi - 0.9433178).abs() < 1e-6,
            "{lo} {hi}"
        );
        assert_eq!(wilson_interval(0, 5, 0.95).unwrap().0, 0.0);
        assert_eq!(wilson_interval(5, 5, 0.95).unwrap().1, 1.0);
        assert!(wilson_interval(6, 5, 0.95).is_err());
        assert!(wilson_interval(1, 0, 0.95).is_err());
        assert!(wilson_interval(1, 5, 1.0).is_err());
    }
}
