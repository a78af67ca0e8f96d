"""MkDocs hook: the command line reference is the parser's own help, rendered at build time.

A page line ``<!-- cli-help: score -->`` becomes the ``--help`` text of ``matheval-fast score`` (an
empty name: the list of commands), so docs/cli.md cannot fall behind the options.
"""

from __future__ import annotations

import os
import re
from typing import Any

_MARK = re.compile(r"^<!-- cli-help: ?([a-z-]*) -->$", re.M)


def _help(command: str) -> str:
    from matheval_fast.cli import build_parser

    os.environ["COLUMNS"] = "100"  # argparse wraps to the terminal; the page has one width
    parser = build_parser(command)
    if not command:
        return parser.format_help()
    sub = next(a for a in parser._actions if a.dest == "command")  # argparse has no API for it
    return sub.choices[command].format_help()  # type: ignore[union-attr]


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    return _MARK.sub(lambda m: "```text\n" + _help(m.group(1)).rstrip() + "\n```", markdown)
