"""Scoring past one machine: Ray Data runs the same kernel as the local command line.

:func:`score_kernel` is the ``map_batches`` function (normalise an Arrow batch, check it on one
thread with the GIL released). :func:`score_with_ray` maps it with one CPU per task and writes
Parquet per block into a directory, the summary beside it. Parquet inputs are read by the tasks
themselves, one task per row group (:func:`score_row_groups`): Ray Data's Parquet reader listed
and sampled the files in tasks of their own and handed every block through the object store, and
took twice the time of a ``multiprocessing.Pool`` on one machine. JSON Lines go through Ray Data's
JSON reader. Locally::

    matheval-fast score responses.parquet --engine ray --out scored/

On a cluster (``ray start --head`` on one node, ``ray start --address HEAD:6379`` on the others, or
a KubeRay ``RayCluster``) with inputs and outputs on storage every node sees::

    matheval-fast score s3://bucket/responses/ --engine ray --address auto --out s3://bucket/scored/

The verdicts are the local engine's (a test compares them on a real local Ray instance). Parquet
rows keep their 1-based row number within their file in ``line``, as the local engine gives it; rows
from Ray's JSON reader have none (``line`` is null): name the ids to keep with ``--id-field``. Ray's
JSON reader stops at a malformed line rather than skipping it; use the local engine to skip and
report bad lines one by one.
"""

from __future__ import annotations

import json
import os
import shutil
import time
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.fs as pafs
import pyarrow.parquet as pq

from matheval_fast._vocabulary import Compat, FiniteDecimals
from matheval_fast.io.responses import FieldsChosen, ResponseFields, needed_columns, normalise_arrow
from matheval_fast.score import FieldsGuessedWarning, ScoreTally, empty_result_schema, score_response_batch

__all__ = ["parquet_units", "score_kernel", "score_row_groups", "score_with_ray", "start_ray"]


def score_kernel(
    batch: pa.Table,
    *,
    fields: ResponseFields,
    config: Any = None,
    compat: Compat = "fixed",
    timeout: float | None = None,
    threads: int = 1,
    finite_decimals: FiniteDecimals = "exact",
    first_row: int | None = None,
) -> pa.Table:
    """One batch of any Arrow layout -> the per-item rows of :func:`matheval_fast.score.score_file`
    (``first_row``: the batch's first 1-based row number in its file, if known; else ``line`` is
    null)."""
    out, _ = score_response_batch(
        normalise_arrow(batch, fields, first_row=first_row),
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

    Joins the cluster at ``address`` (``"auto"``: a running one) or, without one, starts a new local
    instance, when Ray is not initialised yet (:func:`start_ray`). ``config``: a path or a dict (sent
    to the workers as is).
    """
    try:
        import ray
    except ImportError as exc:
        raise ValueError(
            "--engine ray needs Ray: pip install 'ray[data]' (the 'ray' extra of matheval-fast)"
        ) from exc
    from matheval_fast._report.files import write_json
    from matheval_fast.answer import load_config

    given = fields or ResponseFields()
    fields = given
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
    start_ray(address, num_cpus=num_cpus)
    t0 = time.perf_counter()
    used = [fields]
    if fmt == "parquet":
        units = parquet_units(srcs, fields, chosen=lambda f: used.__setitem__(0, f))
    elif fields.guess:
        used[0] = fields.resolve(_first_json_keys(srcs[0]))
    fields = used[0]
    if (fields.response, fields.gold) != (given.response, given.gold):
        warnings.warn(
            FieldsGuessedWarning(
                f"read the response from {fields.response!r} and the gold from {fields.gold!r}"
            ),
            stacklevel=2,
        )
    kernel_kw = {
        "fields": fields,
        "config": config,
        "compat": compat,
        "timeout": timeout,
        "finite_decimals": finite_decimals,
    }
    if fmt == "parquet":
        # One task per row group: it reads its group and scores it batch by batch, so nothing
        # but the results moves between processes, and no task waits on a reader.
        scored = ray.data.from_items(units, override_num_blocks=max(1, len(units))).map_batches(
            score_row_groups,
            batch_format="numpy",
            batch_size=1,
            num_cpus=1,
            fn_kwargs={**kernel_kw, "batch_rows": batch_rows},
        )
    elif fmt == "jsonl":
        # A JSON file is one block per 128 MB: blocks of batch_rows rows let every CPU take a share.
        ds = ray.data.read_json(srcs).repartition(target_num_rows_per_block=batch_rows)
        scored = ds.map_batches(
            score_kernel, batch_format="pyarrow", batch_size=batch_rows, num_cpus=1, fn_kwargs=kernel_kw
        )
    else:
        raise ValueError(f"--engine ray reads parquet or jsonl, not {fmt!r}")
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
            if not tmp.exists():  # no rows, so no blocks: still a dataset readers can open
                tmp.mkdir()
                pq.write_table(empty_result_schema(fields).empty_table(), tmp / "empty.parquet")
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


def start_ray(address: str | None = None, *, num_cpus: int | None = None) -> None:
    """Start or join Ray, unless this process already did. ``address=None`` starts a new local
    instance (``address="local"``): Ray's own default would join whatever cluster the
    ``ray_current_cluster`` file in its temporary folder names, a stale one after an unclean stop, and
    then refuse ``num_cpus``. Any other address (``"auto"``, ``HOST:PORT``, ``ray://...``) joins that
    cluster, which has its own resources (``num_cpus`` is not passed)."""
    import ray

    if ray.is_initialized():
        return
    if address is None or address == "local":
        ray.init(address="local", num_cpus=num_cpus, include_dashboard=False, log_to_driver=False)
    else:
        ray.init(address=address, include_dashboard=False, log_to_driver=False)


def _first_json_keys(src: str) -> list[str]:
    """The fields of the first record of a local JSON Lines file (nothing for a directory or URI:
    the fields are then the defaults)."""
    from matheval_fast.io.responses import open_input

    if "://" in src or not Path(src).is_file():
        return []
    with open_input(src) as fh:
        for line in fh:
            if line.strip():
                try:
                    rec = json.loads(line)
                except ValueError:
                    return []
                return list(rec) if isinstance(rec, dict) else []
    return []


def _parquet_file(path: str) -> pq.ParquetFile:
    """A Parquet file by local path or URI (``s3://``, ``gs://``, ...: pyarrow's filesystems)."""
    if "://" in path:
        fs, inner = pafs.FileSystem.from_uri(path)
        return pq.ParquetFile(fs.open_input_file(inner))
    return pq.ParquetFile(path)


def parquet_units(
    srcs: Sequence[str], fields: ResponseFields, *, chosen: FieldsChosen | None = None
) -> list[dict[str, Any]]:
    """The row groups of Parquet files and directories (searched recursively, ``*.parquet``), as
    ``{"path", "group", "first_row"}`` work items, in order (``first_row``: the group's first
    1-based row number in its file). The first file's columns are checked here, on the
    driver: a missing response or gold column stops the run before any task starts; guessed fields
    are resolved against them (``chosen`` is told the fields used)."""
    files: list[str] = []
    for src in srcs:
        if "://" in src:
            fs, inner = pafs.FileSystem.from_uri(src)
            scheme = src.split("://", 1)[0]
        else:
            fs, inner, scheme = pafs.LocalFileSystem(), os.path.abspath(src), ""
        info = fs.get_file_info(inner)
        if info.type == pafs.FileType.NotFound:
            raise FileNotFoundError(f"{src}: no such file or directory")
        if info.type == pafs.FileType.Directory:
            found = fs.get_file_info(pafs.FileSelector(inner, recursive=True))
            names = sorted(f.path for f in found if f.is_file and f.path.endswith(".parquet"))
        else:
            names = [inner]
        files += [f"{scheme}://{n}" if scheme else n for n in names]
    units: list[dict[str, Any]] = []
    for k, path in enumerate(files):
        pf = _parquet_file(path)
        if k == 0:
            names = pf.schema_arrow.names
            fields = fields.resolve(names)
            if chosen is not None:
                chosen(fields)
            for what, col in (("response", fields.response), ("gold", fields.gold)):
                top = col.split(".")[0]
                if top not in names:
                    cols = ", ".join(names)
                    raise ValueError(f"{path}: no column {top!r} for the {what} (columns: {cols})")
        first = 1
        for g in range(pf.metadata.num_row_groups):
            rows = pf.metadata.row_group(g).num_rows
            if rows:
                units.append({"path": path, "group": g, "first_row": first})
            first += rows
    return units


def score_row_groups(
    units: dict[str, Any], *, fields: ResponseFields, batch_rows: int = 65_536, **kernel_kw: Any
) -> Iterator[pa.Table]:
    """The ``map_batches`` function of a Parquet read: for each ``{"path", "group", "first_row"}`` item, read
    that row group (only the needed columns) in batches of ``batch_rows`` and score each with
    :func:`score_kernel`."""
    for path, group, first in zip(units["path"], units["group"], units["first_row"], strict=True):
        pf = _parquet_file(str(path))
        cols = needed_columns(fields, pf.schema_arrow.names)
        row = int(first)
        for b in pf.iter_batches(batch_size=batch_rows, row_groups=[int(group)], columns=cols):
            yield score_kernel(b, fields=fields, first_row=row, **kernel_kw)
            row += b.num_rows


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
