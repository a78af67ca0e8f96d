"""Output files that are either complete or absent, published as one set, and JSON that stays standard.

A command that writes several files (``consistency``: pairs, summary, plot) writes each under a
temporary name beside it and renames them all at the end (:func:`output_set`): a run that fails or
is interrupted leaves the previous run's files as they were, never new files beside old ones.

Why not a run folder built under a temporary name and renamed at the end: a rename cannot replace a
folder that is not empty, so publishing would need two renames with no output folder between them,
and ``--out`` holds more than one run's files (``judge``'s resumable store, a user's own files, a
``score`` output beside its input) that a folder swap would move away. Why not a manifest written
last: every reader would have to check it, and the files beside it would still be a mix.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import signal
import stat
import tempfile
import threading
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from types import FrameType
from typing import IO, Any

__all__ = [
    "OutputError",
    "OutputSet",
    "atomic_path",
    "atomic_write",
    "json_safe",
    "json_text",
    "output_set",
    "refuse_overlap",
    "same_file",
    "write_json",
]


class OutputError(ValueError):
    """An output that cannot be written where it was asked for (a folder, a device, no permission):
    raised before any work, with the path the user gave and what to do, never a temporary name."""


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; rename it onto ``path`` only if the block succeeds.

    A run killed half-way leaves at most a ``.<name>.*.tmp`` file, never a truncated ``path`` that
    looks complete. The temporary file sits in the same directory so the rename is atomic.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp_path: Path | None = None
    try:
        with _signals_held():  # Ctrl-C between making the file and knowing its name would leak it
            fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
            os.close(fd)
            tmp_path = Path(tmp)
        yield tmp_path
        # mkstemp makes the file private (0600); a finished output gets the usual permissions.
        if tmp_path.exists():
            os.chmod(tmp_path, 0o666 & ~_umask())
        os.replace(tmp_path, target)
    except BaseException:
        if tmp_path is not None:
            with contextlib.suppress(OSError):
                tmp_path.unlink()
        raise


@contextlib.contextmanager
def atomic_write(path: str | os.PathLike[str], mode: str = "w", **kwargs: Any) -> Iterator[IO[Any]]:
    """``open()`` on a temporary file that replaces ``path`` when the block ends without error."""
    if "b" not in mode:
        kwargs.setdefault("encoding", "utf-8")
    with atomic_path(path) as tmp, open(tmp, mode, **kwargs) as fh:
        yield fh


def json_safe(obj: Any) -> Any:
    """NaN and infinities -> ``None``, tuples -> lists, keys -> ``str``: standard JSON, not Python's."""
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, Mapping):
        return {str(k): json_safe(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_safe(v) for v in obj]
    return obj


def json_text(obj: Any, *, indent: int | None = 2) -> str:
    """``obj`` as standard JSON text (see :func:`json_safe`) with a final newline."""
    return json.dumps(json_safe(obj), indent=indent, ensure_ascii=False, allow_nan=False) + "\n"


def write_json(path: str | os.PathLike[str], obj: Any, *, indent: int = 2) -> None:
    """Write ``obj`` as standard JSON (see :func:`json_safe`), atomically."""
    with atomic_write(path) as fh:
        fh.write(json_text(obj, indent=indent))


def same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """Whether two paths name one file: the same path once links and ``..`` are resolved, or the
    same inode (a hard link, a case-insensitive file system) when both exist."""
    with contextlib.suppress(OSError):
        if os.path.samefile(a, b):
            return True
    return os.path.realpath(a) == os.path.realpath(b)


# ---- One run's outputs, published together ------------------------------------------------------


class OutputSet:
    """The files one run writes, published together (use :func:`output_set`).

    :meth:`prepare` checks every target and creates its temporary file beside it (``.<name>.*.tmp``),
    so a folder that cannot be written fails before the work. The run writes into :meth:`path`;
    :meth:`commit` renames every temporary file onto its target with SIGINT, SIGTERM and SIGHUP held back
    (delivered right after), so Ctrl-C cannot stop the set half renamed; :meth:`discard` removes
    the temporary files and the folders :meth:`prepare` created. Only a hard kill (SIGKILL, power
    loss) in the few microseconds of the renames can leave a mixed set.
    """

    def __init__(
        self,
        targets: Iterable[str | os.PathLike[str] | tuple[str | os.PathLike[str], str]],
        *,
        option: str = "--out",
        inputs: Iterable[str | os.PathLike[str]] = (),
    ) -> None:
        #: (target, the option it came from, for messages)
        self.pairs = [(Path(t[0]), t[1]) if isinstance(t, tuple) else (Path(t), option) for t in targets]
        self.inputs = [Path(i) for i in inputs]
        self._tmp: dict[Path, Path] = {}
        self._made: list[Path] = []

    def prepare(self) -> OutputSet:
        """Check the targets and make their temporary files (see the class doc)."""
        refuse_overlap(self.pairs, self.inputs)
        try:
            # Signals held: Ctrl-C between making a file and recording its name would leak it.
            with _signals_held():
                for t, option in self.pairs:
                    self._make_parent(t, option)
                    _check_target(t, option)
                    fd, tmp = _mkstemp(t, option)
                    os.close(fd)
                    self._tmp[t] = Path(tmp)
        except BaseException:
            self.discard()
            raise
        return self

    def _make_parent(self, target: Path, option: str) -> None:
        missing: list[Path] = []
        d = target.parent
        while not d.exists() and d != d.parent:
            missing.append(d)
            d = d.parent
        if not d.is_dir():
            raise OutputError(f"{option}: {d} is a file, not a folder: name a new or an existing folder")
        for m in reversed(missing):
            try:
                m.mkdir()
            except FileExistsError:
                if not m.is_dir():
                    raise OutputError(
                        f"{option}: {m} is a file, not a folder: name a new or an existing folder"
                    ) from None
                continue
            except OSError as exc:
                raise OutputError(
                    f"{option}: cannot create the folder {m} ({exc.strerror}); "
                    "choose a folder you can write to"
                ) from None
            self._made.append(m)

    def path(self, target: str | os.PathLike[str]) -> Path:
        """The temporary file to write ``target``'s content to (``target`` as given, or its name)."""
        t = Path(target)
        if t in self._tmp:
            return self._tmp[t]
        named = [u for u in self._tmp if u.name == str(target)]
        if len(named) != 1:
            raise KeyError(f"{target} is not an output of this set")
        return self._tmp[named[0]]

    def commit(self) -> None:
        mode = 0o666 & ~_umask()
        with _signals_held():
            for target, tmp in list(self._tmp.items()):
                os.chmod(tmp, mode)  # mkstemp makes the file private (0600)
                os.replace(tmp, target)
                del self._tmp[target]
            self._made.clear()  # the set is published: its folders stay

    def discard(self) -> None:
        with _signals_held():  # a second Ctrl-C does not stop the clean-up half-way
            for tmp in self._tmp.values():
                with contextlib.suppress(OSError):
                    tmp.unlink()
            self._tmp.clear()
            for d in reversed(self._made):  # innermost first; a folder someone filled meanwhile stays
                with contextlib.suppress(OSError):
                    d.rmdir()
            self._made.clear()


def refuse_overlap(
    targets: Iterable[tuple[str | os.PathLike[str], str]], inputs: Iterable[str | os.PathLike[str]] = ()
) -> None:
    """:class:`OutputError` when a target (``(path, option)``) is one of ``inputs`` or another
    target, by path, link or inode: writing it would replace an input, or one output another."""
    inputs = [Path(i) for i in inputs]
    seen: list[tuple[Path, str]] = []
    for target, option in targets:
        t = Path(target)
        for i in inputs:
            if same_file(t, i):
                raise OutputError(
                    f"{option}: {t} is also an input ({i}); writing it would replace the input: "
                    f"choose another {option}"
                )
        for u, other in seen:
            if same_file(t, u):
                raise OutputError(
                    f"{option}: {t} is also the output of {other} ({u}): give each output its own file"
                )
        seen.append((t, option))


@contextlib.contextmanager
def output_set(
    targets: Iterable[str | os.PathLike[str] | tuple[str | os.PathLike[str], str]],
    *,
    option: str = "--out",
    inputs: Iterable[str | os.PathLike[str]] = (),
) -> Iterator[OutputSet]:
    """Temporary files for ``targets`` (made now: an unwritable folder fails here), renamed onto the
    targets together when the block ends without error, removed when it raises (Ctrl-C included).

    A target that is one of ``inputs`` or another target (by path, link or inode) is refused first
    (:class:`OutputError`). ``option`` names the command-line option the targets came from, for the
    messages; a target given as ``(path, option)`` names its own."""
    files = OutputSet(targets, option=option, inputs=inputs)
    try:
        files.prepare()
        yield files
        files.commit()
    finally:
        files.discard()  # after an error, Ctrl-C or a failed rename: no temporary file stays


def _check_target(target: Path, option: str) -> None:
    try:
        st = target.stat()
    except FileNotFoundError:
        return
    except OSError as exc:
        raise OutputError(f"{option}: cannot use {target} ({exc.strerror})") from None
    if stat.S_ISDIR(st.st_mode):
        raise OutputError(
            f"{option}: {target} is a folder, not a file: name a file, or choose another {option}"
        )
    if not stat.S_ISREG(st.st_mode):
        raise OutputError(f"{option}: {target} is not a regular file (a device or a pipe); name a file")


def _mkstemp(target: Path, option: str) -> tuple[int, str]:
    try:
        return tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise OutputError(
            f"{option}: cannot write {target} ({exc.strerror}); choose a folder you can write to"
        ) from None


#: the signals that end a run from outside (Ctrl-C, ``kill``, the terminal closed)
_HELD = tuple(getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, n))


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """SIGINT, SIGTERM and SIGHUP that arrive in the block are delivered when it ends (main thread only:
    elsewhere handlers cannot be changed, and the block runs as is)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        caught.append(signum)

    previous: dict[int, Any] = {}
    for held in _HELD:
        if signal.getsignal(held) is None:  # a handler set outside Python: left alone
            continue
        with contextlib.suppress(ValueError, OSError):
            previous[held] = signal.signal(held, hold)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        for signum in dict.fromkeys(caught):
            handler = previous.get(signum)
            if callable(handler):
                handler(signum, None)
            elif handler != signal.SIG_IGN:
                os.kill(os.getpid(), signum)  # the default action, now that the set is whole
