"""The SymPy fallback: what the Rust core leaves undecided, compared by SymPy in supervised workers.

- :mod:`.pool`: the process-wide pool of worker processes (queue, per-item deadlines, fork-aware);
- :mod:`.worker`: the worker process itself (JSON lines on stdin/stdout);
- :mod:`.fixed` and :mod:`.xwin`: the two comparisons (fixed mode; the seed's ``symbolic_equal``);
- :mod:`.tree`: the fixed mode's LaTeX reader (the Rust parser's tree turned into SymPy; no ANTLR);
- :mod:`.latex`: SymPy's ANTLR LaTeX parser (xwin mode) and the check that the installed runtime can run it.
"""

from __future__ import annotations

from matheval_fast._sympy.pool import (
    STARTUP_TIMEOUT,
    SympyPool,
    SympyResult,
    check_timeout,
    get_pool,
    shutdown_pool,
)

__all__ = ["STARTUP_TIMEOUT", "SympyPool", "SympyResult", "check_timeout", "get_pool", "shutdown_pool"]
