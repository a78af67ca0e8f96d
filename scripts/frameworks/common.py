"""What the framework runs of `make test-frameworks` share: real items, a tiny local model, the checks.

Each run imports its framework for real (in its own virtual environment, scripts/frameworks/setup.sh),
records every reward or metric the framework computed with the text it was computed on, and asserts
that each equals ``check()`` on the same pair and that the framework's own summary equals their mean.
Nothing is downloaded: the items come from the repository's data, the model is randomly initialised and
its tokenizer is built here with ``tokenizers``.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def gsm8k(n: int, one_digit: bool = False) -> list[dict[str, str]]:
    """The first ``n`` real GSM8K test items: question, worked solution with its ``#### n`` line, answer
    (``one_digit``: only items whose answer is one digit, which a tiny random model sometimes says)."""
    items = json.loads((ROOT / "data/answer_check/gsm8k_xwin.json").read_text("utf-8"))
    if one_digit:
        items = [d for d in items if len(d["answer"].strip()) == 1]
    items = items[:n]
    return [
        {
            "question": d["question"],
            "solution": f"{d['solution'].rstrip()}\n#### {d['answer']}",
            "answer": d["answer"],
        }
        for d in items
    ]


def math_items(n: int, one_digit: bool = False) -> list[dict[str, str]]:
    """``n`` real MATH prealgebra test items with their real worked solutions (``one_digit``: see gsm8k)."""
    path = ROOT / "tests/data/logs/sources/math_prealgebra.jsonl"
    rows = [json.loads(x) for x in path.read_text("utf-8").splitlines()]
    if one_digit:
        rows = [r for r in rows if len(r["answer"].strip()) == 1]
    rows = rows[:n]
    return [{"problem": r["problem"], "solution": r["solution"], "answer": r["answer"]} for r in rows]


#: The words of the tiny tokenizer: digits and a few words, so a random model says a number now and then.
#: Decoding concatenates the tokens; the space token separates them ("The answer is 4").
WORDS = [*"0123456789", "The", "answer", "is", "</think>", ".", " "]


def tiny_model(out: Path) -> Path:
    """A randomly initialised 2-layer Qwen2 causal LM and a word-level tokenizer, saved to ``out``."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast, Qwen2Config, Qwen2ForCausalLM

    vocab = {t: i for i, t in enumerate(["<pad>", "<eos>", "<unk>", *WORDS])}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))  # noqa: S106
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tok.decoder = decoders.Fuse()
    special = {"pad_token": "<pad>", "eos_token": "<eos>", "unk_token": "<unk>"}
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, **special)
    fast.padding_side = "left"
    config = Qwen2Config(
        vocab_size=len(vocab),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=1,
        max_position_embeddings=4096,
        pad_token_id=0,
        eos_token_id=1,
        bos_token_id=1,
        tie_word_embeddings=True,
    )
    import torch

    torch.manual_seed(0)
    Qwen2ForCausalLM(config).save_pretrained(out)
    fast.save_pretrained(out)
    return out


def compare(records: list[tuple[str | None, str | None, float | None]], what: str) -> dict[str, Any]:
    """Every recorded ``(response, gold, value)`` equals ``check(response, gold)``; returns a summary."""
    from matheval_fast import check

    bad = []
    for response, gold, value in records:
        want = None if gold is None else float(check(response, gold).correct)
        got = None if value is None or (isinstance(value, float) and math.isnan(value)) else float(value)
        if want is None:
            ok = got is None
        else:
            ok = got == want
        if not ok:
            bad.append({"response": response, "gold": gold, "got": value, "check": want})
    assert not bad, f"{what}: {len(bad)} of {len(records)} differ from check(): {bad[:3]}"
    scored = [v for _r, _g, v in records if v is not None and not (isinstance(v, float) and math.isnan(v))]
    return {"what": what, "items": len(records), "equal_to_check": len(records), "correct": sum(scored)}


def nanmean(values: list[float | None]) -> float:
    kept = [v for v in values if v is not None and not math.isnan(v)]
    return sum(kept) / len(kept) if kept else float("nan")


def qwen_math_pairs() -> list[tuple[str, str]]:
    """Real Qwen2.5-Math-7B-Instruct responses to MATH prealgebra problems, with each problem's real
    worked solution (the pairs of benches/trl_accuracy_reward.py)."""
    solutions = {}
    for line in (ROOT / "tests/data/logs/sources/math_prealgebra.jsonl").read_text("utf-8").splitlines():
        doc = json.loads(line)
        solutions[doc["qwen_idx"]] = doc["solution"]
    pairs = []
    for line in (
        (ROOT / "data/answer_check/qwen25math_math_cot_100_graded.jsonl").read_text("utf-8").splitlines()
    ):
        row = json.loads(line)
        if row["idx"] in solutions:
            pairs.append((row["response"], solutions[row["idx"]]))
    return pairs


def byte_tokenizer(texts: list[str], out: Path) -> Any:
    """A byte-level BPE tokenizer trained here on ``texts`` (lossless: decode(encode(t)) == t)."""
    from tokenizers import ByteLevelBPETokenizer
    from transformers import PreTrainedTokenizerFast

    bpe = ByteLevelBPETokenizer()
    bpe.train_from_iterator(texts, vocab_size=600, special_tokens=["<pad>", "<eos>"])
    special = {"pad_token": "<pad>", "eos_token": "<eos>"}
    fast = PreTrainedTokenizerFast(tokenizer_object=bpe._tokenizer, **special)
    fast.save_pretrained(out)
    return fast
