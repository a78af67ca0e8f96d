"""Progress bars: tqdm when asked for, installed and stderr is a terminal; a silent stand-in otherwise.

Callers never test for ``None``: :func:`progress_bar` always returns an object with ``update(n)``,
``set_postfix(**kw)`` and ``close()``, usable as a context manager.
"""

from __future__ import annotations

import sys
from types import TracebackType
from typing import Any

__all__ = ["NullBar", "progress_bar"]


class NullBar:
    """The bar shown when no bar is shown."""

    n = 0

    def update(self, n: int = 1) -> None:
        self.n += n

    def set_postfix(self, *_args: Any, **_kwargs: Any) -> None:
        pass

    def set_description(self, *_args: Any, **_kwargs: Any) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self) -> NullBar:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def progress_bar(
    total: int | None,
    *,
    enabled: bool = True,
    desc: str = "",
    unit: str = "it",
    force: bool = False,
    unit_scale: bool = False,
) -> Any:
    """A tqdm bar on stderr, or a :class:`NullBar`.

    Shown when ``enabled`` and tqdm is importable and stderr is a terminal (``force=True`` skips the
    terminal test, for tests and for users who log stderr on purpose).
    """
    if not enabled or not (force or sys.stderr.isatty()):
        return NullBar()
    try:
        from tqdm import tqdm
    except ImportError:
        return NullBar()
    return tqdm(total=total, desc=desc, unit=unit, unit_scale=unit_scale, file=sys.stderr, dynamic_ncols=True)
