"""When the installed ANTLR runtime cannot run SymPy's LaTeX parser, items say ``error``, never ``incorrect``.

SymPy decides whether its parser can run by reading the installed ``antlr4-python3-runtime`` version (and
importing ``antlr4``). The tests put a second distribution record (version 4.13.2, as
``math-verify[antlr4_13_2]`` installs) or a broken ``antlr4`` package first on ``PYTHONPATH`` of a fresh
interpreter, so SymPy, the pool's workers and the detection code all run for real against it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from matheval_fast._sympy import latex

SCRIPT = r"""
import json, warnings
import matheval_fast as mf
from matheval_fast._sympy.latex import LatexParserWarning

warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    one = mf.check(r"The answer is: $\frac{1}{2}$", "0.5", compat="xwin", kind="latex")
    batch = mf.check_batch(
        [r"The answer is: $x^2+2x+1$", r"The answer is: $\frac{3}{4}$", "The answer is: 5",
         "The answer is: 6"],
        ["(x+1)^2", "0.5", "5", "5"],
        kinds=["latex", "latex", "simple", "simple"],
        compat="xwin",
    )
    fixed = mf.check(r"The answer is: $\int_0^1 x\,dx$", r"\frac12", kind="latex")
print(json.dumps({
    "one": [one.correct, one.reason, one.path],
    "batch": [batch.correct.tolist(), batch.reason.tolist(), batch.path.tolist()],
    "fixed": [fixed.correct, fixed.reason, fixed.path],
    "warnings": [str(w.message) for w in caught if issubclass(w.category, LatexParserWarning)],
}))
"""


def _run_with_path(extra: Path) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(extra), *filter(None, [env.get("PYTHONPATH")])])
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=240, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def _fake_distribution(site: Path, version: str) -> Path:
    record = site / f"antlr4_python3_runtime-{version}.dist-info"
    record.mkdir(parents=True)
    (record / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: antlr4-python3-runtime\nVersion: {version}\n", encoding="utf-8"
    )
    return site


def test_the_parser_runs_in_the_test_environment() -> None:
    assert latex.unavailable_reason() is None
    assert str(latex.parse_latex(r"\frac{1}{2}")) == "1/2"


@pytest.mark.timeout(300)
def test_wrong_antlr_version_gives_error_verdicts_and_one_warning(tmp_path: Path) -> None:
    got = _run_with_path(_fake_distribution(tmp_path / "site", "4.13.2"))
    # Items that need SymPy's LaTeX parser: error, not a silent incorrect.
    assert got["one"] == [False, "error", "sympy"]
    correct, reasons, paths = got["batch"]
    assert reasons[:2] == ["error", "error"] and paths[:2] == ["sympy", "sympy"]
    # Items the Rust core decides are unaffected.
    assert correct[2:] == [True, False] and reasons[2:] == ["correct", "incorrect"]
    # The fixed mode's SymPy fallback does not need it: the Rust parser's tree is handed to SymPy (an
    # integral: SymPy decides it). See tests/test_sympy_antlr.py for each real runtime.
    assert got["fixed"] == [True, "correct", "sympy"]
    # One warning per process, however many items, and it says what to do.
    assert len(got["warnings"]) == 1
    message = got["warnings"][0]
    assert "antlr4-python3-runtime: 4.13.2" in message and "4.11" in message


def test_missing_antlr_is_detected(monkeypatch: pytest.MonkeyPatch) -> None:
    """No importable antlr4 at all: SymPy's own check fails, and the probe reports it."""
    monkeypatch.setitem(sys.modules, "antlr4", None)  # `import antlr4` now raises ImportError
    reason = latex._probe()
    assert reason is not None and "ImportError" in reason and "4.11" in reason
