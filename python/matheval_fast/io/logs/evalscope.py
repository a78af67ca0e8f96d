"""EvalScope reviews: ``outputs/<time>/reviews/<model>/<benchmark>_<subset>.jsonl``.

Layout (modelscope/evalscope 1.x, ``evalscope eval``): one JSON object per (doc, repeat) with
``index``, ``target`` (the gold(s) the metric compares with: GSM8K's ``####`` answer, MATH-500's
``answer``), ``messages`` and ``sample_score``: ``{"score": {"value": {<metric>: 0/1},
"status", "extracted_prediction", "prediction", "main_score_name"}, "sample_id", "group_id",
"generation_index", "sample_metadata"}``. With ``--repeats N`` the N generations of a doc sit on
consecutive lines with one ``group_id``: they are read as the doc's samples. The subset is in
the file name (``math_500_Level 3.jsonl``: names may have spaces).

The numbers EvalScope reports are in ``reports/<model>/<benchmark>.json`` (``metrics[].score`` per
subset, rounded to four decimals), beside ``reviews/``; with repeats its ``accuracy`` is the mean
over every (doc, repeat), so the metric is named ``accuracy (mean@N)`` and compared with our mean
over the N samples. ``configs/task_config.yaml`` says N (``repeats:``).

A sample whose score ``status`` is ``excluded`` is outside EvalScope's denominator: it is not
scored here either, and counted in ``info["excluded"]`` (with its lines), not dropped silently.
No rescored copy is written (``--copy``): a record is several lines (its repeats).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from matheval_fast.io.logs.base import LogBatch, LogReader, first_line, open_binary
from matheval_fast.io.logs.rows import RowBuffer, dotted_text, json_text

__all__ = ["EvalScopeReader"]

_REPEATS = re.compile(r"^repeats:\s*(\d+)\s*$", re.MULTILINE)


class EvalScopeReader(LogReader):
    format = "evalscope"
    description = "EvalScope reviews/<model>/<benchmark>_<subset>.jsonl (sample_score per line)"
    position_unit = "line"

    @classmethod
    def sniff(cls, path: Path, head: bytes) -> str | None:
        if path.parent.parent.name != "reviews":
            return "not in a reviews/<model>/ folder"
        line = first_line(head)
        if not line.startswith(b"{") or b'"sample_score"' not in line:
            return "the first line is not a JSON object with 'sample_score'"
        return None

    def __init__(self, path, options=None) -> None:
        super().__init__(path, options)
        o = self.options
        model_dir = self.path.parent
        run = model_dir.parent.parent
        report_dir = run / "reports" / model_dir.name
        # The benchmark is the report's name that prefixes this file's ("math_500" of "math_500_Level 3").
        reports = sorted(report_dir.glob("*.json"), key=lambda p: -len(p.stem)) if report_dir.is_dir() else []
        report = next((r for r in reports if self.path.stem.startswith(r.stem + "_")), None)
        benchmark = report.stem if report else self.path.stem.rsplit("_", 1)[0]
        subset = self.path.stem[len(benchmark) + 1 :]
        cfg = run / "configs" / "task_config.yaml"
        m = _REPEATS.search(cfg.read_text(encoding="utf-8")) if cfg.is_file() else None
        self.repeats = int(m.group(1)) if m else 1
        metric = "accuracy" if self.repeats == 1 else f"accuracy (mean@{self.repeats})"
        if o.metric not in (None, metric):
            raise ValueError(f"{self.path}: no metric {o.metric!r} in this log (it has: {metric})")
        self.info.update(
            task=o.task or self.path.stem,
            model=o.model or model_dir.name or None,
            metrics=[metric],
            primary_metric=metric,
            gold_field="target",
            benchmark=benchmark,
            subset=subset,
            repeats=self.repeats,
            reported_metrics=_reported(report, subset),
            report_file=str(report) if report else None,
            excluded=0,
            excluded_ids=[],
        )

    def batches(self) -> Iterator[LogBatch]:
        o = self.options
        buf = RowBuffer(self.info["task"], self.info["model"], o, self.info["metrics"])
        group: list[tuple[int, dict]] = []
        key: Any = None
        pending: list[Any] = []
        with open_binary(self.path) as fh:
            for line_no, raw in enumerate(fh, 1):
                if not raw.strip():
                    continue
                try:
                    rec = json.loads(raw)
                except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                    self.bad(line_no, f"not valid JSON: {exc}")
                    continue
                ss = rec.get("sample_score") if isinstance(rec, dict) else None
                if not isinstance(ss, dict) or not isinstance(ss.get("score"), dict):
                    self.bad(line_no, "no 'sample_score' object with a 'score'")
                    continue
                gid = ss.get("group_id", rec.get("index"))
                if group and gid != key:
                    if self._add(buf, group):
                        pending.append(group)
                    group = []
                    if buf.full():
                        yield LogBatch(buf.flush(o.samples), pending)
                        pending = []
                key = gid
                group.append((line_no, rec))
        if group and self._add(buf, group):
            pending.append(group)
        if len(buf):
            yield LogBatch(buf.flush(o.samples), pending)

    def _add(self, buf: RowBuffer, group: list[tuple[int, dict]]) -> bool:
        """One doc (its repeats) into the buffer; False when every sample was excluded."""
        kept = []
        for line_no, rec in group:
            score = rec["sample_score"]["score"]
            if score.get("status") == "excluded":
                self.info["excluded"] += 1
                if len(self.info["excluded_ids"]) < 20:
                    self.info["excluded_ids"].append(f"line {line_no}")
                continue
            kept.append((line_no, rec))
        if not kept:
            return False
        first_line_no, first = kept[0]
        ss = first["sample_score"]
        meta = ss.get("sample_metadata") or {}
        target = first.get("target")
        golds = [json_text(t) for t in target] if isinstance(target, list) else json_text(target)
        name = ss["score"].get("main_score_name")
        fw = []
        for _, rec in kept:
            value = rec["sample_score"]["score"].get("value") or {}
            v = value.get(name) if name in value else next(iter(value.values()), None)
            fw.append(float(v) if isinstance(v, (int, float)) else None)
        buf.add(
            id=meta.get("question_id", ss.get("group_id", first.get("index"))),
            position=first_line_no,
            responses=[json_text(r["sample_score"]["score"].get("prediction")) for _, r in kept],
            golds=golds,
            fw_scores=fw,
            fw_extracted=[json_text(r["sample_score"]["score"].get("extracted_prediction")) for _, r in kept],
            passthrough={p: dotted_text(first, p) for p in self.options.id_fields},
        )
        return True


def _reported(report: Path | None, subset: str) -> dict[str, float]:
    """The report's score of each metric for this subset (EvalScope rounds them to four decimals)."""
    if report is None:
        return {}
    try:
        data = json.loads(report.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return {}
    out: dict[str, float] = {}
    for m in data.get("metrics", []) if isinstance(data, dict) else []:
        name = (m.get("identity") or {}).get("name") or m.get("name")
        for cat in m.get("categories", []):
            for s in cat.get("subsets", []):
                if s.get("name") == subset and isinstance(s.get("score"), (int, float)):
                    out[str(name)] = float(s["score"])
    return out
