"""Sentence embeddings from an ONNX encoder."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

import numpy as np

from matheval_fast._core import ConfigError, DomainError
from matheval_fast.models._base import OnnxModel
from matheval_fast.models._files import as_texts, check_choice, load_config, load_settings

__all__ = ["Embedder", "Pooling"]

Pooling = Literal["cls", "mean", "pooler"]
_POOLINGS: tuple[str, ...] = ("cls", "mean", "pooler")


class Embedder(OnnxModel):
    """Sentence embeddings from an ONNX encoder: L2-normalised float32 vectors, cosine = dot product.

    ``pooling``: ``"cls"`` (first token's hidden state, unsupervised SimCSE), ``"mean"`` (attention-masked
    mean, sentence-transformers), ``"pooler"`` (the checkpoint's dense+tanh pooler over CLS, supervised
    SimCSE), or ``None`` to read it from ``matheval.json``.
    """

    def __init__(
        self,
        model_dir: str | os.PathLike[str],
        *,
        pooling: Pooling | None = None,
        max_length: int | None = None,
        batch_size: int = 64,
        providers: Sequence[Any] | None = None,
        threads: int | None = None,
        cache_size: int = 16384,
    ) -> None:
        directory = Path(model_dir)
        settings = load_settings(directory, required=pooling is None, hint=" (or pass pooling=...)")
        if pooling is None:
            pooling = settings.get("pooling")
            if pooling is None:
                raise ConfigError(f"{directory / 'matheval.json'}: no 'pooling'; pass pooling=... instead")
        self.pooling: Pooling = check_choice(pooling, _POOLINGS, "pooling")  # type: ignore[assignment]
        task = settings.get("task", "embedding")
        if task != "embedding":
            raise ConfigError(f"{directory / 'matheval.json'}: task is {task!r}, not 'embedding'")
        super().__init__(
            directory,
            settings=settings,
            config=load_config(directory, required=False),
            max_length=max_length,
            batch_size=batch_size,
            providers=providers,
            threads=threads,
            cache_size=cache_size,
        )
        outputs = self._outputs
        if self.pooling == "pooler":
            wanted = "pooler_output"
            if wanted not in outputs:
                raise ConfigError(
                    f"{directory / 'model.onnx'} has no 'pooler_output' output (it has {sorted(outputs)}); "
                    "export with --pooling pooler, or use pooling='cls'"
                )
        elif "last_hidden_state" in outputs:
            wanted = "last_hidden_state"
        else:
            rank3 = [name for name, node in outputs.items() if len(node.shape) == 3]
            if not rank3:
                raise ConfigError(
                    f"{directory / 'model.onnx'} has no token-level output to pool "
                    f"(outputs {sorted(outputs)})"
                )
            wanted = rank3[0]
        self._output = wanted
        last = outputs[wanted].shape[-1]
        self._dim: int | None = last if isinstance(last, int) else None

    @property
    def dim(self) -> int:
        """Length of each embedding."""
        if self._dim is None:
            self._dim = int(self._embed([""])[0].shape[0])
        return self._dim

    def _forward(self, feeds: dict[str, np.ndarray]) -> np.ndarray:
        out = self._run(self._output, feeds)
        if self.pooling == "pooler":
            vectors = out
        elif self.pooling == "cls":
            vectors = out[:, 0, :]
        else:
            mask = feeds["attention_mask"].astype(np.float32)[:, :, None]
            # Same clamp as sentence-transformers, so an all-masked row cannot divide by zero.
            vectors = (out * mask).sum(axis=1) / np.maximum(mask.sum(axis=1), 1e-9)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return (vectors / np.maximum(norms, 1e-12)).astype(np.float32)

    def _embed(self, texts: list[str]) -> list[np.ndarray]:
        return self._compute(list(texts), self._tokens.texts, self._forward)

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Embeddings of ``texts``: float32 array ``(len(texts), dim)``, each row of unit length."""
        items = as_texts(texts, "texts")
        if not items:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack(self._embed(items))

    def similarity(self, queries: Sequence[str], references: Sequence[str]) -> np.ndarray:
        """Cosine similarities, float32 array of shape ``(len(queries), len(references))``."""
        q = self.encode(queries)
        r = self.encode(references)
        return q @ r.T

    def max_similarity(self, queries: Sequence[str], references: Sequence[str]) -> np.ndarray:
        """For each query, its highest cosine similarity to any reference: float32 array ``(len(queries),)``.

        ``references`` must not be empty (a maximum over nothing is undefined: ``DomainError``).
        """
        refs = as_texts(references, "references")
        if not refs:
            raise DomainError("max_similarity needs at least one reference")
        sims = self.similarity(queries, refs)
        return sims.max(axis=1) if sims.shape[0] else np.zeros(0, dtype=np.float32)

    def __repr__(self) -> str:
        return (
            f"Embedder({str(self.model_dir)!r}, pooling={self.pooling!r}, max_length={self.max_length}, "
            f"device={self.device!r})"
        )
