"""Rescoring existing evaluation logs: our verdict next to the framework's, item by item.

:func:`rescore` reads logs (lm-eval, lighteval, OpenCompass, Qwen2.5-Math, the seed; see
:mod:`matheval_fast.io.logs`), scores every batch with the Arrow kernel
(:func:`matheval_fast.arrow.check_by_type`), and writes into ``out_dir``:

- ``summary.json`` / ``summary.md``: per file, task and filter, the framework's score next to ours,
  how many items disagree, grouped by our reason and by kind (``extraction``: the two graders
  took different answers from the response; ``equivalence``: same answer, different verdict;
  ``gold``: we could not read the gold; ``unknown``: the log does not say what the framework
  extracted), with a few examples of each; malformed records with file and line/row;
- ``items/<log>.parquet`` (or ``.jsonl``): one row per scored sample with the log's ids and ours;
- ``rescored/<log>``, only with ``copy=True`` (``--copy``; it is the whole log again): the log in
  its own format with our verdict added to every record (``matheval_fast``,
  ``matheval_fast_reason``, ``matheval_fast_extracted``);
- ``rejected.jsonl``: every malformed record (file, position, message).

Every file is written under a temporary name and all are renamed together when the run completes
(:func:`matheval_fast._report.files.output_set`): an interrupted run leaves no output that looks
finished, and the previous run's outputs as they were. Files that are missing, unreadable or of an
unknown format, an output that would replace an input, and an ``out_dir`` that cannot be written
stop the run before any work starts.

Per-record views when every sample is read (``samples="all"``): ``agg="mean"`` (pass@1 estimate:
the fraction of correct samples), ``"any"`` (pass@k) or ``"majority"`` (the most frequent of our
extracted answers decides). The framework's per-record score is the mean of its per-sample scores
where it keeps them (Qwen), else its record score.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import math
import os
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from matheval_fast import _core
from matheval_fast._core import EvalConfig
from matheval_fast._pipeline import BackgroundWriter
from matheval_fast._report.files import atomic_path, json_text, output_set
from matheval_fast._report.progress import progress_bar
from matheval_fast._rescore_summary import GroupStats, MetricStats, summary_markdown
from matheval_fast._vocabulary import Compat
from matheval_fast.answer import load_config
from matheval_fast.arrow import check_by_type
from matheval_fast.io.logs import LogReader, ReadOptions, expand_paths, open_log
from matheval_fast.io.logs.base import METRIC_PREFIX
from matheval_fast.io.logs.families import gold_source
from matheval_fast.samples import (
    Aggregate,
    aggregate_for,
    g_pass_at_k,
    majority_pick,
    mg_pass_at_k,
    pass_at_k,
)

__all__ = ["RescoreOptions", "RescoreReport", "rescore", "score_log_batch"]

Agg = Literal["auto", "mean", "any", "majority"]


@dataclass(frozen=True)
class RescoreOptions:
    """How to rescore. ``compat``: ``fixed`` or ``xwin``. ``samples`` / ``agg``: see the module
    docstring. ``config``: a seed-format config whose per-type policies apply to tasks of that
    name (the seed's own config is used for seed-format logs). ``copy``: also write the rescored copy
    (off by default: it is the whole log again).
    ``items_format``: ``parquet`` or ``jsonl``; ``keep_response`` adds the response text to it.
    ``examples``: how many examples per reason and per kind the summary keeps. ``engine``:
    ``local`` (this process) or ``ray`` (one Ray task per log; ``address`` names the cluster,
    ``"auto"`` a running one; without it a local instance starts)."""

    compat: Compat = "fixed"
    format: str | None = None
    samples: Literal["first", "all"] = "first"
    agg: Agg = "auto"
    metric: str | None = None
    response_field: str | None = None
    gold_field: str | None = None
    id_fields: tuple[str, ...] = ()
    task: str | None = None
    model: str | None = None
    strict: bool = False
    config: str | os.PathLike[str] | None = None
    copy: bool = False
    items_format: Literal["parquet", "jsonl"] = "parquet"
    keep_response: bool = False
    threads: int | None = None
    timeout: float = 5.0
    examples: int = 3
    progress: bool = False
    chunk_bytes: int = 32 << 20
    batch_rows: int = 65_536
    engine: Literal["local", "ray"] = "local"
    address: str | None = None

    def read_options(self) -> ReadOptions:
        return ReadOptions(
            samples=self.samples,
            response_field=self.response_field,
            gold_field=self.gold_field,
            id_fields=tuple(self.id_fields),
            metric=self.metric,
            task=self.task,
            model=self.model,
            strict=self.strict,
            chunk_bytes=self.chunk_bytes,
            batch_rows=self.batch_rows,
        )


# ---------------------------------------------------------------------------------------------
# Scoring one batch


def score_log_batch(
    batch: pa.RecordBatch,
    *,
    compat: Compat = "fixed",
    policies: EvalConfig | None = None,
    threads: int | None = None,
    timeout: float | None = None,
) -> pa.RecordBatch:
    """Append ``correct``, ``reason``, ``extracted``, ``path`` to a normalised log batch.

    ``policies``: None (``kind="auto"`` for every row) or an :class:`~matheval_fast.answer.EvalConfig`
    whose per-type policy applies by the row's ``task`` (the seed's types); a task it does not know
    gets ``kind="auto"``, as in ``score`` (:func:`matheval_fast.arrow.check_by_type`).
    """
    tasks = None if policies is None else batch.column(batch.schema.get_field_index("task"))
    verdicts, _ = check_by_type(
        batch.column(batch.schema.get_field_index("response")),
        batch.column(batch.schema.get_field_index("gold")),
        tasks,
        policies=policies if policies is not None else load_config(None),
        auto_config=policies,
        compat=compat,
        threads=threads,
        timeout=timeout,
    )
    extra = verdicts.column_names
    return pa.RecordBatch.from_arrays(
        [*batch.columns, *(verdicts.column(n).combine_chunks() for n in extra)],
        names=[*batch.schema.names, *extra],
    )


def _reduce_alternatives(b: pa.RecordBatch) -> pa.RecordBatch:
    """Rows that differ only in ``gold_alt`` become one: correct if any alternative is."""
    alt = b.column(b.schema.get_field_index("gold_alt")).to_numpy()
    if len(alt) == 0 or not alt.any():
        return b
    starts = np.flatnonzero(alt == 0)
    correct = np.asarray(
        b.column(b.schema.get_field_index("correct")).to_numpy(zero_copy_only=False), dtype=bool
    )
    any_ok = np.logical_or.reduceat(correct, starts)
    ends = np.append(starts[1:], len(alt))
    pick = starts.copy()
    for g in np.flatnonzero(any_ok):
        seg = correct[starts[g] : ends[g]]
        pick[g] = starts[g] + int(np.argmax(seg))
    return b.take(pa.array(pick))


# ---------------------------------------------------------------------------------------------
# Per-record views and disagreements


@dataclass
class RecordView:
    """Per-record values of one batch (records in batch order)."""

    first_row: np.ndarray  # index of each record's first row
    rep_row: np.ndarray  # the row that stands for the record (examples, kind, copy)
    ours: np.ndarray  # our record score, by the primary metric's aggregate
    fw: np.ndarray  # the framework's record score (NaN = none)
    disagree: np.ndarray
    kind: list[str | None]
    values: RecordValues | None = None


class RecordValues:
    """Our per-record score under any :class:`~matheval_fast.samples.Aggregate`, computed when
    first asked (a majority vote compares answers; the other aggregates are sums)."""

    def __init__(self, b: pa.RecordBatch, starts: np.ndarray, ends: np.ndarray) -> None:
        self.b = b
        self.starts, self.ends = starts, ends
        col = b.schema.get_field_index
        self.correct = np.asarray(b.column(col("correct")).to_numpy(zero_copy_only=False), dtype=np.float64)
        self.cache: dict[Aggregate, tuple[np.ndarray, np.ndarray]] = {}

    def _window(self, n: int | None) -> np.ndarray:
        """Each record's end row when only its first ``n`` samples count."""
        return self.ends if n is None else np.minimum(self.ends, self.starts + n)

    def get(self, agg: Aggregate) -> tuple[np.ndarray, np.ndarray]:
        """(score per record, the row that stands for each record)."""
        hit = self.cache.get(agg)
        if hit is not None:
            return hit
        starts, c = self.starts, self.correct
        ends = self._window(agg.n)
        counts = ends - starts
        rep = starts.copy()
        if agg.kind == "first" or ((counts == 1).all() and agg.kind != "pass"):
            ours = c[starts]
        elif agg.kind == "last":
            ours = c[ends - 1]
            rep = ends - 1
        elif agg.kind in ("mean", "pass", "gpass", "mgpass"):
            sums = _window_sums(c, starts, ends)
            if agg.kind == "mean":
                ours = sums / np.maximum(counts, 1)
            elif agg.kind == "gpass":
                ours = np.array(
                    [g_pass_at_k(int(n), int(k), agg.k, agg.t) for n, k in zip(counts, sums, strict=True)],
                    dtype=np.float64,
                )
            elif agg.kind == "mgpass":
                ours = np.array(
                    [mg_pass_at_k(int(n), int(k), agg.k) for n, k in zip(counts, sums, strict=True)],
                    dtype=np.float64,
                )
            else:
                ours = np.array(
                    [pass_at_k(int(n), int(k), agg.k) for n, k in zip(counts, sums, strict=True)],
                    dtype=np.float64,
                )
            for g in np.flatnonzero(sums > 0):
                rep[g] = starts[g] + int(np.argmax(c[starts[g] : ends[g]]))
        else:
            extracted = self.b.column(self.b.schema.get_field_index("extracted")).to_pylist()
            picks = majority_pick([extracted[a:e] for a, e in zip(starts, ends, strict=True)])
            ours = np.zeros(len(starts))
            for g, k in enumerate(picks):
                if k is not None:
                    rep[g] = starts[g] + k
                    ours[g] = c[rep[g]]
        self.cache[agg] = (ours, rep)
        return ours, rep


def _window_sums(values: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    cum = np.concatenate([[0.0], np.cumsum(values)])
    return cum[ends] - cum[starts]


def primary_aggregate(o: RescoreOptions, metric: str | None, filter_name: str | None, n: int) -> Aggregate:
    """The aggregate the summary's main columns compare with the framework's primary metric: the
    one the metric (or lm-eval's filter) names with ``agg="auto"``, else the one asked for."""
    if o.samples == "first":
        return Aggregate("first")
    if o.agg == "auto":
        return aggregate_for(metric or "", filter_name, n)
    return {
        "mean": Aggregate("mean"),
        "any": Aggregate("pass", None, max(n, 1)),
        "majority": Aggregate("majority"),
    }[o.agg]


def _record_view(b: pa.RecordBatch, o: RescoreOptions, metric: str | None = None) -> RecordView:
    col = b.schema.get_field_index
    sample = b.column(col("sample")).to_numpy()
    n = len(sample)
    starts = np.flatnonzero(sample == 0) if n else np.zeros(0, dtype=np.int64)
    ends = np.append(starts[1:], n)
    if n == 0:
        empty = np.zeros(0)
        return RecordView(starts, starts, empty, empty, empty.astype(bool), [])
    values = RecordValues(b, starts, ends)
    fw_rows = b.column(col("fw_score"))
    # The primary aggregate follows each record's filter (an lm-eval log holds a line per filter
    # and per doc: `score-first` and `maj@8` lines sit in one batch).
    n_max = int((ends - starts).max())
    filters = b.column(col("filter"))
    distinct = pc.unique(filters).to_pylist()
    if len(distinct) == 1:
        agg = primary_aggregate(o, metric, distinct[0], n_max)
        ours, rep = values.get(agg)
        fw = _record_fw(fw_rows, starts, ends, agg)
    else:
        per_record = np.array(filters.take(pa.array(starts)).to_pylist(), dtype=object)
        ours, rep, fw = np.zeros(len(starts)), starts.copy(), np.zeros(len(starts))
        for filt in distinct:
            mask = per_record == filt if filt is not None else np.array([f is None for f in per_record])
            agg = primary_aggregate(o, metric, filt, n_max)
            agg_ours, agg_rep = values.get(agg)
            ours[mask], rep[mask] = agg_ours[mask], agg_rep[mask]
            fw[mask] = _record_fw(fw_rows, starts, ends, agg)[mask]
    both = ~np.isnan(fw) & ~np.isnan(ours)
    disagree = both & (np.abs(fw - ours) > 1e-9)
    kind: list[str | None] = [None] * len(starts)
    if disagree.any():
        groups = np.flatnonzero(disagree)
        take = pa.array(rep[groups])
        found = _kinds(
            b.column(col("reason")).take(take),
            b.column(col("extracted")).take(take),
            b.column(col("fw_extracted")).take(take),
        )
        for g, k in zip(groups, found, strict=True):
            kind[g] = k
    return RecordView(starts, rep, ours, fw, disagree, kind, values)


def _record_fw(arr: pa.Array, starts: np.ndarray, ends: np.ndarray, agg: Aggregate) -> np.ndarray:
    """The framework's per-record value under the aggregate ours is compared with: per-sample
    verdicts (Qwen's ``score``, OpenCompass's ``correct`` per run) are taken from the first (or
    last) sample, or averaged, as ours are, never a fraction set against one verdict; a per-record
    value broadcast to its samples is itself under every aggregate."""
    rows = np.asarray(arr.to_numpy(zero_copy_only=False), dtype=np.float64)
    if len(starts) == len(rows):
        return rows
    if agg.kind == "first":
        return rows[starts]
    if agg.kind == "last":
        return rows[ends - 1]
    return _record_means(arr, starts)


def _record_means(arr: pa.Array, starts: np.ndarray) -> np.ndarray:
    """Per record, the mean of a per-row score over the rows that have one (NaN if none): a
    per-record score broadcast to its samples is itself; Qwen's per-sample scores are averaged."""
    rows = np.asarray(arr.to_numpy(zero_copy_only=False), dtype=np.float64)
    if len(starts) == len(rows):
        return rows
    valid = ~np.isnan(rows)
    sums = np.add.reduceat(np.where(valid, rows, 0.0), starts)
    counts = np.add.reduceat(valid.astype(np.int64), starts)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)


def _np(mask: pa.Array) -> np.ndarray:
    return np.asarray(pc.fill_null(mask, False).to_numpy(zero_copy_only=False), dtype=bool)


def _kinds(reason: pa.Array, ours: pa.Array, theirs: pa.Array) -> list[str]:
    """Why two graders disagree on each response: ``extraction`` (different answers taken from
    it), ``equivalence`` (the same answer, judged differently), ``gold`` (we could not read the
    gold) or ``unknown`` (the log does not say what the framework extracted)."""
    theirs = theirs.cast(pa.large_string())
    ours = ours.cast(pa.large_string())
    gold = _np(pc.equal(reason, "gold_unparseable"))
    th_none = ~_np(pc.is_valid(theirs))
    found_nothing = _np(pc.is_in(reason, pa.array(["no_answer", "pred_unparseable"])))
    ours_t, theirs_t = pc.utf8_trim_whitespace(ours), pc.utf8_trim_whitespace(theirs)
    extraction = ~_np(pc.is_valid(ours)) | _np(pc.equal(theirs_t, ""))
    same = _np(pc.equal(ours_t, theirs_t))
    out = np.full(len(reason), "extraction", dtype=object)
    out[same] = "equivalence"
    pending = ~(gold | th_none | extraction | same)
    if pending.any():
        # The same answer written differently ("18" / "18.0" / "$18") is the same extraction: ask
        # the core (in parallel, no SymPy: what only SymPy could settle counts as different).
        idx = pa.array(np.flatnonzero(pending))
        correct, *_ = _core.check_batch(
            theirs.take(idx).to_pylist(), ours.take(idx).to_pylist(), compat="fixed", extract_policy="flex"
        )
        out[np.flatnonzero(pending)] = np.where(np.asarray(correct, dtype=bool), "equivalence", "extraction")
    out[extraction & ~gold] = "extraction"
    out[th_none] = np.where(found_nothing[th_none], "extraction", "unknown")
    out[gold] = "gold"
    return list(out)


# ---------------------------------------------------------------------------------------------
# Statistics per (file, task, filter): counted in matheval_fast._rescore_summary (GroupStats,
# MetricStats), which also writes them as Markdown


def _tail(text: str | None, n: int = 400) -> str | None:
    if text is None or len(text) <= n:
        return text
    return "…" + text[-n:]


@dataclass
class RescoreReport:
    """What :func:`rescore` found and wrote."""

    groups: list[dict[str, Any]]
    files: list[dict[str, Any]]
    outputs: dict[str, Any]
    rows: int
    seconds: float
    options: dict[str, Any]

    def summary(self) -> dict[str, Any]:
        from matheval_fast import __version__

        return {
            "matheval_fast": __version__,
            "options": self.options,
            "rows": self.rows,
            "seconds": self.seconds,
            "rows_per_second": self.rows / self.seconds if self.seconds > 0 else None,
            "files": self.files,
            "groups": self.groups,
            "outputs": self.outputs,
        }

    def markdown(self) -> str:
        return summary_markdown(self.summary())


# ---------------------------------------------------------------------------------------------
# The run


class _Names:
    """Unique output names for input files that share a name."""

    def __init__(self) -> None:
        self.seen: Counter = Counter()

    def __call__(self, name: str) -> str:
        self.seen[name] += 1
        if self.seen[name] == 1:
            return name
        cut = name.rfind(".")
        stem, ext = (name[:cut], name[cut:]) if cut > 0 else (name, "")
        return f"{stem}.{self.seen[name]}{ext}"


def _item_columns(b: pa.RecordBatch, view: RecordView, keep_response: bool) -> pa.RecordBatch:
    """The per-item output rows: ids, ours, the framework's, and the record view broadcast."""
    n = b.num_rows
    rec_of_row = np.repeat(np.arange(len(view.first_row)), np.diff(np.append(view.first_row, n)))
    drop = {"response"} if not keep_response else set()
    names = [c for c in b.schema.names if c not in drop]
    arrays = [b.column(b.schema.get_field_index(c)) for c in names]
    kinds = np.array(view.kind, dtype=object)[rec_of_row] if len(view.kind) else np.array([], dtype=object)
    extra = {
        "item_score": pa.array(view.ours[rec_of_row], pa.float64()),
        "framework_item_score": pa.array(view.fw[rec_of_row], pa.float64(), from_pandas=True),
        "disagree": pa.array(view.disagree[rec_of_row], pa.bool_()),
        "kind": pa.array(list(kinds), pa.string()),
    }
    return pa.RecordBatch.from_arrays([*arrays, *extra.values()], names=[*names, *extra])


class _ItemsWriter:
    def __init__(self, path: Path, fmt: str) -> None:
        self.path = path
        self.fmt = fmt
        self.writer: Any = None
        self.schema: pa.Schema | None = None
        self.fh: Any = None

    def write(self, b: pa.RecordBatch) -> None:
        if self.fmt == "parquet":
            import pyarrow.parquet as pq

            if self.writer is None:
                self.schema = b.schema
                # Dictionary pages only where values repeat (ids and texts would fall back anyway).
                low = [
                    c for c in ("task", "filter", "model", "reason", "path", "kind") if c in b.schema.names
                ]
                self.writer = pq.ParquetWriter(self.path, b.schema, use_dictionary=low)
            elif b.schema != self.schema:
                b = pa.Table.from_batches([b]).cast(self.schema).to_batches()[0]
            self.writer.write_batch(b)
        else:
            if self.fh is None:
                self.fh = open(self.path, "w", encoding="utf-8")
            for row in b.to_pylist():
                self.fh.write(json.dumps(_json_row(row), ensure_ascii=False) + "\n")

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        elif self.fmt == "parquet" and self.schema is None:
            import pyarrow.parquet as pq

            pq.write_table(pa.table({}), self.path)  # an empty log still gets its (empty) file
        if self.fh is not None:
            self.fh.close()
        elif self.fmt == "jsonl" and self.writer is None and self.fh is None:
            self.path.write_text("", encoding="utf-8")


def _json_row(row: dict[str, Any]) -> dict[str, Any]:
    return {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in row.items()}


def rescore(
    paths: Sequence[str | os.PathLike[str]] | str | os.PathLike[str],
    out_dir: str | os.PathLike[str],
    options: RescoreOptions | None = None,
    **kwargs: Any,
) -> RescoreReport:
    """Rescore logs into ``out_dir`` (see the module docstring); keyword arguments set
    :class:`RescoreOptions` fields. Returns the report (also written as summary.json/.md)."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    o = options or RescoreOptions()
    if kwargs:
        o = RescoreOptions(**{**o.__dict__, **kwargs})
    if o.samples not in ("first", "all"):
        raise ValueError(f"samples must be 'first' or 'all', got {o.samples!r}")
    if o.agg not in ("auto", "mean", "any", "majority"):
        raise ValueError(f"agg must be 'auto', 'mean', 'any' or 'majority', got {o.agg!r}")
    if o.engine not in ("local", "ray"):
        raise ValueError(f"engine must be 'local' or 'ray', got {o.engine!r}")
    if o.items_format not in ("parquet", "jsonl"):
        raise ValueError(f"items_format must be 'parquet' or 'jsonl', got {o.items_format!r}")
    if isinstance(o.examples, bool) or not isinstance(o.examples, int) or o.examples < 0:
        raise ValueError(f"examples must be an integer >= 0, got {o.examples!r}")
    if not paths:
        raise ValueError("no log files given")
    # Everything that can fail on the inputs fails here, before any output exists.
    # The output folder is not searched for logs (its rescored copies are not new logs).
    found = expand_paths(list(paths), exclude=[out_dir])
    readers: list[LogReader] = [open_log(p, o.format, o.read_options()) for p in found]
    user_config = load_config(o.config) if o.config is not None else None
    seed_config = load_config(None)
    out = Path(out_dir)
    item_names, copy_names = _Names(), _Names()
    t0 = time.perf_counter()
    groups: dict[tuple, GroupStats] = {}
    file_infos: list[dict[str, Any]] = []
    outputs: dict[str, Any] = {"items": [], "rescored": []}
    total_rows = 0
    rejected = []
    targets = []
    for reader in readers:
        item_path = out / "items" / (f"{item_names(reader.path.name)}.{o.items_format}")
        copy_target = out / "rescored" / copy_names(reader.copy_name()) if o.copy else None
        targets.append((item_path, copy_target))
    every = [t for pair in targets for t in pair if t is not None]
    every += [out / "rejected.jsonl", out / "summary.md", out / "summary.json"]
    inputs = [r.path for r in readers] + ([Path(o.config)] if o.config is not None else [])
    # Every output's temporary file is made now (an --out that cannot be written fails before the
    # work) and all are renamed together at the end: an interrupted run leaves the previous run's.
    with output_set(every, inputs=inputs) as files:
        tmp_targets = [(files.path(i), files.path(c) if c else None) for i, c in targets]
        if o.engine == "ray":
            # One Ray task per log (a log is read from start to end by one reader); each task
            # writes its file's outputs into their temporary files.
            done = _rescore_with_ray(readers, tmp_targets, o)
        else:
            done = []
            for reader, (items_tmp, copy_tmp) in zip(readers, tmp_targets, strict=True):
                policies = _policies(reader, user_config, seed_config)
                file_groups, rows_in_file = _score_log(reader, o, policies, items_tmp, copy_tmp)
                done.append((file_groups, _file_info(reader, rows_in_file), rows_in_file, reader.malformed))
        for (item_path, copy_target), (file_groups, info, rows_in_file, malformed) in zip(
            targets, done, strict=True
        ):
            groups.update(file_groups)
            if copy_target is not None:
                outputs["rescored"].append(str(copy_target))
            outputs["items"].append(str(item_path))
            total_rows += rows_in_file
            rejected += malformed
            file_infos.append(info)
        seconds = time.perf_counter() - t0
        report = RescoreReport(
            groups=[g.to_dict() for g in groups.values()],
            files=file_infos,
            outputs={**outputs, "summary": str(out / "summary.json"), "markdown": str(out / "summary.md")},
            rows=total_rows,
            seconds=seconds,
            options={k: (str(v) if isinstance(v, os.PathLike) else v) for k, v in o.__dict__.items()},
        )
        with open(files.path(out / "rejected.jsonl"), "w", encoding="utf-8") as fh:
            for m in rejected:
                fh.write(json.dumps(m.__dict__, ensure_ascii=False) + "\n")
        report.outputs["rejected"] = str(out / "rejected.jsonl")
        files.path(out / "summary.md").write_text(report.markdown() + "\n", encoding="utf-8")
        files.path(out / "summary.json").write_text(json_text(report.summary()), encoding="utf-8")
    return report


def _policies(
    reader: LogReader, user_config: EvalConfig | None, seed_config: EvalConfig
) -> EvalConfig | None:
    """The per-type policies for a log: the user's config, else the seed's for seed-format logs."""
    if user_config is not None:
        return user_config
    return seed_config if reader.format == "seed" else None


def _score_log(
    reader: LogReader,
    o: RescoreOptions,
    policies: EvalConfig | None,
    items_tmp: Path,
    copy_tmp: Path | None,
) -> tuple[dict[tuple, GroupStats], int]:
    """Score one log into its per-item file (and its rescored copy); its groups and row count."""
    groups: dict[tuple, GroupStats] = {}
    items_file = _ItemsWriter(items_tmp, o.items_format)
    # The per-item file is written in a thread while the next batch is scored.
    items = BackgroundWriter(items_file.write)
    copy = reader.copy_writer(copy_tmp) if copy_tmp is not None else None
    rows_in_file = 0
    bar = progress_bar(None, enabled=o.progress, desc=reader.path.name, unit="row")
    try:
        for lb in reader.batches():
            b = score_log_batch(
                lb.batch, compat=o.compat, policies=policies, threads=o.threads, timeout=o.timeout
            )
            b = _reduce_alternatives(b)
            view = _record_view(b, o, reader.info.get("primary_metric"))
            _accumulate(groups, reader, b, view, o)
            items(_item_columns(b, view, o.keep_response))
            if copy is not None:
                rep = pa.array(view.rep_row)
                reasons = b.column(b.schema.get_field_index("reason")).take(rep)
                extracted = b.column(b.schema.get_field_index("extracted")).take(rep)
                records = b.column(b.schema.get_field_index("record")).to_numpy()[view.first_row]
                copy.write(lb.context, records, view.ours, reasons, extracted)
            rows_in_file += b.num_rows
            bar.update(b.num_rows)
        items.close()
    finally:
        items.abandon()
        bar.close()
    items_file.close()
    if copy is not None:
        copy.close(_copy_summary(groups, reader, o))
    return groups, rows_in_file


def _file_info(reader: LogReader, rows: int) -> dict[str, Any]:
    return {
        "file": str(reader.path),
        **{k: v for k, v in reader.info.items() if k != "metrics"},
        "metrics": reader.info.get("metrics"),
        "rows": rows,
        "malformed": reader.malformed_count,
        "malformed_examples": [str(m) for m in reader.malformed[:5]],
    }


def _rescore_task(
    path: str, fmt: str, o: RescoreOptions, item_path: Path, copy_target: Path | None
) -> tuple[dict[tuple, GroupStats], dict[str, Any], int, list[Any]]:
    """One log, in a Ray task: what the local loop does for it, outputs renamed when complete."""
    reader = open_log(path, fmt, o.read_options())
    policies = _policies(reader, load_config(o.config) if o.config is not None else None, load_config(None))
    with contextlib.ExitStack() as stack:
        items_tmp = stack.enter_context(atomic_path(item_path))
        copy_tmp = stack.enter_context(atomic_path(copy_target)) if copy_target else None
        groups, rows = _score_log(reader, o, policies, items_tmp, copy_tmp)
    return groups, _file_info(reader, rows), rows, reader.malformed


def _rescore_with_ray(
    readers: list[LogReader], targets: list[tuple[Path, Path | None]], o: RescoreOptions
) -> list[tuple[dict[tuple, GroupStats], dict[str, Any], int, list[Any]]]:
    try:
        import ray
    except ImportError as exc:
        raise ValueError(
            "--engine ray needs Ray: pip install 'ray[data]' (the 'ray' extra of matheval-fast)"
        ) from exc
    from matheval_fast.distributed import start_ray

    start_ray(o.address)  # a local instance unless an address is given (never a stale cluster)
    task = ray.remote(num_cpus=1)(_rescore_task)
    # One checker thread per task (a task per CPU); no progress bars in the workers.
    config = str(Path(o.config).resolve()) if o.config is not None else None  # workers' own cwd
    per_task = RescoreOptions(
        **{**o.__dict__, "threads": 1, "progress": False, "engine": "local", "config": config}
    )
    refs = [
        task.remote(
            str(r.path.resolve()), r.format, per_task, item.resolve(), copy.resolve() if copy else None
        )
        for r, (item, copy) in zip(readers, targets, strict=True)
    ]
    return [_as_given(res, r) for res, r in zip(ray.get(refs), readers, strict=True)]


def _as_given(
    result: tuple[dict[tuple, GroupStats], dict[str, Any], int, list[Any]], reader: LogReader
) -> tuple[dict[tuple, GroupStats], dict[str, Any], int, list[Any]]:
    """A task's result with the log named as the user named it (tasks read it by absolute path)."""
    groups, info, rows, malformed = result
    given, used = str(reader.path), str(reader.path.resolve())
    if given != used:
        for g in groups.values():
            g.file = given
        examples = [e.replace(used, given, 1) for e in info["malformed_examples"]]
        info = {**info, "file": given, "malformed_examples": examples}
        malformed = [dataclasses.replace(m, file=given) for m in malformed]
    return groups, info, rows, malformed


def _copy_summary(groups: dict[tuple, GroupStats], reader: LogReader, o: RescoreOptions) -> dict[str, Any]:
    from matheval_fast import __version__

    mine = [g.to_dict() for k, g in groups.items() if k[0] == str(reader.path)]
    return {
        "version": __version__,
        "compat": o.compat,
        "accuracy": {
            f"{g['task']}" + (f" [{g['filter']}]" if g["filter"] else ""): g["ours_accuracy"] for g in mine
        },
    }


def _counts(arr: pa.Array) -> Counter:
    vc = pc.value_counts(arr).to_pylist()
    return Counter({d["values"]: d["counts"] for d in vc})


def _accumulate(
    groups: dict[tuple, GroupStats], reader: LogReader, b: pa.RecordBatch, view: RecordView, o: RescoreOptions
) -> None:
    col = b.schema.get_field_index
    if b.num_rows == 0:
        return
    first = view.first_row
    # Group keys per record (a batch may hold several tasks or filters, usually one).
    keys_tbl = pa.table(
        {"t": b.column(col("task")).take(pa.array(first)), "f": b.column(col("filter")).take(pa.array(first))}
    )
    tasks, filters = keys_tbl.column("t").to_pylist(), keys_tbl.column("f").to_pylist()
    uniq = list(dict.fromkeys(zip(tasks, filters, strict=True)))
    key_index = {k: i for i, k in enumerate(uniq)}
    rec_codes = (
        np.zeros(len(first), dtype=np.int64)
        if len(uniq) == 1
        else np.array([key_index[k] for k in zip(tasks, filters, strict=True)], dtype=np.int64)
    )
    row_codes = np.repeat(rec_codes, np.diff(np.append(first, b.num_rows)))
    reasons = b.column(col("reason"))
    paths = b.column(col("path"))
    model = reader.info.get("model")
    dis_recs = np.flatnonzero(view.disagree)
    dis_reasons = reasons.take(pa.array(view.rep_row[dis_recs])).to_pylist() if len(dis_recs) else []
    for ki, (task, filt) in enumerate(uniq):
        gkey = (str(reader.path), task, filt)
        g = groups.get(gkey)
        if g is None:
            g = groups[gkey] = GroupStats(
                str(reader.path), reader.format, model, task, filt, reader.info.get("primary_metric")
            )
            g.gold_field = reader.info.get("gold_field")
            g.gold_source = gold_source(reader.format, task)
            g.truncation = reader.info.get("truncation")
        recs = rec_codes == ki
        _accumulate_metrics(g, b, view, recs, filt, o)
        if len(uniq) == 1:
            g.reasons.update(_counts(reasons))
            g.paths.update(_counts(paths))
        else:
            rows = pa.array(row_codes == ki)
            g.reasons.update(_counts(reasons.filter(rows)))
            g.paths.update(_counts(paths.filter(rows)))
        g.records += int(recs.sum())
        g.rows += int((row_codes == ki).sum())
        ours = view.ours[recs]
        fw = view.fw[recs]
        g.ours_sum += float(np.nansum(ours))
        g.ours_n += int((~np.isnan(ours)).sum())
        g.fw_sum += float(np.nansum(fw))
        g.fw_n += int((~np.isnan(fw)).sum())
        dis = view.disagree & recs
        g.disagree += int(dis.sum())
        g.ours_only += int((dis & (view.ours > view.fw)).sum())
        g.fw_only += int((dis & (view.ours < view.fw)).sum())
        mine = np.flatnonzero(rec_codes[dis_recs] == ki) if len(uniq) > 1 else np.arange(len(dis_recs))
        if not len(mine):
            continue
        reasons_here = Counter(dis_reasons[i] for i in mine)
        kinds_here = Counter(view.kind[dis_recs[i]] or "unknown" for i in mine)
        g.by_reason.update(reasons_here)
        g.by_kind.update(kinds_here)
        _add_examples(g, b, view, dis_recs, dis_reasons, mine, reasons_here, kinds_here, o.examples)


def _accumulate_metrics(
    g: GroupStats, b: pa.RecordBatch, view: RecordView, recs: np.ndarray, filt: str | None, o: RescoreOptions
) -> None:
    """Every metric of the log next to the aggregate of ours it reports, and the gold rules."""
    col = b.schema.get_field_index
    first = view.first_row[recs]
    counts = np.diff(np.append(view.first_row, b.num_rows))[recs]
    n_max = int(counts.max()) if len(counts) else 1
    n_samples = b.column(col("n_samples")).to_numpy()[first] if len(first) else np.zeros(0)
    log_n = int(n_samples.max()) if len(n_samples) else 1
    primary = primary_aggregate(o, g.metric, filt, n_max)
    g.compared_with = _describe(primary, o, log_n)
    if (
        o.samples == "first"
        and log_n > 1
        and g.metric
        and aggregate_for(g.metric, filt, log_n).kind != "first"
    ):
        # The framework's number aggregates its samples; with one read, both columns are the first's.
        g.metric += " (its first sample only)"
    rules = b.column(col("gold_rule")).take(pa.array(first))
    counted = _counts(rules)
    g.gold_rules.update(counted)
    if counted.get("unreduced") and len(g.unreduced_examples) < o.examples:
        for r in np.flatnonzero(_np(pc.equal(rules, "unreduced"))):
            if len(g.unreduced_examples) >= o.examples:
                break
            row = int(first[r])
            g.unreduced_examples.append(
                {
                    "id": b.column(col("id"))[row].as_py(),
                    "position": b.column(col("position"))[row].as_py(),
                    "gold": _tail(b.column(col("gold"))[row].as_py(), 300),
                }
            )
    if view.values is None:
        return
    for name in metric_columns(b):
        metric = name[len(METRIC_PREFIX) :]
        agg = aggregate_for(metric, filt, n_max) if o.samples == "all" else Aggregate("first")
        stats = g.metrics.get(metric)
        if o.samples == "first" and aggregate_for(metric, filt, log_n).kind in ("gpass", "mgpass"):
            # A per-item value over all samples: never compared with one verdict.
            if stats is None:
                g.metrics[metric] = MetricStats("not compared: needs --samples all", "none")
            continue
        if stats is None:
            stats = g.metrics[metric] = MetricStats(_describe(agg, o, log_n), agg.label)
        ours, _ = view.values.get(agg)
        ends = np.append(view.first_row[1:], b.num_rows)
        stats.add(_record_fw(b.column(col(name)), view.first_row, ends, agg)[recs], ours[recs])


def _describe(agg: Aggregate, o: RescoreOptions, log_n: int) -> str:
    """What a metric is compared with, and a warning when the log has samples we did not read."""
    text = agg.describe()
    if o.samples == "first" and log_n > 1:
        text += (
            f" (the log has {log_n} samples per item: --samples all aggregates them as the framework does)"
        )
    return text


def _add_examples(
    g: GroupStats,
    b: pa.RecordBatch,
    view: RecordView,
    dis_recs: np.ndarray,
    dis_reasons: list[str],
    mine: np.ndarray,
    reasons_here: Counter,
    kinds_here: Counter,
    want: int,
) -> None:
    """A few examples per reason and per kind: walk the disagreements only while one is missing."""

    left_r, left_k = Counter(reasons_here), Counter(kinds_here)  # not yet walked, in this batch

    def wanting() -> bool:
        return any(len(g.examples_reason[r]) < want and n for r, n in left_r.items()) or any(
            len(g.examples_kind[k]) < want and n for k, n in left_k.items()
        )

    for i in mine:
        if not wanting():
            return
        reason, kind = dis_reasons[i], view.kind[dis_recs[i]] or "unknown"
        left_r[reason] -= 1
        left_k[kind] -= 1
        if len(g.examples_reason[reason]) < want or len(g.examples_kind[kind]) < want:
            ex = _example(b, int(view.rep_row[dis_recs[i]]), view, int(dis_recs[i]), reason, kind)
            if len(g.examples_reason[reason]) < want:
                g.examples_reason[reason].append(ex)
            if len(g.examples_kind[kind]) < want:
                g.examples_kind[kind].append(ex)


def _example(b: pa.RecordBatch, r: int, view: RecordView, rec: int, reason: str, kind: str) -> dict[str, Any]:
    def get(name: str) -> Any:
        i = b.schema.get_field_index(name)
        return None if i < 0 else b.column(i)[r].as_py()

    return {
        "id": get("id"),
        "position": get("position"),
        "sample": get("sample"),
        "gold": get("gold"),
        "extracted": get("extracted"),
        "reason": reason,
        "kind": kind,
        "framework_extracted": get("fw_extracted"),
        "framework_score": float(view.fw[rec]),
        "ours": float(view.ours[rec]),
        "response_tail": _tail(get("response")),
    }


def metric_columns(b: pa.RecordBatch) -> list[str]:
    return [c for c in b.schema.names if c.startswith(METRIC_PREFIX)]


def iter_paths(paths: Iterable[str | os.PathLike[str]]) -> list[Path]:
    return [Path(p) for p in paths]


_ = pc  # pyarrow.compute is part of this module's public expectations (kernels used by readers)
