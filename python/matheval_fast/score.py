"""Scoring response files and records (protocol A), streaming, with accuracy tables.

One path for every entry point: a source (:mod:`matheval_fast.io.responses`: JSON Lines, gzip,
stdin, Parquet, the seed's JSON array, or Python records) yields bounded batches; each batch is
checked by the Rust core with the GIL released (:func:`score_response_batch`); rows are written
as they come and tallied for the tables. A record's checker comes from its ``type`` through the
seed-format config when the config knows the type; a record with no type or an unknown one gets
``kind="auto"``, the checker :func:`matheval_fast.check` uses, so the command line and the API
give the same verdict for the same pair. Records that cannot be scored (not JSON, an object where
a string belongs, no gold) are refused with their 1-based line/row/item number and reason,
counted, and written to a side file; ``on_error="fail"`` stops at the first instead.

>>> from matheval_fast.score import score_records
>>> rep = score_records([{"completion": "The answer is: 4.", "answer": "4"}])
>>> row = rep.rows[0]
>>> row["line"], row["correct"], row["reason"]
(1, True, 'correct')
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import time
import warnings
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from matheval_fast import _core
from matheval_fast._columns import mask_of, numeric_array, text_column, values_of
from matheval_fast._pipeline import BackgroundWriter, prefetched
from matheval_fast._vocabulary import Compat, FiniteDecimals
from matheval_fast.io.responses import (
    JSON_ID,
    ResponseBatch,
    ResponseFields,
    check_records,
    id_texts,
    id_values,
    load_json_array,
    record_batches,
    source_batches,
    source_format,
)
from matheval_fast.io.text import InputError, iter_lines, open_input

__all__ = [
    "FieldsGuessedWarning",
    "OnError",
    "RejectedRecordError",
    "ScoreReport",
    "ScoreTally",
    "format_table",
    "read_records",
    "response_fields",
    "score_file",
    "score_records",
    "score_response_batch",
]

OnError = Literal["skip", "fail"]
OutFormat = Literal["jsonl", "parquet"]

#: The per-item output columns after ``line`` and ``prompt`` and the id columns.
ITEM_COLUMNS = ("type", "subtype", "level", "gold", "extracted", "correct", "reason", "path")


class FieldsGuessedWarning(UserWarning):
    """The response or gold field was not named and its default was absent: a common name was used
    (the message says which; the summary's ``fields`` too)."""


class RejectedRecordError(ValueError):
    """A record could not be scored and ``on_error="fail"`` was asked for."""


def read_records(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """Records from a seed JSON array, JSONL, or Parquet file, as Python dicts (small files; the
    scorer itself streams)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".parquet":
        import pyarrow.parquet as pq

        return pq.read_table(path).to_pylist()
    if suffix == ".jsonl":
        out = []
        for n, line in iter_lines(path):
            if line.strip():
                try:
                    out.append(json.loads(line))
                except json.JSONDecodeError as exc:
                    raise ValueError(f"{path}: line {n}: not valid JSON: {exc.msg}") from exc
        return out
    return load_json_array(path)


# ---------------------------------------------------------------------------------------------
# One batch


def _explode(b: pa.RecordBatch) -> tuple[np.ndarray, np.ndarray, pa.Array]:
    """(record index, prompt index, response) per output row: one row per response of a record;
    a record with no response (null, or an empty list) still gets one row, with no response."""
    resp = b.column(1)
    n = len(resp)
    offsets = values_of(resp.offsets)
    lengths = np.diff(offsets)
    if resp.null_count:
        lengths = np.where(mask_of(resp), 0, lengths)
    per = np.maximum(lengths, 1)
    if n and bool((lengths == 1).all()):  # one response per record (the common case): no copies
        start = int(offsets[0])
        return np.arange(n, dtype=np.int64), np.zeros(n, dtype=np.int64), resp.values.slice(start, n)
    rec = np.repeat(np.arange(n, dtype=np.int64), per)
    starts = np.cumsum(per) - per
    prompt = np.arange(len(rec), dtype=np.int64) - np.repeat(starts, per)
    item = offsets[:-1][rec] + prompt
    empty = (lengths == 0)[rec]
    values = resp.values  # the offsets of a sliced list still index its whole child array
    response = values.take(pa.array(item, mask=empty)) if len(rec) else pa.array([], pa.large_string())
    return rec, prompt, response


def score_response_batch(
    b: pa.RecordBatch,
    *,
    config: Any = None,
    compat: Compat = "fixed",
    threads: int | None = None,
    timeout: float | None = None,
    finite_decimals: FiniteDecimals = "exact",
) -> tuple[pa.RecordBatch, int]:
    """Score a normalised batch (:data:`~matheval_fast.io.responses.NORMALISED` columns, then id
    columns): one output row per response, with the id columns, ``extracted``, ``correct``,
    ``reason`` and ``path``. Also returns how many rows fell back to ``kind="auto"`` because
    their type was absent or unknown to the config (``None``: the seed's config for the types,
    nothing for the auto rows, as :func:`matheval_fast.check` has nothing)."""
    from matheval_fast.answer import load_config
    from matheval_fast.arrow import check_by_type

    cfg = load_config(config)
    rec, prompt, response = _explode(b)
    same = len(rec) == b.num_rows  # one row per record: the columns are used as they are

    def per_row(col: pa.Array) -> pa.Array:
        return col if same else col.take(pa.array(rec))

    gold = per_row(b.column(2))
    types = per_row(b.column(3))
    verdicts, fallback = check_by_type(
        response,
        gold,
        types,
        policies=cfg,
        auto_config=config,  # exactly what ``check`` does with this config (none: the default anchors)
        compat=compat,
        threads=threads,
        timeout=timeout,
        finite_decimals=finite_decimals,
    )
    ids = [b.schema.names[i] for i in range(6, b.num_columns)]
    cols: dict[str, pa.Array] = {
        "line": per_row(b.column(0)),
        "prompt": numeric_array(prompt.astype(np.int64)),
        **{name: per_row(b.column(6 + k)) for k, name in enumerate(ids)},
        "type": types,
        "subtype": per_row(b.column(4)),
        "level": per_row(b.column(5)),
        "gold": gold,
        "extracted": verdicts.column("extracted").combine_chunks().cast(pa.large_string()),
        "correct": verdicts.column("correct").combine_chunks(),
        "reason": verdicts.column("reason").combine_chunks(),
        "path": verdicts.column("path").combine_chunks(),
    }
    return pa.RecordBatch.from_arrays(list(cols.values()), names=list(cols)), fallback


# ---------------------------------------------------------------------------------------------
# Tallies and tables


@dataclass
class ScoreTally:
    """Counts for the tables: per prompt, per (type, subtype, level) group, correct and total;
    reasons and paths per prompt; refused records."""

    groups: dict[tuple[int, str, str, str], list[int]] = field(
        default_factory=lambda: defaultdict(lambda: [0, 0])
    )
    reasons: dict[int, Counter] = field(default_factory=lambda: defaultdict(Counter))
    paths: dict[int, Counter] = field(default_factory=lambda: defaultdict(Counter))
    rows: int = 0
    records: int = 0
    fallback_auto: int = 0
    rejected: int = 0
    rejected_examples: list[dict[str, Any]] = field(default_factory=list)

    def add(self, out: pa.RecordBatch) -> None:
        self.rows += out.num_rows
        if out.num_rows == 0:
            return
        if self._add_one_group(out):
            return
        t = pa.table(
            {
                "prompt": out.column("prompt"),
                "type": pc.fill_null(out.column("type"), ""),
                "subtype": pc.fill_null(out.column("subtype"), ""),
                "level": pc.fill_null(out.column("level"), ""),
                "correct": out.column("correct").cast(pa.int64()),
                "reason": out.column("reason"),
                "path": out.column("path"),
            }
        )
        g = t.group_by(["prompt", "type", "subtype", "level"]).aggregate(
            [("correct", "sum"), ("correct", "count")]
        )
        for p, ty, st, lv, c, n in zip(
            *(
                g.column(k).to_pylist()
                for k in ("prompt", "type", "subtype", "level", "correct_sum", "correct_count")
            ),
            strict=True,
        ):
            cell = self.groups[(p, ty, st, lv)]
            cell[0] += c
            cell[1] += n
        for col, store in (("reason", self.reasons), ("path", self.paths)):
            g = t.group_by(["prompt", col]).aggregate([("correct", "count")])
            for p, v, n in zip(
                *(g.column(k).to_pylist() for k in ("prompt", col, "correct_count")), strict=True
            ):
                store[p][v] += n

    def _add_one_group(self, out: pa.RecordBatch) -> bool:
        """The common batch (one prompt, no type, subtype or level: GSM8K-style files) counted
        without a group-by; False when the batch has more than one group."""
        if any(out.column(k).null_count < out.num_rows for k in ("type", "subtype", "level")):
            return False
        prompt = values_of(out.column("prompt"))
        if not (prompt == prompt[0]).all():
            return False
        p = int(prompt[0])
        correct = out.column("correct")
        cell = self.groups[(p, "", "", "")]
        cell[0] += int(pc.sum(correct).as_py() or 0)
        cell[1] += len(correct) - correct.null_count
        for col, store in (("reason", self.reasons), ("path", self.paths)):
            counts = pc.value_counts(out.column(col))
            for v, n in zip(
                counts.field("values").to_pylist(), counts.field("counts").to_pylist(), strict=True
            ):
                store[p][v] += n
        return True

    @property
    def prompts(self) -> int:
        return 1 + max((k[0] for k in self.groups), default=-1)

    def table(self, prompt: int) -> list[tuple[str, str, str, int, int, int, float]]:
        """(Type, Subtype, Level, Correct, Incorrect, Total, Accuracy) rows plus an Overall row."""
        out = []
        c_all = n_all = 0
        for (p, t, s, lv), (c, n) in sorted(self.groups.items()):
            if p != prompt:
                continue
            out.append((t, s, lv, c, n - c, n, c / n))
            c_all += c
            n_all += n
        out.append(("Overall", "", "", c_all, n_all - c_all, n_all, c_all / n_all if n_all else float("nan")))
        return out

    def summary(self) -> dict[str, Any]:
        per_prompt = []
        for p in range(self.prompts):
            rows = self.table(p)
            overall = rows[-1]
            per_prompt.append(
                {
                    "prompt": p,
                    "correct": overall[3],
                    "total": overall[5],
                    "accuracy": overall[6],
                    "reasons": dict(self.reasons[p]),
                    "paths": dict(self.paths[p]),
                    "by_group": [
                        {
                            "type": t,
                            "subtype": s,
                            "level": lv,
                            "correct": c,
                            "incorrect": i,
                            "total": n,
                            "accuracy": a,
                        }
                        for t, s, lv, c, i, n, a in rows[:-1]
                    ],
                }
            )
        return {
            "records": self.records,
            "rows": self.rows,
            "rejected": self.rejected,
            "rejected_examples": self.rejected_examples,
            "auto_checker_rows": self.fallback_auto,
            "prompts": per_prompt,
        }


@dataclass
class ScoreReport:
    """Per-item rows (``line`` is the record's 1-based number) and the tables built from them."""

    rows: list[dict[str, Any]]
    tally: ScoreTally
    rejected: list[tuple[int, str]]

    @property
    def prompts(self) -> int:
        return self.tally.prompts

    def table(self, prompt: int) -> list[tuple[str, str, str, int, int, int, float]]:
        return self.tally.table(prompt)

    def summary(self) -> dict[str, Any]:
        return self.tally.summary()


# ---------------------------------------------------------------------------------------------
# Driving a source


def _check_options(compat: str, on_error: str, timeout: float | None) -> None:
    from matheval_fast._sympy.pool import check_timeout

    if compat not in ("fixed", "xwin"):
        raise ValueError(f"compat must be 'fixed' or 'xwin', got {compat!r}")
    if on_error not in ("skip", "fail"):
        raise ValueError(f"on_error must be 'skip' or 'fail', got {on_error!r}")
    if timeout is not None:
        check_timeout(timeout)  # before any work


def _run(
    batches: Iterator[ResponseBatch],
    *,
    where: str,
    config: Any,
    compat: Compat,
    threads: int | None,
    timeout: float | None,
    on_error: OnError,
    sink: Any,
    rejects: Any,
    bar: Any,
    by_bytes: bool = False,
    finite_decimals: FiniteDecimals = "exact",
) -> ScoreTally:
    tally = ScoreTally()
    for rb in batches:
        if rb.rejected:
            if on_error == "fail":
                n, why = rb.rejected[0]
                at = f"{where}:{n}" if rb.unit == "line" else f"{where}: {rb.unit} {n}"
                raise RejectedRecordError(f"{at}: {why}")
            tally.rejected += len(rb.rejected)
            for n, why in rb.rejected:
                if len(tally.rejected_examples) < 5:
                    tally.rejected_examples.append({"file": where, rb.unit: n, "reason": why})
                rejects(n, why, rb.unit)
        tally.records += rb.batch.num_rows
        out, fallback = score_response_batch(
            rb.batch,
            config=config,
            compat=compat,
            threads=threads,
            timeout=timeout,
            finite_decimals=finite_decimals,
        )
        tally.fallback_auto += fallback
        tally.add(out)
        sink(out)
        if by_bytes:  # a JSON Lines file of known size: bytes give the rate and the ETA
            bar.update(rb.bytes_read)
            bar.set_postfix(records=tally.records, refresh=False)
        else:
            bar.update(rb.batch.num_rows + len(rb.rejected))
    if tally.fallback_auto:
        warnings.warn(
            f"{tally.fallback_auto} of {tally.rows} rows had no type or one the config does not know; "
            "they were checked with kind='auto' (what matheval_fast.check uses)",
            stacklevel=3,
        )
    return tally


def score_records(
    records: Sequence[Any],
    *,
    config: Any = None,
    compat: Compat = "fixed",
    response_field: str | None = None,
    gold_field: str | None = None,
    type_field: str = "type",
    subtype_field: str = "subtype",
    level_field: str = "level",
    id_fields: Sequence[str] = (),
    threads: int | None = None,
    timeout: float | None = None,
    on_error: OnError = "skip",
    progress: bool = False,
    finite_decimals: FiniteDecimals = "exact",
) -> ScoreReport:
    """Score records (dicts) in memory, exactly as the command line scores a file of them.

    A record's ``response_field`` is a string or a list of strings (one row per entry, ``prompt``
    is the position); its ``gold_field`` a string or number. Records that cannot be scored are in
    ``report.rejected`` as ``(1-based number, reason)``, or raise :class:`RejectedRecordError`
    with ``on_error="fail"``.
    """
    from matheval_fast._report.progress import progress_bar
    from matheval_fast.answer import load_config

    check_records(records)
    _check_options(compat, on_error, timeout)
    if config is not None:
        config = load_config(config)  # read once, not per batch
    fields = response_fields(response_field, gold_field, type_field, subtype_field, level_field, id_fields)
    rows: list[dict[str, Any]] = []
    rejected: list[tuple[int, str]] = []
    used = [fields]

    def chosen(f: ResponseFields) -> None:
        used[0] = f

    with progress_bar(len(records), enabled=progress, desc="score", unit="record") as bar:
        tally = _run(
            record_batches(records, fields, chosen=chosen),
            where="records",
            config=config,
            compat=compat,
            threads=threads,
            timeout=timeout,
            on_error=on_error,
            sink=lambda b: rows.extend(
                rows_of(b) if any(a.type == JSON_ID for a in b.columns) else b.to_pylist()
            ),
            rejects=lambda n, why, unit: rejected.append((n, why)),
            bar=bar,
            finite_decimals=finite_decimals,
        )
    _tell_fields(fields, used[0])
    return ScoreReport(rows, tally, rejected)


def jsonl_buffer(b: pa.RecordBatch) -> np.ndarray:
    """A batch of flat columns (strings, integers, booleans; anything else as its text) as JSON
    Lines, UTF-8, one object per row in column order: what ``json.dumps(row, ensure_ascii=False)``
    per row gives, written by the core from the Arrow buffers (a uint8 array)."""
    if any(arr.type == JSON_ID for arr in b.columns):
        return _jsonl_rows(b)
    cols: list[tuple[str, str, Any, Any]] = []
    for name, arr in zip(b.schema.names, b.columns, strict=True):
        t = arr.type
        valid = None if arr.null_count == 0 else arr.is_valid().to_numpy(zero_copy_only=False)
        if pa.types.is_boolean(t):
            cols.append((name, "bool", arr.fill_null(False).to_numpy(zero_copy_only=False), valid))
        elif pa.types.is_integer(t):
            values = arr.cast(pa.int64()).fill_null(0).to_numpy(zero_copy_only=False)
            cols.append((name, "int", np.ascontiguousarray(values, dtype=np.int64), valid))
        else:
            cols.append((name, "text", text_column(arr.cast(pa.large_string())), None))
    return _core.json_lines(cols)


def _jsonl_rows(b: pa.RecordBatch) -> np.ndarray:
    """:func:`jsonl_buffer` in Python, for a batch with an id column of mixed JSON types
    (:data:`~matheval_fast.io.responses.JSON_ID`): each id written as the value it was (a rare
    input; the core writes one type per column)."""
    cols = {name: id_values(arr) for name, arr in zip(b.schema.names, b.columns, strict=True)}
    names = list(cols)
    lines = [
        json.dumps(dict(zip(names, row, strict=True)), ensure_ascii=False) + "\n"
        for row in zip(*cols.values(), strict=True)
    ]
    return np.frombuffer("".join(lines).encode("utf-8"), dtype=np.uint8)


def rows_of(b: pa.RecordBatch) -> list[dict[str, Any]]:
    """A result batch as Python dicts, ids of mixed types as the values they were."""
    cols = {name: id_values(arr) for name, arr in zip(b.schema.names, b.columns, strict=True)}
    return [dict(zip(cols, row, strict=True)) for row in zip(*cols.values(), strict=True)]


def jsonl_bytes(b: pa.RecordBatch) -> bytes:
    """:func:`jsonl_buffer` as bytes."""
    return jsonl_buffer(b).tobytes()


class _RowsWriter:
    """Per-item rows to a temporary file, as JSON Lines or Parquet, batch by batch."""

    def __init__(self, path: Path, fmt: OutFormat) -> None:
        self.path = path
        self.fmt = fmt
        self.writer: Any = None
        self.schema: pa.Schema | None = None
        self.fh: Any = open(path, "wb") if fmt == "jsonl" else None

    def __call__(self, b: pa.RecordBatch) -> None:
        if self.fmt == "parquet":
            import pyarrow.parquet as pq

            if any(a.type == JSON_ID for a in b.columns):  # one type per column: ids as text
                b = pa.RecordBatch.from_arrays(
                    [id_texts(a) if a.type == JSON_ID else a for a in b.columns], names=b.schema.names
                )

            if self.writer is None:
                self.schema = b.schema
                low = [c for c in ("type", "subtype", "level", "reason", "path") if c in b.schema.names]
                # Min/max statistics for the number and flag columns only: on the text columns
                # (ids, golds, answers: unordered) they prune nothing and cost a third of the writing.
                text = (pa.types.is_string, pa.types.is_large_string)
                stats = [f.name for f in b.schema if not any(is_text(f.type) for is_text in text)]
                self.writer = pq.ParquetWriter(
                    self.path, b.schema, use_dictionary=low, write_statistics=stats
                )
            elif b.schema != self.schema:
                try:
                    b = pa.Table.from_batches([b]).cast(self.schema).to_batches()[0]
                except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as exc:
                    # An id field with integers in the first batch and text later (Parquet has one
                    # type per column; JSON Lines output has no such limit).
                    raise ValueError(
                        f"the columns changed type after the first batch ({exc}); write JSON Lines "
                        "(--out-format jsonl) or give the id field one type throughout"
                    ) from None
            self.writer.write_batch(b)
            return
        self.fh.write(jsonl_buffer(b))

    def finish(self, schema: pa.Schema) -> None:
        """Complete the file (an input with no rows still gets a valid, empty file)."""
        if self.fmt == "parquet" and self.writer is None:
            import pyarrow.parquet as pq

            pq.write_table(schema.empty_table(), self.path)
        self.release()

    def release(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None
        if self.fh is not None:
            self.fh.close()
            self.fh = None


def _out_format(out: Path, out_format: str | None) -> OutFormat:
    if out_format is not None:
        if out_format not in ("jsonl", "parquet"):
            raise ValueError(f"out_format must be 'jsonl' or 'parquet', got {out_format!r}")
        return out_format  # type: ignore[return-value]
    name = out.name.lower()
    if name.endswith(".parquet"):
        return "parquet"
    if name.endswith((".jsonl", ".json", ".ndjson")):
        return "jsonl"
    raise ValueError(
        f"cannot tell the output format from {out.name!r}: name it .jsonl or .parquet, or give out_format"
    )


def _stem(out: Path) -> Path:
    name = out.name
    for ext in (".jsonl", ".parquet", ".ndjson", ".json"):
        if name.lower().endswith(ext):
            return out.with_name(name[: -len(ext)])
    return out


def default_out(path: str | os.PathLike[str]) -> Path:
    """``<input stem>.results.jsonl`` in the working directory (``stdin.results.jsonl`` for ``-``)."""
    name = Path(path).name
    for ext in (".gz", ".jsonl", ".json", ".ndjson", ".parquet"):
        name = name.removesuffix(ext)
    return Path(f"{'stdin' if str(path) == '-' else name}.results.jsonl")


def score_file(
    path: str | os.PathLike[str],
    out: str | os.PathLike[str] | None = None,
    *,
    summary_path: str | os.PathLike[str] | None = None,
    out_format: OutFormat | None = None,
    input_format: str | None = None,
    config: Any = None,
    compat: Compat = "fixed",
    response_field: str | None = None,
    gold_field: str | None = None,
    type_field: str = "type",
    subtype_field: str = "subtype",
    level_field: str = "level",
    id_fields: Sequence[str] = (),
    threads: int | None = None,
    timeout: float | None = None,
    on_error: OnError = "skip",
    batch_rows: int = 65_536,
    progress: bool = False,
    finite_decimals: FiniteDecimals = "exact",
) -> dict[str, Any]:
    """Score a response file into ``out`` (JSON Lines or Parquet, by its suffix or ``out_format``)
    with ``<out stem>.summary.json`` and ``<out stem>.rejected.jsonl`` beside it; returns the
    summary. Streams: memory stays bounded by ``batch_rows`` whatever the file's size. Outputs are
    written under temporary names and renamed together when complete; an unwritable ``out``, an
    output that is the input or another output, or a missing input fails before any scoring."""
    from matheval_fast._report.files import OutputError, json_text, output_set
    from matheval_fast._report.progress import progress_bar
    from matheval_fast.answer import load_config

    _check_options(compat, on_error, timeout)
    src = str(path)
    if src != "-":
        p = Path(path)
        if not p.exists():
            raise FileNotFoundError(f"{p}: no such file")
        if p.is_dir():
            raise IsADirectoryError(f"{p}: is a directory, expected a response file")
        if (input_format or source_format(p)) != "parquet":
            with open_input(p):
                pass  # unreadable, binary, not UTF-8: an error now, not after the outputs exist
    target = Path(out) if out is not None else default_out(path)
    if target.is_dir():  # before the format, which a folder's name does not tell
        raise OutputError(
            f"--out: {target} is a folder, not a file: name a file, e.g. {target / 'results.jsonl'}"
        )
    fmt = _out_format(target, out_format)
    stem = _stem(target)
    summary_target = (
        Path(summary_path) if summary_path is not None else stem.with_name(stem.name + ".summary.json")
    )
    rejected_target = stem.with_name(stem.name + ".rejected.jsonl")
    fields = response_fields(response_field, gold_field, type_field, subtype_field, level_field, id_fields)
    # What is read: no output may be one of these.
    inputs = [Path(p) for p in (path, config) if isinstance(p, (str, os.PathLike)) and str(p) != "-"]
    if config is not None:
        config = load_config(config)  # a bad config fails before any work
    used = [fields]

    def chosen(f: ResponseFields) -> None:
        used[0] = f

    batches = source_batches(path, fields, input_format=input_format, batch_rows=batch_rows, chosen=chosen)
    # Progress: Parquet in rows of a known total; a plain JSON Lines file in bytes of its size
    # (gzip and stdin have no known size: records and their rate only).
    total: int | None = None
    by_bytes = False
    fmt_in = input_format or source_format(path)
    if fmt_in == "parquet":
        from matheval_fast.io.responses import open_parquet

        total = open_parquet(path).metadata.num_rows
    elif fmt_in == "jsonl" and src != "-" and not _is_gzip(Path(path)):
        total, by_bytes = Path(path).stat().st_size, True
    t0 = time.perf_counter()
    with contextlib.ExitStack() as stack:
        # Every output's temporary file exists before the first record is read (an unwritable
        # directory fails here); the three are renamed together at the end.
        files = stack.enter_context(
            output_set(
                [(target, "--out"), (rejected_target, "--out"), (summary_target, "--summary")],
                inputs=inputs,
            )
        )
        tmp_out, tmp_rej = files.path(target), files.path(rejected_target)
        writer = _RowsWriter(tmp_out, fmt)
        rej_fh = stack.enter_context(open(tmp_rej, "w", encoding="utf-8"))
        where = "stdin" if src == "-" else str(path)

        def reject(n: int, why: str, unit: str) -> None:
            # ``line`` for JSON Lines, ``item`` for a JSON array's elements, ``row`` for Parquet.
            rej_fh.write(json.dumps({"file": where, unit: n, "reason": why}, ensure_ascii=False) + "\n")

        bar = stack.enter_context(
            progress_bar(
                total,
                enabled=progress,
                desc=Path(where).name,
                unit="B" if by_bytes else "record",
                unit_scale=by_bytes,
            )
        )
        schema: list[pa.Schema] = []

        def write(b: pa.RecordBatch) -> None:
            if not schema:
                schema.append(b.schema)
            writer(b)

        # Reading and parsing the next batch, and writing the last one, overlap checking this one
        # (all three release the GIL); at most one batch waits on each side.
        sink = BackgroundWriter(write)
        try:
            tally = _run(
                prefetched(batches),
                where=where,
                config=config,
                compat=compat,
                threads=threads,
                timeout=timeout,
                on_error=on_error,
                sink=sink,
                rejects=reject,
                bar=bar,
                by_bytes=by_bytes,
                finite_decimals=finite_decimals,
            )
            sink.close()
            if tally.records == 0 and tally.rejected == 0:
                # Nothing read: no outputs (an empty file is a mistake upstream, not a 0 % score).
                raise InputError(f"{where}: the input is empty (no records); nothing to score")
            writer.finish(schema[0] if schema else empty_result_schema(fields))
        finally:
            sink.abandon()
            writer.release()
        seconds = time.perf_counter() - t0
        summary = {
            "file": where,
            "compat": compat,
            "finite_decimals": finite_decimals,
            "seconds": round(seconds, 3),
            "records_per_second": round(tally.records / seconds) if seconds > 0 else None,
            "fields": {"response": used[0].response, "gold": used[0].gold},
            **tally.summary(),
            "outputs": {
                "items": str(target),
                "rejected": str(rejected_target),
                "summary": str(summary_target),
            },
        }
        files.path(summary_target).write_text(json_text(summary), encoding="utf-8")
    _tell_fields(fields, used[0])
    return summary


def response_fields(
    response_field: str | None,
    gold_field: str | None,
    type_field: str = "type",
    subtype_field: str = "subtype",
    level_field: str = "level",
    id_fields: Sequence[str] = (),
) -> ResponseFields:
    """The fields to read; a response or gold field given as ``None`` is the default (``completion``,
    ``answer``) or, when the first record lacks it, the first of the common names it has
    (:data:`~matheval_fast.io.responses.COMMON_FIELD_NAMES`)."""
    guess = tuple(w for w, v in (("response", response_field), ("gold", gold_field)) if v is None)
    return ResponseFields(
        response_field or "completion",
        gold_field or "answer",
        type_field,
        subtype_field,
        level_field,
        tuple(id_fields),
        guess=guess,
    )


def _tell_fields(before: ResponseFields, f: ResponseFields) -> None:
    """A note (a :class:`FieldsGuessedWarning`) when a field other than the default was taken."""
    if (f.response, f.gold) != (before.response, before.gold):
        warnings.warn(
            FieldsGuessedWarning(f"read the response from {f.response!r} and the gold from {f.gold!r}"),
            stacklevel=3,
        )


def _is_gzip(p: Path) -> bool:
    with open(p, "rb") as fh:
        return fh.read(2) == b"\x1f\x8b"


def empty_result_schema(fields: ResponseFields) -> pa.Schema:
    return pa.schema(
        [
            ("line", pa.int64()),
            ("prompt", pa.int64()),
            *[(name, pa.large_string()) for name in fields.ids],
            ("type", pa.large_string()),
            ("subtype", pa.large_string()),
            ("level", pa.large_string()),
            ("gold", pa.large_string()),
            ("extracted", pa.large_string()),
            ("correct", pa.bool_()),
            ("reason", pa.string()),
            ("path", pa.string()),
        ]
    )


def format_table(rows: list[tuple[str, str, str, int, int, int, float]]) -> str:
    head = ("Type", "Subtype", "Level", "Correct", "Incorrect", "Total", "Accuracy")
    cells = [head] + [
        (t, s, lv, str(c), str(i), str(n), "-" if math.isnan(a) else f"{a:.4f}")
        for t, s, lv, c, i, n, a in rows
    ]
    widths = [max(len(r[k]) for r in cells) for k in range(len(head))]
    line = "+" + "+".join("-" * (w + 2) for w in widths) + "+"

    def fmt(r: tuple[str, ...]) -> str:
        cols = (v.ljust(w) if k < 3 else v.rjust(w) for k, (v, w) in enumerate(zip(r, widths, strict=True)))
        return "| " + " | ".join(cols) + " |"

    body = [fmt(r) for r in cells[1:]]
    return "\n".join([line, fmt(cells[0]), line, *body[:-1], line, body[-1], line])
