"""Inspect AI: ``math_scorer()`` run by Inspect's own ``eval`` with its ``mockllm`` model (no network)."""

from __future__ import annotations

import math

import pytest
from matheval_fast import check

pytest.importorskip("inspect_ai")

from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import Sample
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from matheval_fast.integrations.inspect import math_scorer

NO_ANSWER = (
    "We first add the two numbers that the problem gives us, and then we divide the result by two, "
    "because the average of two numbers is their sum divided by two; we check the result by "
    "multiplying it back, and it agrees with both of the original numbers in the problem."
)

CASES = [
    # (target, completion, value, answer, inspect reason, our reason)
    (
        "Janet sells 9 eggs for $2 each: $9 \\cdot 2 = \\boxed{18}$.",
        "She makes 18 dollars.\nThe answer is 18.",
        "C",
        "18",
        None,
        "correct",
    ),
    ("0.5", r"So $x = \boxed{\frac{1}{2}}$.", "C", "\\frac{1}{2}", None, "correct"),
    ("7", "The answer is 8.", "I", "8", None, "incorrect"),
    ("7", "", "I", None, "no_response", "no_answer"),
    (["3", "4"], "It comes to 4.", "C", "4", None, "correct"),
    (NO_ANSWER, "The answer is 3.", None, None, "scoring_failed", "gold_unparseable"),
]


def _output(text: str) -> ModelOutput:
    out = ModelOutput.from_content(model="mockllm/model", content=text)
    out.usage = ModelUsage(
        input_tokens=1, output_tokens=1, total_tokens=2
    )  # mockllm would count with tiktoken
    return out


@pytest.fixture(scope="module")
def log(tmp_path_factory):
    samples = [Sample(input=f"question {i}", target=t, id=i) for i, (t, *_) in enumerate(CASES)]
    model = get_model("mockllm/model", custom_outputs=[_output(c[1]) for c in CASES])
    task = Task(dataset=samples, scorer=math_scorer())
    [result] = inspect_eval(
        task, model=model, display="none", log_dir=str(tmp_path_factory.mktemp("logs")), max_samples=1
    )
    assert result.status == "success", result.error
    return result


def test_scores_carry_the_answer_and_our_reason(log):
    by_id = {s.id: next(iter(s.scores.values())) for s in log.samples}
    for i, (target, completion, value, answer, inspect_reason, reason) in enumerate(CASES):
        score = by_id[i]
        if value is None:
            assert isinstance(score.value, float) and math.isnan(score.value)
        else:
            assert score.value == value
        assert score.answer == answer
        assert score.reason == inspect_reason
        assert score.metadata["reason"] == reason
        assert score.explanation == completion
        gold = target[0] if isinstance(target, list) and value != "C" else target
        if isinstance(gold, str) and value is not None:
            assert (score.value == "C") == any(
                check(completion, g).correct for g in ([target] if isinstance(target, str) else target)
            )


def test_accuracy_and_stderr_skip_the_unscored_sample(log):
    metrics = log.results.scores[0].metrics
    assert set(metrics) == {"accuracy", "stderr"}
    assert metrics["accuracy"].value == pytest.approx(3 / 5)
    assert log.results.scores[0].scored_samples == 5
