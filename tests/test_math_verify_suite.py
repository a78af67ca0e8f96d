"""Issue figures for MATH-style answers through the public API, on full texts.

- math-verify 0.9.0's own 276 cases through ``check(pred, gold)``: every miss is listed with its
  policy reason in ``tests/data/check_known_misses.json`` (the exact set is asserted).
- 800 real Qwen2.5-Math responses through ``check_batch``: agreement with the graders' consensus and
  the share SymPy had to decide.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import matheval_fast as mf
import pytest

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "data" / "answer_check" / "math_verify_cases.jsonl"
QWEN = ROOT / "data" / "answer_check" / "qwen25math_math_cot_100_graded.jsonl"
MISSES = ROOT / "tests" / "data" / "check_known_misses.json"


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_math_verify_suite_through_check():
    rows = _rows(CASES)
    assert len(rows) == 276
    known = {m["id"]: m["reason"] for m in json.loads(MISSES.read_text(encoding="utf-8"))["misses"]}
    wrong = {r["id"] for r in rows if mf.check(r["pred"], r["gold"]).correct != r["expected"]}
    assert wrong == set(known), f"new misses: {wrong - set(known)}; fixed: {set(known) - wrong}"
    assert len(rows) - len(wrong) >= 262


def test_qwen_responses_agree_with_the_graders():
    rows = _rows(QWEN)
    assert len(rows) == 800
    res = mf.check_batch([r["response"] for r in rows], [r["gold"] for r in rows], kinds=["latex"] * 800)
    votes = [
        [
            r["qwen_grader_verdict"],
            r["math_verify_0_9_0_full_response"],
            r["prm800k_grade_answer_on_qwen_extracted"],
        ]
        for r in rows
    ]
    consensus = [sum(bool(v) for v in vs) >= 2 for vs in votes]
    agree = sum(bool(c) == bool(ok) for c, ok in zip(consensus, res.correct, strict=True))
    paths = Counter(res.path.tolist())
    assert agree >= 799, agree
    assert paths["sympy"] / 800 < 0.03, paths


@pytest.mark.parametrize(
    ("gold", "pred", "expected"),
    [
        ("$10$", "Answer \\( (9+1) \\)", True),  # an expression against a number goes to the engine
        ("4.123105625617661", "$\\sqrt{17}$", True),
        ("$4$", "$4\\sqrt{2}$", False),
        ("$(2,1),(1,2)$", "so \\boxed{(1, 2)} and \\boxed{(2, 1)}", True),  # boxes joined by "and"
        ("1000", "1 000", True),
        ("2.74", "Soucis : 2,74 $ a..", True),  # decimal comma
        ("$11$", "$x\\approx11$", True),
        ("$34$", "Final Answer: The largest $n$ is 34.", True),
        ("Solution text ... so the answer is $\\boxed{28\\%}$ of the value.", "$\\boxed{28\\%}$", True),
    ],
)
def test_extraction_policies_on_math_answers(gold, pred, expected):
    assert mf.check(pred, gold).correct is expected
