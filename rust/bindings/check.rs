//! Bindings for `crate::check`: one response against one gold, and answer extraction.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyString;

use super::convert::{mode, opt_mode, split_arg, text_input};
use super::verdict::to_python;
use crate::check::{self, CheckOptions, Input};
use crate::config::Config;
use crate::equiv::EquivOptions;
use crate::verdict::{Compat, EvalPolicy, ExtractPolicy, FiniteDecimals, Kind};

/// The options of one check from the Python keyword arguments.
pub(crate) fn options(
    compat: &Bound<'_, PyAny>,
    kind: &Bound<'_, PyAny>,
    extract_policy: &Bound<'_, PyAny>,
    eval_policy: Option<&Bound<'_, PyAny>>,
    split: Option<&Bound<'_, PyAny>>,
    finite_decimals: Option<&Bound<'_, PyAny>>,
) -> PyResult<CheckOptions> {
    let mut o = CheckOptions {
        compat: mode::<Compat>(compat, "compat")?,
        kind: mode::<Kind>(kind, "kind")?,
        extract_policy: mode::<ExtractPolicy>(extract_policy, "extract_policy")?,
        eval_policy: opt_mode::<EvalPolicy>(eval_policy, "eval_policy")?,
        finite_decimals: opt_mode::<FiniteDecimals>(finite_decimals, "finite_decimals")?
            .unwrap_or_default(),
        ..CheckOptions::default()
    };
    if let Some(s) = split_arg(split)? {
        o.split = s;
    }
    Ok(o)
}

/// Check one response against one gold answer with the Rust core. Returns a :class:`Verdict`,
/// or a :class:`SympyPending` when only the SymPy fallback can decide (the Python API settles
/// it). ``split=None`` uses the seed config's anchor phrases; ``finite_decimals=None`` is
/// ``"exact"``.
#[pyfunction]
#[pyo3(signature = (response, gold, *, kind, compat, extract_policy, eval_policy=None, split=None, finite_decimals=None))]
#[allow(clippy::too_many_arguments)] // mirrors the Python keyword arguments one to one
fn check_one<'py>(
    py: Python<'py>,
    response: &Bound<'py, PyAny>,
    gold: &Bound<'py, PyAny>,
    kind: &Bound<'py, PyAny>,
    compat: &Bound<'py, PyAny>,
    extract_policy: &Bound<'py, PyAny>,
    eval_policy: Option<&Bound<'py, PyAny>>,
    split: Option<&Bound<'py, PyAny>>,
    finite_decimals: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let r = text_input(response, "response", None)?;
    let g = text_input(gold, "gold", None)?;
    let o = options(
        compat,
        kind,
        extract_policy,
        eval_policy,
        split,
        finite_decimals,
    )?;
    to_python(py, py.detach(|| check::check(&r, &g, &o)))
}

/// The seed's ``latex_answer_check`` in xwin mode with ``split=None``: ``model_ans`` is taken as
/// the answer, without extraction. Returns a :class:`Verdict` or a :class:`SympyPending`.
#[pyfunction]
#[pyo3(signature = (model_ans, gt, *, extract_policy, eval_policy=None))]
fn xwin_latex_no_extraction<'py>(
    py: Python<'py>,
    model_ans: &str,
    gt: &str,
    extract_policy: &Bound<'py, PyAny>,
    eval_policy: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let o = CheckOptions {
        compat: Compat::Xwin,
        kind: Kind::Latex,
        extract_policy: mode(extract_policy, "extract_policy")?,
        eval_policy: opt_mode(eval_policy, "eval_policy")?,
        ..CheckOptions::default()
    };
    let v = py.detach(|| {
        // `split=None`: the seed never extracts, whatever the gold (an empty one too); only an
        // input over the size limit goes through `check`, for its `over_budget` verdict.
        if model_ans.len() > check::MAX_INPUT_BYTES {
            check::check(&model_ans.into(), &gt.into(), &o)
        } else {
            check::xwin_latex(model_ans, gt, None, &o)
        }
    });
    to_python(py, v)
}

/// The final answer in ``text`` (``None`` if there is none). ``split=None`` uses the seed
/// config's anchor phrases; ``compat`` picks the fixed extractor or the seed's.
#[pyfunction]
#[pyo3(signature = (text, split=None, extract_policy=None, *, compat=None))]
fn extract_answer(
    py: Python<'_>,
    text: &Bound<'_, PyAny>,
    split: Option<&Bound<'_, PyAny>>,
    extract_policy: Option<&Bound<'_, PyAny>>,
    compat: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<String>> {
    let t = match text_input(text, "text", None)? {
        Input::Text(t) => t,
        _ => return Ok(None),
    };
    let sp = split_arg(split)?;
    let pol = opt_mode::<ExtractPolicy>(extract_policy, "extract_policy")?.unwrap_or_default();
    let c = opt_mode::<Compat>(compat, "compat")?.unwrap_or_default();
    Ok(py.detach(|| {
        let split = sp.as_deref().unwrap_or(&Config::seed().extract_pattern);
        check::extract_answer(&t, split, pol, c)
    }))
}

/// Are two already-extracted answers equivalent? Gold first, as in math-verify. Returns a
/// :class:`Verdict` (``extracted`` is ``pred``) or a :class:`SympyPending`. ``strict=True``
/// allows only trivial rewriting; ``rounding=False`` turns off the rounding-aware tolerance;
/// ``finite_decimals`` (default ``"exact"``) says whether a value with a finite decimal form is
/// exact against a coarser decimal.
#[pyfunction]
#[pyo3(signature = (gold, pred, *, strict=false, rounding=true, finite_decimals=None))]
fn equivalent<'py>(
    py: Python<'py>,
    gold: &Bound<'py, PyAny>,
    pred: &Bound<'py, PyAny>,
    strict: bool,
    rounding: bool,
    finite_decimals: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let g = text_input(gold, "gold", None)?;
    let p = text_input(pred, "pred", None)?;
    let (Input::Text(g), Input::Text(p)) = (g, p) else {
        return Err(PyTypeError::new_err("gold and pred must be str"));
    };
    let eo = EquivOptions {
        strict,
        rounding_tolerance: rounding,
        finite_decimals: opt_mode::<FiniteDecimals>(finite_decimals, "finite_decimals")?
            .unwrap_or_default(),
        ..EquivOptions::default()
    };
    let v = py.detach(|| check::verify(&g, &p, &eo));
    to_python(py, v)
}

/// `"auto"` as a Python str (the batch's default kind).
pub(crate) fn auto_kind(py: Python<'_>) -> Bound<'_, PyString> {
    PyString::new(py, Kind::Auto.as_str())
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(check_one, m)?)?;
    m.add_function(wrap_pyfunction!(xwin_latex_no_extraction, m)?)?;
    m.add_function(wrap_pyfunction!(extract_answer, m)?)?;
    m.add_function(wrap_pyfunction!(equivalent, m)?)?;
    Ok(())
}
