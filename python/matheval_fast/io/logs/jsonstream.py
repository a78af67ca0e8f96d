"""Streaming reads of big JSON documents: the elements of an array (or the members of an object)
at a path, one at a time, in bounded memory.

The seed's response files are one JSON array and OpenCompass results are one object whose
``details`` member holds every item; :func:`iter_items` yields those items without loading the
document. Each element is decoded by the standard library's ``raw_decode`` from a sliding
buffer, so memory is the largest element, not the file. A document that stops being valid JSON
raises :class:`JsonSyntaxError` with the line where it broke: JSON has no line structure to resync
on, so what follows cannot be read.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import IO, Any

__all__ = ["Event", "JsonSyntaxError", "iter_items"]

_WS = " \t\n\r"


class JsonSyntaxError(ValueError):
    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


@dataclass
class Event:
    """``kind``: ``"item"`` (an element/member inside the path), ``"member"`` (a member of an
    object on the way to the path, with its value), ``"container"`` (``[`` or ``{`` at the path)."""

    kind: str
    key: str | int | None
    value: Any = None
    line: int = 0
    path: tuple[str, ...] = field(default_factory=tuple)


class _Buffer:
    def __init__(self, fh: IO[str], chunk: int = 1 << 20) -> None:
        self.fh = fh
        self.chunk = chunk
        self.buf = ""
        self.pos = 0
        self.eof = False
        self.line = 1  # line number at self.pos
        self._dec = json.JSONDecoder()

    def _more(self, n: int | None = None) -> bool:
        if self.eof:
            return False
        if self.pos > (1 << 20):
            self.buf = self.buf[self.pos :]
            self.pos = 0
        data = self.fh.read(n or self.chunk)
        if not data:
            self.eof = True
            return False
        self.buf += data
        return True

    def _advance(self, to: int) -> None:
        self.line += self.buf.count("\n", self.pos, to)
        self.pos = to

    def skip_ws(self) -> None:
        while True:
            b, p = self.buf, self.pos
            while p < len(b) and b[p] in _WS:
                p += 1
            self._advance(p)
            if p < len(b) or not self._more():
                return

    def peek(self) -> str:
        self.skip_ws()
        return self.buf[self.pos] if self.pos < len(self.buf) else ""

    def expect(self, chars: str) -> str:
        c = self.peek()
        if not c or c not in chars:
            what = repr(c) if c else "the end of the file"
            raise JsonSyntaxError(f"expected one of {chars!r}, found {what}", self.line)
        self._advance(self.pos + 1)
        return c

    def value(self) -> Any:
        self.skip_ws()
        want = self.chunk
        while True:
            try:
                v, end = self._dec.raw_decode(self.buf, self.pos)
            except json.JSONDecodeError as exc:
                # Incomplete element: read more (doubling), unless the file has ended.
                if self._more(want):
                    want *= 2
                    continue
                line = self.line + self.buf.count("\n", self.pos, exc.pos)
                raise JsonSyntaxError(f"not valid JSON: {exc.msg}", line) from None
            else:
                # A number at the buffer's end may continue in the next read.
                if end == len(self.buf) and not self.eof and isinstance(v, (int, float)):
                    if self._more(want):
                        continue
                line = self.line
                self._advance(end)
                self._last_line = line
                return v


def iter_items(fh: IO[str], path: tuple[str, ...] = ()) -> Iterator[Event]:
    """Events of a JSON document: the elements (or members) of the container at ``path``
    (object keys, outermost first) as ``item`` events, other members met on the way as
    ``member`` events, and one ``container`` event (value ``"["`` or ``"{"``) when the path is
    reached. A path that does not lead to an array or object ends with a ``member`` event
    holding whatever is there."""
    buf = _Buffer(fh)
    yield from _walk(buf, path, ())
    if buf.peek():
        raise JsonSyntaxError("extra data after the JSON document", buf.line)


def _walk(buf: _Buffer, path: tuple[str, ...], at: tuple[str, ...]) -> Iterator[Event]:
    c = buf.peek()
    if not path:
        if c not in "[{" or not c:
            v = buf.value()
            yield Event("member", at[-1] if at else None, v, buf.line, at)
            return
        buf.expect(c)
        yield Event("container", None, c, buf.line, at)
        close = "]" if c == "[" else "}"
        i = 0
        if buf.peek() == close:
            buf.expect(close)
            return
        while True:
            if c == "{":
                key = buf.value()
                if not isinstance(key, str):
                    raise JsonSyntaxError("object key is not a string", buf.line)
                buf.expect(":")
            else:
                key = i
            line = buf.line
            v = buf.value()
            yield Event("item", key, v, line, at)
            i += 1
            if buf.expect("," + close) == close:
                return
    if c != "{":
        # The path wants an object here; whatever is here is a member value.
        v = buf.value()
        yield Event("member", at[-1] if at else None, v, buf.line, at)
        return
    buf.expect("{")
    if buf.peek() == "}":
        buf.expect("}")
        return
    while True:
        key = buf.value()
        if not isinstance(key, str):
            raise JsonSyntaxError("object key is not a string", buf.line)
        buf.expect(":")
        if key == path[0]:
            yield from _walk(buf, path[1:], (*at, key))
        else:
            line = buf.line
            yield Event("member", key, buf.value(), line, at)
        if buf.expect(",}") == "}":
            return
