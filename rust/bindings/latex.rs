//! Bindings for `crate::latex`: the parser's canonical printed form (tests and debugging).

use pyo3::prelude::*;

use super::error::to_pyerr;
use crate::latex::{self, ParseOptions};

/// Parse LaTeX or plain math and return its canonical printed form.
///
/// The form is SymPy-compatible syntax (``Eq(x, 1)``, ``Interval(0, 1, False, True)``,
/// ``FiniteSet(1, 2)``, ``x**2``); sums and products are printed in source order.
/// Raises ``ParseError`` (with ``.position``, a 0-based character offset) when the text is not
/// a well-formed expression, and on inputs over the size budgets.
#[pyfunction]
#[pyo3(signature = (text, /))]
fn parse_latex(py: Python<'_>, text: &str) -> PyResult<String> {
    let text = text.to_owned();
    py.detach(move || latex::parse(&text, &ParseOptions::default()).map(|e| e.to_string()))
        .map_err(to_pyerr)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(parse_latex, m)?)?;
    Ok(())
}
