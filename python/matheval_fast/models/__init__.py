"""ONNX model runtime for the model stages of protocols B and D: sentence embeddings and NLI.

A *model directory* is plain files, made by ``onnx/export.py`` (or by hand):

``model.onnx``
    the graph, with dynamic batch and sequence axes; inputs ``input_ids``, ``attention_mask`` and, when the
    model uses them, ``token_type_ids``. Embedders output ``last_hidden_state`` (and ``pooler_output`` for
    ``pooling="pooler"``); classifiers output ``logits``.
``tokenizer.json``
    a Hugging Face ``tokenizers`` file; tokenisation runs in Rust, in parallel.
``config.json``
    the checkpoint's config; ``NLIModel`` reads ``id2label`` from it, both read ``pad_token_id``.
``matheval.json``
    how to run it: ``task``, ``pooling``, ``max_length`` and, for NLI, ``pair_order``. Optional for an
    ``NLIModel``; an ``Embedder`` needs it unless ``pooling`` is passed.

Nothing is downloaded: a missing file is a ``FileNotFoundError`` naming it, an unreadable one
(``tokenizer.json`` included) a ``ConfigError`` naming it.

**Batching.** Each call tokenises its distinct texts (or pairs) once, sorts them by token count (ties by
text), cuts batches of ``batch_size`` and pads each batch to its own longest member, so padding is small and
the batch a text lands in does not depend on the order of the input. Duplicates are computed once, and results
are kept in a bounded cache keyed by text (a digest for long texts, so the cache does not keep them), so
repeated calls (references re-used across calls) cost nothing. With attention masking, padding does not change
a result beyond float rounding (about 1e-7), so results do not depend on batch size or input order.

**Truncation.** Inputs are cut to ``max_length`` tokens, special tokens included: a single text keeps its
first tokens (the end is dropped, its final ``[SEP]``/``</s>`` kept); a pair is cut *longest first*, one token
at a time from the end of whichever side is longer at that moment (the rule of Hugging Face tokenizers'
``truncation=True``). ``max_length`` comes from the argument, else ``matheval.json``, else the model's
position limit (``max_position_embeddings``, less RoBERTa's offset of 2) up to 512, else 512; a value above
the position limit is a ``ValueError``. Work and memory are bounded by ``max_length``, not by the length of
the texts: only a prefix of a long text is tokenised, and each text keeps just its token ids (see
:mod:`matheval_fast.models._tokens`); the ids are those the tokenizer itself gives with truncation.

**Devices.** With ``providers=None``, CUDA (and TensorRT when its libraries are installed) is used when
``onnxruntime-gpu`` is installed and a GPU is visible, else the CPU; on a GPU the inputs and outputs go
through ONNX Runtime's IO binding. ``.providers`` tells what the session really uses. ``threads`` sets ONNX
Runtime's intra-op thread count (``None``: one per core).

Modules: :mod:`._base` (what both kinds share: directory, tokenizer, session, batches, cache),
:mod:`.embedder`, :mod:`.nli`, :mod:`._tokens` (bounded tokenisation), :mod:`._files` (the model
directory), :mod:`._devices` (execution providers).
"""

from __future__ import annotations

from matheval_fast.models._devices import cuda_available, default_providers
from matheval_fast.models.embedder import Embedder, Pooling
from matheval_fast.models.nli import NLIModel, PairOrder

__all__ = ["Embedder", "NLIModel", "PairOrder", "Pooling", "cuda_available", "default_providers"]
