"""The one Arrow kernel for scale-out: ``RecordBatch -> RecordBatch``.

The CLI, the Python API and distributed engines all call the same checker; this module gives it
the shape data engines want. With Ray Data (the engine where LLM outputs are produced)::

    import ray
    from matheval_fast.arrow import score_batch

    ds = ray.data.read_parquet("responses/")
    scored = ds.map_batches(score_batch, batch_format="pyarrow", fn_kwargs={"response": "completion"})

Single-machine use never needs Ray.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from matheval_fast._sympy.pool import check_timeout
from matheval_fast.answer import Compat, EvalConfig, EvalPolicy, ExtractPolicy, Kind, check_batch

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["score_batch"]


def score_batch(
    batch: pa.RecordBatch | pa.Table,
    *,
    response: str = "completion",
    gold: str = "answer",
    kind: Kind = "auto",
    compat: Compat = "fixed",
    config: str | os.PathLike[str] | Mapping[str, Any] | EvalConfig | None = None,
    extract_policy: ExtractPolicy = "flex",
    eval_policy: EvalPolicy | None = None,
    prefix: str = "",
    threads: int | None = None,
    timeout: float | None = None,
) -> pa.RecordBatch | pa.Table:
    """Append ``correct``, ``reason``, ``extracted`` and ``path`` columns (names get ``prefix``).

    The input's string columns are read through their Arrow buffers, without Python strings.
    Returns the same type it was given (RecordBatch or Table).
    """
    import pyarrow as pa

    if timeout is not None:
        check_timeout(timeout)  # before any work
    for col in (response, gold):
        if col not in batch.schema.names:
            raise KeyError(f"column {col!r} not in the batch (columns: {batch.schema.names})")
    n = batch.num_rows
    res = check_batch(
        batch.column(response),
        batch.column(gold),
        kinds=None if kind == "auto" else [kind] * n,
        compat=compat,
        config=config,
        extract_policy=extract_policy,
        eval_policy=eval_policy,
        threads=threads,
        timeout=timeout,
    )
    out = res.to_arrow()
    names = list(batch.schema.names)
    arrays = [batch.column(i) for i in range(batch.num_columns)]
    for name in out.column_names:
        names.append(prefix + name)
        col = out.column(name)
        arrays.append(col.combine_chunks() if isinstance(batch, pa.RecordBatch) else col)
    if isinstance(batch, pa.RecordBatch):
        return pa.RecordBatch.from_arrays(arrays, names=names)
    return pa.table(dict(zip(names, arrays, strict=True)))
