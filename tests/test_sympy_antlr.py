"""The fixed mode's SymPy fallback gives the same verdicts whatever ANTLR runtime is installed, or none.

verl pins ``antlr4-python3-runtime`` 4.9.3 (through omegaconf) and lighteval 4.13.2, while SymPy's LaTeX
parser runs only on 4.11; the fallback used to depend on it, so next to those frameworks every item that
needed it became ``error`` (issue 34, finding 6). Each case runs a fresh interpreter with the runtime's
folder first on ``PYTHONPATH`` (made by ``scripts/prepare_antlr_targets.sh``; the test installs nothing),
and one with ``antlr4`` blocked by an import hook, which needs no folder. The xwin mode reproduces the seed,
which used SymPy's ANTLR parser: it keeps it, and says ``error`` where it cannot run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

CACHE = Path(os.environ.get("MATHEVAL_FAST_FW_CACHE", Path.home() / ".cache" / "matheval_fast" / "fw"))
PREPARED = sorted(p.name.removeprefix("antlr-") for p in CACHE.glob("antlr-*") if (p / "antlr4").is_dir())
#: The runtimes scripts/prepare_antlr_targets.sh makes.
PINNED = ["4.11.1", "4.13.2", "4.9.3"]

BLOCK = r"""
import sys
class _NoAntlr:
    def find_spec(self, name, path=None, target=None):
        if name == "antlr4" or name.startswith("antlr4."):
            raise ImportError("antlr4 blocked by the test")
        return None
sys.meta_path.insert(0, _NoAntlr())
"""

SCRIPT = r"""
import json
import matheval_fast as mf
from importlib import metadata
from matheval_fast._sympy.latex import unavailable_reason

def row(v):
    return [v.correct, v.reason, v.path]

try:
    antlr = metadata.version("antlr4-python3-runtime")
except metadata.PackageNotFoundError:
    antlr = None
print(json.dumps({
    "antlr": antlr,
    "parser_runs": unavailable_reason() is None,
    "integral": row(mf.check(r"\boxed{\int_0^1 x\,dx}", r"\frac12", kind="latex")),
    "integral_wrong": row(mf.check(r"\boxed{\int_0^1 x\,dx}", r"\frac13", kind="latex")),
    "limit": row(mf.check(r"\boxed{\lim_{x\to 0}\frac{\sin x}{x}}", "1", kind="latex")),
    "xwin": row(mf.check("The answer is: $\\frac{1}{2}$", "0.5", compat="xwin", kind="latex")),
}))
"""


def _run(extra: Path) -> dict:
    # The pool's worker processes inherit PYTHONPATH, so they see the same runtime (or the same hook).
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(extra), *filter(None, [env.get("PYTHONPATH")])])
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=240, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def _expect_fixed(got: dict) -> None:
    assert got["integral"] == [True, "correct", "sympy"]
    assert got["integral_wrong"] == [False, "incorrect", "sympy"]
    assert got["limit"] == [True, "correct", "sympy"]


@pytest.mark.timeout(300)
@pytest.mark.parametrize("version", PREPARED)
def test_fixed_fallback_with_each_prepared_runtime(version: str) -> None:
    got = _run(CACHE / f"antlr-{version}")
    assert got["antlr"] == version  # the folder's runtime, not the test environment's
    _expect_fixed(got)
    # SymPy's parser runs on 4.11 only; the xwin mode follows it.
    assert got["parser_runs"] is version.startswith("4.11")
    assert got["xwin"] == ([True, "correct", "sympy"] if got["parser_runs"] else [False, "error", "sympy"])


@pytest.mark.timeout(300)
def test_fixed_fallback_without_antlr(tmp_path: Path) -> None:
    # A sitecustomize on PYTHONPATH installs the import hook in this interpreter and in each pool worker.
    (tmp_path / "sitecustomize.py").write_text(BLOCK, encoding="utf-8")
    got = _run(tmp_path)
    assert got["parser_runs"] is False
    _expect_fixed(got)
    assert got["xwin"] == [False, "error", "sympy"]


def test_every_pinned_runtime_was_prepared_when_required() -> None:
    # `make test-frameworks` prepares the folders and sets this, so there a missing runtime fails, not skips.
    if os.environ.get("MATHEVAL_FAST_REQUIRE_ANTLR") == "1":
        assert PREPARED == PINNED, f"run scripts/prepare_antlr_targets.sh (found {PREPARED} in {CACHE})"
    assert set(PREPARED) <= set(PINNED)
