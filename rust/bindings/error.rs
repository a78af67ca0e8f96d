//! One exhaustive mapping from the core's [`Error`] to Python exceptions, for every binding
//! module. Every exception is a `ValueError` subclass, so `except ValueError` keeps working.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::error::Error;

create_exception!(
    matheval_fast._core,
    MathEvalError,
    PyValueError,
    "Base class of matheval_fast errors."
);
create_exception!(
    matheval_fast._core,
    ParseError,
    MathEvalError,
    "Text that must parse did not; see `.position`."
);
create_exception!(
    matheval_fast._core,
    ShapeError,
    MathEvalError,
    "Inputs whose lengths or shapes must agree do not."
);
create_exception!(
    matheval_fast._core,
    ConfigError,
    MathEvalError,
    "A configuration is malformed."
);
create_exception!(
    matheval_fast._core,
    DomainError,
    MathEvalError,
    "A statistic is undefined for the input."
);

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("MathEvalError", py.get_type::<MathEvalError>())?;
    m.add("ParseError", py.get_type::<ParseError>())?;
    m.add("ShapeError", py.get_type::<ShapeError>())?;
    m.add("ConfigError", py.get_type::<ConfigError>())?;
    m.add("DomainError", py.get_type::<DomainError>())?;
    Ok(())
}

/// Core error -> Python exception. Exhaustive on purpose: no catch-all arm.
pub(crate) fn to_pyerr(err: Error) -> PyErr {
    match err {
        Error::Parse { message, position } => Python::attach(|py| {
            let e = ParseError::new_err(format!("{message} at position {position}"));
            // Attach the position as an attribute so callers need not parse the message.
            let _ = e.value(py).setattr("position", position);
            e
        }),
        Error::InvalidValue(m) => PyValueError::new_err(m),
        Error::Shape(m) => ShapeError::new_err(m),
        Error::Config(m) => ConfigError::new_err(m),
        Error::Domain(m) => DomainError::new_err(m),
    }
}
