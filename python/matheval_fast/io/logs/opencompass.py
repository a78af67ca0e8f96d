"""OpenCompass results: ``<work_dir>/<time>/results/<model>/<dataset>.json`` (``dump_details``).

Layout (open-compass/opencompass ``tasks/openicl_eval.py`` and ``openicl/icl_evaluator/
icl_base_evaluator.py``): one JSON object per dataset and model with the evaluator's metrics
(``accuracy``: a percentage, ...) and ``details``, in one of three shapes:

- **evaluator rows** (0.2/0.3, e.g. ``Gsm8kEvaluator`` / ``MATHEvaluator``): a list of
  ``{"pred", "answer", "correct"}`` (some evaluators say ``is_correct``);
- **replicated rows** (0.4 and later, ``BaseEvaluator.evaluate`` with ``n`` runs): a list of
  ``{"example_abbr", "pred": [...], "answer": [...], "correct": [...]}``, one value per run;
- **formatted rows** (``format_details``, when the evaluator gives none): an object
  ``{"type": "GEN", "0": {"prompt", "origin_prediction", "predictions", "references", "correct"}}``.

Since 0.4 every details entry is replicated (lists of one value per run, even for one run); the
metrics come first: ``accuracy`` (one run) or ``accuracy (N runs average)`` (the mean over the N
runs, each run's accuracy over all docs), and with ``k > 1`` ``G-Pass@k_t`` / ``mG-Pass@k`` (also
per doc in each details entry; copies prefixed ``<dataset>/`` are skipped). Each is a metric of
this reader: the accuracy per (doc, run) from ``correct``, G-Pass per doc from its entry, so the
summary compares each with ours aggregated the same way (:mod:`matheval_fast.samples`).

The gold: the predictions file's ``gold`` (the dataset's output column, before the dataset
post-processor: a GSM8K answer with its ``####`` line, a MATH box, a MATH-500 worked solution),
reduced by the gold rule. The details' ``answer`` is the evaluator's own view of the gold and
is not always text: ``MATHVerifyEvaluator`` writes the repr of math-verify's parse
(``"[1/9, '\\frac{1}{9}']"``); without a predictions file, the parse's string is taken from it.

What is scored: the framework's pred post-processor runs before its evaluator; where the task
family's documented one cuts the output (``gsm8k_postprocess``: up to the first ``Question:``,
the model's invented next question), the raw output is cut the same way before extraction
(``info["truncation"]``, in the summary).

``pred`` is the *post-processed* prediction (the extracted answer). The raw model output lives in
``<work_dir>/<time>/predictions/<model>/<dataset>.json`` (``{"0": {"origin_prompt", "prediction",
"gold"}}``, split as ``<dataset>_0.json``, ``_1.json``, ... for big sets): when that file is there we
score the raw output (and keep ``pred`` as the framework's extraction); when it is not, we score
``pred`` and say so (``info["response_source"] = "extracted"``). A dataset OpenCompass skipped
(``{"skipped": true}``) gives no rows.
"""

from __future__ import annotations

import ast
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from matheval_fast.io.logs.base import (
    CopyWriter,
    LogBatch,
    LogFormatError,
    LogReader,
    first_line,
    open_binary,
)
from matheval_fast.io.logs.jsonstream import JsonSyntaxError, iter_items
from matheval_fast.io.logs.rows import RowBuffer, dotted_text, json_text

__all__ = ["OpenCompassReader"]

_CORRECT = ("correct", "is_correct", "cascade_correct")
# A top-level numeric member before "details" (the metrics OpenCompass writes first).
_METRIC = re.compile(rb'^\s{0,8}"([^"\\/]+)"\s*:\s*(-?[0-9][0-9.eE+-]*)\s*,?\s*$', re.MULTILINE)
# math-verify's parse as OpenCompass's MATHVerifyEvaluator writes it: "[<sympy>, '<latex>']".
_PARSE_REPR = re.compile(r"^\[.*, ('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")\]$", re.DOTALL)
# (task pattern, cut before, what the summary says): the pred post-processors of the stock configs.
_TRUNCATIONS = [
    (
        re.compile(r"gsm8k", re.IGNORECASE),
        "Question:",
        "OpenCompass gsm8k_postprocess: the output up to the first `Question:`",
    ),
]


class OpenCompassReader(LogReader):
    format = "opencompass"
    description = "OpenCompass results/<model>/<dataset>.json with details"
    position_unit = "item"

    @classmethod
    def sniff(cls, path: Path, head: bytes) -> str | None:
        start = first_line(head)
        if not start.startswith(b"{"):
            return "not a JSON object"
        # The metrics come first and details is big: look for the member in the head, as text.
        if b'"details"' not in head and b'"skipped"' not in head:
            return "a JSON object without a 'details' member in its first 64 KiB"
        return None

    def __init__(self, path, options=None) -> None:
        super().__init__(path, options)
        o = self.options
        reported = self._reported_metrics()
        metrics = [m for m in reported if m.startswith("accuracy") or "G-Pass@" in m] or ["correct"]
        self.info.update(
            task=o.task or self.path.stem,
            model=o.model or self.path.parent.name or None,
            metrics=metrics,
            primary_metric=metrics[0],
            reported_metrics=reported,
        )
        if o.metric is not None:
            if o.metric not in metrics:
                raise ValueError(
                    f"{self.path}: no per-item metric {o.metric!r} (this file has: {', '.join(metrics)})"
                )
            self.info["primary_metric"] = o.metric
        task = self.info["task"]
        self.truncation = next(((cut, say) for pat, cut, say in _TRUNCATIONS if pat.search(task)), None)
        self.info["truncation"] = self.truncation[1] if self.truncation else None
        self.members: dict[str, Any] = {}
        # The raw outputs are loaded when the file is read (not now: many results files may be
        # opened before the first is read); here only that they exist and can be opened.
        self._pred_files = self._prediction_files()
        for f in self._pred_files:
            with open(f, "rb"):
                pass
        self.predictions: list[dict[str, Any]] | None = None
        self.info["response_source"] = "predictions file" if self._pred_files else "extracted"
        self.info["gold_field"] = "gold (predictions file)" if self._pred_files else "answer (details)"

    def _reported_metrics(self) -> dict[str, float]:
        """The numeric members written before ``details`` (OpenCompass writes its metrics first)."""
        try:
            with open_binary(self.path) as fh:
                head = fh.read(1 << 16)
        except OSError:
            return {}
        cut = head.find(b'"details"')
        out = {}
        for m in _METRIC.finditer(head if cut < 0 else head[:cut]):
            try:
                out[m.group(1).decode("utf-8")] = float(m.group(2))
            except (UnicodeDecodeError, ValueError):
                continue
        return out

    def _prediction_files(self) -> list[Path]:
        p = self.path
        if len(p.parts) < 3 or p.parent.parent.name != "results":
            return []
        base = p.parent.parent.parent / "predictions" / p.parent.name
        if (base / p.name).is_file():
            return [base / p.name]
        parts = []
        i = 0
        while (base / f"{p.stem}_{i}{p.suffix}").is_file():
            parts.append(base / f"{p.stem}_{i}{p.suffix}")
            i += 1
        return parts

    def _load_predictions(self) -> list[dict[str, Any]] | None:
        files = self._pred_files
        if not files:
            return None
        preds: list[dict[str, Any]] = []
        for f in files:
            try:
                data = json.loads(f.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
                raise LogFormatError(f"{f}: cannot read OpenCompass predictions: {exc}") from exc
            if not isinstance(data, dict):
                raise LogFormatError(f"{f}: OpenCompass predictions must be a JSON object")
            preds.extend(v if isinstance(v, dict) else {} for v in data.values())
        self.info["predictions_files"] = [str(f) for f in files]
        return preds

    def batches(self) -> Iterator[LogBatch]:
        o = self.options
        self.predictions = self._load_predictions()
        buf = RowBuffer(self.info["task"], self.info["model"], o, self.info["metrics"])
        pending: list[tuple[Any, dict]] = []
        shape = None
        try:
            with open_binary(self.path) as raw:
                fh = io.TextIOWrapper(raw, encoding="utf-8")
                index = 0
                for ev in iter_items(fh, ("details",)):
                    if ev.kind == "member":
                        self.members[str(ev.key)] = ev.value
                        continue
                    if ev.kind == "container":
                        shape = "object" if ev.value == "{" else "list"
                        continue
                    if shape == "object" and not isinstance(ev.value, dict):
                        self.members.setdefault("details_meta", {})[ev.key] = ev.value  # "type": "GEN"
                        continue
                    row = self._row(index, ev.key, ev.value, ev.line)
                    index += 1
                    if row is None:
                        continue
                    buf.add(**row)
                    pending.append((ev.key, ev.value))
                    if buf.full():
                        yield LogBatch(buf.flush(o.samples), pending)
                        pending = []
        except UnicodeDecodeError as exc:
            self.bad(0, f"not UTF-8 text: {exc}")
        except JsonSyntaxError as exc:
            self.bad(index, f"line {exc.line}: {exc}; the rest of the file cannot be read")
        if len(buf):
            yield LogBatch(buf.flush(o.samples), pending)
        if self.members.get("skipped"):
            self.info["skipped"] = True

    def _row(self, index: int, key: Any, item: Any, line: int) -> dict | None:
        if not isinstance(item, dict):
            self.bad(index, f"line {line}: a details entry is a {type(item).__name__}, not an object")
            return None
        pred = item.get("pred", item.get("predictions"))
        gold = item.get("answer", item.get("references", item.get("gold")))
        correct = next((item[k] for k in _CORRECT if k in item), None)
        if pred is None and gold is None:
            self.bad(index, f"line {line}: a details entry without pred/answer (keys: {', '.join(item)})")
            return None
        if isinstance(pred, list) and isinstance(correct, list):  # replicated rows: one value per run
            replicated, preds, corrects = True, pred, correct
        else:
            replicated, preds, corrects = False, [pred], [correct]
        golds = gold[0] if replicated and isinstance(gold, list) and gold else gold
        if self.predictions is not None:
            n = len(preds)
            real = len(self.predictions) // max(n, 1)
            entries = [
                self.predictions[r * real + index] if r * real + index < len(self.predictions) else {}
                for r in range(n)
            ]
            raw = [e.get("prediction") for e in entries]
            if entries and "gold" in entries[0]:
                golds = entries[0]["gold"]  # what the evaluator's references came from
        elif "origin_prediction" in item:
            raw = [item["origin_prediction"]]
        else:
            raw = [_unparse(p) if isinstance(p, str) else p for p in preds]  # math-verify's parse, too
        if isinstance(golds, str):
            golds = _unparse(golds)
        elif isinstance(golds, list):
            golds = [_unparse(g) if isinstance(g, str) else g for g in golds]
        texts = [json_text(r) for r in raw]
        if self.truncation is not None and (self.predictions is not None or "origin_prediction" in item):
            texts = [t.split(self.truncation[0])[0] if t is not None else None for t in texts]
        fw = [_score(c) for c in corrects]
        metrics = {}
        for m in self.info["metrics"]:
            if "G-Pass@" in m:  # per doc in the entry, the same for each of its runs
                metrics[m] = [_score(item.get(m))] * len(preds)
        return {
            "id": item.get("example_abbr", key if isinstance(key, str) else index),
            "position": index,
            "responses": texts,
            "golds": [json_text(g) for g in golds] if isinstance(golds, list) else json_text(golds),
            "fw_scores": fw,
            "fw_extracted": [json_text(p) for p in preds],
            "passthrough": {p: dotted_text(item, p) for p in self.options.id_fields},
            "metrics": metrics,
        }

    def copy_writer(self, target: Path) -> CopyWriter | None:
        return _JsonCopy(target, self)


def _unparse(gold: str) -> str:
    """math-verify's parse repr (``[1/9, '\\frac{1}{9}']``) to the string it parsed; other golds as
    they are."""
    m = _PARSE_REPR.match(gold.strip())
    if m is None:
        return gold
    try:
        text = ast.literal_eval(m.group(1))  # a string literal only: nothing is executed
    except (ValueError, SyntaxError):
        return gold
    return text if isinstance(text, str) else gold


def _score(c: Any) -> float | None:
    if isinstance(c, bool):
        return float(c)
    if isinstance(c, (int, float)):
        return float(c)
    return None


class _JsonCopy(CopyWriter):
    """The results file again, each details entry with a ``matheval_fast`` member and a
    ``matheval_fast`` summary at the top level (the other members as they were)."""

    def __init__(self, target: Path, reader: OpenCompassReader) -> None:
        self.fh = open(target, "w", encoding="utf-8")
        self.reader = reader
        self.started = False
        self.first_item = True
        self.written: set[str] = set()

    def _start(self) -> None:
        if self.started:
            return
        self.started = True
        self.fh.write("{\n")
        self._members()
        self.fh.write('    "details": [\n')

    def _members(self) -> None:
        for k, v in self.reader.members.items():
            if k not in self.written and k != "details_meta":
                self.fh.write(f"    {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)},\n")
                self.written.add(k)

    def write(
        self, context: Any, records: np.ndarray, score: np.ndarray, reason: pa.Array, extracted: pa.Array
    ) -> None:
        self._start()
        rows = zip(context, score, reason.to_pylist(), extracted.to_pylist(), strict=True)
        for (_key, item), s, r, e in rows:
            out = dict(item)
            out["matheval_fast"] = {"score": None if np.isnan(s) else float(s), "reason": r, "extracted": e}
            self.fh.write(
                ("" if self.first_item else ",\n") + "        " + json.dumps(out, ensure_ascii=False)
            )
            self.first_item = False

    def close(self, summary: dict[str, Any]) -> None:
        self._start()
        self.fh.write("\n    ],\n")
        self._members()  # members that came after the details
        self.fh.write(f'    "matheval_fast": {json.dumps(summary, ensure_ascii=False)}\n}}\n')
        self.fh.close()
