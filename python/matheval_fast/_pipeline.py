"""Overlap for the streaming commands (``score``, ``rescore``): the next batch is read, and the
last one written, in background threads while the current one is checked. Reading, parsing,
checking and writing all release the GIL, so on two cores they run at the same time."""

from __future__ import annotations

import collections
import queue
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

__all__ = ["BackgroundWriter", "keep_freed_arrow_pages", "prefetched", "use_streaming_memory_pool"]

T = TypeVar("T")

_END = object()


def prefetched(it: Iterator[T], depth: int = 2) -> Iterator[T]:
    """The items of ``it``, up to ``depth`` next ones produced in a background thread meanwhile
    (two: the reader keeps reading while the caller does its Python work between two checks)."""
    with ThreadPoolExecutor(1, thread_name_prefix="matheval-read") as ex:
        # One worker thread: the iterator's ``next`` calls run one after the other, in order.
        ahead = collections.deque(ex.submit(next, it, _END) for _ in range(depth))
        while True:
            item = ahead.popleft().result()
            if item is _END:
                for fut in ahead:
                    fut.cancel()
                return
            ahead.append(ex.submit(next, it, _END))
            yield item  # type: ignore[misc]


class BackgroundWriter:
    """Calls ``write`` on each item in a thread, in order, with at most one item queued; the
    first error is raised by the next call or by :meth:`close`."""

    def __init__(self, write: Any) -> None:
        self.write = write
        self.queue: queue.Queue[Any] = queue.Queue(maxsize=1)
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._loop, name="matheval-write", daemon=True)
        self.thread.start()

    def _loop(self) -> None:
        while True:
            item = self.queue.get()
            if item is _END:
                return
            if self.error is None:
                try:
                    self.write(item)
                except BaseException as exc:  # handed to the caller's thread
                    self.error = exc

    def __call__(self, item: Any) -> None:
        if self.error is not None:
            raise self.error
        self.queue.put(item)

    def close(self) -> None:
        """Wait for every item to be written; raise the writer's error if there was one."""
        self.queue.put(_END)
        self.thread.join()
        if self.error is not None:
            raise self.error

    def abandon(self) -> None:
        """Stop the thread after what is queued (after an error elsewhere; a no-op after close)."""
        if self.thread.is_alive():
            self.queue.put(_END)
            self.thread.join()


def keep_freed_arrow_pages() -> None:
    """For the command line, before pyarrow loads: Arrow's jemalloc (which
    :func:`use_streaming_memory_pool` switches to) keeps freed pages for the next batch instead of
    handing them back for the kernel to zero again (Parquet to Parquet, 2M rows: 150k -> 73k page
    faults, about 8 % less CPU, 40 MB more RSS). jemalloc reads its settings once, when pyarrow
    loads; a user's own ``JE_ARROW_MALLOC_CONF`` wins, and a process that has loaded pyarrow
    already is left alone."""
    import os
    import sys

    if "pyarrow" not in sys.modules:
        os.environ.setdefault("JE_ARROW_MALLOC_CONF", "dirty_decay_ms:-1,muzzy_decay_ms:-1")


def use_streaming_memory_pool() -> None:
    """Arrow's allocations from jemalloc, where this pyarrow build has it: for the command line's
    own process only, never on import. Streaming reads and frees tens of MB per batch; pyarrow's
    default pool (mimalloc) hands such blocks back to the OS at once, so every batch faults them in
    again and the kernel zeroes the pages (a sixth of ``score``'s CPU time on a Parquet file, and
    ``sys`` time halves with jemalloc, which keeps freed pages a while for reuse)."""
    import os

    import pyarrow as pa

    if "ARROW_DEFAULT_MEMORY_POOL" in os.environ or pa.default_memory_pool().backend_name != "mimalloc":
        return  # the user's choice, or a build whose default is not mimalloc
    try:
        pool = pa.jemalloc_memory_pool()
    except NotImplementedError:  # a pyarrow built without jemalloc (macOS, some conda builds)
        return
    pa.set_memory_pool(pool)
