"""JSON for the judge's hot path: orjson when installed (the ``judge`` extra), else the standard library.

Parsing responses and encoding request bodies take a tenth of the client's CPU per item with
:mod:`json`; orjson does the same work several times faster. Input files are read with :mod:`json`
only: orjson turns integers beyond 64 bits into floats, which would change an item id. Store keys
hash values, not these bytes (``store.request_key``), so they do not depend on the choice.
"""

from __future__ import annotations

import json
from typing import Any

try:
    import orjson
except ImportError:  # pragma: no cover - exercised when the extra is not installed
    orjson = None  # type: ignore[assignment]

__all__ = ["dumps_bytes", "loads"]


def loads(data: str | bytes) -> Any:
    """Parse a server response. What orjson refuses and the standard library reads (``NaN``, lone
    surrogates) goes to the standard library; bad JSON raises ``ValueError`` either way."""
    if orjson is not None:
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError:
            pass
    return json.loads(data)


def dumps_bytes(obj: Any) -> bytes:
    """Compact JSON as UTF-8 bytes."""
    if orjson is not None:
        try:
            return orjson.dumps(obj)
        except TypeError:  # e.g. an integer beyond 64 bits: the standard library has no such limit
            pass
    return json.dumps(obj, separators=(",", ":")).encode("ascii")
