"""Token estimates and prices: what ``--dry-run`` predicts and what the summary reports as spent.

The price table is the user's (prices change; none is built in): a JSON or TOML file ::

    {"currency": "USD",
     "models": {"gpt-4o": {"input_per_million": 2.50, "output_per_million": 10.00}}}

Prompt tokens are estimated before sending as ``ceil(characters / 4)`` per message plus 4 tokens of
message overhead and 3 for the reply's priming (the usual rule of thumb for English with OpenAI
tokenizers; LaTeX and non-English text take more), or counted exactly with a local
``tokenizer.json`` (the ``tokenizers`` package) when one is given. Spent tokens are the ``usage``
the endpoint reports.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

__all__ = ["Price", "PriceTable", "TokenEstimator", "load_price_table"]


@dataclass(frozen=True)
class Price:
    """Prices per million tokens."""

    input_per_million: float
    output_per_million: float
    currency: str = "USD"

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        return (prompt_tokens * self.input_per_million + completion_tokens * self.output_per_million) / 1e6


@dataclass(frozen=True)
class PriceTable:
    currency: str
    models: Mapping[str, Price]
    source: str

    def price(self, model: str) -> Price:
        """The price of ``model``; ``ValueError`` listing the table's models when it has none."""
        if model not in self.models:
            names = ", ".join(sorted(self.models)) or "none"
            raise ValueError(f"price table {self.source} has no entry for model {model!r}; it lists: {names}")
        return self.models[model]


def load_price_table(path: str | Path) -> PriceTable:
    """Read a price table (``.json`` or ``.toml``); errors name the file and the entry."""
    path = Path(path)
    try:
        raw = path.read_bytes()
        data: Any = tomllib.loads(raw.decode("utf-8")) if path.suffix == ".toml" else json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path}: not a valid price table: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("models"), dict):
        shape = "{'currency': ..., 'models': {NAME: {input_per_million, output_per_million}}}"
        raise ValueError(f"{path}: expected {shape}")
    currency = str(data.get("currency", "USD"))
    models = {}
    for name, entry in data["models"].items():
        try:
            inp = float(entry["input_per_million"])
            out = float(entry["output_per_million"])
        except (KeyError, TypeError, ValueError):
            raise ValueError(
                f"{path}: model {name!r} needs numeric input_per_million and output_per_million"
            ) from None
        if inp < 0 or out < 0 or not (math.isfinite(inp) and math.isfinite(out)):
            raise ValueError(f"{path}: model {name!r} has a negative or non-finite price")
        models[str(name)] = Price(inp, out, currency)
    return PriceTable(currency, models, str(path))


class TokenEstimator:
    """Prompt-token counts: the characters/4 rule, or a local ``tokenizer.json`` when given."""

    def __init__(self, tokenizer_path: str | Path | None = None) -> None:
        self._tok = None
        self.method = "chars/4"
        if tokenizer_path is not None:
            try:
                from tokenizers import Tokenizer
            except ImportError:
                raise ValueError(
                    "--tokenizer needs the 'tokenizers' package (pip install tokenizers)"
                ) from None
            try:
                self._tok = Tokenizer.from_file(str(tokenizer_path))
            except Exception as exc:  # the library raises its own exception type
                raise ValueError(f"{tokenizer_path}: not a tokenizer.json file ({exc})") from None
            self.method = f"tokenizer {tokenizer_path}"

    def count(self, messages: Sequence[Mapping[str, str]]) -> int:
        if self._tok is not None:
            body = sum(len(self._tok.encode(m["content"], add_special_tokens=False).ids) for m in messages)
        else:
            body = sum(math.ceil(len(m["content"]) / 4) for m in messages)
        return body + 4 * len(messages) + 3
