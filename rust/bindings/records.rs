//! Bindings for [`crate::records`]: JSON Lines fields out as Arrow-style buffers (numpy arrays
//! that take over the Rust vectors, no copy: offsets, numbers, UTF-8 data, validity bitmaps), and
//! the annotated copy.

use numpy::{IntoPyArray, PyArray1, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyList, PyModule, PyTuple};

use super::batch::{ArrowView, TextColumn};
use super::convert::vocabulary;
use super::error::to_pyerr;
use crate::check::Input;
use crate::column::Texts;
use crate::error::Error;
use crate::gold::{reduce_gold, GoldRule};
use crate::records::{self, Column, Field, Member, Want};

/// LSB-first validity bitmap (Arrow's layout) and its null count.
fn bitmap(valid: &[bool]) -> (Vec<u8>, usize) {
    let mut bits = vec![0u8; valid.len().div_ceil(8)];
    let mut nulls = 0;
    for (i, &v) in valid.iter().enumerate() {
        if v {
            bits[i / 8] |= 1 << (i % 8);
        } else {
            nulls += 1;
        }
    }
    (bits, nulls)
}

fn column_tuple<'py>(py: Python<'py>, c: Column) -> PyResult<Bound<'py, PyTuple>> {
    match c {
        Column::Text {
            offsets,
            data,
            valid,
            tags,
        } => {
            let (bits, nulls) = bitmap(&valid);
            PyTuple::new(
                py,
                [
                    "text".into_pyobject(py)?.into_any(),
                    offsets.into_pyarray(py).into_any(),
                    data.into_pyarray(py).into_any(),
                    bits.into_pyarray(py).into_any(),
                    nulls.into_pyobject(py)?.into_any(),
                    tags.into_pyarray(py).into_any(),
                ],
            )
        }
        Column::TextList {
            list_offsets,
            valid,
            item_offsets,
            item_data,
            item_valid,
            tags,
        } => {
            let (bits, nulls) = bitmap(&valid);
            let (ibits, inulls) = bitmap(&item_valid);
            PyTuple::new(
                py,
                [
                    "list".into_pyobject(py)?.into_any(),
                    list_offsets.into_pyarray(py).into_any(),
                    bits.into_pyarray(py).into_any(),
                    nulls.into_pyobject(py)?.into_any(),
                    item_offsets.into_pyarray(py).into_any(),
                    item_data.into_pyarray(py).into_any(),
                    ibits.into_pyarray(py).into_any(),
                    inulls.into_pyobject(py)?.into_any(),
                    tags.into_pyarray(py).into_any(),
                ],
            )
        }
        Column::Number {
            values,
            valid,
            tags,
        } => {
            let (bits, nulls) = bitmap(&valid);
            PyTuple::new(
                py,
                [
                    "number".into_pyobject(py)?.into_any(),
                    values.into_pyarray(py).into_any(),
                    bits.into_pyarray(py).into_any(),
                    nulls.into_pyobject(py)?.into_any(),
                    tags.into_pyarray(py).into_any(),
                ],
            )
        }
    }
}

/// Run `f` on the bytes of `data`: `bytes` borrowed in place, a `bytearray` copied, any other buffer (memoryview) through `bytes(data)`. (The buffer
/// protocol is not in the stable ABI before Python 3.11, and the wheel is abi3 from 3.10.)
fn with_bytes<R>(data: &Bound<'_, PyAny>, f: impl FnOnce(&[u8]) -> PyResult<R>) -> PyResult<R> {
    if let Ok(b) = data.cast::<PyBytes>() {
        return f(b.as_bytes());
    }
    // A uint8 numpy array (the chunk reader's view of its buffer): read in place. Under the abi3
    // limited API a memoryview can only be read through a copy.
    if let Ok(a) = data.cast::<PyArray1<u8>>() {
        let ro = a.try_readonly()?;
        return f(ro.as_slice()?);
    }
    if let Ok(b) = data.cast::<PyByteArray>() {
        return f(&b.to_vec());
    }
    let builtins = PyModule::import(data.py(), "builtins")?;
    let copied = builtins.getattr("bytes")?.call1((data,)).map_err(|_| {
        PyTypeError::new_err("data must be bytes or a buffer of bytes (bytearray, memoryview)")
    })?;
    let b = copied.cast::<PyBytes>()?;
    f(b.as_bytes())
}

fn want(s: &str) -> PyResult<Want> {
    s.parse().map_err(to_pyerr)
}

/// Named fields out of every line of ``data`` (JSON Lines), in parallel, skipping the rest.
///
/// ``fields``: ``(dotted path, kind)``; a path segment of digits indexes an array. Kinds: ``text``
/// (a string's text; numbers and booleans as their JSON literal; arrays and objects as JSON
/// text), ``list`` (an array as a list of texts; a scalar as a list of one), ``number`` (f64;
/// booleans 1/0). Returns ``(lines, starts, ends, bad, columns, tag_names, line_count)``: the
/// 0-based line index and trimmed byte range of each good record (uint64 arrays), the bad lines
/// as ``(line index, message)``, one column per field as Arrow-style buffers (numpy arrays: int64
/// offsets, uint8 UTF-8 data, uint8 LSB-first validity bitmap; the null count; uint8 JSON-type
/// tags named by ``tag_names``), and the number of lines in ``data``. A repeated key keeps its
/// first value; Python's ``NaN``/``Infinity`` literals read as null; a wanted value nested deeper
/// than 128 levels makes its line bad.
#[pyfunction]
#[pyo3(signature = (data, fields, /))]
fn read_json_lines<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    fields: Vec<(String, String)>,
) -> PyResult<Bound<'py, PyTuple>> {
    let specs = fields
        .iter()
        .map(|(p, k)| {
            if p.is_empty() {
                return Err(to_pyerr(Error::InvalidValue(
                    "a field path is empty".into(),
                )));
            }
            Ok(Field {
                path: records::parse_path(p),
                want: want(k)?,
            })
        })
        .collect::<PyResult<Vec<_>>>()?;
    let r = with_bytes(data, |d| {
        Ok(py.detach(|| records::read_json_lines(d, &specs)))
    })?;
    let bad = PyList::empty(py);
    for (line, msg) in r.bad {
        bad.append((line, msg))?;
    }
    let cols = PyList::empty(py);
    for c in r.columns {
        cols.append(column_tuple(py, c)?)?;
    }
    PyTuple::new(
        py,
        [
            r.lines.into_pyarray(py).into_any(),
            r.starts.into_pyarray(py).into_any(),
            r.ends.into_pyarray(py).into_any(),
            bad.into_any(),
            cols.into_any(),
            PyTuple::new(py, records::Tag::NAMES)?.into_any(),
            r.line_count.into_pyobject(py)?.into_any(),
        ],
    )
}

/// The records ``data[starts[i]:ends[i]]`` (JSON objects) as JSON Lines with ``"key": value``
/// members added before each closing brace; everything else byte for byte. Values: ``number``
/// float64 array (NaN = null), ``bool`` int8 array (1, 0, -1 = null), ``text`` a TextColumn (an
/// Arrow string array, read in place) or a list of str/None.
/// With ``append_to`` (a file path) the lines are appended to that file and the byte count
/// returned.
#[pyfunction]
#[pyo3(signature = (data, starts, ends, members, /, append_to=None))]
fn append_json_members<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    starts: PyReadonlyArray1<'py, u64>,
    ends: PyReadonlyArray1<'py, u64>,
    members: &Bound<'py, PyList>,
    append_to: Option<std::path::PathBuf>,
) -> PyResult<Bound<'py, PyAny>> {
    // Values first; a text member's column is held in `texts` (its Arrow borrow must outlive the
    // member that reads it), then the members, which take the numbers over and borrow the texts.
    enum TextSource<'py> {
        Arrow(ArrowView<'py>),
        Owned(Vec<Input>),
    }
    enum Values {
        Number(Vec<Option<f64>>),
        Bool(Vec<Option<bool>>),
        Text(usize),
    }
    let mut texts = Vec::new();
    let mut held = Vec::with_capacity(members.len());
    for item in members.iter() {
        let (key, kind, values): (String, String, Bound<'py, PyAny>) = item.extract()?;
        let v = match kind.as_str() {
            "number" => {
                let a: PyReadonlyArray1<'py, f64> = values.extract()?;
                Values::Number(
                    a.as_array()
                        .iter()
                        .map(|&x| (!x.is_nan()).then_some(x))
                        .collect(),
                )
            }
            "bool" => {
                let a: PyReadonlyArray1<'py, i8> = values.extract()?;
                Values::Bool(
                    a.as_array()
                        .iter()
                        .map(|&x| (x >= 0).then_some(x > 0))
                        .collect(),
                )
            }
            "text" => {
                texts.push(match values.cast::<TextColumn>() {
                    Ok(c) => TextSource::Arrow(ArrowView::of(py, c.get())?),
                    Err(_) => {
                        let list = values.extract::<Vec<Option<String>>>().map_err(|_| {
                            PyTypeError::new_err(format!(
                                "member {key:?}: text values must be a TextColumn or a list of str or None"
                            ))
                        })?;
                        TextSource::Owned(
                            list.into_iter()
                                .map(|t| t.map_or(Input::Missing, Input::Text))
                                .collect(),
                        )
                    }
                });
                Values::Text(texts.len() - 1)
            }
            other => {
                return Err(to_pyerr(Error::InvalidValue(format!(
                    "member kind must be 'number', 'bool' or 'text', got {other:?}"
                ))))
            }
        };
        held.push((key, v));
    }
    let mut ms = Vec::with_capacity(held.len());
    for (key, v) in held {
        ms.push((
            key,
            match v {
                Values::Number(x) => Member::Number(x),
                Values::Bool(x) => Member::Bool(x),
                Values::Text(i) => Member::Text(match &texts[i] {
                    TextSource::Arrow(a) => Texts::Arrow(a.texts()?),
                    TextSource::Owned(t) => Texts::Inputs(t),
                }),
            },
        ));
    }
    let s = starts.as_slice()?;
    let e = ends.as_slice()?;
    records::check_members(s, e, &ms).map_err(to_pyerr)?;
    with_bytes(data, |d| match &append_to {
        // Written straight to the file, a few thousand records at a time through one reused
        // buffer: the copy of a big log never passes through Python, nor through fresh memory.
        Some(path) => {
            use std::io::Write;
            let io_err = |e: std::io::Error| {
                pyo3::exceptions::PyOSError::new_err(format!("{}: {e}", path.display()))
            };
            let written = py.detach(|| -> PyResult<usize> {
                let mut f = std::fs::OpenOptions::new()
                    .append(true)
                    .open(path)
                    .map_err(io_err)?;
                let mut buf = Vec::with_capacity(1 << 20);
                let mut total = 0;
                let n = s.len();
                for a in (0..n).step_by(1024) {
                    buf.clear();
                    records::append_members_into(&mut buf, d, s, e, &ms, a..(a + 1024).min(n))
                        .map_err(to_pyerr)?;
                    f.write_all(&buf).map_err(io_err)?;
                    total += buf.len();
                }
                Ok(total)
            })?;
            Ok(written.into_pyobject(py)?.into_any())
        }
        None => {
            let out = py
                .detach(|| records::append_members(d, s, e, &ms))
                .map_err(to_pyerr)?;
            Ok(PyBytes::new(py, &out).into_any())
        }
    })
}

/// Golds reduced to their answers by the rule every framework's metric agrees with (the last
/// box of a worked solution, GSM8K's ``#### 18`` line, a closing "The answer is" sentence; see
/// ``VOCABULARY["gold_rule"]``). ``column``: a ``TextColumn`` (an Arrow string array, read in
/// place); returns ``(offsets, data, rules, changed)``: the new large-string buffers (null cells
/// stay empty: the caller keeps the array's validity), each cell's rule as a ``uint8`` index into
/// ``VOCABULARY["gold_rule"]`` (``unreduced`` cells keep their whole text), and ``changed`` False
/// when every gold was already an answer.
// The reduction is `crate::gold::reduce_gold`, the one the checker uses.
#[pyfunction]
fn gold_answers<'py>(
    py: Python<'py>,
    column: &Bound<'py, TextColumn>,
) -> PyResult<Bound<'py, PyTuple>> {
    let view = ArrowView::of(py, column.get())?;
    let texts = view.texts()?;
    let (new_off, new_data, rules, changed) = py.detach(|| {
        let n = texts.len();
        let mut o = Vec::with_capacity(n + 1);
        let mut d = Vec::new();
        let mut rules = Vec::with_capacity(n);
        let mut changed = false;
        o.push(0i64);
        for i in 0..n {
            let rule = match texts.cell(i) {
                crate::check::Cell::Text(t) => {
                    let g = reduce_gold(t);
                    changed |= g.answer.len() != t.len();
                    d.extend_from_slice(g.answer.as_bytes());
                    g.rule
                }
                // Not UTF-8: the checker's `error`, from the same bytes; keep them.
                crate::check::Cell::BadUtf8 => {
                    d.extend_from_slice(texts.raw(i));
                    GoldRule::AsWritten
                }
                crate::check::Cell::Missing => GoldRule::AsWritten,
            };
            rules.push(GoldRule::ALL.iter().position(|r| *r == rule).unwrap_or(0) as u8);
            o.push(d.len() as i64);
        }
        (o, d, rules, changed)
    });
    PyTuple::new(
        py,
        [
            new_off.into_pyarray(py).into_any(),
            new_data.into_pyarray(py).into_any(),
            rules.into_pyarray(py).into_any(),
            pyo3::types::PyBool::new(py, changed).to_owned().into_any(),
        ],
    )
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    vocabulary(m, "field_kind", Want::NAMES)?;
    vocabulary(m, "json_type", records::Tag::NAMES)?;
    vocabulary(m, "gold_rule", GoldRule::NAMES)?;
    m.add_function(wrap_pyfunction!(gold_answers, m)?)?;
    m.add_function(wrap_pyfunction!(read_json_lines, m)?)?;
    m.add_function(wrap_pyfunction!(append_json_members, m)?)?;
    Ok(())
}
