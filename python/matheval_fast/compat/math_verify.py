"""math-verify's API on matheval_fast: switch with a one-line import change.

.. code-block:: python

    # from math_verify import parse, verify, LatexExtractionConfig, ExprExtractionConfig
    from matheval_fast.compat.math_verify import parse, verify, LatexExtractionConfig, ExprExtractionConfig

    gold = parse("$\\\\frac{1}{2}$")
    answer = parse("... so the answer is $0.5$.")
    verify(gold, answer)            # True; gold first, as in math-verify

``parse(pred, extraction_config, fallback_mode, extraction_mode, parsing_timeout, raise_on_error)``
returns a list like math-verify's: ``[]`` when the text holds no answer, else one :class:`Answer`
(a ``str``: the extracted answer, with ``.source``: the text it came from). ``verify(gold, target,
float_rounding, numeric_precision, strict, allow_set_relation_comp, timeout_seconds,
raise_on_error)`` is True when any (gold, target) pair matches, like math-verify's; a target from
:func:`parse` is checked as a whole response (``matheval_fast.check(target.source, gold)``), so the
verdicts are exactly those of :func:`matheval_fast.check` / ``check_batch`` / the Arrow kernel; a
plain string target is an already-extracted answer (``matheval_fast.verify``).

What differs (``docs/policies.md`` has the policies): no signals (thread-safe, any OS); one extractor
for every configuration; numbers compared at the gold's written precision; intervals and
inequalities equal both ways. Arguments this module cannot honour are accepted and named in a
:class:`MathVerifyCompatWarning`, once per argument:

- ``extraction_config`` other than the default, ``fallback_mode="no_fallback"``,
  ``extraction_mode="first_match"``: one extraction policy serves all (anchors, last ``\\boxed{}``,
  math spans, last number); ``StringExtractionConfig`` letters are answers like any other;
- ``float_rounding`` other than 6, ``numeric_precision`` other than 15: the precision is the gold's;
- ``strict=False``: no renaming of variables, sets never equal tuples;
- ``timeout_seconds=None``: the SymPy fallback is always bounded (5 s);
- ``raise_on_error=True``: bad input gives a verdict (False), never an exception.

``parsing_timeout`` needs no honouring: parsing is bounded in the Rust core. ``allow_set_relation_comp``
is always on. Values from the real ``math_verify.parse`` (SymPy objects) are compared as their text,
with a warning.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from matheval_fast import _core
from matheval_fast import answer as _answer

__all__ = [
    "Answer",
    "ExprExtractionConfig",
    "LatexExtractionConfig",
    "LatexNormalizationConfig",
    "MathVerifyCompatWarning",
    "NormalizationConfig",
    "StringExtractionConfig",
    "parse",
    "verify",
]


class MathVerifyCompatWarning(UserWarning):
    """An argument of math-verify's API that matheval_fast accepts but cannot honour."""


_warned: set[str] = set()


def _warn_once(key: str, message: str) -> None:
    if key in _warned:
        return
    _warned.add(key)
    warnings.warn(message, MathVerifyCompatWarning, stacklevel=3)


@dataclass(frozen=True)
class NormalizationConfig:
    """latex2sympy2_extended's normalisation switches (accepted; matheval_fast normalises one way)."""

    basic_latex: bool = True
    units: bool = False
    malformed_operators: bool = False
    nits: bool = False
    boxed: Literal["all", "last", "none"] = "all"
    equations: bool = False


LatexNormalizationConfig = NormalizationConfig


@dataclass(frozen=True)
class LatexExtractionConfig:
    try_extract_without_anchor: bool = True
    boxed_match_priority: int = 50
    normalization_config: NormalizationConfig = field(
        default_factory=lambda: NormalizationConfig(units=True, malformed_operators=True, nits=True)
    )


@dataclass(frozen=True)
class ExprExtractionConfig:
    try_extract_without_anchor: bool = True


@dataclass(frozen=True)
class StringExtractionConfig:
    strings: tuple[str, ...] = ("A", "B", "C", "D")
    try_extract_without_anchor: bool = True
    lowercase: bool = True


_DEFAULT_CONFIG = (LatexExtractionConfig(), ExprExtractionConfig())


class Answer(str):
    """A parsed answer: the extracted text, remembering the text it came from (``.source``)."""

    source: str

    def __new__(cls, value: str, source: str) -> Answer:
        obj = super().__new__(cls, value)
        obj.source = source
        return obj

    def __repr__(self) -> str:
        return f"Answer({str.__repr__(self)})"


def _config_is_default(configs: Sequence[Any]) -> bool:
    """Ours, or math-verify's own objects, equal to the default pair (compared by fields)."""

    def sig(c: Any) -> tuple:
        name = type(c).__name__
        if name == "LatexExtractionConfig":
            return (name, c.try_extract_without_anchor, c.boxed_match_priority)
        if name == "ExprExtractionConfig":
            return (name, c.try_extract_without_anchor)
        return (name, id(c))

    return [sig(c) for c in configs] == [sig(c) for c in _DEFAULT_CONFIG]


_WORDS = re.compile(r"[A-Za-z]{3,}")
_COMMAND = re.compile(r"\\[A-Za-z]+(\{[^{}]*\})?")


def _bare(text: str) -> bool:
    """A text that is an answer by itself (``x^2+1``, ``(1,2)``, ``B``, ``\\text{east}``), not prose."""
    t = text.strip().strip("$")
    return 0 < len(t) <= 200 and not _WORDS.search(_COMMAND.sub(" ", t))


def parse(
    pred: str,
    extraction_config: Sequence[Any] = _DEFAULT_CONFIG,
    fallback_mode: Literal["no_fallback", "first_match"] = "first_match",
    extraction_mode: Literal["first_match", "any_match"] = "any_match",
    parsing_timeout: float | None = 5,
    raise_on_error: bool = False,
) -> list[Answer]:
    """The answer in ``pred``: ``[]`` when there is none, else ``[Answer]`` (see the module doc)."""
    if not isinstance(pred, str):
        raise TypeError(f"pred must be a str, got {type(pred).__name__}")
    if not _config_is_default(list(extraction_config)):
        _warn_once(
            "extraction_config",
            "extraction_config is not honoured: matheval_fast extracts with one policy "
            "(anchors, last \\boxed{}, math spans, last number); see docs/policies.md",
        )
    if fallback_mode != "first_match":
        _warn_once(
            "fallback_mode", f"fallback_mode={fallback_mode!r} is not honoured: parse returns [Answer]"
        )
    if extraction_mode != "any_match":
        _warn_once(
            "extraction_mode", f"extraction_mode={extraction_mode!r} is not honoured: one extraction policy"
        )
    if raise_on_error:
        _warn_once(
            "raise_on_error",
            "raise_on_error=True is not honoured: bad input gives a verdict, not an exception",
        )
    if _bare(pred):
        return [Answer(pred.strip().strip("$").strip(), pred)]
    found = _core.extract_answer(pred, None, "flex", compat="fixed")
    return [] if found is None else [Answer(found, pred)]


def _items(x: Any, side: str) -> list[Any]:
    if isinstance(x, (str, Answer)):
        return [x]
    if isinstance(x, Iterable):
        return list(x)
    return [x]


def _text(v: Any, side: str) -> str | Answer:
    if isinstance(v, str):
        return v
    _warn_once(
        "sympy_values",
        f"verify got a {type(v).__name__} as {side} (from math_verify.parse?): compared as its text; "
        "use matheval_fast.compat.math_verify.parse",
    )
    return str(v)


def verify(
    gold: Any,
    target: Any,
    float_rounding: int = 6,
    numeric_precision: int = 15,
    strict: bool = True,
    allow_set_relation_comp: bool = False,
    timeout_seconds: float | None = 5,
    raise_on_error: bool = False,
) -> bool:
    """Does any target match any gold? Gold first, as in math-verify (see the module doc)."""
    if float_rounding != 6:
        _warn_once(
            "float_rounding",
            f"float_rounding={float_rounding} is not honoured: "
            "numbers compare at the gold's written precision",
        )
    if numeric_precision != 15:
        _warn_once("numeric_precision", f"numeric_precision={numeric_precision} is not honoured")
    if not strict:
        _warn_once(
            "strict", "strict=False is not honoured: variables are never renamed, sets never equal tuples"
        )
    if timeout_seconds is None:
        _warn_once(
            "timeout_seconds",
            "timeout_seconds=None is not honoured: the SymPy fallback is bounded (30 s of CPU time)",
        )
    if raise_on_error:
        _warn_once(
            "raise_on_error",
            "raise_on_error=True is not honoured: bad input gives a verdict, not an exception",
        )
    timeout = float(timeout_seconds) if timeout_seconds is not None else _answer.DEFAULT_SYMPY_TIMEOUT
    golds = [_text(g, "gold") for g in _items(gold, "gold")]
    targets = [_text(t, "target") for t in _items(target, "target")]
    for g in golds:
        for t in targets:
            g_text = g.source if isinstance(g, Answer) else g
            if isinstance(t, Answer):
                ok = _answer.check(t.source, g_text, timeout=timeout).correct
            else:
                ok = _answer.verify(str(g), t, timeout=timeout)
            if ok:
                return True
    return False
