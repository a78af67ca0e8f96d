"""Rescoring logs that OpenCompass 0.5.4 wrote itself (inference and evaluation, its stock configs) on
real GSM8K and MATH items (tests/data/logs/opencompass_real/README.md).

Every metric of every results file — ``accuracy``, ``accuracy (4 runs average)``, ``G-Pass@k_t``,
``mG-Pass@k`` — is read per item, averages to the number in the file, and is compared with our
verdicts aggregated the same way. The golds are the ones the evaluator graded against (the
predictions file's ``gold``, not ``MATHVerifyEvaluator``'s parse repr in the details), and GSM8K
outputs are cut at ``Question:`` as ``gsm8k_postprocess`` cuts them. Where we disagree, the
framework is wrong on an item we can name: OpenCompass's GSM8K regex reads ``57,500`` as ``500``,
and math-verify parses the boxed ``4:30 \\text{ p.m.}`` as ``2/15``.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from matheval_fast.io.logs import ReadOptions
from matheval_fast.io.logs.opencompass import OpenCompassReader
from matheval_fast.rescore import rescore
from matheval_fast.samples import aggregate_for, g_pass_at_k, mg_pass_at_k

RUN = Path(__file__).resolve().parent / "data/logs/opencompass_real/default/20260101_000000"
MODEL = "canned-qwen2.5-math-7b-instruct-outputs"
RESULTS = sorted((RUN / "results" / MODEL).glob("*.json"))
# The items on which the framework itself is wrong (see the module docstring), by task prefix.
FRAMEWORK_WRONG = {
    "gsm8k": {"gsm8k_test_17", "gsm8k-n4_test_17"},
    "math": {"math_test_3", "math-500_3", "math-500-n4_3"},
}


def _reported(path: Path) -> dict[str, float]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return {k: v for k, v in data.items() if isinstance(v, (int, float)) and "/" not in k}


@pytest.fixture(scope="module", params=["all", "first"])
def summary(request, tmp_path_factory):
    out = tmp_path_factory.mktemp(f"oc-{request.param}")
    rep = rescore([RUN.parent.parent], out, samples=request.param)
    return request.param, {g["task"]: g for g in rep.groups}


def test_the_fixture_has_every_stock_config():
    assert [p.stem for p in RESULTS] == ["gsm8k-n4", "gsm8k", "math-0shot", "math-500-n4", "math-500", "math"]


def test_every_metric_is_the_frameworks_own_number_and_ours_is_aggregated_the_same_way(summary):
    samples, groups = summary
    seen = 0
    for path in RESULTS:
        g = groups[path.stem]
        reported = _reported(path)
        assert set(g["metrics"]) == set(reported), path.stem
        for name, value in reported.items():
            m = g["metrics"][name]
            agg = aggregate_for(name, None, 4)
            if samples == "first" and agg.kind in ("gpass", "mgpass"):
                assert m["framework_scored"] == 0 and "needs --samples all" in m["compared_with"]
                continue
            if samples == "first" and agg.kind != "first":
                # run 1 of 4 only: not the file's number, and the table says so
                assert "first sample" in m["compared_with"] and "first sample only" in g["framework_metric"]
                continue
            assert 100 * m["framework"] == pytest.approx(value, abs=1e-9), (path.stem, name)
            assert m["aggregate"] == agg.label
            seen += 1
    assert seen == (30 if samples == "all" else 4)


def test_disagreements_are_only_the_items_the_framework_gets_wrong(summary):
    _, groups = summary
    for task, g in groups.items():
        wrong = FRAMEWORK_WRONG["gsm8k" if task.startswith("gsm8k") else "math"]
        ids = {e["id"] for exs in g["examples_by_kind"].values() for e in exs}
        assert ids <= wrong, task
        # One doc at most, and ours is the higher: the framework misread a right answer.
        assert g["disagreements"] == g["ours_correct_framework_not"] <= 1, task
        for m in g["metrics"].values():
            assert m["disagreements"] == m["ours_higher"] <= 1, task
        assert g["verdicts"].get("gold_unparseable", 0) == 0, task
    # math-0shot (MATHEvaluator v2 + math_postprocess_v2) reads 4:30 p.m. right: no disagreement at all
    assert groups["math-0shot"]["disagreements"] == 0


def test_math_verify_golds_come_from_the_predictions_file_not_the_parse_repr():
    for stem, rule in (("math", "as_written"), ("math-500", "boxed")):
        details = json.loads((RUN / "results" / MODEL / f"{stem}.json").read_text(encoding="utf-8"))[
            "details"
        ]
        assert details[0]["answer"][0].startswith("[")  # "[420, '420']": a parse, not a gold
        reader = OpenCompassReader(RUN / "results" / MODEL / f"{stem}.json")
        batch = next(reader.batches()).batch.to_pydict()
        assert batch["gold"][0] == "420" and set(batch["gold_rule"]) == {rule}
        assert reader.info["gold_field"] == "gold (predictions file)"


def test_gsm8k_outputs_are_cut_at_the_next_question_as_gsm8k_postprocess_does():
    preds = json.loads((RUN / "predictions" / MODEL / "gsm8k.json").read_text(encoding="utf-8"))
    continued = [k for k, v in preds.items() if "\nQuestion:" in v["prediction"]]
    assert len(continued) >= 5
    reader = OpenCompassReader(RUN / "results" / MODEL / "gsm8k.json")
    batch = next(reader.batches()).batch.to_pydict()
    assert not any("Question:" in r for r in batch["response"])
    for k in continued:
        assert preds[k]["prediction"].startswith(batch["response"][int(k)])
    assert "Question:" in reader.info["truncation"]
    # MATH tasks have no cut
    assert OpenCompassReader(RUN / "results" / MODEL / "math.json").info["truncation"] is None


def test_replicated_runs_are_read_per_doc_and_run():
    path = RUN / "results" / MODEL / "gsm8k-n4.json"
    reader = OpenCompassReader(path, ReadOptions(samples="all"))
    batch = next(reader.batches()).batch.to_pydict()
    assert len(batch["response"]) == 80 and set(batch["n_samples"]) == {4}
    details = json.loads(path.read_text(encoding="utf-8"))["details"]
    preds = json.loads((RUN / "predictions" / MODEL / "gsm8k-n4.json").read_text(encoding="utf-8"))
    for row in range(80):
        doc, run = batch["record"][row], batch["sample"][row]
        assert batch["fw_score"][row] == float(details[doc]["correct"][run])
        assert preds[str(run * 20 + doc)]["prediction"].startswith(batch["response"][row])


@pytest.mark.parametrize("stem", ["gsm8k-n4", "math-500-n4"])
def test_g_pass_is_opencompass_own_formula(stem):
    """Our G-Pass@k / mG-Pass@k from OpenCompass's own per-run verdicts equal its per-doc values."""
    details = json.loads((RUN / "results" / MODEL / f"{stem}.json").read_text(encoding="utf-8"))["details"]
    checked = 0
    for d in details:
        n, c = len(d["correct"]), sum(d["correct"])
        for k in (2, 4):
            for t in (0.0, 0.25, 0.5, 0.75, 1.0):
                assert g_pass_at_k(n, c, k, t) == pytest.approx(d[f"G-Pass@{k}_{t}"], abs=1e-12)
                checked += 1
            assert mg_pass_at_k(n, c, k) == pytest.approx(d[f"mG-Pass@{k}"], abs=1e-12)
    assert checked == 10 * len(details) and any(0 < sum(d["correct"]) < 4 for d in details)


def test_g_pass_names_are_not_pass_at_k():
    assert aggregate_for("G-Pass@2_0.5", None, 4).kind == "gpass"
    assert aggregate_for("mG-Pass@4", None, 4).kind == "mgpass"
    assert aggregate_for("accuracy (4 runs average)", None, 4).label == "mean@4"
    assert aggregate_for("pass@2", None, 4).kind == "pass"
    assert math.isclose(g_pass_at_k(4, 2, 2, 1.0), 1 / 6)


def test_without_predictions_the_gold_is_the_string_math_verify_parsed(tmp_path):
    """A results file alone (no predictions/ beside it): MATHVerifyEvaluator's ``"[1/9, '\\frac{1}{9}']"``
    gives the string it parsed, read as a literal (nothing evaluated); other golds stay as written."""
    src = RUN / "results" / MODEL / "math.json"
    path = tmp_path / "results" / MODEL / "math.json"
    path.parent.mkdir(parents=True)
    path.write_bytes(src.read_bytes())
    reader = OpenCompassReader(path)
    assert reader.info["gold_field"] == "answer (details)" and reader.info["response_source"] == "extracted"
    batch = next(reader.batches()).batch.to_pydict()
    details = json.loads(src.read_text(encoding="utf-8"))["details"]
    assert all(d["answer"][0].startswith("[") for d in details)
    assert not any(g.startswith("[") for g in batch["gold"])
    assert batch["gold"][0] == "420" and batch["response"][0] == "420"  # the pred was "[420, '420']"
    from matheval_fast.io.logs.opencompass import _unparse

    assert _unparse("[1/9, '\\\\frac{1}{9}']") == "\\frac{1}{9}"
    assert _unparse("[1, 2]") == "[1, 2]" and _unparse("18") == "18"
    assert _unparse("[x, '__import__(\"os\")']") == '__import__("os")'  # a string, never run
