"""The README and every page under docs/ are tests (Sybil): their code blocks run in `make test`.

- ```` ```python ```` blocks run; a block of ``>>>`` lines is a doctest, so the output it shows is
  checked. The blocks of one page share a namespace, in order.
- ```` ```console ```` blocks are shell sessions: each ``$ command`` runs with bash, and the lines
  under it are its expected output (doctest rules: ``...`` matches anything, whitespace is
  normalised; a command shown without output only has to succeed).
- Any other fenced block must be data (``text``, ``json``, ``jsonl``, ``toml``, ``yaml``), or be
  preceded by ``<!-- skip: next "why it cannot run here" -->`` (installing from the network,
  starting a cluster, a paid API): a shell block that is neither fails.

Commands and code run in one scratch folder per page that holds ``data/`` (the repository's),
``logs/`` and ``logs_real/`` (the lm-eval fixtures of ``tests/data/logs``: ``lm_eval``,
``lm_eval_real``), ``logs_all/`` (all of ``tests/data/logs``) and the small files of :data:`FILES`, with
the virtual environment's ``bin`` first on ``PATH``.
"""

from __future__ import annotations

import doctest
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from sybil import Example, Sybil
from sybil.parsers.markdown import ClearNamespaceParser, CodeBlockParser, PythonCodeBlockParser, SkipParser

ROOT = Path(__file__).resolve().parent

#: Small inputs the examples name, written into each page's scratch folder.
FILES: dict[str, str] = {
    "responses.jsonl": "".join(
        json.dumps(r) + "\n"
        for r in [
            {"id": 1, "response": "She earns 9 * 2 = 18 dollars.\nThe answer is: 18.", "gold": "18"},
            {"id": 2, "response": "So x = \\boxed{\\frac{1}{2}}.", "gold": "0.5"},
            {"id": 3, "response": "I think it is 7.", "gold": "8"},
        ]
    ),
}

_CHECKER = doctest.OutputChecker()
_FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _console(example: Example) -> str | None:
    """Run a console block's ``$`` commands in the page's scratch folder; compare shown output."""
    cwd = example.namespace["__scratch__"]
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    env.pop("COLUMNS", None)
    commands: list[tuple[str, list[str]]] = []
    for line in example.parsed.splitlines():
        if line.startswith("$ "):
            commands.append((line[2:], []))
        elif commands and commands[-1][0].endswith("\\"):
            commands[-1] = (commands[-1][0][:-1] + line, [])
        elif commands:
            commands[-1][1].append(line)
        elif line.strip():
            return f"a console block starts with '$ ', got {line!r}"
    for command, shown in commands:
        done = subprocess.run(
            ["/bin/bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
        )
        got = done.stdout + done.stderr
        if done.returncode != 0:
            return f"$ {command}\nexit status {done.returncode}\n{got}"
        want = "\n".join(shown).strip("\n")
        if want and not _CHECKER.check_output(want + "\n", got, _FLAGS):
            return f"$ {command}\n--- expected\n{want}\n--- got\n{got}"
    return None


def _must_be_skipped(example: Example) -> str:
    return (
        f"a {example.parsed!r:.40} block is neither run (python, console) nor data: mark it "
        '<!-- skip: next "reason" --> if it cannot run in the tests'
    )


class _ShellBlocks(CodeBlockParser):
    """``bash``/``sh``/``shell`` blocks: allowed only when skipped with a reason."""

    def __init__(self, language: str) -> None:
        super().__init__(language=language, evaluator=_must_be_skipped)


def _setup(namespace: dict[str, Any]) -> None:
    scratch = Path(tempfile.mkdtemp(prefix="docs-"))
    (scratch / "data").symlink_to(ROOT / "data")
    (scratch / "logs").symlink_to(ROOT / "tests" / "data" / "logs" / "lm_eval")
    (scratch / "logs_real").symlink_to(ROOT / "tests" / "data" / "logs" / "lm_eval_real")
    (scratch / "logs_all").symlink_to(ROOT / "tests" / "data" / "logs")
    for name, text in FILES.items():
        (scratch / name).write_text(text, encoding="utf-8")
    namespace["__scratch__"] = scratch
    namespace["__cwd__"] = os.getcwd()
    os.chdir(scratch)


def _teardown(namespace: dict[str, Any]) -> None:
    os.chdir(namespace["__cwd__"])
    shutil.rmtree(namespace["__scratch__"], ignore_errors=True)


pytest_collect_file = Sybil(
    parsers=[
        PythonCodeBlockParser(doctest_optionflags=_FLAGS),
        CodeBlockParser(language="console", evaluator=_console),
        *[_ShellBlocks(lang) for lang in ("bash", "sh", "shell")],
        SkipParser(),
        ClearNamespaceParser(),
    ],
    patterns=["README.md", "docs/*.md", "docs/**/*.md"],
    setup=_setup,
    teardown=_teardown,
).pytest()
