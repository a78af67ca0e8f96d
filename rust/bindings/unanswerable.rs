//! Bindings for `crate::unanswerable` (protocol B): convert the options, copy the texts, detach,
//! call the core, map errors. The model runs in Python between `unanswerable_prepare` and
//! `UnanswerableBatch.decide`.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use super::convert::{opt_mode, type_name, vocabulary};
use super::error::to_pyerr;
use crate::error::Error;
use crate::unanswerable::{
    self, metrics, AccRule, Analysis, CapitalI, Counts, DecidedBy, EmptyOutput, EqualsSign,
    ExtraWords, Gold, Options, Prepared, Preset, ReferenceSet,
};

/// A batch of outputs after the model-free part of protocol B (immutable): the distinct query
/// windows to embed, the reference sentences, and each output's analysis. Pass the best cosine
/// of every query to :meth:`decide`.
#[pyclass(frozen, module = "matheval_fast._core", name = "UnanswerableBatch")]
pub struct UnanswerableBatch {
    texts: Vec<String>,
    prepared: Prepared,
    options: Options,
}

fn texts_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<String>> {
    if obj.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(format!(
            "{what} must be a sequence of str, not a str"
        )));
    }
    let mut out = Vec::new();
    for (i, item) in obj
        .try_iter()
        .map_err(|_| {
            PyTypeError::new_err(format!(
                "{what} must be a sequence of str, got {}",
                type_name(obj)
            ))
        })?
        .enumerate()
    {
        let item = item?;
        let s = item.cast::<PyString>().map_err(|_| {
            PyTypeError::new_err(format!(
                "{what}[{i}] must be a str, got {}",
                type_name(&item)
            ))
        })?;
        out.push(s.to_string_lossy().into_owned());
    }
    Ok(out)
}

#[allow(clippy::too_many_arguments)]
fn options(
    preset: &Bound<'_, PyAny>,
    window: Option<usize>,
    split_newlines: Option<bool>,
    strip_pieces: Option<bool>,
    normalise_output: Option<bool>,
    references: Option<&Bound<'_, PyAny>>,
    normalise_references: Option<bool>,
    substring_precheck: Option<bool>,
    empty_output: Option<&Bound<'_, PyAny>>,
    math_rule: Option<bool>,
    math_items: Option<usize>,
    capital_i: Option<&Bound<'_, PyAny>>,
    equals: Option<&Bound<'_, PyAny>>,
    extra_words: Option<&Bound<'_, PyAny>>,
    acc: Option<&Bound<'_, PyAny>>,
    threshold: Option<f64>,
) -> PyResult<Options> {
    let preset: Preset = opt_mode(Some(preset), "preset")?.unwrap_or(Preset::Umwp);
    let mut o = Options::preset(preset);
    o.window = window.unwrap_or(o.window);
    o.split_newlines = split_newlines.unwrap_or(o.split_newlines);
    o.strip_pieces = strip_pieces.unwrap_or(o.strip_pieces);
    o.normalise_output = normalise_output.unwrap_or(o.normalise_output);
    o.references = opt_mode::<ReferenceSet>(references, "references")?.unwrap_or(o.references);
    o.normalise_references = normalise_references.unwrap_or(o.normalise_references);
    o.substring_precheck = substring_precheck.unwrap_or(o.substring_precheck);
    o.empty_output =
        opt_mode::<EmptyOutput>(empty_output, "empty_output")?.unwrap_or(o.empty_output);
    o.math_rule = math_rule.unwrap_or(o.math_rule);
    o.math_items = math_items.unwrap_or(o.math_items);
    o.math.capital_i = opt_mode::<CapitalI>(capital_i, "capital_i")?.unwrap_or(o.math.capital_i);
    o.math.equals = opt_mode::<EqualsSign>(equals, "equals")?.unwrap_or(o.math.equals);
    o.math.extra_words =
        opt_mode::<ExtraWords>(extra_words, "extra_words")?.unwrap_or(o.math.extra_words);
    o.acc = opt_mode::<AccRule>(acc, "acc")?.unwrap_or(o.acc);
    o.threshold = threshold.unwrap_or(o.threshold);
    o.validate().map_err(to_pyerr)?;
    Ok(o)
}

fn options_dict<'py>(py: Python<'py>, o: &Options) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("window", o.window)?;
    d.set_item("split_newlines", o.split_newlines)?;
    d.set_item("strip_pieces", o.strip_pieces)?;
    d.set_item("normalise_output", o.normalise_output)?;
    d.set_item("references", o.references.as_str())?;
    d.set_item("normalise_references", o.normalise_references)?;
    d.set_item("substring_precheck", o.substring_precheck)?;
    d.set_item("empty_output", o.empty_output.as_str())?;
    d.set_item("math_rule", o.math_rule)?;
    d.set_item("math_items", o.math_items)?;
    d.set_item("capital_i", o.math.capital_i.as_str())?;
    d.set_item("equals", o.math.equals.as_str())?;
    d.set_item("extra_words", o.math.extra_words.as_str())?;
    d.set_item("acc", o.acc.as_str())?;
    d.set_item("threshold", o.threshold)?;
    Ok(d)
}

/// The model-free part of protocol B over a batch of outputs, multi-threaded with the GIL
/// released: split, query windows (distinct ones collected once for the whole batch), the
/// SelfAware substring pre-check and empty rule, the UMWP math-expression rule, the numbers
/// for UMWP's Acc.
///
/// ``preset`` (``"umwp"`` or ``"selfaware"``) gives the original script's settings; every other
/// keyword overrides one switch (``None`` keeps the preset's): ``window`` (words per query),
/// ``split_newlines``, ``strip_pieces``, ``normalise_output``, ``references``
/// (``"umwp_as_parsed"``, ``"umwp_as_written"``, ``"selfaware"``), ``normalise_references``,
/// ``substring_precheck``, ``empty_output`` (``"scored"``, ``"skipped"``), ``math_rule``,
/// ``math_items``, ``capital_i`` (``"variable"``, ``"word"``), ``equals`` (``"hides_run"``,
/// ``"separates"``), ``extra_words`` (``"enchant_case"``, ``"exact"``, ``"off"``), ``acc``
/// (``"last_pieces_number"``, ``"alias_substring"``), ``threshold``. Unknown names raise
/// ``ValueError`` listing the accepted ones; a non-str text raises ``TypeError`` naming its index.
#[pyfunction]
#[pyo3(signature = (texts, /, *, preset = None, window = None, split_newlines = None,
    strip_pieces = None, normalise_output = None, references = None, normalise_references = None,
    substring_precheck = None, empty_output = None, math_rule = None, math_items = None,
    capital_i = None, equals = None, extra_words = None, acc = None, threshold = None,
    threads = None))]
#[allow(clippy::too_many_arguments)]
fn unanswerable_prepare(
    py: Python<'_>,
    texts: &Bound<'_, PyAny>,
    preset: Option<&Bound<'_, PyAny>>,
    window: Option<usize>,
    split_newlines: Option<bool>,
    strip_pieces: Option<bool>,
    normalise_output: Option<bool>,
    references: Option<&Bound<'_, PyAny>>,
    normalise_references: Option<bool>,
    substring_precheck: Option<bool>,
    empty_output: Option<&Bound<'_, PyAny>>,
    math_rule: Option<bool>,
    math_items: Option<usize>,
    capital_i: Option<&Bound<'_, PyAny>>,
    equals: Option<&Bound<'_, PyAny>>,
    extra_words: Option<&Bound<'_, PyAny>>,
    acc: Option<&Bound<'_, PyAny>>,
    threshold: Option<f64>,
    threads: Option<i64>,
) -> PyResult<UnanswerableBatch> {
    let none = py.None().into_bound(py);
    let options = options(
        preset.unwrap_or(&none),
        window,
        split_newlines,
        strip_pieces,
        normalise_output,
        references,
        normalise_references,
        substring_precheck,
        empty_output,
        math_rule,
        math_items,
        capital_i,
        equals,
        extra_words,
        acc,
        threshold,
    )?;
    let texts = texts_arg(texts, "texts")?;
    let pool = crate::batch::pool(crate::batch::thread_count(threads).map_err(to_pyerr)?)
        .map_err(to_pyerr)?;
    let prepared = py
        .detach(|| pool.install(|| unanswerable::prepare(&texts, &options)))
        .map_err(to_pyerr)?;
    Ok(UnanswerableBatch {
        texts,
        prepared,
        options,
    })
}

fn gold<'a>(
    i: usize,
    golds: Option<&'a [Option<f64>]>,
    aliases: Option<&'a [Option<Vec<String>>]>,
) -> Gold<'a> {
    if let Some(Some(g)) = golds.and_then(|g| g.get(i)) {
        return Gold::Number(*g);
    }
    if let Some(Some(a)) = aliases.and_then(|a| a.get(i)) {
        return Gold::Aliases(a);
    }
    Gold::None
}

fn item_dict<'py>(
    py: Python<'py>,
    a: &Analysis,
    queries: &[String],
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("empty", a.empty)?;
    d.set_item("skipped", a.skipped)?;
    d.set_item("substring_reference", a.substring)?;
    d.set_item("n_windows", a.windows.len())?;
    match &a.math {
        Some(m) => {
            d.set_item("math_expression", &m.expression)?;
            d.set_item("math_item", &m.item)?;
            d.set_item("math_item_from_end", m.item_from_end)?;
        }
        None => {
            d.set_item("math_expression", py.None())?;
            d.set_item("math_item", py.None())?;
            d.set_item("math_item_from_end", py.None())?;
        }
    }
    let _ = queries;
    Ok(d)
}

#[pymethods]
impl UnanswerableBatch {
    fn __len__(&self) -> usize {
        self.texts.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "UnanswerableBatch(items={}, queries={}, references={})",
            self.texts.len(),
            self.prepared.queries.len(),
            self.prepared.references.len()
        )
    }

    /// The distinct query windows of the whole batch, in first-seen order: embed each once.
    #[getter]
    fn queries<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, &self.prepared.queries)
    }

    /// The reference sentences, as the options select and normalise them.
    #[getter]
    fn references<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, &self.prepared.references)
    }

    /// Every switch in force, as a dict (the preset with the overrides applied).
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        options_dict(py, &self.options)
    }

    /// The windows of item ``index`` as indexes into :attr:`queries`.
    fn windows(&self, index: usize) -> PyResult<Vec<u32>> {
        self.prepared
            .items
            .get(index)
            .map(|a| a.windows.clone())
            .ok_or_else(|| {
                to_pyerr(Error::InvalidValue(format!(
                    "index {index} out of range for {} items",
                    self.texts.len()
                )))
            })
    }

    /// The model-free analysis of item ``index``: ``empty``, ``skipped``,
    /// ``substring_reference`` (index into :attr:`references` or None), ``n_windows``,
    /// ``math_expression``, ``math_item`` and ``math_item_from_end`` (None unless the
    /// math-expression rule fired).
    fn analysis<'py>(&self, py: Python<'py>, index: usize) -> PyResult<Bound<'py, PyDict>> {
        let a = self.prepared.items.get(index).ok_or_else(|| {
            to_pyerr(Error::InvalidValue(format!(
                "index {index} out of range for {} items",
                self.texts.len()
            )))
        })?;
        item_dict(py, a, &self.prepared.queries)
    }

    /// Decide every item from ``best`` (the best cosine of each query against the references,
    /// one float per entry of :attr:`queries`) and score it against ``answerable`` (one bool per
    /// item). ``golds``: UMWP's float gold per item (None for unanswerable items);
    /// ``aliases``: SelfAware's alias list per item; both optional (without them Acc is 0).
    ///
    /// Returns a dict of per-item lists: ``unanswerable`` (predicted), ``decided_by``
    /// (``"substring"``, ``"similarity"``, ``"math_expression"``, ``"none"``,
    /// ``"skipped_empty"``), ``score`` (best cosine; NaN when the model was not consulted),
    /// ``best_window`` (index into :attr:`queries` or None), ``similarity_fired``, ``cell``
    /// (``"tp"``, ``"fp"``, ``"fn"``, ``"tn"``, ``"skipped"``), ``acc_hit``. Raises
    /// ``ShapeError`` when a length disagrees.
    #[pyo3(signature = (best, answerable, /, *, golds = None, aliases = None))]
    fn decide<'py>(
        &self,
        py: Python<'py>,
        best: Vec<f64>,
        answerable: Vec<bool>,
        golds: Option<Vec<Option<f64>>>,
        aliases: Option<Vec<Option<Vec<String>>>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let n = self.texts.len();
        let shape = |what: &str, got: usize, want: usize| {
            to_pyerr(Error::Shape(format!(
                "{what} has {got} entries, expected {want}"
            )))
        };
        if best.len() != self.prepared.queries.len() {
            return Err(shape("best", best.len(), self.prepared.queries.len()));
        }
        if answerable.len() != n {
            return Err(shape("answerable", answerable.len(), n));
        }
        if let Some(g) = &golds {
            if g.len() != n {
                return Err(shape("golds", g.len(), n));
            }
        }
        if let Some(a) = &aliases {
            if a.len() != n {
                return Err(shape("aliases", a.len(), n));
            }
        }
        let opts = self.options;
        let rows = py
            .detach(|| -> crate::Result<Vec<_>> {
                (0..n)
                    .map(|i| {
                        let a = &self.prepared.items[i];
                        let d = unanswerable::decide(a, &best, &opts)?;
                        let g = gold(i, golds.as_deref(), aliases.as_deref());
                        let o = metrics::outcome(a, &d, answerable[i], g, &self.texts[i], opts.acc);
                        Ok((d, o))
                    })
                    .collect()
            })
            .map_err(to_pyerr)?;
        let out = PyDict::new(py);
        out.set_item(
            "unanswerable",
            rows.iter().map(|(d, _)| d.unanswerable).collect::<Vec<_>>(),
        )?;
        out.set_item(
            "decided_by",
            rows.iter()
                .map(|(d, _)| d.decided_by.as_str())
                .collect::<Vec<_>>(),
        )?;
        out.set_item(
            "score",
            rows.iter().map(|(d, _)| d.score).collect::<Vec<_>>(),
        )?;
        out.set_item(
            "best_window",
            rows.iter().map(|(d, _)| d.best_window).collect::<Vec<_>>(),
        )?;
        out.set_item(
            "similarity_fired",
            rows.iter()
                .map(|(d, _)| d.similarity_fired)
                .collect::<Vec<_>>(),
        )?;
        out.set_item(
            "cell",
            rows.iter().map(|(_, o)| o.cell()).collect::<Vec<_>>(),
        )?;
        out.set_item(
            "acc_hit",
            rows.iter().map(|(_, o)| o.acc_hit).collect::<Vec<_>>(),
        )?;
        Ok(out)
    }
}

/// Precision, recall, F1 and Acc from confusion counts (unanswerable = positive; each is 0 when
/// its denominator is 0): returns ``(precision, recall, f1, acc)``.
#[pyfunction]
#[pyo3(signature = (*, tp, fp, fn_, acc_hits, answerable))]
fn unanswerable_metrics(
    tp: u64,
    fp: u64,
    fn_: u64,
    acc_hits: u64,
    answerable: u64,
) -> (f64, f64, f64, f64) {
    let c = Counts {
        tp,
        fp,
        fn_,
        acc_hits,
        answerable,
        ..Counts::default()
    };
    let m = c.metrics();
    (m.precision, m.recall, m.f1, m.acc)
}

/// The tokens of ``text`` as spaCy 3.8's blank English tokenizer gives them (the tokenizer of
/// the math-expression rule).
#[pyfunction]
fn unanswerable_tokens(py: Python<'_>, text: String) -> Vec<String> {
    py.detach(|| {
        unanswerable::tokenize::tokenizer()
            .tokens(&text)
            .into_iter()
            .map(str::to_string)
            .collect()
    })
}

/// The expressions UMWP's math-expression rule finds in one split item (non-empty means the item
/// is flagged), with the rule's switches (``capital_i``, ``equals``, ``extra_words``).
#[pyfunction]
#[pyo3(signature = (item, /, *, capital_i = None, equals = None, extra_words = None))]
fn unanswerable_math_expressions(
    py: Python<'_>,
    item: String,
    capital_i: Option<&Bound<'_, PyAny>>,
    equals: Option<&Bound<'_, PyAny>>,
    extra_words: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<String>> {
    let mut o = unanswerable::MathOptions::default();
    o.capital_i = opt_mode(capital_i, "capital_i")?.unwrap_or(o.capital_i);
    o.equals = opt_mode(equals, "equals")?.unwrap_or(o.equals);
    o.extra_words = opt_mode(extra_words, "extra_words")?.unwrap_or(o.extra_words);
    Ok(py.detach(|| unanswerable::math::variable_expressions(&item, &o)))
}

/// Whether ``word`` is a "common word" for the math-expression rule: the Hunspell en_US check
/// (Debian hunspell-en-us 2020.12.07) plus UMWP's extra words.
#[pyfunction]
#[pyo3(signature = (word, /, *, extra_words = None))]
fn unanswerable_dictionary_check(
    word: &str,
    extra_words: Option<&Bound<'_, PyAny>>,
) -> PyResult<bool> {
    let mode = opt_mode(extra_words, "extra_words")?.unwrap_or(ExtraWords::EnchantCase);
    Ok(unanswerable::dictionary::check(word, mode))
}

/// The sentence pieces of ``text`` as UMWP's ``cut_sentence`` (``newline=True``) gives them.
#[pyfunction]
#[pyo3(signature = (text, /, *, newline = true))]
fn unanswerable_split(text: &str, newline: bool) -> Vec<String> {
    unanswerable::split::split_stripped(text, newline)
        .into_iter()
        .map(str::to_string)
        .collect()
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<UnanswerableBatch>()?;
    vocabulary(m, "unanswerable_preset", Preset::NAMES)?;
    vocabulary(m, "unanswerable_references", ReferenceSet::NAMES)?;
    vocabulary(m, "unanswerable_empty_output", EmptyOutput::NAMES)?;
    vocabulary(m, "unanswerable_capital_i", CapitalI::NAMES)?;
    vocabulary(m, "unanswerable_equals", EqualsSign::NAMES)?;
    vocabulary(m, "unanswerable_extra_words", ExtraWords::NAMES)?;
    vocabulary(m, "unanswerable_acc", AccRule::NAMES)?;
    vocabulary(m, "unanswerable_decided_by", DecidedBy::NAMES)?;
    m.add_function(wrap_pyfunction!(unanswerable_prepare, m)?)?;
    m.add_function(wrap_pyfunction!(unanswerable_metrics, m)?)?;
    m.add_function(wrap_pyfunction!(unanswerable_tokens, m)?)?;
    m.add_function(wrap_pyfunction!(unanswerable_math_expressions, m)?)?;
    m.add_function(wrap_pyfunction!(unanswerable_dictionary_check, m)?)?;
    m.add_function(wrap_pyfunction!(unanswerable_split, m)?)?;
    Ok(())
}
