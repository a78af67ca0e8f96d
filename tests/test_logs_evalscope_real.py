"""Rescoring logs that EvalScope 1.14.1's ``evalscope eval`` wrote itself (gsm8k, math_500; one
sample and ``--repeats 4``) on real GSM8K and MATH items, against a canned server
(tests/data/logs/evalscope_real/README.md).

The reader is found by the folder's layout (``reviews/<model>/<benchmark>_<subset>.jsonl``, names
with spaces), every number of ``reports/<model>/<benchmark>.json`` is the mean of the per-sample
scores we read (to EvalScope's four decimals), and ours is aggregated the same way (the mean over
every (doc, repeat)). The one doc where we disagree is EvalScope's error: it extracts ``4:30``
from the boxed ``4:30 \\text{ p.m.}`` and calls it wrong.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from matheval_fast.io.logs import ReadOptions, detect_format, expand_paths, open_log
from matheval_fast.rescore import rescore
from matheval_fast.samples import aggregate_for

ROOT = Path(__file__).resolve().parent / "data/logs/evalscope_real"
MODEL = "canned-qwen2.5-math-7b-instruct-outputs"
SUBSETS = ["gsm8k_main"] + [f"math_500_Level {i}" for i in range(1, 6)]


def test_found_by_the_folder_layout_with_spaces_in_names():
    files = expand_paths([ROOT])
    assert len(files) == 12 and all(f.parent.parent.name == "reviews" for f in files)
    assert {f.stem for f in files} == set(SUBSETS)
    assert {detect_format(f) for f in files} == {"evalscope"}


@pytest.mark.parametrize(("run", "n"), [("single", 1), ("repeats4", 4)])
def test_every_reported_number_is_read_and_ours_is_aggregated_the_same_way(tmp_path, run, n):
    rep = rescore([ROOT / run], tmp_path, samples="all")
    groups = {g["task"]: g for g in rep.groups}
    assert set(groups) == set(SUBSETS)
    wrong_docs = 0
    for task, g in groups.items():
        reader = open_log(ROOT / run / "reviews" / MODEL / f"{task}.jsonl")
        metric = "accuracy" if n == 1 else "accuracy (mean@4)"
        assert reader.info["primary_metric"] == metric and reader.info["repeats"] == n
        reported = reader.info["reported_metrics"]["accuracy"]
        m = g["metrics"][metric]
        assert m["framework"] == pytest.approx(reported, abs=5e-5), task  # EvalScope rounds to 4 decimals
        assert m["aggregate"] == aggregate_for(metric, None, n).label == ("first" if n == 1 else "mean@4")
        assert g["rows"] == n * g["records"]
        # Disagreements per doc on the same aggregate; only EvalScope's misread of "4:30 p.m."
        ids = {e["id"] for exs in g["examples_by_kind"].values() for e in exs}
        assert ids <= {"test/prealgebra/1462.json"}, task
        assert g["disagreements"] == g["ours_correct_framework_not"] == len(ids)
        assert g["verdicts"].get("gold_unparseable", 0) == 0
        wrong_docs += len(ids)
    assert wrong_docs == 1


def test_repeats_are_one_record_with_its_samples_in_order():
    path = ROOT / "repeats4/reviews" / MODEL / "gsm8k_main.jsonl"
    lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    batch = next(open_log(path, options=ReadOptions(samples="all")).batches()).batch.to_pydict()
    assert len(batch["response"]) == len(lines) == 80 and set(batch["n_samples"]) == {4}
    for row, line in enumerate(lines):
        assert batch["record"][row] == line["sample_score"]["group_id"]
        assert batch["sample"][row] == line["sample_score"]["generation_index"]
        assert batch["response"][row] == line["sample_score"]["score"]["prediction"]
        assert batch["fw_score"][row] == line["sample_score"]["score"]["value"]["accuracy"]
        assert batch["gold"][row] == line["target"][0]


def test_excluded_samples_are_outside_the_denominator_and_counted(tmp_path):
    run = tmp_path / "run"
    shutil.copytree(ROOT / "repeats4", run)
    path = run / "reviews" / MODEL / "gsm8k_main.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    rec = json.loads(lines[1])
    rec["sample_score"]["score"]["status"] = "excluded"
    lines[1] = json.dumps(rec)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    reader = open_log(path, options=ReadOptions(samples="all"))
    batch = next(reader.batches()).batch.to_pydict()
    assert len(batch["response"]) == 79 and batch["n_samples"][0] == 3
    assert reader.info["excluded"] == 1 and reader.info["excluded_ids"] == ["line 2"]
