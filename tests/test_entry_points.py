"""One verdict through every entry point: ``check``, ``verify`` (on what ``check`` extracted),
``check_batch``, the Arrow kernel, ``score`` (API and command line) and ``rescore`` give the same
verdict for the same (response, gold) on the bundled suites: Qwen2.5-Math's 800 MATH responses,
math-verify's suite, and GSM8K golds written as worked solutions (``solution\\n#### n``)."""

from __future__ import annotations

import json
from pathlib import Path

import matheval_fast as mf
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from matheval_fast import arrow
from matheval_fast.rescore import rescore
from matheval_fast.score import score_records

DATA = Path(__file__).resolve().parents[1] / "data" / "answer_check"


@pytest.fixture(scope="module")
def pairs() -> list[tuple[str, str]]:
    out = []
    for line in open(DATA / "qwen25math_math_cot_100_graded.jsonl", encoding="utf-8"):
        r = json.loads(line)
        out.append((r["response"], r["gold"]))
    for line in open(DATA / "math_verify_cases.jsonl", encoding="utf-8"):
        r = json.loads(line)
        out.append((r["pred"], r["gold"]))
    for i, it in enumerate(json.loads((DATA / "gsm8k_xwin.json").read_text(encoding="utf-8"))[:300]):
        line = [f"The answer is {it['answer']}.", f"#### {it['answer']}", f"So $\\boxed{{{i}}}$."][i % 3]
        out.append((f"{it['solution']}\n{line}", f"{it['solution']}\n#### {it['answer']}"))
    return out


@pytest.fixture(scope="module")
def reference(pairs):
    return [mf.check(r, g) for r, g in pairs]


def _key(correct, reason) -> tuple[bool, str]:
    return bool(correct), str(reason)


def test_verify_on_the_extracted_answer_is_check(pairs, reference):
    for (_, gold), v in zip(pairs, reference, strict=True):
        if v.extracted is not None and v.reason in ("correct", "incorrect"):
            assert mf.verify(gold, v.extracted) == v.correct, (gold[:80], v.extracted)


def test_check_batch_and_the_arrow_kernel(pairs, reference):
    want = [_key(v.correct, v.reason) for v in reference]
    r = mf.check_batch([p[0] for p in pairs], [p[1] for p in pairs])
    assert [_key(c, s) for c, s in zip(r.correct, r.reason, strict=True)] == want
    t = arrow.score_batch(pa.table({"completion": [p[0] for p in pairs], "answer": [p[1] for p in pairs]}))
    assert list(zip(t.column("correct").to_pylist(), t.column("reason").to_pylist(), strict=True)) == want


def test_score_api_and_command_line(pairs, reference, tmp_path):
    from matheval_fast.cli import main

    want = [_key(v.correct, v.reason) for v in reference]
    records = [{"completion": r, "answer": g} for r, g in pairs]
    with pytest.warns(UserWarning, match="kind='auto'"):
        rep = score_records(records)
    assert [_key(row["correct"], row["reason"]) for row in rep.rows] == want
    src = tmp_path / "responses.jsonl"
    src.write_text("".join(json.dumps(x) + "\n" for x in records), encoding="utf-8")
    assert main(["score", str(src), "--out", str(tmp_path / "out.parquet"), "--quiet"]) == 0
    t = pq.read_table(tmp_path / "out.parquet")
    assert list(zip(t.column("correct").to_pylist(), t.column("reason").to_pylist(), strict=True)) == want


def test_rescore_of_a_log(pairs, reference, tmp_path):
    """The same pairs as an lm-eval samples log (an unknown task: the general gold rule)."""
    log = tmp_path / "samples_suite_2026-01-01T00-00-00.000000.jsonl"
    with open(log, "w", encoding="utf-8") as fh:
        for i, (r, g) in enumerate(pairs):
            rec = {
                "doc_id": i,
                "doc": {},
                "target": g,
                "resps": [[r]],
                "filtered_resps": [r],
                "filter": "none",
            }
            fh.write(json.dumps({**rec, "metrics": ["exact_match"], "exact_match": 0.0}) + "\n")
    rescore([log], tmp_path / "out")
    t = pq.read_table(tmp_path / "out" / "items" / f"{log.name}.parquet").sort_by("record")
    got = list(zip(t.column("correct").to_pylist(), t.column("reason").to_pylist(), strict=True))
    assert got == [_key(v.correct, v.reason) for v in reference]
