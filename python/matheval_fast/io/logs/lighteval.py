"""lighteval details: ``details/<model>/<date>/details_<task>_<date>.parquet`` (``--save-details``).

Two layouts (lighteval ``logging/evaluation_tracker.py`` writes ``Dataset.from_list([asdict(detail)])``
with the columns sorted):

- **current** (0.10 and later): ``DetailsLogger.Detail(doc, model_response, metric)``: a ``doc`` struct
  (``query``, ``choices``, ``gold_index`` (int or list), ``id``, ``specific`` with the metric's
  ``extracted_predictions`` / ``extracted_golds``, ...), a ``model_response`` struct (``text``: one string
  per sample, ``text_post_processed``, token lists, ...) and a ``metric`` struct (metric name -> value).
  The gold is ``doc.choices[doc.gold_index]``.
- **older / flat** (0.9 and earlier): ``example``, ``full_prompt``, ``predictions`` (one string per
  sample), ``gold`` (a list of acceptable answers), ``metrics`` (struct), ``specifics`` (struct),
  ``choices``, ``gold_index`` and token columns; no id column (the row index is the id).

A list of golds gives alternatives (a sample is correct if it matches any), never a stringified list.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from matheval_fast.io.logs.base import (
    Columns,
    CopyWriter,
    LogBatch,
    LogFormatError,
    LogReader,
    arrow_path,
    build_batch,
    take_elements,
)

__all__ = ["LightevalReader"]

_NAME = re.compile(r"^details_(?P<task>.+)_(?P<date>\d{4}-\d{2}-\d{2}T[0-9.\-]+)\.parquet$")
_CURRENT = ("doc", "model_response", "metric")
_FLAT = ("predictions", "gold", "metrics")


def _layout(names: list[str]) -> str | None:
    if all(c in names for c in _CURRENT):
        return "current"
    if all(c in names for c in _FLAT):
        return "flat"
    return None


class LightevalReader(LogReader):
    format = "lighteval"
    description = "lighteval details_<task>_<date>.parquet (--save-details), current and older layouts"
    position_unit = "row"

    @classmethod
    def sniff(cls, path: Path, head: bytes) -> str | None:
        if not head.startswith(b"PAR1"):
            return "not a Parquet file"
        try:
            names = pq.ParquetFile(path).schema_arrow.names
        except (OSError, pa.ArrowException) as exc:
            return f"unreadable Parquet ({exc})"
        if _layout(names) is None:
            return (
                f"Parquet without lighteval's columns ({', '.join(_CURRENT)} or {', '.join(_FLAT)}); "
                f"it has {', '.join(names[:8])}"
            )
        return None

    def __init__(self, path, options=None) -> None:
        super().__init__(path, options)
        o = self.options
        try:
            self.file = pq.ParquetFile(self.path)
        except (OSError, pa.ArrowException) as exc:
            raise LogFormatError(f"{self.path}: unreadable Parquet: {exc}") from exc
        schema = self.file.schema_arrow
        self.layout = _layout(schema.names)
        metrics_col = "metric" if self.layout == "current" else "metrics"
        mtype = schema.field(metrics_col).type
        raw_names = (
            [
                f.name
                for f in mtype
                if pa.types.is_floating(f.type) or pa.types.is_integer(f.type) or pa.types.is_boolean(f.type)
            ]
            if pa.types.is_struct(mtype)
            else []
        )
        # lighteval 0.13 names some metrics after their arguments, function addresses included
        # (`maj@n:n=4&normalize_pred=<function math_normalizer at 0x7f...>`): the address changes
        # every run, so the name we show and match leaves it out.
        self._raw_metric = {metric_label(r): r for r in raw_names}
        self.metric_names = list(self._raw_metric)
        primary = o.metric or (self.metric_names[0] if self.metric_names else None)
        if o.metric and o.metric not in self.metric_names:
            raise ValueError(
                f"{self.path}: no metric {o.metric!r} in this log "
                f"(it has: {', '.join(self.metric_names) or 'none'})"
            )
        m = _NAME.match(self.path.name)
        parts = self.path.parts
        model = None
        if "details" in parts[:-2]:
            k = len(parts) - 1 - parts[::-1].index("details")
            model = "/".join(parts[k + 1 : -2]) or None
        self.info.update(
            layout=self.layout,
            task=o.task or (m.group("task") if m else self.path.stem),
            model=o.model or model or self.path.parent.parent.name,
            metrics=self.metric_names,
            primary_metric=primary,
            response_field=o.response_field
            or ("model_response.text" if self.layout == "current" else "predictions"),
            gold_field=o.gold_field
            or ("doc.choices[doc.gold_index]" if self.layout == "current" else "gold"),
        )
        for flag, p in (("--response-field", o.response_field), ("--gold-field", o.gold_field)):
            if p and p.split(".")[0] not in schema.names:
                raise ValueError(
                    f"{self.path}: no column {p.split('.')[0]!r} for {p!r} "
                    f"(columns: {', '.join(schema.names)}); check {flag}"
                )
        self.primary = primary
        self._metrics_col = metrics_col

    def _top_columns(self) -> list[str] | None:
        """Top-level columns to read (all of them when a copy is written)."""
        if self._want_all:
            return None
        o = self.options
        paths = [self._metrics_col, *o.id_fields]
        if self.layout == "current":
            paths += ["model_response", "doc"]
        else:
            paths += ["predictions", "gold", "specifics"]
        paths += [p for p in (o.response_field, o.gold_field) if p]
        names = self.file.schema_arrow.names
        return list(dict.fromkeys(p.split(".")[0] for p in paths if p.split(".")[0] in names))

    _want_all = False

    def batches(self) -> Iterator[LogBatch]:
        o = self.options
        record = 0
        for b in self.file.iter_batches(batch_size=o.batch_rows, columns=self._top_columns()):
            n = b.num_rows
            rows = np.arange(record, record + n, dtype=np.int64)
            resp = self._path(b, o.response_field) if o.response_field else None
            if self.layout == "current":
                if resp is None:
                    resp = arrow_path(b, "model_response.text")
                gold = self._path(b, o.gold_field) if o.gold_field else _current_gold(b)
                ids = arrow_path(b, "doc.id")
                extracted = arrow_path(b, "doc.specific.extracted_predictions")
            else:
                if resp is None:
                    resp = b.column(b.schema.names.index("predictions"))
                gold = self._path(b, o.gold_field) if o.gold_field else b.column(b.schema.names.index("gold"))
                ids = None
                extracted = arrow_path(b, "specifics.extracted_predictions")
            if ids is None:
                ids = pa.array(rows)
            if resp is None or not _is_text(resp.type):
                raise LogFormatError(
                    f"{self.path}: the responses ({self.info['response_field']}) are "
                    f"{'missing' if resp is None else resp.type}, not text: not a generative task"
                )
            if extracted is not None and (
                pa.types.is_list(extracted.type) or pa.types.is_large_list(extracted.type)
            ):
                extracted = take_elements(extracted, np.arange(n), np.zeros(n, dtype=np.int64))
            metrics_struct = b.column(b.schema.names.index(self._metrics_col))
            metrics = {
                name: pc.struct_field(
                    metrics_struct, [metrics_struct.type.get_field_index(self._raw_metric[name])]
                ).cast(pa.float64())
                for name in self.metric_names
            }
            cols = Columns(
                n=n,
                task=self.info["task"],
                model=self.info["model"],
                ids=ids,
                record=rows,
                position=rows,
                responses=resp,
                golds=gold,
                fw_score=metrics.get(self.primary) if self.primary else None,
                fw_extracted=extracted,
                metrics=metrics,
                passthrough={p: self._path(b, p) for p in o.id_fields},
            )
            record += n
            yield LogBatch(build_batch(cols, o.samples), b)

    def _path(self, b: pa.RecordBatch, path: str) -> pa.Array:
        arr = arrow_path(b, path)
        if arr is None:
            raise ValueError(
                f"{self.path}: no field {path!r} (top-level columns: {', '.join(b.schema.names)})"
            )
        return arr

    def copy_writer(self, target: Path) -> CopyWriter | None:
        self._want_all = True
        return _ParquetCopy(target, self.file.schema_arrow)


def _is_text(t: pa.DataType) -> bool:
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        t = t.value_type
    return pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_null(t)


def metric_label(name: str) -> str:
    """A metric's name without the run-specific addresses of the functions in it."""
    return _ADDRESS.sub(">", name)


_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+>")


def _current_gold(b: pa.RecordBatch) -> pa.Array:
    """``doc.choices[doc.gold_index]``: one gold, or alternatives when gold_index is a list."""
    choices = arrow_path(b, "doc.choices")
    gi = arrow_path(b, "doc.gold_index")
    if choices is None or gi is None:
        raise LogFormatError("the doc struct has no choices / gold_index")
    n = len(choices)
    if pa.types.is_list(gi.type) or pa.types.is_large_list(gi.type):
        # Several acceptable answers: a list of golds (alternatives) per record.
        lens = pc.list_value_length(gi).fill_null(0).to_numpy(zero_copy_only=False).astype(np.int64)
        rows = np.repeat(np.arange(n, dtype=np.int64), lens)
        k = gi.flatten().cast(pa.int64()).to_numpy(zero_copy_only=False)
        vals = take_elements(choices, rows, k)
        offsets = np.concatenate([[0], np.cumsum(lens)])
        return pa.LargeListArray.from_arrays(pa.array(offsets, pa.int64()), vals.cast(pa.large_string()))
    k = gi.cast(pa.int64()).fill_null(-1).to_numpy(zero_copy_only=False)
    ok = k >= 0
    out = take_elements(choices, np.arange(n, dtype=np.int64), np.where(ok, k, 0))
    return pc.if_else(pa.array(ok), out, pa.nulls(n, out.type))


class _ParquetCopy(CopyWriter):
    """The details file again with ``matheval_fast``, ``matheval_fast_reason`` and
    ``matheval_fast_extracted`` columns; the context is the original batch (all columns)."""

    def __init__(self, target: Path, schema: pa.Schema) -> None:
        self.schema = (
            schema.append(pa.field("matheval_fast", pa.float64()))
            .append(pa.field("matheval_fast_reason", pa.string()))
            .append(pa.field("matheval_fast_extracted", pa.string()))
        )
        self.writer = pq.ParquetWriter(target, self.schema)

    def write(
        self, context: Any, records: np.ndarray, score: np.ndarray, reason: pa.Array, extracted: pa.Array
    ) -> None:
        b: pa.RecordBatch = context
        arrays = [*b.columns, pa.array(score, pa.float64(), from_pandas=True)]
        arrays += [reason.cast(pa.string()), extracted.cast(pa.string())]
        self.writer.write_batch(pa.RecordBatch.from_arrays(arrays, schema=self.schema))

    def close(self, summary: dict[str, Any]) -> None:
        self.writer.close()
