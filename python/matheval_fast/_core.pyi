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

def parse_latex(text: str, /) -> str:
    """Parse LaTeX or plain math and return its canonical printed form.

    The form is SymPy-compatible syntax (``Eq(x, 1)``, ``Interval(0, 1, False, True)``,
    ``FiniteSet(1, 2)``, ``x**2``); sums and products are printed in source order.
    Raises ``ParseError`` (with ``.position``, a 0-based character offset) when the text is not
    a well-formed expression, and on inputs over the size budgets.
    """

def latex_equivalent(
    gold: str, pred: str, /, *, strict: bool = False
) -> tuple[Literal["equal", "not_equal", "undecided"], Literal["literal", "numeric", "symbolic", "none"]]:
    """Compare two extracted answers with the Rust equivalence engine (no SymPy).

    Returns ``(result, path)``: ``path`` names the stage that decided (``"none"`` when
    undecided). ``strict=True`` allows only trivial rewriting (reordering, ``0.5`` = ``1/2``,
    no ``3245/5`` = ``649``, no random-point identity testing). The policies are described in
    ``docs/policies.md``.
    """
