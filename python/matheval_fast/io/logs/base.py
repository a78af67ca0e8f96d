"""The reader interface and the normalised schema every log reader emits.

A reader turns one log file into a stream of :class:`LogBatch` (a ``pyarrow.RecordBatch`` with
the columns of :data:`SCHEMA`, then one ``metric:<name>`` float column per metric the log
holds, then the pass-through id columns the caller asked for, under the names asked). Batches
never split a record: all samples (and gold alternatives) of one record sit in one batch, in
order, so per-record views (pass@k, majority) need no state across batches.

Columns of :data:`SCHEMA`:

``task``, ``filter``, ``model``
    where the record comes from (``filter`` is lm-eval's filter or the seed's prompt, else null).
``id``, ``record``, ``position``
    the framework's item id as text, the 0-based record index in the file, and where it is (a
    1-based line for text files, the 0-based row for Parquet; :attr:`LogReader.position_unit`).
``sample``, ``n_samples``, ``gold_alt``
    which sample of the record this row holds (0-based) and how many the record has; which of
    several acceptable golds this row compares with (rows of one sample differing only in
    ``gold_alt`` are alternatives: the sample is correct if any is).
``response``, ``gold``, ``gold_rule``
    the texts to score. Golds that are worked solutions are already reduced to their answer
    (``solution\\n#### 18`` to ``18``, a MATH solution to its last ``\\boxed{}``); ``gold_rule``
    names the rule that did it (``VOCABULARY["gold_rule"]``; ``unreduced``: a solution with no
    answer to take, kept whole, which the checker calls ``gold_unparseable``).
``fw_score``, ``fw_extracted``
    the framework's own score for this row (its primary metric, per sample where the log keeps
    one) and the answer it extracted, when the log says.
"""

from __future__ import annotations

import abc
import io
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, ClassVar, Literal

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from matheval_fast import _core
from matheval_fast._columns import text_column, values_of
from matheval_fast.io.text import max_record_bytes, open_input

__all__ = [
    "SCHEMA",
    "CopyWriter",
    "LogBatch",
    "LogFormatError",
    "LogReader",
    "MalformedRecord",
    "MalformedRecordError",
    "ReadOptions",
    "explode_samples",
    "gold_answer",
    "gold_answers",
    "open_binary",
]

SCHEMA = pa.schema(
    [
        ("task", pa.string()),
        ("filter", pa.string()),
        ("model", pa.string()),
        ("id", pa.string()),
        ("record", pa.int64()),
        ("position", pa.int64()),
        ("sample", pa.int32()),
        ("n_samples", pa.int32()),
        ("gold_alt", pa.int32()),
        ("response", pa.large_string()),
        ("gold", pa.large_string()),
        ("gold_rule", pa.string()),
        # The gold as the log wrote it, before the gold rule (the report shows both).
        ("gold_written", pa.large_string()),
        ("fw_score", pa.float64()),
        ("fw_extracted", pa.large_string()),
    ]
)

#: Prefix of the per-metric columns (``metric:exact_match``).
METRIC_PREFIX = "metric:"


class LogFormatError(ValueError):
    """A file is not (or not readable as) the log format asked for or detected."""


class MalformedRecordError(ValueError):
    """A malformed record under ``strict=True``; the message names file and position."""


@dataclass(frozen=True)
class MalformedRecord:
    """A record that could not be read: reported, counted, and left out of the scores."""

    file: str
    position: int
    unit: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.unit} {self.position}: {self.message}"


@dataclass(frozen=True)
class ReadOptions:
    """What to read from a log.

    ``samples``: ``"first"`` scores each record's first sample, ``"all"`` every sample (one row
    each). ``response_field`` / ``gold_field``: dotted paths (``doc.answer``) overriding the
    format's defaults. ``id_fields``: dotted paths copied to every output under their own name.
    ``metric``: the framework metric taken as its verdict (default: the format's first).
    ``task`` / ``model``: override what the file name and folders say. ``strict``: stop at the
    first malformed record. ``chunk_bytes``: how much of a text file is read per batch.
    """

    samples: Literal["first", "all"] = "first"
    response_field: str | None = None
    gold_field: str | None = None
    id_fields: tuple[str, ...] = ()
    metric: str | None = None
    task: str | None = None
    model: str | None = None
    strict: bool = False
    chunk_bytes: int = 32 << 20
    batch_rows: int = 65_536


@dataclass
class LogBatch:
    """One batch of the normalised schema plus what the reader's copy writer needs."""

    batch: pa.RecordBatch
    context: Any = None


class CopyWriter(abc.ABC):
    """Writes a rescored copy of a log in its own format, one batch at a time.

    ``write(context, annotations)`` gets the batch's context and, per record of the batch (in
    record order), ``score`` (float, NaN = none), ``reason`` and ``extracted`` (Arrow string
    arrays, null = none).
    ``close()`` finishes the file; the caller wraps the whole in an atomic rename.
    """

    @abc.abstractmethod
    def write(
        self, context: Any, records: np.ndarray, score: np.ndarray, reason: pa.Array, extracted: pa.Array
    ) -> None:
        """Annotate the records ``records`` (indexes into the file) of one batch."""

    def close(self, summary: dict[str, Any]) -> None:  # noqa: B027 - optional hook
        """Finish the file; ``summary`` has the run's totals for formats with a header."""


class LogReader(abc.ABC):
    """One log file in one format. Subclasses set :attr:`format` and implement the rest."""

    #: The ``--format`` name.
    format: ClassVar[str]
    #: One line saying what the format is.
    description: ClassVar[str]
    #: ``"line"`` (1-based, text files), ``"row"`` (0-based, Parquet) or ``"item"`` (0-based
    #: element of a JSON document).
    position_unit: ClassVar[str] = "line"
    #: Keep this many malformed records with their message (all are counted).
    KEEP_MALFORMED: ClassVar[int] = 1000

    def __init__(self, path: str | os.PathLike[str], options: ReadOptions | None = None) -> None:
        self.path = Path(path)
        self.options = options or ReadOptions()
        self.malformed: list[MalformedRecord] = []
        self.malformed_count = 0
        #: What the reader found: layout, metrics, primary metric, task, model, notes.
        self.info: dict[str, Any] = {"format": self.format}

    @classmethod
    @abc.abstractmethod
    def sniff(cls, path: Path, head: bytes) -> str | None:
        """``None`` if the file looks like this format, else why not (one short sentence)."""

    @abc.abstractmethod
    def batches(self) -> Iterator[LogBatch]:
        """The file as normalised batches (streaming, bounded memory)."""

    def copy_writer(self, target: Path) -> CopyWriter | None:
        """A writer of the rescored copy at ``target``, or None where no copy is natural."""
        return None

    def copy_name(self) -> str:
        return self.path.name

    def bad(self, position: int, message: str) -> None:
        """Report a malformed record (raises under ``strict``)."""
        rec = MalformedRecord(str(self.path), position, self.position_unit, message)
        if self.options.strict:
            raise MalformedRecordError(str(rec))
        self.malformed_count += 1
        if len(self.malformed) < self.KEEP_MALFORMED:
            self.malformed.append(rec)


# ---------------------------------------------------------------------------------------------
# Helpers shared by the readers


def open_binary(path: Path) -> IO[bytes]:
    """The file's bytes, gunzipped when it is gzip (by magic number, whatever its name), a UTF-8
    byte-order mark skipped; binary or non-UTF-8 text is an
    :class:`~matheval_fast.io.text.InputError` (Parquet excepted: lighteval's logs are Parquet).
    See :func:`matheval_fast.io.text.open_input`."""
    return open_input(path, allow=("a Parquet file",))


def read_head(path: Path, n: int = 1 << 16) -> bytes:
    """The first ``n`` bytes of a log, and on to the end of its first non-blank line: a format is
    recognised from its first record, however long (a long chain of thought is over 64 KiB), up to
    the record size limit (:func:`~matheval_fast.io.text.max_record_bytes`)."""
    limit = max_record_bytes()
    with open_binary(path) as fh:
        head = fh.read(n)
        if not head.lstrip().removeprefix(b"\xef\xbb\xbf").startswith(b"{"):
            return head  # Parquet, a JSON array (read as a stream by its reader): the head is enough
        while len(head) < limit + n and b"\n" not in head.lstrip():
            more = fh.read(max(n, len(head)))
            if not more:
                break
            head += more
        return head


def has_path(record: Any, path: str) -> bool:
    """Does ``record`` (a decoded JSON value) have a value at the dotted ``path`` (``resps.0``)?"""
    cur = record
    for seg in path.split("."):
        if isinstance(cur, dict) and seg in cur:
            cur = cur[seg]
        elif isinstance(cur, list) and seg.isdigit() and int(seg) < len(cur):
            cur = cur[int(seg)]
        else:
            return False
    return True


def require_fields(where: Path, first: Any, named: dict[str, str | None], unit: str = "record") -> None:
    """Stop before any work when a field the user named (``{"--response-field": path}``) is not in
    the first record: a misspelt name would otherwise read every record as malformed (0 items)."""
    for flag, path in named.items():
        if path and not has_path(first, path):
            keys = ", ".join(list(first)[:12]) if isinstance(first, dict) else "none"
            raise ValueError(
                f"{where}: the first {unit} has no field {path!r} (its fields: {keys}); check {flag}"
            )


def first_line(head: bytes) -> bytes:
    for line in head.splitlines():
        if line.strip():
            return line.strip().removeprefix(b"\xef\xbb\xbf")
    return b""


#: The gold rules' names, by the code the core returns (``VOCABULARY["gold_rule"]``).
GOLD_RULES: tuple[str, ...] = _core.VOCABULARY["gold_rule"]


def gold_answers(gold: pa.Array) -> tuple[pa.Array, pa.Array]:
    """Golds reduced to their answers, and the rule used for each (``rust/gold.rs``).

    A worked solution gives its last ``\\boxed{}`` / ``\\fbox{}``, else its ``#### n`` line
    (GSM8K), else its closing "The answer is ..." sentence; any other gold is its own answer
    (``as_written``). A solution with none of them stays whole (``unreduced``). Fixed mode applies
    the same rule inside the checker; doing it here gives xwin mode (which compares golds as
    written) the answer, and the outputs show the answer rather than the solution.
    """
    if isinstance(gold, pa.ChunkedArray):
        gold = gold.combine_chunks()
    gold = gold.cast(pa.large_string())
    if len(gold) == 0:
        return gold, pa.array([], pa.string())
    new_off, new_data, codes, changed = _core.gold_answers(text_column(gold))
    rules = pa.DictionaryArray.from_arrays(
        pa.array(codes, pa.int8()), pa.array(GOLD_RULES, pa.string())
    ).cast(pa.string())
    if not changed:
        return gold, rules
    # The validity bitmap, realigned to start at bit 0 like the new offsets.
    valid = pc.is_valid(gold).buffers()[1] if gold.null_count else None
    out = pa.Array.from_buffers(
        pa.large_string(),
        len(gold),
        [valid, pa.py_buffer(new_off), pa.py_buffer(new_data)],
        null_count=gold.null_count,
    )
    return out, rules


def gold_answer(gold: pa.Array) -> pa.Array:
    """The golds of :func:`gold_answers`, without the rules."""
    return gold_answers(gold)[0]


def _lengths(lists: pa.Array) -> np.ndarray:
    """Per-row list lengths, 0 for null."""
    lens = pc.list_value_length(lists).fill_null(0)
    return values_of(lens, np.int32 if lens.type == pa.int32() else np.int64).astype(np.int64)


def element_indices(lists: pa.Array, rows: np.ndarray, k: np.ndarray) -> pa.Array:
    """Indices into ``lists.flatten()`` of element ``k[i]`` of list ``rows[i]`` (null when absent)."""
    if isinstance(lists, pa.ChunkedArray):
        lists = lists.combine_chunks()
    offsets = np.asarray(lists.offsets.to_numpy(zero_copy_only=False), dtype=np.int64)
    # .offsets of a sliced array are relative to its own start; flatten() starts at offsets[0].
    base = offsets[0]
    lens = _lengths(lists)
    ok = k < lens[rows]
    idx = offsets[rows] - base + k
    return pa.array(np.where(ok, idx, 0), type=pa.int64(), mask=~ok)


def _is_identity(rows: np.ndarray, n: int) -> bool:
    """Are ``rows`` exactly ``0..n`` (every record once, in order)? Then a take is the array itself."""
    return len(rows) == n and (n == 0 or (rows[0] == 0 and bool((np.diff(rows) == 1).all())))


def take_rows(arr: pa.Array, rows: np.ndarray) -> pa.Array:
    """``arr.take(rows)``, without copying when ``rows`` is every row in order (the common case)."""
    return arr if _is_identity(rows, len(arr)) else arr.take(pa.array(rows))


def take_elements(lists: pa.Array, rows: np.ndarray, k: np.ndarray) -> pa.Array:
    """Element ``k[i]`` of list ``rows[i]`` for every i (null when the list is shorter or null)."""
    if isinstance(lists, pa.ChunkedArray):
        lists = lists.combine_chunks()
    if not (pa.types.is_list(lists.type) or pa.types.is_large_list(lists.type)):
        # A scalar where a list was expected: it is its own first (and only) element.
        ok = k == 0
        vals = take_rows(lists, rows)
        return vals if ok.all() else pc.if_else(pa.array(ok), vals, pa.nulls(len(rows), vals.type))
    if lists.null_count == 0 and not k.any() and _is_identity(rows, len(lists)):
        if (_lengths(lists) == 1).all():  # one element per list: the values themselves, no copy
            return lists.flatten()
    return lists.flatten().take(element_indices(lists, rows, k))


def explode_samples(lists: pa.Array, samples: Literal["first", "all"]) -> tuple[np.ndarray, np.ndarray]:
    """Rows for the samples of each record: ``(record index, sample index)`` arrays.

    ``first``: one row per record (sample 0). ``all``: one row per sample; a record with no
    sample (empty or null list) still gets one row, whose response is null (``no_answer``).
    """
    n = len(lists)
    if samples == "first" or not (pa.types.is_list(lists.type) or pa.types.is_large_list(lists.type)):
        return np.arange(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    lens = np.maximum(_lengths(lists), 1)
    rec = np.repeat(np.arange(n, dtype=np.int64), lens)
    starts = np.cumsum(lens) - lens
    k = np.arange(len(rec), dtype=np.int64) - np.repeat(starts, lens)
    return rec, k


def list_lengths(lists: pa.Array) -> np.ndarray:
    if not (pa.types.is_list(lists.type) or pa.types.is_large_list(lists.type)):
        return np.ones(len(lists), dtype=np.int64)
    return _lengths(lists)


def as_text(arr: pa.Array) -> pa.Array:
    """Any scalar column as large_string (numbers as their decimal text), nulls kept."""
    if pa.types.is_large_string(arr.type):
        return arr
    if pa.types.is_null(arr.type):
        return pa.nulls(len(arr), pa.large_string())
    if pa.types.is_string(arr.type) or pa.types.is_integer(arr.type) or pa.types.is_boolean(arr.type):
        return arr.cast(pa.large_string())
    if pa.types.is_floating(arr.type):
        return pa.array([None if v is None else repr(v) for v in arr.to_pylist()], pa.large_string())
    # Nested values: their Python repr would be a lie about the text; JSON is what the log held.
    import json

    return pa.array(
        [None if v is None else json.dumps(v, ensure_ascii=False) for v in arr.to_pylist()], pa.large_string()
    )


def arrow_path(table: pa.RecordBatch | pa.StructArray, path: str) -> pa.Array | None:
    """The column at a dotted path in a batch with struct and list columns, or None if absent.

    Segments of digits index lists (``choices.0``); others name struct fields.
    """
    cur: Any = table
    for i, seg in enumerate(path.split(".")):
        if i == 0:
            names = cur.schema.names
            if seg not in names:
                return None
            cur = cur.column(names.index(seg))
            continue
        if isinstance(cur, pa.ChunkedArray):
            cur = cur.combine_chunks()
        t = cur.type
        if pa.types.is_struct(t):
            idx = t.get_field_index(seg)
            if idx < 0:
                return None
            cur = pc.struct_field(cur, [idx])
        elif (pa.types.is_list(t) or pa.types.is_large_list(t)) and seg.isdigit():
            k = int(seg)
            rows = np.arange(len(cur), dtype=np.int64)
            cur = take_elements(cur, rows, np.full(len(cur), k, dtype=np.int64))
        else:
            return None
    return cur


def empty_batch(extra: Sequence[pa.Field] = ()) -> pa.RecordBatch:
    schema = pa.schema([*SCHEMA, *extra])
    return pa.RecordBatch.from_pylist([], schema=schema)


@dataclass
class Columns:
    """Per-record columns a reader gathered; :func:`build_batch` turns them into rows."""

    n: int
    task: str | None
    model: str | None
    ids: pa.Array
    record: np.ndarray
    position: np.ndarray
    responses: pa.Array  # list<str> (samples) or str
    golds: pa.Array  # list<str> (alternatives) or str
    filter: pa.Array | None = None
    fw_score: pa.Array | None = None  # per record (float) or per sample (list<float>)
    fw_extracted: pa.Array | None = None  # per record (str) or per sample (list<str>)
    metrics: dict[str, pa.Array] = field(default_factory=dict)
    passthrough: dict[str, pa.Array] = field(default_factory=dict)


def _per_row(values: pa.Array | None, rec: np.ndarray, k: np.ndarray, typ: pa.DataType) -> pa.Array:
    if values is None:
        return pa.nulls(len(rec), typ)
    if pa.types.is_list(values.type) or pa.types.is_large_list(values.type):
        out = take_elements(values, rec, k)
    else:
        out = take_rows(values, rec)
    if typ == pa.large_string():
        return as_text(out)
    return out.cast(typ)


def _no_extraction_if_whole(extracted: pa.Array, response: pa.Array) -> pa.Array:
    """An "extracted answer" that is the whole response (lm-eval's filter ``none``) is no
    extraction: the framework decided inside its metric, and the log does not say on what."""
    if extracted.null_count == len(extracted):
        return extracted
    same = pc.fill_null(pc.equal(extracted, response), False)
    if not pc.any(same).as_py():
        return extracted
    return pc.if_else(same, pa.nulls(len(extracted), extracted.type), extracted)


def build_batch(c: Columns, samples: Literal["first", "all"]) -> pa.RecordBatch:
    """Rows of the normalised schema from per-record columns (samples and golds exploded)."""
    rec, k = explode_samples(c.responses, samples)
    n_samples = list_lengths(c.responses)
    response = _per_row(c.responses, rec, k, pa.large_string())
    # Gold alternatives: one row per acceptable gold, for every sample row.
    gl = c.golds
    if (pa.types.is_list(gl.type) or pa.types.is_large_list(gl.type)) and gl.null_count == 0:
        if (list_lengths(gl) == 1).all():
            gl = gl.flatten()  # one gold per record: the common case, no alternatives
    if pa.types.is_list(gl.type) or pa.types.is_large_list(gl.type):
        glen = np.maximum(list_lengths(gl), 1)[rec]
        row = np.repeat(np.arange(len(rec), dtype=np.int64), glen)
        starts = np.cumsum(glen) - glen
        alt = np.arange(len(row), dtype=np.int64) - np.repeat(starts, glen)
        gold = take_elements(gl, rec[row], alt)
        rec, k, response = rec[row], k[row], response.take(pa.array(row))
    else:
        alt = np.zeros(len(rec), dtype=np.int64)
        gold = take_rows(gl, rec)
    written = as_text(gold)
    gold, gold_rule = gold_answers(written)
    cols: dict[str, pa.Array] = {
        "task": pa.repeat(pa.scalar(c.task, pa.string()), len(rec)),
        "filter": (
            pa.nulls(len(rec), pa.string())
            if c.filter is None
            else as_text(take_rows(c.filter, rec)).cast(pa.string())
        ),
        "model": pa.repeat(pa.scalar(c.model, pa.string()), len(rec)),
        "id": as_text(take_rows(c.ids, rec)).cast(pa.string()),
        "record": pa.array(c.record[rec], pa.int64()),
        "position": pa.array(c.position[rec], pa.int64()),
        "sample": pa.array(k, pa.int32()),
        "n_samples": pa.array(n_samples[rec], pa.int32()),
        "gold_alt": pa.array(alt, pa.int32()),
        "response": response,
        "gold": gold,
        "gold_rule": gold_rule,
        "gold_written": written.cast(pa.large_string()),
        "fw_score": _per_row(c.fw_score, rec, k, pa.float64()),
        "fw_extracted": _no_extraction_if_whole(
            _per_row(c.fw_extracted, rec, k, pa.large_string()), response
        ),
    }
    for name, arr in c.metrics.items():
        cols[METRIC_PREFIX + name] = _per_row(arr, rec, k, pa.float64())
    for name, arr in c.passthrough.items():
        if name in cols:
            raise ValueError(f"id field {name!r} clashes with an output column of the same name")
        cols[name] = take_rows(arr, rec)
    return pa.RecordBatch.from_pydict(cols)


def text_reader(data: bytes) -> io.TextIOWrapper:
    return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
