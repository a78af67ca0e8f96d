"""Supervised SymPy worker processes: the fallback for what the Rust core cannot decide.

SymPy can take seconds or hang on big expressions. Each comparison therefore runs in a worker
process with a per-item deadline; a worker that misses it is killed and replaced, and the item
gets ``reason="timeout"``. No signals are used, so the pool works from any thread, and several
threads may share it (calls are serialised per worker by a lock).

Model text is never executed: workers parse LaTeX with SymPy's ANTLR parser or with a whitelist
AST walk, never ``eval``/``parse_expr``.
"""

from __future__ import annotations

import atexit
import multiprocessing as mp
import os
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Literal

__all__ = ["SympyPool", "SympyResult", "get_pool", "shutdown_pool"]

Compat = Literal["fixed", "xwin"]


@dataclass(frozen=True)
class SympyResult:
    """Outcome of one item: ``equal`` is True iff some pair compared equal."""

    equal: bool
    status: Literal["ok", "timeout", "error"]
    message: str = ""


def _decide(compat: str, pairs: Sequence[tuple[str, str]]) -> bool:
    if compat == "_sleep":  # test hook: a worker that hangs (the seconds come from our tests)
        time.sleep(float(pairs[0][0]))
        return True
    if compat == "xwin":
        from matheval_fast._xwin_sympy import xwin_symbolic_equal

        return any(xwin_symbolic_equal(a, b) is True for a, b in pairs)
    from matheval_fast._sympy_fixed import sympy_equal

    return any(sympy_equal(a, b) is True for a, b in pairs)


def _worker_main(conn: Connection) -> None:
    # Warm the imports once so the deadlines measure comparison time only, then say so.
    try:
        import sympy  # noqa: F401

        from matheval_fast import _sympy_fixed  # noqa: F401
    except Exception:  # pragma: no cover - reported per item below
        pass
    conn.send("ready")
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        compat, pairs = msg
        try:
            conn.send(("ok", _decide(compat, pairs)))
        except Exception as exc:  # a SymPy failure is a verdict ("error"), not a crash
            conn.send(("error", f"{type(exc).__name__}: {exc}"[:500]))


#: Seconds a new worker may take to start and import SymPy (not counted against item deadlines).
STARTUP_TIMEOUT = 120.0


class _Worker:
    def __init__(self, ctx: mp.context.BaseContext) -> None:
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker_main, args=(child,), daemon=True)
        self.proc.start()
        child.close()
        if not self.conn.poll(STARTUP_TIMEOUT) or self.conn.recv() != "ready":
            self.kill()
            raise RuntimeError("a SymPy worker process failed to start")

    def kill(self) -> None:
        self.proc.kill()
        self.proc.join(timeout=5)
        self.conn.close()


class SympyPool:
    """A pool of ``workers`` SymPy processes with a per-item ``timeout`` in seconds."""

    def __init__(self, workers: int | None = None, timeout: float = 5.0) -> None:
        if timeout <= 0:
            raise ValueError("timeout must be positive")
        self.workers = max(1, workers if workers is not None else min(2, os.cpu_count() or 1))
        self.timeout = timeout
        # spawn: the parent runs Rust (rayon) threads; forking a threaded process is unsafe.
        self._ctx = mp.get_context("spawn")
        self._idle: list[_Worker] = []
        self._lock = threading.Lock()
        self._closed = False

    def _take(self) -> _Worker:
        with self._lock:
            if self._closed:
                raise RuntimeError("the SymPy pool is shut down")
            if self._idle:
                return self._idle.pop()
        return _Worker(self._ctx)

    def _give(self, w: _Worker) -> None:
        with self._lock:
            if self._closed or len(self._idle) >= self.workers:
                w.conn.send(None)
                w.conn.close()
                return
            self._idle.append(w)

    def run(
        self,
        tasks: Sequence[tuple[Compat | str, Sequence[tuple[str, str]]]],
        timeout: float | None = None,
    ) -> list[SympyResult]:
        """Decide every task (compat, pairs); results in input order. Never raises for data."""
        deadline_each = self.timeout if timeout is None else timeout
        results: list[SympyResult | None] = [None] * len(tasks)
        pending = list(enumerate(tasks))[::-1]
        running: dict[Connection, tuple[int, _Worker, float]] = {}
        try:
            while pending or running:
                while pending and len(running) < self.workers:
                    i, (compat, pairs) = pending.pop()
                    w = self._take()
                    w.conn.send((str(compat), [(str(a), str(b)) for a, b in pairs]))
                    running[w.conn] = (i, w, time.monotonic() + deadline_each)
                now = time.monotonic()
                next_deadline = min(d for _, _, d in running.values())
                ready = wait(list(running), timeout=max(0.0, next_deadline - now))
                for conn in ready:
                    i, w, _ = running.pop(conn)  # type: ignore[index]
                    try:
                        status, value = conn.recv()  # type: ignore[union-attr]
                    except (EOFError, OSError) as exc:  # the worker died (e.g. out of memory)
                        results[i] = SympyResult(False, "error", f"worker died: {exc}")
                        w.kill()
                        continue
                    if status == "ok":
                        results[i] = SympyResult(bool(value), "ok")
                    else:
                        results[i] = SympyResult(False, "error", str(value))
                    self._give(w)
                now = time.monotonic()
                for conn, (i, w, d) in list(running.items()):
                    if now >= d:
                        del running[conn]
                        w.kill()  # stuck in SymPy: kill and let a fresh worker take the next item
                        results[i] = SympyResult(False, "timeout", f"no answer within {deadline_each:g} s")
        finally:
            for _, w, _ in running.values():
                w.kill()
        return [r if r is not None else SympyResult(False, "error", "not run") for r in results]

    def close(self) -> None:
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for w in idle:
            try:
                w.conn.send(None)
            except OSError:
                pass
            w.proc.join(timeout=2)
            if w.proc.is_alive():
                w.kill()


_POOL: SympyPool | None = None
_POOL_LOCK = threading.Lock()


def get_pool() -> SympyPool:
    """The process-wide default pool (created on first use, closed at exit)."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = SympyPool()
            atexit.register(shutdown_pool)
        return _POOL


def shutdown_pool() -> None:
    global _POOL
    with _POOL_LOCK:
        pool, _POOL = _POOL, None
    if pool is not None:
        pool.close()
