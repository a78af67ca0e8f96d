"""Output files that are either complete or absent, and JSON that stays standard."""

from __future__ import annotations

import contextlib
import json
import math
import os
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO, Any

__all__ = ["atomic_path", "atomic_write", "json_safe", "write_json"]


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; rename it onto ``path`` only if the block succeeds.

    A run killed half-way leaves at most a ``.<name>.*.tmp`` file, never a truncated ``path`` that
    looks complete. The temporary file sits in the same directory so the rename is atomic.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        # mkstemp makes the file private (0600); a finished output gets the usual permissions.
        if tmp_path.exists():
            os.chmod(tmp_path, 0o666 & ~_umask())
        os.replace(tmp_path, target)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp_path.unlink()
        raise


@contextlib.contextmanager
def atomic_write(path: str | os.PathLike[str], mode: str = "w", **kwargs: Any) -> Iterator[IO[Any]]:
    """``open()`` on a temporary file that replaces ``path`` when the block ends without error."""
    if "b" not in mode:
        kwargs.setdefault("encoding", "utf-8")
    with atomic_path(path) as tmp, open(tmp, mode, **kwargs) as fh:
        yield fh


def json_safe(obj: Any) -> Any:
    """NaN and infinities -> ``None``, tuples -> lists, keys -> ``str``: standard JSON, not Python's."""
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, Mapping):
        return {str(k): json_safe(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_safe(v) for v in obj]
    return obj


def write_json(path: str | os.PathLike[str], obj: Any, *, indent: int = 2) -> None:
    """Write ``obj`` as standard JSON (see :func:`json_safe`), atomically."""
    with atomic_write(path) as fh:
        fh.write(json.dumps(json_safe(obj), indent=indent, ensure_ascii=False, allow_nan=False) + "\n")
