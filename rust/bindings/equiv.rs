//! Bindings for `crate::equiv`: the Rust equivalence engine alone (no SymPy).

use pyo3::prelude::*;

use super::convert::vocabulary;
use crate::equiv::{self, EquivOptions, Equivalence};

/// Compare two extracted answers with the Rust equivalence engine (no SymPy).
///
/// Returns ``(result, path)``: ``result`` is ``"equal"``, ``"not_equal"`` or ``"undecided"``;
/// ``path`` names the stage that decided (``"none"`` when undecided). ``strict=True`` allows only
/// trivial rewriting (reordering, ``0.5`` = ``1/2``, no ``3245/5`` = ``649``, no random-point
/// identity testing). The policies are described in ``docs/policies.md``.
#[pyfunction]
#[pyo3(signature = (gold, pred, /, *, strict = false))]
fn latex_equivalent(
    py: Python<'_>,
    gold: &str,
    pred: &str,
    strict: bool,
) -> (&'static str, &'static str) {
    let (gold, pred) = (gold.to_owned(), pred.to_owned());
    let out = py.detach(move || {
        equiv::equivalent(
            &gold,
            &pred,
            &EquivOptions {
                strict,
                ..EquivOptions::default()
            },
        )
    });
    (out.result.as_str(), out.path.as_str())
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(latex_equivalent, m)?)?;
    vocabulary(m, "equivalence", Equivalence::NAMES)?;
    Ok(())
}
