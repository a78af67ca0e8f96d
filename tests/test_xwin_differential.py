"""Differential test: the library's ``compat="xwin"`` mode against the pure-Python seed oracle.

The oracle is ``tests/reference/xwin_seed.py``. Inputs: all 1,319 GSM8K items (anchor responses, reference
solutions, solutions plus anchor), the fixed corpus ``tests/data/xwin_corpus.jsonl`` (every table row of the
reference document and tricky extraction strings), and Hypothesis strings over a grammar-stressing alphabet.

How ``split`` maps (library -> seed):

- ``extract_answer`` and ``simple_answer_check``: ``split=None`` means the seed config's ``extract_pattern``;
  a list is passed through unchanged.
- ``latex_answer_check``: ``split=None`` means no extraction, exactly as in the seed, where ``None`` makes
  ``model_ans`` the answer as given; pass the patterns to extract.

Where the seed itself crashes (an empty ground truth under the aggressive policy, an integer too large for
a float in ``compare_numbers``), its harness records the item as wrong; the library may return ``False`` or
raise a ``ValueError``/``TypeError`` there.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import matheval_fast as mf
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.reference import xwin_seed as seed
from tests.reference.xwin_corpus import load_corpus

_API = ("extract_answer", "simple_answer_check", "latex_answer_check")
_MISSING = [name for name in _API if not hasattr(mf, name)]
pytestmark = pytest.mark.skipif(
    bool(_MISSING), reason=f"matheval_fast has no {', '.join(_MISSING)} yet (compat='xwin' API not merged)"
)

SPLIT = seed.SEED_SPLIT
GSM8K = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "answer_check" / "gsm8k_xwin.json").read_text(
        encoding="utf-8"
    )
)
_NO_VALUE = object()


def _lib_extract(text: str, split: list[str] | None, policy: str) -> Any:
    return mf.extract_answer(text, split, policy, compat="xwin")


def _lib_simple(model: str, gt: str, extract_policy: str, eval_policy: str, split: list[str] | None) -> Any:
    return bool(mf.simple_answer_check(model, gt, extract_policy, eval_policy, split, compat="xwin"))


def _lib_latex(model: str, gt: str, split: list[str] | None, extract_policy: str, eval_policy: str) -> Any:
    return bool(mf.latex_answer_check(model, gt, split, extract_policy, eval_policy, compat="xwin"))


def _oracle(fn: Any, *args: Any) -> Any:
    """The oracle's answer, or ``_NO_VALUE`` where the seed would crash."""
    try:
        return fn(*args)
    except Exception:
        return _NO_VALUE


def _agrees(expected: Any, lib_fn: Any, *args: Any) -> tuple[bool, Any]:
    if expected is _NO_VALUE:
        try:
            got = lib_fn(*args)
        except (ValueError, TypeError) as exc:
            return True, exc
        return got is False, got
    got = lib_fn(*args)
    return got == expected and type(got) is type(expected), got


def _report(mismatches: list[tuple[Any, ...]], total: int) -> str:
    shown = "\n".join(repr(m) for m in mismatches[:15])
    return f"{len(mismatches)} of {total} disagree with the seed oracle; first ones:\n{shown}"


# ---------------------------------------------------------------------------------------------------------
# GSM8K
# ---------------------------------------------------------------------------------------------------------


def _gsm8k_responses(variant: str) -> list[tuple[str, str]]:
    if variant == "anchor":
        return [(f"The answer is: {item['answer']}.", item["answer"]) for item in GSM8K]
    if variant == "solution":
        return [(item["solution"], item["answer"]) for item in GSM8K]
    return [(f"{item['solution']}The answer is: {item['answer']}", item["answer"]) for item in GSM8K]


@pytest.mark.parametrize("variant", ["anchor", "solution", "solution+anchor"])
def test_gsm8k_extract_and_simple_check(variant):
    responses = _gsm8k_responses(variant)
    mismatches = []
    checks = 0
    for response, gold in responses:
        # Scanning a whole solution is the oracle's slow part: do it once. No solution contains an anchor
        # phrase, so there the seed config's split and no split give the same extraction (rules 2-3).
        seed_split = [] if variant == "solution" else SPLIT
        if variant == "solution":
            assert not any(phrase in response for phrase in SPLIT)
        answer = seed.extract_answer(response, seed_split, "flex")
        expected = _oracle(seed.simple_check_extracted, answer, gold, "strict")
        lib_splits = [None, []] if variant != "solution+anchor" else [None]
        for split in lib_splits:
            if variant == "anchor" and split == []:
                answer_here = seed.extract_answer(response, [], "flex")
                expected_here = _oracle(seed.simple_check_extracted, answer_here, gold, "strict")
            else:
                answer_here, expected_here = answer, expected
            checks += 2
            ok, got = _agrees(answer_here, _lib_extract, response, split, "flex")
            if not ok:
                mismatches.append(("extract", response[-80:], split, answer_here, got))
            ok, got = _agrees(expected_here, _lib_simple, response, gold, "flex", "strict", split)
            if not ok:
                mismatches.append(("simple", response[-80:], gold, split, expected_here, got))
    assert not mismatches, _report(mismatches, checks)


def test_gsm8k_library_figures():
    anchor = sum(_lib_simple(r, g, "flex", "strict", None) for r, g in _gsm8k_responses("anchor"))
    rule3 = sum(_lib_simple(r, g, "flex", "strict", []) for r, g in _gsm8k_responses("solution"))
    assert (anchor, rule3) == (1319, 1276)


# ---------------------------------------------------------------------------------------------------------
# Fixed corpus (document tables and tricky strings)
# ---------------------------------------------------------------------------------------------------------

_LIB_FNS = {
    "extract_answer": lambda a: _lib_extract(a["text"], a["split"], a["extract_policy"]),
    "simple_answer_check": lambda a: _lib_simple(
        a["model"], a["gt"], a["extract_policy"], a["eval_policy"], a["split"]
    ),
    "latex_answer_check": lambda a: _lib_latex(
        a["model"], a["gt"], a["split"], a["extract_policy"], a["eval_policy"]
    ),
}


def test_corpus():
    corpus = load_corpus()
    mismatches = []
    for entry in corpus:
        expected = entry["expected"] if "expected" in entry else _NO_VALUE
        ok, got = _agrees(expected, _LIB_FNS[entry["fn"]], entry["args"])
        if not ok:
            mismatches.append((entry["fn"], entry["args"], entry.get("expected", entry.get("raises")), got))
    assert not mismatches, _report(mismatches, len(corpus))


# ---------------------------------------------------------------------------------------------------------
# Hypothesis: strings that stress the grammar
# ---------------------------------------------------------------------------------------------------------

_CHARS = list("0123456789٣٥.,/:-+eE$\\{}()[]^%_xyz \n\t'\"")
_WORDS = [
    "\\boxed{",
    "\\mbox{",
    "The answer is",
    "The answer is: ",
    "####",
    "\\frac",
    "\\text{",
    "\\sqrt",
    "}",
    "$$",
    "1,234",
    "0.5",
    "e-3",
    "12",
    " = ",
]
texts = st.lists(st.sampled_from(_CHARS + _WORDS), max_size=24).map("".join)
splits = st.sampled_from([None, [], ["####"], ["The answer is"], ["=", "is"]])
_NUM_CHARS = list("0123456789٣.,/:-+eE<>#x_ %()\n")
numeric_texts = st.lists(st.sampled_from([*_NUM_CHARS, "The answer is: ", "1,000", "0x1"]), max_size=16).map(
    "".join
)
gts = st.one_of(
    st.sampled_from(["12", "5", "0.5", "-3", "1,234", "1/3", "3", "abc", "x", "\\frac{1}{2}", "7(x-3)(x+3)"]),
    st.lists(st.sampled_from(_CHARS + _WORDS), min_size=1, max_size=8).map("".join),
)


@given(texts, splits, st.sampled_from(["flex", "strict"]))
def test_hypothesis_extract_answer(text, split, policy):
    expected = seed.extract_answer(text, SPLIT if split is None else split, policy)
    ok, got = _agrees(expected, _lib_extract, text, split, policy)
    assert ok, (text, split, policy, expected, got)


@given(
    st.one_of(texts, numeric_texts),
    st.one_of(gts, numeric_texts),
    st.sampled_from(["strict", "model_include_gt", "gt_include_model"]),
    splits,
)
def test_hypothesis_simple_answer_check(text, gt, eval_policy, split):
    expected = _oracle(
        seed.simple_answer_check, text, gt, "flex", eval_policy, SPLIT if split is None else split
    )
    ok, got = _agrees(expected, _lib_simple, text, gt, "flex", eval_policy, split)
    assert ok, (text, gt, eval_policy, split, expected, got)


@given(texts, gts, st.sampled_from(["aggressive", "conservative"]), st.sampled_from([None, SPLIT]))
def test_hypothesis_latex_answer_check(text, gt, eval_policy, split):
    expected = _oracle(seed.latex_answer_check, text, gt, split, "flex", eval_policy)
    ok, got = _agrees(expected, _lib_latex, text, gt, split, "flex", eval_policy)
    assert ok, (text, gt, eval_policy, split, expected, got)
