"""lighteval: a ``SampleLevelMetric`` graded by matheval_fast, and custom tasks that use it.

``matheval_metric`` is a lighteval ``SampleLevelMetric`` (generative, averaged over the corpus) named
``matheval``: 1.0 when a model response's final answer equals a gold's (the doc's golds; each may be a
worked solution, reduced to its final answer by the rule rescoring uses, so lighteval's own
``math_500`` golds ``ANSWER: <solution>`` work as they are), else 0.0. Add it to any task's
``metrics=[...]``.

This module is also a lighteval custom-tasks module: its ``TASKS_TABLE`` holds ``gsm8k_matheval`` and
``math_500_matheval``, lighteval's own ``gsm8k`` and ``math_500`` (prompt, dataset, generation settings)
with ``matheval`` added to their metrics and :func:`matheval_fast.integrations.inspect.math_scorer` as
their Inspect scorer::

    lighteval vllm "model_name=..." "gsm8k_matheval|0" --custom-tasks matheval_fast.integrations.lighteval

Requires lighteval (``pip install "matheval-fast[lighteval]"``; it needs torch). Written against
lighteval 0.13's ``SampleLevelComputation.compute(doc, model_response)`` contract. lighteval's Inspect
backend (``lighteval eval``) ignores ``--custom-tasks`` in 0.13: hand the task to Inspect instead,
``inspect_ai.eval(get_inspect_ai_task(TASKS_TABLE[0]), model=...)`` (``lighteval.main_inspect``).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
from lighteval.metrics.metrics_sample import SampleLevelComputation
from lighteval.metrics.utils.metric_utils import SampleLevelMetric
from lighteval.tasks.requests import SamplingMethod

from matheval_fast._vocabulary import Compat
from matheval_fast.integrations._common import check_texts

__all__ = ["TASKS_TABLE", "MathevalMatch", "matheval_metric"]


class MathevalMatch(SampleLevelComputation):
    """lighteval's sample-level computation: 1.0 if any response's final answer equals any gold's.

    Responses are ``model_response.final_text`` (post-processed text when lighteval made it, such as
    the answer after a reasoning block), golds ``doc.get_golds()``; every pair is checked in one batch.
    The extracted answers go to ``doc.specific["matheval_extracted_predictions"]`` and the verdicts'
    reasons to ``doc.specific["matheval_reasons"]``, beside what lighteval's own metrics put there
    (its extractive match writes ``extracted_predictions``, which stays theirs).
    """

    def __init__(self, *, compat: Compat = "fixed", timeout: float | None = None) -> None:
        self.compat = compat
        self.timeout = timeout

    def compute(self, doc: Any, model_response: Any, **kwargs: Any) -> float:
        golds = [g if isinstance(g, str) else str(g) for g in doc.get_golds()]
        predictions = list(model_response.final_text)
        if not golds or not predictions:
            return 0.0
        responses = [p for p in predictions for _ in golds]
        result = check_texts(responses, golds * len(predictions), compat=self.compat, timeout=self.timeout)
        if getattr(doc, "specific", None) is None:
            doc.specific = {}
        extracted = result.extracted.tolist()
        doc.specific["matheval_extracted_predictions"] = [e or "" for e in extracted[:: len(golds)]]
        doc.specific["matheval_reasons"] = result.reason.tolist()
        return float(result.correct.any())


#: The ``matheval`` metric: add it to a ``LightevalTaskConfig``'s ``metrics``.
matheval_metric = SampleLevelMetric(
    metric_name="matheval",
    sample_level_fn=MathevalMatch(),
    category=SamplingMethod.GENERATIVE,
    corpus_level_fn=np.mean,
    higher_is_better=True,
)


def _with_matheval(config: Any, name: str) -> Any:
    """A copy of one of lighteval's task configs under ``name``, with ``matheval`` added."""
    from matheval_fast.integrations.inspect import math_scorer

    changes: dict[str, Any] = {"name": name, "metrics": [*config.metrics, matheval_metric]}
    if any(f.name == "scorer" for f in dataclasses.fields(config)):
        changes["scorer"] = math_scorer()
    return dataclasses.replace(config, **changes)


def _tasks() -> list[Any]:
    from lighteval.tasks.tasks.gsm8k import gsm8k
    from lighteval.tasks.tasks.math_500 import math_500

    return [_with_matheval(gsm8k, "gsm8k_matheval"), _with_matheval(math_500, "math_500_matheval")]


#: lighteval's custom-tasks table (``--custom-tasks matheval_fast.integrations.lighteval``).
TASKS_TABLE = _tasks()
