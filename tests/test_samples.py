"""Repeated samples: the aggregate each framework metric names, pass@k, the majority vote over
answers (checked against a slow reference that compares every pair with ``verify``)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from matheval_fast import verify
from matheval_fast.samples import Aggregate, aggregate_for, majority_pick, pass_at_k


@pytest.mark.parametrize(
    ("metric", "filt", "n", "want"),
    [
        ("exact_match", "maj@64", 64, Aggregate("majority", 64)),
        ("exact_match", "maj@8", 64, Aggregate("majority", 8)),
        ("exact_match", "score-first", 64, Aggregate("first")),
        ("exact_match", "strict-match", 1, Aggregate("first")),
        ("math_verify", "none", 1, Aggregate("first")),
        ("pass@k:k=1&n=1", None, 1, Aggregate("first")),
        ("pass@k:k=1&n=4", None, 4, Aggregate("mean", 4)),
        ("pass@k:k=2&n=4", None, 4, Aggregate("pass", 4, 2)),
        ("maj@k:k=4", None, 4, Aggregate("majority", 4)),
        ("maj@4", None, 4, Aggregate("majority", 4)),
        ("math_pass@1:4_samples", None, 4, Aggregate("mean", 4)),
        ("pass@4", None, 4, Aggregate("pass", None, 4)),
        ("avg@8", None, 8, Aggregate("mean", 8)),
        ("avg@n:n=8", None, 8, Aggregate("mean", 8)),
        (
            "maj@n:n=4&strip_strings=True&normalize_pred=<function math_normalizer>",
            None,
            4,
            Aggregate("majority", 4),
        ),
    ],
)
def test_aggregate_named_by_metric_or_filter(metric, filt, n, want):
    assert aggregate_for(metric, filt, n) == want


def reference_pass_at_k(n: int, c: int, k: int) -> float:
    """1 - P(all k drawn without replacement are wrong), by enumerating the product."""
    if n < k:
        return float(c > 0)
    p_wrong = 1.0
    for i in range(k):
        p_wrong *= (n - c - i) / (n - i) if n - c - i > 0 else 0.0
    return 1.0 - p_wrong


@given(st.integers(1, 40).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n), st.integers(1, n))))
def test_pass_at_k_matches_the_product_form(nck):
    n, c, k = nck
    assert pass_at_k(n, c, k) == pytest.approx(reference_pass_at_k(n, c, k), abs=1e-12)
    assert pass_at_k(n, c, 1) == pytest.approx(c / n)
    assert pass_at_k(n, c, n) == float(c > 0)


def reference_majority(answers: list[str | None]) -> int | None:
    """Slow and plain: group each answer with the first earlier answer ``verify`` calls equal."""
    groups: list[list[int]] = []
    for i, a in enumerate(answers):
        if a is None or not a.strip():
            continue
        for grp in groups:
            if any(answers[j].strip() == a.strip() or _equal(answers[j], a) for j in grp):
                grp.append(i)
                break
        else:
            groups.append([i])
    if not groups:
        return None
    best = max(groups, key=lambda g: (len(g), -g[0]))
    return best[0]


def _equal(a: str, b: str) -> bool:
    return verify(a.strip(), b.strip())


def test_majority_counts_equal_answers_as_one_vote():
    assert majority_pick([["1", "0.5", "\\frac12"]]) == [1]  # 0.5 = 1/2: two votes
    assert majority_pick([["1", "0.5", "\\frac12", "1"]]) == [0]  # two votes each: the first seen wins
    assert majority_pick([["3", "4"]]) == [0]  # a tie goes to the answer seen first
    assert majority_pick([[None, " ", "7"]]) == [2]  # no answer abstains
    assert majority_pick([[None, None]]) == [None]
    assert majority_pick([]) == []


ANSWERS = st.sampled_from(["1", "2", "0.5", "\\frac{1}{2}", "1/2", "2.0", "x", None, "", "3"])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(ANSWERS, min_size=1, max_size=8), min_size=1, max_size=5))
def test_majority_matches_the_pairwise_reference(records):
    assert majority_pick(records) == [reference_majority(r) for r in records]


def test_describe_says_what_is_compared():
    assert "majority" in Aggregate("majority", 8).describe()
    assert Aggregate("pass", 4, 4).describe().endswith("(any correct)")
    assert not math.isnan(pass_at_k(1, 1, 1))
