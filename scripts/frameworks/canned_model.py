"""A lighteval custom model that answers from a file: the canned responses of run_lighteval.py.

``lighteval custom <name> scripts/frameworks/canned_model.py <tasks>`` loads the one LightevalModel
subclass here. Each doc is answered with the response whose key (the question or problem text) occurs in
its query; ``MATHEVAL_CANNED`` names the JSON file ``{key: response}``.
"""

from __future__ import annotations

import json
import os

from lighteval.models.abstract_model import LightevalModel
from lighteval.models.model_output import ModelResponse
from lighteval.tasks.requests import Doc
from lighteval.utils.cache_management import SampleCache


class CannedModel(LightevalModel):
    def __init__(self, config: object) -> None:
        self.config = config
        # The pipeline registers its tasks with the model's cache; the methods below are not @cached, so
        # nothing is stored or replayed between runs.
        self._cache = SampleCache(config)
        with open(os.environ["MATHEVAL_CANNED"], encoding="utf-8") as f:
            self.canned: dict[str, str] = json.load(f)

    @property
    def tokenizer(self) -> None:
        return None

    @property
    def add_special_tokens(self) -> bool:
        return False

    @property
    def max_length(self) -> int:
        return 4096

    def _answer(self, doc: Doc) -> str:
        found = [r for key, r in self.canned.items() if key in doc.query]
        assert len(found) == 1, f"{len(found)} canned responses for {doc.query[:80]!r}"
        return found[0]

    def greedy_until(self, docs: list[Doc]) -> list[ModelResponse]:
        return [ModelResponse(text=[self._answer(d)]) for d in docs]

    def loglikelihood(self, docs: list[Doc]) -> list[ModelResponse]:
        raise NotImplementedError

    def loglikelihood_rolling(self, docs: list[Doc]) -> list[ModelResponse]:
        raise NotImplementedError
