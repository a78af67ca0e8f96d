"""Judge-vs-human agreement: hand-computed tables, the FaultyMath paper's rows, bootstrap intervals."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from matheval_fast import stats
from matheval_fast.judge.metrics import (
    METRIC_NAMES,
    AgreementCounter,
    agreement,
    agreement_from_counts,
    check_published_row,
    metrics_from_counts,
    pairwise_kappa,
    summarize_counts,
)

PAPER = Path(__file__).resolve().parents[1] / "data" / "faultymath" / "judge_agreement_from_paper.json"


def test_hand_computed_table() -> None:
    # TP 3, FP 1, FN 2, TN 4 (n = 10), every figure by hand with fractions.
    a = agreement_from_counts(3, 1, 2, 4, n_boot=0)
    assert a.n == 10
    assert a.accuracy == pytest.approx(7 / 10, abs=1e-15)
    assert a.precision == pytest.approx(3 / 4, abs=1e-15)
    assert a.recall == pytest.approx(3 / 5, abs=1e-15)
    f1_pos = Fraction(2 * 3, 2 * 3 + 1 + 2)  # 2/3
    f1_neg = Fraction(2 * 4, 2 * 4 + 1 + 2)  # 8/11
    assert a.positive_f1 == pytest.approx(float(f1_pos), abs=1e-15)
    assert a.negative_f1 == pytest.approx(float(f1_neg), abs=1e-15)
    assert a.macro_f1 == pytest.approx(float((f1_pos + f1_neg) / 2), abs=1e-15)
    assert a.eval_rate == pytest.approx(4 / 10) and a.gold_rate == pytest.approx(5 / 10)
    # p_o = 7/10, p_e = (4*5 + 6*5)/100 = 1/2, kappa = (0.7 - 0.5) / 0.5 = 0.4.
    assert a.kappa == pytest.approx(0.4, abs=1e-15)
    assert a.ci == {}
    lo, hi = a.wilson["accuracy"]
    assert (lo, hi) == stats.wilson_interval(7, 10)


def test_paper_rows_reproduce_acc_and_eval_and_flag_the_two_inconsistent_f1s() -> None:
    data = json.loads(PAPER.read_text())
    checks = [check_published_row(r) for r in data["rows"]]
    assert len(checks) == 5
    for row, c in zip(data["rows"], checks, strict=True):
        assert c.acc_matches, c
        assert c.eval_matches, c
        assert (row["tp"] + row["fn"]) == data["gold"]["identified"]
        assert c.macro_f1 == pytest.approx(row["macro_f1_recomputed"], abs=1e-9)
        assert c.positive_f1 == pytest.approx(row["positive_f1_recomputed"], abs=1e-9)
    consistent = [(c.prompt, c.judge) for c in checks if c.f1_matches]
    assert consistent == [
        ("Chain-of-thought", "GPT-4o"),
        ("Simple Prompt", "GPT-4"),
        ("Simple Prompt + Explanation", "GPT-4"),
    ]
    flagged = [(c.prompt, c.judge, c.published_f1, c.macro_f1) for c in checks if not c.consistent]
    assert flagged == [
        ("Simple Prompt", "GPT-4o", 61.79, 63.48),
        ("Simple Prompt + Explanation", "GPT-4o", 59.26, 57.38),
    ]
    # The paper's F1 is the macro average: for Simple / GPT-4 the positive-class F1 is far from it.
    simple_gpt4 = checks[3]
    assert (simple_gpt4.macro_f1, simple_gpt4.positive_f1, simple_gpt4.published_f1) == (80.44, 68.15, 80.44)


@given(st.lists(st.integers(0, 40), min_size=4, max_size=4).filter(lambda c: sum(c) > 0))
def test_numpy_replicate_formulas_equal_the_rust_core(counts: list[int]) -> None:
    tp, fp, fn, tn = counts
    a = agreement_from_counts(tp, fp, fn, tn, n_boot=0)
    vec = metrics_from_counts(np.array([counts]))
    for name in METRIC_NAMES:
        assert vec[name][0] == pytest.approx(getattr(a, name), abs=1e-12), name


def test_bootstrap_intervals() -> None:
    a = agreement_from_counts(46, 26, 17, 274, n_boot=4000, seed=1)
    b = agreement_from_counts(46, 26, 17, 274, n_boot=4000, seed=1)
    assert a.ci == b.ci  # fixed seed: reproducible
    for name in METRIC_NAMES:
        lo, hi = a.ci[name]
        assert lo <= getattr(a, name) <= hi, name
    # Bootstrap and Wilson intervals of the accuracy (n = 363) agree to about a point.
    assert a.ci["accuracy"][0] == pytest.approx(a.wilson["accuracy"][0], abs=0.015)
    assert a.ci["accuracy"][1] == pytest.approx(a.wilson["accuracy"][1], abs=0.015)
    # A larger sample with the same proportions gives a narrower interval.
    big = agreement_from_counts(460, 260, 170, 2740, n_boot=2000)
    assert big.ci["macro_f1"][1] - big.ci["macro_f1"][0] < a.ci["macro_f1"][1] - a.ci["macro_f1"][0]


def test_multinomial_bootstrap_matches_item_resampling() -> None:
    """Resampling items and drawing the four counts from a multinomial are the same distribution."""
    rng = np.random.default_rng(7)
    gold = np.repeat([True, False, True, False], [14, 3, 49, 297])
    judged = np.repeat([True, True, False, False], [14, 3, 49, 297])
    idx = rng.integers(0, len(gold), size=(3000, len(gold)))
    g, j = gold[idx], judged[idx]
    counts = np.stack([(g & j).sum(1), (~g & j).sum(1), (g & ~j).sum(1), (~g & ~j).sum(1)], axis=1)
    by_items = metrics_from_counts(counts)["macro_f1"]
    ours = agreement_from_counts(14, 3, 49, 297, n_boot=3000, seed=3).ci["macro_f1"]
    lo, hi = np.percentile(by_items, [2.5, 97.5])
    assert ours[0] == pytest.approx(lo, abs=0.02)
    assert ours[1] == pytest.approx(hi, abs=0.02)


def test_agreement_from_sequences_and_errors() -> None:
    a = agreement([True, True, False, False, True], [True, False, False, True, True], n_boot=0)
    assert (a.tp, a.fp, a.fn, a.tn) == (2, 1, 1, 1)
    with pytest.raises(ValueError, match="1-D of one length"):
        agreement([True], [True, False])
    with pytest.raises(ValueError, match="no scored items"):
        agreement_from_counts(0, 0, 0, 0)
    with pytest.raises(ValueError, match=">= 0"):
        agreement_from_counts(-1, 0, 0, 1)
    # Degenerate tables follow the core's conventions.
    all_no = agreement_from_counts(0, 0, 0, 5, n_boot=10)
    assert (all_no.kappa, all_no.positive_f1, all_no.precision, all_no.accuracy) == (1.0, 0.0, 0.0, 1.0)


def test_counter_groups_and_unparseable_policies() -> None:
    rows = [
        (True, "yes", {"fault_type": "a", "level": "1"}),
        (True, "no", {"fault_type": "a", "level": "2"}),
        (False, "yes", {"fault_type": "b", "level": "1"}),
        (False, "no", {"fault_type": "b", "level": "10"}),
        (True, "unparseable", {"fault_type": "b", "level": "2"}),
        (False, None, {"fault_type": "a", "level": "2"}),
        (None, "yes", {"fault_type": "a"}),
    ]
    c = AgreementCounter(["fault_type", "level"])
    for gold, verdict, groups in rows:
        c.add(gold, verdict, groups)
    o = c.overall
    assert (o.tp, o.fp, o.fn, o.tn, o.unparseable, o.no_verdict, o.unlabeled) == (1, 1, 1, 1, 1, 1, 1)
    assert c.groups["fault_type"]["a"].scored == 2 and c.groups["fault_type"]["b"].unparseable == 1
    assert c.groups["level"]["(missing)"].unlabeled == 1
    summary = summarize_counts(c, n_boot=50)
    assert list(summary["by_group"]["level"]) == ["1", "2", "10", "(missing)"]  # numeric order
    assert summary["overall"]["accuracy"] == pytest.approx(0.5)
    as_no = AgreementCounter([], unparseable="as-no")
    for gold, verdict, groups in rows:
        as_no.add(gold, verdict, groups)
    assert (as_no.overall.fn, as_no.overall.unparseable) == (2, 0)
    with pytest.raises(ValueError, match="exclude"):
        AgreementCounter([], unparseable="drop")


def test_pairwise_kappa_between_label_fields() -> None:
    # Reviewers agree on 18 of 20: both yes 5, a-only 1, b-only 1, both no 13.
    out = pairwise_kappa({("r1", "r2"): (5, 1, 1, 13)})
    a = np.repeat([True, True, False, False], [5, 1, 1, 13])
    b = np.repeat([True, False, True, False], [5, 1, 1, 13])
    assert out[0]["n"] == 20 and out[0]["agreement"] == pytest.approx(0.9)
    assert out[0]["kappa"] == pytest.approx(stats.cohen_kappa(a, b), abs=1e-15)
