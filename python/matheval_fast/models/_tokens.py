"""Tokenisation whose cost is bounded by ``max_length``, not by the length of the texts.

Hugging Face ``tokenizers`` tokenises a whole text before truncating it, and keeps what it cut as
"overflowing" encodings; for a pair it keeps every combination of the two sides' overflowing parts. Two
20,000-word texts took 2.1 GB and 5 s, 64 texts of 100,000 characters several GB, to keep 512 tokens.

:class:`TokenBudget` gives the same token ids without that:

1. **Only a prefix is tokenised.** A text longer than a character budget (a few characters per kept
   token) is cut, and the prefix tokenised without special tokens. The prefix's tokens equal the full
   text's up to its last pre-tokenised word (the one the cut may have split), because normalisers and
   pre-tokenisers decide each word from the characters around it. The prefix is used when those exact
   tokens are more than can be kept; otherwise the budget grows fourfold and the text is tried again,
   up to the whole text (a tokenizer without words never cuts).
2. **Truncation and special tokens are applied to ids.** The kept lengths follow ``tokenizers``'
   ``longest_first`` rule (right side dropped); the special tokens and type ids come from the tokenizer's
   own post-processor, read once from a probe encoding. When both sides of a pair are over the limit and
   the rule needs to know which is longer (an odd number of tokens to share), the cut sides are counted
   in full, one at a time.
3. **Encodings are dropped at once.** Each text keeps two small integer arrays (ids, type ids).

The result is the ids and type ids ``tokenizer.encode(text_or_pair)`` gives with truncation to
``max_length``, tested against it on WordPiece, byte-level BPE and Unigram tokenizers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from matheval_fast._core import ConfigError

__all__ = ["Layout", "TokenBudget", "Tokens", "pair_lengths"]

#: Characters of text read per token that can be kept, before the first retry.
CHARS_PER_TOKEN = 8
#: Texts tokenised together (bounds the memory of ``tokenizers``' encodings at one time).
WINDOW = 256

Tokens = tuple[np.ndarray, np.ndarray]


@dataclass(frozen=True)
class Layout:
    """Where the post-processor puts special tokens around one or two sequences.

    ``parts`` lists ``("special", id, type_id)`` and ``("sequence", index, type_id)`` in order.
    """

    parts: tuple[tuple[str, int, int], ...]

    @property
    def added(self) -> int:
        return sum(1 for kind, _, _ in self.parts if kind == "special")

    def assemble(self, sides: Sequence[Sequence[int]]) -> Tokens:
        ids: list[int] = []
        types: list[int] = []
        for kind, value, type_id in self.parts:
            chunk = [value] if kind == "special" else list(sides[value])
            ids.extend(chunk)
            types.extend([type_id] * len(chunk))
        return np.asarray(ids, dtype=np.int64), np.asarray(types, dtype=np.int64)


def read_layout(tokenizer: Any, *, pair: bool, source: str) -> Layout:
    """The special-token layout of ``tokenizer`` (without truncation or padding) for one or two sequences."""
    probes = [tokenizer.encode(text, add_special_tokens=False) for text in ("a", "b")[: 1 + pair]]
    if any(len(p.ids) == 0 for p in probes):
        raise ConfigError(f"{source}: the tokenizer gives no tokens for a single letter")
    done = tokenizer.post_process(probes[0], probes[1] if pair else None, add_special_tokens=True)
    # The content tokens are those not marked special, first sequence first (``sequence_ids`` cannot be
    # trusted here: some versions report None for content tokens of a post-processed pair).
    content = [list(p.ids) for p in probes]
    expected = [(seq, token) for seq, ids in enumerate(content) for token in ids]
    parts: list[tuple[str, int, int]] = []
    got: list[tuple[int, int]] = []
    for token_id, type_id, special in zip(done.ids, done.type_ids, done.special_tokens_mask, strict=True):
        if special:
            parts.append(("special", int(token_id), int(type_id)))
            continue
        if len(got) >= len(expected):
            raise ConfigError(f"{source}: the post-processor adds tokens it does not mark as special")
        seq = expected[len(got)][0]
        got.append((seq, int(token_id)))
        if not parts or parts[-1][:2] != ("sequence", seq):
            parts.append(("sequence", seq, int(type_id)))
    if got != expected or sum(1 for kind, _, _ in parts if kind == "sequence") != len(content):
        raise ConfigError(f"{source}: the post-processor does not keep its sequences in order")
    return Layout(tuple(parts))


def pair_lengths(n1: int, n2: int, limit: int) -> tuple[int, int]:
    """Tokens kept from each side of a pair under ``tokenizers``' ``longest_first`` rule."""
    if n1 + n2 <= limit:
        return n1, n2
    swap = n1 > n2
    short, long_ = (n2, n1) if swap else (n1, n2)
    long_ = short if short > limit else max(short, limit - short)
    if short + long_ > limit:
        short = limit // 2
        long_ = short + limit % 2
    return (long_, short) if swap else (short, long_)


@dataclass
class _Side:
    ids: list[int]
    complete: bool  # True: every token of the text; False: its first tokens, more than can be kept


class TokenBudget:
    """Token ids and type ids of texts or pairs cut to ``max_length`` tokens, reading bounded prefixes.

    ``tokenizer`` is used as it is configured for its model but must not truncate or pad (the caller
    owns it and set both off).
    """

    def __init__(self, tokenizer: Any, max_length: int, *, source: str) -> None:
        self.tokenizer = tokenizer
        self.max_length = max_length
        self.single = read_layout(tokenizer, pair=False, source=source)
        self.pair = read_layout(tokenizer, pair=True, source=source)
        #: Texts cut to a prefix, and texts counted in full to settle a pair (for tests and figures).
        self.prefix_cuts = 0
        self.full_counts = 0
        for layout, what in ((self.single, "a text"), (self.pair, "a pair")):
            if max_length <= layout.added:
                raise ValueError(
                    f"max_length {max_length} leaves no room for {what}: the tokenizer adds "
                    f"{layout.added} special tokens"
                )

    # -- public ----------------------------------------------------------------------------------------------

    def texts(self, texts: Sequence[str]) -> list[Tokens]:
        keep = self.max_length - self.single.added
        out: list[Tokens] = []
        for start in range(0, len(texts), WINDOW):
            for side in self._sides(texts[start : start + WINDOW], keep):
                out.append(self.single.assemble([side.ids[:keep]]))
        return out

    def pairs(self, pairs: Sequence[tuple[str, str]]) -> list[Tokens]:
        limit = self.max_length - self.pair.added
        out: list[Tokens] = []
        for start in range(0, len(pairs), WINDOW):
            window = pairs[start : start + WINDOW]
            firsts = self._sides([a for a, _ in window], limit)
            seconds = self._sides([b for _, b in window], limit)
            for (a, b), s1, s2 in zip(window, firsts, seconds, strict=True):
                n1, n2 = len(s1.ids), len(s2.ids)
                # A cut side has more than `limit` tokens: its count matters only when both sides are
                # over the limit and an odd number of tokens goes to the longer one.
                if n1 > limit and n2 > limit and limit % 2 and not (s1.complete and s2.complete):
                    n1, n2 = self._count(a, s1), self._count(b, s2)
                k1, k2 = pair_lengths(n1, n2, limit)
                out.append(self.pair.assemble([s1.ids[:k1], s2.ids[:k2]]))
        return out

    # -- internals -------------------------------------------------------------------------------------------

    def _sides(self, texts: Sequence[str], keep: int) -> list[_Side]:
        """Each text's tokens (no special tokens): all of them, or exact first ones, more than ``keep``."""
        result: list[_Side | None] = [None] * len(texts)
        budget = CHARS_PER_TOKEN * keep + 64
        pending = list(range(len(texts)))
        while pending:
            cut = [texts[i] if len(texts[i]) <= budget else texts[i][:budget] for i in pending]
            encodings = self.tokenizer.encode_batch(cut, add_special_tokens=False)
            retry = []
            for i, text, enc in zip(pending, cut, encodings, strict=True):
                if len(text) == len(texts[i]):
                    result[i] = _Side(list(enc.ids), True)
                    continue
                exact = _exact_prefix(enc)
                if exact > keep:
                    self.prefix_cuts += 1
                    result[i] = _Side(list(enc.ids[:exact]), False)
                else:
                    retry.append(i)
            pending = retry
            budget *= 4
        return [s for s in result if s is not None]

    def _count(self, text: str, side: _Side) -> int:
        if side.complete:
            return len(side.ids)
        self.full_counts += 1
        return len(self.tokenizer.encode(text, add_special_tokens=False).ids)


def _exact_prefix(enc: Any) -> int:
    """Tokens of a cut text that equal the full text's: all but those of its last (possibly cut) word."""
    words = enc.word_ids
    n = len(words)
    if n == 0:
        return 0
    last = words[-1]
    if last is None:  # an added token at the very end: keep clear of it too
        return n - 1
    k = n
    while k > 0 and words[k - 1] == last:
        k -= 1
    return k
