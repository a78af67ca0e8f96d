"""matheval_fast: Rust-accelerated scoring of LLM outputs on math and reasoning benchmarks.

>>> import matheval_fast as mf
>>> mf.check("... so she earns 18 dollars.\\nThe answer is: 18.", "18").correct
True
"""

from __future__ import annotations

from matheval_fast._core import (
    ConfigError,
    DomainError,
    MathEvalError,
    ParseError,
    ShapeError,
    __version__,
    build_profile,
)
from matheval_fast.answer import (
    BatchResult,
    EvalConfig,
    Verdict,
    check,
    check_batch,
    extract_answer,
    latex_answer_check,
    load_config,
    simple_answer_check,
    verify,
    warm_sympy,
)

__all__ = [
    "BatchResult",
    "ConfigError",
    "DomainError",
    "EvalConfig",
    "MathEvalError",
    "ParseError",
    "ShapeError",
    "Verdict",
    "__version__",
    "build_profile",
    "check",
    "check_batch",
    "extract_answer",
    "latex_answer_check",
    "load_config",
    "simple_answer_check",
    "verify",
    "warm_sympy",
]


def __getattr__(name: str) -> object:
    # Protocol modules load on first use (``matheval_fast.unanswerable``), so ``import
    # matheval_fast`` stays light.
    if name == "unanswerable":
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
