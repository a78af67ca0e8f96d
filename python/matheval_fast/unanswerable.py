"""Protocol B: did the model say the problem cannot be answered? UMWP and SelfAware, as their papers
computed it.

An output is predicted *unanswerable* ("U") when (SelfAware only) a reference sentence occurs in it,
when one of its word windows is closer than the threshold to a reference sentence (cosine strictly
above 0.75), or (UMWP only) when the "mathematical expression" rule fires on one of its last three
split items. Unanswerable is the positive class of precision, recall and F1.

Everything but the embedding model runs in the Rust core (``_core.unanswerable_prepare``): sentence
splitting, windows (each distinct window is embedded once per call), the substring pre-check, the
math rule (a spaCy-compatible tokenizer and a Hunspell en_US dictionary, no spaCy or Enchant at run
time) and the metrics. Both presets are faithful to the original scripts by default; every quirk is
a named switch (:class:`Switches`).

>>> from matheval_fast import unanswerable
>>> def fake(queries, references):  # any callable: best cosine per query
...     return [0.9 if "not given enough" in q else 0.1 for q in queries]
>>> r = unanswerable.detect(["We are not given enough information.", "The answer is 4."],
...                         preset="umwp", scorer=fake, answerable=[False, True], golds=[None, 4.0])
>>> [v.decided_by for v in r.items], r.summary.overall.f1, r.summary.overall.acc
(['similarity', 'none'], 1.0, 1.0)
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any, cast

import numpy as np

from matheval_fast import _core
from matheval_fast._report.progress import progress_bar
from matheval_fast._vocabulary import (
    UnanswerableAcc,
    UnanswerableCapitalI,
    UnanswerableDecidedBy,
    UnanswerableEmptyOutput,
    UnanswerableEquals,
    UnanswerableExtraWords,
    UnanswerablePreset,
    UnanswerableReferences,
)
from matheval_fast.io.text import iter_json_lines, load_json, open_input

__all__ = [
    "PRESETS",
    "SOURCE_FIELDS",
    "Group",
    "ItemVerdict",
    "Result",
    "Scorer",
    "Summary",
    "Switches",
    "bundled_dataset",
    "detect",
    "detect_records",
    "format_summary",
    "join_dataset",
    "load_records",
    "switches",
]

#: The two presets: UMWP's ``eval.py`` and SelfAware's ``eval_model.py``.
PRESETS: tuple[str, ...] = ("umwp", "selfaware")

#: The field each original harness writes the model output to (SelfAware's evaluator reads
#: ``output``: its generation script writes ``generated_text``, so the field was renamed by hand).
SOURCE_FIELDS: dict[str, str] = {"umwp": "generated_text", "selfaware": "output"}

#: A scorer: ``(queries, references) -> best cosine per query`` (array-like of ``len(queries)``
#: floats), or a pair ``(best, best_reference_index)``. A ``matheval_fast.models.Embedder`` works
#: too (its ``encode`` is used, and the best reference is reported).
Scorer = Callable[[list[str], list[str]], Any]


@dataclass(frozen=True)
class Switches:
    """Every switch of the protocol (see ``docs/protocol_b.md``); :func:`switches` gives a preset's."""

    #: Words per query window (UMWP 6, SelfAware 5), stride 1; a shorter piece is one query.
    window: int
    #: A newline splits sentences (UMWP yes, SelfAware no).
    split_newlines: bool
    #: Pieces are stripped and empty ones dropped before the ">= 2 characters" check (UMWP).
    strip_pieces: bool
    #: The whole output is stripped and lower-cased first (SelfAware).
    normalise_output: bool
    #: Which reference sentences: UMWP's 22 as Python parses them (the original), its 24 as written,
    #: or SelfAware's 16.
    references: UnanswerableReferences
    #: References lower-cased and without their final punctuation (SelfAware); UMWP keeps them as written.
    normalise_references: bool
    #: A reference found in the output is U without the model (SelfAware).
    substring_precheck: bool
    #: ``"scored"`` (UMWP) or ``"skipped"`` from TP/FP/FN/Acc (SelfAware).
    empty_output: UnanswerableEmptyOutput
    #: UMWP's math-expression rule.
    math_rule: bool
    #: How many split items from the end the math rule reads (delimiters count as items).
    math_items: int
    #: A standalone "I": ``"variable"`` (the original flags "I hope this helps!") or ``"word"``.
    capital_i: UnanswerableCapitalI
    #: ``"hides_run"`` (the original: "x = 5" is never flagged) or ``"separates"``.
    equals: UnanswerableEquals
    #: UMWP's 206 extra words: ``"enchant_case"`` (the original's case folding), ``"exact"``, ``"off"``.
    extra_words: UnanswerableExtraWords
    #: ``"last_pieces_number"`` (UMWP) or ``"alias_substring"`` (SelfAware).
    acc: UnanswerableAcc
    #: U when the best cosine is strictly greater than this.
    threshold: float


_SWITCH_NAMES = tuple(f.name for f in fields(Switches))


def _check_preset(preset: str) -> UnanswerablePreset:
    if preset not in PRESETS:
        raise ValueError(f"preset must be one of {', '.join(map(repr, PRESETS))}, got {preset!r}")
    return cast(UnanswerablePreset, preset)


def switches(preset: UnanswerablePreset = "umwp", **overrides: Any) -> Switches:
    """The switches of ``preset`` (faithful to its script) with ``overrides`` applied and checked.

    Unknown switch names and unknown values raise ``ValueError`` listing the allowed ones.
    """
    _check_preset(preset)
    unknown = sorted(set(overrides) - set(_SWITCH_NAMES))
    if unknown:
        raise ValueError(f"unknown switch(es) {', '.join(unknown)}; allowed: {', '.join(_SWITCH_NAMES)}")
    batch = _core.unanswerable_prepare([], preset=preset, **overrides)
    return Switches(**cast(dict[str, Any], batch.options))


@dataclass(frozen=True)
class ItemVerdict:
    """The verdict on one output, with the evidence of every test."""

    index: int
    id: Any
    #: Predicted unanswerable.
    unanswerable: bool
    #: Which test decided: ``substring``, ``similarity``, ``math_expression``, ``none`` or ``skipped_empty``.
    decided_by: UnanswerableDecidedBy
    #: Why (or why not), in words.
    reason: str
    #: Best cosine over the output's windows (0.0 without windows, None when the model was not consulted).
    score: float | None
    best_window: str | None
    best_reference: str | None
    #: The reference found as a substring (SelfAware pre-check).
    substring_reference: str | None
    #: The longest expression the math rule found in the first flagged item, and that item.
    math_expression: str | None
    math_item: str | None
    empty: bool
    answerable: bool | None
    #: ``tp``, ``fp``, ``fn``, ``tn``, ``skipped`` (None without labels).
    cell: str | None
    acc_hit: bool | None
    category: Any = None
    source: Any = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Group:
    """Confusion counts and metrics of a set of items (unanswerable = positive; 0 for 0/0)."""

    items: int
    answerable: int
    unanswerable: int
    tp: int
    fp: int
    fn: int
    tn: int
    skipped: int
    acc_hits: int
    precision: float
    recall: float
    f1: float
    acc: float


@dataclass(frozen=True)
class Summary:
    """Metrics overall, per UMWP category (each category's unanswerable items with their paired
    answerable source questions when ``relevant_ids`` is known, else the unanswerable items alone:
    precision is then 1 or 0), and per source."""

    overall: Group
    by_category: dict[str, Group]
    by_source: dict[str, Group]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Result:
    items: list[ItemVerdict]
    summary: Summary
    switches: Switches
    preset: str
    #: Distinct windows embedded, and windows before deduplication.
    distinct_queries: int
    total_queries: int


def _group(cells: Iterable[tuple[bool, str, bool]]) -> Group:
    n = a = u = tp = fp = fn = tn = sk = hits = 0
    for answerable, cell, hit in cells:
        n += 1
        a += answerable
        u += not answerable
        tp += cell == "tp"
        fp += cell == "fp"
        fn += cell == "fn"
        tn += cell == "tn"
        sk += cell == "skipped"
        hits += hit
    p, r, f1, acc = _core.unanswerable_metrics(tp=tp, fp=fp, fn_=fn, acc_hits=hits, answerable=a)
    return Group(n, a, u, tp, fp, fn, tn, sk, hits, p, r, f1, acc)


def _best_scores(
    scorer: Any, queries: list[str], references: list[str], batch_size: int, bar: Any
) -> tuple[np.ndarray, np.ndarray | None]:
    if not queries:
        return np.zeros(0, dtype=np.float64), None
    if scorer is None:
        raise ValueError(
            f"{len(queries)} window(s) need a similarity scorer: pass an Embedder or a callable "
            "(queries, references) -> best cosine per query"
        )
    encode = getattr(scorer, "encode", None)
    ref_vectors = np.asarray(encode(references), dtype=np.float32) if callable(encode) else None
    best: list[np.ndarray] = []
    index: list[np.ndarray] | None = []
    for start in range(0, len(queries), batch_size):
        chunk = queries[start : start + batch_size]
        if ref_vectors is not None and callable(encode):
            sims = np.asarray(encode(chunk), dtype=np.float32) @ ref_vectors.T
            best.append(sims.max(axis=1).astype(np.float64))
            if index is not None:
                index.append(sims.argmax(axis=1))
        else:
            out = scorer(chunk, references)
            scores, which = out if isinstance(out, tuple) and len(out) == 2 else (out, None)
            arr = np.asarray(scores, dtype=np.float64).reshape(-1)
            if arr.shape[0] != len(chunk):
                raise ValueError(f"scorer returned {arr.shape[0]} scores for {len(chunk)} queries")
            if not np.isfinite(arr).all():
                raise ValueError("scorer returned a NaN or infinite score")
            best.append(arr)
            if which is None or index is None:
                index = None
            else:
                index.append(np.asarray(which, dtype=np.int64).reshape(-1))
        bar.update(len(chunk))
    return np.concatenate(best), (np.concatenate(index) if index else None)


def _reason(
    v: dict[str, Any], a: Mapping[str, Any], sw: Switches, window: str | None, ref: str | None
) -> str:
    if v["decided_by"] == "skipped_empty":
        return "empty output: skipped from TP/FP/FN and Acc (SelfAware rule)"
    if v["decided_by"] == "substring":
        return f"the output contains the reference {ref!r} (exact substring pre-check)"
    parts = []
    score = v["score"]
    if a["n_windows"] == 0:
        parts.append("no window to compare (score 0)")
    else:
        rel = ">" if v["similarity_fired"] else "<="
        where = f"window {window!r}" + (f" vs reference {ref!r}" if ref is not None else "")
        parts.append(f"best cosine {score:.4f} {rel} {sw.threshold} ({where})")
    if sw.math_rule:
        if a["math_expression"] is not None:
            parts.append(f"math expression {a['math_expression']!r} in item {a['math_item']!r}")
        else:
            parts.append(f"no math expression in the last {sw.math_items} split items")
    return "; ".join(parts)


def detect(
    outputs: Sequence[str],
    *,
    preset: UnanswerablePreset = "umwp",
    scorer: Any = None,
    answerable: Sequence[bool] | None = None,
    golds: Sequence[float | None] | None = None,
    aliases: Sequence[Sequence[str] | None] | None = None,
    categories: Sequence[Any] | None = None,
    sources: Sequence[Any] | None = None,
    ids: Sequence[Any] | None = None,
    relevant_ids: Sequence[Any] | None = None,
    options: Switches | None = None,
    batch_size: int = 8192,
    threads: int | None = None,
    progress: bool = False,
    **overrides: Any,
) -> Result:
    """Score ``outputs`` with protocol B.

    ``preset``: ``"umwp"`` or ``"selfaware"``; keyword ``overrides`` (or a whole ``options``) change
    single switches (:class:`Switches`). ``scorer``: an ``Embedder`` or a callable giving the best
    cosine per query (see :data:`Scorer`); needed unless no output has a window. ``answerable``: the
    labels (without them only predictions are made). ``golds`` (UMWP, float per answerable item) and
    ``aliases`` (SelfAware, alias list per answerable item) feed "Acc". ``categories``, ``sources``,
    ``ids`` and ``relevant_ids`` (UMWP's pairing of each unanswerable item with its answerable
    source) feed the per-category and per-source tables.
    """
    _check_preset(preset)
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise ValueError(f"batch_size must be an integer >= 1, got {batch_size!r}")
    sw = options if options is not None else switches(preset, **overrides)
    if options is not None and overrides:
        sw = switches(preset, **{**asdict(options), **overrides})
    n = len(outputs)
    for name, seq in (
        ("answerable", answerable),
        ("golds", golds),
        ("aliases", aliases),
        ("categories", categories),
        ("sources", sources),
        ("ids", ids),
        ("relevant_ids", relevant_ids),
    ):
        if seq is not None and len(seq) != n:
            raise _core.ShapeError(f"{name} has {len(seq)} entries for {n} outputs")
    batch = _core.unanswerable_prepare(list(outputs), threads=threads, **asdict(sw))
    queries = batch.queries
    references = batch.references
    with progress_bar(len(queries), enabled=progress, desc="windows", unit="window") as bar:
        best, best_ref = _best_scores(scorer, queries, references, batch_size, bar)
    labels = [bool(x) for x in answerable] if answerable is not None else [True] * n
    decided = batch.decide(
        best.tolist(),
        labels,
        golds=[None if g is None else float(g) for g in golds] if golds is not None else None,
        aliases=[None if a is None else [str(x) for x in a] for a in aliases]
        if aliases is not None
        else None,
    )
    items: list[ItemVerdict] = []
    total_queries = 0
    for i in range(n):
        a = batch.analysis(i)
        total_queries += cast(int, a["n_windows"])
        v = {k: decided[k][i] for k in decided}
        w = cast("int | None", v["best_window"])
        window = queries[w] if w is not None else None
        ref = None
        if a["substring_reference"] is not None:
            ref = references[cast(int, a["substring_reference"])]
        elif w is not None and best_ref is not None:
            ref = references[int(best_ref[w])]
        score = cast(float, v["score"])
        items.append(
            ItemVerdict(
                index=i,
                id=ids[i] if ids is not None else i,
                unanswerable=bool(v["unanswerable"]),
                decided_by=cast(UnanswerableDecidedBy, v["decided_by"]),
                reason=_reason(v, a, sw, window, ref),
                score=None if math.isnan(score) else score,
                best_window=window,
                best_reference=ref if a["substring_reference"] is None else None,
                substring_reference=ref if a["substring_reference"] is not None else None,
                math_expression=cast("str | None", a["math_expression"]),
                math_item=cast("str | None", a["math_item"]),
                empty=bool(a["empty"]),
                answerable=labels[i] if answerable is not None else None,
                cell=cast(str, v["cell"]) if answerable is not None else None,
                acc_hit=bool(v["acc_hit"]) if answerable is not None else None,
                category=categories[i] if categories is not None else None,
                source=sources[i] if sources is not None else None,
            )
        )
    summary = _summarize(items, ids, relevant_ids)
    return Result(items, summary, sw, preset, len(queries), total_queries)


def _summarize(
    items: list[ItemVerdict], ids: Sequence[Any] | None, relevant_ids: Sequence[Any] | None
) -> Summary:
    def cells(sel: Iterable[ItemVerdict]) -> list[tuple[bool, str, bool]]:
        return [(bool(v.answerable), v.cell or "skipped", bool(v.acc_hit)) for v in sel if v.cell is not None]

    overall = _group(cells(items))
    # A category is defined on unanswerable items; their paired answerable source questions join it.
    paired: dict[Any, set[str]] = {}
    if ids is not None and relevant_ids is not None:
        for v, rel in zip(items, relevant_ids, strict=True):
            if v.category is None or rel is None:
                continue
            for r in rel if isinstance(rel, (list, tuple)) else [rel]:
                paired.setdefault(r, set()).add(str(v.category))
    by_cat: dict[str, list[ItemVerdict]] = {}
    for v in items:
        if v.category is not None:
            by_cat.setdefault(str(v.category), []).append(v)
        elif v.id in paired:
            for c in paired[v.id]:
                by_cat.setdefault(c, []).append(v)
    by_source: dict[str, list[ItemVerdict]] = {}
    for v in items:
        if v.source is not None:
            by_source.setdefault(str(v.source), []).append(v)
    return Summary(
        overall,
        {k: _group(cells(by_cat[k])) for k in sorted(by_cat)},
        {k: _group(cells(by_source[k])) for k in sorted(by_source)},
    )


def _field(record: Mapping[str, Any], key: str, line: int, types: tuple[type, ...], what: str) -> Any:
    if key not in record:
        raise ValueError(f"record {line}: missing field {key!r}")
    value = record[key]
    if not isinstance(value, types) or (bool not in types and isinstance(value, bool)):
        raise ValueError(f"record {line}: field {key!r} must be {what}, got {type(value).__name__}")
    return value


def detect_records(
    records: Sequence[Mapping[str, Any]],
    *,
    preset: UnanswerablePreset = "umwp",
    scorer: Any = None,
    text_field: str | None = None,
    id_field: str | None = None,
    **kwargs: Any,
) -> Result:
    """:func:`detect` over records in the original generation format.

    UMWP: the 7 dataset fields (``id``, ``question``, ``answer``, ``answerable``, ``category``,
    ``relevant_ids``, ``source``) plus ``generated_text``. SelfAware: ``question_id``, ``answer``
    (aliases), ``answerable``, ``source`` plus ``output``. ``text_field`` / ``id_field`` rename the
    output and id fields. A missing or mistyped field raises ``ValueError`` naming the record (1-based)
    and the field.
    """
    _check_preset(preset)
    text_key = text_field or SOURCE_FIELDS[preset]
    id_key = id_field or ("id" if preset == "umwp" else "question_id")
    texts, labels, golds, aliases, cats, srcs, ids, rels = [], [], [], [], [], [], [], []
    for line, rec in enumerate(records, start=1):
        if not isinstance(rec, Mapping):
            raise ValueError(f"record {line}: expected a JSON object, got {type(rec).__name__}")
        texts.append(_field(rec, text_key, line, (str,), "a string"))
        ans = _field(rec, "answerable", line, (bool,), "true or false")
        labels.append(ans)
        ids.append(rec.get(id_key, line - 1))
        cats.append(rec.get("category"))
        srcs.append(rec.get("source"))
        rels.append(rec.get("relevant_ids"))
        gold = rec.get("answer")
        if preset == "umwp" or kwargs.get("acc") == "last_pieces_number":
            if ans:
                g = gold[0] if isinstance(gold, list) and gold else gold
                if isinstance(g, bool) or not isinstance(g, (int, float)):
                    raise ValueError(f"record {line}: field 'answer' of an answerable item must be [number]")
                golds.append(float(g))
            else:
                golds.append(None)
            aliases.append(None)
        else:
            if ans:
                if not isinstance(gold, list) or not all(isinstance(x, str) for x in gold):
                    raise ValueError(
                        f"record {line}: field 'answer' of an answerable item must be a list of strings"
                    )
                aliases.append(gold)
            else:
                aliases.append(None)
            golds.append(None)
    return detect(
        texts,
        preset=preset,
        scorer=scorer,
        answerable=labels,
        golds=golds,
        aliases=aliases,
        categories=cats,
        sources=srcs,
        ids=ids,
        relevant_ids=rels,
        **kwargs,
    )


# ---- files: outputs, the bundled datasets, tables ----

_DATASET_FILES = {"umwp": ("umwp", "StandardDataset.jsonl"), "selfaware": ("selfaware", "SelfAware.json")}


def bundled_dataset(preset: UnanswerablePreset) -> Path:
    """The dataset file shipped in the package (``matheval_fast/datasets/``; CC-BY-SA-4.0, provenance in
    the ``README.md`` beside it): UMWP's ``StandardDataset.jsonl`` or SelfAware's ``SelfAware.json``."""
    folder, name = _DATASET_FILES[_check_preset(preset)]
    path = Path(__file__).resolve().parent / "datasets" / folder / name
    if not path.is_file():  # pragma: no cover - a broken install
        raise FileNotFoundError(f"{path}: the {preset} dataset is missing from this install; pass its path")
    return path


def load_records(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """Records of a JSON Lines file (blank lines skipped), a JSON array, a SelfAware-style object with an
    ``example`` list, or a Parquet file (needs pyarrow). Errors name the file and line."""
    p = Path(path)
    if p.suffix == ".parquet":
        try:
            import pyarrow.parquet as pq
        except ImportError as exc:  # pragma: no cover - pyarrow is a test dependency
            raise ValueError(f"{p}: reading Parquet needs pyarrow") from exc
        return cast(list[dict[str, Any]], pq.read_table(p).to_pylist())
    # One reading path for every command: gzip, a BOM, binary data and bad UTF-8 are named errors.
    head = b""
    with open_input(p) as fh:
        head = fh.read(4096).lstrip()
    if head.startswith(b"[") or (head.startswith(b"{") and p.suffix == ".json"):
        data = load_json(p)
        if isinstance(data, dict) and isinstance(data.get("example"), list):
            data = data["example"]
        if not isinstance(data, list):
            raise ValueError(f"{p}: expected a JSON array of objects (or an object with an 'example' list)")
        for i, rec in enumerate(data, 1):
            if not isinstance(rec, dict):
                raise ValueError(f"{p}: item {i}: expected a JSON object, got {type(rec).__name__}")
        return cast(list[dict[str, Any]], data)
    out: list[dict[str, Any]] = []
    for n, rec in iter_json_lines(p):
        if not isinstance(rec, dict):
            raise ValueError(f"{p}: line {n}: expected a JSON object, got {type(rec).__name__}")
        out.append(rec)
    return out


def join_dataset(
    records: Sequence[Mapping[str, Any]],
    dataset: Sequence[Mapping[str, Any]],
    *,
    preset: UnanswerablePreset,
    id_field: str | None = None,
) -> list[dict[str, Any]]:
    """Fill the label fields (``answerable``, ``answer``, ``category``, ``relevant_ids``, ``source``)
    of output records from the dataset by id; the record's own fields win. An id not in the dataset
    raises ``ValueError`` naming the record."""
    key = id_field or ("id" if preset == "umwp" else "question_id")
    ds_key = "id" if preset == "umwp" else "question_id"
    by_id = {row[ds_key]: row for row in dataset}
    out = []
    for n, rec in enumerate(records, start=1):
        if key not in rec:
            raise ValueError(f"record {n}: missing field {key!r} (needed to join the dataset)")
        row = by_id.get(rec[key])
        if row is None:
            raise ValueError(f"record {n}: id {rec[key]!r} is not in the {preset} dataset")
        merged = {k: v for k, v in row.items() if k != "question"}
        merged.update(rec)
        out.append(merged)
    return out


def _pct(x: float) -> str:
    return f"{100 * x:.2f}"


def format_summary(summary: Summary, *, title: str = "") -> str:
    """Markdown tables: overall, per category, per source (P/R/F1/Acc in %, then the counts)."""
    from matheval_fast._report.tables import markdown_table

    head = ["group", "P %", "R %", "F1 %", "Acc %", "TP", "FP", "FN", "TN", "skipped", "items"]

    def row(name: str, g: Group) -> list[object]:
        return [
            name,
            _pct(g.precision),
            _pct(g.recall),
            _pct(g.f1),
            _pct(g.acc),
            g.tp,
            g.fp,
            g.fn,
            g.tn,
            g.skipped,
            g.items,
        ]

    parts = [
        f"## {title}" if title else "",
        markdown_table(head, [row("overall", summary.overall)], align="lrrrrrrrrrr"),
    ]
    if summary.by_category:
        parts.append("\nPer category (unanswerable items with their paired answerable sources):\n")
        rows = [row(f"category {k}", g) for k, g in summary.by_category.items()]
        parts.append(markdown_table(head, rows, align="lrrrrrrrrrr"))
    if summary.by_source:
        parts.append("\nPer source:\n")
        rows = [row(k, g) for k, g in summary.by_source.items()]
        parts.append(markdown_table(head, rows, align="lrrrrrrrrrr"))
    return "\n".join(p for p in parts if p)
