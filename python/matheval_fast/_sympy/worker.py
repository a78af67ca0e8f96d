"""A SymPy worker process: reads JSON requests on stdin, writes JSON answers on stdout.

Started by :class:`matheval_fast._sympy.pool.SympyPool` as ``python -m matheval_fast._sympy.worker``; a
plain subprocess (not multiprocessing) so it never re-imports the caller's ``__main__``.

Requests: ``{"c": compat, "p": [[pred, gold], ...]}``. Answers: ``{"s": "ok", "v": bool}``, or
``{"s": "error", "k": kind, "m": message}`` where ``kind`` is ``"latex_parser"`` when SymPy's LaTeX
parser, which only the xwin mode uses, cannot run in this environment and ``"exception"`` for any other
failure. The first line written is ``{"s": "ready"}``, once SymPy is imported, so item deadlines
measure comparisons only.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from matheval_fast._sympy.latex import LatexParserUnavailable, unavailable_reason

__all__ = ["answer", "decide", "main", "serve"]

Decide = Callable[[str, Sequence[Sequence[str]]], bool]


def decide(compat: str, pairs: Sequence[Sequence[str]]) -> bool:
    """True iff some ``(pred, gold)`` pair compares equal under ``compat``'s SymPy comparison."""
    if compat == "xwin":
        from matheval_fast._sympy.xwin import xwin_symbolic_equal

        return any(xwin_symbolic_equal(a, b) is True for a, b in pairs)
    if compat == "fixed":
        from matheval_fast._sympy.fixed import sympy_equal

        return any(sympy_equal(a, b) is True for a, b in pairs)
    raise ValueError(f"unknown compat {compat!r}")


def answer(line: str, decide: Decide) -> dict[str, Any]:
    """The answer to one request line; never raises for bad data."""
    try:
        req = json.loads(line)
        return {"s": "ok", "v": bool(decide(req["c"], req["p"]))}
    except LatexParserUnavailable as exc:
        return {"s": "error", "k": "latex_parser", "m": str(exc)}
    except Exception as exc:  # a SymPy failure is a verdict ("error"), not a crash
        return {"s": "error", "k": "exception", "m": f"{type(exc).__name__}: {exc}"[:500]}


def serve(
    decide: Decide = decide,
    *,
    warm: bool = True,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> None:
    """Say ready, then answer requests until stdin closes.

    ``warm`` imports SymPy, loads the LaTeX parser and runs one comparison first (SymPy imports much of
    its simplification machinery on first use, about 0.2 s), so item deadlines measure comparisons only.
    """
    if warm:
        import sympy  # noqa: F401

        from matheval_fast._sympy import fixed

        # A warm-up failure is not reported here: the first item that meets it reports it.
        with contextlib.suppress(Exception):
            fixed.sympy_equal("\\frac{x^2-1}{x-1}", "x+1")
        # Loads the ANTLR parser the xwin mode uses now (or finds it broken), not during a timed item.
        unavailable_reason()
    inp = sys.stdin if stdin is None else stdin
    out = sys.stdout if stdout is None else stdout
    out.write('{"s": "ready"}\n')
    out.flush()
    for line in inp:
        out.write(json.dumps(answer(line, decide)) + "\n")
        out.flush()


def main() -> None:
    serve()


if __name__ == "__main__":
    main()
