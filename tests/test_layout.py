"""The repository's own folders never shadow a package that tools and tests import.

The product card fixes a top-level ``onnx/`` folder (the export scripts). ``python -m pytest`` and the
conftest put the repository root on ``sys.path``, where a folder named like a dependency is a candidate
namespace package. It must stay a *non-package* (no ``__init__.py``): Python then prefers the installed
``onnx`` whenever there is one, and a test that needs the real package checks ``onnx.__file__`` (a
namespace package has none) instead of trusting ``importorskip`` alone. No other top-level name may
clash with a dependency.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DEPENDENCIES = (
    "antlr4",
    "hypothesis",
    "matplotlib",
    "numpy",
    "onnxruntime",
    "pyarrow",
    "ray",
    "scipy",
    "sympy",
    "tokenizers",
    "torch",
    "tqdm",
    "transformers",
)


def test_no_top_level_name_shadows_a_dependency() -> None:
    clashes = [n for n in DEPENDENCIES if (ROOT / n).exists() or (ROOT / f"{n}.py").exists()]
    assert not clashes


def test_onnx_folder_is_not_a_package() -> None:
    assert (ROOT / "onnx" / "export.py").is_file()
    assert not (ROOT / "onnx" / "__init__.py").exists()
    assert not (ROOT / "onnx.py").exists()


@pytest.mark.skipif(importlib.util.find_spec("onnx") is None, reason="onnx not installed")
def test_installed_onnx_wins_from_the_repository_root() -> None:
    code = "import onnx, sys; sys.stdout.write(str(onnx.__file__))"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True, timeout=120
    ).stdout
    assert out != "None" and str(ROOT / "onnx") not in out
