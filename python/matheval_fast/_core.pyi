"""Type stubs and the one home of the docstrings of the Rust extension ``matheval_fast._core``."""

from typing import Literal

__version__: str
build_profile: Literal["debug", "release"]

class MathEvalError(ValueError):
    """Base class of every matheval_fast error (a ``ValueError``)."""

class ParseError(MathEvalError):
    """Text that must parse did not."""

    position: int

class ShapeError(MathEvalError):
    """Inputs whose lengths or shapes must agree do not."""

class ConfigError(MathEvalError):
    """A configuration file or object is malformed."""

class DomainError(MathEvalError):
    """A statistic is undefined for the given input."""

# ---- protocol A: answer checking (rust/python/answer.rs) ----

# ---- statistics (rust/python/stats.rs) ----

# ---- LaTeX parsing (rust/python/latex.rs) ----
