//! Argument conversion shared by the binding modules: mode names, texts, anchor patterns, and the
//! `VOCABULARY` table through which Python checks its `Literal[...]` types against the core.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};

use super::error::to_pyerr;
use crate::check::Input;
use crate::error::Error;

/// A mode argument (`compat`, `kind`, ...): not a str is a TypeError; an unknown name is the
/// core's ValueError, which names the argument and every accepted value.
pub(crate) fn mode<T: std::str::FromStr<Err = Error>>(
    obj: &Bound<'_, PyAny>,
    arg: &str,
) -> PyResult<T> {
    let s = obj.cast::<PyString>().map_err(|_| {
        PyTypeError::new_err(format!("{arg} must be a str, got {}", type_name(obj)))
    })?;
    s.to_str()?.parse::<T>().map_err(to_pyerr)
}

/// [`mode`] where `None` (or an absent argument) means "not given".
pub(crate) fn opt_mode<T: std::str::FromStr<Err = Error>>(
    obj: Option<&Bound<'_, PyAny>>,
    arg: &str,
) -> PyResult<Option<T>> {
    match obj {
        None => Ok(None),
        Some(o) if o.is_none() => Ok(None),
        Some(o) => mode(o, arg).map(Some),
    }
}

pub(crate) fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "object".into())
}

/// `split`: None -> not given (the seed config's patterns); else a sequence of non-empty str.
pub(crate) fn split_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Vec<String>>> {
    let Some(o) = obj.filter(|o| !o.is_none()) else {
        return Ok(None);
    };
    if o.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "split must be a list of str, not a str",
        ));
    }
    let mut out = Vec::new();
    for item in o.try_iter().map_err(|_| {
        PyTypeError::new_err(format!("split must be a list of str, got {}", type_name(o)))
    })? {
        let item = item?;
        let s = item
            .cast::<PyString>()
            .map_err(|_| PyTypeError::new_err("split must contain only str"))?
            .to_str()?
            .to_string();
        if s.is_empty() {
            return Err(to_pyerr(Error::InvalidValue(
                "split patterns must not be empty strings".into(),
            )));
        }
        out.push(s);
    }
    Ok(Some(out))
}

/// A Python text value: str -> Text, None -> Missing; str with lone surrogates -> BadUtf8.
pub(crate) fn text_input(
    obj: &Bound<'_, PyAny>,
    what: &str,
    index: Option<usize>,
) -> PyResult<Input> {
    if obj.is_none() {
        return Ok(Input::Missing);
    }
    match obj.cast::<PyString>() {
        Ok(s) => Ok(match s.to_str() {
            Ok(t) => Input::Text(t.to_string()),
            Err(_) => Input::BadUtf8,
        }),
        Err(_) => Err(PyTypeError::new_err(match index {
            Some(i) => format!("{what}[{i}] must be a str or None, got {}", type_name(obj)),
            None => format!("{what} must be a str, got {}", type_name(obj)),
        })),
    }
}

/// Add `label -> names` to the module's `VOCABULARY` dict (created on first use), and return the
/// names as a tuple for modules that also export them under their own name.
pub(crate) fn vocabulary<'py>(
    m: &Bound<'py, PyModule>,
    label: &str,
    names: &[&str],
) -> PyResult<Bound<'py, PyTuple>> {
    let table = match m.getattr("VOCABULARY") {
        Ok(t) => t.cast_into::<PyDict>()?,
        Err(_) => {
            let t = PyDict::new(m.py());
            m.add("VOCABULARY", &t)?;
            t
        }
    };
    let tuple = PyTuple::new(m.py(), names)?;
    table.set_item(label, &tuple)?;
    Ok(tuple)
}
