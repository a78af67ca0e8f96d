"""``matheval-fast`` command line: one sub-command per module of this package.

Each sub-command module exposes ``HELP`` (one line), ``add_arguments(parser)`` and
``run(args) -> int``. Modules are imported only to build the parser or when their sub-command
runs, and a sub-command whose optional dependencies are missing still lists itself, so
``matheval-fast score`` never loads ONNX.

Numeric options are parsed by the validators below (:func:`int_range`, :func:`float_range`): a
value out of range is a usage error naming the option and the allowed range, before any work.
Ctrl-C (SIGINT), SIGTERM and SIGHUP end a run with one line and status 130 / 143 / 129: every output
is written under a temporary name and renamed when complete, so none is half written.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import importlib
import importlib.util
import math
import os
import signal
import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from types import FrameType
from typing import Any

from matheval_fast._pipeline import keep_freed_arrow_pages

#: sub-command name -> module under ``matheval_fast.cli``. Keep in the order ``--help`` shows.
SUBCOMMANDS: dict[str, str] = {
    "score": "matheval_fast.cli.score",
    "rescore": "matheval_fast.cli.rescore",
    "compare": "matheval_fast.cli.compare",
    "consistency": "matheval_fast.cli.consistency",
    "judge": "matheval_fast.cli.judge",
    "unanswerable": "matheval_fast.cli.unanswerable",
}


@contextlib.contextmanager
def notes(command: str) -> Iterator[None]:
    """Warnings of this package raised inside the block, printed after it as one plain line each
    (``matheval-fast <command>: note: ...``), not as a warning with a source line under it. Other
    packages' warnings keep Python's own display and filters: Ray's deprecation warnings are not
    ours to report."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    for w in caught:
        if _ours(w):
            print(f"matheval-fast {command}: note: {w.message}", file=sys.stderr)
        elif not issubclass(w.category, (DeprecationWarning, PendingDeprecationWarning, FutureWarning)):
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)  # Python's filters


def _ours(w: warnings.WarningMessage) -> bool:
    """A warning this package raised: its class is ours, or it was raised from our code."""
    if w.category.__module__.split(".")[0] == "matheval_fast":
        return True
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return os.path.abspath(w.filename).startswith(here + os.sep)


# ---- Validators for numeric options ---------------------------------------------------------------

#: ``--threads``' upper bound: more threads than this only cost start-up time (2,000 threads took
#: 5 s to start, 8,000 took 72 s) on any machine this runs on.
MAX_THREADS = 1024


def int_range(lo: int, hi: int | None = None) -> Callable[[str], int]:
    """An argparse ``type=``: an integer ``lo <= n (<= hi)``; anything else is a usage error that
    names the allowed range."""
    allowed = f"an integer from {lo} to {hi}" if hi is not None else f"an integer >= {lo}"

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {allowed}, got {text!r}") from None
        if value < lo or (hi is not None and value > hi):
            raise argparse.ArgumentTypeError(f"expected {allowed}, got {text}")
        return value

    parse.__name__ = "integer"
    return parse


def float_range(
    lo: float | None = None,
    hi: float | None = None,
    *,
    lo_open: bool = False,
    hi_open: bool = False,
) -> Callable[[str], float]:
    """An argparse ``type=``: a finite number within the bounds (``lo_open``/``hi_open``: the bound
    itself excluded); ``nan``, ``inf`` and values out of range are usage errors naming the range."""
    parts = []
    if lo is not None:
        parts.append(f"{'>' if lo_open else '>='} {lo:g}")
    if hi is not None:
        parts.append(f"{'<' if hi_open else '<='} {hi:g}")
    allowed = "a finite number" + (" " + " and ".join(parts) if parts else "")

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {allowed}, got {text!r}") from None
        if (
            not math.isfinite(value)
            or (lo is not None and (value < lo or (lo_open and value == lo)))
            or (hi is not None and (value > hi or (hi_open and value == hi)))
        ):
            raise argparse.ArgumentTypeError(f"expected {allowed}, got {text}")
        return value

    parse.__name__ = "number"
    return parse


#: ``--threads N``: Rust worker threads, 1..MAX_THREADS.
threads_arg = int_range(1, MAX_THREADS)
#: seconds of a deadline: finite and > 0.
seconds_arg = float_range(0, lo_open=True)


def add_checking_arguments(p: argparse.ArgumentParser) -> None:
    """``--threads`` and ``--timeout``, the same in every command that checks answers."""
    from matheval_fast._sympy.pool import DEFAULT_TIMEOUT

    p.add_argument(
        "--threads",
        type=threads_arg,
        default=None,
        help=f"Rust worker threads, 1 to {MAX_THREADS} (default: all cores)",
    )
    p.add_argument(
        "--timeout",
        type=seconds_arg,
        default=DEFAULT_TIMEOUT,
        help=f"CPU seconds per SymPy fallback comparison (> 0; default {DEFAULT_TIMEOUT:g})",
    )


def add_engine_arguments(p: argparse.ArgumentParser, ray_help: str) -> None:
    """``--engine local|ray`` and ``--address``, shared by ``score`` and ``rescore``."""
    engines = ["local", "ray"]
    p.add_argument("--engine", choices=engines, default="local", help=f"local (default) or {ray_help}")
    p.add_argument(
        "--address", default=None, help="--engine ray: the cluster to join ('auto': a running one)"
    )


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with ``only``, just that sub-command's (each sub-command's module
    is imported to build its part, and some import heavy packages: ``judge`` needs aiohttp); with
    ``only=""``, the list of sub-commands without their arguments (nothing imported)."""
    from matheval_fast import __version__

    parser = argparse.ArgumentParser(
        prog="matheval-fast",
        description="Score LLM outputs on math and reasoning benchmarks (matheval_fast).",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, module in SUBCOMMANDS.items():
        if only == "":
            # The list of commands only: each one's HELP is read from its source, so `--help` imports
            # none of them (judge's aiohttp alone took a fifth of a second).
            p = sub.add_parser(name, help=_help_line(module), description=_help_line(module))
            p.set_defaults(_module=module)
            continue
        if name != only:
            continue
        mod = importlib.import_module(module)
        p = sub.add_parser(name, help=mod.HELP, description=mod.HELP)
        p.set_defaults(_module=module)
        mod.add_arguments(p)
    return parser


def _help_line(module: str) -> str:
    """A sub-command module's ``HELP`` string, read from its source without importing it."""
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:  # pragma: no cover - every module is in the package
        return ""
    with open(spec.origin, encoding="utf-8") as fh:
        tree = ast.parse(fh.read(), spec.origin)
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "HELP" for t in node.targets)
            and isinstance(node.value, ast.Constant)
        ):
            return str(node.value.value)
    return ""


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    keep_freed_arrow_pages()  # before any sub-command imports pyarrow
    # `matheval-fast score ...` builds only `score`'s parser: a run starts in a fraction of the time.
    command = argv[0] if argv and argv[0] in SUBCOMMANDS else None
    name = f"matheval-fast {command}" if command else "matheval-fast"
    args: argparse.Namespace | None = None
    try:
        with _sigterm_interrupts():
            # Anything else (`--help`, `--version`, a misspelt command) needs only the list of
            # commands: no sub-command's module is imported for it.
            parser = build_parser("" if command is None else command)
            args = parser.parse_args(argv)
            module = importlib.import_module(args._module)
            return int(module.run(args) or 0)
    except KeyboardInterrupt as exc:
        # Ctrl-C, SIGTERM or SIGHUP (even while the parser's imports run): one line, no traceback. Outputs
        # are renamed into place only when complete, so an interrupted run wrote none.
        signum = exc.signum if isinstance(exc, Terminated) else signal.SIGINT
        what = "interrupted" if signum == signal.SIGINT else "terminated"
        print(f"{name}: {what}; {_interrupted_note(args)}", file=sys.stderr)
        return 128 + int(signum)
    except (ValueError, OSError) as exc:  # misuse and unreadable files: one clear line, exit 2
        # (LogFormatError and MalformedRecordError are ValueErrors; FileNotFoundError an OSError.)
        print(f"{name}: error: {exc}", file=sys.stderr)
        return 2


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP, raised where Ctrl-C would be so that the same clean-up runs (temporary
    files removed)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


#: signals whose default action (the process ends at once, its temporary files left) becomes
#: :class:`Terminated` during a run: SIGTERM (``kill``, a job scheduler) and SIGHUP (the terminal closed)
TERMINATING = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


@contextlib.contextmanager
def _sigterm_interrupts() -> Iterator[None]:
    """:data:`TERMINATING` signals raise :class:`Terminated` in the main thread for the block's
    duration; a signal someone chose to ignore (``nohup`` ignores SIGHUP) stays ignored."""

    def raise_terminated(signum: int, frame: FrameType | None) -> None:
        raise Terminated(signum)

    previous: dict[int, Any] = {}
    try:
        for sig in TERMINATING:
            if signal.getsignal(sig) not in (signal.SIG_IGN, None):
                previous[sig] = signal.signal(sig, raise_terminated)
    except ValueError:  # not the main thread (main() called from a thread): nothing to set
        yield
        return
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _interrupted_note(args: argparse.Namespace | None) -> str:
    if args is not None and args.command == "judge" and not getattr(args, "dry_run", False):
        return (
            "no output file was written (those of a previous run are intact); the answers received "
            "so far are kept in the run store: run again with --resume to continue"
        )
    return "no output was written (those of a previous run are intact)"
