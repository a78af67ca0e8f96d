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
