"""``matheval-fast`` command line: one sub-command per module of this package.

Each sub-command module exposes ``HELP`` (one line), ``add_arguments(parser)`` and
``run(args) -> int``. Modules are imported only to build the parser or when their sub-command
runs, and a sub-command whose optional dependencies are missing still lists itself, so
``matheval-fast score`` never loads ONNX.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

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


def add_engine_arguments(p: argparse.ArgumentParser, ray_help: str) -> None:
    """``--engine local|ray`` and ``--address``, shared by ``score`` and ``rescore``."""
    engines = ["local", "ray"]
    p.add_argument("--engine", choices=engines, default="local", help=f"local (default) or {ray_help}")
    p.add_argument(
        "--address", default=None, help="--engine ray: the cluster to join ('auto': a running one)"
    )


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with ``only``, just that sub-command's (each sub-command's module
    is imported to build its part, and some import heavy packages: ``judge`` needs aiohttp)."""
    from matheval_fast import __version__

    parser = argparse.ArgumentParser(
        prog="matheval-fast",
        description="Score LLM outputs on math and reasoning benchmarks (matheval_fast).",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, module in SUBCOMMANDS.items():
        if only is not None and name != only:
            continue
        mod = importlib.import_module(module)
        p = sub.add_parser(name, help=mod.HELP, description=mod.HELP)
        p.set_defaults(_module=module)
        mod.add_arguments(p)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    keep_freed_arrow_pages()  # before any sub-command imports pyarrow
    # `matheval-fast score ...` builds only `score`'s parser: a run starts in a fraction of the time.
    command = argv[0] if argv and argv[0] in SUBCOMMANDS else None
    if argv == ["--version"]:
        command = ""  # no sub-command's module to import just to print the version
    parser = build_parser(command)
    args = parser.parse_args(argv)
    module = importlib.import_module(args._module)
    try:
        return int(module.run(args) or 0)
    except (ValueError, OSError) as exc:  # misuse and unreadable files: one clear line, exit 2
        # (LogFormatError and MalformedRecordError are ValueErrors; FileNotFoundError an OSError.)
        print(f"matheval-fast {args.command}: error: {exc}", file=sys.stderr)
        return 2
