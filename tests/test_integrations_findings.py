"""Findings 1 and 8 of issue 34, through each reward integration (the core fixes, seen from outside).

1. A gold's choice letter comes from the reduced gold: the real MATH prealgebra solution that names
   "graphs $A$, $C$, and $E$" before its final "$\\boxed{A}$" has the answer A, not E.
8. A completion cut off inside its last box (``... \\boxed{\\frac{1}{3}`` at the end) has no answer: reward
   0.0, as math-verify gives. In RL a reward that paid a truncated answer would teach the policy to stop
   early; a closed box still counts.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from matheval_fast import check
from matheval_fast.integrations.trl import accuracy_reward
from matheval_fast.integrations.verl import compute_score, compute_score_batch, compute_score_details

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def birdbath() -> str:
    for line in (ROOT / "tests/data/logs/sources/math_prealgebra.jsonl").read_text("utf-8").splitlines():
        doc = json.loads(line)
        if doc["unique_id"] == "test/prealgebra/2010.json":
            return doc["solution"]
    raise AssertionError("the birdbath item is missing from the fixture")


@pytest.mark.parametrize(
    "gold_form", ["{}", "ANSWER: {}"]
)  # as TRL datasets and lighteval's math_500 hold it
def test_choice_letter_from_the_reduced_gold(birdbath, gold_form):
    gold = gold_form.format(birdbath)
    assert "graphs $A$, $C$, and $E$" in gold
    right, wrong = r"The answer is $\boxed{A}$.", r"The answer is $\boxed{E}$."
    assert check(right, gold).correct and not check(wrong, gold).correct
    assert accuracy_reward([right, wrong], [gold, gold]) == [1.0, 0.0]
    assert [compute_score("lighteval/MATH", r, gold) for r in (right, wrong)] == [1.0, 0.0]
    assert compute_score_batch(["m", "m"], [right, wrong], [gold, gold], [{}, {}]) == [1.0, 0.0]


TRUNCATED = r"We add the parts: $\frac{1}{6} + \frac{1}{6} = \boxed{\frac{1}{3}"
CLOSED = TRUNCATED + "}$."


def test_a_completion_cut_off_inside_its_box_earns_nothing():
    assert check(TRUNCATED, r"\frac13").correct is False
    assert accuracy_reward([TRUNCATED, CLOSED], [r"\frac13", r"\frac13"]) == [0.0, 1.0]
    assert compute_score("m", TRUNCATED, r"\frac13") == 0.0
    assert compute_score("m", CLOSED, r"\frac13") == 1.0
    details = compute_score_details("m", TRUNCATED, r"\frac13")
    assert details["score"] == 0.0 and details["reason"] == check(TRUNCATED, r"\frac13").reason
