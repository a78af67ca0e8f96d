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
    import os, signal, sys, threading
    import matheval_fast as mf
    from matheval_fast import _core

    n, interrupt = int(sys.argv[1]), sys.argv[2] == "interrupt"
    # A process started with SIGINT ignored (a background job of a non-interactive shell, as some CI
    # runners start tests) inherits that, and Python then installs no KeyboardInterrupt handler.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    # The sender runs only when this thread gives up the GIL of its own accord, which it does first
    # inside the batch, when the first chunk is checked with the GIL released: the signal arrives
    # during the first chunk on any machine, however fast.
    sys.setswitchinterval(1000)
    responses = ["The answer is: 12"] * n
    golds = ["12"] * n
    go = threading.Event()

    def send_sigint():
        go.wait()
        os.kill(os.getpid(), signal.SIGINT)

    if interrupt:
        threading.Thread(target=send_sigint, daemon=True).start()
    before = _core._chunks_checked()
    go.set()
    try:
        _core.check_batch(responses, golds, compat="fixed", extract_policy="flex", threads=1)
    except KeyboardInterrupt:
        print("interrupted-in-batch", _core._chunks_checked() - before, flush=True)
        sys.exit(3)
    print("finished", _core._chunks_checked() - before, flush=True)
    """
)


@pytest.mark.timeout(240)
def test_sigint_stops_a_long_batch_between_chunks() -> None:
    """SIGINT during a 2,000,000-item batch (62 chunks of up to 32,768 on one thread) stops it after
    the chunk it arrived in. Work is counted (chunks finished before the interrupt took effect), not
    timed: a batch that only noticed the signal at its end would have finished all 62, as the same
    batch does without the signal."""
    n = 2_000_000

    def child(mode: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", CHILD, str(n), mode], capture_output=True, text=True, timeout=200
        )

    whole = child("run")
    assert whole.returncode == 0, whole.stderr
    assert int(whole.stdout.split("finished")[1]) == 62
    out = child("interrupt")
    assert out.returncode == 3, (out.stdout, out.stderr)
    chunks = int(out.stdout.split("interrupted-in-batch")[1])
    assert 1 <= chunks <= 2, chunks


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


def test_a_table_a_mapping_or_a_set_is_refused_not_paired_by_accident() -> None:
    """Iterating a DataFrame gives its column names, a dict its keys, a set an arbitrary order: each
    would be scored silently against the wrong golds. A pandas Series (one column) is a sequence."""
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"response": ["The answer is 2.", "The answer is 3."], "gold": ["2", "3"]})
    with pytest.raises(TypeError, match=r"got a DataFrame: pass one column, e\.g\. df\['response'\]"):
        mf.check_batch(df, df)
    with pytest.raises(TypeError, match="mapping"):
        mf.check_batch({"The answer is 2.": 1}, ["2"])
    with pytest.raises(TypeError, match="a set has no order"):
        mf.check_batch(["The answer is 2."], {"2"})
    with pytest.raises(TypeError, match="frozenset"):
        mf.check_batch(frozenset(["The answer is 2."]), ["2"])
    r = mf.check_batch(df["response"], df["gold"])
    assert r.correct.tolist() == [True, True]
    assert mf.check_batch((x for x in ["The answer is 2."]), iter(["2"])).correct.tolist() == [True]


@pytest.mark.parametrize("bad", [0, -1, 1025, 10**6, 10**30])
def test_thread_counts_are_bounded_before_any_work(bad: int) -> None:
    """``threads=10**6`` used to start threads for minutes and ``-1`` ended in OverflowError."""
    with pytest.raises(ValueError, match=f"threads must be between 1 and 1024, got {bad}"):
        mf.check_batch(["The answer is 2."], ["2"], threads=bad)
    with pytest.raises(TypeError, match="threads must be an int"):
        mf.check_batch(["The answer is 2."], ["2"], threads=2.0)  # type: ignore[arg-type]
    from matheval_fast import _core

    if bad < 2**63:  # the binding says the same to a caller that skips the wrapper
        with pytest.raises(ValueError, match="between 1 and 1024"):
            _core.check_batch(["a"], ["a"], compat="fixed", extract_policy="flex", threads=bad)
    assert mf.check_batch(["The answer is 2."], ["2"], threads=3).correct.tolist() == [True]
