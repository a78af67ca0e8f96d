"""Opening a text input, the same way for every command: gzip, a UTF-8 byte-order mark, binary
and non-UTF-8 input, a bound on one record's size, and errors that name the file and line.

Every reader of JSON Lines or JSON (``score``, the log readers of ``rescore`` / ``compare``,
``judge``, ``consistency``, ``unanswerable``) opens its input with :func:`open_input`:

- gzip is recognised by its magic number (whatever the name); a truncated or corrupt stream is an
  :class:`InputError` naming the file, not an ``EOFError`` traceback;
- a UTF-8 byte-order mark is skipped;
- the first :data:`HEAD_BYTES` are checked before any record is read: binary data (a NUL byte, a
  PNG, Parquet, a zip...), UTF-16/UTF-32 and bytes that are not UTF-8 stop the run with an
  :class:`InputError` that says what the file seems to be and what to do, rather than every
  "line" rejected one by one;
- a record (a line) longer than :data:`MAX_RECORD_BYTES` is an :class:`InputError` naming its
  line (a stream without newlines is never buffered without limit).

:class:`InputError` is a ``ValueError``: the command line prints it as one line and exits 2.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import sys
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

__all__ = [
    "HEAD_BYTES",
    "MAX_RECORD_BYTES",
    "InputError",
    "RecordTooLongError",
    "decode_line",
    "describe_binary",
    "input_name",
    "iter_json_lines",
    "iter_lines",
    "load_json",
    "max_record_bytes",
    "open_input",
    "same_file_key",
    "too_long",
]

#: How much of an input is checked for binary / non-UTF-8 content before any record is read.
HEAD_BYTES = 1 << 16

#: The longest record (line) read, by default: 64 MiB. A longer one stops the run with an error
#: naming its line. Raise it with the environment variable ``MATHEVAL_FAST_MAX_RECORD_BYTES``.
MAX_RECORD_BYTES = 64 << 20

_ENV_LIMIT = "MATHEVAL_FAST_MAX_RECORD_BYTES"
_BOM = b"\xef\xbb\xbf"
# What a file that is not text is, by its first bytes (checked after gunzipping).
_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"PAR1", "a Parquet file"),
    (b"\x89PNG", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"%PDF", "a PDF document"),
    (b"PK\x03\x04", "a zip archive"),
    (b"\x7fELF", "an executable"),
    (b"SQLite format 3\x00", "an SQLite database"),
    (b"BZh", "bzip2 data"),
    (b"\xfd7zXZ\x00", "xz data"),
    (b"\x28\xb5\x2f\xfd", "zstd data"),
    (b"ARROW1", "an Arrow file"),
)
_UTF16_32 = (
    (b"\xff\xfe\x00\x00", "UTF-32"),
    (b"\x00\x00\xfe\xff", "UTF-32"),
    (b"\xff\xfe", "UTF-16"),
    (b"\xfe\xff", "UTF-16"),
)


class InputError(ValueError):
    """An input that cannot be read as text: the message names the file (and line) and says what
    to do."""


def max_record_bytes() -> int:
    """The record size limit: ``MATHEVAL_FAST_MAX_RECORD_BYTES`` when set, else
    :data:`MAX_RECORD_BYTES`."""
    raw = os.environ.get(_ENV_LIMIT)
    if raw is None or not raw.strip():
        return MAX_RECORD_BYTES
    try:
        n = int(raw)
    except ValueError:
        raise InputError(f"{_ENV_LIMIT}={raw!r}: expected a whole number of bytes") from None
    if n < 1:
        raise InputError(f"{_ENV_LIMIT}={raw!r}: must be at least 1")
    return n


def input_name(path: str | os.PathLike[str]) -> str:
    """How messages name an input: ``stdin`` for ``-``, else the path as given."""
    return "stdin" if str(path) == "-" else str(path)


def _utf16_guess(head: bytes) -> str | None:
    """UTF-16/32 without a byte-order mark: ASCII text in them has a NUL in every other byte."""
    sample = head[:512]
    if len(sample) < 4:
        return None
    even, odd = sample[0::2], sample[1::2]
    if odd.count(0) > 0.8 * len(odd) and even.count(0) < 0.2 * len(even):
        return "UTF-16 (little-endian)"
    if even.count(0) > 0.8 * len(even) and odd.count(0) < 0.2 * len(odd):
        return "UTF-16 (big-endian)"
    return None


def describe_binary(head: bytes, *, allow: tuple[str, ...] = ()) -> str | None:
    """Why ``head`` (an input's first bytes, gunzipped) is not UTF-8 text, or None when it is.

    ``allow``: descriptions of :data:`_MAGIC` the caller reads itself (``"a Parquet file"``)."""
    for bom, name in _UTF16_32:
        if head.startswith(bom):
            return (
                f"{name} text (byte-order mark {bom.hex(' ')}); convert it to UTF-8 "
                f"(iconv -f {name} -t UTF-8)"
            )
    for magic, what in _MAGIC:
        if head.startswith(magic):
            if what in allow:
                return None
            if what == "a Parquet file":
                return (
                    "a Parquet file, not JSON text (give it a .parquet name, or --input-format parquet "
                    "where the command reads Parquet; Parquet cannot be read from stdin)"
                )
            return f"{what}, not text"
    utf16 = _utf16_guess(head)
    if utf16:
        return f"{utf16} text; convert it to UTF-8 (iconv -f UTF-16 -t UTF-8)"
    nul = head.find(b"\x00")
    if nul >= 0:
        return f"binary data (a NUL byte at offset {nul}), not text"
    body = head[3:] if head.startswith(_BOM) else head
    try:
        body.decode("utf-8")
    except UnicodeDecodeError as exc:
        # A character cut at the end of the head is not an error.
        if exc.start < len(body) - 3 or exc.reason != "unexpected end of data":
            line = body.count(b"\n", 0, exc.start) + 1
            column = exc.start - (body.rfind(b"\n", 0, exc.start) + 1) + 1
            return (
                f"line {line}: not UTF-8 text (byte 0x{body[exc.start]:02x} at column {column}); "
                "re-encode the file as UTF-8 (e.g. iconv -f latin1 -t UTF-8)"
            )
    return None


class _Input(io.RawIOBase):
    """A checked input: gunzipped, the BOM skipped, read errors named, as a raw binary stream."""

    def __init__(self, inner: IO[bytes], name: str, owned: list[IO[bytes]]) -> None:
        super().__init__()
        self._inner = inner
        self.name = name
        self._owned = owned
        self._pending = b""

    def _fill(self, n: int) -> bytes:
        """Read ``n`` bytes (fewer at the end) into the pending head."""
        parts = [self._pending]
        got = len(self._pending)
        while got < n:
            chunk = self._read_inner(n - got)
            if not chunk:
                break
            parts.append(chunk)
            got += len(chunk)
        self._pending = b"".join(parts)
        return self._pending

    def _read_inner(self, n: int) -> bytes:
        try:
            return self._inner.read(n)
        except (EOFError, gzip.BadGzipFile, zlib.error) as exc:
            raise self._broken(exc) from None

    def _broken(self, exc: Exception) -> InputError:
        return InputError(
            f"{self.name}: truncated or corrupt gzip data ({exc}); check the file (gzip -t) or "
            "compress it again"
        )

    def readable(self) -> bool:
        return True

    def readinto(self, b: Any) -> int:
        view = memoryview(b).cast("B")
        if self._pending:
            n = min(len(view), len(self._pending))
            view[:n] = self._pending[:n]
            self._pending = self._pending[n:]
            return n
        try:
            if hasattr(self._inner, "readinto"):
                return self._inner.readinto(view) or 0
        except (EOFError, gzip.BadGzipFile, zlib.error) as exc:
            raise self._broken(exc) from None
        data = self._read_inner(len(view))
        view[: len(data)] = data
        return len(data)

    def close(self) -> None:
        if not self.closed:
            for fh in reversed(self._owned):
                fh.close()
        super().close()


def open_input(
    path: str | os.PathLike[str],
    *,
    check: bool = True,
    allow: tuple[str, ...] = (),
) -> IO[bytes]:
    """An input's bytes, checked (module doc): ``-`` is standard input, gzip is gunzipped, a BOM
    skipped. With ``check``, binary or non-UTF-8 content in the first :data:`HEAD_BYTES` is an
    :class:`InputError` (``allow``: kinds of :func:`describe_binary` the caller reads itself).
    A missing or unreadable file is the ``OSError`` of ``open``, which names it."""
    name = input_name(path)
    owned: list[IO[bytes]] = []
    if str(path) == "-":
        raw: IO[bytes] = sys.stdin.buffer
    else:
        if Path(path).is_dir():
            raise IsADirectoryError(f"{path}: is a directory, not a file")
        raw = open(path, "rb")
        owned.append(raw)
    try:
        src = _Input(raw, name, owned)
        head = src._fill(2)
        if head == b"\x1f\x8b":
            # The two bytes read go back in front of the gzip stream: a file is rewound (no Python
            # layer between gzip and the file), a pipe gets them back through a wrapper.
            if raw.seekable():
                raw.seek(0)
                inner: IO[bytes] = raw
            else:
                inner = _Prefixed(head, raw)  # type: ignore[assignment]
            unzipped = gzip.GzipFile(fileobj=inner, mode="rb")
            owned.append(unzipped)  # type: ignore[arg-type]
            src._owned = []  # the sniffing wrapper, once collected, must not close the files
            src = _Input(unzipped, name, owned)  # type: ignore[arg-type]
        head = src._fill(HEAD_BYTES)
        if head.startswith(_BOM):
            src._pending = head[len(_BOM) :]
        if check:
            why = describe_binary(head, allow=allow)
            if why:
                raise InputError(f"{name}: {why}")
    except BaseException:
        for fh in reversed(owned):
            fh.close()
        raise
    return io.BufferedReader(src, buffer_size=1 << 16)  # type: ignore[return-value]


class _Prefixed(io.RawIOBase):
    """``prefix`` then the rest of ``fh`` (the bytes read to sniff a non-seekable stream)."""

    def __init__(self, prefix: bytes, fh: IO[bytes]) -> None:
        super().__init__()
        self._prefix = prefix
        self._fh = fh

    def readable(self) -> bool:
        return True

    def readinto(self, b: Any) -> int:
        view = memoryview(b).cast("B")
        if self._prefix:
            n = min(len(view), len(self._prefix))
            view[:n] = self._prefix[:n]
            self._prefix = self._prefix[n:]
            return n
        data = self._fh.read(len(view))
        view[: len(data)] = data
        return len(data)

    def read(self, n: int = -1) -> bytes:  # GzipFile reads with read(), not readinto()
        if n is None or n < 0:
            data = self._prefix + self._fh.read()
            self._prefix = b""
            return data
        return super().read(n) or b""


class RecordTooLongError(InputError):
    """A record over the size limit. ``line`` is None where the reader does not count lines (the
    caller that does re-raises it with :meth:`at`)."""

    def __init__(self, name: str, line: int | None, limit: int) -> None:
        where = f"{name}: line {line}" if line is not None else f"{name}: a line"
        super().__init__(
            f"{where}: a record longer than {limit:,} bytes (no newline within the limit); is this "
            f"JSON Lines? Raise the limit with {_ENV_LIMIT}=<bytes> if the record is real"
        )
        self.name, self.line, self.limit = name, line, limit

    def at(self, line: int) -> RecordTooLongError:
        """The same error, naming its line."""
        return RecordTooLongError(self.name, line, self.limit)


def too_long(name: str, line: int | None, limit: int) -> RecordTooLongError:
    """The error for a record over the size limit."""
    return RecordTooLongError(name, line, limit)


def decode_line(data: bytes, name: str, line: int) -> str:
    """One line as text; bytes that are not UTF-8 are an :class:`InputError` naming the line."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{name}: line {line}: not UTF-8 text (byte 0x{data[exc.start]:02x} at column {exc.start + 1}); "
            "re-encode the file as UTF-8"
        ) from None


def iter_lines(path: str | os.PathLike[str], *, limit: int | None = None) -> Iterator[tuple[int, str]]:
    """``(1-based line number, text)`` of every line of a text input (:func:`open_input`), newline
    removed, blank lines included; a line over ``limit`` (default :func:`max_record_bytes`) bytes
    or not UTF-8 is an :class:`InputError` naming it."""
    limit = max_record_bytes() if limit is None else limit
    name = input_name(path)
    with open_input(path) as fh:
        n = 0
        while True:
            raw = fh.readline(limit + 1)
            if not raw:
                return
            n += 1
            if len(raw) > limit and not raw.endswith(b"\n"):
                raise too_long(name, n, limit)
            yield n, decode_line(raw.rstrip(b"\r\n"), name, n)


def iter_json_lines(path: str | os.PathLike[str]) -> Iterator[tuple[int, Any]]:
    """``(1-based line number, value)`` of every non-blank line of a JSON Lines input
    (:func:`iter_lines`: gzip, a BOM, binary data, bad UTF-8 and over-long lines are named); a line that
    is not JSON, or nested too deeply to read, is an :class:`InputError` naming file and line. For
    the commands that stop at a bad record (``judge``, ``consistency``, ``unanswerable``)."""
    name = input_name(path)
    for lineno, line in iter_lines(path):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{name}: line {lineno}: not valid JSON: {exc.msg}") from None
        except RecursionError:
            raise InputError(f"{name}: line {lineno}: JSON nested too deeply to read") from None
        yield lineno, value


def load_json(path: str | os.PathLike[str]) -> Any:
    """A whole JSON document from a text input; errors (not UTF-8, not JSON, too deep) name the
    file and line."""
    name = input_name(path)
    with open_input(path) as fh:
        data = fh.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(
            f"{name}: line {line}: not UTF-8 text (byte 0x{data[exc.start]:02x}); re-encode the file as UTF-8"
        ) from None
    if not text.strip():
        raise InputError(f"{name}: the file is empty (expected a JSON document)")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{name}: line {exc.lineno}: not valid JSON: {exc.msg}") from None
    except RecursionError:
        raise InputError(f"{name}: JSON nested too deeply to read") from None


def same_file_key(path: str | os.PathLike[str]) -> tuple[int, int] | str:
    """What identifies a file whatever the path naming it (a link, ``./x`` and ``x``): its device
    and inode, else its resolved path."""
    p = Path(path)
    try:
        st = p.stat()
    except OSError:
        return str(p.resolve())
    return (st.st_dev, st.st_ino)
