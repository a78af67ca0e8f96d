"""Arrow string arrays to and from the core, by their buffers: no Python string per row.

:func:`text_column` gives the core a view of an array's offsets, bytes and validity bitmap (numpy
arrays over Arrow's memory, read in place while the GIL is released); :func:`string_array` wraps the
buffers the core hands back (numpy arrays that own Rust's vectors) as a pyarrow array.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyarrow as pa

from matheval_fast import _core

__all__ = ["mask_of", "numeric_array", "string_array", "strings", "text_column", "values_of"]


def text_column(arr: pa.Array) -> _core.TextColumn:
    """One pyarrow string (or binary, or null) array as a core ``TextColumn``, without copying."""
    if pa.types.is_string(arr.type):
        arr = arr.cast(pa.large_string())
    elif pa.types.is_binary(arr.type):
        arr = arr.cast(pa.large_binary())
    elif pa.types.is_null(arr.type):
        arr = pa.nulls(len(arr), type=pa.large_string())
    elif not (pa.types.is_large_string(arr.type) or pa.types.is_large_binary(arr.type)):
        raise TypeError(f"arrow arrays must hold strings, got {arr.type}")
    validity, offsets, data = arr.buffers()[:3]
    if offsets is None:  # an empty array may have no offsets buffer
        off = np.zeros(1, dtype=np.int64)
    else:
        off = np.frombuffer(offsets, dtype=np.int64)[arr.offset : arr.offset + len(arr) + 1]
    return _core.TextColumn.from_arrow(
        off,
        np.frombuffer(data, dtype=np.uint8) if data is not None else np.zeros(0, dtype=np.uint8),
        np.frombuffer(validity, dtype=np.uint8) if validity is not None and arr.null_count else None,
        arr.offset,
    )


def string_array(buffers: tuple[bytes, bytes, bytes, int]) -> pa.Array:
    """The core's ``(offsets, data, validity, null_count)`` buffers (native-endian int64 offsets)
    as a pyarrow ``large_string`` array, without a copy."""
    offsets, data, validity, nulls = buffers
    offsets_buf = pa.py_buffer(offsets)
    return pa.Array.from_buffers(
        pa.large_string(),
        offsets_buf.size // 8 - 1,
        [pa.py_buffer(validity) if nulls else None, offsets_buf, pa.py_buffer(data)],
        null_count=nulls,
    )


def strings(values: Sequence[str], large: bool = False) -> pa.Array:
    """A few Python strings (names, a value set) as a pyarrow ``string`` (or ``large_string``) array,
    built from its buffers: ``pa.array(list)`` would import pandas to ask whether the list is a
    pandas object, a fifth of a second at a command line's start."""
    data = [v.encode("utf-8") for v in values]
    offsets = np.zeros(len(data) + 1, dtype=np.int64 if large else np.int32)
    np.cumsum([len(d) for d in data], out=offsets[1:])
    return pa.Array.from_buffers(
        pa.large_string() if large else pa.string(),
        len(data),
        [None, pa.py_buffer(offsets), pa.py_buffer(b"".join(data))],
    )


def numeric_array(values: np.ndarray) -> pa.Array:
    """A 1-D numpy array of numbers or booleans as a pyarrow array, sharing its memory (booleans
    are packed into bits).
    (``pa.array(ndarray)`` asks pandas first whether it is a pandas object, importing pandas: a
    fifth of a second at a command line's start.)"""
    values = np.ascontiguousarray(values)
    if values.dtype == np.bool_:  # Arrow packs booleans into bits
        return pa.Array.from_buffers(
            pa.bool_(), len(values), [None, pa.py_buffer(np.packbits(values, bitorder="little"))]
        )
    return pa.Array.from_buffers(pa.from_numpy_dtype(values.dtype), len(values), [None, pa.py_buffer(values)])


def values_of(arr: pa.Array, dtype: type = np.int64) -> np.ndarray:
    """The values of a fixed-width Arrow array (offsets, integers; no nulls) as a read-only numpy
    view, without ``to_numpy`` (which, like ``pa.array``, imports pandas to ask about it)."""
    buf = arr.buffers()[1]
    if buf is None:
        return np.zeros(0, dtype=dtype)
    return np.frombuffer(buf, dtype=dtype)[arr.offset : arr.offset + len(arr)]


def mask_of(arr: pa.Array) -> np.ndarray:
    """``arr.is_null()`` as a numpy bool array."""
    if arr.null_count == 0:
        return np.zeros(len(arr), dtype=bool)
    bits = np.frombuffer(arr.buffers()[0], dtype=np.uint8)
    valid = np.unpackbits(bits, bitorder="little", count=arr.offset + len(arr))[arr.offset :]
    return valid == 0
