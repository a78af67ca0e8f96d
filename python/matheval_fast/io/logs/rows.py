"""Per-record Python values gathered into normalised batches (for the JSON-document formats,
whose records arrive as Python objects one at a time)."""

from __future__ import annotations

import json
from typing import Any, Literal

import numpy as np
import pyarrow as pa

from matheval_fast.io.logs.base import Columns, ReadOptions, build_batch

__all__ = ["RowBuffer", "dotted_text", "json_text"]

_TEXT_LIST = pa.large_list(pa.large_string())
_NUM_LIST = pa.large_list(pa.float64())


class RowBuffer:
    """Records added with :meth:`add` until :meth:`full`; :meth:`flush` gives the batch."""

    def __init__(self, task: str | None, model: str | None, options: ReadOptions, metrics: list[str]) -> None:
        self.task = task
        self.model = model
        self.options = options
        self.metrics = metrics
        self.record = 0
        self._clear()

    def _clear(self) -> None:
        self.ids: list[Any] = []
        self.positions: list[int] = []
        self.tasks: list[str | None] = []
        self.filters: list[str | None] = []
        self.responses: list[list[str | None]] = []
        self.golds: list[Any] = []
        self.fw_scores: list[list[float | None]] = []
        self.fw_extracted: list[list[str | None]] = []
        self.metric_values: dict[str, list[list[float | None]]] = {m: [] for m in self.metrics}
        self.passthrough: dict[str, list[Any]] = {p: [] for p in self.options.id_fields}

    def __len__(self) -> int:
        return len(self.ids)

    def full(self) -> bool:
        return len(self.ids) >= self.options.batch_rows

    def add(
        self,
        *,
        id: Any,
        position: int,
        responses: list[str | None],
        golds: str | list[str | None] | None,
        fw_scores: list[float | None] | None = None,
        fw_extracted: list[str | None] | None = None,
        passthrough: dict[str, Any] | None = None,
        task: str | None = None,
        filter: str | None = None,
        metrics: dict[str, list[float | None]] | None = None,
    ) -> None:
        """``metrics``: per-sample values of each metric (a per-record value repeated per sample),
        where they differ from ``fw_scores`` (the default for every metric)."""
        self.ids.append(None if id is None else str(id))
        self.positions.append(position)
        self.tasks.append(task)
        self.filters.append(filter)
        self.responses.append(responses)
        self.golds.append(golds)
        self.fw_scores.append(fw_scores if fw_scores is not None else [None] * len(responses))
        self.fw_extracted.append(fw_extracted if fw_extracted is not None else [None] * len(responses))
        for p in self.options.id_fields:
            self.passthrough[p].append((passthrough or {}).get(p))
        for m in self.metrics:
            given = (metrics or {}).get(m)
            self.metric_values[m].append(given if given is not None else self.fw_scores[-1])

    def flush(self, samples: Literal["first", "all"]) -> pa.RecordBatch:
        n = len(self.ids)
        golds_are_lists = any(isinstance(g, list) for g in self.golds)
        golds = (
            pa.array([g if isinstance(g, list) or g is None else [g] for g in self.golds], _TEXT_LIST)
            if golds_are_lists
            else pa.array(self.golds, pa.large_string())
        )
        cols = Columns(
            n=n,
            task=self.task,
            model=self.model,
            ids=pa.array(self.ids, pa.string()),
            record=np.arange(self.record, self.record + n, dtype=np.int64),
            position=np.asarray(self.positions, dtype=np.int64),
            responses=pa.array(self.responses, _TEXT_LIST),
            golds=golds,
            filter=pa.array(self.filters, pa.string()) if any(f is not None for f in self.filters) else None,
            fw_score=pa.array(self.fw_scores, _NUM_LIST),
            fw_extracted=pa.array(self.fw_extracted, _TEXT_LIST),
            metrics={m: pa.array(self.metric_values[m], _NUM_LIST) for m in self.metrics},
            passthrough={p: pa.array(v, pa.string()) for p, v in self.passthrough.items()},
        )
        batch = build_batch(cols, samples)
        if any(t is not None for t in self.tasks):
            # Per-record tasks (the seed's dataset type): replace the constant task column.
            rec = batch.column(batch.schema.get_field_index("record")).to_numpy() - self.record
            tasks = pa.array([t if t is not None else self.task for t in self.tasks], pa.string())
            batch = batch.set_column(batch.schema.get_field_index("task"), "task", tasks.take(pa.array(rec)))
        self.record += n
        self._clear()
        return batch


def json_text(v: Any) -> str | None:
    """A JSON value as text: strings as they are, other scalars as JSON literals, containers as JSON."""
    if v is None or isinstance(v, str):
        return v
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    return json.dumps(v, ensure_ascii=False)


def dotted_text(obj: Any, path: str) -> Any:
    """The value at a dotted path of a parsed JSON object, as text (None when absent)."""
    for seg in path.split("."):
        if isinstance(obj, dict):
            obj = obj.get(seg)
        elif isinstance(obj, list) and seg.isdigit() and int(seg) < len(obj):
            obj = obj[int(seg)]
        else:
            return None
    return json_text(obj)
