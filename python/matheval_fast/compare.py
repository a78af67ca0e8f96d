"""Several graders on the same items, side by side (``matheval-fast compare``).

Graders: ours in fixed mode, ours in xwin mode (the seed's verdicts), every metric the log holds
(named ``<format>:<metric>`` plus ``[filter]`` for lm-eval's filters: a filter is the framework's own
extraction, so each is its own grader), and math-verify when it is installed (optional peer, see
:mod:`matheval_fast.peers`). An item is one (model, task, id, sample); a log metric is read as a
verdict (≥ 0.5 is correct). Outputs in ``out_dir``:

- ``compare.md`` / ``compare.json``: accuracy per model × task and grader; the pairwise disagreement
  matrix (share of the items both graders scored on which they differ, with counts) overall and per
  model × task;
- ``disagreement.png``: the overall matrix as a heat map;
- ``items.parquet``: one row per item with every grader's verdict (null where a grader has none).

Memory: one small row per item is kept until the end (the tables need every grader's verdict on the
same item); :func:`matheval_fast.rescore.rescore` is the streaming path for very large logs.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from matheval_fast._report.files import json_text, output_set
from matheval_fast._report.png import write_heatmap
from matheval_fast._report.progress import progress_bar
from matheval_fast._report.tables import markdown_table
from matheval_fast._sympy.pool import check_timeout
from matheval_fast.answer import DEFAULT_SYMPY_TIMEOUT, load_config
from matheval_fast.io.logs import LogReader, ReadOptions, expand_paths, open_log
from matheval_fast.io.logs.base import METRIC_PREFIX
from matheval_fast.peers import MathVerifyPeer, math_verify_available
from matheval_fast.rescore import score_log_batch

__all__ = ["CompareReport", "compare"]

OURS = ("matheval_fast:fixed", "matheval_fast:xwin")
#: the files a run writes into ``out_dir``, published together
OUTPUTS = ("items.parquet", "compare.json", "compare.md", "disagreement.png")


@dataclass
class CompareReport:
    graders: list[str]
    groups: list[dict[str, Any]]
    matrix: dict[str, dict[str, dict[str, Any]]]
    items: int
    notes: list[str]
    #: Records read from the logs (``records + malformed`` is every record of the files) and the
    #: malformed ones, which no grader scored (first few as ``file:line N: message``).
    records: int = 0
    malformed: int = 0
    malformed_examples: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        from matheval_fast import __version__

        return {
            "matheval_fast": __version__,
            "graders": self.graders,
            "items": self.items,
            "records": self.records,
            "malformed": self.malformed,
            "malformed_examples": self.malformed_examples,
            "groups": self.groups,
            "disagreement": self.matrix,
            "notes": self.notes,
        }


class _Table:
    """Every grader's verdict per item, items keyed by (model, task, id, sample)."""

    def __init__(self) -> None:
        self.index: dict[tuple, int] = {}
        self.keys: list[tuple] = []
        self.gold: list[str | None] = []
        self.response: list[str | None] = []
        self.verdicts: dict[str, dict[int, bool]] = {}

    def rows(self, keys: list[tuple], golds: list, responses: list) -> tuple[np.ndarray, np.ndarray]:
        """Row numbers of the keys (new rows appended); and which were new."""
        out = np.empty(len(keys), dtype=np.int64)
        new = np.zeros(len(keys), dtype=bool)
        for i, k in enumerate(keys):
            r = self.index.get(k)
            if r is None:
                r = self.index[k] = len(self.keys)
                self.keys.append(k)
                self.gold.append(golds[i])
                self.response.append(responses[i])
                new[i] = True
            out[i] = r
        return out, new

    def set(self, grader: str, rows: np.ndarray, values: Sequence[bool | None]) -> None:
        d = self.verdicts.setdefault(grader, {})
        for r, v in zip(rows.tolist(), values, strict=True):
            if v is not None:
                d[r] = bool(v)


def compare(
    paths: Sequence[str | os.PathLike[str]] | str | os.PathLike[str],
    out_dir: str | os.PathLike[str],
    *,
    math_verify: Literal["auto", "on", "off"] = "auto",
    peer_timeout: float = 30.0,
    format: str | None = None,
    read: ReadOptions | None = None,
    config: str | os.PathLike[str] | None = None,
    threads: int | None = None,
    timeout: float = DEFAULT_SYMPY_TIMEOUT,
    progress: bool = False,
) -> CompareReport:
    """Grade the logs' items with every grader and write the side-by-side tables (module doc)."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    if math_verify not in ("auto", "on", "off"):
        raise ValueError(f"math_verify must be 'auto', 'on' or 'off', got {math_verify!r}")
    check_timeout(peer_timeout, "peer_timeout")  # "items past the -5 s deadline" made no sense
    if math_verify == "on" and not math_verify_available():
        raise ValueError("math-verify is not installed (pip install 'math-verify[antlr4_11_0]')")
    read = read or ReadOptions()
    readers = [open_log(p, format, read) for p in expand_paths(list(paths), exclude=[out_dir])]
    user_config = load_config(config) if config is not None else None
    seed_config = load_config(None)
    out = Path(out_dir)
    inputs = [r.path for r in readers] + ([Path(config)] if config is not None else [])
    # The outputs' temporary files first (an --out that cannot be written fails before the work),
    # renamed together at the end: an interrupted run leaves the previous run's four files as they were.
    with output_set([out / name for name in OUTPUTS], inputs=inputs) as files:
        table, graders, notes, counts, malformed_examples = _grade(
            readers,
            math_verify=math_verify,
            peer_timeout=peer_timeout,
            user_config=user_config,
            seed_config=seed_config,
            threads=threads,
            timeout=timeout,
            progress=progress,
        )
        return _write(table, graders, notes, files.path, counts, malformed_examples)


def _grade(
    readers: list[LogReader],
    *,
    math_verify: str,
    peer_timeout: float,
    user_config: Any,
    seed_config: Any,
    threads: int | None,
    timeout: float,
    progress: bool,
) -> tuple[_Table, list[str], list[str], dict[str, int], list[str]]:
    """Every grader's verdict on every item of the logs: the table, the graders, the notes, the
    record counts and the first malformed records."""
    use_mv = math_verify == "on" or (math_verify == "auto" and math_verify_available())
    notes: list[str] = []
    table = _Table()
    peer = MathVerifyPeer(timeout=peer_timeout) if use_mv else None
    graders: list[str] = list(OURS)
    counts = {"records": 0, "malformed": 0}
    malformed_examples: list[str] = []
    try:
        for reader in readers:
            policies = (
                user_config if user_config is not None else (seed_config if reader.format == "seed" else None)
            )
            if reader.info.get("response_source") == "extracted":
                notes.append(
                    f"{reader.path}: no raw responses (OpenCompass predictions file not found); "
                    "graded its extracted answers"
                )
            bar = progress_bar(None, enabled=progress, desc=reader.path.name, unit="item")
            for lb in reader.batches():
                b = lb.batch
                # Gold alternatives: compare on the first (the common case has one).
                if b.num_rows and pc.max(b.column(b.schema.get_field_index("gold_alt"))).as_py():
                    b = b.filter(pc.equal(b.column(b.schema.get_field_index("gold_alt")), 0))
                col = b.schema.get_field_index
                model = reader.info.get("model")
                ids = b.column(col("id")).to_pylist()
                tasks = b.column(col("task")).to_pylist()
                samples = b.column(col("sample")).to_pylist()
                golds = b.column(col("gold")).to_pylist()
                responses = b.column(col("response")).to_pylist()
                keys = [(model, t, i, s) for t, i, s in zip(tasks, ids, samples, strict=True)]
                rows, new = table.rows(keys, golds, responses)
                filters = b.column(col("filter")).to_pylist()
                for name in b.schema.names:
                    if not name.startswith(METRIC_PREFIX):
                        continue
                    vals = b.column(col(name)).to_pylist()
                    metric = name[len(METRIC_PREFIX) :]
                    for f in dict.fromkeys(filters):
                        g = f"{reader.format}:{metric}" + (f"[{f}]" if f and reader.format != "seed" else "")
                        if g not in graders:
                            graders.append(g)
                        sel = [i for i, x in enumerate(filters) if x == f]
                        table.set(g, rows[sel], [None if vals[i] is None else vals[i] >= 0.5 for i in sel])
                if new.any():
                    fresh = b.filter(pa.array(new))
                    for compat, g in zip(("fixed", "xwin"), OURS, strict=True):
                        scored = score_log_batch(
                            fresh, compat=compat, policies=policies, threads=threads, timeout=timeout
                        )
                        table.set(
                            g, rows[new], scored.column(scored.schema.get_field_index("correct")).to_pylist()
                        )
                    if peer is not None:
                        fg = [golds[i] for i in np.flatnonzero(new)]
                        fr = [responses[i] for i in np.flatnonzero(new)]
                        table.set("math-verify", rows[new], peer.verdicts(zip(fg, fr, strict=True)))
                bar.update(b.num_rows)
                # Batches never split a record: its distinct record numbers count the records read.
                counts["records"] += len(pc.unique(b.column(col("record"))))
            bar.close()
            counts["malformed"] += reader.malformed_count
            malformed_examples += [str(m) for m in reader.malformed[: 5 - len(malformed_examples)]]
            if reader.malformed_count:
                notes.append(
                    f"{reader.path}: {reader.malformed_count} malformed record(s) not graded "
                    f"(e.g. {reader.malformed[0]})"
                )
        if peer is not None:
            graders.append("math-verify")
            notes.append(
                f"math-verify {peer.version}: verify(parse(gold), parse(response)) with its defaults; "
                f"{peer.timeouts} items past the {peer_timeout:g} s deadline, "
                f"{peer.errors} raised (no verdict)"
            )
        elif math_verify == "auto":
            notes.append(
                "math-verify is not installed: not compared (pip install 'math-verify[antlr4_11_0]')"
            )
    finally:
        if peer is not None:
            peer.close()
    return table, graders, notes, counts, malformed_examples


def _verdict_array(table: _Table, g: str, n: int) -> np.ndarray:
    """float array: 1 correct, 0 incorrect, NaN no verdict."""
    a = np.full(n, np.nan)
    d = table.verdicts.get(g, {})
    if d:
        idx = np.fromiter(d.keys(), dtype=np.int64, count=len(d))
        a[idx] = np.fromiter(d.values(), dtype=np.float64, count=len(d))
    return a


def _matrix(v: dict[str, np.ndarray], graders: list[str], mask: np.ndarray) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for a in graders:
        out[a] = {}
        for b in graders:
            both = mask & ~np.isnan(v[a]) & ~np.isnan(v[b])
            n = int(both.sum())
            k = int((v[a][both] != v[b][both]).sum())
            out[a][b] = {"disagree": k, "both": n, "rate": k / n if n else math.nan}
    return out


def _write(
    table: _Table,
    graders: list[str],
    notes: list[str],
    tmp: Callable[[str], Path],
    counts: dict[str, int] | None = None,
    malformed_examples: list[str] | None = None,
) -> CompareReport:
    """Write the outputs into their temporary files ``tmp(name)``."""
    n = len(table.keys)
    v = {g: _verdict_array(table, g, n) for g in graders}
    groups_keys = list(dict.fromkeys((k[0], k[1]) for k in table.keys))
    where = {k: i for i, k in enumerate(groups_keys)}
    gcode = np.array([where[(k[0], k[1])] for k in table.keys], dtype=np.int64)
    groups = []
    for gi, (model, task) in enumerate(groups_keys):
        mask = gcode == gi
        acc = {}
        cnt = {}
        for g in graders:
            x = v[g][mask]
            ok = ~np.isnan(x)
            cnt[g] = int(ok.sum())
            acc[g] = float(x[ok].mean()) if ok.any() else math.nan
        groups.append(
            {
                "model": model,
                "task": task,
                "items": int(mask.sum()),
                "accuracy": acc,
                "scored": cnt,
                "disagreement": _matrix(v, graders, mask),
            }
        )
    overall = _matrix(v, graders, np.ones(n, dtype=bool))
    c = counts or {}
    report = CompareReport(
        graders,
        groups,
        overall,
        n,
        notes,
        records=c.get("records", 0),
        malformed=c.get("malformed", 0),
        malformed_examples=list(malformed_examples or []),
    )
    # Items: one row per item, one verdict column per grader.
    cols: dict[str, Any] = {
        "model": pa.array([k[0] for k in table.keys], pa.string()),
        "task": pa.array([k[1] for k in table.keys], pa.string()),
        "id": pa.array([k[2] for k in table.keys], pa.string()),
        "sample": pa.array([k[3] for k in table.keys], pa.int32()),
        "gold": pa.array(table.gold, pa.large_string()),
    }
    for g in graders:
        cols[g] = pa.array(np.where(np.isnan(v[g]), False, v[g] == 1.0), pa.bool_(), mask=np.isnan(v[g]))
    import pyarrow.parquet as pq

    pq.write_table(pa.table(cols), tmp("items.parquet"))
    tmp("compare.json").write_text(json_text(report.to_dict()), encoding="utf-8")
    tmp("compare.md").write_text(_markdown(report) + "\n", encoding="utf-8")
    rates = np.array([[overall[a][b]["rate"] for b in graders] for a in graders], dtype=np.float64)
    write_heatmap(tmp("disagreement.png"), rates, graders, title="share of items where two graders disagree")
    return report


def _pct(x: float) -> str:
    return "" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.2f}"


def _esc(s: Any) -> str:
    return str(s).replace("|", "\\|")


def _matrix_md(m: dict[str, dict[str, Any]], graders: list[str]) -> str:
    rows = []
    for a in graders:
        row = [_esc(a)]
        for b in graders:
            c = m[a][b]
            row.append(
                "" if a == b else (f"{_pct(c['rate'])} % ({c['disagree']}/{c['both']})" if c["both"] else "—")
            )
        rows.append(row)
    return markdown_table(["", *map(_esc, graders)], rows, align="l" + "r" * len(graders))


def _markdown(r: CompareReport) -> str:
    head = ["model", "task", "items", *map(_esc, r.graders)]
    rows = [
        [
            _esc(g["model"] or ""),
            _esc(g["task"] or ""),
            g["items"],
            *[_pct(g["accuracy"][x]) for x in r.graders],
        ]
        for g in r.groups
    ]
    out = [
        "# Graders side by side (accuracy, %)",
        "",
        markdown_table(head, rows, align="llr" + "r" * len(r.graders)),
        "",
        "## Pairwise disagreement, all items (share of the items both graders scored)",
        "",
        _matrix_md(r.matrix, r.graders),
        "",
    ]
    if len(r.groups) > 1:
        for g in r.groups:
            out += [
                f"### {_esc(g['model'])} / {_esc(g['task'])}",
                "",
                _matrix_md(g["disagreement"], r.graders),
                "",
            ]
    if r.notes:
        out += ["## Notes", "", *[f"- {n}" for n in r.notes], ""]
    return "\n".join(out)
