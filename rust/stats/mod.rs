//! Rank statistics and agreement measures of protocol D (self-evaluation consistency).
//!
//! - [`ranks`]: Siegel–Tukey ranks and tie groups of a pooled sample.
//! - [`exact`]: the exact permutation distribution by dynamic programming, and its cache.
//! - [`siegel_tukey`]: the test (exact conditional and DescTools variants, asymptotic fallback).
//! - [`batch`]: the test over many rows in parallel.
//! - [`agreement`]: Cohen's kappa, confusion-matrix metrics, Wilson intervals.

pub mod agreement;
pub mod batch;
pub mod exact;
pub mod ranks;
pub mod siegel_tukey;

pub use agreement::{
    cohen_kappa, confusion_counts, wilson_interval, ConfusionCounts, ConfusionMetrics,
};
pub use batch::{siegel_tukey_batch, BatchOutput};
pub use siegel_tukey::{
    siegel_tukey, Alternative, Method, MethodUsed, Options, Status, TestResult, Variant,
};

/// The standard normal distribution from well-kept crates rather than hand-written approximations:
/// libm's `erfc` (the FreeBSD msun port, within 1 ulp) for the tails, statrs for the quantile.
/// DescTools numbers must match R's `pnorm` to 1e-9; statrs' own `erfc` misses that by ~4e-11.
pub(crate) mod normal {
    use std::f64::consts::SQRT_2;

    use libm::erfc;
    use statrs::distribution::{ContinuousCDF, Normal};

    /// P(Z <= z).
    pub fn cdf(z: f64) -> f64 {
        0.5 * erfc(-z / SQRT_2)
    }

    /// P(Z > z), without the cancellation of `1 - cdf(z)` in the upper tail.
    pub fn sf(z: f64) -> f64 {
        0.5 * erfc(z / SQRT_2)
    }

    /// The z with P(Z <= z) = p, for 0 < p < 1.
    pub fn quantile(p: f64) -> f64 {
        Normal::standard().inverse_cdf(p)
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn known_values() {
            // scipy.stats.norm (= R's pnorm / qnorm) to the last digits.
            assert!((cdf(-1.96) - 0.024997895148220435).abs() < 1e-17);
            assert!(
                (2.0 * sf(9.5 / (25.0f64 / 90.0 * 68.0).sqrt()) - 0.028826565345063285).abs()
                    < 1e-16
            );
            assert!((sf(8.0) / 6.22096057427174e-16 - 1.0).abs() < 1e-13);
            for (p, q) in [
                (0.975, 1.959963984540054),
                (0.995, 2.5758293035489004),
                (0.9995, 3.2905267314919255),
            ] {
                assert!((quantile(p) - q).abs() < 1e-14 * q, "{p}");
            }
        }
    }
}
