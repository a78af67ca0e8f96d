"""matheval_fast: Rust-accelerated scoring of LLM outputs on math and reasoning benchmarks."""

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

__all__ = [
    "ConfigError",
    "DomainError",
    "MathEvalError",
    "ParseError",
    "ShapeError",
    "__version__",
    "build_profile",
]
