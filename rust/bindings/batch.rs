//! Bindings for `crate::batch`: columns of texts copied out of Python, checked in parallel with
//! the GIL released.

use numpy::{PyArray1, PyReadonlyArray1};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};

use super::check::{auto_kind, options};
use super::convert::{mode, text_input, type_name};
use super::error::to_pyerr;
use super::verdict::{pending, SympyPending};
use crate::batch;
use crate::check::Input;
use crate::error::Error;
use crate::verdict::Kind;

/// A column of texts copied out of Python, e.g. from the buffers of an Arrow string array.
#[pyclass(frozen, module = "matheval_fast._core", name = "TextColumn")]
pub struct TextColumn {
    items: Vec<Input>,
}

#[pymethods]
impl TextColumn {
    /// Build from the buffers of an Arrow large-string array: ``offsets`` (n+1 int64), the UTF-8
    /// ``data`` bytes, and an optional validity bitmap (``bit_offset`` into it). Invalid UTF-8 in
    /// a cell becomes a per-item ``error`` verdict, not an exception.
    #[staticmethod]
    #[pyo3(signature = (offsets, data, validity=None, bit_offset=0))]
    fn from_arrow(
        offsets: PyReadonlyArray1<'_, i64>,
        data: &[u8],
        validity: Option<&[u8]>,
        bit_offset: usize,
    ) -> PyResult<Self> {
        // Offsets are read in place from the numpy array and the text from the bytes object:
        // each cell is copied once, into its own String.
        let offsets = offsets.as_slice()?;
        let n = offsets.len().saturating_sub(1);
        let mut items = Vec::with_capacity(n);
        for i in 0..n {
            if let Some(v) = validity {
                let bit = bit_offset + i;
                let byte = v
                    .get(bit / 8)
                    .copied()
                    .ok_or_else(|| to_pyerr(Error::Shape("validity bitmap too short".into())))?;
                if byte & (1 << (bit % 8)) == 0 {
                    items.push(Input::Missing);
                    continue;
                }
            }
            let (a, b) = (offsets[i], offsets[i + 1]);
            if a < 0 || b < a || b as usize > data.len() {
                return Err(to_pyerr(Error::Shape(format!(
                    "arrow offsets out of range at item {i}"
                ))));
            }
            items.push(match std::str::from_utf8(&data[a as usize..b as usize]) {
                Ok(s) => Input::Text(s.to_string()),
                Err(_) => Input::BadUtf8,
            });
        }
        Ok(TextColumn { items })
    }

    fn __len__(&self) -> usize {
        self.items.len()
    }
}

/// A column's items: borrowed from a `TextColumn` (it is frozen: nothing can change them while
/// the batch runs), or copied out of a Python sequence.
enum Column<'a> {
    Borrowed(&'a [Input]),
    Owned(Vec<Input>),
}

impl std::ops::Deref for Column<'_> {
    type Target = [Input];
    fn deref(&self) -> &[Input] {
        match self {
            Column::Borrowed(s) => s,
            Column::Owned(v) => v,
        }
    }
}

fn column<'a>(obj: &'a Bound<'_, PyAny>, what: &str) -> PyResult<Column<'a>> {
    if let Ok(c) = obj.cast::<TextColumn>() {
        return Ok(Column::Borrowed(&c.get().items));
    }
    Ok(Column::Owned(sequence(obj, what)?))
}

fn sequence(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<Input>> {
    if obj.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(format!(
            "{what} must be a sequence of str, not a single str"
        )));
    }
    let iter = obj.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "{what} must be a sequence of str, got {}",
            type_name(obj)
        ))
    })?;
    let mut out = Vec::with_capacity(obj.len().unwrap_or(0));
    for (i, item) in iter.enumerate() {
        out.push(text_input(&item?, what, Some(i))?);
    }
    Ok(out)
}

type BatchOut<'py> = (
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<u8>>,
    Bound<'py, PyArray1<u8>>,
    Bound<'py, PyList>,
    Vec<(usize, Py<SympyPending>)>,
);

/// Check many responses in parallel with the GIL released. Returns ``(correct, reason codes,
/// path codes, extracted answers, pending)``: codes index ``REASONS`` and ``PATHS``; ``pending``
/// lists ``(index, SympyPending)`` for the items only SymPy can decide (their array entries are
/// provisional). Raises ``ShapeError`` for mismatched lengths and ``TypeError`` for non-str items.
#[pyfunction]
#[pyo3(signature = (responses, golds, kinds=None, *, compat, extract_policy, eval_policy=None, split=None, threads=None, finite_decimals=None))]
#[allow(clippy::too_many_arguments)] // mirrors the Python keyword arguments one to one
fn check_batch<'py>(
    py: Python<'py>,
    responses: &Bound<'py, PyAny>,
    golds: &Bound<'py, PyAny>,
    kinds: Option<&Bound<'py, PyAny>>,
    compat: &Bound<'py, PyAny>,
    extract_policy: &Bound<'py, PyAny>,
    eval_policy: Option<&Bound<'py, PyAny>>,
    split: Option<&Bound<'py, PyAny>>,
    threads: Option<usize>,
    finite_decimals: Option<&Bound<'py, PyAny>>,
) -> PyResult<BatchOut<'py>> {
    let r = column(responses, "responses")?;
    let g = column(golds, "golds")?;
    let ks: Option<Vec<Kind>> = match kinds.filter(|k| !k.is_none()) {
        None => None,
        Some(k) => {
            let mut v = Vec::new();
            for item in k
                .try_iter()
                .map_err(|_| PyTypeError::new_err("kinds must be a sequence of str"))?
            {
                v.push(mode::<Kind>(&item?, "kinds")?);
            }
            Some(v)
        }
    };
    let o = options(
        compat,
        auto_kind(py).as_any(),
        extract_policy,
        eval_policy,
        split,
        finite_decimals,
    )?;
    batch::check_shapes(r.len(), g.len(), ks.as_ref().map(Vec::len)).map_err(to_pyerr)?;
    // Taken while attached: with the GIL held, no other thread can be inside the pool registry's
    // lock when this process forks.
    let pool = batch::pool(threads).map_err(to_pyerr)?;
    let n = r.len();
    let mut verdicts = Vec::with_capacity(n);
    // Chunks of well under a second with the GIL released, and a look for Ctrl-C between them.
    for range in batch::chunks(&r, &g, pool.current_num_threads()) {
        let ks_part = ks.as_deref().map(|k| &k[range.clone()]);
        let part = py
            .detach(|| batch::check_batch(&r[range.clone()], &g[range.clone()], ks_part, &o, &pool))
            .map_err(to_pyerr)?;
        verdicts.extend(part);
        py.check_signals()?;
    }
    let mut correct = Vec::with_capacity(n);
    let mut reason = Vec::with_capacity(n);
    let mut path = Vec::with_capacity(n);
    let mut waiting = Vec::new();
    let extracted = PyList::empty(py);
    for (i, v) in verdicts.into_iter().enumerate() {
        correct.push(v.correct);
        reason.push(v.reason as u8);
        path.push(v.path as u8);
        match &v.extracted {
            Some(e) => extracted.append(PyString::new(py, e))?,
            None => extracted.append(py.None())?,
        }
        if v.sympy.is_some() {
            waiting.push((i, Py::new(py, pending(v))?));
        }
    }
    Ok((
        PyArray1::from_vec(py, correct),
        PyArray1::from_vec(py, reason),
        PyArray1::from_vec(py, path),
        extracted,
        waiting,
    ))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // numpy's C API is loaded on first use, by running Python code; loaded here, a Ctrl-C pending at
    // the end of a batch cannot interrupt that import (which the numpy crate turns into a panic).
    PyArray1::<u8>::zeros(m.py(), 0, false);
    m.add_class::<TextColumn>()?;
    m.add_function(wrap_pyfunction!(check_batch, m)?)?;
    Ok(())
}
