"""``matheval-fast`` command line: one sub-command per module of this package.

Each sub-command module exposes ``HELP`` (one line), ``add_arguments(parser)`` and
``run(args) -> int``. Modules are imported only to build the parser or when their sub-command
runs, and a sub-command whose optional dependencies are missing still lists itself, so
``matheval-fast score`` never loads ONNX.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import importlib
import importlib.util
import os
import sys
import warnings
from collections.abc import Iterator, Sequence

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
    # Anything else (`--help`, `--version`, a misspelt command) needs only the list of commands: no
    # sub-command's module is imported for it.
    parser = build_parser("" if command is None else command)
    args = parser.parse_args(argv)
    module = importlib.import_module(args._module)
    try:
        return int(module.run(args) or 0)
    except (ValueError, OSError) as exc:  # misuse and unreadable files: one clear line, exit 2
        # (LogFormatError and MalformedRecordError are ValueErrors; FileNotFoundError an OSError.)
        print(f"matheval-fast {args.command}: error: {exc}", file=sys.stderr)
        return 2
