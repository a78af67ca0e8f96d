//! The Siegel–Tukey test over the rows of two matrices, in parallel.

use rayon::prelude::*;

use super::exact::{DistCache, EXACT_WORK_MAX};
use super::siegel_tukey::{test_with, Options, Scratch, Status};
use crate::error::{Error, Result};

/// Code of `method` for a row without a p-value.
pub const METHOD_NONE: u8 = 2;

/// Per-row results, one entry per row.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BatchOutput {
    pub statistic: Vec<f64>,
    pub pvalue: Vec<f64>,
    /// 0 exact, 1 asymptotic, [`METHOD_NONE`] when the row has no p-value.
    pub method: Vec<u8>,
    /// [`Status`] code: 0 when the row has a p-value, else why not (its p-value is NaN).
    pub status: Vec<u8>,
}

/// Rows rayon hands out at a time: enough that the per-task scratch set-up is noise.
const MIN_ROWS_PER_TASK: usize = 512;

/// Test row `i` of `x` (`rows` x `width_x`, row-major) against row `i` of `y`. NaN entries are
/// padding and are skipped, so rows may hold samples of different sizes. Distributions are built
/// once per (sizes, tie pattern) and shared by all threads.
pub fn siegel_tukey_batch(
    x: &[f64],
    y: &[f64],
    rows: usize,
    width_x: usize,
    width_y: usize,
    opts: Options,
) -> Result<BatchOutput> {
    if Some(x.len()) != rows.checked_mul(width_x) || Some(y.len()) != rows.checked_mul(width_y) {
        return Err(Error::Shape(format!(
            "x has {} values and y {}, expected {rows} x {width_x} and {rows} x {width_y}",
            x.len(),
            y.len()
        )));
    }
    let cache = DistCache::new(EXACT_WORK_MAX);
    let mut out = BatchOutput {
        statistic: vec![f64::NAN; rows],
        pvalue: vec![f64::NAN; rows],
        method: vec![METHOD_NONE; rows],
        status: vec![Status::Ok as u8; rows],
    };
    // Each row writes its own slots of the four outputs: no intermediate vector to unzip.
    (
        &mut out.statistic,
        &mut out.pvalue,
        &mut out.method,
        &mut out.status,
    )
        .into_par_iter()
        .enumerate()
        .with_min_len(MIN_ROWS_PER_TASK)
        .for_each_init(
            Scratch::default,
            |scratch, (i, (stat, p, method, status))| {
                let xs = x[i * width_x..(i + 1) * width_x]
                    .iter()
                    .copied()
                    .filter(|v| !v.is_nan());
                let ys = y[i * width_y..(i + 1) * width_y]
                    .iter()
                    .copied()
                    .filter(|v| !v.is_nan());
                match test_with(xs, ys, opts, &cache, scratch) {
                    Ok(t) => (*stat, *p, *method) = (t.statistic, t.pvalue, t.method as u8),
                    Err(st) => *status = st as u8,
                }
            },
        );
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::super::siegel_tukey::siegel_tukey;
    use super::*;

    #[test]
    fn rows_equal_single_calls_and_padding_is_skipped() {
        let nan = f64::NAN;
        let x = [
            5., 5., 6., 6., 5., /**/ 1., 2., nan, 9., nan, /**/ 1., nan, nan, nan, nan,
            /**/ 3., 3., 3., 3., 3.,
        ];
        let y = [
            1., 3., 5., 8., 10., 7., /**/ 4., 4.5, 5., nan, nan, nan, /**/ 1., 2., 3.,
            4., 5., 6., /**/ 3., 3., 3., nan, nan, nan,
        ];
        let out = siegel_tukey_batch(&x, &y, 4, 5, 6, Options::default()).unwrap();
        let first = siegel_tukey(&x[..5], &y[..6], Options::default()).unwrap();
        assert_eq!(out.pvalue[0], first.pvalue);
        assert_eq!(out.statistic[0], first.statistic);
        let second = siegel_tukey(&[1., 2., 9.], &[4., 4.5, 5.], Options::default()).unwrap();
        assert_eq!(out.pvalue[1], second.pvalue);
        assert_eq!(
            out.status,
            [0, 0, Status::TooFew as u8, Status::AllTied as u8]
        );
        assert!(out.pvalue[2].is_nan() && out.pvalue[3].is_nan());
        assert_eq!(out.method[2], METHOD_NONE);
    }

    #[test]
    fn shape_mismatch_is_an_error() {
        assert!(matches!(
            siegel_tukey_batch(&[1.0; 10], &[1.0; 9], 2, 5, 5, Options::default()),
            Err(Error::Shape(_))
        ));
    }

    #[test]
    fn infinite_values_are_flagged() {
        let out = siegel_tukey_batch(
            &[1., f64::INFINITY, 3.],
            &[1., 2., 4.],
            1,
            3,
            3,
            Options::default(),
        )
        .unwrap();
        assert_eq!(out.status, [Status::NonFinite as u8]);
    }
}
