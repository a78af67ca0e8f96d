//! Bindings for `crate::batch`: columns of texts read in place (Python str objects held for the
//! call, or Arrow buffers), checked in parallel with the GIL released.

use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyList, PyString, PyTuple};

use super::check::{auto_kind, options};
use super::convert::{mode, type_name};
use super::error::to_pyerr;
use super::verdict::{pending, SympyPending};
use crate::batch;
use crate::check::Cell;
use crate::column::{ArrowTexts, Stored, StringColumn};
use crate::error::Error;
use crate::json_out::{self, JsonColumn};
use crate::verdict::Kind;

/// A column of texts in Arrow's layout, read in place by the batch driver: the numpy views of an
/// Arrow large-string (or large-binary) array's buffers, held (and so kept alive) here.
#[pyclass(frozen, module = "matheval_fast._core", name = "TextColumn")]
pub(crate) struct TextColumn {
    offsets: Py<PyArray1<i64>>,
    data: Py<PyArray1<u8>>,
    validity: Option<Py<PyArray1<u8>>>,
    bit_offset: usize,
    len: usize,
}

#[pymethods]
impl TextColumn {
    /// Build from the buffers of an Arrow large-string array, as numpy views (``np.frombuffer``):
    /// ``offsets`` (n+1 int64), the UTF-8 ``data`` bytes (uint8), and an optional validity bitmap
    /// (uint8, ``bit_offset`` into it). Nothing is copied; the offsets are checked here. Invalid
    /// UTF-8 in a cell becomes a per-item ``error`` verdict, not an exception.
    #[staticmethod]
    #[pyo3(signature = (offsets, data, validity=None, bit_offset=0))]
    fn from_arrow(
        py: Python<'_>,
        offsets: Bound<'_, PyArray1<i64>>,
        data: Bound<'_, PyArray1<u8>>,
        validity: Option<Bound<'_, PyArray1<u8>>>,
        bit_offset: usize,
    ) -> PyResult<Self> {
        let col = TextColumn {
            offsets: offsets.unbind(),
            data: data.unbind(),
            validity: validity.map(Bound::unbind),
            bit_offset,
            len: 0,
        };
        let len = ArrowView::of(py, &col)?.texts()?.len();
        Ok(TextColumn { len, ..col })
    }

    fn __len__(&self) -> usize {
        self.len
    }
}

/// Read-only borrows of a `TextColumn`'s arrays for the length of one call.
pub(crate) struct ArrowView<'py> {
    offsets: PyReadonlyArray1<'py, i64>,
    data: PyReadonlyArray1<'py, u8>,
    validity: Option<PyReadonlyArray1<'py, u8>>,
    bit_offset: usize,
}

impl<'py> ArrowView<'py> {
    pub(crate) fn of(py: Python<'py>, c: &TextColumn) -> PyResult<Self> {
        let ro = |a: &Py<PyArray1<u8>>| -> PyResult<PyReadonlyArray1<'py, u8>> {
            Ok(a.bind(py).try_readonly()?)
        };
        Ok(ArrowView {
            offsets: c.offsets.bind(py).try_readonly()?,
            data: ro(&c.data)?,
            validity: c.validity.as_ref().map(ro).transpose()?,
            bit_offset: c.bit_offset,
        })
    }

    pub(crate) fn texts(&self) -> PyResult<ArrowTexts<'_>> {
        let validity = match &self.validity {
            Some(v) => Some(v.as_slice()?),
            None => None,
        };
        ArrowTexts::new(
            self.offsets.as_slice()?,
            self.data.as_slice()?,
            validity,
            self.bit_offset,
        )
        .map_err(to_pyerr)
    }
}

/// A column of `check_batch`: an Arrow column read in place, or a tuple of the input's items (a
/// snapshot of a list: no other thread can change it while the GIL is released, and it holds
/// every str for the call). Its items are read block by block with the GIL held while the
/// checking threads work on the blocks already read (`batch::check_chunks`).
enum Column<'py> {
    Arrow(ArrowView<'py>),
    Python(Bound<'py, PyTuple>),
}

/// A column's items, ready to read: Arrow cells, or the items of a tuple.
enum Source<'py, 'a> {
    Arrow(ArrowTexts<'a>),
    Python(&'a Bound<'py, PyTuple>),
}

impl<'a> Source<'_, 'a> {
    fn len(&self) -> usize {
        match self {
            Source::Arrow(t) => t.len(),
            Source::Python(t) => t.len(),
        }
    }

    /// Item `i` as stored and its size in bytes (read with the GIL held).
    fn item(&self, i: usize, what: &str) -> PyResult<(Stored<'a>, usize)> {
        Ok(match self {
            Source::Arrow(t) => (t.stored(i), t.size(i)),
            Source::Python(t) => {
                let cell = text_cell(t.get_borrowed_item(i)?, what, i)?;
                let size = match cell {
                    Cell::Text(s) => s.len(),
                    _ => 0,
                };
                (Stored::Cell(cell), size)
            }
        })
    }
}

impl<'py> Column<'py> {
    fn source<'a>(&'a self) -> PyResult<Source<'py, 'a>> {
        Ok(match self {
            Column::Arrow(a) => Source::Arrow(a.texts()?),
            Column::Python(t) => Source::Python(t),
        })
    }
}

/// A Python text value read in place (the tuple holding it keeps it alive): str -> its UTF-8
/// (which CPython keeps with the object), None -> missing, a str with lone surrogates -> bad
/// UTF-8; anything else is a TypeError.
fn text_cell<'a>(obj: Borrowed<'a, '_, PyAny>, what: &str, index: usize) -> PyResult<Cell<'a>> {
    if obj.is_none() {
        return Ok(Cell::Missing);
    }
    if !obj.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(format!(
            "{what}[{index}] must be a str or None, got {}",
            type_name(&obj)
        )));
    }
    Ok(obj.extract::<&'a str>().map_or(Cell::BadUtf8, Cell::Text))
}

fn column<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<Column<'py>> {
    if let Ok(c) = obj.cast::<TextColumn>() {
        return Ok(Column::Arrow(ArrowView::of(obj.py(), c.get())?));
    }
    // Exactly a list (copied, one pointer per item) or a tuple; a subclass's items may come from
    // Python code, so it is read through its iterator below, like any other iterable.
    if let Ok(l) = obj.cast_exact::<PyList>() {
        return Ok(Column::Python(l.to_tuple()));
    }
    if let Ok(t) = obj.cast_exact::<PyTuple>() {
        return Ok(Column::Python(t.clone()));
    }
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
    let items = iter.collect::<PyResult<Vec<_>>>()?;
    Ok(Column::Python(PyTuple::new(obj.py(), items)?))
}

type BatchOut<'py> = (
    Bound<'py, PyByteArray>,
    Bound<'py, PyByteArray>,
    Bound<'py, PyByteArray>,
    ArrowStrings<'py>,
    Vec<(usize, Py<SympyPending>)>,
);

/// An Arrow large-string array's buffers as bytes: (offsets, native-endian int64; data, UTF-8;
/// validity bitmap; null count).
type ArrowStrings<'py> = (
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    usize,
);

/// Check many responses in parallel with the GIL released. Returns ``(correct, reason codes,
/// path codes, extracted answers, pending)``: ``correct`` (0/1) and the codes are bytearrays, one
/// byte per item (numpy is not needed, nor imported, for a batch of Python lists: its import
/// starts OpenBLAS threads that spin on a core for a tenth of a second); codes index ``REASONS``
/// and ``PATHS``; the
/// extracted answers are an Arrow large-string array's buffers ``(offsets, data, validity,
/// null_count)``, so no string object is made per row; ``pending``
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
    threads: Option<i64>,
    finite_decimals: Option<&Bound<'py, PyAny>>,
) -> PyResult<BatchOut<'py>> {
    let (rc, gc) = (column(responses, "responses")?, column(golds, "golds")?);
    let (r, g) = (rc.source()?, gc.source()?);
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
    let pool =
        batch::pool(crate::batch::thread_count(threads).map_err(to_pyerr)?).map_err(to_pyerr)?;
    // Chunks of well under a second, each read here (the GIL held) while its first blocks are
    // checked, then finished with the GIL released; a look for Ctrl-C between them.
    let out = batch::check_chunks(
        r.len(),
        ks.as_deref(),
        &o,
        &pool,
        |i| Ok((r.item(i, "responses")?, g.item(i, "golds")?)),
        |work| py.detach(work),
        || py.check_signals(),
    )?;
    let batch::VerdictColumns {
        correct,
        reason,
        path,
        extracted,
        pending: provisional,
    } = out;
    let mut waiting = Vec::with_capacity(provisional.len());
    for (i, v) in provisional {
        waiting.push((i, Py::new(py, pending(v))?));
    }
    let StringColumn {
        offsets,
        data,
        validity,
        nulls,
    } = extracted;
    let offsets: Vec<u8> = offsets.iter().flat_map(|o| o.to_ne_bytes()).collect();
    Ok((
        PyByteArray::new(py, &correct),
        PyByteArray::new(py, &reason),
        PyByteArray::new(py, &path),
        (
            PyBytes::new(py, &offsets),
            PyBytes::new(py, &data),
            PyBytes::new(py, &validity),
            nulls,
        ),
        waiting,
    ))
}

/// `(name, kind, values, valid)` of one `json_lines` column.
type JsonLinesColumn<'py> = (String, String, Bound<'py, PyAny>, Option<Bound<'py, PyAny>>);

/// Rows of flat columns as JSON Lines bytes (a uint8 array): what ``json.dumps(row,
/// ensure_ascii=False)`` writes for each row, members in column order. ``columns`` is a list of
/// ``(name, "text", TextColumn)``, ``(name, "int", int64 values, valid or None)`` or ``(name,
/// "bool", bool values, valid or None)``, all of one length. The GIL is released while writing.
#[pyfunction]
fn json_lines<'py>(
    py: Python<'py>,
    columns: Vec<JsonLinesColumn<'py>>,
) -> PyResult<Bound<'py, PyArray1<u8>>> {
    // Borrows first (each kept alive here), then the views the core reads.
    enum Held<'py> {
        Text(ArrowView<'py>),
        Int(
            PyReadonlyArray1<'py, i64>,
            Option<PyReadonlyArray1<'py, bool>>,
        ),
        Bool(
            PyReadonlyArray1<'py, bool>,
            Option<PyReadonlyArray1<'py, bool>>,
        ),
    }
    let mut held = Vec::with_capacity(columns.len());
    for (name, kind, values, valid) in &columns {
        let valid = || -> PyResult<Option<PyReadonlyArray1<'py, bool>>> {
            valid.as_ref().map(|v| v.extract()).transpose()
        };
        held.push(match kind.as_str() {
            "text" => {
                let c = values.cast::<TextColumn>().map_err(|_| {
                    PyTypeError::new_err(format!(
                        "column {name:?}: text values must be a TextColumn"
                    ))
                })?;
                Held::Text(ArrowView::of(py, c.get())?)
            }
            "int" => Held::Int(values.extract()?, valid()?),
            "bool" => Held::Bool(values.extract()?, valid()?),
            other => {
                return Err(to_pyerr(Error::InvalidValue(format!(
                    "column kind must be 'text', 'int' or 'bool', got {other:?}"
                ))))
            }
        });
    }
    let mut views = Vec::with_capacity(held.len());
    for ((name, ..), h) in columns.iter().zip(&held) {
        views.push((
            name.clone(),
            match h {
                Held::Text(a) => JsonColumn::Text(a.texts()?),
                Held::Int(v, m) => JsonColumn::Int(v.as_slice()?, valid_slice(m)?),
                Held::Bool(v, m) => JsonColumn::Bool(v.as_slice()?, valid_slice(m)?),
            },
        ));
    }
    let out = py
        .detach(|| json_out::write_rows(&views))
        .map_err(to_pyerr)?;
    Ok(PyArray1::from_vec(py, out))
}

fn valid_slice<'a>(v: &'a Option<PyReadonlyArray1<'_, bool>>) -> PyResult<Option<&'a [bool]>> {
    Ok(match v {
        Some(a) => Some(a.as_slice()?),
        None => None,
    })
}

/// How many chunks batch calls have finished in this process (work counted, not timed: tests of
/// Ctrl-C read how far a batch got).
#[pyfunction]
fn _chunks_checked() -> usize {
    batch::chunks_checked()
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // numpy's C API is loaded on first use, by running Python code: loaded here when numpy is
    // already imported (nothing then runs that a pending Ctrl-C could interrupt, which the numpy
    // crate turns into a panic). Otherwise numpy is not imported for it: every function of ours
    // that takes or returns numpy arrays is called by a module that imported numpy first.
    let numpy_loaded = m
        .py()
        .import("sys")?
        .getattr("modules")?
        .contains("numpy")?;
    if numpy_loaded {
        PyArray1::<u8>::zeros(m.py(), 0, false);
    }
    m.add_class::<TextColumn>()?;
    m.add_function(wrap_pyfunction!(check_batch, m)?)?;
    m.add_function(wrap_pyfunction!(json_lines, m)?)?;
    m.add_function(wrap_pyfunction!(_chunks_checked, m)?)?;
    Ok(())
}
