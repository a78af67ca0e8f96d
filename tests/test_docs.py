"""The README and docs/ as a contract: every fenced block is run (python, console) or is data, and a
shell block that cannot run here says why. The blocks themselves run through the root conftest.py
(Sybil); this checks that none escapes it by having no language or an unknown one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
RUN = {"python", "console"}
DATA = {"text", "json", "jsonl", "toml", "yaml"}
SHELL = {"bash", "sh", "shell"}
SKIP = re.compile(r'<!-- skip: next "[^"]+" -->\s*$')


def _blocks(text: str) -> list[tuple[int, str, str]]:
    """(line, language, the line before) of each fenced block's opening fence."""
    lines = text.splitlines()
    out, inside = [], False
    for n, line in enumerate(lines):
        if line.startswith("```"):
            if not inside:
                out.append((n + 1, line[3:].strip(), lines[n - 1] if n else ""))
            inside = not inside
    return out


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_block_runs_or_is_data_or_says_why_not(page):
    for line, lang, before in _blocks(page.read_text(encoding="utf-8")):
        where = f"{page.name}:{line}"
        assert lang in RUN | DATA | SHELL, f"{where}: a block needs a language (run: {RUN}, data: {DATA})"
        if lang in SHELL:
            assert SKIP.match(before), (
                f'{where}: a {lang} block must be <!-- skip: next "why" -->, or console'
            )


def test_the_readme_stays_short():
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 200
