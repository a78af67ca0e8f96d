"""Golds that are worked solutions: the rule of ``rust/gold.rs`` seen from Python, through the log
readers' column kernel (``gold_answers``) and the checker, which must agree."""

from __future__ import annotations

import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st
from matheval_fast import check
from matheval_fast.io.logs.base import gold_answers

PROSE = st.sampled_from(
    [
        "We first note that the sum of the two numbers is even.",
        "Multiplying both sides by $2$ gives $2x = 10$.",
        "Hence the total is the product of the two prices, which we compute next.",
        "By the Pythagorean theorem, $a^2 + b^2 = c^2$.",
        "Let $f(x) = x^2 + 1$; then $f(3) = 10$ and $f(0) = 1$.",
    ]
)
ANSWER = st.sampled_from(["18", "\\frac{7}{2}", "-3", "(1, 2]", "x^2+1", "\\sqrt{2}", "1,000"])


def solution(parts: list[str]) -> str:
    return " ".join(parts)


@settings(max_examples=80, deadline=None)
@given(st.lists(PROSE, min_size=2, max_size=5), ANSWER, ANSWER, st.booleans(), st.booleans())
def test_a_solution_gives_its_last_box(prose, first, last, fbox, prefix):
    """lighteval's math_500 gold ``ANSWER: <solution>``, MATH's solution: the last box wins."""
    mac = "\\fbox" if fbox else "\\boxed"
    text = solution([*prose[:1], f"So far ${mac}{{{first}}}$.", *prose[1:], f"Finally $\\boxed{{{last}}}$."])
    if prefix:
        text = "ANSWER: " + text
    got, rules = gold_answers(pa.array([text]))
    assert got.to_pylist() == [last] and rules.to_pylist() == ["boxed"]
    assert check(f"The answer is ${last}$", text).correct


@settings(max_examples=40, deadline=None)
@given(st.lists(PROSE, min_size=1, max_size=4), st.integers(-5000, 5000))
def test_a_gsm8k_solution_gives_its_hashes_line(prose, n):
    text = solution(prose) + f"\n#### {n}"
    got, rules = gold_answers(pa.array([text]))
    assert got.to_pylist() == [str(n)] and rules.to_pylist() == ["hashes"]


@settings(max_examples=40, deadline=None)
@given(st.lists(PROSE, min_size=3, max_size=5), st.integers(0, 99999))
def test_a_closing_sentence_gives_its_answer(prose, n):
    text = solution(prose) + f"\nThe answer is {n}."
    got, rules = gold_answers(pa.array([text]))
    assert got.to_pylist() == [str(n)] and rules.to_pylist() == ["answer_sentence"]


def test_answers_and_nulls_stay_as_written():
    golds = ["18", "\\frac{1}{2}", None, "Monday", "\\boxed{5}", "x = 3"]
    got, rules = gold_answers(pa.array(golds))
    assert got.to_pylist() == golds
    assert set(rules.to_pylist()) == {"as_written"}


def test_a_solution_without_an_answer_is_counted_not_scored():
    text = (
        "We start by noting that the quantity in question is bounded above by the sum of its "
        "parts, and then we show that each part is at most one half, which completes the argument "
        "for every value of n that we need to consider here."
    )
    got, rules = gold_answers(pa.array([text]))
    assert got.to_pylist() == [text] and rules.to_pylist() == ["unreduced"]
    v = check("The answer is 5", text)
    assert (v.correct, v.reason) == (False, "gold_unparseable")


def test_the_answer_anchor_of_lightevals_gold_is_not_the_answer():
    """The 44-point bug: ``ANSWER: <solution>`` was read by its anchor (the solution's first words)."""
    gold = "ANSWER: Since $3 \\cdot 6 = 18$, there are $\\boxed{18}$ eggs left over for the market."
    assert check("So she has $\\boxed{18}$ eggs.", gold).correct
    assert not check("The answer is Since", gold).correct
