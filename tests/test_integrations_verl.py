"""verl: ``compute_score`` as a ``custom_reward_function``, against verl's call contract.

verl needs torch, so the contract is tested as verl 0.9's source states it: ``load_extern_object`` loads
``path``/``name`` (``pkg://module`` or a file path), the ``naive``/``dapo`` reward managers call
``compute_score(data_source=, solution_str=, ground_truth=, extra_info=)`` and accept a float or a dict
with ``score`` (other keys logged as extra info), the ``batch`` manager calls
``compute_score(data_sources=, solution_strs=, ground_truths=, extra_infos=, **reward_kwargs)``.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
from pathlib import Path

import matheval_fast.integrations.verl as verl_mod
import numpy as np
import pytest
from matheval_fast import check
from matheval_fast.integrations.verl import (
    compute_score,
    compute_score_batch,
    compute_score_details,
    compute_score_details_batch,
)


def _load_extern_object(module_path: str, object_name: str):
    """verl.utils.import_utils.load_extern_object (0.9), reduced to its two routes."""
    if module_path.startswith("pkg://"):
        module = importlib.import_module(module_path[len("pkg://") :].replace("/", "."))
    else:
        spec = importlib.util.spec_from_file_location(f"custom_module_{hash(module_path)}", module_path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    return getattr(module, object_name)


@pytest.mark.parametrize("path", ["pkg://matheval_fast.integrations.verl", verl_mod.__file__])
def test_loaded_as_verl_loads_it(path):
    fn = _load_extern_object(path, "compute_score")
    extra_info = {"index": 0, "num_turns": None, "rollout_reward_scores": {}}
    got = fn(
        data_source="openai/gsm8k",
        solution_str="So 3 + 4 = 7.\n#### 7",
        ground_truth="7",
        extra_info=extra_info,
    )
    assert got == 1.0 and isinstance(got, float)


def test_naive_manager_contract():
    cases = [
        ("lighteval/MATH", r"So $x = \boxed{\frac{1}{2}}$.", "0.5", 1.0),
        ("openai/gsm8k", "The answer is 72.", "72", 1.0),
        ("openai/gsm8k", "The answer is 71.", "72", 0.0),
        ("math_dapo", "Answer: 5", "Thus $\\boxed{5}$.", 1.0),  # a worked-solution ground truth
        ("any", "The answer is 5.", ["4", "5"], 1.0),  # accepted answers
        ("any", "The answer is 5.", np.array(["4", "6"], dtype=object), 0.0),
    ]
    for source, response, gt, want in cases:
        assert compute_score(source, response, gt) == want
    d = compute_score_details(data_source="x", solution_str="I don't know.", ground_truth="7", extra_info={})
    assert d == {"score": 0.0, "acc": 0.0, "pred": "", "reason": "no_answer"}
    prose = (
        "We first add the two numbers that the problem gives us, and then we divide the result by two, "
        "because the average of two numbers is their sum divided by two; we check the result by "
        "multiplying it back, and it agrees with both of the original numbers in the problem."
    )
    d = compute_score_details("x", "7", prose, None)
    assert d["score"] == 0.0 and d["reason"] == "gold_unparseable"


def test_batch_manager_contract():
    responses = ["The answer is 72.", r"$\boxed{3}$", "It is 4.", "nothing"]
    truths = ["72", "3", ["5", "4"], "1"]
    kwargs = {"data_sources": np.array(["openai/gsm8k"] * 4, dtype=object), "extra_infos": [{}] * 4}
    assert compute_score_batch(solution_strs=responses, ground_truths=truths, **kwargs) == [
        1.0,
        1.0,
        1.0,
        0.0,
    ]
    details = compute_score_details_batch(
        solution_strs=np.array(responses, dtype=object), ground_truths=truths, **kwargs
    )
    assert [d["reason"] for d in details] == ["correct", "correct", "correct", "pred_unparseable"]
    assert details[2]["pred"] == "4"


def test_reward_kwargs_and_ignored_kwargs():
    assert (
        compute_score(
            "x", "The answer is 2.", "2", {}, compat="xwin", timeout=1.0, reward_router_address=None
        )
        == 1.0
    )


def test_scores_equal_check():
    pairs = [("So it is 0.5", "\\frac12"), ("The answer is 1000.4", "1000"), ("x = 3", "#### 3")]
    assert [compute_score("s", r, g) for r, g in pairs] == [float(check(r, g).correct) for r, g in pairs]


def test_wrong_types_are_type_errors():
    with pytest.raises(TypeError, match="solution_str"):
        compute_score("x", 5, "5")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="ground_truth"):
        compute_score("x", "5", 5)
    with pytest.raises(TypeError, match="ground_truth"):
        compute_score("x", "5", ["5", 5])
    with pytest.raises(ValueError, match="same length"):
        compute_score_batch(["a"], ["1", "2"], ["1"])


DOC = Path(__file__).resolve().parents[1] / "docs/integrations/verl.md"


def test_docs_add_reward_kwargs_with_a_plus():
    # Finding 5: reward_kwargs are new keys to verl's Hydra config; an override without `+` is refused.
    overrides = re.findall(
        r"[+]?reward\.custom_reward_function\.reward_kwargs\.\w+=\S+", DOC.read_text("utf-8")
    )
    assert overrides and all(o.startswith("+") for o in overrides)


def test_docs_offer_no_batch_manager_to_verl_0_9():
    # Finding 4: verl 0.9.1's trainers have no `batch` reward manager (`Unknown reward manager: batch`).
    text = DOC.read_text("utf-8")
    assert "reward.reward_manager.name=batch` fails" in text
    assert not re.search(r"^\s*reward\.reward_manager\.name=batch", text, re.M)
