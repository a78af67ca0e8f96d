//! Bindings for the LaTeX parser and the equivalence engine (tests and debugging).
use pyo3::prelude::*;

use super::errors::to_pyerr;
use crate::equiv::{self, EquivOptions, Equivalence};
use crate::latex::{self, ParseOptions};

#[pyfunction]
#[pyo3(signature = (text, /))]
fn parse_latex(py: Python<'_>, text: &str) -> PyResult<String> {
    let text = text.to_owned();
    py.detach(move || latex::parse(&text, &ParseOptions::default()).map(|e| e.to_string()))
        .map_err(to_pyerr)
}

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
    let result = match out.result {
        Equivalence::Equal => "equal",
        Equivalence::NotEqual => "not_equal",
        Equivalence::Undecided => "undecided",
    };
    (result, out.path.as_str())
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(parse_latex, m)?)?;
    m.add_function(wrap_pyfunction!(latex_equivalent, m)?)?;
    Ok(())
}
