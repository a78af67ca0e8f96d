"""Type stubs and the one home of the docstrings of the Rust extension ``matheval_fast._core``."""

from collections.abc import Sequence
from typing import Literal

import numpy as np
import numpy.typing as npt

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

_Compat = Literal["fixed", "xwin"]
_Kind = Literal["auto", "simple", "latex"]
_ExtractPolicy = Literal["flex", "strict"]
_EvalPolicy = Literal["strict", "model_include_gt", "gt_include_model", "aggressive", "conservative"]
_Reason = Literal[
    "correct",
    "incorrect",
    "no_answer",
    "pred_unparseable",
    "gold_unparseable",
    "timeout",
    "over_budget",
    "error",
]
_Path = Literal["literal", "numeric", "symbolic", "sympy", "none"]
#: (compat, [(prediction, gold), ...]) for the SymPy pool; the verdict is correct iff any pair is equal.
_SympyTask = tuple[str, list[tuple[str, str]]]
_VerdictTuple = tuple[bool, _Reason, str | None, _Path, _SympyTask | None]

REASONS: tuple[str, ...]
"""Reason names in wire order (the codes returned by :func:`check_batch`)."""
PATHS: tuple[str, ...]
"""Path names in wire order."""
SEED_CONFIG_JSON: str
"""The seed tool's eval_config.json (default configuration)."""

class TextColumn:
    """A column of texts copied out of Python, e.g. from the buffers of an Arrow string array."""

    @staticmethod
    def from_arrow(
        offsets: Sequence[int], data: bytes, validity: bytes | None = None, bit_offset: int = 0
    ) -> TextColumn:
        """Build from Arrow large-string buffers; invalid UTF-8 becomes a per-item ``error`` verdict."""
    def __len__(self) -> int: ...

def check_one(
    response: str | None,
    gold: str | None,
    *,
    kind: _Kind,
    compat: _Compat,
    extract_policy: _ExtractPolicy,
    eval_policy: _EvalPolicy | None = None,
    split: Sequence[str] | None = None,
) -> _VerdictTuple:
    """Check one response; returns (correct, reason, extracted, path, sympy_task)."""

def check_batch(
    responses: Sequence[str | None] | TextColumn,
    golds: Sequence[str | None] | TextColumn,
    kinds: Sequence[_Kind] | None = None,
    *,
    compat: _Compat,
    extract_policy: _ExtractPolicy,
    eval_policy: _EvalPolicy | None = None,
    split: Sequence[str] | None = None,
    threads: int | None = None,
) -> tuple[
    npt.NDArray[np.bool_],
    npt.NDArray[np.uint8],
    npt.NDArray[np.uint8],
    list[str | None],
    list[tuple[int, str, list[tuple[str, str]]]],
]:
    """Check many responses in parallel with the GIL released.

    Returns (correct, reason codes, path codes, extracted answers, SymPy tasks by item index).
    Raises ``ShapeError`` for mismatched lengths and ``TypeError`` for non-str items.
    """

def xwin_latex_no_extraction(
    model_ans: str, gt: str, *, extract_policy: _ExtractPolicy, eval_policy: _EvalPolicy | None = None
) -> _VerdictTuple:
    """The seed's ``latex_answer_check`` with ``split=None`` (no extraction)."""

def extract_answer(
    text: str | None,
    split: Sequence[str] | None = None,
    extract_policy: _ExtractPolicy | None = None,
    *,
    compat: _Compat | None = None,
) -> str | None:
    """The final answer in ``text`` (``None`` if there is none)."""

def equivalent(gold: str, pred: str, *, strict: bool = False, rounding: bool = True) -> _VerdictTuple:
    """Equivalence of two extracted answers, gold first."""

def parse_config(text: str) -> tuple[list[str], list[tuple[str, str, str, str]]]:
    """Validate an eval_config.json text: (extract_pattern, [(type, kind, extract_policy, eval_policy)])."""

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
