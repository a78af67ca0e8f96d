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
import warnings
from collections.abc import Sequence
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
from matheval_fast.io.text import InputError, same_file_key

__all__ = [
    "FORMATS",
    "SCHEMA",
    "LogBatch",
    "LogFormatError",
    "LogReader",
    "MalformedRecord",
    "MalformedRecordError",
    "ReadOptions",
    "SkippedLogWarning",
    "UnreadableLogError",
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


class UnreadableLogError(LogFormatError):
    """A log file that cannot be read at all (permissions, truncated gzip, binary, not UTF-8)."""


def detect_format(path: str | os.PathLike[str]) -> str:
    """The format of a log file, from its content. Raises :class:`LogFormatError` listing every
    format tried and why it did not fit (:class:`UnreadableLogError` when the file cannot be read,
    or is empty)."""
    p = check_readable(path)
    try:
        head = read_head(p)
    except (OSError, InputError) as exc:  # a truncated or corrupt gzip stream, binary data
        msg = str(exc) if str(p) in str(exc) else f"{p}: cannot read: {exc}"
        raise UnreadableLogError(msg) from None
    if not head.strip():
        raise UnreadableLogError(f"{p}: the file is empty (no records)")
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
        try:
            head = read_head(p)
        except (OSError, InputError) as exc:
            raise UnreadableLogError(str(exc) if str(p) in str(exc) else f"{p}: cannot read: {exc}") from None
        if not head.strip():
            raise UnreadableLogError(f"{p}: the file is empty (no records)")
        why = FORMATS[format].sniff(p, head)
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


class SkippedLogWarning(UserWarning):
    """A file found in a folder (or given twice) that is not read: the message says why."""


#: The sub-folders of a ``rescore`` output folder: per-item outputs and rescored copies, named like
#: the logs they come from.
_OUTPUT_SUBDIRS = ("items", "rescored")


def _in_output_dir(f: Path, top: Path, exclude: set[Path]) -> Path | None:
    """The ``items/`` or ``rescored/`` folder of a ``rescore`` output (a folder with a
    ``summary.json``, or one of ``exclude``: the run's own ``--out``) that ``f`` lies in, if any:
    their files look like logs but are ours, not new logs. Looked for below ``top`` only."""
    for d in f.parents:
        if d == top:
            return None
        if d.name in _OUTPUT_SUBDIRS and (
            d.parent.resolve() in exclude or (d.parent / "summary.json").is_file()
        ):
            return d
    return None


def expand_paths(
    paths: Sequence[str | os.PathLike[str]], *, exclude: Sequence[str | os.PathLike[str]] = ()
) -> list[Path]:
    """Files as given; directories searched (recursively) for the frameworks' per-sample logs
    by name (:data:`DIR_PATTERNS`), keeping those whose content fits a format. A directory with
    no log in it is an error, like a missing file.

    Nothing is read twice or skipped unmentioned: the same file named twice (a file and its folder,
    a link, another path to the same inode) is read once, with a :class:`SkippedLogWarning`; a file
    found in a folder that is not a log format is skipped with that warning; one that cannot be read
    (permissions, truncated gzip, binary data) is an error. The ``items/`` and ``rescored/`` folders
    of ``rescore`` outputs (beside a ``summary.json``, or in ``exclude``: the run's own ``--out``) are
    not searched: their files are named like logs but are not new logs.
    """
    excluded = {Path(e).resolve() for e in exclude}
    out: list[Path] = []
    seen: dict[tuple[int, int] | str, Path] = {}

    def add(f: Path) -> None:
        key = same_file_key(f)
        if key in seen:
            twice = f"{f} given twice" if f == seen[key] else f"{f} is the same file as {seen[key]}"
            warnings.warn(SkippedLogWarning(f"{twice}: read once"), stacklevel=3)
            return
        seen[key] = f
        out.append(f)

    for p in map(Path, paths):
        if not p.is_dir():
            add(p)
            continue
        found = sorted(
            {
                f
                for pat in DIR_PATTERNS
                for f in p.rglob(pat)
                if f.is_file() and not f.name.startswith(("results_", "."))
            }
        )
        logs = []
        skipped_dirs: set[Path] = set()
        for f in found:
            d = _in_output_dir(f, p, excluded)
            if d is not None:
                skipped_dirs.add(d)
                continue
            try:
                detect_format(f)
            except UnreadableLogError as exc:
                if "the file is empty" in str(exc):
                    warnings.warn(SkippedLogWarning(f"skipped {exc}"), stacklevel=2)
                    continue
                raise
            except LogFormatError as exc:
                reason = str(exc).split("\n")[0].removeprefix(f"{f}: ")
                warnings.warn(SkippedLogWarning(f"skipped {f}: {reason}"), stacklevel=2)
                continue
            logs.append(f)
        for d in sorted(skipped_dirs):
            warnings.warn(
                SkippedLogWarning(f"skipped {d}: matheval-fast rescore outputs, not new logs"),
                stacklevel=2,
            )
        if not logs:
            raise FileNotFoundError(
                f"{p}: no evaluation log found in this directory ({', '.join(DIR_PATTERNS)})"
            )
        for f in logs:
            add(f)
    return out
