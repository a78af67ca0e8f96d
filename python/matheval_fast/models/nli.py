"""Natural-language inference with an ONNX sequence classifier."""

from __future__ import annotations

import os
from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import Any, Literal

import numpy as np

from matheval_fast._core import ConfigError, ShapeError
from matheval_fast.models._base import OnnxModel
from matheval_fast.models._files import as_texts, check_choice, load_config, load_settings

__all__ = ["NLIModel", "PairOrder"]

PairOrder = Literal["premise_first", "hypothesis_first"]
_PAIR_ORDERS: tuple[str, ...] = ("premise_first", "hypothesis_first")


class NLIModel(OnnxModel):
    """Natural-language inference with an ONNX sequence classifier (2 or 3 labels, any label order).

    Callers always pass ``(premises, hypotheses)``; ``pair_order`` (argument, else ``matheval.json``, else
    ``"premise_first"``) says in which order the model was trained to read them. ``"hypothesis_first"`` is for
    checkpoints such as ``potsawee/deberta-v3-large-mnli``, trained on (hypothesis, premise).
    """

    def __init__(
        self,
        model_dir: str | os.PathLike[str],
        *,
        max_length: int | None = None,
        batch_size: int = 64,
        providers: Sequence[Any] | None = None,
        pair_order: PairOrder | None = None,
        threads: int | None = None,
        cache_size: int = 16384,
    ) -> None:
        directory = Path(model_dir)
        settings = load_settings(directory, required=False, hint="")
        task = settings.get("task", "nli")
        if task != "nli":
            raise ConfigError(f"{directory / 'matheval.json'}: task is {task!r}, not 'nli'")
        if pair_order is None:
            pair_order = settings.get("pair_order", "premise_first")
        self.pair_order: PairOrder = check_choice(pair_order, _PAIR_ORDERS, "pair_order")  # type: ignore[assignment]
        config = load_config(directory, required=True)
        self.labels: tuple[str, ...] = _labels(config, directory / "config.json")
        super().__init__(
            directory,
            settings=settings,
            config=config,
            max_length=max_length,
            batch_size=batch_size,
            providers=providers,
            threads=threads,
            cache_size=cache_size,
        )
        outputs = self._outputs
        if "logits" in outputs:
            self._output = "logits"
        elif len(outputs) == 1:
            self._output = next(iter(outputs))
        else:
            raise ConfigError(f"{directory / 'model.onnx'}: no 'logits' output among {sorted(outputs)}")
        width = outputs[self._output].shape[-1]
        if isinstance(width, int) and width != len(self.labels):
            raise ConfigError(
                f"{directory}: the model has {width} logits but config.json's id2label names "
                f"{len(self.labels)}"
            )

    def _forward(self, feeds: dict[str, np.ndarray]) -> np.ndarray:
        logits = self._run(self._output, feeds).astype(np.float64)
        if logits.ndim != 2 or logits.shape[1] != len(self.labels):
            raise ConfigError(
                f"{self.model_dir}: the model gave logits of shape {logits.shape}, "
                f"expected (batch, {len(self.labels)})"
            )
        shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
        return (shifted / shifted.sum(axis=1, keepdims=True)).astype(np.float32)

    def predict(self, premises: Sequence[str], hypotheses: Sequence[str]) -> np.ndarray:
        """Label probabilities (softmax over all labels): float32 ``(n, len(labels))``, ``.labels`` order."""
        prem = as_texts(premises, "premises")
        hyp = as_texts(hypotheses, "hypotheses")
        if len(prem) != len(hyp):
            raise ShapeError(f"premises has {len(prem)} texts but hypotheses has {len(hyp)}")
        if not prem:
            return np.zeros((0, len(self.labels)), dtype=np.float32)
        if self.pair_order == "premise_first":
            pairs: list[Hashable] = list(zip(prem, hyp, strict=True))
        else:
            pairs = list(zip(hyp, prem, strict=True))
        return np.stack(self._compute(pairs, self._tokens.pairs, self._forward))

    def entailment(self, premises: Sequence[str], hypotheses: Sequence[str]) -> np.ndarray:
        """P(entailment) of each pair, float32 ``(n,)``: the entailment column of :meth:`predict`."""
        index = self.label_index("entailment")
        return np.ascontiguousarray(self.predict(premises, hypotheses)[:, index])

    def label_index(self, name: str) -> int:
        """Column of label ``name`` (case-insensitive; ``entail*``/``contradict*`` prefixes match)."""
        wanted = name.lower()
        for i, label in enumerate(self.labels):
            if label == wanted:
                return i
        stem = wanted[:6]
        matches = [i for i, label in enumerate(self.labels) if len(stem) >= 6 and label.startswith(stem)]
        if len(matches) == 1:
            return matches[0]
        raise ConfigError(
            f"{self.model_dir / 'config.json'}: id2label {list(self.labels)} has no {name!r} label"
        )

    def __repr__(self) -> str:
        return (
            f"NLIModel({str(self.model_dir)!r}, labels={self.labels}, pair_order={self.pair_order!r}, "
            f"device={self.device!r})"
        )


def _labels(config: dict[str, Any], path: Path) -> tuple[str, ...]:
    """Label names in logit order, lower-cased, from ``id2label`` (keys are strings in JSON)."""
    raw = config.get("id2label")
    if not isinstance(raw, dict) or not raw:
        raise ConfigError(f"{path}: no id2label mapping")
    try:
        by_id = {int(key): value for key, value in raw.items()}
    except (TypeError, ValueError):
        raise ConfigError(f"{path}: id2label keys must be integers, got {sorted(raw)}") from None
    if sorted(by_id) != list(range(len(by_id))):
        raise ConfigError(f"{path}: id2label ids must be 0..{len(by_id) - 1}, got {sorted(by_id)}")
    names = []
    for i in range(len(by_id)):
        if not isinstance(by_id[i], str):
            raise ConfigError(f"{path}: id2label[{i}] is not a string")
        names.append(by_id[i].lower())
    if len(set(names)) != len(names):
        raise ConfigError(f"{path}: id2label has repeated names {names}")
    return tuple(names)
