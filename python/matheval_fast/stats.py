"""Rank statistics and agreement measures (protocol D), computed in the Rust core.

- :func:`siegel_tukey` / :func:`siegel_tukey_batch`: the Siegel–Tukey dispersion test. The default
  p-value is the exact conditional permutation p-value over the tie-averaged Siegel–Tukey scores
  (jmuOutlier's ``siegel.test``); ``variant="desctools"`` reproduces DescTools' ``SiegelTukeyTest``.
  See ``_core.pyi`` for the exact definitions, the size limits and the meaning of ``alternative``.
- :func:`cohen_kappa`, :func:`confusion_metrics`, :func:`wilson_interval`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from matheval_fast import _core
from matheval_fast._core import SIEGEL_TUKEY_STATUS, SiegelTukeyResult, siegel_tukey, wilson_interval
from matheval_fast._vocabulary import Alternative, Method, Variant

__all__ = [
    "SIEGEL_TUKEY_STATUS",
    "ConfusionMetrics",
    "SiegelTukeyBatchResult",
    "SiegelTukeyResult",
    "cohen_kappa",
    "confusion_metrics",
    "siegel_tukey",
    "siegel_tukey_batch",
    "wilson_interval",
]

_METHOD_NAMES = np.array(["exact", "asymptotic", ""])


@dataclass(frozen=True)
class SiegelTukeyBatchResult:
    """Per-row results of :func:`siegel_tukey_batch` (one entry per row).

    ``statistic`` and ``pvalue`` are NaN where ``status_code != 0``; ``status`` names why
    (see :data:`SIEGEL_TUKEY_STATUS`: ``too_few``, ``non_finite``, ``all_tied``, ``too_large``,
    ``ties_no_exact``, ``zero_variance``).
    """

    statistic: np.ndarray
    pvalue: np.ndarray
    #: 0 = exact, 1 = asymptotic, 2 = no p-value.
    method_code: np.ndarray
    #: index into :data:`SIEGEL_TUKEY_STATUS`; 0 = ok.
    status_code: np.ndarray

    @property
    def method(self) -> np.ndarray:
        """``"exact"``, ``"asymptotic"`` or ``""`` per row."""
        return _METHOD_NAMES[self.method_code]

    @property
    def status(self) -> np.ndarray:
        """Status name per row (``"ok"`` where there is a p-value)."""
        return np.asarray(SIEGEL_TUKEY_STATUS)[self.status_code]

    @property
    def ok(self) -> np.ndarray:
        """Boolean mask of rows with a p-value."""
        return self.status_code == 0

    def __len__(self) -> int:
        return len(self.pvalue)


def siegel_tukey_batch(
    x: Any,
    y: Any,
    *,
    alternative: Alternative = "two-sided",
    method: Method = "auto",
    variant: Variant = "exact",
) -> SiegelTukeyBatchResult:
    """Siegel–Tukey test of row ``i`` of ``x`` against row ``i`` of ``y``, for every row.

    ``x`` and ``y`` are 2-D array-likes with the same number of rows; NaN entries are padding, so rows
    may hold samples of different sizes. Runs on all cores with the GIL released. Options are those
    of :func:`siegel_tukey`. Rows that cannot be tested get NaN and a status instead of an error.
    """
    stat, p, m, s = _core.siegel_tukey_batch(x, y, alternative=alternative, method=method, variant=variant)
    return SiegelTukeyBatchResult(statistic=stat, pvalue=p, method_code=m, status_code=s)


def _first_missing(arr: np.ndarray) -> int | None:
    """Index of the first NaN or None label (a missing rating), else None."""
    if arr.dtype.kind in "fc":
        hits = np.flatnonzero(np.isnan(arr))
        return int(hits[0]) if len(hits) else None
    if arr.dtype.kind == "O":
        for i, v in enumerate(arr):
            if v is None or (isinstance(v, float | np.floating) and v != v):
                return i
    return None


def _codes(a: Sequence[Any] | np.ndarray, b: Sequence[Any] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Map two label sequences of any hashable, sortable type onto shared integer codes."""
    a_arr, b_arr = np.asarray(a), np.asarray(b)
    if a_arr.ndim != 1 or b_arr.ndim != 1:
        raise _core.ShapeError(f"labels must be 1-D, got shapes {a_arr.shape} and {b_arr.shape}")
    for name, arr in (("a", a_arr), ("b", b_arr)):
        missing = _first_missing(arr)
        if missing is not None:
            raise _core.DomainError(
                f"cohen_kappa: {name}[{missing}] is a missing label ({arr[missing]!r}); "
                "drop the pair or give it a label"
            )
    if a_arr.dtype.kind in "biu" and b_arr.dtype.kind in "biu":
        return a_arr.astype(np.int64), b_arr.astype(np.int64)
    _, inverse = np.unique(np.concatenate([a_arr.astype(object), b_arr.astype(object)]), return_inverse=True)
    inverse = inverse.astype(np.int64)
    return inverse[: len(a_arr)], inverse[len(a_arr) :]


def cohen_kappa(a: Sequence[Any] | np.ndarray, b: Sequence[Any] | np.ndarray) -> float:
    """Unweighted Cohen's kappa of two raters' labels on the same items.

    Labels may be any sortable values (ints, bools, strings). When both raters give every item one
    and the same label the formula is 0/0; this returns 1.0 (perfect agreement), the convention of
    the protocol-D paper's tables ("0/39, 0/39, kappa 1.0"); scikit-learn returns NaN there.
    Raises ``ShapeError`` for different lengths and ``DomainError`` for no labels or a missing label
    (NaN or None: drop the pair or label it; an unlabelled item has no agreement to measure).
    """
    ca, cb = _codes(a, b)
    return _core.cohen_kappa(ca, cb)


@dataclass(frozen=True)
class ConfusionMetrics:
    """Binary confusion matrix and its metrics (positive class = the ``positive`` label)."""

    tp: int
    fp: int
    fn: int
    tn: int
    accuracy: float
    precision: float
    recall: float
    #: F1 of the positive class.
    f1: float
    #: Mean of the F1 of the positive and of the negative class.
    macro_f1: float


def confusion_metrics(
    y_true: Sequence[Any] | np.ndarray,
    y_pred: Sequence[Any] | np.ndarray,
    *,
    positive: Any = True,
    zero_division: float = 0.0,
) -> ConfusionMetrics:
    """Accuracy, precision, recall, positive-class F1 and macro F1 of binary predictions.

    An item is positive when its label equals ``positive`` (default ``True``, so bools and 0/1 work
    as they are). A ratio with a zero denominator (e.g. precision with no positive prediction) is
    ``zero_division``: 0.0 as scikit-learn's default, or ``float("nan")``.
    """
    t = np.asarray(y_true) == positive
    p = np.asarray(y_pred) == positive
    if t.ndim != 1 or p.ndim != 1:
        raise _core.ShapeError(f"labels must be 1-D, got shapes {t.shape} and {p.shape}")
    tp, fp, fn, tn, acc, prec, rec, f1, macro = _core.confusion_metrics(t, p, zero_division=zero_division)
    return ConfusionMetrics(tp, fp, fn, tn, acc, prec, rec, f1, macro)
