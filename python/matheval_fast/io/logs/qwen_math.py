"""Qwen2.5-Math / math-evaluation-harness outputs: ``<data_name>/test_<prompt>_..._e-1.jsonl``.

Layout (QwenLM/Qwen2.5-Math ``evaluation/math_eval.py`` + ``evaluate.py``, the same in
ZubinGou/math-evaluation-harness): one JSON object per problem with ``idx``, ``question``,
``gt_cot``, ``gt`` (the parsed ground truth), dataset fields (``level``, ``type``, ``answer``, ...),
``code`` (one generated response per sample), ``pred`` (the answer Qwen's parser extracted from each),
``report`` and ``score`` (Qwen's ``math_equal`` verdict per sample). The metrics file beside it
(``<name>_<prompt_type>_metrics.json``) holds what Qwen reports: ``acc``, the mean of the FIRST
sample's scores (``evaluate.py``: column 0 of the score matrix, rounded to 0.1), and ``type_acc``,
per MATH type the mean of each problem's LAST sample (``score[-1]``). Both are metrics of this
reader (``acc`` per sample, ``type_acc`` when records have a ``type``), compared with our first
and last sample; their reported values are in ``info["reported_metrics"]``.

The gold: ``gt`` is Qwen's normalisation of the dataset's answer (``strip_string``:
``\\text{4:30 p.m.}`` becomes ``4:30p..``), so where the record also carries the dataset's
``answer`` (``math_eval.py`` copies it), that is the gold; else ``gt``. The ``code`` is already
cut at Qwen's stop words (``\n\nQuestion:`` for the ``cot`` prompt) before Qwen scored it.

The folder names the dataset; the one above it the model (``outputs/<model>/math_eval/<data_name>/``
in Qwen's scripts).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

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
    numbers_from_text,
    parsed_chunks,
    peek_json_line,
    screen,
)

__all__ = ["QwenMathReader"]


class QwenMathReader(LogReader):
    format = "qwen_math"
    description = "Qwen2.5-Math / math-evaluation-harness output .jsonl (idx, gt, code, pred, score)"
    position_unit = "line"

    @classmethod
    def sniff(cls, path: Path, head: bytes) -> str | None:
        obj = peek_json_line(head)
        if obj is None:
            return "the first line is not a JSON object"
        missing = [k for k in ("idx", "gt", "code") if k not in obj]
        if missing:
            return f"the first record has no {', '.join(repr(k) for k in missing)}"
        return None

    def __init__(self, path, options=None) -> None:
        super().__init__(path, options)
        o = self.options
        first = peek_json_line(read_head(self.path)) or {}
        metrics = ["acc", "type_acc"] if "type" in first else ["acc"]
        if o.metric not in (None, *metrics):
            raise ValueError(
                f"{self.path}: no metric {o.metric!r} in this log (it has: {', '.join(metrics)})"
            )
        require_fields(self.path, first, {"--response-field": o.response_field, "--gold-field": o.gold_field})
        parent = self.path.parent
        model = parent.parent.parent.name if parent.parent.name == "math_eval" else parent.parent.name
        self.info.update(
            task=o.task or parent.name or self.path.stem,
            model=o.model or model or None,
            metrics=metrics,
            primary_metric=o.metric or "acc",
            response_field=o.response_field or "code",
            gold_field=o.gold_field or ("answer" if "answer" in first else "gt"),
            reported_metrics=_reported(self.path),
        )

    def batches(self) -> Iterator[LogBatch]:
        i = self.info
        fields = [
            ("idx", "text"),
            (i["response_field"], "list"),
            (i["gold_field"], "list"),
            ("gt", "list"),
            ("pred", "list"),
            ("score", "list"),
            *[(p, "text") for p in self.options.id_fields],
        ]
        fields = list(dict.fromkeys(fields))
        record = 0
        for ch in parsed_chunks(self.path, self.options.chunk_bytes, fields):
            for line, msg in ch.bad:
                self.bad(line, f"not valid JSON: {bad_line_reason(msg)}")
            # A structured or absent response is refused (the gold may fall back to `gt`, below).
            ch = screen(ch, self.bad, [(i["response_field"], "response")])
            resp, gold = ch.fields[i["response_field"]], ch.fields[i["gold_field"]]
            golds = gold.array
            if i["gold_field"] == "answer" and not self.options.gold_field:
                # The dataset's answer where the record has it, else Qwen's normalised `gt`.
                gt = ch.fields["gt"]
                golds = pc.if_else(pa.array(gold.missing()), gt.array.cast(golds.type), golds)
                keep = ~(resp.missing() | (gold.missing() & gt.missing()))
            else:
                keep = ~(resp.missing() | gold.missing())
            for k in np.flatnonzero(~keep):
                what = i["response_field"] if resp.missing()[k] else i["gold_field"]
                self.bad(int(ch.lines[k]), f"no field {what!r}")
            if not keep.all():
                ch = ch.select(keep)
                golds = golds.filter(pa.array(keep))
            n = len(ch)
            if n == 0:
                continue
            score = numbers_from_text(ch.fields["score"].array)
            cols = Columns(
                n=n,
                task=i["task"],
                model=i["model"],
                ids=exact_numbers(ch, "idx")[0],  # a big integer id exactly, not as a double
                record=np.arange(record, record + n, dtype=np.int64),
                position=ch.lines,
                responses=ch.fields[i["response_field"]].array,
                golds=golds,
                fw_score=score,
                fw_extracted=ch.fields["pred"].array,
                metrics={m: score for m in i["metrics"]},
                passthrough={p: exact_numbers(ch, p)[0] for p in self.options.id_fields},
            )
            record += n
            yield LogBatch(build_batch(cols, self.options.samples), ch)

    def copy_writer(self, target: Path) -> CopyWriter | None:
        return JsonlCopyWriter(target)


def _reported(path: Path) -> dict[str, object]:
    """What Qwen's ``*_metrics.json`` beside the log reports (``acc``, ``type_acc``), if it is there."""
    for f in sorted(path.parent.glob(path.stem + "_*metrics.json")):
        try:
            data = json.loads(f.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            continue
        if isinstance(data, dict):
            return {k: data[k] for k in ("acc", "type_acc") if k in data}
    return {}
