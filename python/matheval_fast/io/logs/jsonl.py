"""JSON Lines logs: chunks of whole lines, fields pulled out by the Rust core, as Arrow arrays.

:func:`read_chunks` cuts a (possibly gzipped) file into chunks of whole lines with their first
line number; :func:`fields_of` runs ``_core.read_json_lines`` over one chunk (parallel over
lines, the GIL released, unwanted members skipped without being built) and wraps its buffers as
Arrow arrays without copying them again. :class:`JsonlCopyWriter` writes a rescored copy: every
record byte for byte, with ``matheval_fast`` members added before its closing brace.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from matheval_fast import _core
from matheval_fast._columns import text_column
from matheval_fast._vocabulary import FieldKind
from matheval_fast.io.logs.base import CopyWriter, first_line, open_binary
from matheval_fast.io.text import RecordTooLongError, input_name, max_record_bytes, too_long

__all__ = [
    "Chunk",
    "JsonlCopyWriter",
    "bad_line_reason",
    "exact_numbers",
    "fields_of",
    "parsed_chunks",
    "peek_json_line",
    "read_chunks",
    "screen",
    "value_at",
]

#: How a field is read (the core's names, typed once in ``_vocabulary``).
Kind = FieldKind


def read_chunks(
    path: Path,
    chunk_bytes: int,
    slots: int = 3,
    opener: Callable[[Path], IO[bytes]] = open_binary,
    limit: int | None = None,
) -> Iterator[np.ndarray]:
    """Chunks of whole lines, about ``chunk_bytes`` each (the last line may lack its newline), as
    uint8 numpy arrays, which the core reads in place.

    Chunks are views into a small ring of reused buffers (fresh memory per chunk costs more in page
    faults than the parsing it feeds): a chunk's bytes stay valid until ``slots - 1`` more chunks
    have been read. Take ``bytes(chunk)`` to keep one longer.

    A line longer than ``limit`` bytes (default: :func:`~matheval_fast.io.text.max_record_bytes`)
    is a :class:`~matheval_fast.io.text.RecordTooLongError`: a stream without newlines is never
    buffered without bound. It is the line after those of the chunks already given; a caller that
    counts them names it (``raise exc.at(line)``), as :func:`parsed_chunks` does.
    """
    limit = max_record_bytes() if limit is None else limit
    ring: list[bytearray | None] = [None] * slots
    carry = b""
    k = 0
    with opener(path) as fh:
        while True:
            if len(carry) > limit:
                # The line is the one after the chunks given: the caller, who counts them, names it.
                raise too_long(input_name(path), None, limit)
            # A line starts each read at the buffer's start (``carry``); reading at most limit + 1
            # bytes, a line over the limit never ends inside: it is carried, and refused above.
            cap = min(max(chunk_bytes, 2 * len(carry)) + (1 << 16), limit + 1)
            buf = ring[k % slots]
            if buf is None or len(buf) < cap:  # no room to read on: a bigger buffer
                buf = ring[k % slots] = bytearray(cap)
            n0 = len(carry)
            buf[:n0] = carry
            view = memoryview(buf)
            n = n0
            while n < cap:  # readinto may return less (gzip, pipes)
                got = fh.readinto(view[n:cap])
                if not got:
                    break
                n += got
            if n == n0:
                if n0:
                    yield np.frombuffer(buf, dtype=np.uint8, count=n0)
                return
            cut = buf.rfind(b"\n", 0, n)
            if cut < 0 and n == cap:
                carry = bytes(view[:n])  # one line longer than the chunk: read on
                continue
            end = n if cut < 0 else cut + 1
            carry = bytes(view[end:n])
            yield np.frombuffer(buf, dtype=np.uint8, count=end)
            k += 1


def peek_json_line(head: bytes) -> dict[str, Any] | None:
    """The first non-blank line of ``head`` as a JSON object, or None."""
    line = first_line(head)
    if not line.startswith(b"{"):
        return None
    try:
        obj = json.loads(line)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None
    return obj if isinstance(obj, dict) else None


def _text_array(t: tuple) -> pa.Array:
    _, offsets, data, bits, nulls, _tags = t
    n = len(offsets) - 1
    return pa.Array.from_buffers(
        pa.large_string(),
        n,
        [pa.py_buffer(bits) if nulls else None, pa.py_buffer(offsets), pa.py_buffer(data)],
        null_count=nulls,
    )


def _list_array(t: tuple) -> pa.Array:
    _, list_offsets, bits, nulls, item_offsets, item_data, item_bits, item_nulls, _tags = t
    items = pa.Array.from_buffers(
        pa.large_string(),
        len(item_offsets) - 1,
        [
            pa.py_buffer(item_bits) if item_nulls else None,
            pa.py_buffer(item_offsets),
            pa.py_buffer(item_data),
        ],
        null_count=item_nulls,
    )
    return pa.Array.from_buffers(
        pa.large_list(pa.large_string()),
        len(list_offsets) - 1,
        [pa.py_buffer(bits) if nulls else None, pa.py_buffer(list_offsets)],
        null_count=nulls,
        children=[items],
    )


def _number_array(t: tuple) -> pa.Array:
    _, values, bits, nulls, _tags = t
    return pa.Array.from_buffers(
        pa.float64(),
        len(values),
        [pa.py_buffer(bits) if nulls else None, pa.py_buffer(values)],
        null_count=nulls,
    )


@dataclass
class Field:
    """A column of one chunk: the Arrow array and the JSON type each record held there."""

    array: pa.Array
    tags: np.ndarray  # uint8, names in Chunk.tag_names

    def missing(self) -> np.ndarray:
        return self.tags == 0


@dataclass
class Chunk:
    """One chunk's records: where they are and the requested fields (``data``: the chunk's bytes,
    valid as long as :func:`read_chunks` says)."""

    data: bytes | np.ndarray
    first_line: int
    lines: np.ndarray  # 1-based line numbers of the good records
    starts: np.ndarray
    ends: np.ndarray
    bad: list[tuple[int, str]]  # (1-based line, message)
    fields: dict[str, Field]
    tag_names: tuple[str, ...]
    line_count: int

    def __len__(self) -> int:
        return len(self.lines)

    def tag_name(self, code: int) -> str:
        return self.tag_names[code]

    def select(self, keep: np.ndarray) -> Chunk:
        """The chunk restricted to the records where ``keep`` is True."""
        mask = pa.array(keep)
        return Chunk(
            self.data,
            self.first_line,
            self.lines[keep],
            self.starts[keep],
            self.ends[keep],
            self.bad,
            {k: Field(v.array.filter(mask), v.tags[keep]) for k, v in self.fields.items()},
            self.tag_names,
            self.line_count,
        )


def fields_of(chunk: bytes | np.ndarray, first: int, fields: Sequence[tuple[str, Kind]]) -> Chunk:
    """Read the requested ``(dotted path, kind)`` fields of every line of a chunk whose first line
    is line number ``first`` (1-based)."""
    return _chunk(chunk, _core.read_json_lines(chunk, list(fields)), first, fields)


def _chunk(data: bytes | np.ndarray, parsed: tuple, first: int, fields: Sequence[tuple[str, Kind]]) -> Chunk:
    lines, starts, ends, bad, cols, tag_names, line_count = parsed
    out: dict[str, Field] = {}
    for (path, _kind), col in zip(fields, cols, strict=True):
        make = {"text": _text_array, "list": _list_array, "number": _number_array}[col[0]]
        out[path] = Field(make(col), np.asarray(col[-1]))
    return Chunk(
        data,
        first,
        np.asarray(lines, dtype=np.int64) + first,
        np.asarray(starts),
        np.asarray(ends),
        [(first + i, msg) for i, msg in bad],
        out,
        tag_names,
        line_count,
    )


def parsed_chunks(
    path: Path, chunk_bytes: int, fields: Sequence[tuple[str, Kind]], *, limit: int | None = None
) -> Iterator[Chunk]:
    """:func:`fields_of` over the whole file, reading and parsing the next chunk in a background
    thread while the caller works on this one (both release the GIL: file reads and the Rust
    parser), so on two cores parsing overlaps scoring. Two chunks are in memory at most. A record
    over ``limit`` bytes (:func:`read_chunks`) is an error naming its line."""
    chunks = read_chunks(path, chunk_bytes, limit=limit)
    wanted = list(fields)

    def job() -> tuple[np.ndarray, tuple] | None:
        data = next(chunks, None)
        return None if data is None else (data, _core.read_json_lines(data, wanted))

    with ThreadPoolExecutor(1, thread_name_prefix="matheval-read") as ex:
        fut = ex.submit(job)
        first = 1
        while True:
            try:
                res = fut.result()
            except RecordTooLongError as exc:
                raise exc.at(first) from None
            if res is None:
                return
            fut = ex.submit(job)
            ch = _chunk(res[0], res[1], first, wanted)
            first += ch.line_count
            yield ch


def bad_line_reason(message: str) -> str:
    """The core's message for a line it could not read, with what to do when the line is not UTF-8
    (serde's "invalid unicode code point" says nothing of the bytes)."""
    if "invalid unicode code point" in message:
        return f"{message} (the line is not UTF-8 text: re-encode the file as UTF-8)"
    return message


def value_at(record: Any, path: str) -> Any:
    """The value at a dotted path of a decoded JSON record (None when absent)."""
    cur = record
    for seg in path.split("."):
        if isinstance(cur, dict):
            cur = cur.get(seg)
        elif isinstance(cur, list) and seg.isdigit() and int(seg) < len(cur):
            cur = cur[int(seg)]
        else:
            return None
    return cur


def exact_numbers(ch: Chunk, path: str) -> tuple[pa.Array, dict[int, Any]]:
    """A text field with its numbers as the file wrote them: the core reads a number as a double
    (``1180591620717411303424`` would be ``1.1805916207174113e+21``), so each number whose text is
    not a plain integer is read again, exactly, from its record. Returns the texts and, by row, the
    exact values read again (ints and floats as Python gives them)."""
    f = ch.fields[path]
    number = ch.tag_names.index("number")
    rows = np.flatnonzero(f.tags == number)
    if not len(rows):
        return f.array, {}
    texts = f.array.take(pa.array(rows)).to_pylist()
    again = [int(r) for r, t in zip(rows, texts, strict=True) if not _INT.fullmatch(t or "")]
    if not again:
        return f.array, {}
    exact: dict[int, Any] = {}
    for r in again:
        rec = json.loads(bytes(ch.data[int(ch.starts[r]) : int(ch.ends[r])]))
        exact[r] = value_at(rec, path)
    values = f.array.to_pylist()
    for r, v in exact.items():
        values[r] = json.dumps(v)
    return pa.array(values, f.array.type), exact


_INT = re.compile(r"-?[0-9]{1,18}")

_WHAT = {"object": "an object", "nested": "a list holding arrays or objects", "string": "a string"}
_WHAT |= {"array": "an array"}


def screen(
    ch: Chunk,
    bad: Callable[[int, str], None],
    texts: Sequence[tuple[str, str]],
    numbers: Sequence[str] = (),
) -> Chunk:
    """The chunk without the records a reader must refuse, each reported through ``bad(line,
    message)``: a text field (``(path, what)``, read as a list of texts) that is absent, or holds an
    object or a list of objects (a structured response such as ``[{"text": ...}]``, whose JSON text
    is no answer to score); a metric (read as a number) that holds a string, array or object (a
    metric of ``"yes"`` would otherwise be read as no score at all, silently)."""
    names = ch.tag_names
    keep = np.ones(len(ch), dtype=bool)
    why: dict[int, str] = {}
    for path, what in texts:
        tags = ch.fields[path].tags
        for k in np.flatnonzero(tags == names.index("missing")):
            why.setdefault(int(k), f"no field {path!r}")
        for tag in ("object", "nested"):
            for k in np.flatnonzero(tags == names.index(tag)):
                why.setdefault(
                    int(k),
                    f"{what} field {path!r} holds {_WHAT[tag]}, expected a string or a list of strings",
                )
    for m in numbers:
        tags = ch.fields[m].tags
        for tag in ("string", "array", "object"):
            for k in np.flatnonzero(tags == names.index(tag)):
                why.setdefault(int(k), f"metric {m!r} holds {_WHAT[tag]}, expected a number or true/false")
    if not why:
        return ch
    for row in sorted(why):
        keep[row] = False
        bad(int(ch.lines[row]), why[row])
    return ch.select(keep)


def numbers_from_text(arr: pa.Array) -> pa.Array:
    """Texts of JSON scalars (``true``, ``false``, ``1.0``) as float64; anything else null."""
    if pa.types.is_large_list(arr.type) or pa.types.is_list(arr.type):
        flat = numbers_from_text(arr.flatten())
        return pa.LargeListArray.from_arrays(
            arr.offsets.cast(pa.int64()), flat, mask=arr.is_null() if arr.null_count else None
        )
    txt = arr.cast(pa.large_string())
    as_bool = pc.if_else(pc.equal(txt, "true"), 1.0, pc.if_else(pc.equal(txt, "false"), 0.0, None))
    numeric = pc.match_substring_regex(txt, r"^-?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$")
    as_num = pc.if_else(numeric, txt, None).cast(pa.float64())
    return pc.coalesce(as_bool, as_num)


class JsonlCopyWriter(CopyWriter):
    """The log as JSON Lines again, each record annotated; the context is the batch's Chunk."""

    def __init__(self, target: Path, prefix: str = "matheval_fast") -> None:
        self.target = Path(target)
        self.target.write_bytes(b"")  # the core appends each batch's lines to it
        self.prefix = prefix

    def close(self, summary: dict[str, Any]) -> None:
        pass

    def write(
        self, context: Any, records: np.ndarray, score: np.ndarray, reason: pa.Array, extracted: pa.Array
    ) -> None:
        chunk: Chunk = context
        # `records` are file-level record indexes; the chunk lists its records in the same order.
        members = [
            (self.prefix, "number", np.ascontiguousarray(score, dtype=np.float64)),
            (f"{self.prefix}_reason", "text", text_column(reason)),
            (f"{self.prefix}_extracted", "text", text_column(extracted)),
        ]
        # Written by the core straight to the file: a big log's copy never passes through Python.
        _core.append_json_members(
            chunk.data,
            np.ascontiguousarray(chunk.starts, dtype=np.uint64),
            np.ascontiguousarray(chunk.ends, dtype=np.uint64),
            members,
            append_to=str(self.target),
        )
