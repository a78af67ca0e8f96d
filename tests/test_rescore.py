"""Rescoring logs: the numbers against independent computations, the same verdicts as every other
entry point, outputs (per-item, rescored copies, summary), bad input and interrupted runs."""

from __future__ import annotations

import json
from pathlib import Path

import matheval_fast as mf
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from matheval_fast.cli import main
from matheval_fast.io.logs import ReadOptions, open_log
from matheval_fast.rescore import _kinds, rescore
from matheval_fast.score import read_records, score_records

LOGS = Path(__file__).parent / "data" / "logs"
LM = LOGS / "lm_eval" / "canned__gsm8k-math"
GSM = next(LM.glob("samples_gsm8k_local_*.jsonl"))
MINERVA = next((LOGS / "lm_eval_real").rglob("samples_minerva_math_prealgebra_local_*.jsonl"))
LIGHT = next((LOGS / "lighteval").rglob("details_gsm8k_local*.parquet"))
OC = next((LOGS / "opencompass_real").rglob("results/*/gsm8k.json"))
QWEN = next((LOGS / "qwen_math_real").rglob("math/test_*t0.7*.jsonl"))
SEED = Path(__file__).parents[1] / "data" / "samples" / "demo_responses.json"


def jsonl(path):
    return [json.loads(x) for x in Path(path).read_text(encoding="utf-8").splitlines() if x.strip()]


def items(out, name):
    return pq.read_table(out / "items" / f"{name}.parquet").to_pylist()


def test_lm_eval_summary_against_a_plain_computation(tmp_path):
    rep = rescore([GSM], tmp_path)
    ref = jsonl(GSM)
    verdicts = {}
    for r in ref:
        gold = r["target"].rsplit("#### ", 1)[1]
        verdicts[r["doc_id"]] = mf.check(r["resps"][0][0], gold).correct
    by_filter = {g["filter"]: g for g in rep.groups}
    assert set(by_filter) == {"strict-match", "flexible-extract"}
    for filt, g in by_filter.items():
        rows = [r for r in ref if r["filter"] == filt]
        assert g["records"] == len(rows) == 12
        assert g["framework_accuracy"] == pytest.approx(np.mean([r["exact_match"] for r in rows]))
        assert g["ours_accuracy"] == pytest.approx(np.mean([verdicts[r["doc_id"]] for r in rows]))
        dis = [r for r in rows if float(verdicts[r["doc_id"]]) != r["exact_match"]]
        assert g["disagreements"] == len(dis) > 0
        assert g["ours_correct_framework_not"] == sum(verdicts[r["doc_id"]] for r in dis)
        assert sum(g["disagreements_by_kind"].values()) == len(dis)
        assert sum(g["disagreements_by_reason"].values()) == len(dis)
    # strict-match found nothing ("[invalid]") where we found the answer: extraction differences.
    assert by_filter["strict-match"]["disagreements_by_kind"]["extraction"] == 6
    ex = by_filter["strict-match"]["examples_by_kind"]["extraction"][0]
    assert ex["framework_extracted"] == "[invalid]" and ex["position"] >= 1


def test_verdicts_equal_check_batch_and_the_score_path(tmp_path):
    # Every entry point gives the same verdicts: rescore's rows vs check_batch on the same pairs.
    rescore([GSM, MINERVA, QWEN, LIGHT], tmp_path, samples="all")
    for path in (GSM, MINERVA, QWEN, LIGHT):
        rows = items(tmp_path, path.name)
        keep = rescore_rows = rows
        reader = open_log(path, options=ReadOptions(samples="all"))
        t = pa.Table.from_batches([b.batch for b in reader.batches()])
        res = mf.check_batch(t.column("response").to_pylist(), t.column("gold").to_pylist())
        assert [r["correct"] for r in keep] == res.correct.tolist()
        assert [r["reason"] for r in rescore_rows] == res.reason.tolist()
        assert [r["extracted"] for r in rescore_rows] == list(res.extracted)
    # The seed's own format gives what `matheval-fast score` gives.
    rep = rescore([SEED], tmp_path / "seed")
    seed_rows = items(tmp_path / "seed", SEED.name)
    scored = score_records(read_records(SEED))
    assert [r["correct"] for r in seed_rows] == [r["correct"] for r in scored.rows]
    assert {g["task"] for g in rep.groups} == {"GSM8K", "MATH"}


def test_xwin_compat_compares_the_gsm8k_answer(tmp_path):
    rep = rescore([GSM], tmp_path, compat="xwin", copy=False)
    assert all(g["ours_accuracy"] > 0.3 for g in rep.groups)  # the gold is "18", not the solution


def test_per_item_output_keeps_ids_and_passes_fields_through(tmp_path):
    rescore([GSM], tmp_path, id_fields=("doc.question",), keep_response=True)
    rows = items(tmp_path, GSM.name)
    ref = jsonl(GSM)
    assert [r["id"] for r in rows] == [str(r["doc_id"]) for r in ref]
    assert [r["doc.question"] for r in rows] == [r["doc"]["question"] for r in ref]
    assert [r["position"] for r in rows] == list(range(1, len(ref) + 1))
    assert rows[0]["response"] == ref[0]["resps"][0][0]
    assert {"correct", "reason", "extracted", "path", "fw_score", "disagree", "kind", "item_score"} <= set(
        rows[0]
    )


def test_rescored_copies_in_the_logs_own_format(tmp_path):
    rescore([GSM, LIGHT, OC, QWEN], tmp_path, copy=True)
    out = tmp_path / "rescored"
    # JSON Lines: each record byte for byte, then our three members.
    orig = GSM.read_text(encoding="utf-8").splitlines()
    copy = (out / GSM.name).read_text(encoding="utf-8").splitlines()
    assert len(copy) == len(orig)
    rows = items(tmp_path, GSM.name)
    for o, c, row in zip(orig, copy, rows, strict=True):
        assert c.startswith(o[:-1] + ", ")
        rec = json.loads(c)
        assert rec["matheval_fast"] == float(row["correct"])
        assert (
            rec["matheval_fast_reason"] == row["reason"]
            and rec["matheval_fast_extracted"] == row["extracted"]
        )
        assert {k: v for k, v in rec.items() if not k.startswith("matheval_fast")} == json.loads(o)
    # Parquet: the original columns, then ours.
    t = pq.read_table(out / LIGHT.name)
    src = pq.read_table(LIGHT)
    assert t.schema.names == [
        *src.schema.names,
        "matheval_fast",
        "matheval_fast_reason",
        "matheval_fast_extracted",
    ]
    assert t.select(src.schema.names).equals(src)
    # OpenCompass: valid JSON, every details entry annotated, a summary at the top level.
    oc = json.loads((out / OC.name).read_text())
    assert (
        all("matheval_fast" in d for d in oc["details"])
        and oc["accuracy"] == json.loads(OC.read_text())["accuracy"]
    )
    assert "accuracy" in oc["matheval_fast"]
    assert len((out / QWEN.name).read_text().splitlines()) == len(QWEN.read_text().splitlines())


def test_record_views_over_samples(tmp_path):
    lines = [
        {
            "doc_id": 0,
            "doc": {},
            "target": "18",
            "resps": [["The answer is 17", "The answer is 18", "The answer is 17"]],
            "filtered_resps": ["17"],
            "filter": "maj@3",
            "metrics": ["exact_match"],
            "exact_match": 0.0,
        },
    ]
    p = tmp_path / "samples_t_2024-01-01T00-00-00.000000.jsonl"
    p.write_text("".join(json.dumps(x) + "\n" for x in lines))
    got = {
        agg: rescore([p], tmp_path / agg, samples="all", agg=agg).groups[0]
        for agg in ("mean", "any", "majority")
    }
    assert got["mean"]["ours_accuracy"] == pytest.approx(1 / 3)
    assert got["any"]["ours_accuracy"] == 1.0 and got["any"]["disagreements"] == 1
    assert got["majority"]["ours_accuracy"] == 0.0 and got["majority"]["disagreements"] == 0
    assert rescore([p], tmp_path / "first").groups[0]["ours_accuracy"] == 0.0


def test_kinds_of_disagreement():
    kinds = _kinds(
        pa.array(["correct", "correct", "incorrect", "no_answer", "gold_unparseable", "correct", "correct"]),
        pa.array(["18", "18", "5", None, "3", "18", "18"], pa.large_string()),
        pa.array(["18.0", "[invalid]", "5", None, "3", None, " 18 "], pa.large_string()),
    )
    assert kinds == [
        "equivalence",
        "extraction",
        "equivalence",
        "extraction",
        "gold",
        "unknown",
        "equivalence",
    ]


def test_bad_inputs_fail_before_any_output(tmp_path):
    out = tmp_path / "out"
    with pytest.raises(FileNotFoundError):
        rescore([GSM, tmp_path / "absent.jsonl"], out)
    assert not out.exists()
    other = tmp_path / "other.txt"
    other.write_text("hello\n")
    with pytest.raises(ValueError, match="not a log format we know"):
        rescore([GSM, other], out)
    assert not out.exists()


def test_malformed_records_are_listed(tmp_path):
    src = GSM.read_text(encoding="utf-8").splitlines(keepends=True)
    p = tmp_path / GSM.name
    p.write_text("".join([*src[:2], "{broken\n", *src[2:]]), encoding="utf-8")
    rep = rescore([p], tmp_path / "out")
    assert rep.files[0]["malformed"] == 1 and sum(g["records"] for g in rep.groups) == 24
    rejected = [json.loads(x) for x in (tmp_path / "out" / "rejected.jsonl").read_text().splitlines()]
    assert rejected == [{"file": str(p), "position": 3, "unit": "line", "message": rejected[0]["message"]}]
    assert "Malformed records" in (tmp_path / "out" / "summary.md").read_text()


def test_an_interrupted_run_leaves_no_complete_looking_output(tmp_path, monkeypatch):
    import matheval_fast.rescore as R

    calls = {"n": 0}
    real = R.score_log_batch

    def boom(*a, **k):
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt
        return real(*a, **k)

    monkeypatch.setattr(R, "score_log_batch", boom)
    with pytest.raises(KeyboardInterrupt):
        rescore([GSM, MINERVA], tmp_path, copy=True)
    left = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert left == []


def test_cli_rescore(tmp_path, capsys):
    assert main(["rescore", str(LM), "--out", str(tmp_path), "--id-field", "doc_hash"]) == 0
    out = capsys.readouterr().out
    assert (
        "| canned__gsm8k-math | gsm8k_local | strict-match | 12 | exact_match "
        "| our verdict on the first sample | 16.67 | 66.67 |" in out
    )
    assert json.loads((tmp_path / "summary.json").read_text())["rows"] == 24 + 24
    assert main(["rescore", str(tmp_path / "absent.jsonl"), "--out", str(tmp_path / "x")]) == 2
    assert "no such file" in capsys.readouterr().err
    # The rescored copy only when asked for (it is the whole log again).
    assert not (tmp_path / "rescored").exists()
    assert main(["rescore", str(LM), "--out", str(tmp_path / "c"), "--copy", "--quiet"]) == 0
    copies = list((tmp_path / "c" / "rescored").iterdir())
    logs = json.loads((tmp_path / "c" / "summary.json").read_text())["files"]
    assert len(copies) == len(logs) and all(c.stat().st_size > 0 for c in copies)
