"""``matheval-fast`` command line: one sub-command per protocol.

Each sub-command lives in its own module exposing ``add_arguments(parser)`` and ``run(args) -> int``;
modules are imported only when their sub-command runs, so ``matheval-fast score`` never loads ONNX.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# name -> (module, one-line help)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "score": ("matheval_fast.score", "score responses against reference answers (protocol A)"),
    "consistency": (
        "matheval_fast.consistency",
        "self-evaluation consistency on paired prompts: Siegel-Tukey on scores and NLI (protocol D)",
    ),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="matheval-fast", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (module, help_text) in SUBCOMMANDS.items():
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as exc:  # a protocol not built into this install
            if exc.name != module:
                raise
            continue
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.set_defaults(_module=module)
        mod.add_arguments(p)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    module = importlib.import_module(args._module)
    try:
        return int(module.run(args) or 0)
    except (ValueError, OSError) as exc:  # misuse and unreadable files: one clear line, exit 2
        print(f"matheval-fast {args.command}: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
