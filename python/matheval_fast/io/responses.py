"""Response files for ``score``: JSON Lines (also gzipped, or ``-`` for stdin), Parquet, and the
seed's JSON array, read in bounded batches into one normalised shape.

Every source yields :class:`ResponseBatch` objects: an Arrow batch with the columns of
:data:`NORMALISED` (then the user's id columns) and the records it refused, each with its 1-based
line (JSON Lines), row (Parquet) or item (JSON array) number and the reason. A record is refused,
never guessed at, when a field holds an object or array where a string is expected; a response
list that is empty or null still gives a row (scored ``no_answer``). Python records (the API's
``score_records``) go through the same JSON Lines reader as files, so both give the same rows.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any

import numpy as np
import pyarrow as pa

from matheval_fast._columns import numeric_array, values_of
from matheval_fast.io.logs.base import arrow_path, as_text
from matheval_fast.io.logs.jsonl import Chunk, bad_line_reason, exact_numbers, fields_of, read_chunks
from matheval_fast.io.text import RecordTooLongError, input_name, load_json
from matheval_fast.io.text import open_input as text_input

__all__ = [
    "JSON_ID",
    "NORMALISED",
    "ResponseBatch",
    "ResponseFields",
    "check_records",
    "id_texts",
    "id_values",
    "json_array_batches",
    "jsonl_batches",
    "load_json_array",
    "needed_columns",
    "normalise_arrow",
    "open_input",
    "open_parquet",
    "parquet_batches",
    "record_batches",
    "source_batches",
    "source_format",
]

_TEXT = pa.large_string()
_TEXTS = pa.large_list(pa.large_string())

#: The normalised columns every source gives, in order (id columns follow, under their own names).
NORMALISED = pa.schema(
    [
        ("line", pa.int64()),
        ("response", _TEXTS),
        ("gold", _TEXT),
        ("type", _TEXT),
        ("subtype", _TEXT),
        ("level", _TEXT),
    ]
)


#: The names a response or gold field commonly has, in the order they are tried when the field was
#: not named and the default (the first) is absent from the first record.
COMMON_FIELD_NAMES: dict[str, tuple[str, ...]] = {
    "response": ("completion", "response", "output", "prediction"),
    "gold": ("answer", "gold", "target", "ground_truth"),
}


@dataclass(frozen=True)
class ResponseFields:
    """Where each value is in a record: dotted paths (``doc.answer``, ``resps.0``). ``ids``: fields
    copied to every output row (integers stay integers, anything else is text). ``guess``: which of
    ``"response"`` and ``"gold"`` were not named by the user: when such a field is absent from the
    first record, :meth:`resolve` takes the first of :data:`COMMON_FIELD_NAMES` that it has."""

    response: str = "completion"
    gold: str = "answer"
    type: str = "type"
    subtype: str = "subtype"
    level: str = "level"
    ids: tuple[str, ...] = ()
    guess: tuple[str, ...] = ()

    def resolve(self, keys: Iterable[str]) -> ResponseFields:
        """These fields for records whose top-level fields are ``keys``: each guessed field that is
        absent becomes the first common name present (and is no longer guessed)."""
        if not self.guess:
            return self
        have = set(keys)
        chosen = {}
        for what in self.guess:
            named = getattr(self, what)
            if named.split(".")[0] not in have:
                found = [n for n in COMMON_FIELD_NAMES[what] if n in have]
                if found:
                    chosen[what] = found[0]
        return replace(self, guess=(), **chosen)

    def __post_init__(self) -> None:
        taken = set(NORMALISED.names) | {"prompt", "extracted", "correct", "reason", "path"}
        for name in self.ids:
            if name in taken:
                raise ValueError(f"id field {name!r} has the name of an output column; rename it")
        if len(set(self.ids)) != len(self.ids):
            raise ValueError(f"id fields repeat: {list(self.ids)}")


@dataclass
class ResponseBatch:
    """A batch of normalised records and the records refused in it: ``(number, reason)``."""

    batch: pa.RecordBatch
    rejected: list[tuple[int, str]] = field(default_factory=list)
    #: Bytes of input this batch consumed (for progress over a file of known size).
    bytes_read: int = 0
    #: What the numbers of ``rejected`` count: ``line`` (JSON Lines), ``item`` (a JSON array or
    #: Python records) or ``row`` (Parquet).
    unit: str = "line"


def open_input(path: str | Path) -> IO[bytes]:
    """The input's bytes: ``-`` is standard input; gzip is recognised by its magic number; a BOM is
    skipped; binary or non-UTF-8 input is an :class:`~matheval_fast.io.text.InputError` naming it
    (:func:`matheval_fast.io.text.open_input`)."""
    return text_input(path)


# ---------------------------------------------------------------------------------------------
# JSON Lines (and Python records, which are written as JSON Lines first)

_STRING_TAGS = ("string", "number", "bool")


def _wanted(fields: ResponseFields) -> list[tuple[str, Any]]:
    return [
        (fields.response, "list"),
        (fields.gold, "text"),
        (fields.type, "text"),
        (fields.subtype, "text"),
        (fields.level, "text"),
        *[(f, "text") for f in fields.ids],
    ]


def _refuse(
    tags: np.ndarray, names: tuple[str, ...], allowed: Iterable[str], what: str, path: str
) -> dict[int, str]:
    """Row position -> reason, for rows whose value at ``path`` has a type not in ``allowed``."""
    ok = np.isin(tags, [names.index(a) for a in allowed if a in names])
    return {
        int(i): f"{what} field {path!r} holds {_a(names[tags[i]])}, expected {_expected(what)}"
        for i in np.flatnonzero(~ok)
    }


def _a(tag: str) -> str:
    return {"object": "an object", "array": "an array", "nested": "a list holding arrays or objects"}.get(
        tag, f"a {tag}"
    )


def _expected(what: str) -> str:
    return "a string or a list of strings" if what == "response" else "a string or a number"


def _bad_line(message: str) -> str:
    """The reason for a line the core could not read: its message says whether the line is not an
    object or not JSON at all (and is never repeated)."""
    return (
        message if message.startswith("not a JSON object") else f"not valid JSON: {bad_line_reason(message)}"
    )


def _normalise_chunk(ch: Chunk, fields: ResponseFields) -> ResponseBatch:
    names = ch.tag_names
    f = ch.fields
    refused: dict[int, str] = {}
    resp = f[fields.response]
    refused.update(
        _refuse(resp.tags, names, ("missing", "null", "array", *_STRING_TAGS), "response", fields.response)
    )
    gold = f[fields.gold]
    no_gold = np.flatnonzero(gold.tags == names.index("missing"))
    refused.update({int(i): f"no gold: no field {fields.gold!r} in this record" for i in no_gold})
    allowed = ("missing", "null", *_STRING_TAGS)
    scalars = (
        ("gold", fields.gold),
        ("type", fields.type),
        ("subtype", fields.subtype),
        ("level", fields.level),
    )
    for what, path in scalars:
        for i, why in _refuse(f[path].tags, names, allowed, what, path).items():
            refused.setdefault(i, why)
    rejected = [(n, _bad_line(m)) for n, m in ch.bad]
    lines = ch.lines
    keep = np.ones(len(lines), dtype=bool)
    if refused:
        pos = np.fromiter(refused, dtype=np.int64)
        keep[pos] = False
        rejected += [(int(lines[i]), refused[i]) for i in sorted(refused)]
    ch2 = ch.select(keep) if refused else ch
    f2 = ch2.fields
    arrays = [
        numeric_array(ch2.lines.astype(np.int64)),
        f2[fields.response].array,
        f2[fields.gold].array,
        f2[fields.type].array,
        f2[fields.subtype].array,
        f2[fields.level].array,
        *[_id_column(ch2, p) for p in fields.ids],
    ]
    batch = pa.RecordBatch.from_arrays(arrays, schema=_schema(fields, arrays))
    rejected.sort()
    return ResponseBatch(batch, rejected, len(ch.data))


def _schema(fields: ResponseFields, arrays: Sequence[pa.Array] = ()) -> pa.Schema:
    """The normalised columns, then the id columns: text, or int64 where ``arrays`` holds one."""
    ids = arrays[len(NORMALISED) :]
    types = [a.type for a in ids] if ids else [_TEXT] * len(fields.ids)
    return pa.schema([*NORMALISED, *zip(fields.ids, types, strict=True)])


#: The type of an id column whose values are of several JSON types (or integers beyond int64):
#: each value's JSON text, so every output keeps it exactly (JSON Lines writes the value itself,
#: Parquet its text, ``score_records`` the Python value). See :func:`id_values`.
JSON_ID = pa.large_binary()


def _id_column(ch: Chunk, path: str) -> pa.Array:
    """An id column as JSON gave it: integers stay integers (int64) when every value present in the
    batch is an integer that fits; strings stay text; any other mix (integers and strings, integers
    beyond int64, decimals, booleans) is a :data:`JSON_ID` column, each value exact and of its own
    type."""
    f = ch.fields[path]
    tags, names = f.tags, ch.tag_names
    number, string = names.index("number"), names.index("string")
    present = ~np.isin(tags, [names.index("missing"), names.index("null")])
    if not present.any() or bool((tags[present] == string).all()):
        return f.array
    text, exact = exact_numbers(ch, path)
    if bool((tags[present] == number).all()) and all(type(v) is int for v in exact.values()):
        try:
            return text.cast(pa.int64())
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):  # beyond int64
            pass
    values = text.to_pylist()
    out = [
        None
        if not present[i]
        else (json.dumps(v, ensure_ascii=False) if tags[i] == string else v).encode("utf-8")
        for i, v in enumerate(values)
    ]
    return pa.array(out, JSON_ID)


def id_values(arr: pa.Array) -> list[Any]:
    """An output id column's values as Python: a :data:`JSON_ID` column's JSON decoded (an int
    beyond int64 stays an exact int, a string a string), any other column as it is."""
    if arr.type != JSON_ID:
        return arr.to_pylist()
    return [None if v is None else json.loads(v) for v in arr.to_pylist()]


def id_texts(arr: pa.Array) -> pa.Array:
    """A :data:`JSON_ID` column as text (strings as they are, numbers as written), for outputs with
    one type per column (Parquet)."""
    vals = id_values(arr)
    return pa.array(
        [v if v is None or isinstance(v, str) else json.dumps(v) for v in vals], pa.large_string()
    )


def _arrow_id(arr: pa.Array) -> pa.Array:
    """An id column of an Arrow input: integer columns as int64, anything else as text."""
    return arr.cast(pa.int64()) if pa.types.is_integer(arr.type) else as_text(arr)


def _check_fields(ch: Chunk, fields: ResponseFields, where: str) -> None:
    """Stop when the first chunk's records have none of the response or gold field: a misspelt
    field name would otherwise score every item ``no_answer``."""
    if len(ch) == 0:
        return
    missing = ch.tag_names.index("missing")
    for what, path, flag in (
        ("response", fields.response, "--response-field"),
        ("gold", fields.gold, "--gold-field"),
    ):
        if bool(np.all(ch.fields[path].tags == missing)):
            keys = sorted(_first_keys(ch))
            raise ValueError(
                f"{where}: no record in the first {len(ch)} has a {what} field {path!r} "
                f"(the first record's fields: {', '.join(keys) or 'none'}); see {flag}"
            )


#: Told which fields were used, once, when fields were guessed (see :meth:`ResponseFields.resolve`).
FieldsChosen = Callable[[ResponseFields], None]


def _resolved(fields: ResponseFields, keys: Iterable[str], chosen: FieldsChosen | None) -> ResponseFields:
    out = fields.resolve(keys)
    if chosen is not None:
        chosen(out)
    return out


def _first_keys(ch: Chunk) -> list[str]:
    """The top-level field names of a chunk's first record."""
    start, end = int(ch.starts[0]), int(ch.ends[0])
    try:
        rec = json.loads(bytes(ch.data[start:end]))
    except (ValueError, TypeError, RecursionError):  # pragma: no cover - the core parsed this record
        return []
    return list(rec) if isinstance(rec, dict) else []


def jsonl_batches(
    path: str | Path,
    fields: ResponseFields,
    *,
    chunk_bytes: int = 16 << 20,
    chosen: FieldsChosen | None = None,
) -> Iterator[ResponseBatch]:
    """JSON Lines from a file (gzipped or not) or ``-`` (stdin), in chunks of whole lines."""
    first = 1
    checked = False
    wanted = _wanted(fields)
    chunks = read_chunks(Path(path), chunk_bytes, opener=open_input)
    while True:
        try:
            data = next(chunks, None)
        except RecordTooLongError as exc:
            raise exc.at(first) from None  # the line after those read
        if data is None:
            return
        ch = fields_of(data, first, wanted)
        if not checked and len(ch) and fields.guess:
            fields = _resolved(fields, _first_keys(ch), chosen)
            wanted = _wanted(fields)
            ch = fields_of(data, first, wanted)
        first += ch.line_count
        if not checked:
            _check_fields(ch, fields, "stdin" if str(path) == "-" else str(path))
            checked = len(ch) > 0
        yield _normalise_chunk(ch, fields)


def record_batches(
    records: Sequence[Any],
    fields: ResponseFields,
    *,
    batch_rows: int = 65_536,
    where: str = "records",
    chosen: FieldsChosen | None = None,
) -> Iterator[ResponseBatch]:
    """Python records (dicts) through the JSON Lines reader, so the API and the files agree; a
    refused record is numbered by its 1-based position (``item N``)."""
    check_records(records, where)
    if fields.guess:
        head = next((r for r in records if isinstance(r, dict)), {})
        fields = _resolved(fields, head, chosen)
    first = 1
    checked = False
    wanted = _wanted(fields)
    for start in range(0, len(records), batch_rows):
        lines = []
        unwritable = []
        for k, rec in enumerate(records[start : start + batch_rows]):
            try:
                lines.append(json.dumps(rec, ensure_ascii=False, allow_nan=False))
            except (TypeError, ValueError, RecursionError) as exc:
                # A blank line keeps the numbering; the record is reported with the reason.
                lines.append("")
                why = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
                unwritable.append((first + k, f"not JSON data: {why}"))
        data = ("\n".join(lines) + "\n").encode("utf-8")
        ch = fields_of(data, first, wanted)
        first += ch.line_count
        if not checked:
            _check_fields(ch, fields, where)
            checked = len(ch) > 0
        out = _normalise_chunk(ch, fields)
        out.rejected = sorted(out.rejected + unwritable)
        out.unit = "item"
        yield out


def check_records(records: Any, where: str = "records") -> None:
    """A ``TypeError`` unless ``records`` is a sequence of records: a list (or tuple, ...) of dicts.
    A string, bytes, a dict, a DataFrame or None would otherwise be read element by element (a
    string's characters as records) or fail deep inside."""
    ok = isinstance(records, Sequence) and not isinstance(records, (str, bytes, bytearray))
    if ok or (isinstance(records, np.ndarray) and records.ndim == 1):
        return
    kind = type(records).__name__
    hint = ""
    if hasattr(records, "to_dict") and hasattr(records, "columns"):
        hint = " (for a DataFrame: df.to_dict('records'))"
    elif isinstance(records, dict):
        hint = " (for one record: [record])"
    raise TypeError(f"{where}: expected a sequence of records (dicts), e.g. a list; got {kind}{hint}")


def json_array_batches(
    path: str | Path, fields: ResponseFields, *, batch_rows: int = 65_536, chosen: FieldsChosen | None = None
) -> Iterator[ResponseBatch]:
    """The seed's format: one JSON array of items (read whole: such files are small)."""
    yield from record_batches(
        load_json_array(path), fields, batch_rows=batch_rows, where=str(path), chosen=chosen
    )


def load_json_array(path: str | Path) -> list[Any]:
    """A file holding one JSON array, with one clear ``ValueError`` for anything else."""
    data = load_json(path)
    if not isinstance(data, list):
        raise ValueError(f"{input_name(path)}: expected a JSON array of items (or use .jsonl for JSON Lines)")
    return data


# ---------------------------------------------------------------------------------------------
# Parquet


def _texts(arr: pa.Array, path: str) -> pa.Array:
    """A response column as lists of texts: a string column becomes lists of one (null stays)."""
    t = arr.type
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        s = arr.cast(_TEXT)
        offsets = numeric_array(np.arange(len(s) + 1, dtype=np.int64))
        return pa.LargeListArray.from_arrays(offsets, s, mask=s.is_null() if s.null_count else None)
    if (pa.types.is_list(t) or pa.types.is_large_list(t)) and (
        pa.types.is_string(t.value_type)
        or pa.types.is_large_string(t.value_type)
        or pa.types.is_null(t.value_type)
    ):
        return arr.cast(_TEXTS)
    if pa.types.is_null(t):
        return pa.nulls(len(arr), _TEXTS)
    raise ValueError(f"response column {path!r} has type {t}; expected a string or a list of strings")


def _scalar_text(arr: pa.Array | None, n: int, what: str, path: str) -> pa.Array:
    if arr is None:
        return pa.nulls(n, _TEXT)
    t = arr.type
    if pa.types.is_nested(t):
        raise ValueError(f"{what} column {path!r} has type {t}; expected a string or a number")
    return as_text(arr)


def open_parquet(path: str | Path) -> Any:
    """``pyarrow.parquet.ParquetFile(path)``; a file that is not Parquet (or is cut short) is a
    ``ValueError`` that names it, not pyarrow's "magic bytes not found" alone."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        return pq.ParquetFile(path)
    except (pa.ArrowException, OSError) as exc:
        raise ValueError(
            f"{path}: not a readable Parquet file ({exc}); check the file, or name a JSON Lines file .jsonl"
        ) from None


def parquet_batches(
    path: str | Path, fields: ResponseFields, *, batch_rows: int = 65_536, chosen: FieldsChosen | None = None
) -> Iterator[ResponseBatch]:
    """Parquet in row batches, only the needed columns read. Column types are checked up front:
    a column of the wrong type stops the run before any work (Parquet has one type per column)."""
    pf = open_parquet(path)
    schema = pf.schema_arrow
    if fields.guess:
        fields = _resolved(fields, schema.names, chosen)
    for what, p in (("response", fields.response), ("gold", fields.gold)):
        top = p.split(".")[0]
        if top not in schema.names:
            flag = f"--{what}-field"
            raise ValueError(
                f"{path}: no column {top!r} for the {what} (columns: {', '.join(schema.names)}); see {flag}"
            )
    for p in fields.ids:
        if p.split(".")[0] not in schema.names:
            raise ValueError(f"{path}: no column {p.split('.')[0]!r} for id field {p!r}")
    tops = needed_columns(fields, schema.names)
    row = 1
    for b in pf.iter_batches(batch_size=batch_rows, columns=tops):
        yield ResponseBatch(normalise_arrow(b, fields, first_row=row), [], 0)
        row += b.num_rows


def needed_columns(fields: ResponseFields, names: Sequence[str]) -> list[str]:
    """The top-level columns the fields read (only these are read from Parquet)."""
    paths = [fields.response, fields.gold, fields.type, fields.subtype, fields.level, *fields.ids]
    return sorted({p.split(".")[0] for p in paths} & set(names))


def normalise_arrow(
    b: pa.RecordBatch | pa.Table, fields: ResponseFields, *, first_row: int | None = 1
) -> pa.RecordBatch:
    """A batch of any Arrow layout in the normalised shape (``line``: row numbers from
    ``first_row``, or null when rows have no global number, as in a distributed read). A column of
    the wrong type is a ``ValueError`` naming it (Arrow columns have one type each)."""
    if isinstance(b, pa.Table):
        b = (
            b.combine_chunks().to_batches()[0]
            if b.num_rows
            else pa.RecordBatch.from_pylist([], schema=b.schema)
        )
    n = b.num_rows
    resp = arrow_path(b, fields.response)
    gold = arrow_path(b, fields.gold)
    if resp is None or gold is None:
        missing = fields.response if resp is None else fields.gold
        raise ValueError(f"field {missing!r} not found (columns: {', '.join(b.schema.names)})")
    line = (
        pa.nulls(n, pa.int64())
        if first_row is None
        else numeric_array(np.arange(first_row, first_row + n, dtype=np.int64))
    )
    arrays = [
        line,
        _texts(resp, fields.response),
        _scalar_text(gold, n, "gold", fields.gold),
        _scalar_text(arrow_path(b, fields.type), n, "type", fields.type),
        _scalar_text(arrow_path(b, fields.subtype), n, "subtype", fields.subtype),
        _scalar_text(arrow_path(b, fields.level), n, "level", fields.level),
        *[_arrow_id(_column(b, p)) for p in fields.ids],
    ]
    return pa.RecordBatch.from_arrays(arrays, schema=_schema(fields, arrays))


def _column(b: pa.RecordBatch, path: str) -> pa.Array:
    arr = arrow_path(b, path)
    return pa.nulls(b.num_rows, _TEXT) if arr is None else arr


# ---------------------------------------------------------------------------------------------


def source_batches(
    path: str | Path,
    fields: ResponseFields,
    *,
    input_format: str | None = None,
    batch_rows: int = 65_536,
    chosen: FieldsChosen | None = None,
) -> Iterator[ResponseBatch]:
    """The batches of a response file, its format from ``input_format`` or the name
    (``.parquet``; ``.jsonl``/``.jsonl.gz``/``-``; ``.json``: a JSON array, or JSON Lines when the
    first character is not ``[``). With guessed fields, ``chosen`` is told the fields used, once,
    when the first records are read."""
    fmt = input_format or source_format(path)
    if fmt == "parquet":
        return parquet_batches(path, fields, batch_rows=batch_rows, chosen=chosen)
    if fmt == "json":
        return json_array_batches(path, fields, batch_rows=batch_rows, chosen=chosen)
    if fmt == "jsonl":
        return _rebatch(jsonl_batches(path, fields, chosen=chosen), batch_rows)
    raise ValueError(f"unknown input format {fmt!r}: use jsonl, json or parquet")


def _rebatch(batches: Iterator[ResponseBatch], batch_rows: int) -> Iterator[ResponseBatch]:
    """Batches of at most ``batch_rows`` records (a chunk of lines holds as many as fit in its
    bytes); each refused record goes with the slice its line falls in."""
    for rb in batches:
        n = rb.batch.num_rows
        if n <= batch_rows:
            yield rb
            continue
        lines = values_of(rb.batch.column(0))
        rejected = sorted(rb.rejected)
        r = 0
        for start in range(0, n, batch_rows):
            part = rb.batch.slice(start, batch_rows)
            last = int(lines[min(start + batch_rows, n) - 1])
            end = n <= start + batch_rows
            mine = []
            while r < len(rejected) and (end or rejected[r][0] < last):
                mine.append(rejected[r])
                r += 1
            yield ResponseBatch(part, mine, rb.bytes_read if end else 0)


def source_format(path: str | Path) -> str:
    """``parquet``, ``jsonl`` or ``json`` (an array), from the name, else the first character."""
    name = str(path).lower()
    if name == "-":
        return "jsonl"
    if name.endswith(".parquet"):
        return "parquet"
    if name.endswith((".jsonl", ".jsonl.gz", ".ndjson", ".ndjson.gz")):
        return "jsonl"
    with text_input(path, allow=("a Parquet file",)) as fh:
        head = fh.read(4096)
    if head.startswith(b"PAR1"):
        return "parquet"
    return "json" if head.lstrip().startswith(b"[") else "jsonl"
