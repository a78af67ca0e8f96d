"""The seed's (Xwin-Math) response files: one JSON array of items.

Layout (Xwin-LM ``Xwin-Math/eval``, the format ``matheval-fast score`` reads): ``question``,
``answer`` (the gold), ``type`` (dataset type: ``GSM8K``, ``MATH``, ...), ``subtype``, ``level`` and
``completion``: one response per *prompt* (not samples of one prompt). So each completion is its
own record, with ``filter = "prompt <j>"`` (the seed prints one table per prompt) and ``task`` = the
item's type; the seed's per-type checker policy applies (see :mod:`matheval_fast.rescore`). The
seed keeps no verdicts, so there is no framework score.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from matheval_fast.io.logs.base import (
    CopyWriter,
    LogBatch,
    LogReader,
    first_line,
    open_binary,
    require_fields,
)
from matheval_fast.io.logs.jsonstream import JsonSyntaxError, iter_items
from matheval_fast.io.logs.rows import RowBuffer, dotted_text, json_text

__all__ = ["SeedReader"]


class SeedReader(LogReader):
    format = "seed"
    description = "the seed's (Xwin-Math) JSON array of items with a completion list"
    position_unit = "item"

    @classmethod
    def sniff(cls, path: Path, head: bytes) -> str | None:
        if not first_line(head).startswith(b"["):
            return "not a JSON array"
        # The first item is read from the file, however long it is (not only from the head).
        try:
            with open_binary(path) as raw:
                events = iter_items(io.TextIOWrapper(raw, encoding="utf-8"), ())
                first = next((ev for ev in events if ev.kind == "item"), None)
        except JsonSyntaxError as exc:
            return f"its first item is not valid JSON (line {exc.line}: {exc})"
        except UnicodeDecodeError:
            return "its first item is not UTF-8 text"
        if first is None:
            return "an empty array"
        item = first.value
        if not isinstance(item, dict):
            return "its first element is not an object"
        missing = [k for k in ("answer", "completion") if k not in item]
        if missing:
            return f"its first item has no {', '.join(repr(k) for k in missing)}"
        return None

    def __init__(self, path, options=None) -> None:
        super().__init__(path, options)
        o = self.options
        if o.metric is not None:
            raise ValueError(f"{self.path}: the seed's files hold no metric ({o.metric!r} asked)")
        self.info.update(
            task=o.task,
            model=o.model or self.path.stem,
            metrics=[],
            primary_metric=None,
            response_field=o.response_field or "completion",
            gold_field=o.gold_field or "answer",
        )
        if o.response_field or o.gold_field:
            with open_binary(self.path) as raw:
                events = iter_items(io.TextIOWrapper(raw, encoding="utf-8"), ())
                first: Any = next((ev.value for ev in events if ev.kind == "item"), {})
            require_fields(
                self.path,
                first,
                {"--response-field": o.response_field, "--gold-field": o.gold_field},
                unit="item",
            )

    def batches(self) -> Iterator[LogBatch]:
        o = self.options
        rf, gf = self.info["response_field"], self.info["gold_field"]
        buf = RowBuffer(self.info["task"], self.info["model"], o, [])
        pending: list[tuple[int, dict, int]] = []
        index = 0
        try:
            with open_binary(self.path) as raw:
                for ev in iter_items(io.TextIOWrapper(raw, encoding="utf-8"), ()):
                    if ev.kind != "item":
                        continue
                    item = ev.value
                    index = int(ev.key)
                    if not isinstance(item, dict):
                        self.bad(index, f"line {ev.line}: an item is a {type(item).__name__}, not an object")
                        continue
                    if rf not in item or gf not in item:
                        self.bad(index, f"line {ev.line}: no field {rf if rf not in item else gf!r}")
                        continue
                    resp = item[rf]
                    prompts = resp if isinstance(resp, list) else [resp]
                    nested = any(isinstance(r, (dict, list)) for r in prompts)
                    if nested or isinstance(item[gf], (dict, list)):
                        # A structured value's JSON text is no answer to score.
                        self.bad(
                            index,
                            f"line {ev.line}: field {rf if nested else gf!r} holds an object or a nested "
                            "list, expected a string (or a list of strings for the response)",
                        )
                        continue
                    for j, r in enumerate(prompts):
                        buf.add(
                            id=index,
                            position=index,
                            responses=[json_text(r)],
                            golds=json_text(item[gf]),
                            passthrough={p: dotted_text(item, p) for p in o.id_fields},
                            task=o.task or str(item.get("type") or "Default"),
                            filter=f"prompt {j}",
                        )
                        pending.append((index, item, j))
                    if buf.full():
                        yield LogBatch(buf.flush(o.samples), pending)
                        pending = []
        except UnicodeDecodeError as exc:
            self.bad(index, f"not UTF-8 text: {exc}")
        except JsonSyntaxError as exc:
            self.bad(index, f"line {exc.line}: {exc}; the rest of the file cannot be read")
        if len(buf):
            yield LogBatch(buf.flush(o.samples), pending)

    def copy_writer(self, target: Path) -> CopyWriter | None:
        return _SeedCopy(target)


class _SeedCopy(CopyWriter):
    """The array again; each item gains ``matheval_fast``: one ``{score, reason, extracted}`` per
    completion (prompt)."""

    def __init__(self, target: Path) -> None:
        self.fh = open(target, "w", encoding="utf-8")
        self.fh.write("[")
        self.first = True
        self.current: tuple[int, dict, list] | None = None

    def _emit(self) -> None:
        if self.current is None:
            return
        _, item, verdicts = self.current
        out = dict(item)
        out["matheval_fast"] = verdicts
        self.fh.write(("\n" if self.first else ",\n") + json.dumps(out, ensure_ascii=False, indent=1))
        self.first = False
        self.current = None

    def write(
        self, context: Any, records: np.ndarray, score: np.ndarray, reason: pa.Array, extracted: pa.Array
    ) -> None:
        rows = zip(context, score, reason.to_pylist(), extracted.to_pylist(), strict=True)
        for (index, item, _j), s, r, e in rows:
            if self.current is None or self.current[0] != index:
                self._emit()
                self.current = (index, item, [])
            self.current[2].append({"score": None if np.isnan(s) else float(s), "reason": r, "extracted": e})

    def close(self, summary: dict[str, Any]) -> None:
        self._emit()
        self.fh.write("\n]\n")
        self.fh.close()
