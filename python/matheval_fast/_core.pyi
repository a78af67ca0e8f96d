"""Type stubs and the one home of the docstrings of the Rust extension ``matheval_fast._core``."""

from typing import Literal

import numpy as np
import numpy.typing as npt
from numpy.typing import ArrayLike

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

SIEGEL_TUKEY_STATUS: tuple[str, ...]
"""Status names by code, as in :func:`siegel_tukey_batch`'s fourth array: ``("ok", "too_few",
"non_finite", "all_tied", "too_large", "ties_no_exact", "zero_variance")``."""

class SiegelTukeyResult:
    """Result of :func:`siegel_tukey` (immutable)."""

    statistic: float
    """Variant ``exact``: sum S of the tie-averaged Siegel–Tukey ranks of ``x``. A large S means ``x`` is
    *less* dispersed. Variant ``desctools``: DescTools' ``ST``, the rank sum of the smaller sample (``x``
    when the sizes are equal) after its median drop."""
    pvalue: float
    method: Literal["exact", "asymptotic"]
    """How the p-value was computed (``auto`` resolves to one of these)."""
    alternative: Literal["two-sided", "greater", "less"]
    variant: Literal["exact", "desctools"]

def siegel_tukey(
    x: ArrayLike,
    y: ArrayLike,
    /,
    *,
    alternative: Literal["two-sided", "greater", "less"] = "two-sided",
    method: Literal["auto", "exact", "asymptotic"] = "auto",
    variant: Literal["exact", "desctools"] = "exact",
) -> SiegelTukeyResult:
    """Siegel–Tukey test for a difference in dispersion between samples ``x`` and ``y``.

    Ranks: pool both samples, sort ascending, and give rank 1 to the lowest, 2 and 3 to the two highest,
    4 and 5 to the next two lowest, and so on; tied values share the mean rank of their positions.

    ``variant="exact"`` (default): the exact conditional permutation p-value of S = the rank sum of
    ``x`` over all ``C(N, len(x))`` splits of the tie-averaged ranks: the value that does not depend on
    how ties are broken (equals jmuOutlier's ``siegel.test`` and SciPy's ``permutation_test`` on these
    ranks). It is computed without enumerating, by dynamic programming over tie groups, cached per tie
    pattern. ``alternative``: ``"two-sided"`` = P(|S - E S| >= |s - E S|); ``"greater"`` = ``x`` *more*
    dispersed than ``y`` = P(S <= s); ``"less"`` = ``x`` less dispersed = P(S >= s). (In
    ``data/stats/siegel_tukey_refs.json`` the columns are named after the tail of S, so ``greater`` here
    is its ``p_exact_permutation_less``.) ``method="auto"`` is exact while the dynamic programme needs at
    most 2**25 cell updates (every untied sample up to N of about 100, every sample up to N = 16 with
    any ties) and otherwise the normal approximation with the exact permutation (tie-corrected)
    variance, without continuity correction; ``"exact"`` raises above 2**31 updates;
    ``"asymptotic"`` always uses the normal approximation.

    ``variant="desctools"``: DescTools 0.99.59 ``SiegelTukeyTest`` defaults, so published numbers can be
    matched: for odd N the first pooled observation equal to the median is dropped (the larger sample's
    when tied), then ``wilcox.test(ranks of larger sample, ranks of smaller, correct=TRUE)`` (``y``
    counts as larger when the sizes are equal): exact Wilcoxon distribution when there are no ties and
    both sizes are below 50, else the normal approximation on midranks of the ranks with tie-corrected
    variance and continuity correction. ``alternative`` is passed to that call unchanged, so as in
    DescTools its direction follows the larger sample. ``method="exact"`` with ties raises.

    Raises ``DomainError`` when a sample has fewer than 2 values, a value is NaN or infinite, all values
    are tied, or (DescTools variant) every Siegel–Tukey rank is equal, where R's normal approximation is
    0/0 and returns NaN (e.g. ``[1, 1]`` vs ``[5, 5]``; the exact variant gives p = 1 there);
    ``ValueError`` for an unknown mode; ``TypeError`` for a non-numeric input.
    """

def siegel_tukey_batch(
    x: ArrayLike,
    y: ArrayLike,
    /,
    *,
    alternative: Literal["two-sided", "greater", "less"] = "two-sided",
    method: Literal["auto", "exact", "asymptotic"] = "auto",
    variant: Literal["exact", "desctools"] = "exact",
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """Row-wise :func:`siegel_tukey` over two 2-D arrays with the same number of rows, NaN entries
    being padding. Multi-threaded, GIL released. Returns ``(statistic, pvalue, method_code,
    status_code)``: method 0 exact, 1 asymptotic, 2 none; status indexes :data:`SIEGEL_TUKEY_STATUS`,
    and rows with a non-zero status have NaN statistic and p-value. Raises ``ShapeError`` when the row
    counts differ. Use :func:`matheval_fast.stats.siegel_tukey_batch` for a named result."""

def cohen_kappa(a: ArrayLike, b: ArrayLike, /) -> float:
    """Cohen's kappa of two integer label arrays (see :func:`matheval_fast.stats.cohen_kappa`)."""

def confusion_metrics(
    y_true: ArrayLike, y_pred: ArrayLike, /, *, zero_division: float = 0.0
) -> tuple[int, int, int, int, float, float, float, float, float]:
    """``(tp, fp, fn, tn, accuracy, precision, recall, f1, macro_f1)`` of two boolean arrays (see
    :func:`matheval_fast.stats.confusion_metrics`)."""

def wilson_interval(successes: int, n: int, /, *, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval ``(low, high)`` for ``successes`` out of ``n`` at two-sided ``confidence``.

    Raises ``DomainError`` for ``n == 0`` and ``ValueError`` for ``successes > n`` or a confidence
    outside (0, 1)."""

# ---- LaTeX parsing (rust/python/latex.rs) ----
