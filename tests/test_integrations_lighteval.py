"""lighteval: the ``matheval`` SampleLevelMetric and custom tasks, against lighteval 0.13's contract.

lighteval needs torch, so these tests run against the real package only where it is installed, and
otherwise against ``tests/lighteval_contract.py``, its metric and task contract reproduced from source.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Iterator
from typing import Any

import pytest
from matheval_fast import check

from tests import lighteval_contract


@pytest.fixture
def lv() -> Iterator[Any]:
    if importlib.util.find_spec("lighteval") is not None:  # the real package, where it installs
        yield importlib.import_module("matheval_fast.integrations.lighteval")
        return
    with lighteval_contract.installed():
        yield importlib.import_module("matheval_fast.integrations.lighteval")


def _doc(gold: str) -> Any:
    from lighteval.tasks.requests import Doc

    return Doc(query="q", choices=[gold], gold_index=0)


def _response(*texts: str) -> Any:
    from lighteval.models.model_output import ModelResponse

    return ModelResponse(text=list(texts))


def test_the_metric_is_a_generative_sample_level_metric(lv):
    from lighteval.metrics.utils.metric_utils import SampleLevelMetric
    from lighteval.tasks.requests import SamplingMethod

    m = lv.matheval_metric
    assert isinstance(m, SampleLevelMetric)
    assert (m.metric_name, m.higher_is_better, m.category) == ("matheval", True, SamplingMethod.GENERATIVE)
    assert m.corpus_level_fn([1.0, 0.0, 1.0, 1.0]) == pytest.approx(0.75)


@pytest.mark.parametrize(
    ("gold", "response"),
    [
        (" She has 3 + 4 = 7.\n#### 7", "So she has 7 apples. The answer is 7."),  # lighteval's gsm8k gold
        (r"ANSWER: We get $x = \boxed{\frac{1}{2}}$.", "ANSWER: 0.5"),  # lighteval's math_500 gold
        ("ANSWER: $\\boxed{12}$", "ANSWER: 13"),
        ("7", ""),
    ],
)
def test_compute_sample_equals_check(lv, gold, response):
    doc = _doc(gold)
    got = lv.matheval_metric.compute_sample(doc=doc, model_response=_response(response))
    assert got == {"matheval": float(check(response, gold).correct)}
    assert doc.specific["matheval_extracted_predictions"] == [check(response, gold).extracted or ""]


def test_lightevals_own_details_are_kept(lv):
    # lighteval's extractive match writes extracted_predictions; ours go beside it (issue 34, finding 9).
    doc = _doc("#### 7")
    doc.specific = {"extracted_predictions": ["[7]"], "other": 1}
    lv.matheval_metric.compute_sample(doc=doc, model_response=_response("The answer is 7."))
    assert doc.specific["extracted_predictions"] == ["[7]"] and doc.specific["other"] == 1
    assert doc.specific["matheval_extracted_predictions"] == ["7"]
    assert doc.specific["matheval_reasons"] == ["correct"]


def test_a_response_cut_off_inside_its_box_scores_zero(lv):
    # Finding 8: a truncated box is no answer (0.0), as math-verify gives; a closed one still counts.
    m = lv.matheval_metric
    assert (
        m.compute_sample(doc=_doc("1/3"), model_response=_response(r"so \boxed{\frac{1}{3}"))["matheval"]
        == 0.0
    )
    assert (
        m.compute_sample(doc=_doc("1/3"), model_response=_response(r"so \boxed{\frac{1}{3}}"))["matheval"]
        == 1.0
    )


def test_the_lighteval_extra_pins_an_xxhash_lighteval_can_use():
    # Finding 2: lighteval 0.13's details logger hashes str, which xxhash 4 refuses.
    from pathlib import Path

    import tomllib
    from packaging.requirements import Requirement

    project = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text("utf-8"))
    reqs = {
        Requirement(r).name: Requirement(r) for r in project["project"]["optional-dependencies"]["lighteval"]
    }
    assert "lighteval" in reqs
    assert not reqs["xxhash"].specifier.contains("4.0.0") and not reqs["xxhash"].specifier.contains("4.1.0")
    assert reqs["xxhash"].specifier.contains("3.8.2")
    # huggingface_hub 2 dropped list_models(model_name=), which lighteval 0.13's task registry calls.
    assert not reqs["huggingface_hub"].specifier.contains("2.4.0")
    assert reqs["huggingface_hub"].specifier.contains("1.33.0")


def test_any_response_and_any_gold(lv):
    from lighteval.tasks.requests import Doc

    doc = Doc(query="q", choices=["4", "5", "#### 6"], gold_index=[0, 2])
    m = lv.matheval_metric
    assert m.compute_sample(doc=doc, model_response=_response("It is 5.", "It is 6."))["matheval"] == 1.0
    assert m.compute_sample(doc=doc, model_response=_response("It is 5.", "It is 7."))["matheval"] == 0.0
    assert m.compute_sample(doc=doc, model_response=_response())["matheval"] == 0.0
    post = _response("<think>4</think> It is 9.")
    post.text_post_processed = ["It is 4."]
    assert m.compute_sample(doc=doc, model_response=post)["matheval"] == 1.0


def test_the_custom_tasks_are_the_stock_ones_with_matheval(lv):
    from lighteval.tasks.tasks.gsm8k import gsm8k
    from lighteval.tasks.tasks.math_500 import math_500
    from matheval_fast.integrations.inspect import math_scorer  # noqa: F401  (the tasks' Inspect scorer)

    tasks = {t.name: t for t in lv.TASKS_TABLE}
    assert set(tasks) == {"gsm8k_matheval", "math_500_matheval"}
    for mine, stock in ((tasks["gsm8k_matheval"], gsm8k), (tasks["math_500_matheval"], math_500)):
        assert mine.prompt_function is stock.prompt_function
        assert (mine.hf_repo, mine.hf_subset) == (stock.hf_repo, stock.hf_subset)
        assert mine.metrics == [*stock.metrics, lv.matheval_metric]
        assert callable(mine.scorer)
    doc = tasks["math_500_matheval"].prompt_function(
        {"problem": "p", "solution": r"So $\boxed{\frac{3}{4}}$."}, "math_500_matheval"
    )
    assert (
        lv.matheval_metric.compute_sample(doc=doc, model_response=_response("ANSWER: 0.75"))["matheval"]
        == 1.0
    )
