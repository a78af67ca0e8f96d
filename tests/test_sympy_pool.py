"""The SymPy worker pool: one bounded pool per process, deadlines from the start of an item, fork safety.

Slow and stuck items come from ``tests/sympy_test_worker.py`` (``compat="sleep"``), so no production code
carries a test hook and the durations do not depend on the machine's load. Nothing here asserts on wall
time: tests count worker processes and verdicts, and a deadlock fails through pytest-timeout.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import matheval_fast as mf
import pytest
from matheval_fast._sympy import pool as pool_module
from matheval_fast._sympy.pool import SympyPool, SympyResult, check_timeout, get_pool, machine_workers

TEST_WORKER = [sys.executable, str(Path(__file__).with_name("sympy_test_worker.py"))]
#: The same worker without SymPy imported: for items that only sleep or compare parities.
COLD_WORKER = [*TEST_WORKER, "--cold"]


def _worker_children(script: str) -> set[int]:
    """Pids of this process's children whose command line runs ``script``."""
    pids: set[int] = set()
    for task in Path("/proc/self/task").iterdir():
        try:
            children = (task / "children").read_text().split()
        except OSError:
            continue
        for pid in children:
            try:
                cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            if script.encode() in cmdline:
                pids.add(int(pid))
    return pids


needs_proc_children = pytest.mark.skipif(
    not Path("/proc/self/task").is_dir(), reason="counts child processes through /proc"
)


@pytest.mark.timeout(60)
def test_stuck_worker_is_killed_and_replaced() -> None:
    pool = SympyPool(workers=2, timeout=1.0, worker_command=COLD_WORKER)
    try:
        tasks = [("spin", [("30", "")]), ("sleep", [("0", "")]), ("parity", [("2", "")]), ("nonsense", [])]
        res = pool.run(tasks)
        assert [r.status for r in res] == ["timeout", "ok", "ok", "error"]
        assert [r.equal for r in res] == [False, True, True, False]
        assert "1 s of CPU time" in res[0].message
        assert res[3].cause == "exception" and "unknown compat" in res[3].message
        # the pool still works after a kill, from another thread too
        out: list[SympyResult] = []
        t = threading.Thread(target=lambda: out.extend(pool.run([("parity", [("3", "")])], timeout=30)))
        t.start()
        t.join()
        assert out[0].status == "ok" and not out[0].equal
    finally:
        pool.close()
    with pytest.raises(RuntimeError, match="shut down"):
        pool.run([("parity", [("1", "")])])


@needs_proc_children
@pytest.mark.timeout(90)
def test_eight_threads_share_two_workers_and_queueing_never_times_out() -> None:
    """8 threads x 2 items of 0.25 s on 2 workers: 2 s of work for each worker, a 1 s deadline per item.

    A deadline counted from queueing would time most of them out; counted from the start, none.
    """
    script = TEST_WORKER[1]
    pool = SympyPool(workers=2, timeout=1.0, worker_command=COLD_WORKER)
    seen: set[int] = set()
    most = 0
    stop = threading.Event()

    def watch() -> None:
        nonlocal most
        while not stop.wait(0.02):
            now = _worker_children(script)
            seen.update(now)
            most = max(most, len(now))

    results: list[list[SympyResult]] = []
    errors: list[BaseException] = []

    def work() -> None:
        try:
            results.append(pool.run([("sleep", [("0.25", "")]), ("sleep", [("0.25", "")])]))
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        threads = [threading.Thread(target=work) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        stop.set()
        watcher.join()
        pool.close()
    assert not errors
    assert [r.status for rs in results for r in rs] == ["ok"] * 16
    assert most <= 2 and len(seen) == 2  # never more than two, and nobody was replaced


@needs_proc_children
@pytest.mark.timeout(120)
def test_the_deadline_counts_the_workers_cpu_time_not_the_clock() -> None:
    """An item that needs 0.6 s of CPU under a 1 s deadline is decided, however long the clock runs.

    The worker's CPU is throttled to a quarter of the clock by stopping and continuing it (SIGSTOP /
    SIGCONT), as a loaded machine would: the item takes ~2.4 s of the clock, more than its deadline, and
    is still ``ok``. One that needs 3 s of CPU is a ``timeout`` in both cases. Nothing here reads a clock
    to decide: the throttle only makes the clock run past the deadline.
    """
    script = TEST_WORKER[1]
    pool = SympyPool(workers=1, timeout=1.0, worker_command=COLD_WORKER, wall_factor=100)
    stop = threading.Event()

    def throttle() -> None:
        while not stop.is_set():
            pids = _worker_children(script)
            for pid in pids:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGSTOP)
            stop.wait(0.03)
            for pid in pids:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGCONT)
            stop.wait(0.01)

    pool.run([("parity", [("2", "")])])  # started and ready before the throttle
    t = threading.Thread(target=throttle)
    t.start()
    try:
        slow, too_slow = pool.run([("spin", [("0.6", "")]), ("spin", [("3", "")])])
    finally:
        stop.set()
        t.join()
        for pid in _worker_children(script):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)
        pool.close()
    assert (slow.status, slow.equal) == ("ok", True)
    assert too_slow.status == "timeout" and "CPU time" in too_slow.message


@pytest.mark.timeout(60)
def test_a_worker_that_makes_no_progress_ends_at_the_clock_backstop() -> None:
    """A worker stuck without using CPU (here: asleep) ends at ``wall_factor`` x the deadline."""
    pool = SympyPool(workers=1, timeout=0.5, worker_command=COLD_WORKER, wall_factor=4)
    try:
        stuck, after = pool.run([("sleep", [("60", "")]), ("parity", [("4", "")])])
    finally:
        pool.close()
    assert stuck.status == "timeout" and "no progress within 2 s" in stuck.message
    assert (after.status, after.equal) == ("ok", True)  # a fresh worker took the next item
    with pytest.raises(ValueError, match="wall_factor"):
        SympyPool(wall_factor=0.5)


def test_a_process_cpu_time_is_read_from_proc() -> None:
    if not Path("/proc/self/stat").exists():
        assert pool_module._process_cpu_seconds(os.getpid()) is None
        return
    before = pool_module._process_cpu_seconds(os.getpid())
    end = time.process_time() + 0.2
    while time.process_time() < end:
        pass
    after = pool_module._process_cpu_seconds(os.getpid())
    assert before is not None and after is not None and after - before >= 0.1
    assert pool_module._process_cpu_seconds(2**22 + 12345) is None  # no such process


class _Interrupted(Exception):
    pass


@pytest.mark.timeout(20)
def test_an_interrupted_call_frees_the_pool_at_once() -> None:
    """Ctrl-C while waiting: the call's running item is killed and its queued ones dropped.

    Otherwise the next call would wait 30 s behind them (and hit this test's timeout).
    """
    pool = SympyPool(workers=1, timeout=60, worker_command=COLD_WORKER)

    def interrupt(signum: int, frame: object) -> None:
        raise _Interrupted

    previous = signal.signal(signal.SIGINT, interrupt)
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    try:
        pool.run([("parity", [("2", "")])])  # the worker is up
        timer.start()
        with pytest.raises(_Interrupted):
            pool.run([("sleep", [("30", "")])] * 3)
        res = pool.run([("parity", [("4", "")])])
        assert res[0].status == "ok" and res[0].equal
        assert pool.live_workers() == 1
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
        pool.close()


def test_default_pool_is_one_per_process_and_sized_to_the_machine() -> None:
    assert get_pool() is get_pool()
    assert get_pool().workers == machine_workers()
    if hasattr(os, "sched_getaffinity"):
        assert machine_workers() == len(os.sched_getaffinity(0))


def _parity_in_child(numbers: list[int]) -> list[bool]:
    return [r.equal for r in _SHARED_POOL.run([("parity", [(str(n), "")]) for n in numbers])]  # type: ignore[union-attr]


_SHARED_POOL: SympyPool | None = None


@pytest.mark.timeout(120)
def test_forked_children_never_talk_to_the_parents_workers() -> None:
    """The cross-talk reproducer: parent and forked children use one inherited pool object at once.

    Sharing the parent's worker pipes, answers would cross between processes and parities would flip.
    """
    global _SHARED_POOL
    _SHARED_POOL = pool = SympyPool(workers=1, timeout=30, worker_command=COLD_WORKER)
    try:
        assert [r.equal for r in pool.run([("parity", [("2", "")]), ("parity", [("3", "")])])] == [
            True,
            False,
        ]
        parent_workers = pool.live_workers()
        batches = [list(range(k, k + 150)) for k in range(0, 600, 150)]
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(2) as procs:
            pending = procs.map_async(_parity_in_child, batches)
            # the parent keeps using its workers while the children run
            for _ in range(5):
                mine = list(range(1000, 1100))
                assert _parity_in_child(mine) == [n % 2 == 0 for n in mine]
            got = pending.get(timeout=90)
        for numbers, answers in zip(batches, got, strict=True):
            assert answers == [n % 2 == 0 for n in numbers]
        assert pool.live_workers() == parent_workers  # no child killed or closed the parent's workers
    finally:
        _SHARED_POOL = None
        pool.close()


def _check_in_child(pairs: list[tuple[str, str]]) -> list[tuple[bool, str, str]]:
    out = []
    for response, gold in pairs:
        v = mf.check(response, gold, compat="xwin", kind="latex")
        out.append((v.correct, v.reason, v.path))
    return out


SYMPY_ITEMS = [
    ("The answer is: $\\frac{1}{2}$", "0.5"),
    ("The answer is: $x^2+2x+1$", "(x+1)^2"),
    ("The answer is: $\\frac{3}{4}$", "0.5"),
    ("The answer is: $x^2+1$", "(x+1)^2"),
]


@pytest.mark.timeout(180)
def test_check_in_a_forked_child_uses_its_own_sympy_workers() -> None:
    expected = _check_in_child(SYMPY_ITEMS)
    assert [p for _, _, p in expected] == ["sympy"] * 4  # these really reach the SymPy workers
    assert [c for c, _, _ in expected] == [True, True, False, False]
    parent_pool = get_pool()
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(1) as procs:
        pending = procs.map_async(_check_in_child, [SYMPY_ITEMS])
        again = _check_in_child(SYMPY_ITEMS)
        got = pending.get(timeout=150)
    assert got == [expected] and again == expected
    assert get_pool() is parent_pool


def test_after_fork_hook_forgets_inherited_pools() -> None:
    """What the fork hook leaves in a child (run in a real fork, reported through a pipe)."""
    get_pool()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            fresh = pool_module._POOL is None
            child_pool = get_pool()
            owned = child_pool._pid == os.getpid() and child_pool.live_workers() == 0
            os.write(w, b"ok" if fresh and owned else b"bad")
        finally:
            os._exit(0)
    os.close(w)
    try:
        assert os.read(r, 16) == b"ok"
    finally:
        os.close(r)
        os.waitpid(pid, 0)


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -1.0, 0, "5", None, True])
def test_timeouts_must_be_finite_positive_numbers(bad: object) -> None:
    with pytest.raises((TypeError, ValueError)):
        check_timeout(bad)
    with pytest.raises((TypeError, ValueError)):
        SympyPool(timeout=bad)  # type: ignore[arg-type]
    if bad is not None:
        with pytest.raises((TypeError, ValueError)):
            get_pool().run([("fixed", [("1", "1")])], timeout=bad)  # type: ignore[arg-type]
    assert check_timeout(2) == 2.0 and check_timeout(0.5) == 0.5


def test_empty_run_and_bad_worker_count() -> None:
    pool = SympyPool(workers=1, worker_command=COLD_WORKER)
    assert pool.run([]) == []
    assert pool.live_workers() == 0  # nothing started for nothing
    pool.close()
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="workers"):
            SympyPool(workers=bad)  # type: ignore[arg-type]


@pytest.mark.timeout(60)
def test_a_worker_that_cannot_start_fails_items_instead_of_hanging(tmp_path: Path) -> None:
    broken = tmp_path / "broken_worker.py"
    broken.write_text("import sys\nsys.stdout.write('not json\\n')\nsys.stdout.flush()\n")
    pool = SympyPool(workers=2, worker_command=[sys.executable, str(broken)])
    try:
        res = pool.run([("fixed", [("1", "1")])] * 3)
        assert [(r.status, r.cause) for r in res] == [("error", "worker_start")] * 3
    finally:
        pool.close()


def _wait_for(cond: Callable[[], bool]) -> None:
    """Poll ``cond()`` until true; pytest-timeout fails a test that waits forever (no wall-time asserts)."""
    while not cond():
        time.sleep(0.01)


@pytest.mark.timeout(60)
def test_warm_starts_a_worker_in_the_background_that_run_then_uses() -> None:
    pool = SympyPool(workers=2, worker_command=COLD_WORKER)
    try:
        pool.warm()  # returns at once; the dispatcher starts the worker in the background
        _wait_for(lambda: pool.ready_workers() == 1)
        assert pool.live_workers() == 1
        pool.warm()  # idempotent: still one worker
        assert pool.live_workers() == 1
        res = pool.run([("parity", [("2", "")])])
        assert res[0].status == "ok" and res[0].equal
        assert pool.live_workers() == 1  # the warm worker took the item, no second start
        pool.warm(5)  # capped at the pool's size
        _wait_for(lambda: pool.ready_workers() == 2)
        assert pool.live_workers() == 2
    finally:
        pool.close()


@pytest.mark.timeout(60)
def test_a_warm_worker_that_cannot_start_is_not_restarted_forever() -> None:
    pool = SympyPool(workers=1, worker_command=[sys.executable, "-c", "import sys; sys.exit(3)"])
    try:
        pool.warm()
        # The failed start is noticed and the warm-up gives up (no start loop).
        _wait_for(lambda: pool._warm_target == 0 and pool.live_workers() == 0)
        res = pool.run([("fixed", [("1", "1")])])
        assert res[0].status == "error" and res[0].cause == "worker_start"
    finally:
        pool.close()


class _RecordingPool:
    def __init__(self) -> None:
        self.warmed: list[int] = []

    def warm(self, workers: int = 1) -> None:
        self.warmed.append(workers)


@pytest.mark.parametrize(
    ("golds", "warms"),
    [
        (["\\frac{1}{2}", "18"], True),
        (["x^2+1"], True),
        (["18", "2,125", "-0.5", "3/4", "20%", "$5", "yes", "June", "Step 1...\n#### 18"], False),
        ([], False),
    ],
)
def test_check_batch_prewarms_the_pool_when_golds_look_symbolic(monkeypatch, golds, warms) -> None:
    from matheval_fast import answer

    rec = _RecordingPool()
    monkeypatch.setattr(answer, "get_pool", lambda: rec)
    monkeypatch.setenv("MATHEVAL_SYMPY_PREWARM", "1")
    mf.check_batch(["The answer is 18"] * len(golds), golds)
    assert rec.warmed == ([1] if warms else [])
    # The same through numpy and pyarrow inputs.
    import numpy as np

    rec.warmed.clear()
    mf.check_batch(np.array(["The answer is 18"] * len(golds), dtype=object), np.array(golds, dtype=object))
    assert rec.warmed == ([1] if warms else [])
    pa = pytest.importorskip("pyarrow")
    rec.warmed.clear()
    mf.check_batch(pa.array(["The answer is 18"] * len(golds), pa.string()), pa.array(golds, pa.string()))
    assert rec.warmed == ([1] if warms else [])


def test_warm_sympy_warms_the_process_pool(monkeypatch) -> None:
    from matheval_fast import answer

    rec = _RecordingPool()
    monkeypatch.setattr(answer, "get_pool", lambda: rec)
    mf.warm_sympy()
    mf.warm_sympy(2)
    assert rec.warmed == [1, 2]


@pytest.mark.parametrize("setting", [None, "0", "no"])
def test_prewarm_is_off_unless_asked(monkeypatch, setting) -> None:
    """Issue 25: a batch that needs no SymPy shares its cores with no worker start."""
    from matheval_fast import answer

    rec = _RecordingPool()
    monkeypatch.setattr(answer, "get_pool", lambda: rec)
    if setting is None:
        monkeypatch.delenv("MATHEVAL_SYMPY_PREWARM", raising=False)
    else:
        monkeypatch.setenv("MATHEVAL_SYMPY_PREWARM", setting)
    mf.check_batch(["The answer is $x$"], ["x^2"])
    assert rec.warmed == []
