"""Rescoring logs that lm-eval 0.4.13 and lighteval 0.13.0 wrote themselves on real MATH and GSM8K
items (real worked solutions, real Qwen2.5-Math-7B-Instruct outputs; tests/data/logs/README.md).

Every metric of every log is read and aggregated as the framework reports it (the per-record values
we read average to the framework's own results file), golds that are worked solutions are reduced to
their answers, and our numbers are those of a careful grader. On the 30 MATH Prealgebra problems
of ``math_500_local`` our verdicts equal the Qwen grader's and math-verify's (both recorded in
data/answer_check/qwen25math_math_cot_100_graded.jsonl) except where those are wrong: problem 3's
``4:30 \text{ p.m.}`` (Qwen's copy of the gold reads ``4:30p..``; the MATH solution boxes
``\text{4:30 p.m.}``) on all 8 samples, and the Qwen grader's miss of ``10000`` for ``10{,}000``.
"""

from __future__ import annotations

import json
from pathlib import Path

import matheval_fast as mf
import pytest
from matheval_fast.io.logs.lighteval import metric_label
from matheval_fast.rescore import rescore

LOGS = Path(__file__).resolve().parent / "data" / "logs"
SCORES = json.loads((LOGS / "real_fixture_scores.json").read_text(encoding="utf-8"))["scores"]


@pytest.fixture(scope="module")
def summary(tmp_path_factory):
    out = tmp_path_factory.mktemp("real")
    rep = rescore([LOGS / "lm_eval_real", LOGS / "lighteval_real"], out, samples="all")
    return {(g["task"], g["filter"] or "none"): g for g in rep.groups}


def _framework_results() -> dict[tuple[str, str], dict[str, float]]:
    out: dict[tuple[str, str], dict[str, float]] = {}
    for tasks in SCORES.values():
        for task, filters in tasks.items():
            for filt, metrics in filters.items():
                out[(task, filt)] = {
                    metric_label(m): v for m, v in metrics.items() if not m.endswith("_stderr")
                }
    return out


def test_every_metric_of_every_log_is_the_frameworks_own_number(summary):
    results = _framework_results()
    seen = 0
    for key, g in summary.items():
        assert set(g["metrics"]) == set(results[key]), key
        for name, m in g["metrics"].items():
            assert m["framework"] == pytest.approx(results[key][name], abs=1e-9), (key, name)
            seen += 1
    assert len(summary) == 17 and seen == 23


@pytest.mark.parametrize(
    ("task", "filt", "metric", "aggregate"),
    [
        ("gsm8k_cot_self_consistency_local", "score-first", "exact_match", "first"),
        ("gsm8k_cot_self_consistency_local", "maj@8", "exact_match", "maj@8"),
        ("minerva_math_prealgebra_maj8_local", "maj@8", "math_verify", "maj@8"),
        ("math_500_n8_local|0", "none", "pass@k:k=1&n=8", "mean@8"),
        ("math_500_n8_local|0", "none", "pass@k:k=4&n=8", "pass@4/n=8"),
        ("math_500_n8_local|0", "none", "avg@n:n=8", "mean@8"),
        ("math_500_local|0", "none", "pass@k:k=1&n=1", "first"),
    ],
)
def test_each_metric_is_compared_with_the_aggregate_it_names(summary, task, filt, metric, aggregate):
    assert summary[(task, filt)]["metrics"][metric]["aggregate"] == aggregate


def test_worked_solution_golds_are_reduced_by_the_rule_their_shape_needs(summary):
    assert summary[("math_500_local|0", "none")]["gold_rules"] == {"boxed": 30}
    assert summary[("math_prealgebra_local|0", "none")]["gold_rules"] == {"boxed": 30}
    assert summary[("gsm8k_local|0", "none")]["gold_rules"] == {"hashes": 20}
    assert summary[("gsm8k_local", "strict-match")]["gold_rules"] == {"hashes": 20}
    assert summary[("minerva_math_prealgebra_local", "none")]["gold_rules"] == {"as_written": 30}
    assert all(g["golds_unreduced"] == 0 for g in summary.values())


def test_ours_on_math_500_is_the_careful_graders(summary):
    g = summary[("math_500_local|0", "none")]
    assert g["ours_accuracy"] == pytest.approx(21 / 30)  # lighteval says 20/30: it read "2/15" for 4:30 p.m.
    assert g["disagreements"] == 1 and g["ours_correct_framework_not"] == 1
    # The same 30 problems through lm-eval's minerva_math: the same verdicts (one gold rule).
    assert summary[("minerva_math_prealgebra_local", "none")]["ours_accuracy"] == pytest.approx(21 / 30)
    # All 8 samples: the Qwen grader's 168/240 plus the 8 "4:30 p.m." and the one "10{,}000".
    n8 = summary[("math_500_n8_local|0", "none")]["metrics"]["pass@k:k=1&n=8"]
    assert n8["ours"] == pytest.approx(177 / 240)


def test_the_majority_vote_counts_answers_not_strings():
    """maj@8 of the self-consistency log: the vote groups equal answers (our checker's equality)."""
    from matheval_fast.samples import majority_pick

    assert majority_pick([["18", "18.0", "$18", "17", "17", "16", "16", "15"]]) == [0]


def test_the_lighteval_math_500_bug_is_gone():
    """The gold ``ANSWER: <solution>`` once gave the solution's first words as the answer."""
    docs = [json.loads(x) for x in open(LOGS / "sources" / "math_prealgebra.jsonl", encoding="utf-8")]
    for d in docs[:10]:
        gold = f"ANSWER: {d['solution']}"
        boxed = mf.extract_answer(d["solution"]) or ""
        assert mf.check(f"The answer is ${boxed}$.", gold).correct, d["unique_id"]


def test_the_summary_names_each_frameworks_gold_rule(summary):
    assert summary[("math_500_local|0", "none")]["gold_source"].startswith("lighteval math metrics")
    assert summary[("gsm8k_local", "strict-match")]["gold_source"].startswith("lm-eval gsm8k:")
    assert summary[("gsm8k_cot_local", "strict-match")]["gold_source"].startswith("lm-eval gsm8k-cot")
    from matheval_fast.io.logs.families import gold_source

    assert gold_source("lm_eval", "my_custom_task").startswith("task family not known: the general rule")


def test_the_main_columns_use_each_filters_own_aggregate(summary):
    """One lm-eval log holds a line per filter: `score-first` and `maj@8` lines share a batch."""
    for key in [
        ("gsm8k_cot_self_consistency_local", "score-first"),
        ("gsm8k_cot_self_consistency_local", "maj@8"),
        ("minerva_math_prealgebra_maj8_local", "maj@8"),
    ]:
        g = summary[key]
        assert g["ours_accuracy"] == pytest.approx(g["metrics"][g["framework_metric"]]["ours"]), key
        assert g["compared_with"] == g["metrics"][g["framework_metric"]]["compared_with"], key
    # maj@8 differs from the first sample on these logs, so the aggregate really is per filter.
    sc = summary[("minerva_math_prealgebra_maj8_local", "maj@8")]["ours_accuracy"]
    assert sc != summary[("minerva_math_prealgebra_maj8_local", "score-first")]["ours_accuracy"]
