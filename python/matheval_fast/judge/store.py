"""The resumable run store: one SQLite file (WAL) of finished judge requests, keyed by request hash.

A row is written once its request is finished: ``done`` (the endpoint answered; the verdict may
still be ``unparseable``) or ``failed`` (no usable answer: retries used up, a 4xx, a content
filter; the reason is kept). Rows are committed in batches (every ``commit_every`` rows or
``commit_seconds``) by a writer thread with its own connection, so the event loop never waits for
the disk; at most ``_MAX_BACKLOG`` batches wait for it (then ``submit`` waits: backpressure, flat
memory). A run killed with SIGKILL loses at most the answers of those batches and of the requests
in flight, which the next run sends again; a committed request is never sent
again (unless ``--retry-failed`` asks for the failed ones). WAL with ``synchronous=NORMAL`` keeps
committed transactions through a process crash (only an OS crash or power loss can undo the
last ones).

The key is :func:`request_key`: sha256 over the model name, the template version, the rendered
messages (template wording + the item's inputs) and the sampling parameters. The same item under
another model, prompt or temperature is another request; the same request from two items, files
or output folders is judged once.
"""

from __future__ import annotations

import functools
import hashlib
import json
import queue
import sqlite3
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

__all__ = ["SCHEMA_VERSION", "RunStore", "StoredResult", "request_key"]

SCHEMA_VERSION = 1


def request_key(
    model: str, template_version: str, messages: Sequence[Mapping[str, str]], params: Mapping[str, Any]
) -> str:
    """Hex sha256 identifying one judge request: the model, the template version, the rendered
    messages (role and text of each) and the sampling parameters (every one that is sent: temperature,
    seed, top-p, max_tokens, n and how samples are drawn, JSON mode).

    The values are hashed, not the JSON bytes sent, so the key does not depend on the JSON library.
    """
    h = hashlib.sha256(_key_prefix(model, template_version, json.dumps(params, sort_keys=True)))
    for m in messages:
        h.update(m["role"].encode("utf-8"))
        h.update(b"\x00")
        h.update(m["content"].encode("utf-8", "surrogatepass"))
        h.update(b"\x00")
    return h.hexdigest()


@functools.lru_cache(maxsize=64)
def _key_prefix(model: str, template_version: str, params: str) -> bytes:
    return json.dumps([model, template_version, params]).encode("utf-8") + b"\n"


class StoredResult(NamedTuple):
    """One finished request, as stored (a tuple, so rows go to SQLite as they are)."""

    key: str
    #: "done" or "failed".
    status: str
    #: "yes", "no", "unparseable", or None when failed.
    verdict: str | None
    #: JSON {"yes": k, "no": m, "unparseable": u} over the samples.
    votes: str
    #: why the verdict is unparseable or the request failed; None otherwise.
    reason: str | None
    #: JSON list of the answer texts (one per sample).
    texts: str
    #: JSON list of finish reasons.
    finish_reasons: str
    #: the raw response body (JSON list of bodies when samples were separate requests).
    raw: str
    prompt_tokens: int
    completion_tokens: int
    latency_ms: float
    attempts: int
    http_status: int
    model: str
    template: str
    item_id: str | None
    run_id: int
    created: float


_COLUMNS = list(StoredResult._fields)
#: batches handed to the writer thread and not yet committed, at most.
_MAX_BACKLOG = 2
# Queries are built from this module's own column names only; values always go as parameters.
_INSERT = f"INSERT OR REPLACE INTO results ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' * len(_COLUMNS))})"  # noqa: S608


_TYPES = {
    "prompt_tokens": "INTEGER",
    "completion_tokens": "INTEGER",
    "latency_ms": "REAL",
    "attempts": "INTEGER",
    "http_status": "INTEGER",
    "run_id": "INTEGER",
    "created": "REAL",
}


def _connect(path: Path) -> sqlite3.Connection:
    # A 30 s busy timeout: the writer thread and the reading connection never fail on each other's locks.
    db = sqlite3.connect(path, timeout=30.0)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    return db


def _open(path: Path) -> sqlite3.Connection:
    """The store at ``path``, with its tables; a path that cannot hold one (a folder, a file that is
    no SQLite database, no permission) is a ``ValueError`` that says which and what to do, not an
    ``sqlite3`` traceback."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ValueError(
            f"run store {path}: cannot create its folder ({exc.strerror}); name a store (--store) "
            "in a folder you can write to"
        ) from None
    if path.is_dir():
        raise ValueError(f"run store {path} is a folder: name a file (--store), e.g. {path / 'judge.sqlite'}")
    db: sqlite3.Connection | None = None
    try:
        db = _connect(path)
        _create_tables(db, path)
    except sqlite3.DatabaseError as exc:
        if db is not None:
            db.close()
        if "not a database" in str(exc):
            raise ValueError(
                f"run store {path} is not an SQLite database (a judge run store): name a new file or "
                "the store of an earlier run (--store)"
            ) from None
        raise ValueError(
            f"run store {path}: cannot open or write it ({exc}); name a store (--store) in a folder "
            "you can write to"
        ) from None
    except BaseException:
        if db is not None:
            db.close()
        raise
    return db


def _create_tables(db: sqlite3.Connection, path: Path) -> None:
    """The tables, made when missing (``ValueError`` for a store of another schema)."""
    cols = ", ".join(
        f"{c} {_TYPES.get(c, 'TEXT')}" + (" PRIMARY KEY" if c == "key" else "") for c in _COLUMNS
    )
    with db:
        db.execute("CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT NOT NULL)")
        # A rowid table with an index on key: appends are twice as fast as a WITHOUT ROWID table
        # keyed by random hashes, for rows of a few hundred bytes.
        db.execute(f"CREATE TABLE IF NOT EXISTS results ({cols})")
        db.execute(
            "CREATE TABLE IF NOT EXISTS runs (run_id INTEGER PRIMARY KEY, started REAL, finished REAL,"
            " config TEXT, stats TEXT)"
        )
        row = db.execute("SELECT v FROM meta WHERE k = 'schema'").fetchone()
        if row is None:
            db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        elif row[0] != str(SCHEMA_VERSION):
            raise ValueError(f"{path}: run store schema {row[0]}, this version reads {SCHEMA_VERSION}")


def _write(db: sqlite3.Connection, batch: list[tuple[Any, ...]]) -> None:
    with db:
        db.executemany(_INSERT, batch)


class RunStore:
    """The SQLite store. Not thread-safe: use it from the thread (event loop) that opened it."""

    def __init__(
        self,
        path: str | Path,
        *,
        commit_every: int = 256,
        commit_seconds: float = 0.5,
        background: bool = True,
    ) -> None:
        self.path = Path(path)
        self.db = _open(self.path)
        self.commit_every = commit_every
        self.commit_seconds = commit_seconds
        self._buffer: list[tuple[Any, ...]] = []
        self._last_submit = time.monotonic()
        #: batches handed to the writer, and the highest batch number committed so far.
        self.submitted = 0
        self.committed = 0
        self._background = background
        self._queue: queue.SimpleQueue[tuple[int, list[tuple[Any, ...]]] | None] = queue.SimpleQueue()
        self._writer: threading.Thread | None = None
        self._writer_error: BaseException | None = None
        self._drained = threading.Condition()

    # -- runs -----------------------------------------------------------------------------------

    def start_run(self, config: Mapping[str, Any]) -> int:
        with self.db:
            cur = self.db.execute(
                "INSERT INTO runs (started, config) VALUES (?, ?)", (time.time(), json.dumps(config))
            )
        return int(cur.lastrowid or 0)

    def finish_run(self, run_id: int, stats: Mapping[str, Any]) -> None:
        self.flush()
        with self.db:
            self.db.execute(
                "UPDATE runs SET finished = ?, stats = ? WHERE run_id = ?",
                (time.time(), json.dumps(stats), run_id),
            )

    def runs(self) -> list[dict[str, Any]]:
        rows = self.db.execute("SELECT run_id, started, finished, config, stats FROM runs ORDER BY run_id")
        return [
            {
                "run_id": r[0],
                "started": r[1],
                "finished": r[2],
                "config": json.loads(r[3] or "null"),
                "stats": json.loads(r[4] or "null"),
            }
            for r in rows
        ]

    # -- results --------------------------------------------------------------------------------

    def count(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM results").fetchone()[0])

    def finished(self, keys: Sequence[str], *, retry_failed: bool = False) -> set[str]:
        """The subset of ``keys`` that need no request (``done``, and ``failed`` unless retrying)."""
        out: set[str] = set()
        status = "('done')" if retry_failed else "('done', 'failed')"
        for start in range(0, len(keys), 500):
            chunk = list(keys[start : start + 500])
            marks = ",".join("?" * len(chunk))
            q = f"SELECT key FROM results WHERE key IN ({marks}) AND status IN {status}"  # noqa: S608
            out.update(r[0] for r in self.db.execute(q, chunk))
        return out

    def get_many(self, keys: Iterable[str]) -> dict[str, StoredResult]:
        keys = list(dict.fromkeys(keys))
        out: dict[str, StoredResult] = {}
        for start in range(0, len(keys), 500):
            chunk = keys[start : start + 500]
            marks = ",".join("?" * len(chunk))
            q = f"SELECT {', '.join(_COLUMNS)} FROM results WHERE key IN ({marks})"  # noqa: S608
            for row in self.db.execute(q, chunk):
                out[row[0]] = StoredResult(*row)
        return out

    def add(self, result: StoredResult) -> None:
        """Buffer one result; hands the batch to the writer when it is full or old."""
        self._buffer.append(result)
        if (
            len(self._buffer) >= self.commit_every
            or time.monotonic() - self._last_submit >= self.commit_seconds
        ):
            self.submit()

    @property
    def next_batch(self) -> int:
        """The number the batch now being buffered will have (compare with :attr:`committed`)."""
        return self.submitted + 1

    def submit(self) -> None:
        """Hand the buffered results to the writer (a background thread, so the event loop never
        waits for the disk); :attr:`committed` reaches this batch's number once it is on disk."""
        self._raise_writer_error()
        self._last_submit = time.monotonic()
        if not self._buffer:
            return
        batch, self._buffer = self._buffer, []
        self.submitted += 1
        if not self._background:
            _write(self.db, batch)
            self.committed = self.submitted
            return
        if self._writer is None:
            self._writer = threading.Thread(target=self._write_loop, name="judge-store-writer", daemon=True)
            self._writer.start()
        self._queue.put((self.submitted, batch))
        # Backpressure: when the disk falls behind, wait here (the GIL is free meanwhile) instead of
        # queueing batches without bound; memory stays flat and a kill loses at most a few batches.
        with self._drained:
            while self.submitted - self.committed > _MAX_BACKLOG and self._writer_error is None:
                self._drained.wait(0.1)
        self._raise_writer_error()

    def flush(self) -> int:
        """Commit everything buffered and wait until it is on disk; returns the rows committed now."""
        n = len(self._buffer)
        self.submit()
        with self._drained:
            while self.committed < self.submitted and self._writer_error is None:
                self._drained.wait(0.1)
        self._raise_writer_error()
        return n

    def _write_loop(self) -> None:
        db = _connect(self.path)
        try:
            while True:
                item = self._queue.get()
                if item is None:
                    return
                number, batch = item
                try:
                    _write(db, batch)
                except BaseException as exc:  # handed to the caller's thread on its next call
                    self._writer_error = exc
                with self._drained:
                    if self._writer_error is None:
                        self.committed = number
                    self._drained.notify_all()
                if self._writer_error is not None:
                    return
        finally:
            db.close()

    def _raise_writer_error(self) -> None:
        if self._writer_error is not None:
            raise RuntimeError(f"writing the run store {self.path} failed: {self._writer_error}")

    @property
    def pending(self) -> int:
        """Results buffered here and not yet handed to the writer."""
        return len(self._buffer)

    def totals(self) -> dict[str, int]:
        """Rows and tokens over the whole store."""
        row = self.db.execute(
            "SELECT COUNT(*), COALESCE(SUM(prompt_tokens), 0), COALESCE(SUM(completion_tokens), 0),"
            " COALESCE(SUM(status = 'failed'), 0) FROM results"
        ).fetchone()
        return {"results": row[0], "prompt_tokens": row[1], "completion_tokens": row[2], "failed": row[3]}

    def close(self) -> None:
        try:
            self.flush()
        finally:
            if self._writer is not None:
                self._queue.put(None)
                self._writer.join()
                self._writer = None
            self.db.close()

    def __enter__(self) -> RunStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
