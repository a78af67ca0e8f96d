"""The batch drivers under fork and Ctrl-C (rust/batch.rs and its binding).

A forked child must not wait on its parent's thread pool (the parent's threads do not exist in the child),
and SIGINT must stop a long batch between chunks instead of after the whole batch. Deadlocks fail through
the timeouts here; nothing asserts on wall time.
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import subprocess
import sys
import textwrap

import matheval_fast as mf
import numpy as np
import pytest
from matheval_fast import stats

RESPONSES = [f"The answer is: {i % 97}" for i in range(20_000)]
GOLDS = [str(i % 89) for i in range(20_000)]
ROWS = np.arange(3000 * 8, dtype=float).reshape(3000, 8) % 13


def _work_in_child(seed: int) -> tuple[int, int, float]:
    r = mf.check_batch(RESPONSES[seed:], GOLDS[seed:])
    # A pool of an explicit size is kept per process too (rust/batch.rs `pool`).
    two = mf.check_batch(RESPONSES[seed:], GOLDS[seed:], threads=2)
    s = stats.siegel_tukey_batch(ROWS, ROWS[::-1] + seed)
    return int(r.correct.sum()), int(two.correct.sum()), float(np.nansum(s.pvalue))


@pytest.mark.timeout(120)
def test_batches_run_in_forked_children_after_the_parent_ran_one() -> None:
    expected = [_work_in_child(seed) for seed in range(3)]  # the parent's pool now exists
    ctx = multiprocessing.get_context("fork")
    ex = cf.ProcessPoolExecutor(max_workers=2, mp_context=ctx)
    try:
        futures = [ex.submit(_work_in_child, seed) for seed in range(3)]
        got = [f.result(timeout=90) for f in futures]
    finally:
        for proc in list(getattr(ex, "_processes", {}).values()):
            if proc.is_alive():  # a hung child must not hang the test run too
                proc.kill()
        ex.shutdown(wait=True, cancel_futures=True)
    assert got == expected
    assert _work_in_child(0) == expected[0]  # and the parent's pool still works


CHILD = textwrap.dedent(
    """
    import os, signal, sys, threading, time
    import matheval_fast as mf
    from matheval_fast import _core

    n, interrupt = int(sys.argv[1]), sys.argv[2] == "interrupt"
    # A process started with SIGINT ignored (a background job of a non-interactive shell, as some CI
    # runners start tests) inherits that, and Python then installs no KeyboardInterrupt handler.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    responses = ["The answer is: 12"] * n
    golds = ["12"] * n

    def send_sigint():
        # Needs the GIL to run, which the batch holds until it starts checking with the GIL released:
        # the signal arrives while the batch runs, not before it.
        time.sleep(0.3)
        os.kill(os.getpid(), signal.SIGINT)

    if interrupt:
        threading.Thread(target=send_sigint, daemon=True).start()
    cpu = time.process_time()
    try:
        _core.check_batch(responses, golds, compat="fixed", extract_policy="flex", threads=1)
    except KeyboardInterrupt:
        print("interrupted-in-batch", time.process_time() - cpu, flush=True)
        sys.exit(3)
    print("finished", time.process_time() - cpu, flush=True)
    """
)


@pytest.mark.timeout(240)
def test_sigint_stops_a_long_batch_between_chunks() -> None:
    """The child checks n items on one thread and gets SIGINT 0.3 s in.

    Counted in CPU seconds of the child (not wall time): a batch that only noticed the signal at its end
    would have spent the CPU time of the whole batch; one that looks between chunks stops after one chunk.
    The whole batch's CPU time is measured by letting a tenth of it finish.
    """
    n = 2_000_000
    small = subprocess.run(
        [sys.executable, "-c", CHILD, str(n // 10), "run"],
        capture_output=True,
        text=True,
        timeout=200,
        check=True,
    )
    tenth = float(small.stdout.split("finished")[1])
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(n), "interrupt"], capture_output=True, text=True, timeout=200
    )
    assert out.returncode == 3, (out.stdout, out.stderr)
    spent = float(out.stdout.split("interrupted-in-batch")[1])
    # One chunk is 4096 items; the whole batch is about 10 x `tenth` seconds of CPU. The signal comes
    # 0.3 s in (up to 0.3 s of CPU, whatever the machine's speed), so a batch that stops within a chunk
    # spends about that; one that ran to its end would spend all ten tenths.
    assert spent < 6 * tenth, (spent, tenth)


def _math_items() -> tuple[list[str | None], list[str | None]]:
    """Real MATH-style items (Qwen2.5-Math responses with boxed answers) and the odd cells."""
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "data/answer_check/qwen25math_math_cot_100_graded.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    resp: list[str | None] = [r["response"] for r in rows]
    gold: list[str | None] = [r["gold"] for r in rows]
    # A missing cell, a lone surrogate (not UTF-8), an empty one, in the middle of a block.
    resp[70], gold[71], resp[72] = None, "\ud800", ""
    return resp, gold


@pytest.mark.timeout(120)
@pytest.mark.parametrize("threads", [None, 1, 2, 5])
def test_lists_tuples_iterables_and_arrow_give_the_single_verdicts(threads: int | None) -> None:
    """Lists and tuples are read block by block while the first blocks are checked (the calling
    thread reads, then checks with the pool); every other input goes the same way. Each item's
    verdict is that of `check`, in order, whatever the threads."""
    from matheval_fast import _core

    resp, gold = _math_items()
    want = [mf.check(r, g) for r, g in zip(resp, gold, strict=True)]

    class Backwards(list):  # a subclass is read through its own iteration, as before
        def __iter__(self):  # type: ignore[no-untyped-def]
            return reversed(list(list.__iter__(self)))

    backwards = mf.check_batch(Backwards(resp[::-1]), gold, threads=threads)
    assert [backwards.verdict(i) for i in range(len(want))] == want
    inputs = [
        (resp, gold),
        (tuple(resp), tuple(gold)),
        (iter(resp), (g for g in gold)),
    ]
    pa = pytest.importorskip("pyarrow")
    inputs.append((pa.array(resp, pa.large_string()), gold))
    for r, g in inputs:
        got = mf.check_batch(r, g, threads=threads)
        assert [got.verdict(i) for i in range(len(want))] == want, type(r).__name__
    # The core alone, a generator of golds included.
    out = _core.check_batch(resp, (g for g in gold), compat="fixed", extract_policy="flex", threads=threads)
    assert list(out[0]) == [int(v.correct) for v in want]


@pytest.mark.timeout(120)
def test_a_bad_item_deep_in_a_long_list_raises_and_the_pool_goes_on() -> None:
    """The items are read while earlier blocks are checked: an item that is not a str stops the
    batch with its index, and no checking thread is left waiting for the blocks after it."""
    resp = [f"The answer is: {i % 7}" for i in range(100_000)]
    gold = [str(i % 7) for i in range(100_000)]
    for threads in (None, 1, 3):
        bad = list(resp)
        bad[70_001] = 5  # type: ignore[call-overload]
        with pytest.raises(TypeError, match=r"responses\[70001\] must be a str or None, got int"):
            mf.check_batch(bad, gold, threads=threads)
        bad_gold = list(gold)
        bad_gold[9] = b"7"  # type: ignore[call-overload]
        with pytest.raises(TypeError, match=r"golds\[9\] must be a str or None, got bytes"):
            mf.check_batch(resp, bad_gold, threads=threads)
        assert mf.check_batch(resp, gold, threads=threads).correct.all()
