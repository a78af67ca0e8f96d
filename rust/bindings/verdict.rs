//! Bindings for `crate::verdict`: the frozen `Verdict` class, `SympyPending` (a verdict only the
//! SymPy fallback can finish), and the names of every protocol-A vocabulary.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};

use super::convert::{mode, vocabulary};
use crate::verdict::{
    Compat, DecidedBy, EvalPolicy, ExtractPolicy, FiniteDecimals, Kind, Reason, SympyOutcome,
    Verdict,
};

/// The outcome of checking one response: ``correct``; ``reason``, why (``"correct"``,
/// ``"incorrect"``, ``"no_answer"``, ``"pred_unparseable"``, ``"gold_unparseable"``,
/// ``"timeout"``, ``"over_budget"``, ``"error"``); ``extracted``, the final answer found in the
/// response (``None`` when there is none); ``path``, the stage that decided (``"literal"``,
/// ``"numeric"``, ``"symbolic"``, ``"sympy"``, ``"none"``). Immutable, hashable, picklable;
/// ``bool(v)`` is ``v.correct``.
#[pyclass(frozen, eq, hash, module = "matheval_fast._core", name = "Verdict")]
#[derive(PartialEq, Eq, Hash)]
pub struct PyVerdict {
    correct: bool,
    reason: Reason,
    extracted: Option<String>,
    path: DecidedBy,
}

impl PyVerdict {
    /// A settled core verdict (its SymPy task, if any, is dropped).
    pub(crate) fn from_core(v: Verdict) -> Self {
        PyVerdict {
            correct: v.correct,
            reason: v.reason,
            extracted: v.extracted,
            path: v.path,
        }
    }
}

#[pymethods]
impl PyVerdict {
    #[new]
    #[pyo3(signature = (correct, reason, extracted, path))]
    fn new(
        correct: bool,
        reason: &Bound<'_, PyAny>,
        extracted: Option<String>,
        path: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let reason: Reason = mode(reason, "reason")?;
        if correct != (reason == Reason::Correct) {
            return Err(PyValueError::new_err(format!(
                "correct={} contradicts reason={:?}: a verdict is correct exactly when its reason is 'correct'",
                if correct { "True" } else { "False" },
                reason.as_str()
            )));
        }
        Ok(PyVerdict {
            correct,
            reason,
            extracted,
            path: mode(path, "path")?,
        })
    }

    /// Is the response's answer equal to the gold?
    #[getter]
    fn correct(&self) -> bool {
        self.correct
    }

    /// Why the verdict is what it is (one of ``REASONS``).
    #[getter]
    fn reason(&self) -> &'static str {
        self.reason.as_str()
    }

    /// The final answer found in the response, or ``None``.
    #[getter]
    fn extracted(&self) -> Option<&str> {
        self.extracted.as_deref()
    }

    /// The stage that decided (one of ``PATHS``).
    #[getter]
    fn path(&self) -> &'static str {
        self.path.as_str()
    }

    fn __bool__(&self) -> bool {
        self.correct
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let extracted = match &self.extracted {
            Some(e) => PyString::new(py, e).repr()?.to_string(),
            None => "None".to_string(),
        };
        Ok(format!(
            "Verdict(correct={}, reason='{}', extracted={extracted}, path='{}')",
            if self.correct { "True" } else { "False" },
            self.reason.as_str(),
            self.path.as_str()
        ))
    }

    /// Pickle support: the constructor arguments.
    fn __getnewargs__(&self) -> (bool, &'static str, Option<&str>, &'static str) {
        (
            self.correct,
            self.reason.as_str(),
            self.extracted.as_deref(),
            self.path.as_str(),
        )
    }
}

/// A verdict only the SymPy fallback can finish: the core handed over ``pairs`` of (prediction,
/// gold) strings to compare in ``compat`` mode (correct iff any pair is equal). ``provisional``
/// is the verdict while SymPy has not answered; :meth:`settle` applies its answer.
#[pyclass(frozen, module = "matheval_fast._core", name = "SympyPending")]
pub struct SympyPending {
    verdict: Verdict,
}

impl SympyPending {
    fn task(&self) -> &crate::verdict::SympyTask {
        self.verdict
            .sympy
            .as_ref()
            .expect("a SympyPending always holds a task")
    }
}

#[pymethods]
impl SympyPending {
    /// ``"fixed"`` (the corrected comparison) or ``"xwin"`` (the seed's ``symbolic_equal``).
    #[getter]
    fn compat(&self) -> &'static str {
        self.task().compat.as_str()
    }

    /// The (prediction, gold) pairs to compare, in order.
    #[getter]
    fn pairs(&self) -> Vec<(String, String)> {
        self.task().pairs.clone()
    }

    /// The verdict as it stands without SymPy (incorrect, or over budget).
    #[getter]
    fn provisional(&self) -> PyVerdict {
        PyVerdict::from_core(self.verdict.clone())
    }

    /// The final verdict for SymPy's ``outcome``: ``"equal"`` (correct), ``"not_equal"``
    /// (incorrect, or over budget when the engine gave up on size), ``"timeout"`` or ``"error"``.
    fn settle(&self, outcome: &Bound<'_, PyAny>) -> PyResult<PyVerdict> {
        let outcome: SympyOutcome = mode(outcome, "outcome")?;
        Ok(PyVerdict::from_core(self.verdict.clone().settle(outcome)))
    }

    fn __repr__(&self) -> String {
        format!(
            "SympyPending(compat='{}', pairs={}, provisional_reason='{}')",
            self.compat(),
            self.task().pairs.len(),
            self.verdict.reason.as_str()
        )
    }
}

/// A core verdict as Python sees it: a `Verdict`, or a `SympyPending` when SymPy must finish it.
pub(crate) fn to_python(py: Python<'_>, v: Verdict) -> PyResult<Bound<'_, PyAny>> {
    if v.sympy.is_some() {
        Ok(Bound::new(py, SympyPending { verdict: v })?.into_any())
    } else {
        Ok(Bound::new(py, PyVerdict::from_core(v))?.into_any())
    }
}

/// `(index, SympyPending)` for a batch item the core left to SymPy.
pub(crate) fn pending(verdict: Verdict) -> SympyPending {
    SympyPending { verdict }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyVerdict>()?;
    m.add_class::<SympyPending>()?;
    let reasons: Bound<'_, PyTuple> = vocabulary(m, "reason", Reason::NAMES)?;
    m.add("REASONS", reasons)?;
    m.add("PATHS", vocabulary(m, "path", DecidedBy::NAMES)?)?;
    vocabulary(m, "compat", Compat::NAMES)?;
    vocabulary(m, "kind", Kind::NAMES)?;
    vocabulary(m, "extract_policy", ExtractPolicy::NAMES)?;
    vocabulary(m, "eval_policy", EvalPolicy::NAMES)?;
    vocabulary(m, "finite_decimals", FiniteDecimals::NAMES)?;
    vocabulary(m, "sympy_outcome", SympyOutcome::NAMES)?;
    Ok(())
}
