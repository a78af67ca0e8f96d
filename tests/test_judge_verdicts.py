"""Verdict parsing (the forms judges answer in) and majority votes."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from matheval_fast.judge.verdicts import majority_vote, parse_verdict

READABLE = [
    ("Yes", "yes", "bare"),
    ("No", "no", "bare"),
    ("**Yes**", "yes", "bare"),
    ("yes.", "yes", "bare"),
    ("  NO!  ", "no", "bare"),
    ("‘Yes’", "yes", "bare"),
    ("Answer: No", "no", "marker"),
    ("The answer is: **Yes**", "yes", "marker"),
    ("Verdict - yes", "yes", "marker"),
    (
        "Step 1: read the solution.\nStep 2: it divides by zero without comment.\nFinal answer: No",
        "no",
        "marker",
    ),
    ("Reasoning... LLM Y said the answer could be yes at first.\nFinal answer: No", "no", "marker"),
    ("Final answer: Yes\n\nOn reflection the final answer: No", "no", "marker"),
    ("No, LLM Y did not notice the contradiction.", "no", "lines"),
    ("Yes, LLM Y identified that there is no solution.", "yes", "lines"),
    ("Yes - it says the triangle cannot exist.", "yes", "lines"),
    ("LLM Y computes an area and never questions the sides.\nSo, no.", "no", "lines"),
    ("Looking at the solution carefully.\nThus: Yes", "yes", "lines"),
    ('{"verdict": "no", "reason": "computed an answer"}', "no", "json"),
    ('{"Verdict": true}', "yes", "json"),
    ('```json\n{"answer": "Yes"}\n```', "yes", "json"),
    ('The solver noticed the flaw.\n{"verdict": "yes"}', "yes", "json"),
]

UNREADABLE = [
    ("", "empty answer"),
    (None, "empty answer"),
    ("   \n ", "empty answer"),
    ("> **", "no yes/no verdict found"),  # only markdown: nothing left to read
    ("I cannot tell from this solution.", "no yes/no verdict found"),
    ("Yes and no", "no yes/no verdict found"),
    ("Please answer Yes or No", "no yes/no verdict found"),
    ("Yes/No", "no yes/no verdict found"),
    ("Final answer: yes or final answer: no", "no yes/no verdict found"),
    ("Yes.\nHowever, looking again, No", "first line says yes, last line says no"),
    ('{"verdict": "maybe"}', "JSON 'verdict' is not yes/no: 'maybe'"),
    ('{"score": 3}', "JSON object without a verdict key"),
    (
        "The problem is hard. LLM Y tried its best and the result is unclear overall in my view here.",
        "no yes/no",
    ),
]


@pytest.mark.parametrize(("text", "verdict", "rule"), READABLE)
def test_readable_forms(text: str, verdict: str, rule: str) -> None:
    p = parse_verdict(text)
    assert (p.verdict, p.rule, p.reason) == (verdict, rule, None)


@pytest.mark.parametrize(("text", "reason"), UNREADABLE)
def test_unreadable_is_never_a_guess(text: str | None, reason: str) -> None:
    p = parse_verdict(text)
    assert p.verdict == "unparseable"
    assert p.rule == ""
    assert p.reason is not None and p.reason.startswith(reason)


def test_quick_path_agrees_with_the_rules() -> None:
    from matheval_fast.judge.verdicts import _QUICK, _parse

    assert len(_QUICK) == 42
    for text, quick in _QUICK.items():
        for truncated in (False, True):
            assert parse_verdict(text, truncated=truncated) == quick == _parse(text, truncated=truncated)


def test_truncated_answers_count_only_a_leading_verdict() -> None:
    assert parse_verdict("Yes, the so", truncated=True).verdict == "yes"
    assert parse_verdict("No", truncated=True).verdict == "no"
    # The end of a cut chain of thought is not its conclusion.
    cut = parse_verdict("Step 1: the solution says no such triangle. Answer: yes, but", truncated=True)
    assert cut.verdict == "unparseable"
    assert "max_tokens" in str(cut.reason)
    assert parse_verdict("Step 1: read the solution.\nFinal answer: Yes").verdict == "yes"


def test_long_answers_are_bounded_and_read_at_both_ends() -> None:
    text = "Yes, it does.\n" + "filler words here. " * 50_000 + "\nFinal answer: Yes"
    assert parse_verdict(text).verdict == "yes"


@given(st.text(max_size=300))
def test_any_text_gives_one_of_three_verdicts_and_yes_needs_a_yes_word(text: str) -> None:
    p = parse_verdict(text)
    assert p.verdict in ("yes", "no", "unparseable")
    assert (p.reason is None) == (p.verdict != "unparseable")
    lowered = text.lower()
    if p.verdict == "yes":
        assert re.search(r"yes|true", lowered)
    if p.verdict == "no":
        assert re.search(r"no|false", lowered)


@given(st.sampled_from(["Yes", "No"]), st.sampled_from(["{}", "**{}**", "{}.", "Answer: {}", "{}, because."]))
def test_decorated_words_read_back(word: str, form: str) -> None:
    assert parse_verdict(form.format(word)).verdict == word.lower()


def test_majority_vote() -> None:
    v = majority_vote(["yes", "no", "yes"])
    assert (v.verdict, v.yes, v.no, v.unparseable, v.reason) == ("yes", 2, 1, 0, None)
    assert majority_vote(["no", "unparseable", "unparseable"]).verdict == "no"
    tie = majority_vote(["yes", "no"])
    assert (tie.verdict, tie.reason) == ("unparseable", "tied vote 1-1")
    none = majority_vote(["unparseable"] * 3)
    assert (none.verdict, none.reason, none.unparseable) == ("unparseable", "no readable sample", 3)
    with pytest.raises(KeyError):
        majority_vote(["maybe"])
