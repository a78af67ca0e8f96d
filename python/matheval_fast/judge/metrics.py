"""Judge-versus-human agreement: accuracy, two F1s (named), Eval rate, Cohen's kappa, intervals.

Positive class = the judge's *Yes* (for FaultyMath: "the solver identified the flaw"). The FaultyMath
paper's "F1" is the **macro** average of the two per-class F1s (``hallucination_protocols.md`` §3);
this module reports both ``macro_f1`` and ``positive_f1`` and never an unnamed "F1".

- ``eval_rate`` is the paper's *Eval*: the share of scored items the judge marked Yes,
  (TP + FP) / n; ``gold_rate`` the same share for the human labels.
- Point estimates come from the Rust core (:func:`matheval_fast.stats.confusion_metrics`,
  :func:`~matheval_fast.stats.cohen_kappa`, :func:`~matheval_fast.stats.wilson_interval`).
- Bootstrap intervals resample items with replacement. Every metric here is a function of the four
  confusion counts, and resampling n items is a multinomial draw of those counts, so each replicate
  is one ``numpy`` multinomial draw, whatever n is (percentile intervals, fixed seed).
- Ratios with a zero denominator are 0 (scikit-learn's default); kappa is 1 when both raters give
  every item the same label (the core's convention).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Literal

import numpy as np

from matheval_fast import stats

__all__ = [
    "METRIC_NAMES",
    "Agreement",
    "AgreementCounter",
    "CountRow",
    "PublishedRowCheck",
    "agreement",
    "agreement_from_counts",
    "check_published_row",
    "metrics_from_counts",
]

METRIC_NAMES: tuple[str, ...] = (
    "accuracy",
    "macro_f1",
    "positive_f1",
    "negative_f1",
    "precision",
    "recall",
    "eval_rate",
    "gold_rate",
    "kappa",
)


def metrics_from_counts(counts: np.ndarray) -> dict[str, np.ndarray]:
    """Every metric of :data:`METRIC_NAMES` for confusion counts ``[..., (tp, fp, fn, tn)]``, vectorised.

    Used for the bootstrap replicates; the point estimates come from the Rust core and the tests
    check that the two agree.
    """
    c = np.asarray(counts, dtype=np.float64)
    tp, fp, fn, tn = c[..., 0], c[..., 1], c[..., 2], c[..., 3]
    n = tp + fp + fn + tn

    def ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(den > 0, num / np.where(den > 0, den, 1.0), 0.0)

    f1 = ratio(2 * tp, 2 * tp + fp + fn)
    f1_neg = ratio(2 * tn, 2 * tn + fp + fn)
    chance = (tp + fp) * (tp + fn) + (fn + tn) * (fp + tn)
    den = n * n - chance
    with np.errstate(divide="ignore", invalid="ignore"):
        kappa = np.where(den > 0, (n * (tp + tn) - chance) / np.where(den > 0, den, 1.0), 1.0)
    return {
        "accuracy": ratio(tp + tn, n),
        "macro_f1": (f1 + f1_neg) / 2.0,
        "positive_f1": f1,
        "negative_f1": f1_neg,
        "precision": ratio(tp, tp + fp),
        "recall": ratio(tp, tp + fn),
        "eval_rate": ratio(tp + fp, n),
        "gold_rate": ratio(tp + fn, n),
        "kappa": kappa,
    }


@dataclass(frozen=True)
class Agreement:
    """Agreement of judge verdicts with gold labels on ``n`` scored items."""

    n: int
    tp: int
    fp: int
    fn: int
    tn: int
    accuracy: float
    #: mean of the positive- and negative-class F1 (the FaultyMath paper's "F1").
    macro_f1: float
    #: F1 of the positive class (judge Yes = gold Yes).
    positive_f1: float
    negative_f1: float
    precision: float
    recall: float
    #: share the judge marked Yes, (tp + fp) / n (the paper's "Eval").
    eval_rate: float
    #: share the humans marked Yes, (tp + fn) / n.
    gold_rate: float
    kappa: float
    confidence: float
    n_boot: int
    #: bootstrap percentile intervals per metric (empty when n_boot is 0).
    ci: dict[str, tuple[float, float]] = field(default_factory=dict)
    #: Wilson score intervals of the three proportions.
    wilson: dict[str, tuple[float, float]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _arrays(tp: int, fp: int, fn: int, tn: int) -> tuple[np.ndarray, np.ndarray]:
    gold = np.repeat(np.array([True, False, True, False]), [tp, fp, fn, tn])
    judged = np.repeat(np.array([True, True, False, False]), [tp, fp, fn, tn])
    return gold, judged


def agreement_from_counts(
    tp: int,
    fp: int,
    fn: int,
    tn: int,
    *,
    n_boot: int = 2000,
    confidence: float = 0.95,
    seed: int = 0,
) -> Agreement:
    """:class:`Agreement` from confusion counts (judge Yes/No against gold Yes/No)."""
    counts = [int(tp), int(fp), int(fn), int(tn)]
    if min(counts) < 0:
        raise ValueError(f"confusion counts must be >= 0, got {counts}")
    n = sum(counts)
    if n == 0:
        raise ValueError("no scored items: agreement needs at least one item with a gold label and a verdict")
    gold, judged = _arrays(*counts)
    cm = stats.confusion_metrics(gold, judged)
    kappa = stats.cohen_kappa(gold, judged)
    ci: dict[str, tuple[float, float]] = {}
    if n_boot > 0:
        rng = np.random.default_rng(seed)
        draws = rng.multinomial(n, np.array(counts, dtype=np.float64) / n, size=n_boot)
        reps = metrics_from_counts(draws)
        lo, hi = (1 - confidence) / 2 * 100, (1 + confidence) / 2 * 100
        for name in METRIC_NAMES:
            a, b = np.percentile(reps[name], [lo, hi])
            ci[name] = (float(a), float(b))
    wilson = {
        "accuracy": stats.wilson_interval(tp + tn, n, confidence=confidence),
        "eval_rate": stats.wilson_interval(tp + fp, n, confidence=confidence),
        "gold_rate": stats.wilson_interval(tp + fn, n, confidence=confidence),
    }
    return Agreement(
        n=n,
        tp=counts[0],
        fp=counts[1],
        fn=counts[2],
        tn=counts[3],
        accuracy=cm.accuracy,
        macro_f1=cm.macro_f1,
        positive_f1=cm.f1,
        negative_f1=2 * cm.macro_f1 - cm.f1,
        precision=cm.precision,
        recall=cm.recall,
        eval_rate=(tp + fp) / n,
        gold_rate=(tp + fn) / n,
        kappa=kappa,
        confidence=confidence,
        n_boot=n_boot,
        ci=ci,
        wilson={k: (float(v[0]), float(v[1])) for k, v in wilson.items()},
    )


def agreement(
    gold: Sequence[Any] | np.ndarray, judged: Sequence[Any] | np.ndarray, **kwargs: Any
) -> Agreement:
    """:class:`Agreement` of two aligned boolean sequences (True = Yes); options as
    :func:`agreement_from_counts`."""
    g = np.asarray(gold, dtype=bool)
    j = np.asarray(judged, dtype=bool)
    if g.shape != j.shape or g.ndim != 1:
        raise ValueError(f"gold and judged must be 1-D of one length, got {g.shape} and {j.shape}")
    tp = int(np.sum(g & j))
    fp = int(np.sum(~g & j))
    fn = int(np.sum(g & ~j))
    tn = int(np.sum(~g & ~j))
    return agreement_from_counts(tp, fp, fn, tn, **kwargs)


# ---- streaming counts ------------------------------------------------------------------------


@dataclass
class CountRow:
    """Confusion counts of one group, plus the items that could not be scored."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0
    #: items with a gold label whose verdict is unparseable (excluded unless counted as No).
    unparseable: int = 0
    #: items with a gold label and no verdict (request failed or not sent yet).
    no_verdict: int = 0
    #: items without a gold label (no label, or reviewers split).
    unlabeled: int = 0

    @property
    def scored(self) -> int:
        return self.tp + self.fp + self.fn + self.tn


class AgreementCounter:
    """Accumulates per-item (gold, verdict) into confusion counts, overall and per group value.

    ``unparseable="exclude"`` (default) leaves unparseable verdicts out of the scored items;
    ``"as-no"`` scores them as No (the judge did not see an identification). Memory grows with the
    number of distinct group values only.
    """

    def __init__(
        self, group_fields: Sequence[str] = (), *, unparseable: Literal["exclude", "as-no"] = "exclude"
    ) -> None:
        if unparseable not in ("exclude", "as-no"):
            raise ValueError(f"unparseable must be 'exclude' or 'as-no', got {unparseable!r}")
        self.unparseable = unparseable
        self.group_fields = tuple(group_fields)
        self.overall = CountRow()
        self.groups: dict[str, dict[str, CountRow]] = {g: {} for g in self.group_fields}

    def add(self, gold: bool | None, verdict: str | None, groups: Mapping[str, str]) -> None:
        rows = [self.overall]
        for g in self.group_fields:
            value = groups.get(g, "(missing)")
            table = self.groups[g]
            row = table.get(value)
            if row is None:
                row = table[value] = CountRow()
            rows.append(row)
        if gold is None:
            for r in rows:
                r.unlabeled += 1
            return
        if verdict == "unparseable" and self.unparseable == "as-no":
            verdict = "no"
        for r in rows:
            if verdict == "yes":
                if gold:
                    r.tp += 1
                else:
                    r.fp += 1
            elif verdict == "no":
                if gold:
                    r.fn += 1
                else:
                    r.tn += 1
            elif verdict == "unparseable":
                r.unparseable += 1
            else:
                r.no_verdict += 1


def _sort_key(value: str) -> tuple[int, float, str]:
    try:
        return (0, float(value), value)
    except ValueError:
        return (1, 0.0, value)


def summarize_counts(
    counter: AgreementCounter, *, n_boot: int = 2000, confidence: float = 0.95, seed: int = 0
) -> dict[str, Any]:
    """JSON-ready overall and per-group agreement from a filled :class:`AgreementCounter`."""

    def one(row: CountRow) -> dict[str, Any]:
        out: dict[str, Any] = {
            "scored": row.scored,
            "unparseable": row.unparseable,
            "no_verdict": row.no_verdict,
            "unlabeled": row.unlabeled,
        }
        if row.scored:
            a = agreement_from_counts(
                row.tp, row.fp, row.fn, row.tn, n_boot=n_boot, confidence=confidence, seed=seed
            )
            out.update(a.to_dict())
        else:  # every key is there, as null: readers index the summary without checking first
            out.update(dict.fromkeys(_AGREEMENT_KEYS))
            out.update(n=0, tp=0, fp=0, fn=0, tn=0, confidence=confidence, n_boot=n_boot, ci={}, wilson={})
        return out

    return {
        "unparseable_policy": counter.unparseable,
        "overall": one(counter.overall),
        "by_group": {
            g: {v: one(r) for v, r in sorted(table.items(), key=lambda kv: _sort_key(kv[0]))}
            for g, table in counter.groups.items()
        },
    }


#: The keys of :meth:`Agreement.to_dict`, in order.
_AGREEMENT_KEYS = tuple(f.name for f in fields(Agreement))


def pairwise_kappa(pairs: Mapping[tuple[str, str], Iterable[int]]) -> list[dict[str, Any]]:
    """Cohen's kappa between label fields from 2x2 counts ``(both yes, a yes b no, a no b yes, both no)``."""
    out = []
    for (a, b), c in pairs.items():
        yy, yn, ny, nn = (int(x) for x in c)
        n = yy + yn + ny + nn
        entry: dict[str, Any] = {"a": a, "b": b, "n": n, "agree": yy + nn, "kappa": None, "agreement": None}
        if n:
            ga, gb = _arrays(yy, ny, yn, nn)  # a plays "gold", b plays "judge"
            entry["kappa"] = stats.cohen_kappa(ga, gb)
            entry["agreement"] = (yy + nn) / n
        out.append(entry)
    return out


# ---- the paper's table ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PublishedRowCheck:
    """One published judge-vs-human row recomputed from its confusion counts (values in %)."""

    prompt: str
    judge: str
    accuracy: float
    eval_rate: float
    macro_f1: float
    positive_f1: float
    published_acc: float
    published_eval: float
    published_f1: float
    acc_matches: bool
    eval_matches: bool
    #: the published F1 equals the recomputed macro-F1 (to its two printed decimals).
    f1_matches: bool

    @property
    def consistent(self) -> bool:
        return self.acc_matches and self.eval_matches and self.f1_matches


def check_published_row(row: Mapping[str, Any]) -> PublishedRowCheck:
    """Recompute a row of ``data/faultymath/judge_agreement_from_paper.json`` from its counts and say
    which printed figures (2 decimals, in %) follow from them."""
    a = agreement_from_counts(row["tp"], row["fp"], row["fn"], row["tn"], n_boot=0)

    def pct(x: float) -> float:
        return round(100.0 * x, 2)

    def same(x: float, printed: float) -> bool:
        return abs(100.0 * x - float(printed)) <= 0.005 + 1e-9

    return PublishedRowCheck(
        prompt=row["prompt"],
        judge=row["judge"],
        accuracy=pct(a.accuracy),
        eval_rate=pct(a.eval_rate),
        macro_f1=pct(a.macro_f1),
        positive_f1=pct(a.positive_f1),
        published_acc=float(row["acc_pct"]),
        published_eval=float(row["eval_pct"]),
        published_f1=float(row["f1_pct"]),
        acc_matches=same(a.accuracy, row["acc_pct"]),
        eval_matches=same(a.eval_rate, row["eval_pct"]),
        f1_matches=same(a.macro_f1, row["f1_pct"]),
    )
