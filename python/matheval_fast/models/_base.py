"""What both model kinds share: the model directory, tokenizer, ONNX session, batching and cache."""

from __future__ import annotations

import hashlib
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from pathlib import Path
from typing import Any, Literal

import numpy as np

from matheval_fast._core import ConfigError
from matheval_fast.models._devices import default_providers, require_onnxruntime
from matheval_fast.models._files import (
    load_tokenizer,
    max_length_for,
    model_file,
    pad_id,
    positive_int,
)
from matheval_fast.models._tokens import TokenBudget, Tokens

_KNOWN_INPUTS = ("input_ids", "attention_mask", "token_type_ids")
#: Cache keys longer than this many characters are stored as a digest, not as the text itself.
_LONG_KEY = 1024


class OnnxModel:
    """An ONNX encoder from a model directory: tokenizer, session, length-sorted batches, bounded cache.

    Subclasses (:class:`~matheval_fast.models.Embedder`, :class:`~matheval_fast.models.NLIModel`) choose the
    output and how a batch's output becomes one row per input.
    """

    def __init__(
        self,
        model_dir: str | os.PathLike[str],
        *,
        settings: dict[str, Any],
        config: dict[str, Any],
        max_length: int | None,
        batch_size: int,
        providers: Sequence[Any] | None,
        threads: int | None,
        cache_size: int,
    ) -> None:
        ort = require_onnxruntime()
        self.model_dir = Path(model_dir)
        self.batch_size = positive_int(batch_size, "batch_size")
        if isinstance(cache_size, bool) or not isinstance(cache_size, int) or cache_size < 0:
            raise ValueError(f"cache_size must be a non-negative int, got {cache_size!r}")
        self.cache_size = cache_size
        self.max_length = max_length_for(max_length, settings, config, self.model_dir)

        model_path = model_file(self.model_dir, "model.onnx")
        tokenizer_path = model_file(self.model_dir, "tokenizer.json")
        tokenizer = load_tokenizer(tokenizer_path)
        # Files exported by transformers often carry fixed padding (to 128) and their own truncation; this
        # runtime pads per batch itself and truncates to max_length through TokenBudget.
        tokenizer.no_padding()
        tokenizer.no_truncation()
        self._tokens = TokenBudget(tokenizer, self.max_length, source=str(tokenizer_path))
        self.pad_id = pad_id(config, tokenizer)

        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        if threads is not None:
            options.intra_op_num_threads = positive_int(threads, "threads")
        # The input names are needed before the session exists (TensorRT profiles name them): export.py
        # records them; otherwise assume all three and check against the graph below.
        input_names = settings.get("inputs", list(_KNOWN_INPUTS))
        if not isinstance(input_names, list) or not set(input_names) <= set(_KNOWN_INPUTS):
            raise ConfigError(
                f"{self.model_dir / 'matheval.json'}: 'inputs' must name some of {list(_KNOWN_INPUTS)}"
            )
        if providers is None:
            chosen = default_providers(
                input_names=input_names, batch_size=self.batch_size, max_length=self.max_length
            )
        else:
            if isinstance(providers, str):
                raise TypeError("providers must be a sequence of provider names, not a single str")
            chosen = list(providers)
        self.session = ort.InferenceSession(str(model_path), sess_options=options, providers=chosen)
        self.providers: list[str] = list(self.session.get_providers())
        self.device: Literal["cuda", "cpu"] = (
            "cuda" if {"CUDAExecutionProvider", "TensorrtExecutionProvider"} & set(self.providers) else "cpu"
        )
        # Where outputs are bound with IO binding; None runs plainly (CPU, where binding gains nothing).
        self._bind_device: str | None = "cuda" if self.device == "cuda" else None

        self._inputs: dict[str, np.dtype[Any]] = {}
        for node in self.session.get_inputs():
            if node.name not in _KNOWN_INPUTS:
                raise ConfigError(
                    f"{model_path}: unexpected graph input {node.name!r}; "
                    f"expected some of {list(_KNOWN_INPUTS)}"
                )
            dtype = {"tensor(int64)": np.int64, "tensor(int32)": np.int32}.get(node.type)
            if dtype is None:
                raise ConfigError(f"{model_path}: input {node.name!r} has type {node.type}, not int64/int32")
            self._inputs[node.name] = np.dtype(dtype)
        for name in ("input_ids", "attention_mask"):
            if name not in self._inputs:
                raise ConfigError(f"{model_path}: the graph has no {name!r} input")
        self._outputs = {node.name: node for node in self.session.get_outputs()}
        self._cache: OrderedDict[Hashable, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    # -- running ---------------------------------------------------------------------------------------------

    def _feeds(self, batch: Sequence[Tokens]) -> dict[str, np.ndarray]:
        """One batch padded to its longest member."""
        n = len(batch)
        width = max(len(ids) for ids, _ in batch)
        ids = np.full((n, width), self.pad_id, dtype=np.int64)
        mask = np.zeros((n, width), dtype=np.int64)
        types = np.zeros((n, width), dtype=np.int64)
        for row, (token_ids, type_ids) in enumerate(batch):
            k = len(token_ids)
            ids[row, :k] = token_ids
            mask[row, :k] = 1
            types[row, :k] = type_ids
        arrays = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
        return {name: arrays[name].astype(dtype, copy=False) for name, dtype in self._inputs.items()}

    def _run(self, output: str, feeds: dict[str, np.ndarray]) -> np.ndarray:
        if self._bind_device is not None:
            # IO binding: ONNX Runtime copies the inputs to the device once and keeps the output there
            # until the one copy back, instead of staging both through its own CPU buffers.
            binding = self.session.io_binding()
            for name, array in feeds.items():
                binding.bind_cpu_input(name, array)
            binding.bind_output(output, self._bind_device)
            self.session.run_with_iobinding(binding)
            result = binding.copy_outputs_to_cpu()[0]
        else:
            result = self.session.run([output], feeds)[0]
        # fp16 exports keep float32 outputs, but a hand-made graph may not.
        return np.asarray(result, dtype=np.float32)

    def _compute(
        self,
        keys: list[Hashable],
        tokenize: Callable[[list[Any]], list[Tokens]],
        forward: Callable[[dict[str, np.ndarray]], np.ndarray],
    ) -> list[np.ndarray]:
        """Rows for ``keys`` (texts or pairs): cached ones reused, each missing distinct key computed once.

        Keys are tokenised into small id arrays first (bounded by ``max_length`` each), then sorted by
        token count (ties by the key itself, so a key's batch does not depend on input order), cut into
        batches of ``batch_size`` and padded to each batch's longest member.
        """
        found: dict[Hashable, np.ndarray] = {}
        with self._lock:
            for key in keys:
                if key not in found:
                    row = self._cache.get(_cache_key(key))
                    if row is not None:
                        found[key] = row
                        self._cache.move_to_end(_cache_key(key))
        missing = [key for key in dict.fromkeys(keys) if key not in found]
        if missing:
            tokens = tokenize(missing)
            order = sorted(range(len(missing)), key=lambda i: (len(tokens[i][0]), missing[i]))
            for start in range(0, len(order), self.batch_size):
                chunk = order[start : start + self.batch_size]
                rows = forward(self._feeds([tokens[i] for i in chunk]))
                for i, row in zip(chunk, rows, strict=True):
                    found[missing[i]] = row
            if self.cache_size:
                with self._lock:
                    for key in missing:
                        self._cache[_cache_key(key)] = found[key]
                    while len(self._cache) > self.cache_size:
                        self._cache.popitem(last=False)
        return [found[key] for key in keys]

    def clear_cache(self) -> None:
        """Forget cached results."""
        with self._lock:
            self._cache.clear()


def _cache_key(key: Hashable) -> Hashable:
    """The key itself when short; a digest of a long text (or pair), so the cache does not keep the text."""
    texts = key if isinstance(key, tuple) else (key,)
    if sum(len(t) for t in texts) <= _LONG_KEY:  # type: ignore[arg-type]
        return key
    h = hashlib.blake2b(digest_size=20)
    for t in texts:
        data = t.encode("utf-8", "surrogatepass")  # type: ignore[union-attr]
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return ("blake2b", len(texts), h.digest())
