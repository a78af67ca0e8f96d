//! Bindings for protocol A: convert arguments, copy inputs, release the GIL, call the core.

use numpy::PyArray1;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

use super::errors::to_pyerr;
use crate::batch;
use crate::check::{self, CheckOptions, Input};
use crate::config::Config;
use crate::equiv::EquivOptions;
use crate::error::Error;
use crate::verdict::{self, Compat, EvalPolicy, ExtractPolicy, Kind, Verdict};

/// Parse a mode argument: not a str -> TypeError; unknown name -> ValueError.
fn mode<T: std::str::FromStr<Err = Error>>(obj: &Bound<'_, PyAny>, arg: &str) -> PyResult<T> {
    let s = obj.cast::<PyString>().map_err(|_| {
        PyTypeError::new_err(format!("{arg} must be a str, got {}", type_name(obj)))
    })?;
    // The core's message names the argument and every accepted value.
    s.to_str()?.parse::<T>().map_err(to_pyerr)
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "object".into())
}

fn opt_mode<T: std::str::FromStr<Err = Error>>(
    obj: Option<&Bound<'_, PyAny>>,
    arg: &str,
) -> PyResult<Option<T>> {
    match obj {
        None => Ok(None),
        Some(o) if o.is_none() => Ok(None),
        Some(o) => mode(o, arg).map(Some),
    }
}

/// `split`: None -> the seed config's patterns; else a sequence of non-empty str.
fn split_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Vec<String>>> {
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
fn text_input(obj: &Bound<'_, PyAny>, what: &str, index: Option<usize>) -> PyResult<Input> {
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

/// A column of texts copied out of Python (list, tuple, numpy array, or Arrow buffers).
#[pyclass(frozen, module = "matheval_fast._core", name = "TextColumn")]
pub struct TextColumn {
    items: Vec<Input>,
}

#[pymethods]
impl TextColumn {
    /// Build from the buffers of an Arrow string array: `offsets` (n+1 int64), the UTF-8 `data`
    /// bytes, and an optional validity bitmap (`bit_offset` into it). Invalid UTF-8 in a cell
    /// becomes a per-item error, not an exception.
    #[staticmethod]
    #[pyo3(signature = (offsets, data, validity=None, bit_offset=0))]
    fn from_arrow(
        offsets: Vec<i64>,
        data: Vec<u8>,
        validity: Option<Vec<u8>>,
        bit_offset: usize,
    ) -> PyResult<Self> {
        let n = offsets.len().saturating_sub(1);
        let mut items = Vec::with_capacity(n);
        for i in 0..n {
            if let Some(v) = &validity {
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

fn column(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<Input>> {
    if let Ok(c) = obj.cast::<TextColumn>() {
        return Ok(c.get().items.clone());
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
    let mut out = Vec::with_capacity(obj.len().unwrap_or(0));
    for (i, item) in iter.enumerate() {
        out.push(text_input(&item?, what, Some(i))?);
    }
    Ok(out)
}

fn options(
    compat: &Bound<'_, PyAny>,
    kind: &Bound<'_, PyAny>,
    extract_policy: &Bound<'_, PyAny>,
    eval_policy: Option<&Bound<'_, PyAny>>,
    split: Option<&Bound<'_, PyAny>>,
) -> PyResult<CheckOptions> {
    let mut o = CheckOptions {
        compat: mode::<Compat>(compat, "compat")?,
        kind: mode::<Kind>(kind, "kind")?,
        extract_policy: mode::<ExtractPolicy>(extract_policy, "extract_policy")?,
        eval_policy: opt_mode::<EvalPolicy>(eval_policy, "eval_policy")?,
        ..CheckOptions::default()
    };
    if let Some(s) = split_arg(split)? {
        o.split = s;
    }
    Ok(o)
}

type SympyOut = Option<(String, Vec<(String, String)>)>;

fn verdict_tuple(v: Verdict) -> (bool, &'static str, Option<String>, &'static str, SympyOut) {
    let sympy = v.sympy.map(|t| (t.compat.as_str().to_string(), t.pairs));
    (
        v.correct,
        v.reason.as_str(),
        v.extracted,
        v.path.as_str(),
        sympy,
    )
}

/// Single check; returns (correct, reason, extracted, path, sympy_task).
#[pyfunction]
#[pyo3(signature = (response, gold, *, kind, compat, extract_policy, eval_policy=None, split=None))]
#[allow(clippy::too_many_arguments)] // mirrors the Python keyword arguments one to one
fn check_one(
    py: Python<'_>,
    response: &Bound<'_, PyAny>,
    gold: &Bound<'_, PyAny>,
    kind: &Bound<'_, PyAny>,
    compat: &Bound<'_, PyAny>,
    extract_policy: &Bound<'_, PyAny>,
    eval_policy: Option<&Bound<'_, PyAny>>,
    split: Option<&Bound<'_, PyAny>>,
) -> PyResult<(bool, &'static str, Option<String>, &'static str, SympyOut)> {
    let r = text_input(response, "response", None)?;
    let g = text_input(gold, "gold", None)?;
    let o = options(compat, kind, extract_policy, eval_policy, split)?;
    Ok(verdict_tuple(py.detach(|| check::check(&r, &g, &o))))
}

/// The seed's `latex_answer_check` in xwin mode where `split=None` means "no extraction".
#[pyfunction]
#[pyo3(signature = (model_ans, gt, *, extract_policy, eval_policy=None))]
fn xwin_latex_no_extraction(
    py: Python<'_>,
    model_ans: &str,
    gt: &str,
    extract_policy: &Bound<'_, PyAny>,
    eval_policy: Option<&Bound<'_, PyAny>>,
) -> PyResult<(bool, &'static str, Option<String>, &'static str, SympyOut)> {
    let o = CheckOptions {
        compat: Compat::Xwin,
        kind: Kind::Latex,
        extract_policy: mode(extract_policy, "extract_policy")?,
        eval_policy: opt_mode(eval_policy, "eval_policy")?,
        ..CheckOptions::default()
    };
    Ok(verdict_tuple(py.detach(|| {
        if gt.is_empty() || model_ans.len() > check::MAX_INPUT_BYTES {
            check::check(&model_ans.into(), &gt.into(), &o)
        } else {
            check::xwin_latex(model_ans, gt, None, &o)
        }
    })))
}

type BatchOut<'py> = (
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<u8>>,
    Bound<'py, PyArray1<u8>>,
    Bound<'py, PyList>,
    Vec<(usize, String, Vec<(String, String)>)>,
);

/// Batch check. Returns (correct, reason codes, path codes, extracted, sympy tasks by index).
#[pyfunction]
#[pyo3(signature = (responses, golds, kinds=None, *, compat, extract_policy, eval_policy=None, split=None, threads=None))]
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
    let kind_any = PyString::new(py, "auto");
    let o = options(
        compat,
        kind_any.as_any(),
        extract_policy,
        eval_policy,
        split,
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
    let mut sympy = Vec::new();
    let extracted = PyList::empty(py);
    for (i, v) in verdicts.into_iter().enumerate() {
        correct.push(v.correct);
        reason.push(v.reason as u8);
        path.push(v.path as u8);
        match v.extracted {
            Some(e) => extracted.append(PyString::new(py, &e))?,
            None => extracted.append(py.None())?,
        }
        if let Some(t) = v.sympy {
            sympy.push((i, t.compat.as_str().to_string(), t.pairs));
        }
    }
    Ok((
        PyArray1::from_vec(py, correct),
        PyArray1::from_vec(py, reason),
        PyArray1::from_vec(py, path),
        extracted,
        sympy,
    ))
}

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
    let sp = split_arg(split)?.unwrap_or_else(|| Config::seed_default().extract_pattern);
    let pol = opt_mode::<ExtractPolicy>(extract_policy, "extract_policy")?.unwrap_or_default();
    let c = opt_mode::<Compat>(compat, "compat")?.unwrap_or_default();
    Ok(py.detach(|| check::extract_answer(&t, &sp, pol, c)))
}

/// Equivalence of two extracted answers (gold first); returns a verdict tuple.
#[pyfunction]
#[pyo3(signature = (gold, pred, *, strict=false, rounding=true))]
fn equivalent(
    py: Python<'_>,
    gold: &Bound<'_, PyAny>,
    pred: &Bound<'_, PyAny>,
    strict: bool,
    rounding: bool,
) -> PyResult<(bool, &'static str, Option<String>, &'static str, SympyOut)> {
    let g = text_input(gold, "gold", None)?;
    let p = text_input(pred, "pred", None)?;
    let (Input::Text(g), Input::Text(p)) = (g, p) else {
        return Err(PyTypeError::new_err("gold and pred must be str"));
    };
    let eo = EquivOptions {
        strict,
        rounding_tolerance: rounding,
        ..EquivOptions::default()
    };
    Ok(verdict_tuple(py.detach(|| {
        check::verdict_from_equiv(&g, &p, &eo, Some(p.clone()))
    })))
}

/// Validate an eval_config.json text; returns (extract_pattern, {type: (kind, extract, eval)}).
#[pyfunction]
#[allow(clippy::type_complexity)]
fn parse_config(text: &str) -> PyResult<(Vec<String>, Vec<(String, String, String, String)>)> {
    let c = Config::from_json(text).map_err(to_pyerr)?;
    let rows = c
        .policy
        .iter()
        .map(|(k, p)| {
            (
                k.clone(),
                p.kind.as_str().to_string(),
                p.extract_policy.as_str().to_string(),
                p.eval_policy.as_str().to_string(),
            )
        })
        .collect();
    Ok((c.extract_pattern, rows))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // numpy's C API is loaded on first use, by running Python code; loaded here, a Ctrl-C pending at
    // the end of a batch cannot interrupt that import (which the numpy crate turns into a panic).
    PyArray1::<u8>::zeros(m.py(), 0, false);
    m.add_class::<TextColumn>()?;
    m.add_function(wrap_pyfunction!(check_one, m)?)?;
    m.add_function(wrap_pyfunction!(check_batch, m)?)?;
    m.add_function(wrap_pyfunction!(xwin_latex_no_extraction, m)?)?;
    m.add_function(wrap_pyfunction!(extract_answer, m)?)?;
    m.add_function(wrap_pyfunction!(equivalent, m)?)?;
    m.add_function(wrap_pyfunction!(parse_config, m)?)?;
    let reasons = PyTuple::new(m.py(), verdict::Reason::NAMES)?;
    m.add("REASONS", reasons)?;
    m.add("SEED_CONFIG_JSON", crate::config::SEED_CONFIG)?;
    m.add("PATHS", PyTuple::new(m.py(), verdict::DecidedBy::NAMES)?)?;
    Ok(())
}
