"""A stand-in for the parts of lighteval 0.13 that ``matheval_fast.integrations.lighteval`` uses.

lighteval needs torch, which the test environment does not hold, so its metric contract is reproduced
here from lighteval 0.13's source (Apache-2.0): ``SampleLevelComputation.compute(doc, model_response)``
(``metrics/metrics_sample.py``), ``Metric.compute_sample`` returning ``{metric_name: value}`` and the
``SampleLevelMetric`` dataclass (``metrics/utils/metric_utils.py``), ``Doc.get_golds`` (golds are
``choices[gold_index]``) and ``SamplingMethod`` (``tasks/requests.py``), ``ModelResponse.final_text``
(``models/model_output.py``), the ``LightevalTaskConfig`` dataclass fields the tasks set
(``tasks/lighteval_task.py``) and the stock ``gsm8k`` / ``math_500`` tasks' prompt functions
(``tasks/tasks/gsm8k.py``, ``tasks/tasks/math_500.py``).
"""

from __future__ import annotations

import sys
import types
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import Enum, auto
from typing import Any


class SampleLevelComputation(ABC):
    @abstractmethod
    def compute(self, doc: Doc, model_response: ModelResponse, **kwargs: Any) -> Any:
        raise NotImplementedError


class SamplingMethod(str, Enum):
    GENERATIVE = auto()
    LOGPROBS = auto()
    PERPLEXITY = auto()


@dataclass
class Metric:
    metric_name: str
    higher_is_better: bool
    category: SamplingMethod
    sample_level_fn: Any
    corpus_level_fn: Callable[..., Any]
    batched_compute: bool = False

    def compute_sample(self, **kwargs: Any) -> dict[str, Any]:
        return {self.metric_name: self.sample_level_fn.compute(**kwargs)}


@dataclass
class SampleLevelMetric(Metric):
    pass


@dataclass(slots=False)
class Doc:
    query: str
    choices: list[str]
    gold_index: int | list[int]
    task_name: str = ""
    specific: dict[str, Any] | None = None

    def get_golds(self) -> list[str]:
        idx = self.gold_index if isinstance(self.gold_index, list) else [self.gold_index]
        return [self.choices[i] for i in idx]


@dataclass
class ModelResponse:
    input: str | None = None
    text: list[str] = field(default_factory=list)
    text_post_processed: list[str] | None = None

    @property
    def final_text(self) -> list[str]:
        return self.text_post_processed if self.text_post_processed is not None else self.text


@dataclass
class LightevalTaskConfig:
    name: str
    prompt_function: Callable[..., Doc]
    hf_repo: str
    hf_subset: str
    metrics: list[Any]
    solver: Any = None
    scorer: Any = None
    evaluation_splits: list[str] = field(default_factory=lambda: ["test"])
    generation_size: int | None = None
    stop_sequence: list[str] | None = None

    def __post_init__(self) -> None:
        self.full_name = f"{self.name}|0"


def gsm8k_prompt(line: dict[str, Any], task_name: str | None = None) -> Doc:
    return Doc(
        task_name=task_name or "",
        query=f"Question: {line['question']}\nAnswer:",
        choices=[f" {line['answer']}"],
        gold_index=0,
    )


def math_500_prompt(line: dict[str, Any], task_name: str | None = None) -> Doc:
    return Doc(
        task_name=task_name or "",
        query=line["problem"],
        choices=[f"ANSWER: {line['solution']}"],
        gold_index=0,
    )


EXPR_GOLD = SampleLevelMetric("extractive_match", True, SamplingMethod.GENERATIVE, None, sum)


@contextmanager
def installed() -> Iterator[None]:
    """The stand-in as ``lighteval`` in ``sys.modules`` for the duration of the block."""
    modules = {
        "lighteval": {},
        "lighteval.metrics": {},
        "lighteval.metrics.metrics_sample": {"SampleLevelComputation": SampleLevelComputation},
        "lighteval.metrics.utils": {},
        "lighteval.metrics.utils.metric_utils": {"Metric": Metric, "SampleLevelMetric": SampleLevelMetric},
        "lighteval.tasks": {},
        "lighteval.tasks.requests": {"Doc": Doc, "SamplingMethod": SamplingMethod},
        "lighteval.models": {},
        "lighteval.models.model_output": {"ModelResponse": ModelResponse},
        "lighteval.tasks.lighteval_task": {"LightevalTaskConfig": LightevalTaskConfig},
        "lighteval.tasks.tasks": {},
        "lighteval.tasks.tasks.gsm8k": {
            "gsm8k": LightevalTaskConfig(
                "gsm8k", gsm8k_prompt, "openai/gsm8k", "main", [EXPR_GOLD], scorer="stock"
            ),
        },
        "lighteval.tasks.tasks.math_500": {
            "math_500": LightevalTaskConfig(
                "math_500", math_500_prompt, "HuggingFaceH4/MATH-500", "default", [EXPR_GOLD], scorer="stock"
            ),
        },
    }
    saved = {name: sys.modules.get(name) for name in [*modules, "matheval_fast.integrations.lighteval"]}
    try:
        for name, attrs in modules.items():
            mod = types.ModuleType(name)
            mod.__dict__.update(attrs)
            sys.modules[name] = mod
        sys.modules.pop("matheval_fast.integrations.lighteval", None)
        yield
    finally:
        for name, mod in saved.items():
            if mod is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = mod
