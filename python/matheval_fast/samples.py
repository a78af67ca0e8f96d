"""Repeated samples: how a framework turns several responses to one item into one score.

A log with several samples per item reports aggregates of them, named by its metric or its filter:
lm-eval's ``gsm8k_cot_self_consistency`` writes one line per filter (``score-first``, ``maj@64``,
``maj@8``), each scored by ``exact_match``; lighteval names the aggregate in the metric
(``maj@4``, ``pass@k:k=1&n=4``); Qwen2.5-Math keeps one score per sample. :func:`aggregate_for`
maps such a name to the aggregate of ours it is compared with:

``first``
    the first sample's verdict (lm-eval's ``take_first``; any metric of a one-sample log);
``last``
    the last sample's verdict (Qwen2.5-Math's ``type_acc``, which reads ``score[-1]``);
``mean``
    the fraction of correct samples among the first ``n`` (``pass@1`` over ``n`` samples,
    ``avg@n``, Qwen's per-sample scores);
``pass``
    the unbiased pass@k estimate over the first ``n`` samples (``1 - C(n-c, k) / C(n, k)``, which
    is "any correct" when ``k = n``);
``majority``
    the verdict of the most frequent answer among the first ``k`` samples (``maj@k``);
``gpass`` / ``mgpass``
    OpenCompass's G-Pass@k at threshold ``t`` (the chance that at least ``ceil(k t)`` of ``k``
    samples drawn from the ``n`` are correct; ``G-Pass@4_0.5``) and mG-Pass@k (twice the mean of
    G-Pass@k at ``m = ceil(k/2)+1 .. k`` correct, over ``k``), as ``icl_base_evaluator.py`` computes
    them; OpenCompass's "accuracy (N runs average)" is ``mean``.

The majority vote counts *answers* as a careful grader does: responses whose extracted answers our
checker calls equal are one vote (``0.5`` and ``\\frac12`` are the same answer); a response with no
answer abstains; a tie goes to the answer seen first, as lm-eval's ``Counter.most_common`` and
lighteval's ``max(..., key=count)`` break it. A record whose every response abstains scores 0.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from typing import Literal

import numpy as np

from matheval_fast import _core

__all__ = [
    "Aggregate",
    "aggregate_for",
    "g_pass_at_k",
    "majority_pick",
    "mg_pass_at_k",
    "pass_at_k",
    "vote_groups",
]

AggKind = Literal["first", "last", "mean", "pass", "majority", "gpass", "mgpass"]


@dataclass(frozen=True)
class Aggregate:
    """One way to score a record from its samples: ``kind`` over the first ``n`` samples (``None``:
    all of them); ``k`` for ``pass``."""

    kind: AggKind
    n: int | None = None
    k: int = 1
    t: float = 0.0  # the G-Pass threshold

    def describe(self) -> str:
        over = "all samples" if self.n is None else f"the first {self.n} samples"
        if self.kind == "first":
            return "our verdict on the first sample"
        if self.kind == "last":
            return "our verdict on the last sample"
        if self.kind == "mean":
            return f"our mean over {over}"
        if self.kind == "pass":
            return f"our pass@{self.k} over {over}" + (" (any correct)" if self.n == self.k else "")
        if self.kind == "gpass":
            return f"our G-Pass@{self.k} at threshold {self.t} over {over}"
        if self.kind == "mgpass":
            return f"our mG-Pass@{self.k} over {over}"
        return f"our majority answer over {over}"

    @property
    def label(self) -> str:
        if self.kind in ("first", "last"):
            return self.kind
        if self.kind == "gpass":
            return f"G-Pass@{self.k}_{self.t}"
        if self.kind == "mgpass":
            return f"mG-Pass@{self.k}"
        n = "" if self.n is None else str(self.n)
        if self.kind == "majority":
            return f"maj@{n or 'n'}"
        if self.kind == "pass":
            return f"pass@{self.k}" + (f"/n={n}" if n else "")
        return f"mean@{n or 'n'}"


_MAJ = re.compile(r"maj@(\d+)", re.IGNORECASE)
_PASS = re.compile(r"pass(?:@|_at_)(\d+)(?:[^0-9]*?n=(\d+))?", re.IGNORECASE)
_PASS_SAMPLES = re.compile(r"pass@(\d+):(\d+)_samples", re.IGNORECASE)
_PASS_KN = re.compile(r"pass@k.*?\bk=(\d+).*?\bn=(\d+)", re.IGNORECASE)
_MAJ_KN = re.compile(r"maj@[kn].*?\b[kn]=(\d+)", re.IGNORECASE)
_GPASS = re.compile(r"(?<![A-Za-z])G-Pass@(\d+)_([0-9.]+)")
_MGPASS = re.compile(r"\bmG-Pass@(\d+)")
_RUNS_AVERAGE = re.compile(r"\((\d+) runs average\)")
_AVG = re.compile(r"(?:avg|mean)@(?:[kn].*?\b[kn]=)?(\d+)", re.IGNORECASE)


def aggregate_for(metric: str, filter_name: str | None, n_samples: int) -> Aggregate:
    """The aggregate of ours that a framework's ``metric`` (under ``filter_name``) reports, for
    records of ``n_samples`` samples. The filter names the aggregate in lm-eval (``maj@8``); the
    metric does in lighteval (``maj@4``, ``pass@k:k=1&n=4``, ``math_pass@1:4_samples``) and in
    OpenCompass (``accuracy (4 runs average)``, ``G-Pass@4_0.5``, ``mG-Pass@4``)."""
    if metric.startswith("type_acc"):  # Qwen2.5-Math: per type, over each problem's last sample
        return Aggregate("last")
    # OpenCompass's names first: "G-Pass@2_0.5" would otherwise read as pass@2.
    m = _MGPASS.search(metric)
    if m:
        return Aggregate("mgpass", None, int(m.group(1)))
    m = _GPASS.search(metric)
    if m:
        return Aggregate("gpass", None, int(m.group(1)), float(m.group(2)))
    m = _RUNS_AVERAGE.search(metric)
    if m:
        return Aggregate("mean", int(m.group(1)))
    m = _MAJ_KN.search(metric)
    if m:
        return Aggregate("majority", int(m.group(1)))
    m = _PASS_KN.search(metric)
    if m:
        k, n = int(m.group(1)), int(m.group(2))
        if k == 1:
            return Aggregate("first") if n == 1 else Aggregate("mean", n)
        return Aggregate("pass", n, k)
    for name in (filter_name or "", metric):
        m = _MAJ.search(name)
        if m:
            return Aggregate("majority", int(m.group(1)))
    m = _PASS_SAMPLES.search(metric)
    if m:
        k, n = int(m.group(1)), int(m.group(2))
        return Aggregate("mean", n) if k == 1 else Aggregate("pass", n, k)
    m = _PASS.search(metric)
    if m:
        k = int(m.group(1))
        n = int(m.group(2)) if m.group(2) else None
        if k == 1 and (n or n_samples) > 1:
            return Aggregate("mean", n)
        if k == 1:
            return Aggregate("first")
        return Aggregate("pass", n, k)
    m = _AVG.search(metric)
    if m:
        return Aggregate("mean", int(m.group(1)))
    return Aggregate("first")


def pass_at_k(n: int, c: int, k: int) -> float:
    """The unbiased pass@k estimate from ``n`` samples of which ``c`` are correct (Chen et al.
    2021): ``1 - C(n - c, k) / C(n, k)``; with fewer than ``k`` samples, whether any is correct."""
    if n < k:
        return float(c > 0)
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def _at_least(n: int, c: int, k: int, m: int) -> float:
    """P(at least ``m`` correct among ``k`` drawn without replacement from ``n`` with ``c`` correct)
    (``scipy.stats.hypergeom.sf(m - 1, n, c, k)``, OpenCompass's ``_compute_g_pass_at_k``)."""
    if m > min(c, k) or k > n or c < 0 or n <= 0 or m < 0:
        return 0.0
    return sum(math.comb(c, j) * math.comb(n - c, k - j) for j in range(m, min(c, k) + 1)) / math.comb(n, k)


def g_pass_at_k(n: int, c: int, k: int, t: float) -> float:
    """OpenCompass's G-Pass@k at threshold ``t`` (``compute_g_pass_at_k``): at least
    ``max(ceil(k t), 1)`` of ``k`` samples correct."""
    return _at_least(n, c, k, max(math.ceil(k * t), 1))


def mg_pass_at_k(n: int, c: int, k: int) -> float:
    """OpenCompass's mG-Pass@k (``compute_mg_pass_at_k``)."""
    lo = math.ceil(k * 0.5)
    return 2 * sum(_at_least(n, c, k, i) for i in range(lo + 1, k + 1)) / k


def vote_groups(answers: list[list[str | None]]) -> list[list[int | None]]:
    """For each record's answers (in sample order), each sample's vote group: the index of the first
    sample whose answer our checker calls equal to it, or None for a sample that abstains (no answer).

    Answers are grouped by our checker's equality (exact text first; then, in one batch, every
    pair of distinct answers of a record that could still be equal).
    """
    cleaned = [[None if a is None or not a.strip() else a.strip() for a in rec] for rec in answers]
    # Distinct answers per record, in first-seen order; the pairs among them the core must judge.
    distinct: list[list[str]] = [list(dict.fromkeys(a for a in rec if a is not None)) for rec in cleaned]
    pairs_a: list[str] = []
    pairs_b: list[str] = []
    where: list[tuple[int, int, int]] = []
    for r, ds in enumerate(distinct):
        for i in range(len(ds)):
            for j in range(i + 1, len(ds)):
                where.append((r, i, j))
                pairs_a.append(ds[i])
                pairs_b.append(ds[j])
    equal = set()
    if where:
        correct, *_ = _core.check_batch(pairs_b, pairs_a, compat="fixed", extract_policy="flex")
        equal = {w for w, ok in zip(where, np.asarray(correct, dtype=bool), strict=True) if ok}
    out: list[list[int | None]] = []
    for r, rec in enumerate(cleaned):
        ds = distinct[r]
        # Each distinct answer joins the group of the earliest distinct answer equal to it.
        group = list(range(len(ds)))
        for i in range(len(ds)):
            for j in range(i):
                if (r, j, i) in equal:
                    group[i] = group[j]
                    break
        index = {d: i for i, d in enumerate(ds)}
        first: dict[int, int] = {}
        labels: list[int | None] = []
        for s, a in enumerate(rec):
            if a is None:
                labels.append(None)
                continue
            labels.append(first.setdefault(group[index[a]], s))
        out.append(labels)
    return out


def majority_pick(answers: list[list[str | None]]) -> list[int | None]:
    """For each record's answers (in sample order), the index of the sample that stands for the
    majority answer (the first sample of the winning group, :func:`vote_groups`), or None when
    every sample abstains. A tie goes to the group seen first.
    """
    out: list[int | None] = []
    for labels in vote_groups(answers):
        votes = Counter(g for g in labels if g is not None)
        # Most votes; a tie goes to the group seen first (its label is its first sample).
        out.append(max(votes, key=lambda g: (votes[g], -g)) if votes else None)
    return out
