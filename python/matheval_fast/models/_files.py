"""The model directory: which files it holds, how they are read, and argument checks shared by the models."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from matheval_fast._core import ConfigError, ShapeError
from matheval_fast.models._devices import FALLBACK_MAX_LENGTH, require_tokenizers

# RoBERTa-family position ids start after the padding index, so two positions are unusable.
_POSITION_OFFSET_MODELS = frozenset({"roberta", "xlm-roberta", "camembert", "longformer", "data2vec-text"})


def model_file(model_dir: Path, name: str, *, hint: str = "") -> Path:
    path = model_dir / name
    if not path.is_file():
        raise FileNotFoundError(f"model directory {model_dir} has no {name}{hint}")
    return path


def read_json(path: Path) -> dict[str, Any]:
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{path}: not valid JSON ({exc})") from exc
    if not isinstance(value, dict):
        raise ConfigError(f"{path}: expected a JSON object")
    return value


def load_settings(model_dir: Path, *, required: bool, hint: str) -> dict[str, Any]:
    """``matheval.json`` (how to run the model), or ``{}`` when it is optional and absent."""
    path = model_dir / "matheval.json"
    if not path.is_file():
        if required:
            model_file(model_dir, "matheval.json", hint=hint)
        return {}
    return read_json(path)


def load_config(model_dir: Path, *, required: bool) -> dict[str, Any]:
    """The checkpoint's ``config.json``, or ``{}`` when it is optional and absent."""
    path = model_dir / "config.json"
    if not path.is_file():
        if required:
            model_file(model_dir, "config.json", hint=" (NLI needs its id2label)")
        return {}
    return read_json(path)


def load_tokenizer(path: Path) -> Any:
    """A ``tokenizers.Tokenizer`` from ``tokenizer.json``; an unreadable file is a ConfigError naming it."""
    tokenizers = require_tokenizers()
    try:
        return tokenizers.Tokenizer.from_file(str(path))
    except Exception as exc:  # tokenizers raises a bare Exception carrying serde's message, without the path
        raise ConfigError(f"{path}: not a usable tokenizer file ({exc})") from None


def position_limit(config: dict[str, Any]) -> int | None:
    """Tokens the model can take (``max_position_embeddings``, less RoBERTa's offset of 2), if config says."""
    limit = config.get("max_position_embeddings")
    if isinstance(limit, int) and not isinstance(limit, bool) and limit > 0:
        if config.get("model_type") in _POSITION_OFFSET_MODELS:
            limit -= 2
        return limit if limit > 0 else None
    return None


def max_length_for(argument: Any, settings: dict[str, Any], config: dict[str, Any], model_dir: Path) -> int:
    """``max_length``: the argument, else ``matheval.json``, else the position limit (at most 512).

    A value above the model's position limit is an error: the model has no position embeddings there.
    """
    limit = position_limit(config)
    if argument is not None:
        value, source = positive_int(argument, "max_length"), "max_length"
    elif settings.get("max_length") is not None:
        value = positive_int(settings["max_length"], "matheval.json max_length")
        source = f"{model_dir / 'matheval.json'}: max_length"
    else:
        return min(limit, FALLBACK_MAX_LENGTH) if limit is not None else FALLBACK_MAX_LENGTH
    if limit is not None and value > limit:
        offset = (
            " less 2 for RoBERTa-style position ids"
            if config.get("model_type") in _POSITION_OFFSET_MODELS
            else ""
        )
        raise ValueError(
            f"{source} {value} is above the model's position limit of {limit} tokens "
            f"(config.json max_position_embeddings {config['max_position_embeddings']}{offset})"
        )
    return value


def pad_id(config: dict[str, Any], tokenizer: Any) -> int:
    value = config.get("pad_token_id")
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    for token in ("[PAD]", "<pad>"):
        token_id = tokenizer.token_to_id(token)
        if token_id is not None:
            return int(token_id)
    return 0  # masked out anyway; only exact parity with the training framework depends on it


def positive_int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise TypeError(f"{what} must be an int, got {type(value).__name__}")
    if value < 1:
        raise ValueError(f"{what} must be at least 1, got {value}")
    return int(value)


def check_choice(value: Any, allowed: tuple[str, ...], what: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a str, got {type(value).__name__}")
    if value not in allowed:
        raise ValueError(f"unknown {what} {value!r}; expected one of {', '.join(allowed)}")
    return value


def as_texts(values: Any, what: str) -> list[str]:
    """A list of str from a list, tuple or numpy array of str; a bare string is a TypeError, not n letters."""
    if isinstance(values, str | bytes):
        raise TypeError(f"{what} must be a sequence of str, not a single {type(values).__name__}")
    if isinstance(values, np.ndarray):
        if values.ndim != 1:
            raise ShapeError(f"{what} must be one-dimensional, got shape {values.shape}")
        values = values.tolist()
    try:
        texts = list(values)
    except TypeError:
        raise TypeError(f"{what} must be a sequence of str, got {type(values).__name__}") from None
    for i, text in enumerate(texts):
        if not isinstance(text, str):
            raise TypeError(f"{what}[{i}] must be str, got {type(text).__name__}")
    return texts
