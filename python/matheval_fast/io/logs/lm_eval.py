"""lm-evaluation-harness per-sample logs: ``samples_<task>_<date>.jsonl`` (``--log_samples``).

Layout (lm-eval 0.4.x, ``lm_eval/evaluator.py`` and ``loggers/evaluation_tracker.py``): one JSON
object per line and per *filter*: ``doc_id``, ``doc`` (the dataset row), ``target`` (``str()`` of
``doc_to_target``: GSM8K's whole ``solution\\n#### 18`` for ``gsm8k``, the number for
``gsm8k_cot``, the normalised boxed answer for ``minerva_math`` / ``hendrycks_math``),
``arguments`` (the prompt), ``resps`` (one list of samples per request), ``filtered_resps`` (the
filter's output per request: the extracted answer), ``filter`` (``strict-match``,
``flexible-extract``, ``none``, ...), ``metrics`` (the metric names), three hashes, then one
member per metric (``exact_match``, ``math_verify``, ...). A task with two filters writes every
doc twice, one line per filter, and lm-eval reports each filter's score: so do we (``filter``).

The file lives in ``<output_path>/<model_name_sanitized>/``: that folder names the model.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from matheval_fast.io.logs.base import (
    Columns,
    CopyWriter,
    LogBatch,
    LogReader,
    build_batch,
    read_head,
    require_fields,
)
from matheval_fast.io.logs.jsonl import (
    JsonlCopyWriter,
    bad_line_reason,
    exact_numbers,
    parsed_chunks,
    peek_json_line,
    screen,
)

__all__ = ["LmEvalReader"]

_NAME = re.compile(r"^samples_(?P<task>.+)_(?P<date>\d{4}-\d{2}-\d{2}T[0-9.\-]+)\.jsonl(?:\.gz)?$")
_NOT_METRICS = frozenset(
    {"doc_id", "doc", "target", "arguments", "resps", "filtered_resps", "filter", "metrics"}
    | {"doc_hash", "prompt_hash", "target_hash"}
)


class LmEvalReader(LogReader):
    format = "lm_eval"
    description = "lm-evaluation-harness samples_<task>_<date>.jsonl (--log_samples)"
    position_unit = "line"

    @classmethod
    def sniff(cls, path: Path, head: bytes) -> str | None:
        obj = peek_json_line(head)
        if obj is None:
            return "the first line is not a JSON object"
        missing = [k for k in ("doc_id", "resps", "target") if k not in obj]
        if missing:
            return f"the first record has no {', '.join(repr(k) for k in missing)} (keys: {_keys(obj)})"
        return None

    def __init__(self, path, options=None) -> None:
        super().__init__(path, options)
        o = self.options
        first = peek_json_line(read_head(self.path)) or {}
        require_fields(
            self.path,
            first,
            {"--response-field": o.response_field, "--gold-field": o.gold_field},
        )
        named = [m for m in first.get("metrics", []) if isinstance(m, str)]
        # Metric members follow the hashes; older files have no "metrics" list.
        found = [k for k, v in first.items() if k not in _NOT_METRICS and isinstance(v, (int, float, bool))]
        self.metric_names = list(dict.fromkeys([*named, *found]))
        primary = o.metric or (self.metric_names[0] if self.metric_names else None)
        if o.metric and o.metric not in self.metric_names:
            raise ValueError(
                f"{self.path}: no metric {o.metric!r} in this log "
                f"(it has: {', '.join(self.metric_names) or 'none'})"
            )
        m = _NAME.match(self.path.name)
        self.info.update(
            task=o.task or (m.group("task") if m else self.path.stem),
            model=o.model or self.path.parent.name or None,
            metrics=self.metric_names,
            primary_metric=primary,
            response_field=o.response_field or "resps.0",
            gold_field=o.gold_field or "target",
            extracted_field="filtered_resps.0",
        )
        self.primary = primary

    def _fields(self) -> list[tuple[str, str]]:
        i = self.info
        f: list[tuple[str, str]] = [
            ("doc_id", "text"),
            ("filter", "text"),
            (i["response_field"], "list"),
            (i["gold_field"], "list"),
            (i["extracted_field"], "list"),
        ]
        f += [(m, "number") for m in self.metric_names]
        f += [(p, "text") for p in self.options.id_fields]
        return list(dict.fromkeys(f))

    def batches(self) -> Iterator[LogBatch]:
        i = self.info
        fields = self._fields()
        record = 0
        for ch in parsed_chunks(self.path, self.options.chunk_bytes, fields):
            for line, msg in ch.bad:
                self.bad(line, f"not valid JSON: {bad_line_reason(msg)}")
            ch = screen(
                ch,
                self.bad,
                [(i["response_field"], "response"), (i["gold_field"], "gold")],
                self.metric_names,
            )
            n = len(ch)
            if n == 0:
                continue
            metrics = {m: ch.fields[m].array for m in self.metric_names}
            cols = Columns(
                n=n,
                task=i["task"],
                model=i["model"],
                ids=exact_numbers(ch, "doc_id")[0],  # a big integer id exactly, not as a double
                record=np.arange(record, record + n, dtype=np.int64),
                position=ch.lines,
                responses=ch.fields[i["response_field"]].array,
                # A list-valued target (acceptable answers of a custom task) gives alternatives.
                golds=ch.fields[i["gold_field"]].array,
                filter=ch.fields["filter"].array,
                fw_score=metrics.get(self.primary) if self.primary else None,
                fw_extracted=ch.fields[i["extracted_field"]].array,
                metrics=metrics,
                passthrough={p: exact_numbers(ch, p)[0] for p in self.options.id_fields},
            )
            record += n
            yield LogBatch(build_batch(cols, self.options.samples), ch)

    def copy_writer(self, target: Path) -> CopyWriter | None:
        return JsonlCopyWriter(target)


def _keys(obj: dict) -> str:
    keys = list(obj)
    return ", ".join(keys[:8]) + (", ..." if len(keys) > 8 else "")
