"""Scoring past one machine: Ray Data runs the same kernel as the local command line.

:func:`score_kernel` is the ``map_batches`` function (normalise an Arrow batch, check it on one
thread with the GIL released); :func:`score_with_ray` reads Parquet or JSON Lines with Ray Data's
own readers, maps the kernel with one CPU per task, writes Parquet per block into a directory and
the summary beside it. Locally::

    matheval-fast score responses.parquet --engine ray --out scored/

On a cluster (``ray start --head`` on one node, ``ray start --address HEAD:6379`` on the others, or
a KubeRay ``RayCluster``) with inputs and outputs on storage every node sees::

    matheval-fast score s3://bucket/responses/ --engine ray --address auto --out s3://bucket/scored/

The verdicts are the local engine's (a test compares them on a real local Ray instance). Rows
have no global line number in a distributed read, so ``line`` is null: name the ids to keep with
``--id-field``. Ray's JSON reader stops at a malformed line rather than skipping it; use the local
engine to skip and report bad lines one by one.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from matheval_fast._vocabulary import Compat, FiniteDecimals
from matheval_fast.io.responses import ResponseFields, needed_columns, normalise_arrow
from matheval_fast.score import ScoreTally, score_response_batch

__all__ = ["score_kernel", "score_with_ray"]


def score_kernel(
    batch: pa.Table,
    *,
    fields: ResponseFields,
    config: Any = None,
    compat: Compat = "fixed",
    timeout: float | None = None,
    threads: int = 1,
    finite_decimals: FiniteDecimals = "exact",
) -> pa.Table:
    """One batch of any Arrow layout -> the per-item rows of :func:`matheval_fast.score.score_file`."""
    out, _ = score_response_batch(
        normalise_arrow(batch, fields, first_row=None),
        config=config,
        compat=compat,
        threads=threads,
        timeout=timeout,
        finite_decimals=finite_decimals,
    )
    return pa.Table.from_batches([out])


def score_with_ray(
    paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    out_dir: str | os.PathLike[str],
    *,
    fields: ResponseFields | None = None,
    config: str | os.PathLike[str] | dict[str, Any] | None = None,
    compat: Compat = "fixed",
    timeout: float | None = None,
    input_format: str | None = None,
    batch_rows: int = 65_536,
    address: str | None = None,
    num_cpus: int | None = None,
    finite_decimals: FiniteDecimals = "exact",
) -> dict[str, Any]:
    """Score with Ray Data into ``out_dir`` (Parquet per block), the summary in
    ``<out_dir>.summary.json`` beside it; returns the summary.

    Connects to ``address`` (``"auto"``: a running cluster) or starts a local instance when Ray is
    not initialised yet. ``config``: a path or a dict (sent to the workers as is).
    """
    try:
        import ray
    except ImportError as exc:
        raise ValueError(
            "--engine ray needs Ray: pip install 'ray[data]' (the 'ray' extra of matheval-fast)"
        ) from exc
    from matheval_fast._report.files import write_json
    from matheval_fast.answer import load_config

    fields = fields or ResponseFields()
    if config is not None and not isinstance(config, dict):
        config = str(config)
    load_config(config)  # a bad config fails here, not in every worker
    remote = "://" in str(out_dir)
    out = Path(out_dir)
    if not remote:
        if out.exists() and (not out.is_dir() or any(out.iterdir())):
            raise ValueError(f"{out}: exists and is not an empty directory (--engine ray writes a directory)")
        out.parent.mkdir(parents=True, exist_ok=True)
    # Beside the directory, not in it: the directory stays a Parquet dataset readers can open
    # (for a remote --out, in the working directory).
    summary_path = (Path(out.name) if remote else out).with_name(out.name + ".summary.json")
    srcs = [str(p) for p in ([paths] if isinstance(paths, (str, os.PathLike)) else paths)]
    fmt = input_format or (
        "parquet" if all(s.endswith(".parquet") or Path(s).is_dir() for s in srcs) else "jsonl"
    )
    if not ray.is_initialized():
        ray.init(address=address, num_cpus=num_cpus, include_dashboard=False, log_to_driver=False)
    t0 = time.perf_counter()
    if fmt == "parquet":
        import pyarrow.parquet as pq

        first = (
            srcs[0]
            if not Path(srcs[0]).is_dir()
            else next(iter(sorted(Path(srcs[0]).glob("*.parquet"))), None)
        )
        ds = ray.data.read_parquet(srcs)
        if first is not None:
            ds = ds.select_columns(needed_columns(fields, pq.read_schema(first).names))
    elif fmt == "jsonl":
        ds = ray.data.read_json(srcs)
    else:
        raise ValueError(f"--engine ray reads parquet or jsonl, not {fmt!r}")
    # Readers make blocks of whole row groups or files; blocks of batch_rows rows let every CPU
    # take a share (a 1M-row file of 200k-row groups would otherwise keep one CPU busy for most).
    ds = ds.repartition(target_num_rows_per_block=batch_rows)
    scored = ds.map_batches(
        score_kernel,
        batch_format="pyarrow",
        batch_size=batch_rows,
        num_cpus=1,
        fn_kwargs={
            "fields": fields,
            "config": config,
            "compat": compat,
            "timeout": timeout,
            "finite_decimals": finite_decimals,
        },
    )
    # Written to a temporary directory beside the target and renamed when complete: an
    # interrupted run leaves no directory that looks finished. The dataset streams straight into
    # the files (nothing is held in the object store); the tables are built from the files'
    # small columns afterwards.
    if remote:  # object storage has no rename: written in place
        scored.write_parquet(str(out_dir))
        tally = _tally_of(str(out_dir))
    else:
        tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
        shutil.rmtree(tmp, ignore_errors=True)
        try:
            scored.write_parquet(str(tmp))
            tally = _tally_of(str(tmp))
            if out.exists():
                out.rmdir()  # empty (checked before any work)
            os.replace(tmp, out)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    seconds = time.perf_counter() - t0
    summary = {
        "file": srcs if len(srcs) > 1 else srcs[0],
        "compat": compat,
        "engine": "ray",
        "seconds": round(seconds, 3),
        **tally.summary(),
        "outputs": {"items": str(out_dir), "summary": str(summary_path)},
    }
    write_json(summary_path, summary)
    return summary


def _tally_of(directory: str) -> ScoreTally:
    """The tables' counts from the written files (only the columns the tables need)."""
    import pyarrow.dataset as pads

    tally = ScoreTally()
    cols = ["prompt", "type", "subtype", "level", "correct", "reason", "path"]
    ds = pads.dataset(directory, format="parquet")
    for rb in ds.to_batches(columns=cols, batch_size=262_144):
        tally.records += int(pc.sum(pc.equal(rb.column("prompt"), 0)).as_py() or 0)
        tally.add(rb)
    return tally
