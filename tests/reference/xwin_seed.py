"""Slow, readable pure-Python reference of the Xwin-Math answer checker (the seed tool).

This is the oracle that ``compat="xwin"`` is tested against. It follows the behaviour described in
``answer_check_seed_tool.md`` (sections 1.5, 2.1-2.3 and 4), quirks included:

- extraction (rules 1-3) uses pyparsing 3.3.3 with the seed's grammar, so scanning semantics are pyparsing's
  own: whitespace skipping between tokens, tabs expanded to 8-column stops before scanning, ``Word(max=n)``
  refusing a longer run, ``nested_expr`` skipping quoted strings, ``SkipTo`` for ``$...$``;
- the simple checker uses Python ``re`` with the seed's patterns in the seed's order (unescaped ``.``);
- the LaTeX checker keeps the dead tolerance branch, the vacuous ground-truth test and the lowercasing.

Two things differ from the seed on purpose, because the seed runs model text as Python:

- ``cast_to_number`` evaluates fraction strings with :func:`safe_eval_number` (numbers and arithmetic only,
  evaluated with Python numbers, so the result type is what ``eval`` gives) instead of ``eval``;
- ``parse_expr`` is emulated without ``eval`` in :mod:`matheval_fast._sympy.xwin`.

Nothing here catches ``BaseException`` (the seed's bare ``except`` would also swallow ``KeyboardInterrupt``).
"""

from __future__ import annotations

import ast
import json
import math
import operator
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pyparsing as pp
from matheval_fast._sympy.xwin import xwin_symbolic_equal

__all__ = [
    "SEED_SPLIT",
    "cast_to_number",
    "extract_answer",
    "get_simple_numbers",
    "latex_answer_check",
    "number_check",
    "remove_boxes_keep_content",
    "remove_equals",
    "remove_text_box_only",
    "safe_eval_number",
    "search_for_boxes",
    "search_for_numbers",
    "simple_answer_check",
    "simple_check_extracted",
    "string_normalization",
    "xwin_symbolic_equal",
]

_CONFIG = Path(__file__).resolve().parents[2] / "data" / "answer_check" / "eval_config_xwin.json"
# The seed config's extract_pattern: "####", "The answer is: ", "The answer is".
SEED_SPLIT: list[str] = json.loads(_CONFIG.read_text(encoding="utf-8"))["extract_pattern"]

# ---------------------------------------------------------------------------------------------------------
# Grammar (built once; pyparsing elements carry no per-call state here)
# ---------------------------------------------------------------------------------------------------------

_SIGNED_DIGITS = "-" + pp.nums  # the seed's integer Word: first char may be '-', so a lone '-' is a token


def _integer() -> pp.Word:
    return pp.Word(_SIGNED_DIGITS, pp.nums)


# \boxed{...} or \mbox{...}; the brace group is kept as original text so nested braces survive.
_BRACE_GROUP = pp.original_text_for(pp.nested_expr("{", "}"))
_BOX = (pp.Literal("\\boxed") + _BRACE_GROUP) | (pp.Literal("\\mbox") + _BRACE_GROUP)

_LATEX_SPAN = pp.Combine(pp.Suppress("$") + pp.SkipTo("$") + pp.Suppress("$"))
_SCIENTIFIC = pp.Combine(_integer() + "e" + _integer())
_FRACTION = pp.Combine(_integer() + "/" + pp.Word(pp.nums))
_DECIMAL = pp.Combine(pp.Opt(_integer()) + "." + pp.Word(pp.nums))
_COMMA_NUMBER = pp.Combine(
    pp.Opt(pp.Word("+-", exact=1))
    + pp.Word(pp.nums, max=3)
    + pp.OneOrMore(pp.Suppress(",") + pp.Word(pp.nums, min=3, max=3))
    + pp.Suppress(~pp.Literal(","))
)
_NUMBER_TOKEN = _LATEX_SPAN | _SCIENTIFIC | _FRACTION | _DECIMAL | _COMMA_NUMBER | _integer()
# Speed only: every alternative starts (after the same whitespace skip) with one of these characters, so the
# look-ahead rejects a position with one parse exception instead of six and changes no result.
_NUMBER_SCANNER = pp.FollowedBy(pp.Regex(r"[$+\-.0-9]")) + _NUMBER_TOKEN

# \text{...} or \mbox{...} with an optional ^digit (units such as \text{cm}^2), removed entirely.
_UNIT_POWER = pp.Opt("^" + pp.Char(pp.nums))
_TEXT_GROUP = (pp.Literal("\\text") + pp.nested_expr("{", "}") + _UNIT_POWER) | (
    pp.Literal("\\mbox") + pp.nested_expr("{", "}") + _UNIT_POWER
)
_TEXT_GROUP_REMOVER = _TEXT_GROUP.suppress()


def search_for_boxes(text: str) -> list[str]:
    """Contents of every ``\\boxed{...}`` / ``\\mbox{...}``, in order (``search_string`` expands tabs)."""
    return [match[1][1:-1] for match in _BOX.search_string(text)]


def search_for_numbers(text: str) -> list[str]:
    """Every number token (``$...$`` span, scientific, a/b, decimal, comma-grouped, integer), in order."""
    return [match[0] for match in _NUMBER_SCANNER.search_string(text)]


def remove_text_box_only(text: str) -> str:
    """Delete whole ``\\text{...}`` and ``\\mbox{...}`` groups (``transform_string`` keeps tabs)."""
    return _TEXT_GROUP_REMOVER.transform_string(text)


# ---------------------------------------------------------------------------------------------------------
# Extraction and string helpers (section 2.1)
# ---------------------------------------------------------------------------------------------------------


def extract_answer(text: str, split: Sequence[str], extract_policy: str) -> str | None:
    """Rules 1-3: shortest tail after the last occurrence of any split phrase; else (flex) the last box; else
    (flex) the last number token; else ``None``."""
    tails = [text.split(phrase)[-1] for phrase in split if text.find(phrase) != -1]
    if tails:
        shortest = tails[0]
        for tail in tails[1:]:
            if len(tail) < len(shortest):  # strict: the earliest phrase wins a tie
                shortest = tail
        return shortest
    if extract_policy == "flex":
        boxes = search_for_boxes(text)
        if boxes:
            return boxes[-1]
        numbers = search_for_numbers(text)
        if numbers:
            return numbers[-1]
    return None


def remove_prefix_and_suffix(text: str) -> str:
    """Strip spaces/newlines, then trailing periods, twice."""
    return text.strip(" \n").rstrip(".").strip(" \n").rstrip(".")


_NORMALIZATION_DELETIONS = ("\\$", "$", "\\%", "%", "^\\circ", "^{\\circ}")


def string_normalization(text: str) -> str:
    """Delete currency, percent and degree marks and ``{,}``, spell out π, then lowercase everything."""
    for mark in _NORMALIZATION_DELETIONS:
        text = text.replace(mark, "")
    text = text.replace("π", "\\pi").replace("{,}", "").replace("°", "")
    return text.lower()


_BOX_MACROS = ("\\box", "\\boxed", "\\mbox", "\\text")


def remove_boxes_keep_content(text: str) -> str:
    """Unwrap each macro (prefix match: ``\\textbf`` counts as ``\\text``) at the first ``{`` after it.

    For each macro in turn: find its first occurrence, the first ``{`` anywhere after it, and that brace's
    match by counting; replace macro..``}`` by the content. Stop for that macro when any step fails.
    """
    for macro in _BOX_MACROS:
        while True:
            start = text.find(macro)
            if start == -1:
                break
            open_at = text.find("{", start)
            if open_at == -1:
                break
            close_at = _matching_brace(text, open_at)
            if close_at is None:
                break
            text = text[:start] + text[open_at + 1 : close_at] + text[close_at + 1 :]
    return text


def _matching_brace(text: str, open_at: int) -> int | None:
    depth = 0
    for i in range(open_at, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
        if depth == 0:
            return i
    return None


def remove_equals(text: str) -> str:
    """With exactly one ``=``: the right side, unless it is ``0`` and the left has two or more chars."""
    parts = text.split("=")
    if len(parts) != 2:
        return text
    left, right = parts
    if remove_prefix_and_suffix(right) == "0" and len(remove_prefix_and_suffix(left)) >= 2:
        return left
    return right


# ---------------------------------------------------------------------------------------------------------
# simple_answer_check (section 2.2)
# ---------------------------------------------------------------------------------------------------------

_MAX_EXPONENT = 10_000

_SAFE_BINOPS: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
_SAFE_CMPOPS: dict[type[ast.cmpop], Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}


def safe_eval_number(text: str) -> Any:
    """What ``eval(text)`` gives for numeric arithmetic, computed with Python numbers; raises otherwise.

    The seed's regexes put arbitrary single characters between digits, so ``eval`` sees strings such as
    ``1<2/3`` (a bool), ``1#2/3`` (a comment: 1), ``0x1/2`` (hex: 0.5), ``1_000/3`` or ``5%2/3``. Names,
    calls, attributes and bitwise operators raise, as they would (NameError, TypeError on a float) in the
    seed; both end as "wrong".
    """
    return _eval_node(ast.parse(text, mode="eval").body)


def _eval_node(node: ast.AST) -> Any:
    if isinstance(node, ast.Constant) and type(node.value) in (int, float, complex):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        value = _eval_node(node.operand)
        return -value if isinstance(node.op, ast.USub) else +value
    if isinstance(node, ast.BinOp) and type(node.op) in _SAFE_BINOPS:
        left, right = _eval_node(node.left), _eval_node(node.right)
        if isinstance(node.op, ast.Pow) and abs(right) > _MAX_EXPONENT:
            raise ValueError("exponent too large")
        return _SAFE_BINOPS[type(node.op)](left, right)
    if isinstance(node, ast.Compare) and all(type(op) in _SAFE_CMPOPS for op in node.ops):
        # Chained comparison: each operand evaluated once, stop at the first false link.
        left = _eval_node(node.left)
        result: Any = True
        for op, right_node in zip(node.ops, node.comparators, strict=True):
            right = _eval_node(right_node)
            result = _SAFE_CMPOPS[type(op)](left, right)
            if not result:
                return result
            left = right
        return result
    raise ValueError(f"{type(node).__name__} is not numeric arithmetic")


def cast_to_number(text: str) -> Any:
    """The seed's cast: ``:`` means ``/``; no ``.`` nor ``/``: ``int()``; integral decimals become ints;
    fractions are evaluated (a float, or whatever the expression gives); other decimals are floats."""
    text = text.replace(":", "/")
    if "." not in text and "/" not in text:
        return int(text)
    if "/" not in text and abs(int(float(text)) - float(text)) < 1e-10:
        return int(float(text))
    if "/" in text:
        return safe_eval_number(text)
    return float(text)


# In the seed's order. The '.' in them is unescaped, so it matches any character but a newline.
_SIMPLE_NUMBER_PATTERNS = (
    re.compile(r"(-?\d(.\d+)?[eE][+-]?\d+)"),  # scientific
    re.compile(r"(-?\d+(.\d+)?\s*[/:]\s*\d+(.\d+)?)"),  # fraction or ratio with decimal parts
    re.compile(r"(-?\d{1,3}(,\d{3})+(.\d+)?)"),  # comma-grouped thousands
    re.compile(r"-?\d+\s*[\./:]\s*\d+"),  # a.b, a/b, a:b with spaces
    re.compile(r"-?\d+"),  # integer
)


def get_simple_numbers(text: str) -> list[Any]:
    """Numbers found by each pattern in turn, each pattern's matches deleted before the next runs.

    Raises whatever ``cast_to_number`` raises (the caller turns that into "wrong").
    """
    numbers: list[Any] = []
    for pattern in _SIMPLE_NUMBER_PATTERNS:
        for found in pattern.findall(text):
            # findall gives group tuples for patterns with groups; group 1 is the whole match.
            item = found[0] if isinstance(found, tuple) and found[0] != "" else found
            numbers.append(cast_to_number(item.replace(",", "")))
        text = pattern.sub("", text)
    return numbers


def compare_numbers(a: Any, b: Any) -> bool:
    """Exact for two Python ints (bools are ints), else relative tolerance 1e-3 and no absolute one."""
    if isinstance(a, int) and isinstance(b, int):
        return a == b
    return math.isclose(a, b, rel_tol=1e-3)


def _match_greedily(gt_numbers: list[Any], model_numbers: list[Any]) -> None:
    """Repeatedly remove the first (gt, model) pair that compares equal, scanning gt-major.

    ``list.remove`` deletes the first *equal* element, which may be an earlier element of another type
    (``1`` vs ``1.0`` vs ``True``) than the one matched; kept because later comparisons depend on types.
    """
    while gt_numbers and model_numbers:
        pair = next(
            ((g, m) for g in gt_numbers for m in model_numbers if compare_numbers(m, g)),
            None,
        )
        if pair is None:
            return
        gt_value, model_value = pair
        model_numbers.remove(model_value)
        gt_numbers.remove(gt_value)


def simple_answer_check(
    model: str, gt: Any, extract_policy: str, eval_policy: str, split: Sequence[str]
) -> bool | None:
    """GSM8K-style check. ``None`` for an unknown ``eval_policy`` (the seed falls off its if-chain)."""
    return simple_check_extracted(extract_answer(model, split, extract_policy), gt, eval_policy)


def simple_check_extracted(answer: str | None, gt: Any, eval_policy: str) -> bool | None:
    """``simple_answer_check`` after its extraction step (``answer`` is what ``extract_answer`` gave)."""
    if answer is None:
        return False
    answer = answer.rstrip(".").rstrip(" ").rstrip("\n").rstrip(".").rstrip(" ").rstrip("\n").replace("$", "")
    try:
        gt_numbers = get_simple_numbers(gt)
        model_numbers = get_simple_numbers(answer)
    except Exception:  # the seed's `except Exception`: any casting error (or a non-str gt) is "wrong"
        return False

    if not gt_numbers and not model_numbers:
        return (
            answer.replace("\n", "").replace(" ", "").lower() == gt.replace("\n", "").replace(" ", "").lower()
        )
    if not gt_numbers or not model_numbers:
        return False
    if eval_policy == "strict" and len(gt_numbers) != len(model_numbers):
        return False

    _match_greedily(gt_numbers, model_numbers)

    if eval_policy == "strict":
        return not gt_numbers and not model_numbers
    if eval_policy == "model_include_gt":
        return not gt_numbers
    if eval_policy == "gt_include_model":
        return not model_numbers
    return None


# ---------------------------------------------------------------------------------------------------------
# latex_answer_check (section 2.3)
# ---------------------------------------------------------------------------------------------------------


def has_numbers(text: str) -> bool:
    """Any character with ``str.isdigit()`` (this includes superscripts such as '²')."""
    return any(ch.isdigit() for ch in text)


_STRUCTURE_CHARS = frozenset("()[]\\<>,xyz")


def has_structure(text: str) -> bool:
    """Brackets, backslash, angle brackets, comma, or a lowercase x, y or z anywhere."""
    return any(ch in _STRUCTURE_CHARS for ch in text)


def _squeeze(text: str) -> str:
    return text.replace(",", " ").replace(" ", "")


def literal_check(model: str, gt: str) -> bool | None:
    """``True`` when equal without commas and spaces, or, with no digit on either side, also without outer
    ``[]()``; never ``False``."""
    model_squeezed, gt_squeezed = _squeeze(model), _squeeze(gt)
    if model_squeezed == gt_squeezed:
        return True
    if (
        not has_numbers(model)
        and not has_numbers(gt)
        and model_squeezed.strip("[]() ") == gt_squeezed.strip("[]() ")
    ):
        return True
    return None


def convert_to_int(text: str) -> int | None:
    """``int(float(text))`` when that is within relative 1e-9 of the float (so big ints go through float)."""
    try:
        as_float = float(text)
        as_int = int(as_float)
    except (ValueError, OverflowError, TypeError):
        return None
    return as_int if math.isclose(as_int, as_float, rel_tol=1e-9) else None


def convert_to_float(text: str) -> float | None:
    try:
        return float(text)
    except (ValueError, TypeError):
        return None


def numerical_equal(a: str, b: str) -> bool | None:
    """Two ints: exact; two floats: relative 1e-3; otherwise ``None``."""
    a_int, b_int = convert_to_int(a), convert_to_int(b)
    if a_int is not None and b_int is not None:
        return a_int == b_int
    a_float, b_float = convert_to_float(a), convert_to_float(b)
    if a_float is not None and b_float is not None:
        return math.isclose(a_float, b_float, rel_tol=1e-3)
    return None


def number_check(model: str, gt: str) -> bool | None:
    """``None`` if either side has a comma; else numerical, then symbolic comparison after ``=`` removal."""
    if "," in model or "," in gt:
        return None
    model = remove_prefix_and_suffix(remove_equals(model))
    gt = remove_prefix_and_suffix(remove_equals(gt))
    numerical = numerical_equal(model, gt)
    if numerical is not None:
        return numerical
    return xwin_symbolic_equal(model, gt)


def latex_answer_check(
    model: str, gt: str, split: Sequence[str] | None, extract_policy: str, eval_policy: str
) -> bool:
    """MATH-style check. ``split=None`` means no extraction (the whole text is the answer), as in the seed.

    Raises ``IndexError`` for an empty ``gt`` under the aggressive policy unless the literal check already
    succeeded (the seed indexes ``gt[0]``).
    """
    answer = extract_answer(model, split, extract_policy) if split is not None else model
    if answer is None:
        return False

    answer_norm = string_normalization(answer)
    gt_norm = string_normalization(gt)
    literal = literal_check(
        remove_prefix_and_suffix(remove_boxes_keep_content(answer_norm)),
        remove_prefix_and_suffix(remove_boxes_keep_content(gt_norm)),
    )
    if literal is not None:
        return literal

    if eval_policy == "aggressive" and _single_number_agrees(answer, gt):
        return True

    verdict = number_check(remove_prefix_and_suffix(answer_norm), remove_prefix_and_suffix(gt_norm))
    return bool(verdict)


def _single_number_agrees(answer: str, gt: str) -> bool:
    """The aggressive path on the raw (not normalised) strings; only a ``True`` from it counts."""
    model_tokens = search_for_numbers(answer)
    # The ground truth is wrapped in $...$ unless it already starts and ends with '$'.
    gt_tokens = search_for_numbers(gt if gt[0] == "$" and gt[-1] == "$" else "$" + gt + "$")
    if len(model_tokens) != 1 or len(gt_tokens) != 1:
        return False
    if has_structure(answer.replace(model_tokens[0], "")) or has_structure(gt.replace(gt_tokens[0], "")):
        return False
    model_num = remove_prefix_and_suffix(remove_boxes_keep_content(remove_text_box_only(model_tokens[0])))
    gt_num = remove_prefix_and_suffix(remove_boxes_keep_content(remove_text_box_only(gt_tokens[0])))
    return number_check(model_num, gt_num) is True
