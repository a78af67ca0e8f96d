"""Readers of evaluation-framework logs, one module per framework, one interface.

>>> from matheval_fast.io.logs import open_log
>>> reader = open_log("samples_gsm8k_2024-06-01T10-00-00.jsonl")      # doctest: +SKIP
>>> for b in reader.batches():                                          # doctest: +SKIP
...     b.batch  # pyarrow.RecordBatch: task, filter, model, id, ..., response, gold, fw_score, ...

Every reader yields :class:`~matheval_fast.io.logs.base.LogBatch` objects whose ``batch`` has the
normalised schema :data:`~matheval_fast.io.logs.base.SCHEMA` (then ``metric:<name>`` columns and
the pass-through id columns), so the Arrow kernel (:func:`matheval_fast.arrow.score_batch` with
``response="response", gold="gold"``) scores any of them. The format is detected from the
content; :func:`detect_format` says which formats it tried and why each did not fit.
"""

from __future__ import annotations

import os
from pathlib import Path

from matheval_fast.io.logs.base import (
    SCHEMA,
    LogBatch,
    LogFormatError,
    LogReader,
    MalformedRecord,
    MalformedRecordError,
    ReadOptions,
    read_head,
)
from matheval_fast.io.logs.evalscope import EvalScopeReader
from matheval_fast.io.logs.lighteval import LightevalReader
from matheval_fast.io.logs.lm_eval import LmEvalReader
from matheval_fast.io.logs.opencompass import OpenCompassReader
from matheval_fast.io.logs.qwen_math import QwenMathReader
from matheval_fast.io.logs.seed import SeedReader

__all__ = [
    "FORMATS",
    "SCHEMA",
    "LogBatch",
    "LogFormatError",
    "LogReader",
    "MalformedRecord",
    "MalformedRecordError",
    "ReadOptions",
    "detect_format",
    "expand_paths",
    "open_log",
]

#: ``--format`` name -> reader class, in detection order.
FORMATS: dict[str, type[LogReader]] = {
    r.format: r
    for r in (
        LmEvalReader,
        LightevalReader,
        OpenCompassReader,
        QwenMathReader,
        EvalScopeReader,
        SeedReader,
    )
}


def check_readable(path: str | os.PathLike[str]) -> Path:
    """The path if it is a readable file; else ``FileNotFoundError`` / ``IsADirectoryError`` /
    ``PermissionError`` naming it (raised before any work starts)."""
    p = Path(path)
    if not p.exists():
        raise FileNotFoundError(f"{p}: no such file")
    if p.is_dir():
        raise IsADirectoryError(f"{p}: is a directory, not a log file")
    with open(p, "rb") as fh:  # PermissionError names the file itself
        fh.read(1)
    return p


def detect_format(path: str | os.PathLike[str]) -> str:
    """The format of a log file, from its content. Raises :class:`LogFormatError` listing every
    format tried and why it did not fit."""
    p = check_readable(path)
    try:
        head = read_head(p)
    except (OSError, EOFError) as exc:  # a truncated or corrupt gzip stream
        raise LogFormatError(f"{p}: cannot read: {exc}") from exc
    reasons = []
    for name, reader in FORMATS.items():
        why = reader.sniff(p, head)
        if why is None:
            return name
        reasons.append(f"  {name}: {why}")
    raise LogFormatError(f"{p}: not a log format we know; tried:\n" + "\n".join(reasons))


def open_log(
    path: str | os.PathLike[str], format: str | None = None, options: ReadOptions | None = None
) -> LogReader:
    """A reader for one log file; ``format`` forces the format (else detected)."""
    p = check_readable(path)
    if format is None:
        format = detect_format(p)
    elif format not in FORMATS:
        raise ValueError(f"unknown log format {format!r}; known: {', '.join(FORMATS)}")
    else:
        why = FORMATS[format].sniff(p, read_head(p))
        if why is not None:
            raise LogFormatError(f"{p}: not a {format} log: {why}")
    return FORMATS[format](p, options)


#: File names a directory is searched for (the frameworks' own naming).
DIR_PATTERNS = (
    "samples_*.jsonl",  # lm-eval
    "samples_*.jsonl.gz",
    "details_*.parquet",  # lighteval
    "results/*/*.json",  # OpenCompass (lm-eval's and lighteval's results_*.json are aggregates)
    "test_*.jsonl",  # Qwen2.5-Math / math-evaluation-harness
    "reviews/*/*.jsonl",  # EvalScope
)


def expand_paths(paths: list[str | os.PathLike[str]]) -> list[Path]:
    """Files as given; directories searched (recursively) for the frameworks' per-sample logs
    by name (:data:`DIR_PATTERNS`), keeping those whose content fits a format. A directory with
    no log in it is an error, like a missing file."""
    out: list[Path] = []
    for p in map(Path, paths):
        if not p.is_dir():
            out.append(p)
            continue
        found = sorted(
            {
                f
                for pat in DIR_PATTERNS
                for f in p.rglob(pat)
                if f.is_file() and not f.name.startswith(("results_", "."))
            }
        )
        logs = [f for f in found if _fits(f)]
        if not logs:
            raise FileNotFoundError(
                f"{p}: no evaluation log found in this directory ({', '.join(DIR_PATTERNS)})"
            )
        out.extend(logs)
    return out


def _fits(path: Path) -> bool:
    try:
        detect_format(path)
    except (LogFormatError, OSError):
        return False
    return True
