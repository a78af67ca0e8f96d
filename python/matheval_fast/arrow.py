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

from matheval_fast._columns import numeric_array, strings, values_of
from matheval_fast._sympy.pool import check_timeout
from matheval_fast._vocabulary import FiniteDecimals
from matheval_fast.answer import Compat, EvalConfig, EvalPolicy, ExtractPolicy, Kind, check_batch

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["check_by_type", "score_batch"]


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


def check_by_type(
    responses: pa.Array,
    golds: pa.Array,
    types: pa.Array | None,
    *,
    policies: EvalConfig,
    auto_config: EvalConfig | None = None,
    compat: Compat = "fixed",
    threads: int | None = None,
    timeout: float | None = None,
    finite_decimals: FiniteDecimals = "exact",
) -> tuple[pa.Table, int]:
    """Verdicts (``correct``, ``reason``, ``extracted``, ``path``, in row order) with each row's
    checker from its type: a type ``policies`` knows gets that policy; no type, or one it does not
    know, gets ``kind="auto"`` (what :func:`matheval_fast.check` uses, with ``auto_config``). Rows
    are grouped per policy with Arrow kernels, one core call per group. Also returns how many rows
    took ``kind="auto"``. The one dispatch of ``score``, ``rescore`` and ``compare``."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    known = policies.policy
    names = list(known)
    m = len(responses)
    if types is not None and names and m and types.null_count < len(types):
        gid = pc.index_in(types, value_set=strings(names, large=pa.types.is_large_string(types.type)))
        gid_np = values_of(gid.fill_null(-1), np.int32).astype(np.int64)
        groups = np.unique(gid_np)
    else:  # no types (GSM8K-style files): every row is one auto group, no grouping work
        gid_np = None
        groups = np.array([-1] if m else [], dtype=np.int64)
    fallback = m if gid_np is None else int((gid_np < 0).sum())
    parts: list[pa.Table] = []
    order: list[np.ndarray] = []
    for g in groups:
        idx = np.arange(m, dtype=np.int64) if gid_np is None else np.flatnonzero(gid_np == g)
        if g < 0:
            kw: dict[str, Any] = {"kinds": None, "config": auto_config}
        else:
            kind, extract_policy, eval_policy = known[names[g]]
            kw = {
                "kinds": [kind] * len(idx),
                "extract_policy": extract_policy,
                "eval_policy": eval_policy,
                "config": policies,
            }
        ia = numeric_array(idx) if len(idx) < m else None
        res = check_batch(
            responses if ia is None else responses.take(ia),
            golds if ia is None else golds.take(ia),
            compat=compat,
            threads=threads,
            timeout=timeout,
            finite_decimals=finite_decimals,
            **kw,
        )
        parts.append(res.to_arrow())
        order.append(idx)
    if not parts:
        empty = {"correct": pa.bool_(), "reason": pa.string(), "extracted": pa.string(), "path": pa.string()}
        return pa.table({k: pa.nulls(0, t) for k, t in empty.items()}), 0
    verdicts = pa.concat_tables(parts)
    if len(parts) > 1:  # back to row order
        inverse = np.empty(m, dtype=np.int64)
        inverse[np.concatenate(order)] = np.arange(m, dtype=np.int64)
        verdicts = verdicts.take(numeric_array(inverse))
    return verdicts.combine_chunks(), fallback
