"""The integrations package: no framework is imported by ``import matheval_fast``, and the TRL, verl and
lm-eval modules import none at all; each framework is an optional extra."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FRAMEWORKS = ("trl", "verl", "lm_eval", "inspect_ai", "lighteval", "torch", "transformers", "math_verify")


def _imported_after(code: str) -> set[str]:
    probe = f"{code}\nimport sys\nprint(' '.join(sorted(set(m.split('.')[0] for m in sys.modules))))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    return set(out.split()) & set(FRAMEWORKS)


def test_import_matheval_fast_imports_no_framework():
    assert _imported_after("import matheval_fast, matheval_fast.integrations") == set()


def test_the_trl_verl_and_lm_eval_modules_import_no_framework():
    code = "import matheval_fast.integrations.trl as t, matheval_fast.integrations.verl as v\n"
    code += "import matheval_fast.integrations.lm_eval"
    assert _imported_after(code) == set()


def test_each_framework_is_an_extra():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    for extra, package in (
        ("trl", "trl"),
        ("verl", "verl"),
        ("inspect", "inspect-ai"),
        ("lm-eval", "lm-eval"),
        ("lighteval", "lighteval"),
    ):
        assert any(req.startswith(package) for req in extras[extra]), extra
