"""Running a judge in several processes, for endpoints fast enough that one client core is the limit.

One Python process judges about 2,100 items per CPU-second through aiohttp
(``benches/judge_throughput.py``); a local vLLM or SGLang server answering short Yes/No prompts can
take more. :func:`run_judge_parallel` starts ``workers`` processes (``spawn``), each running
:func:`~matheval_fast.judge.run.run_judge` over the whole input but sending only the items of its
shard (by a CRC of the item's inputs, so identical requests share a worker and each is still sent once), with
``concurrency / workers`` requests in flight. All write to the same SQLite store (WAL; each worker
commits in batches from its own writer thread). The parent shows one progress bar over the summed
counters and returns the summed :class:`~matheval_fast.judge.run.RunStats`.

A worker whose parent disappears (the parent was killed) stops within a second, committing what it
finished; as with one process, a resumed run sends only what is missing. Workers start with SIGINT
blocked: a Ctrl-C (which a terminal sends to every process of the group) reaches the parent alone,
which sets the workers' stop flag; each stops at its next tick (half a second), committing what it
finished, and none prints a traceback, not even one still starting. The API key goes to the
workers through their start-up pipe, never through the environment or a file.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import signal
import threading
import time
import traceback
from collections.abc import Iterator
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

from matheval_fast.judge.client import Secret
from matheval_fast.judge.data import DatasetSpec, iter_items
from matheval_fast.judge.run import JudgeConfig, RunAborted, RunStats, _Progress, run_async, run_judge
from matheval_fast.judge.store import RunStore

__all__ = ["run_judge_parallel"]

# Integer counters a worker publishes to the parent (the order of the shared array).
_COUNTERS = (
    "items",
    "reused",
    "duplicates",
    "sent",
    "done",
    "failed",
    "yes",
    "no",
    "unparseable",
    "requests",
    "prompt_tokens",
    "completion_tokens",
)


def _publish(counters: Any, offset: int, stats: RunStats) -> None:
    for i, name in enumerate(_COUNTERS):
        counters[offset + i] = getattr(stats, name)


def _worker(
    index: int,
    n_workers: int,
    spec: DatasetSpec,
    store_path: str,
    cfg: JudgeConfig,
    key: str | None,
    counters: Any,
    conn: Any,
    parent: int,
    stop: Any,
) -> None:
    offset = index * len(_COUNTERS)

    def on_tick(stats: RunStats) -> None:
        _publish(counters, offset, stats)
        if os.getppid() != parent:
            raise RunAborted("the parent process is gone")
        if stop.is_set():
            raise RunAborted("stopped by the parent (interrupted)")

    try:
        if stop.is_set():  # interrupted while this worker was starting
            raise RunAborted("stopped by the parent (interrupted)")
        with RunStore(Path(store_path)) as store:
            stats = run_async(
                run_judge(
                    iter_items(spec),
                    store,
                    cfg,
                    api_key=Secret(key) if key is not None else None,
                    shard=(index, n_workers),
                    on_tick=on_tick,
                )
            )
        _publish(counters, offset, stats)
        message: tuple[Any, ...] = ("ok", stats)
    except BaseException as exc:
        message = ("error", type(exc).__name__, str(exc), traceback.format_exc(limit=5))
    try:
        conn.send(message)
    except OSError:
        pass  # the parent is gone; what finished is in the store
    finally:
        conn.close()


@contextlib.contextmanager
def _sigint_blocked() -> Iterator[None]:
    """SIGINT blocked in this thread for the block (a signal that arrives waits, it is not lost);
    processes started meanwhile inherit the mask and never receive it."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _sum(parts: list[RunStats]) -> RunStats:
    out = RunStats()
    for part in parts:
        for f in fields(RunStats):
            value = getattr(part, f.name)
            if f.name == "failure_reasons":
                out.failure_reasons.update(value)
            elif f.name == "aborted":
                out.aborted = out.aborted or value
            elif f.name != "elapsed_s":
                setattr(out, f.name, getattr(out, f.name) + value)
    return out


def run_judge_parallel(
    spec: DatasetSpec,
    store_path: str | Path,
    cfg: JudgeConfig,
    *,
    api_key: Secret | None,
    workers: int,
    total: int | None = None,
    progress: bool = False,
    progress_every: float = 10.0,
) -> RunStats:
    """Judge the items of ``spec`` with ``workers`` processes (see the module docstring).

    ``cfg.client.concurrency`` is the total in flight, split over the workers; so are the rate limits.
    Raises the first worker error as ``RuntimeError`` (``ValueError`` for bad input) after all
    workers have stopped.
    """
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    c = cfg.client
    per_worker = replace(
        c,
        concurrency=max(1, c.concurrency // workers),
        requests_per_minute=c.requests_per_minute / workers if c.requests_per_minute else None,
        tokens_per_minute=c.tokens_per_minute / workers if c.tokens_per_minute else None,
    )
    wcfg = replace(cfg, client=per_worker, preflight=False)
    ctx = mp.get_context("spawn")
    counters = ctx.Array("q", workers * len(_COUNTERS), lock=False)
    procs: list[Any] = []
    pipes: list[Any] = []
    stop = ctx.Event()
    key = api_key.reveal() if api_key is not None else None
    bar = _Progress(total, progress, progress_every, cfg.price.currency if cfg.price else None)
    t0 = time.perf_counter()
    results: list[Any] = [None] * workers

    def snapshot() -> RunStats:
        parts = []
        for k in range(workers):
            st = RunStats()
            for i, name in enumerate(_COUNTERS):
                setattr(st, name, counters[k * len(_COUNTERS) + i])
            parts.append(st)
        total_stats = _sum(parts)
        if cfg.price is not None:
            total_stats.cost = cfg.price.cost(total_stats.prompt_tokens, total_stats.completion_tokens)
        return total_stats

    try:
        with _sigint_blocked():  # inherited by the workers (see the module docstring)
            for k in range(workers):
                recv, send = ctx.Pipe(duplex=False)
                p = ctx.Process(
                    target=_worker,
                    args=(k, workers, spec, str(store_path), wcfg, key, counters, send, os.getpid(), stop),
                    name=f"judge-worker-{k}",
                    daemon=True,
                )
                p.start()
                send.close()
                procs.append(p)
                pipes.append(recv)
        while any(r is None for r in results):
            for k, conn in enumerate(pipes):
                if results[k] is None and conn.poll(0.05):
                    try:
                        results[k] = conn.recv()
                    except EOFError:
                        results[k] = (
                            "error",
                            "WorkerDied",
                            f"worker {k} exited with code {procs[k].exitcode}",
                            "",
                        )
            bar.update(snapshot())
    except BaseException:
        stop.set()  # Ctrl-C: the workers commit what they finished and stop
        bar.close()
        raise
    finally:
        for p in procs:
            p.join(timeout=30)
            if p.is_alive():
                p.terminate()
    errors = [r for r in results if r[0] == "error"]
    if errors:
        bar.close()
        _, name, message, _tb = errors[0]
        if name in ("ValueError", "TemplateError"):
            raise ValueError(message)
        raise RuntimeError(f"judge worker failed: {name}: {message}")
    stats = _sum([r[1] for r in results])
    stats.elapsed_s = time.perf_counter() - t0
    if cfg.price is not None:
        stats.cost = cfg.price.cost(stats.prompt_tokens, stats.completion_tokens)
    bar.update(stats, final=True)
    bar.close()
    return stats
