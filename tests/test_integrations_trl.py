"""TRL: ``accuracy_reward`` / ``reasoning_accuracy_reward`` against the call contract of ``trl.rewards``.

TRL needs torch, so the contract is tested as TRL's source states it (trl 1.16 ``trl/rewards/
accuracy_rewards.py`` and ``GRPOTrainer._calculate_rewards``): the trainer calls
``reward_func(prompts=..., completions=..., completion_ids=..., **dataset_columns, trainer_state=...,
log_extra=..., log_metric=...)`` and turns ``None`` into NaN; the docstring examples of TRL's own
functions must give the same rewards here.
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from matheval_fast import check
from matheval_fast.integrations.trl import (
    AccuracyReward,
    accuracy_reward,
    reasoning_accuracy_reward,
)

ROOT = Path(__file__).resolve().parents[1]
#: A worked solution without an answer any rule can take (reason ``gold_unparseable``).
NO_ANSWER = (
    "We first add the two numbers that the problem gives us, and then we divide the result by two, "
    "because the average of two numbers is their sum divided by two; we check the result by "
    "multiplying it back, and it agrees with both of the original numbers in the problem."
)


def _conv(text: str) -> list[dict[str, str]]:
    return [{"role": "assistant", "content": text}]


def test_trl_docstring_examples():
    solutions = [r"\frac{1}{3}", r"\frac{1}{3}"]
    completions = [_conv(r"My answer is \boxed{\frac{1}{3}}"), _conv(r"My answer is \boxed{\frac{1}{2}}")]
    assert accuracy_reward(completions, solutions) == [1.0, 0.0]
    solutions3 = [r"\frac{1}{3}"] * 3
    completions3 = [
        _conv(r"<think> Reasoning content </think> The final answer is \boxed{\frac{1}{3}}"),
        _conv(r"<think> Reasoning content </think> The final answer is \boxed{\frac{1}{2}}"),
        _conv(r"<think> Reasoning content with partial answers \boxed{\frac{1}{3}} but no final answer"),
    ]
    assert reasoning_accuracy_reward(completions3, solutions3, reasoning_delimiters=["</think>"]) == [
        1.0,
        0.0,
        0.0,
    ]
    assert reasoning_accuracy_reward(completions3, solutions3) == [1.0, 0.0, 0.0]


def test_as_grpo_trainer_calls_it():
    logged: dict[str, list] = {}
    completions = [_conv("The answer is 18."), _conv("It is 17."), "Plain text: \\boxed{5}", _conv("7")]
    solution = ["Janet sells 9 eggs at $2 each: 9 * 2 = 18.\n#### 18", "#### 18", r"$\boxed{5}$", NO_ANSWER]
    rewards = accuracy_reward(
        prompts=["p"] * 4,
        completions=completions,
        completion_ids=[[1, 2]] * 4,
        solution=solution,
        problem=["q"] * 4,  # other dataset columns
        trainer_state=object(),
        log_extra=lambda k, v: logged.__setitem__(k, v),
        log_metric=lambda k, v: None,
    )
    assert rewards == [1.0, 0.0, 1.0, None]
    assert logged["solution"] == solution
    assert logged["accuracy_reward/gold_parsed"] == ["18", "18", "5", "[unparseable]"]
    assert logged["accuracy_reward/answer_parsed"] == ["18", "17", "5", "[skipped]"]
    assert logged["accuracy_reward/matheval_reason"] == [
        "correct",
        "incorrect",
        "correct",
        "gold_unparseable",
    ]


def test_reasoning_cut_as_trl_does():
    # The first delimiter of the list that occurs; the text after its last occurrence.
    text = "<think>a</think> \\boxed{1} <think>b</think> \\boxed{2}"
    assert reasoning_accuracy_reward([text], ["2"]) == [1.0]
    assert reasoning_accuracy_reward([text], ["1"]) == [0.0]
    assert reasoning_accuracy_reward(
        ["[END] 3 </think> 4"], ["3"], reasoning_delimiters=["[END]", "</think>"]
    ) == [0.0]
    # Unfinished reasoning is 0.0, even with an unusable gold; finished with an unusable gold is None.
    assert reasoning_accuracy_reward(["<think>\\boxed{7}", "</think> 7"], [NO_ANSWER, NO_ANSWER]) == [
        0.0,
        None,
    ]


def test_none_and_empty():
    assert accuracy_reward([_conv("The answer is 4."), None, [], _conv(None)], [None, "4", "4", "4"]) == [
        None,
        0.0,
        0.0,
        0.0,
    ]
    assert accuracy_reward([], []) == []


def test_message_shapes():
    multi_turn = [
        {"role": "assistant", "content": "", "tool_calls": [{"name": "calc"}]},
        {"role": "tool", "content": "42"},
        {"role": "assistant", "content": "So the answer is \\boxed{42}."},
    ]
    parts = [
        {
            "role": "assistant",
            "content": [{"type": "text", "text": "The answer "}, {"type": "text", "text": "is 6."}],
        }
    ]
    assert accuracy_reward([multi_turn, parts], ["42", "6"]) == [1.0, 1.0]


def test_wrong_types_are_type_errors():
    with pytest.raises(TypeError, match="completions"):
        accuracy_reward("The answer is 4.", ["4"])
    with pytest.raises(TypeError, match="completion"):
        accuracy_reward([42], ["4"])
    with pytest.raises(TypeError, match=r"solution\[0\]"):
        accuracy_reward(["4"], [4])
    with pytest.raises(TypeError, match="content"):
        accuracy_reward([[{"role": "assistant", "content": 4}]], ["4"])
    with pytest.raises(TypeError, match="reasoning_delimiters"):
        reasoning_accuracy_reward(["4"], ["4"], reasoning_delimiters="</think>")
    with pytest.raises(ValueError, match="same length"):
        accuracy_reward(["4", "5"], ["4"])


def test_configured_reward_is_named_and_picklable():
    reward = AccuracyReward(reasoning=True, timeout=2.0, name="math_acc")
    assert reward.__name__ == "math_acc"
    again = pickle.loads(pickle.dumps(reward))  # noqa: S301  (our own object)
    assert isinstance(again, AccuracyReward)
    assert again(["<think>x</think> 3"], ["3"]) == [1.0]
    assert AccuracyReward().__name__ == "accuracy_reward"


def _real_pairs() -> tuple[list[str], list[str]]:
    """Real Qwen2.5-Math responses with the worked MATH solutions they answer."""
    docs = {
        d["qwen_idx"]: d["solution"]
        for d in map(
            json.loads, (ROOT / "tests/data/logs/sources/math_prealgebra.jsonl").read_text().splitlines()
        )
    }
    rows = [
        json.loads(x)
        for x in (ROOT / "data/answer_check/qwen25math_math_cot_100_graded.jsonl").read_text().splitlines()
    ]
    pairs = [(r["response"], docs[r["idx"]]) for r in rows if r["idx"] in docs]
    return [p[0] for p in pairs], [p[1] for p in pairs]


def test_worked_solutions_grade_as_their_boxed_answer():
    responses, solutions = _real_pairs()
    rewards = accuracy_reward([_conv(r) for r in responses], solutions)
    assert rewards == [float(check(r, s).correct) for r, s in zip(responses, solutions, strict=True)]
    assert 0.5 < sum(rewards) / len(rewards) < 1.0


def test_sixteen_threads_give_the_same_rewards():
    responses, solutions = _real_pairs()
    completions = [_conv(r) for r in responses]
    want = accuracy_reward(completions, solutions)
    barrier = threading.Barrier(16)

    def run(_: int) -> list[float | None]:
        barrier.wait()
        return accuracy_reward(completions, solutions)

    with ThreadPoolExecutor(16) as pool:
        assert all(got == want for got in pool.map(run, range(16)))


@given(st.integers(-(10**6), 10**6), st.integers(-(10**6), 10**6))
def test_reward_is_check(a, b):
    completion = f"Adding up, we get {a}.\nThe answer is {a}."
    solution = f"Work it out.\n#### {b}"
    assert accuracy_reward([_conv(completion)], [solution]) == [float(a == b)]


def test_two_reward_functions_log_their_own_columns():
    # GRPOTrainer hands every reward function the same log_extra: names must not collide (issue 34, 9).
    logged: dict[str, list] = {}

    def log(k: str, v: list) -> None:
        assert k == "solution" or k not in logged, f"{k} logged twice"
        logged[k] = v

    completions = [_conv("<think>x</think> The answer is 4."), _conv("The answer is 4.")]
    solution = ["#### 4", "#### 4"]
    accuracy_reward(completions, solution, log_extra=log)
    AccuracyReward(reasoning=True, name="think_reward")(completions, solution, log_extra=log)
    assert logged["accuracy_reward/answer_parsed"] == ["4", "4"]
    assert logged["think_reward/answer_parsed"] == ["4", "[incomplete reasoning]"]
    assert logged["think_reward/matheval_reason"] == ["correct", "no_answer"]


@pytest.mark.parametrize(
    ("gold", "reward_14", "reward_other"),
    [
        # One-line prose golds: TRL's math-verify finds no answer and returns None (skip), so do we.
        ("See the diagram.", None, None),
        ("N/A", None, None),
        # A one-line worked solution without a marker: its last number is the answer, as math-verify reads it.
        ("Half of 7 is 3.5, so double it to get 14.", 1.0, 0.0),
        ("The total is $14$ apples in all.", 1.0, 0.0),
        # Short answers stay answers: a unit, a word, a list, a LaTeX text answer.
        ("14 apples", 1.0, 0.0),
        ("14 and 15", 0.0, 0.0),
        ("Monday", 0.0, 0.0),
        (r"\text{No solution}", 0.0, 0.0),
    ],
)
def test_one_line_golds_follow_trls_none_contract(gold, reward_14, reward_other):
    assert accuracy_reward(["The answer is 14."], [gold]) == [reward_14]
    assert accuracy_reward(["The answer is 3.5."], [gold]) == [reward_other]


def test_prose_golds_are_only_one_liners_the_gold_rule_keeps_whole():
    # A worked solution with an answer line is the gold rule's business, whatever its prose.
    assert accuracy_reward(["7"], ["Half of 28 is 14, and half again is 7.\n#### 7"]) == [1.0]
    assert accuracy_reward(["7"], ["Half of 28 is 14, so the answer is 7."]) == [1.0]


def test_first_reward_call_imports_no_pandas():
    # pyarrow's list and to_numpy conversions import pandas, 0.3-0.5 s on the first call of a process.
    code = (
        "import sys\n"
        "from matheval_fast.integrations.trl import accuracy_reward\n"
        "cols = {}\n"
        "r = accuracy_reward(['The answer is 4.', None], ['#### 4', 'x'], log_extra=cols.__setitem__)\n"
        "assert r == [1.0, 0.0], r\n"
        "assert cols['accuracy_reward/answer_parsed'] == ['4', '[unparseable]'], cols\n"
        "print('pandas' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=dict(os.environ), capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "False"
