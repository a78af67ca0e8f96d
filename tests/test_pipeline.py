"""The streaming commands' overlap helpers: order kept, errors raised where the caller sees them."""

from __future__ import annotations

import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st
from matheval_fast._pipeline import BackgroundWriter, prefetched


@given(st.lists(st.integers(), max_size=20), st.integers(1, 4))
def test_prefetched_yields_every_item_in_order(items, depth):
    assert list(prefetched(iter(items), depth=depth)) == items


def test_prefetched_reads_at_most_depth_ahead():
    produced = []

    def source():
        for i in range(10):
            produced.append(i)
            yield i

    it = prefetched(source(), depth=2)
    assert next(it) == 0
    for _ in range(500):  # wait (up to 5 s) for the reader to run ahead as far as it may
        if len(produced) >= 3:
            break
        threading.Event().wait(0.01)
    threading.Event().wait(0.1)
    assert produced == [0, 1, 2]  # the item handed out and two read ahead, no more
    assert list(it) == list(range(1, 10))


def test_prefetched_raises_the_readers_error_in_the_callers_thread():
    def source():
        yield 0
        raise ValueError("bad line 2")

    it = prefetched(source())
    assert next(it) == 0
    with pytest.raises(ValueError, match="bad line 2"):
        next(it)


def test_background_writer_keeps_order_and_reports_its_error():
    seen = []
    w = BackgroundWriter(seen.append)
    for i in range(100):
        w(i)
    w.close()
    assert seen == list(range(100))

    def fail(item):
        raise OSError("disk full")

    w = BackgroundWriter(fail)
    w(1)
    with pytest.raises(OSError, match="disk full"):
        w.close()


@pytest.mark.parametrize("env", [None, "mimalloc", "system"])
def test_the_command_lines_arrow_pool_leaves_a_users_choice_alone(env):
    import os
    import subprocess
    import sys

    code = (
        "import pyarrow as pa\n"
        "from matheval_fast._pipeline import use_streaming_memory_pool\n"
        "before = pa.default_memory_pool().backend_name\n"
        "use_streaming_memory_pool()\n"
        "print(before, pa.default_memory_pool().backend_name)\n"
    )
    environ = {k: v for k, v in os.environ.items() if k != "ARROW_DEFAULT_MEMORY_POOL"}
    if env is not None:
        environ["ARROW_DEFAULT_MEMORY_POOL"] = env
    run = [sys.executable, "-c", code]
    out = subprocess.run(run, env=environ, capture_output=True, text=True, check=True)
    before, after = out.stdout.split()
    if env is not None:
        assert before == after == env
    elif before == "mimalloc":
        import pyarrow as pa

        try:
            pa.jemalloc_memory_pool()
            assert after == "jemalloc"
        except NotImplementedError:
            assert after == "mimalloc"
    else:
        assert after == before
