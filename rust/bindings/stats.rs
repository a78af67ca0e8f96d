//! Bindings for `crate::stats` (protocol D): convert, copy, detach, call the core, map errors.

use numpy::{
    get_array_module, AllowTypeChange, IntoPyArray, PyArrayDescrMethods, PyArrayLike1,
    PyArrayLike2, PyUntypedArray, PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyString, PyTuple};

use super::convert::vocabulary;
use super::error::to_pyerr;
use crate::stats::siegel_tukey::Status;
use crate::stats::{self, Alternative, Method, Options, Variant};

/// Result of :func:`siegel_tukey` (immutable).
#[pyclass(frozen, module = "matheval_fast._core", name = "SiegelTukeyResult")]
pub struct SiegelTukeyResult {
    /// Variant ``exact``: sum S of the tie-averaged Siegel–Tukey ranks of ``x``; a large S means
    /// ``x`` is *less* dispersed. Variant ``desctools``: DescTools' ``ST``, the rank sum of the
    /// smaller sample (``x`` when the sizes are equal) after its median drop.
    #[pyo3(get)]
    statistic: f64,
    /// The p-value.
    #[pyo3(get)]
    pvalue: f64,
    /// How the p-value was computed: ``"exact"`` or ``"asymptotic"`` (``auto`` resolves to one).
    #[pyo3(get)]
    method: &'static str,
    /// The alternative hypothesis tested.
    #[pyo3(get)]
    alternative: &'static str,
    /// The definition of the test: ``"exact"`` or ``"desctools"``.
    #[pyo3(get)]
    variant: &'static str,
}

#[pymethods]
impl SiegelTukeyResult {
    fn __repr__(&self) -> String {
        format!(
            "SiegelTukeyResult(statistic={:?}, pvalue={:?}, method={:?}, alternative={:?}, variant={:?})",
            self.statistic, self.pvalue, self.method, self.alternative, self.variant
        )
    }
}

fn options(alternative: &str, method: &str, variant: &str) -> PyResult<Options> {
    Ok(Options {
        alternative: alternative.parse().map_err(to_pyerr)?,
        method: method.parse().map_err(to_pyerr)?,
        variant: variant.parse().map_err(to_pyerr)?,
    })
}

/// A numeric array-like of `ndim` dimensions, or TypeError naming the argument. numpy does the
/// conversion (lists, tuples, int/bool arrays); strings and non-numeric content are type errors,
/// not numpy's ValueError.
fn numeric<'py, T>(obj: &Bound<'py, PyAny>, name: &str, ndim: usize) -> PyResult<T>
where
    T: for<'a> FromPyObject<'a, 'py, Error = PyErr>,
{
    let wrong = |detail: String| {
        PyTypeError::new_err(format!(
            "{name} must be a {ndim}-D array-like of numbers{detail}"
        ))
    };
    if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>() {
        return Err(wrong(format!(", got {}", obj.get_type().name()?)));
    }
    obj.extract::<T>().map_err(|e| wrong(format!(" ({e})")))
}

/// Copy of a 1-D input (other Python threads may mutate the buffer once the GIL is released).
fn vec_1d(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Vec<f64>> {
    let a: PyArrayLike1<'_, f64, AllowTypeChange> = numeric(obj, name, 1)?;
    Ok(a.as_array().to_vec())
}

/// Row-major copy of a 2-D input, whatever its memory layout: (data, rows, columns).
fn vec_2d(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<(Vec<f64>, usize, usize)> {
    let a: PyArrayLike2<'_, f64, AllowTypeChange> = numeric(obj, name, 2)?;
    let view = a.as_array();
    let (rows, cols) = view.dim();
    let data = match view.as_slice() {
        Some(s) => s.to_vec(),
        None => view.iter().copied().collect(),
    };
    Ok((data, rows, cols))
}

/// Siegel–Tukey test for a difference in dispersion between samples ``x`` and ``y``.
///
/// Ranks: pool both samples, sort ascending, and give rank 1 to the lowest, 2 and 3 to the two
/// highest, 4 and 5 to the next two lowest, and so on; tied values share the mean rank of their
/// positions.
///
/// ``variant="exact"`` (default): the exact conditional permutation p-value of S = the rank sum of
/// ``x`` over all ``C(N, len(x))`` splits of the tie-averaged ranks: the value that does not depend
/// on how ties are broken (equals jmuOutlier's ``siegel.test`` and SciPy's ``permutation_test`` on
/// these ranks). It is computed without enumerating, by dynamic programming over tie groups,
/// cached per tie pattern. ``alternative``: ``"two-sided"`` = P(|S - E S| >= |s - E S|);
/// ``"greater"`` = ``x`` *more* dispersed than ``y`` = P(S <= s); ``"less"`` = ``x`` less
/// dispersed = P(S >= s). (In ``data/stats/siegel_tukey_refs.json`` the columns are named after
/// the tail of S, so ``greater`` here is its ``p_exact_permutation_less``.) ``method="auto"`` is
/// exact while the dynamic programme needs at most 2**25 cell updates (every untied sample up to
/// N of about 100, every sample up to N = 16 with any ties) and otherwise the normal
/// approximation with the exact permutation (tie-corrected) variance, without continuity
/// correction; ``"exact"`` raises above 2**31 updates; ``"asymptotic"`` always uses the normal
/// approximation.
///
/// ``variant="desctools"``: DescTools 0.99.59 ``SiegelTukeyTest`` defaults, so published numbers
/// can be matched: for odd N the first pooled observation equal to the median is dropped (the
/// larger sample's when tied), then ``wilcox.test(ranks of larger sample, ranks of smaller,
/// correct=TRUE)`` (``y`` counts as larger when the sizes are equal): exact Wilcoxon distribution
/// when there are no ties and both sizes are below 50, else the normal approximation on midranks
/// of the ranks with tie-corrected variance and continuity correction. ``alternative`` is passed
/// to that call unchanged, so as in DescTools its direction follows the larger sample.
/// ``method="exact"`` with ties raises.
///
/// Raises ``DomainError`` when a sample has fewer than 2 values, a value is NaN or infinite, all
/// values are tied, or (DescTools variant) every Siegel–Tukey rank is equal, where R's normal
/// approximation is 0/0 and returns NaN (e.g. ``[1, 1]`` vs ``[5, 5]``; the exact variant gives
/// p = 1 there); ``ValueError`` for an unknown mode; ``TypeError`` for a non-numeric input.
#[pyfunction]
#[pyo3(signature = (x, y, /, *, alternative = "two-sided", method = "auto", variant = "exact"))]
fn siegel_tukey(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    y: &Bound<'_, PyAny>,
    alternative: &str,
    method: &str,
    variant: &str,
) -> PyResult<SiegelTukeyResult> {
    let opts = options(alternative, method, variant)?;
    let xs = vec_1d(x, "x")?;
    let ys = vec_1d(y, "y")?;
    let r = py
        .detach(|| stats::siegel_tukey(&xs, &ys, opts))
        .map_err(to_pyerr)?;
    Ok(SiegelTukeyResult {
        statistic: r.statistic,
        pvalue: r.pvalue,
        method: r.method.as_str(),
        alternative: opts.alternative.as_str(),
        variant: opts.variant.as_str(),
    })
}

/// Row-wise :func:`siegel_tukey` over two 2-D arrays with the same number of rows, NaN entries
/// being padding. Multi-threaded, GIL released. Returns ``(statistic, pvalue, method_code,
/// status_code)``: method 0 exact, 1 asymptotic, 2 none; status indexes
/// :data:`SIEGEL_TUKEY_STATUS`, and rows with a non-zero status have NaN statistic and p-value.
/// Raises ``ShapeError`` when the row counts differ. Use
/// :func:`matheval_fast.stats.siegel_tukey_batch` for a named result.
#[pyfunction]
#[pyo3(signature = (x, y, /, *, alternative = "two-sided", method = "auto", variant = "exact"))]
fn siegel_tukey_batch<'py>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    y: &Bound<'py, PyAny>,
    alternative: &str,
    method: &str,
    variant: &str,
) -> PyResult<Bound<'py, PyTuple>> {
    let opts = options(alternative, method, variant)?;
    let (xs, rows, wx) = vec_2d(x, "x")?;
    let (ys, rows_y, wy) = vec_2d(y, "y")?;
    if rows != rows_y {
        return Err(to_pyerr(crate::Error::Shape(format!(
            "siegel_tukey_batch: x has {rows} rows but y has {rows_y}"
        ))));
    }
    let pool = crate::batch::pool(None).map_err(to_pyerr)?;
    let out = py
        .detach(|| pool.install(|| stats::siegel_tukey_batch(&xs, &ys, rows, wx, wy, opts)))
        .map_err(to_pyerr)?;
    let items = [
        out.statistic.into_pyarray(py).into_any(),
        out.pvalue.into_pyarray(py).into_any(),
        out.method.into_pyarray(py).into_any(),
        out.status.into_pyarray(py).into_any(),
    ];
    PyTuple::new(py, items)
}

/// Integer label codes. Float input is accepted only when every value is a whole number: a NaN is
/// a missing label (a `DomainError` naming it), never cast to some integer.
fn label_codes(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Vec<i64>> {
    // Look at the element type before any cast (numpy casts a list of floats to int silently).
    let array = if obj.cast::<PyUntypedArray>().is_ok()
        || obj.is_instance_of::<PyString>()
        || obj.is_instance_of::<PyBytes>()
    {
        obj.clone()
    } else {
        match get_array_module(obj.py())?
            .getattr("asarray")?
            .call1((obj,))
        {
            Ok(a) => a,
            Err(_) => obj.clone(), // `numeric` below names the argument in its TypeError
        }
    };
    let is_float = array
        .cast::<PyUntypedArray>()
        .is_ok_and(|a| a.dtype().kind() == b'f');
    if !is_float {
        let a: PyArrayLike1<'_, i64, AllowTypeChange> = numeric(&array, name, 1)?;
        return Ok(a.as_array().to_vec());
    }
    let a: PyArrayLike1<'_, f64, AllowTypeChange> = numeric(&array, name, 1)?;
    a.as_array()
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            // i64::MAX as f64 rounds up to 2^63, so the upper bound is exclusive.
            if v.fract() == 0.0 && v >= i64::MIN as f64 && v < i64::MAX as f64 {
                Ok(v as i64)
            } else if v.is_nan() {
                Err(to_pyerr(crate::Error::Domain(format!(
                    "cohen_kappa: {name}[{i}] is NaN, a missing label; drop the pair or label it"
                ))))
            } else {
                Err(to_pyerr(crate::Error::InvalidValue(format!(
                    "cohen_kappa: {name}[{i}] = {v} is not an integer label code"
                ))))
            }
        })
        .collect()
}

/// Cohen's kappa of two integer label arrays (see :func:`matheval_fast.stats.cohen_kappa`).
///
/// Float arrays are accepted when every value is a whole number; a NaN (a missing label) raises
/// ``DomainError``, another fraction ``ValueError``.
#[pyfunction]
#[pyo3(signature = (a, b, /))]
fn cohen_kappa(py: Python<'_>, a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<f64> {
    let (a, b) = (label_codes(a, "a")?, label_codes(b, "b")?);
    py.detach(|| stats::cohen_kappa(&a, &b)).map_err(to_pyerr)
}

/// (tp, fp, fn, tn, accuracy, precision, recall, f1, macro_f1)
type ConfusionTuple = (u64, u64, u64, u64, f64, f64, f64, f64, f64);

/// ``(tp, fp, fn, tn, accuracy, precision, recall, f1, macro_f1)`` of two boolean arrays (see
/// :func:`matheval_fast.stats.confusion_metrics`).
#[pyfunction]
#[pyo3(signature = (y_true, y_pred, /, *, zero_division = 0.0))]
fn confusion_metrics(
    py: Python<'_>,
    y_true: PyArrayLike1<'_, bool, AllowTypeChange>,
    y_pred: PyArrayLike1<'_, bool, AllowTypeChange>,
    zero_division: f64,
) -> PyResult<ConfusionTuple> {
    let (t, p) = (y_true.as_array().to_vec(), y_pred.as_array().to_vec());
    let m = py
        .detach(|| stats::confusion_counts(&t, &p).and_then(|c| c.metrics(zero_division)))
        .map_err(to_pyerr)?;
    let c = m.counts;
    Ok((
        c.tp,
        c.fp,
        c.fn_,
        c.tn,
        m.accuracy,
        m.precision,
        m.recall,
        m.f1,
        m.macro_f1,
    ))
}

/// A count: a non-negative integer up to 2^64 - 1. Negative or larger ints are a `ValueError` saying
/// so (not the `OverflowError` of the integer conversion); bools, floats and others a `TypeError`.
fn count(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<u64> {
    if obj.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!(
            "{name} must be an int, got bool"
        )));
    }
    match obj.extract::<u64>() {
        Ok(v) => Ok(v),
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => {
            let what = if obj.lt(0)? {
                "must not be negative"
            } else {
                "is too large (at most 2**64 - 1)"
            };
            Err(to_pyerr(crate::Error::InvalidValue(format!(
                "{name} {what}, got {obj}"
            ))))
        }
        Err(_) => Err(PyTypeError::new_err(format!(
            "{name} must be an int, got {}",
            obj.get_type().name()?
        ))),
    }
}

/// Wilson score interval ``(low, high)`` for ``successes`` out of ``n`` at two-sided
/// ``confidence``.
///
/// Raises ``DomainError`` for ``n == 0``, ``ValueError`` for a negative count, a count above
/// ``2**64 - 1``, ``successes > n`` or a confidence outside (0, 1), and ``TypeError`` for a
/// count that is not an int.
#[pyfunction]
#[pyo3(signature = (successes, n, /, *, confidence = 0.95))]
fn wilson_interval(
    successes: &Bound<'_, PyAny>,
    n: &Bound<'_, PyAny>,
    confidence: f64,
) -> PyResult<(f64, f64)> {
    let (successes, n) = (count(successes, "successes")?, count(n, "n")?);
    stats::wilson_interval(successes, n, confidence).map_err(to_pyerr)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<SiegelTukeyResult>()?;
    m.add(
        "SIEGEL_TUKEY_STATUS",
        vocabulary(m, "siegel_tukey_status", Status::NAMES)?,
    )?;
    vocabulary(m, "alternative", Alternative::NAMES)?;
    vocabulary(m, "method", Method::NAMES)?;
    vocabulary(m, "variant", Variant::NAMES)?;
    m.add_function(wrap_pyfunction!(siegel_tukey, m)?)?;
    m.add_function(wrap_pyfunction!(siegel_tukey_batch, m)?)?;
    m.add_function(wrap_pyfunction!(cohen_kappa, m)?)?;
    m.add_function(wrap_pyfunction!(confusion_metrics, m)?)?;
    m.add_function(wrap_pyfunction!(wilson_interval, m)?)?;
    Ok(())
}
