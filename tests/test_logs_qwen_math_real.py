"""Rescoring logs that Qwen2.5-Math's own ``evaluation/math_eval.py`` wrote (greedy, and 4 samples per
problem) on real GSM8K and MATH items (tests/data/logs/qwen_math_real/; its generation library replaced by
a table of real Qwen2.5-Math-7B-Instruct outputs: scripts/log_fixtures/make_qwen_math_real.py).

Qwen reports ``acc`` over each problem's FIRST sample and ``type_acc`` over its LAST; both are read per
sample and compared with ours on the same sample (never a per-problem fraction against one verdict). The
gold is the dataset's ``answer`` the record carries, not Qwen's normalised ``gt`` (``4:30p..``): on that
problem Qwen extracts ``4:30`` from ``4:30 \\text{ p.m.}`` and calls every sample wrong, the one place we
disagree.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from matheval_fast.io.logs import ReadOptions, open_log
from matheval_fast.rescore import rescore

ROOT = Path(__file__).resolve().parent / "data/logs/qwen_math_real"
LOGS = sorted(p for p in ROOT.rglob("test_*.jsonl"))


def _metrics_file(log: Path) -> dict:
    (f,) = log.parent.glob(log.stem + "_*metrics.json")
    return json.loads(f.read_text(encoding="utf-8"))


def test_the_fixture_has_greedy_and_sampled_runs_of_both_datasets():
    assert [(p.parent.name, p.stem.split("_")[4]) for p in LOGS] == [
        ("gsm8k", "t0.0"),
        ("gsm8k", "t0.7"),
        ("math", "t0.0"),
        ("math", "t0.7"),
    ]


@pytest.mark.parametrize("samples", ["first", "all"])
def test_every_reported_number_is_read_and_ours_is_aggregated_the_same_way(tmp_path, samples):
    rep = rescore([ROOT], tmp_path, samples=samples)
    groups = {g["file"]: g for g in rep.groups}
    assert len(groups) == 4
    for log in LOGS:
        g = groups[str(log)]
        reported = _metrics_file(log)
        metrics = g["metrics"]
        assert round(100 * metrics["acc"]["framework"], 1) == reported["acc"]
        assert metrics["acc"]["aggregate"] == "first"
        # The main columns are Qwen's acc itself, whatever --samples says
        assert round(100 * g["framework_accuracy"], 1) == reported["acc"]
        if "type_acc" in reported:
            ((_, value),) = reported["type_acc"].items()  # one MATH type in this fixture
            if samples == "all":
                assert round(100 * metrics["type_acc"]["framework"], 1) == value
                assert metrics["type_acc"]["aggregate"] == "last"
        # disagreements: only problem 3 (Qwen's misread of 4:30 p.m.), ours higher
        ids = {e["id"] for exs in g["examples_by_kind"].values() for e in exs}
        assert ids <= {"3"}
        assert (
            g["disagreements"] == g["ours_correct_framework_not"] == (1 if log.parent.name == "math" else 0)
        )
        for m in metrics.values():
            assert m["disagreements"] == m["ours_higher"]


def test_the_gold_is_the_datasets_answer_not_qwens_normalised_gt():
    log = next(p for p in LOGS if p.parent.name == "math")
    rows = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()]
    rec = next(r for r in rows if r["idx"] == 3)
    assert rec["gt"] == "4:30p.." and rec["answer"] == r"\text{4:30 p.m.}"
    reader = open_log(log, options=ReadOptions(samples="all"))
    assert reader.info["gold_field"] == "answer"
    batch = next(reader.batches()).batch.to_pydict()
    assert batch["gold"][rows.index(rec)] == r"\text{4:30 p.m.}"
    # --gold-field gt still reads Qwen's
    reader = open_log(log, options=ReadOptions(gold_field="gt"))
    assert next(reader.batches()).batch.to_pydict()["gold"][rows.index(rec)] == "4:30p.."


def test_reported_metrics_come_with_the_reader_info():
    log = next(p for p in LOGS if p.parent.name == "math" and "t0.7" in p.name)
    reader = open_log(log)
    assert reader.info["metrics"] == ["acc", "type_acc"]
    assert reader.info["reported_metrics"] == {
        k: v for k, v in _metrics_file(log).items() if k in ("acc", "type_acc")
    }
