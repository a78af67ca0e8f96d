"""Qwen2.5-Math / math-evaluation-harness outputs: ``<data_name>/test_<prompt>_..._e-1.jsonl``.

Layout (QwenLM/Qwen2.5-Math ``evaluation/math_eval.py`` + ``evaluate.py``, the same in
ZubinGou/math-evaluation-harness): one JSON object per problem with ``idx``, ``question``,
``gt_cot``, ``gt`` (the parsed ground truth), dataset fields (``level``, ``type``, ``answer``, ...),
``code`` (one generated response per sample), ``pred`` (the answer Qwen's parser extracted from each),
``report`` and ``score`` (Qwen's ``math_equal`` verdict per sample). The metrics file beside it
(``*_metrics.json``: ``acc``, ``num_samples``, ...) is not needed.

Qwen scores every sample, so ``fw_score`` is per sample. The folder names the dataset; the one
above it the model (``outputs/<model>/math_eval/<data_name>/`` in Qwen's scripts).
"""

from __future__ import annotations

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
        if o.metric not in (None, "score"):
            raise ValueError(f"{self.path}: no metric {o.metric!r} in this log (it has: score)")
        require_fields(
            self.path,
            peek_json_line(read_head(self.path)) or {},
            {"--response-field": o.response_field, "--gold-field": o.gold_field},
        )
        parent = self.path.parent
        model = parent.parent.parent.name if parent.parent.name == "math_eval" else parent.parent.name
        self.info.update(
            task=o.task or parent.name or self.path.stem,
            model=o.model or model or None,
            metrics=["score"],
            primary_metric="score",
            response_field=o.response_field or "code",
            gold_field=o.gold_field or "gt",
        )

    def batches(self) -> Iterator[LogBatch]:
        i = self.info
        fields = [
            ("idx", "text"),
            (i["response_field"], "list"),
            (i["gold_field"], "list"),
            ("pred", "list"),
            ("score", "list"),
            *[(p, "text") for p in self.options.id_fields],
        ]
        fields = list(dict.fromkeys(fields))
        record = 0
        for ch in parsed_chunks(self.path, self.options.chunk_bytes, fields):
            for line, msg in ch.bad:
                self.bad(line, f"not valid JSON: {bad_line_reason(msg)}")
            ch = screen(ch, self.bad, [(i["response_field"], "response"), (i["gold_field"], "gold")])
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
                golds=ch.fields[i["gold_field"]].array,
                fw_score=score,
                fw_extracted=ch.fields["pred"].array,
                metrics={"score": score},
                passthrough={p: exact_numbers(ch, p)[0] for p in self.options.id_fields},
            )
            record += n
            yield LogBatch(build_batch(cols, self.options.samples), ch)

    def copy_writer(self, target: Path) -> CopyWriter | None:
        return JsonlCopyWriter(target)
