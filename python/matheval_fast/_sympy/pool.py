"""Supervised SymPy worker processes: the fallback for what the Rust core cannot decide.

SymPy can take seconds or hang on big expressions, so each comparison runs in a worker process with a
per-item deadline; a worker that misses it is killed and replaced, and the item gets ``status="timeout"``.

**Deadlines count the worker's own CPU time**, not the clock: an item that needs 4.9 s of SymPy gets the
same verdict on a quiet machine and on one where sixteen threads share two cores (where the clock would
run out while the worker waits for a CPU). Where a process's CPU time cannot be read (no ``/proc``), the
clock counts instead. A clock backstop of :data:`WALL_FACTOR` times the deadline still ends an item whose
worker makes no progress at all (stopped, or stuck outside Python), so nothing waits forever.

**One pool per process.** :func:`get_pool` gives the process-wide pool: at most one worker per CPU this
process may run on, started only when items wait, and one FIFO queue shared by every calling thread, so
eight threads on two cores still run two workers. An item's deadline starts when a worker takes it, not
when it is queued, and counts that worker's CPU time, so load makes items wait but never turns a decidable
item into ``timeout``.

**Cold start.** A worker takes about 1–3.5 s to start (it imports SymPy and loads the LaTeX parser before
it says ready, so item deadlines never include that). :meth:`SympyPool.warm` starts workers in the
background without blocking; ``check_batch`` calls it when its golds look symbolic, so the start overlaps
the Rust work and the first SymPy item finds a worker ready or starting.

**Fork-aware.** A forked child never talks to its parent's workers (their pipes are shared, and answers
would cross between processes): at fork, the child forgets every pool it inherited (closing only its own
copies of the pipes, never signalling the parent's workers) and starts its own workers on first use; a
pool also checks the process id on every call, for forks that bypass Python's fork hooks.

One dispatcher thread per pool does all pipe I/O while items are queued or running, and exits when the
pool is idle. No signals are used, so the pool works from any thread. Workers are plain subprocesses
(``python -m matheval_fast._sympy.worker``) talking JSON lines, so they never re-import the caller's
``__main__``. Model text is never executed: workers parse LaTeX with SymPy's ANTLR parser or with a
whitelist AST walk, never ``eval``/``parse_expr``.
"""

from __future__ import annotations

import atexit
import collections
import json
import math
import numbers
import os
import selectors
import subprocess
import sys
import threading
import time
import warnings
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from matheval_fast._sympy.latex import LatexParserWarning

__all__ = [
    "DEFAULT_TIMEOUT",
    "PREWARM_ENV",
    "STARTUP_TIMEOUT",
    "WALL_FACTOR",
    "SympyPool",
    "SympyResult",
    "check_timeout",
    "get_pool",
    "machine_workers",
    "prewarm_enabled",
    "shutdown_pool",
]

#: Seconds a new worker may take to start and import SymPy (not counted against item deadlines).
STARTUP_TIMEOUT = 120.0
#: Seconds of a worker's CPU time an item may take by default. SymPy's slowest decidable item in the
#: suites we keep takes about 5 s of CPU on a quiet 2-core machine and 14 s when the other hyperthread
#: of its core is busy (CPU time is not free of load either); 30 s leaves room for a slower machine
#: under load to reach the same verdicts. (The seed tool's budget was 5 s of the clock.)
DEFAULT_TIMEOUT = 30.0
#: The clock backstop, in multiples of an item's deadline: an item whose worker has had this long by the
#: clock without using up its CPU budget (it got under 1/WALL_FACTOR of a CPU, or is stuck outside Python)
#: ends as ``timeout`` too.
WALL_FACTOR = 10.0
#: The worker every pool runs unless told otherwise.
DEFAULT_WORKER = ("-m", "matheval_fast._sympy.worker")

Status = Literal["ok", "timeout", "error"]
#: Why an item ended in ``error``: the worker's LaTeX parser cannot run, SymPy raised, the worker died or
#: could not start, or the pool was shut down.
Cause = Literal["", "latex_parser", "exception", "worker_died", "worker_start", "shutdown"]


@dataclass(frozen=True)
class SympyResult:
    """Outcome of one item: ``equal`` is True iff some pair compared equal."""

    equal: bool
    status: Status
    message: str = ""
    cause: Cause = ""


def check_timeout(timeout: Any, what: str = "timeout") -> float:
    """``timeout`` as a float of seconds; ``TypeError``/``ValueError`` unless it is finite and positive."""
    if isinstance(timeout, bool) or not isinstance(timeout, numbers.Real):
        raise TypeError(f"{what} must be a number of seconds, got {type(timeout).__name__}")
    value = float(timeout)
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"{what} must be a finite positive number of seconds, got {timeout!r}")
    return value


def machine_workers() -> int:
    """How many CPUs this process may run on (its affinity mask where the OS has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - macOS, Windows
        return max(1, os.cpu_count() or 1)


_warned_lock = threading.Lock()
_warned = False


def _warn_latex_parser_once(message: str) -> None:
    """One warning per process that SymPy's LaTeX parser cannot run (the verdicts say ``error``)."""
    global _warned
    with _warned_lock:
        if _warned:
            return
        _warned = True
    # Point at the caller's code: the first frame outside this package.
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    frame, level = sys._getframe(0), 1
    while frame.f_back is not None and frame.f_code.co_filename.startswith(package):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, LatexParserWarning, stacklevel=level)


class _Call:
    """The items of one :meth:`SympyPool.run` call: results in input order, and who is waiting."""

    def __init__(self, n: int) -> None:
        self.results: list[SympyResult | None] = [None] * n
        self.remaining = n
        self.done = threading.Event()
        self.cancelled = False

    def finish(self, index: int, result: SympyResult) -> None:
        if self.results[index] is None:
            self.results[index] = result
            self.remaining -= 1
            if self.remaining == 0:
                self.done.set()


@dataclass(eq=False)
class _Item:
    call: _Call
    index: int
    request: bytes
    timeout: float


_CLOCK_TICKS: float | None = None


def _process_cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of process ``pid`` from ``/proc/<pid>/stat``; ``None`` where there is
    no such file (not Linux) or the process is gone."""
    global _CLOCK_TICKS
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            stat = fh.read()
        if _CLOCK_TICKS is None:
            _CLOCK_TICKS = float(os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, AttributeError):
        return None
    # The command name (field 2) is in parentheses and may hold spaces: fields count after its ")".
    fields = stat[stat.rfind(b")") + 2 :].split()
    try:
        return (int(fields[11]) + int(fields[12])) / _CLOCK_TICKS
    except (IndexError, ValueError):
        return None


class _Worker:
    """One worker process; the dispatcher thread reads its answers without blocking."""

    #: The clock backstop's multiple of an item's deadline (the pool's ``wall_factor``).
    wall_factor = WALL_FACTOR

    def __init__(self, argv: Sequence[str], env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            list(argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            bufsize=0,
        )
        assert self.proc.stdout is not None
        self.fd = self.proc.stdout.fileno()
        os.set_blocking(self.fd, False)
        self.buffer = b""
        self.ready = False
        self.item: _Item | None = None
        # When the dispatcher looks at this worker next (monotonic clock): its start-up limit, or
        # when its item could have used up its CPU budget at the earliest.
        self.deadline = time.monotonic() + STARTUP_TIMEOUT
        self.started_cpu: float | None = None
        self.started_wall = 0.0

    def cpu_seconds(self) -> float | None:
        """CPU time (user + system) the worker process has used so far; ``None`` where unknown."""
        return _process_cpu_seconds(self.proc.pid)

    def read_lines(self) -> list[bytes] | None:
        """Complete lines available now; ``None`` once the worker has closed its end (it died)."""
        try:
            chunk = os.read(self.fd, 1 << 16)
        except BlockingIOError:
            return []
        except OSError:
            return None
        if not chunk:
            return None
        *lines, self.buffer = (self.buffer + chunk).split(b"\n")
        return lines

    def send(self, item: _Item) -> None:
        """Write one request; an idle worker is reading its stdin, so this returns promptly."""
        assert self.proc.stdin is not None
        view = memoryview(item.request)
        while view:
            view = view[self.proc.stdin.write(view) or 0 :]
        self.item = item
        self.started_cpu = self.cpu_seconds()
        self.started_wall = time.monotonic()
        # CPU time cannot run faster than the clock for one thread: nothing to look at before then.
        self.deadline = self.started_wall + item.timeout

    def item_spent(self, now: float) -> tuple[float, bool]:
        """Seconds the current item has used of its budget (CPU time where readable, else the clock),
        and whether the clock backstop has run out."""
        assert self.item is not None
        wall = now - self.started_wall
        cpu = self.cpu_seconds() if self.started_cpu is not None else None
        spent = wall if cpu is None or self.started_cpu is None else cpu - self.started_cpu
        return spent, wall >= self.item.timeout * self.wall_factor

    def kill(self) -> None:
        self.proc.kill()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover - the kernel owes us this
            pass
        self._close_pipes()

    def close(self) -> None:
        """Ask an idle worker to exit (end of its input), killing it if it does not."""
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
            self.proc.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
        self._close_pipes()

    def abandon(self) -> None:
        """In a forked child: drop this process's copies of the pipes; the worker is the parent's."""
        self._close_pipes()

    def _close_pipes(self) -> None:
        for f in (self.proc.stdin, self.proc.stdout):
            if f is not None:
                try:
                    f.close()
                except OSError:
                    pass


class SympyPool:
    """Up to ``workers`` SymPy processes (default: one per usable CPU) and one FIFO queue.

    ``timeout`` is the default per-item deadline in seconds of the worker's CPU time, counted from when a
    worker takes the item; ``wall_factor`` times it by the clock ends an item whose worker makes no
    progress (see the module's docstring).
    ``worker_command`` is the argv of a worker process (default ``python -m matheval_fast._sympy.worker``);
    any program that speaks the worker's JSON-lines protocol will do.
    """

    def __init__(
        self,
        workers: int | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        *,
        worker_command: Sequence[str] | None = None,
        wall_factor: float = WALL_FACTOR,
    ) -> None:
        if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
            raise ValueError(f"workers must be a positive int, got {workers!r}")
        self.workers = workers if workers is not None else machine_workers()
        self.timeout = check_timeout(timeout)
        self.wall_factor = check_timeout(wall_factor, "wall_factor")
        if self.wall_factor < 1:
            raise ValueError(f"wall_factor must be at least 1, got {wall_factor!r}")
        self._argv = list(worker_command) if worker_command is not None else [sys.executable, *DEFAULT_WORKER]
        self._closed = False
        self._init_process_state()
        _POOLS.add(self)

    # -- per-process state -----------------------------------------------------------------------------------

    def _init_process_state(self) -> None:
        self._pid = os.getpid()
        self._lock = threading.Lock()
        self._queue: collections.deque[_Item] = collections.deque()
        self._workers: list[_Worker] = []
        self._selector = selectors.DefaultSelector()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        self._selector.register(self._wake_r, selectors.EVENT_READ)
        self._thread: threading.Thread | None = None
        # Workers to keep started without items (:meth:`warm`); reset when a worker fails to start.
        self._warm_target = 0

    def _forget_inherited(self) -> None:
        """In a forked child: let go of the parent's workers, pipes and thread without touching them.

        Only this process's file descriptors are closed (an epoll set or pipe is shared with the parent,
        so nothing is unregistered and no worker is signalled); the next call starts new workers.
        """
        for w in self._workers:
            w.abandon()
        for fd in (self._wake_r, self._wake_w):
            try:
                os.close(fd)
            except OSError:
                pass
        try:
            self._selector.close()
        except OSError:
            pass
        self._init_process_state()

    def _owned(self) -> None:
        if self._pid != os.getpid():
            with _FORK_LOCK:
                if self._pid != os.getpid():
                    self._forget_inherited()

    # -- the calling side ------------------------------------------------------------------------------------

    def run(
        self,
        tasks: Sequence[tuple[str, Sequence[tuple[str, str]]]],
        timeout: float | None = None,
    ) -> list[SympyResult]:
        """Decide every task ``(compat, pairs)``; results in input order. Never raises for data.

        Blocks until every item is decided; ``timeout`` (seconds, default the pool's) bounds each item
        from the moment a worker takes it. An interrupt (``KeyboardInterrupt``) withdraws the call's
        items: queued ones are dropped and running ones killed, so the pool is free at once.
        """
        deadline_each = self.timeout if timeout is None else check_timeout(timeout)
        if not tasks:
            return []
        self._owned()
        call = _Call(len(tasks))
        items = [
            _Item(call, i, _request(compat, pairs), deadline_each) for i, (compat, pairs) in enumerate(tasks)
        ]
        with self._lock:
            if self._closed:
                raise RuntimeError("the SymPy pool is shut down")
            self._queue.extend(items)
            self._ensure_dispatcher_locked()
        self._wake()
        try:
            call.done.wait()
        finally:
            if not call.done.is_set():
                with self._lock:
                    call.cancelled = True
                self._wake()
        results = [r if r is not None else SympyResult(False, "error", "not run") for r in call.results]
        for r in results:
            if r.cause == "latex_parser":
                _warn_latex_parser_once(r.message)
                break
        return results

    def warm(self, workers: int = 1) -> None:
        """Start up to ``workers`` worker processes in the background (at most the pool's size); never
        blocks. Workers already running count; a worker that fails to start stops the warm-up (the next
        :meth:`run` reports the failure on its items as usual)."""
        self._owned()
        with self._lock:
            if self._closed:
                return
            self._warm_target = max(self._warm_target, min(max(0, workers), self.workers))
            if len(self._workers) >= self._warm_target:
                return
            self._ensure_dispatcher_locked()
        self._wake()

    def ready_workers(self) -> int:
        """Worker processes that have started and are ready (idle or busy)."""
        self._owned()
        with self._lock:
            return sum(1 for w in self._workers if w.ready)

    def _ensure_dispatcher_locked(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._dispatch, name="matheval-sympy-pool", daemon=True)
            self._thread.start()

    def close(self) -> None:
        """Stop the workers; items still queued or running end as ``error``. Idempotent."""
        self._owned()
        with self._lock:
            self._closed = True
            thread = self._thread
        self._wake()
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=30)
        with self._lock:
            self._shutdown_locked()

    def live_workers(self) -> int:
        """Worker processes this pool has running now (starting, idle or busy)."""
        self._owned()
        with self._lock:
            return len(self._workers)

    def _wake(self) -> None:
        try:
            os.write(self._wake_w, b"x")
        except (BlockingIOError, OSError):  # full (a wake is pending anyway) or closed
            pass

    # -- the dispatcher thread -------------------------------------------------------------------------------

    def _dispatch(self) -> None:
        while True:
            with self._lock:
                if self._closed:
                    self._shutdown_locked()
                    self._thread = None
                    return
                self._drop_cancelled_locked()
                self._assign_locked()
                self._grow_locked()
                busy = [w for w in self._workers if w.item is not None or not w.ready]
                if not self._queue and not busy:
                    self._thread = None  # idle: the next run() starts a new dispatcher
                    return
                # Nothing running but items waiting (a worker failed to start): go round again at once.
                next_deadline = min((w.deadline for w in busy), default=time.monotonic())
            for key, _ in self._selector.select(max(0.0, next_deadline - time.monotonic())):
                if key.fd == self._wake_r:
                    self._drain_wake()
                    continue
                with self._lock:
                    worker = next((w for w in self._workers if w.fd == key.fd), None)
                    if worker is not None:
                        self._on_readable_locked(worker)
            with self._lock:
                self._expire_locked(time.monotonic())

    def _drain_wake(self) -> None:
        try:
            while os.read(self._wake_r, 4096):
                pass
        except (BlockingIOError, OSError):
            pass

    def _drop_cancelled_locked(self) -> None:
        """Items of an interrupted call: queued ones are dropped, running ones killed (nobody waits)."""
        if any(item.call.cancelled for item in self._queue):
            self._queue = collections.deque(item for item in self._queue if not item.call.cancelled)
        for w in list(self._workers):
            if w.item is not None and w.item.call.cancelled:
                w.item = None
                self._remove_locked(w, kill=True)

    def _assign_locked(self) -> None:
        for w in list(self._workers):
            if not self._queue:
                return
            if w.ready and w.item is None:
                item = self._queue.popleft()
                try:
                    w.send(item)
                except OSError:  # the idle worker died: the item goes back to the front of the queue
                    w.item = None
                    self._queue.appendleft(item)
                    self._remove_locked(w, kill=True)

    def _grow_locked(self) -> None:
        starting = sum(1 for w in self._workers if not w.ready)
        wanted = min(len(self._queue) - starting, self.workers - len(self._workers))
        wanted = max(wanted, self._warm_target - len(self._workers))
        for _ in range(max(0, wanted)):
            env = dict(os.environ)
            # The worker must import this very package, wherever it was imported from.
            pkg_root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
            env["PYTHONPATH"] = os.pathsep.join([pkg_root, *filter(None, [env.get("PYTHONPATH")])])
            try:
                w = _Worker(self._argv, env)
                w.wall_factor = self.wall_factor
            except OSError as exc:
                self._fail_oldest_locked(f"cannot start a SymPy worker: {exc}")
                return
            self._workers.append(w)
            self._selector.register(w.fd, selectors.EVENT_READ)

    def _on_readable_locked(self, w: _Worker) -> None:
        lines = w.read_lines()
        if lines is None:  # the worker is gone
            if w.item is not None:
                self._finish_locked(w, SympyResult(False, "error", "SymPy worker died", "worker_died"))
            elif not w.ready:
                self._fail_oldest_locked("a SymPy worker process failed to start")
            self._remove_locked(w, kill=True)
            return
        for line in lines:
            try:
                msg = json.loads(line)
            except ValueError:
                msg = {}
            if not w.ready:
                if msg.get("s") == "ready":
                    w.ready = True
                    w.deadline = math.inf
                else:
                    self._fail_oldest_locked("a SymPy worker process failed to start")
                    self._remove_locked(w, kill=True)
                    return
            elif w.item is not None:
                if msg.get("s") == "ok":
                    result = SympyResult(bool(msg.get("v")), "ok")
                else:
                    cause = "latex_parser" if msg.get("k") == "latex_parser" else "exception"
                    result = SympyResult(False, "error", str(msg.get("m", "")), cause)
                self._finish_locked(w, result)

    def _expire_locked(self, now: float) -> None:
        for w in list(self._workers):
            if now < w.deadline:
                continue
            if w.item is not None:
                limit = w.item.timeout
                spent, backstop = w.item_spent(now)
                if spent < limit and not backstop:
                    # Not yet: it had less CPU than the clock (a busy machine). Look again when the
                    # rest of its budget could be used up at the earliest, or at the backstop.
                    w.deadline = min(now + max(limit - spent, 0.01), w.started_wall + limit * w.wall_factor)
                    continue
                message = (
                    f"no answer within {limit:g} s of CPU time"
                    if spent >= limit
                    else f"no progress within {limit * w.wall_factor:g} s (the worker got almost no CPU)"
                )
                self._finish_locked(w, SympyResult(False, "timeout", message))
                self._remove_locked(w, kill=True)  # stuck in SymPy: a fresh worker takes the next item
            elif not w.ready:
                self._fail_oldest_locked(f"a SymPy worker did not start within {STARTUP_TIMEOUT:g} s")
                self._remove_locked(w, kill=True)

    def _finish_locked(self, w: _Worker, result: SympyResult) -> None:
        item, w.item = w.item, None
        w.deadline = math.inf
        if item is not None:
            item.call.finish(item.index, result)

    def _fail_oldest_locked(self, message: str) -> None:
        """A worker could not start: the oldest waiting item ends as ``error`` (so failures cannot loop)."""
        self._warm_target = 0
        if self._queue:
            item = self._queue.popleft()
            item.call.finish(item.index, SympyResult(False, "error", message, "worker_start"))

    def _remove_locked(self, w: _Worker, *, kill: bool) -> None:
        if w in self._workers:
            self._workers.remove(w)
            try:
                self._selector.unregister(w.fd)
            except (KeyError, ValueError, OSError):
                pass
        if kill:
            w.kill()
        else:
            w.close()

    def _shutdown_locked(self) -> None:
        while self._queue:
            item = self._queue.popleft()
            item.call.finish(
                item.index, SympyResult(False, "error", "the SymPy pool is shut down", "shutdown")
            )
        for w in list(self._workers):
            busy = w.item is not None or not w.ready
            if w.item is not None:
                self._finish_locked(w, SympyResult(False, "error", "the SymPy pool is shut down", "shutdown"))
            self._remove_locked(w, kill=busy)


def _request(compat: str, pairs: Sequence[tuple[str, str]]) -> bytes:
    return (json.dumps({"c": str(compat), "p": [[str(a), str(b)] for a, b in pairs]}) + "\n").encode()


# Every pool of this process, so a forked child can forget them all at once.
_POOLS: weakref.WeakSet[SympyPool] = weakref.WeakSet()
_FORK_LOCK = threading.Lock()
_POOL: SympyPool | None = None
_POOL_LOCK = threading.Lock()


def get_pool() -> SympyPool:
    """The process-wide pool (created on first use in each process, closed at exit)."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = SympyPool()
        return _POOL


#: Environment variable that turns on the automatic pre-warm of ``check_batch`` (``1``, ``true``, ``yes``).
#: Off by default: starting a worker (importing SymPy, about 1 CPU-second) during a batch takes a core
#: from the batch, which on two cores cost a MATH-style batch that needs no SymPy half its speed. Workers
#: start when an item needs one; their start never counts against an item's deadline.
PREWARM_ENV = "MATHEVAL_SYMPY_PREWARM"


def prewarm_enabled() -> bool:
    """Whether ``check_batch`` may start a SymPy worker ahead of need (see :data:`PREWARM_ENV`)."""
    return os.environ.get(PREWARM_ENV, "0").strip().lower() in ("1", "true", "yes", "on")


def shutdown_pool() -> None:
    """Close the process-wide pool (a later :func:`get_pool` starts a new one)."""
    global _POOL
    with _POOL_LOCK:
        pool, _POOL = _POOL, None
    if pool is not None:
        pool.close()


def _after_fork_in_child() -> None:
    # Locks held by other threads at fork time stay held forever in the child: replace them first.
    global _POOL, _POOL_LOCK, _FORK_LOCK, _warned_lock
    _POOL_LOCK = threading.Lock()
    _FORK_LOCK = threading.Lock()
    _warned_lock = threading.Lock()
    for pool in list(_POOLS):
        if pool._pid != os.getpid():
            pool._forget_inherited()
    _POOL = None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
atexit.register(shutdown_pool)
